//! `GET /api/events`: the change stream, server-sent events for one open page. Each `change`
//! event says the caller's team wrote something its pages show; its id is the team's count
//! of writes, so a page that reconnects with `Last-Event-ID` hears at once if it missed
//! one, and nothing if it did not. Another team's writes never show in it, and a busy
//! team's pages hear at most one event a second. A stream ends
//! after a few minutes (the page reconnects, and its key is checked again) or when the
//! server shuts down.

use super::caller::Caller;
use super::state::AppState;
use crate::error::{ApiError, ApiResult};
use crate::flows::changes::{self, Subscription};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::time::Duration;
use tokio::time::Instant;

/// How long one stream lasts before the page is asked to reconnect.
const LIFETIME: Duration = Duration::from_secs(300);

/// A comment this often keeps proxies from closing a quiet stream.
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// The least time between two events: a busy team's pages re-read at most once a second.
const MIN_GAP: Duration = Duration::from_secs(1);

/// How long a page waits before reconnecting after the stream ends.
const RETRY: Duration = Duration::from_secs(2);

pub async fn stream(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let resumed = last_event_id(&headers)?;
    let now = changes::team_count(&state.db, &caller.team_id).await?;
    let cursor = Cursor {
        team_id: caller.team_id,
        // A page that saw this count has missed nothing; any other (older, or from a
        // database since replaced) hears the current one first.
        pending: (resumed != Some(now)).then_some(now),
        greeted: false,
        last: now,
        sent_at: None,
        subscription: state.changes.subscribe(),
        until: Instant::now() + LIFETIME,
    };
    let events = futures_util::stream::unfold(cursor, next_event);
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

/// The count a reconnecting page saw last; absent on a first connection.
fn last_event_id(headers: &HeaderMap) -> ApiResult<Option<i64>> {
    let Some(value) = headers.get("last-event-id") else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<i64>()
        .ok()
        .filter(|n| *n >= 0)
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad(
                "Last-Event-ID: must be the id of an event this stream sent (a whole number)",
            )
        })
}

struct Cursor {
    team_id: String,
    /// A count to send first.
    pending: Option<i64>,
    greeted: bool,
    /// The latest count the page knows of.
    last: i64,
    /// When the last change was sent.
    sent_at: Option<Instant>,
    subscription: Subscription,
    until: Instant,
}

fn change(count: i64) -> Event {
    Event::default()
        .event("change")
        .id(count.to_string())
        .data(format!("{{\"changes\":{count}}}"))
}

/// What a stream sends next.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// The first chunk, with the count if the page is behind.
    Greeting(Option<i64>),
    Change(i64),
}

async fn next_event(mut c: Cursor) -> Option<(Result<Event, Infallible>, Cursor)> {
    let event = match next_step(&mut c).await? {
        Step::Greeting(Some(count)) => change(count).retry(RETRY),
        Step::Greeting(None) => Event::default().comment("open").retry(RETRY),
        Step::Change(count) => change(count),
    };
    Some((Ok(event), c))
}

async fn next_step(c: &mut Cursor) -> Option<Step> {
    if *c.subscription.closed.borrow() {
        return None;
    }
    if !c.greeted {
        // The first chunk goes out at once, so the page knows the stream is open.
        c.greeted = true;
        return Some(Step::Greeting(c.pending.take()));
    }
    loop {
        let seen = c
            .subscription
            .counts
            .borrow_and_update()
            .get(&c.team_id)
            .copied();
        if let Some(count) = seen.filter(|n| *n > c.last) {
            let due = c.sent_at.map(|at| at + MIN_GAP);
            if let Some(due) = due.filter(|due| Instant::now() < *due) {
                // Too soon after the last one: wait, then send the count as it is then.
                tokio::select! {
                    () = tokio::time::sleep_until(due) => continue,
                    _ = c.subscription.closed.wait_for(|closed| *closed) => return None,
                }
            }
            c.last = count;
            c.sent_at = Some(Instant::now());
            return Some(Step::Change(count));
        }
        tokio::select! {
            moved = c.subscription.counts.changed() => {
                if moved.is_err() {
                    return None;
                }
            }
            _ = c.subscription.closed.wait_for(|closed| *closed) => return None,
            () = tokio::time::sleep_until(c.until) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Arc;
    use tokio::sync::watch;

    fn counts(n: i64) -> crate::flows::changes::Counts {
        Arc::new(HashMap::from([("team".to_string(), n)]))
    }

    #[tokio::test(start_paused = true)]
    async fn a_busy_team_is_told_at_most_once_a_second_with_the_latest_count() {
        let (feed, counts_rx) = watch::channel(counts(0));
        let (_closed, closed_rx) = watch::channel(false);
        let mut c = Cursor {
            team_id: "team".into(),
            pending: None,
            greeted: false,
            last: 0,
            sent_at: None,
            subscription: Subscription {
                counts: counts_rx,
                closed: closed_rx,
            },
            until: Instant::now() + LIFETIME,
        };
        let start = Instant::now();
        assert_eq!(next_step(&mut c).await, Some(Step::Greeting(None)));
        // A write every 70 ms from 10 ms on, 40 in all.
        let writer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            for n in 1..=40 {
                feed.send_replace(counts(n));
                tokio::time::sleep(Duration::from_millis(70)).await;
            }
            feed
        });
        let mut heard = Vec::new();
        while heard.last().is_none_or(|(_, n)| *n < 40) {
            let Some(Step::Change(n)) = next_step(&mut c).await else {
                panic!("the stream ended");
            };
            heard.push((start.elapsed().as_millis(), n));
        }
        let _feed = writer.await.unwrap();
        // The first at once, then one a second, each with the count as it was then.
        assert_eq!(heard, [(10, 1), (1010, 15), (2010, 29), (3010, 40)]);
    }
}
