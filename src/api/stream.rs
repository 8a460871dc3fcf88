//! `GET /api/events`, read as it arrives: a `fetch` rather than `EventSource`, because the
//! key goes in the `Authorization` header (never in the address, where logs keep it), and
//! `Last-Event-ID` is sent by hand on a reconnect.

use super::connection::Connection;
use super::ApiError;
use buildd_core::event_stream::{EventReader, StreamEvent};
use gloo_net::http::Request;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, ReadableStreamDefaultReader};

/// Opens the stream and hands each event to `on_event` until it ends: `Ok` when the server
/// closed it, else why it could not be read. `opened` runs once the server has answered.
pub async fn change_stream(
    conn: &Connection,
    last_id: Option<String>,
    abort: &AbortSignal,
    opened: impl FnOnce(),
    mut on_event: impl FnMut(StreamEvent),
) -> Result<(), ApiError> {
    let mut request = Request::get(&conn.url("/api/events"))
        .header("Authorization", &format!("Bearer {}", conn.key))
        .header("Accept", "text/event-stream")
        .abort_signal(Some(abort));
    if let Some(id) = &last_id {
        request = request.header("Last-Event-ID", id);
    }
    let response = request
        .send()
        .await
        .map_err(|_| ApiError::Unreachable(conn.server_name()))?;
    if !response.ok() {
        return Err(super::refusal(response).await);
    }
    let reader: ReadableStreamDefaultReader = response
        .body()
        .ok_or_else(|| ApiError::Decode("the change stream has no body".into()))?
        .get_reader()
        .unchecked_into();
    opened();
    let mut events = EventReader::default();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|_| ApiError::Unreachable(conn.server_name()))?;
        if field(&chunk, "done").as_bool().unwrap_or(true) {
            return Ok(());
        }
        let bytes = Uint8Array::new(&field(&chunk, "value")).to_vec();
        for event in events.push(&bytes) {
            on_event(event);
        }
    }
}

fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}
