//! The change stream, `GET /api/events`, read frame by frame as a page reads it: a team's
//! writes reach its streams with the team's count as the id, a stream resumed from the
//! latest id hears nothing old and one resumed from an older id hears the current count at
//! once, another team's writes never reach it, refusals are JSON, and closing the feed (as
//! shutdown does) ends the streams.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use buildd_core::event_stream::{EventReader, StreamEvent, CHANGE};
use buildd_server::db::sql;
use buildd_server::{app_with_changes, ChangeFeed, CheckinConfig};
use common::TestApp;
use http_body_util::BodyExt;
use std::time::Duration;
use tower::ServiceExt;

/// Far longer than the feed takes to notice a write: a test that waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(20);

struct Stream {
    body: Body,
    reader: EventReader,
    heard: Vec<StreamEvent>,
}

impl Stream {
    async fn open(router: &axum::Router, key: &str, last_id: Option<&str>) -> Stream {
        let mut request =
            Request::get("/api/events").header("Authorization", format!("Bearer {key}"));
        if let Some(id) = last_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        assert_eq!(headers[header::CONTENT_TYPE], "text/event-stream");
        assert_eq!(headers[header::CACHE_CONTROL], "no-store");
        Stream {
            body: response.into_body(),
            reader: EventReader::default(),
            heard: Vec::new(),
        }
    }

    /// The next frame's bytes; `None` once the stream has ended.
    async fn frame(&mut self) -> Option<Vec<u8>> {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.body.frame())
                .await
                .expect("the stream sends or ends in time")?
                .expect("a readable frame");
            if let Ok(data) = frame.into_data() {
                return Some(data.to_vec());
            }
        }
    }

    /// The id of the next change event.
    async fn next_change(&mut self) -> i64 {
        loop {
            if let Some(i) = self.heard.iter().position(|e| e.name == CHANGE) {
                let event = self.heard.remove(i);
                return event.id.expect("an id").parse().expect("a count");
            }
            let bytes = self.frame().await.expect("the stream stays open");
            self.heard.extend(self.reader.push(&bytes));
        }
    }

    /// Hears changes up to the count `n` (a request of several writes may be heard in
    /// steps); the ids heard, each above the one before.
    async fn hear(&mut self, n: i64) -> Vec<i64> {
        let mut ids: Vec<i64> = Vec::new();
        while ids.last() != Some(&n) {
            let id = self.next_change().await;
            assert!(id <= n, "heard {id}, beyond the count {n}");
            assert!(
                ids.last().is_none_or(|last| id > *last),
                "{ids:?} then {id}"
            );
            ids.push(id);
        }
        ids
    }

    /// Reads the greeting (the frame that goes out at once), and returns the events in it.
    async fn greeting(&mut self) -> Vec<StreamEvent> {
        let bytes = self.frame().await.expect("a first frame");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert!(text.contains("retry: 2000"), "{text}");
        self.reader.push(&bytes)
    }
}

async fn count(app: &TestApp, team: &str) -> i64 {
    let mut tx = app.db.read().await.unwrap();
    // On Postgres the count moves as the change log is sequenced: the count it comes to.
    let (n,): (i64,) = sql::query_as("SELECT changes FROM teams WHERE name = ?")
        .postgres(
            "SELECT t.changes + (SELECT COUNT(*) FROM changes c \
               WHERE c.team_id = t.id AND c.position IS NULL) \
             FROM teams t WHERE t.name = ?",
        )
        .bind(team)
        .fetch_one(&mut tx)
        .await
        .unwrap();
    n
}

/// Two servers on one Postgres database: a write through one reaches a page whose stream
/// is open on the other; the page, reconnecting to the first with the id it heard, is told
/// nothing old, and with an older id hears the current count at once.
#[tokio::test]
async fn a_write_through_one_replica_reaches_a_stream_on_the_other() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    let mut stream = Stream::open(&other, &app.admin, None).await;
    let greeting = stream.greeting().await;
    let start: i64 = greeting[0].id.as_deref().unwrap().parse().unwrap();

    app.mission("Written through the first").await;
    let now = count(&app, "Team A").await;
    assert!(now > start);
    stream.hear(now).await;

    let mut resumed = Stream::open(&app.router, &app.admin, Some(&now.to_string())).await;
    assert!(resumed.greeting().await.is_empty(), "nothing missed");
    let (status, _) = common::send(
        &other,
        "POST",
        "/api/missions",
        &app.admin,
        Some(r#"{"title": "Written through the second"}"#.into()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let later = count(&app, "Team A").await;
    resumed.hear(later).await;

    let mut behind = Stream::open(&other, &app.admin, Some(&start.to_string())).await;
    let greeting = behind.greeting().await;
    assert_eq!(greeting.len(), 1, "{greeting:?}");
    assert_eq!(greeting[0].id.as_deref(), Some(later.to_string().as_str()));
}

#[tokio::test]
async fn a_team_hears_its_writes_and_resumes_from_the_last_id() {
    let app = TestApp::new().await;
    let start = count(&app, "Team A").await;
    assert!(start > 0, "creating the workspace was a change");

    // A first connection hears the current count at once.
    let mut first = Stream::open(&app.router, &app.admin, None).await;
    let greeting = first.greeting().await;
    assert_eq!(greeting.len(), 1, "{greeting:?}");
    assert_eq!(greeting[0].id.as_deref(), Some(start.to_string().as_str()));

    app.mission("Heard").await;
    let after_mission = count(&app, "Team A").await;
    assert!(after_mission > start);
    first.hear(after_mission).await;

    // Resumed from the latest id: nothing is replayed, so the first change heard is the
    // next write's.
    let latest = after_mission.to_string();
    let mut resumed = Stream::open(&app.router, &app.worker, Some(&latest)).await;
    assert!(
        resumed.greeting().await.is_empty(),
        "nothing missed, nothing sent"
    );
    app.mission("Next").await;
    let after_next = count(&app, "Team A").await;
    let heard = resumed.hear(after_next).await;
    assert!(heard[0] > after_mission, "{heard:?}");
    first.hear(after_next).await;

    // Resumed from an older id (or one of a database since replaced): the current count at
    // once, with no write needed.
    for old in [start.to_string(), (after_next + 1000).to_string()] {
        let mut behind = Stream::open(&app.router, &app.trigger, Some(&old)).await;
        let greeting = behind.greeting().await;
        assert_eq!(
            greeting.iter().map(|e| e.id.clone()).collect::<Vec<_>>(),
            [Some(after_next.to_string())],
            "resumed from {old}"
        );
    }
}

#[tokio::test]
async fn another_teams_writes_never_reach_a_stream() {
    let app = TestApp::new().await;
    let ours = count(&app, "Team A").await;
    let mut stream = Stream::open(&app.router, &app.admin, Some(&ours.to_string())).await;
    assert!(stream.greeting().await.is_empty());
    let mut theirs = Stream::open(&app.router, &app.other, None).await;
    theirs.greeting().await;

    let (status, body) = app
        .call(
            "POST",
            "/api/workspaces",
            &app.other,
            Some(serde_json::json!({"name": "theirs"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let their_count = count(&app, "Team B").await;
    theirs.hear(their_count).await;
    assert_eq!(
        count(&app, "Team A").await,
        ours,
        "their write is not counted as ours"
    );

    // The first change this team hears is its own next write, with its own count.
    app.mission("Ours").await;
    let now = count(&app, "Team A").await;
    assert!(stream.hear(now).await[0] > ours);
}

#[tokio::test]
async fn refusals_are_json_and_name_what_is_wrong() {
    let app = TestApp::new().await;
    let (status, body) = app.call("GET", "/api/events", "", None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("Unauthorized"))
    );

    for bad in ["abc", "-1", "1.5"] {
        let request = Request::get("/api/events")
            .header("Authorization", format!("Bearer {}", app.admin))
            .header("Last-Event-ID", bad)
            .body(Body::empty())
            .unwrap();
        let response = app.router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{bad}");
        let body: serde_json::Value =
            serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes())
                .unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("Last-Event-ID: "),
            "{body}"
        );
    }

    let (status, body) = app.call("POST", "/api/events", &app.admin, None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(body["error"].is_string(), "{body}");
}

#[tokio::test]
async fn closing_the_feed_ends_every_stream() {
    let app = TestApp::new().await;
    let feed = ChangeFeed::new(app.db.clone());
    let router = app_with_changes(app.db.clone(), None, CheckinConfig::default(), feed.clone());
    let mut streams = Vec::new();
    for key in [&app.admin, &app.other] {
        let mut stream = Stream::open(&router, key, None).await;
        stream.greeting().await;
        streams.push(stream);
    }
    feed.close();
    for stream in &mut streams {
        assert_eq!(stream.frame().await, None, "the stream ended");
    }
    // A page that reconnects after the close is not kept open either.
    let mut late = Stream::open(&router, &app.admin, None).await;
    assert_eq!(late.frame().await, None);
}
