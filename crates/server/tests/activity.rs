//! `GET /api/activity`: every task of the team, missions or not, filtered, searched and paged
//! on the server, retries under their task; another team's never.

mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use common::{TestApp, WorkerVerbs};
use serde_json::{json, Value};

fn ids(page: &Value) -> Vec<String> {
    page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_string())
        .collect()
}

async fn activity(app: &TestApp, query: &str) -> Value {
    let (status, page) = app
        .call("GET", &format!("/api/activity?{query}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{query}: {page}");
    page
}

#[tokio::test]
async fn activity_filters_searches_and_pages_the_teams_tasks() {
    let app = TestApp::new().await;
    let mission = app.mission("Faster builds").await;
    let cache = app.task(Some(&mission), "Cache the toolchain").await;
    let loose = app.task(None, "Rotate the logs").await;
    let flaky = app.task(None, "Fix the flaky test").await;
    app.fail_task(&flaky, "It still flakes").await;
    app.complete_task(&cache, json!({"summary": "Cached"}))
        .await;

    // Everything, newest change first.
    let all = activity(&app, "").await;
    assert_eq!(
        ids(&all),
        [
            "Cache the toolchain",
            "Fix the flaky test",
            "Rotate the logs"
        ],
        "{all}"
    );
    assert_eq!(all["total"], 3);
    let first = &all["tasks"][0];
    assert_eq!(first["missionTitle"], "Faster builds");
    assert_eq!(first["workerStatus"], "completed");

    // What failed today, of no mission.
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    let failed = activity(&app, &format!("status=failed&missionId=none&since={today}")).await;
    assert_eq!(ids(&failed), ["Fix the flaky test"]);
    // By mission, by search, by id.
    assert_eq!(
        ids(&activity(&app, &format!("missionId={mission}")).await),
        ["Cache the toolchain"]
    );
    assert_eq!(ids(&activity(&app, "q=ROTATE").await), ["Rotate the logs"]);
    assert_eq!(
        ids(&activity(&app, &format!("q={loose}")).await),
        ["Rotate the logs"]
    );
    assert_eq!(activity(&app, "until=2000-01-01").await["total"], 0);

    // Pages of one, each naming the next.
    let mut seen = Vec::new();
    let mut query = "limit=1".to_string();
    loop {
        let page = activity(&app, &query).await;
        seen.extend(ids(&page));
        match page["nextCursor"].as_str() {
            Some(c) => query = format!("limit=1&cursor={}", urlencode(c)),
            None => break,
        }
    }
    assert_eq!(seen, ids(&all));

    // A retry is listed under its task, not beside it.
    let retry = app.task(None, "Fix the flaky test, again").await;
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE tasks SET task_class = 'attempt', parent_task_id = ? WHERE id = ?")
        .bind(&flaky)
        .bind(&retry)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let page = activity(&app, "q=flaky").await;
    assert_eq!(ids(&page), ["Fix the flaky test"]);
    assert_eq!(page["tasks"][0]["attempts"][0]["id"], retry.as_str());

    // Another team sees none of it.
    let (_, other) = app.call("GET", "/api/activity", &app.other, None).await;
    assert_eq!(other["total"], 0);

    // Bad filters are named.
    for (query, field) in [
        ("status=doing", "status"),
        ("mode=thinking", "mode"),
        ("since=yesterday", "since"),
        ("limit=0", "limit"),
        ("cursor=nope", "cursor"),
    ] {
        let (status, answer) = app
            .call("GET", &format!("/api/activity?{query}"), &app.admin, None)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(answer["field"], field, "{answer}");
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
