//! `GET /api/events`: the change stream, server-sent events for one open page. Each `change`
//! event says the caller's team wrote something its pages show; its id is the team's count
//! of writes, so a page that reconnects with `Last-Event-ID` hears at once if it missed
//! one, and nothing if it did not. Another team's writes never show in it. A stream ends
//! after a few minutes (the page reconnects, and its key is checked again) or when the
//! server shuts down.

use super::caller::Caller;
use super::state::AppState;
use crate::error::{ApiError, ApiResult};
use crate::flows::changes::Subscription;
use crate::store::team_changes;
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

/// How long a page waits before reconnecting after the stream ends.
const RETRY: Duration = Duration::from_secs(2);

pub async fn stream(
    caller: Caller,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let resumed = last_event_id(&headers)?;
    let mut tx = state.db.read().await?;
    let now = team_changes::of(&mut tx, &caller.team_id).await?;
    drop(tx);
    let cursor = Cursor {
        team_id: caller.team_id,
        // A page that saw this count has missed nothing; any other (older, or from a
        // database since replaced) hears the current one first.
        pending: (resumed != Some(now)).then_some(now),
        greeted: false,
        last: now,
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
    subscription: Subscription,
    until: Instant,
}

fn change(count: i64) -> Event {
    Event::default()
        .event("change")
        .id(count.to_string())
        .data(format!("{{\"changes\":{count}}}"))
}

async fn next_event(mut c: Cursor) -> Option<(Result<Event, Infallible>, Cursor)> {
    if *c.subscription.closed.borrow() {
        return None;
    }
    if !c.greeted {
        // The first chunk goes out at once, so the page knows the stream is open.
        c.greeted = true;
        let first = match c.pending.take() {
            Some(count) => change(count),
            None => Event::default().comment("open"),
        };
        return Some((Ok(first.retry(RETRY)), c));
    }
    loop {
        let seen = c
            .subscription
            .counts
            .borrow_and_update()
            .get(&c.team_id)
            .copied();
        if let Some(count) = seen.filter(|n| *n > c.last) {
            c.last = count;
            return Some((Ok(change(count)), c));
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
