//! What the dashboard polls besides missions — the PR list, a mission's notes and runs, the
//! team's notes — answers with an `ETag` (304 while nothing it shows changed), gzip when
//! accepted, a new answer as soon as something changed, and nothing of another team's.

mod common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use common::*;
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

struct Got {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

async fn get(app: &TestApp, path: &str, key: &str, etag: Option<&str>, gzip: bool) -> Got {
    let mut req = Request::get(path).header("Authorization", format!("Bearer {key}"));
    if let Some(tag) = etag {
        req = req.header("If-None-Match", tag);
    }
    if gzip {
        req = req.header("Accept-Encoding", "gzip, br");
    }
    let res = app
        .router
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    Got {
        status,
        headers,
        body,
    }
}

fn etag(got: &Got) -> String {
    got.headers["etag"].to_str().unwrap().to_string()
}

#[tokio::test]
async fn each_polled_read_revalidates_and_moves_with_its_data() {
    let app = TestApp::new().await;
    let m = app.mission("Cart").await;
    // Enough PRs that the list is worth compressing.
    for n in 1..=12 {
        let t = app
            .task(Some(&m), &format!("Change {n} with a longer title to fill"))
            .await;
        let (status, body) = app
            .complete_task(
                &t,
                json!({"summary": "done", "prNumber": n,
                       "prUrl": format!("https://github.com/acme/web/pull/{n}"),
                       "baseBranch": "main", "headBranch": format!("buildd/{n}"),
                       "headSha": format!("sha{n}")}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let reads = [
        format!("/api/prs?missionId={m}"),
        format!("/api/missions/{m}/notes"),
        format!("/api/missions/{m}/runs"),
        "/api/notes?status=open".to_string(),
    ];
    let mut tags = Vec::new();
    for path in &reads {
        let first = get(&app, path, &app.admin, None, false).await;
        assert_eq!(first.status, StatusCode::OK, "{path}");
        assert_eq!(first.headers["cache-control"], "no-cache", "{path}");
        let tag = etag(&first);
        let again = get(&app, path, &app.admin, Some(&tag), false).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(again.body.is_empty(), "{path}");
        tags.push(tag);
    }
    let zipped = get(&app, &reads[0], &app.admin, None, true).await;
    assert_eq!(zipped.headers["content-encoding"], "gzip");
    let plain = get(&app, &reads[0], &app.admin, None, false).await;
    assert!(
        zipped.body.len() * 3 < plain.body.len(),
        "{} of {}",
        zipped.body.len(),
        plain.body.len()
    );

    // A note and a run change what those reads show: new tags, new data.
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/missions/{m}/notes"),
            &app.admin,
            Some(json!({"type": "question", "title": "Ship it?"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert!(status.is_success());
    for (path, tag) in reads.iter().zip(&tags).skip(1) {
        let moved = get(&app, path, &app.admin, Some(tag), false).await;
        assert_eq!(moved.status, StatusCode::OK, "{path}");
        assert_ne!(&etag(&moved), tag, "{path}");
    }
    let notes = get(&app, &reads[1], &app.admin, None, false).await;
    assert!(String::from_utf8_lossy(&notes.body).contains("Ship it?"));
    // A PR changing moves the PR list's tag.
    let (status, _) = app.check_run(3, "sha3", "completed", Some("failure")).await;
    assert!(status.is_success());
    let checked = get(&app, &reads[0], &app.admin, Some(&tags[0]), false).await;
    assert_eq!(checked.status, StatusCode::OK);

    // Another team: a mission it cannot see is 404 whatever tag it sends, and its own lists
    // hold nothing of this team's.
    for path in &reads[1..3] {
        let refused = get(&app, path, &app.other, Some(&tags[1]), false).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND, "{path}");
    }
    let theirs = get(&app, "/api/prs", &app.other, None, false).await;
    assert_eq!(theirs.status, StatusCode::OK);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&theirs.body).unwrap()["prs"],
        json!([])
    );
    let ours = get(&app, "/api/prs", &app.admin, None, false).await;
    assert_ne!(etag(&theirs), etag(&ours));
}

/// A value holding `&` and `=` once decoded is one value: the read whose `missionId` is
/// `M&workspaceId=W` is not the read filtered by mission `M` and workspace `W`, whichever is
/// asked first.
#[tokio::test]
async fn an_encoded_ampersand_is_not_a_second_parameter() {
    let app = TestApp::new().await;
    let m = app.mission("Cart").await;
    let t = app.task(Some(&m), "Change").await;
    let (status, body) = app
        .complete_task(
            &t,
            json!({"summary": "done", "prNumber": 7,
                   "prUrl": "https://github.com/acme/web/pull/7",
                   "baseBranch": "main", "headBranch": "buildd/7", "headSha": "sha7"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let w = &app.workspace;
    let filtered = format!("/api/prs?missionId={m}&workspaceId={w}");
    let one_value = format!("/api/prs?missionId={m}%26workspaceId%3D{w}");
    let prs = |got: &Got| {
        let list: serde_json::Value = serde_json::from_slice(&got.body).unwrap();
        list["prs"].as_array().unwrap().len()
    };
    for order in [[&one_value, &filtered], [&filtered, &one_value]] {
        for path in order {
            let got = get(&app, path, &app.admin, None, false).await;
            assert_eq!(got.status, StatusCode::OK, "{path}");
            let expected = if path == &filtered { 1 } else { 0 };
            assert_eq!(prs(&got), expected, "{path}");
        }
        // A write: the next order starts with nothing kept.
        let (status, _) = app
            .call(
                "POST",
                &format!("/api/missions/{m}/notes"),
                &app.admin,
                Some(json!({"type": "question", "title": "Which order?"})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
}
