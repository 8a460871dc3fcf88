//! Server-sent events as the dashboard reads them from `GET /api/events`, chunk by chunk
//! (a chunk may end anywhere, inside a line or a UTF-8 character), by the rules of the HTML
//! standard's event-stream format: lines end in LF, CR or CRLF; `:` starts a comment; a
//! blank line dispatches what was gathered; `id` stays until a later one replaces it.

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamEvent {
    /// Its `event` field; "message" when it has none.
    pub name: String,
    pub data: String,
    /// The last `id` the stream has set, as the page would send back in `Last-Event-ID`.
    pub id: Option<String>,
}

/// The name of the event this server sends when the caller's team wrote something.
pub const CHANGE: &str = "change";

#[derive(Debug, Default)]
pub struct EventReader {
    line: Vec<u8>,
    /// A CR ended the last line, so an LF starting the next chunk belongs to it.
    after_cr: bool,
    name: String,
    data: Option<String>,
    last_id: Option<String>,
}

impl EventReader {
    /// Reads a chunk; the events it completes, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        for &byte in chunk {
            let after_cr = std::mem::take(&mut self.after_cr);
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    let line = std::mem::take(&mut self.line);
                    events.extend(self.line_ended(&String::from_utf8_lossy(&line)));
                }
                _ => self.line.push(byte),
            }
        }
        events
    }

    /// The id to resume from.
    pub fn last_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    fn line_ended(&mut self, line: &str) -> Option<StreamEvent> {
        if line.is_empty() {
            let name = std::mem::take(&mut self.name);
            let data = self.data.take()?;
            return Some(StreamEvent {
                name: if name.is_empty() {
                    "message".into()
                } else {
                    name
                },
                data,
                id: self.last_id.clone(),
            });
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => self.name = value.to_string(),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            // An id holding NUL is ignored, as a browser does.
            "id" if !value.contains('\0') => self.last_id = Some(value.to_string()),
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(id: &str, data: &str) -> StreamEvent {
        StreamEvent {
            name: CHANGE.into(),
            data: data.into(),
            id: Some(id.into()),
        }
    }

    #[test]
    fn reads_the_servers_events_and_skips_comments() {
        let mut reader = EventReader::default();
        let events = reader
            .push(b": open\nretry: 2000\n\nevent: change\nid: 7\ndata: {\"changes\":7}\n\n:\n\n");
        assert_eq!(events, vec![change("7", "{\"changes\":7}")]);
        assert_eq!(reader.last_id(), Some("7"));
    }

    #[test]
    fn an_event_split_anywhere_reads_the_same() {
        let text = "event: change\r\nid: 12\r\ndata: é\r\n\r\nevent: change\rid: 13\rdata: x\r\r";
        let whole = EventReader::default().push(text.as_bytes());
        assert_eq!(whole, vec![change("12", "é"), change("13", "x")]);
        for cut in 1..text.len() {
            let mut reader = EventReader::default();
            let mut events = reader.push(&text.as_bytes()[..cut]);
            events.extend(reader.push(&text.as_bytes()[cut..]));
            assert_eq!(events, whole, "cut at byte {cut}");
        }
    }

    #[test]
    fn data_lines_join_and_the_id_carries_over() {
        let mut reader = EventReader::default();
        let events = reader.push(b"id: 3\ndata: a\ndata: b\n\ndata\n\n");
        assert_eq!(
            events,
            vec![
                StreamEvent {
                    name: "message".into(),
                    data: "a\nb".into(),
                    id: Some("3".into()),
                },
                StreamEvent {
                    name: "message".into(),
                    data: String::new(),
                    id: Some("3".into()),
                },
            ]
        );
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_but_its_id_is_kept() {
        let mut reader = EventReader::default();
        assert!(reader.push(b"event: change\nid: 9\n\n").is_empty());
        assert_eq!(reader.last_id(), Some("9"));
        assert!(reader.push(b"data: unfinished").is_empty());
        let next = reader.push(b"\n\n");
        assert_eq!(
            next[0].name, "message",
            "the dropped event's name is not kept"
        );
    }
}
