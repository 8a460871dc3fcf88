//! Thousands of generated bad requests over every route, through the router: wrong types for
//! every field, nulls, huge and odd strings, bad ids, wrong methods, every key level. None
//! gets a 5xx, every refusal is `{"error": "…"}`, and no refused request changes a row.

mod common;

use axum::body::Body;
use axum::http::{header, Request};
use buildd_server::db::sql;
use common::TestApp;
use http_body_util::BodyExt;
use serde_json::{json, Map, Value};
use tower::ServiceExt;

/// Every route of the API, `{id}` standing for an id of the kind the path takes.
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/missions"),
    ("POST", "/api/missions"),
    ("GET", "/api/missions/capabilities"),
    ("GET", "/api/missions/{mission}"),
    ("PATCH", "/api/missions/{mission}"),
    ("DELETE", "/api/missions/{mission}"),
    ("POST", "/api/missions/{mission}/run"),
    ("GET", "/api/missions/{mission}/runs"),
    ("GET", "/api/missions/{mission}/notes"),
    ("POST", "/api/missions/{mission}/notes"),
    ("POST", "/api/missions/{mission}/notes/{note}/reply"),
    ("GET", "/api/tasks"),
    ("POST", "/api/tasks"),
    ("POST", "/api/tasks/{task}/approve-plan"),
    ("POST", "/api/tasks/{task}/reject-plan"),
    ("GET", "/api/tasks/{task}/messages"),
    ("POST", "/api/tasks/{task}/notes"),
    ("GET", "/api/tasks/{task}"),
    ("PATCH", "/api/tasks/{task}"),
    ("DELETE", "/api/tasks/{task}"),
    ("GET", "/api/notes"),
    ("GET", "/api/prs"),
    ("POST", "/api/prs/{number}/checks"),
    ("POST", "/api/prs/{number}/merge"),
    ("POST", "/api/workers/claim"),
    ("POST", "/api/workers/heartbeat"),
    ("GET", "/api/workers/{worker}"),
    ("PATCH", "/api/workers/{worker}"),
    ("POST", "/api/workers/{worker}/instruct"),
    ("GET", "/api/workspaces"),
    ("POST", "/api/workspaces"),
    ("GET", "/api/workspaces/{workspace}"),
    ("PATCH", "/api/workspaces/{workspace}"),
    ("GET", "/api/workspaces/{workspace}/config"),
    ("GET", "/api/accounts/me"),
    ("POST", "/api/github/pr"),
];

/// The fields the API reads, across its bodies.
const FIELDS: &[&str] = &[
    "title",
    "description",
    "status",
    "priority",
    "workspaceId",
    "mergePolicy",
    "requiresReview",
    "orchestrationMode",
    "costBudgetUsd",
    "isHeartbeat",
    "heartbeatChecklist",
    "activeHoursStart",
    "activeHoursEnd",
    "activeHoursTimezone",
    "cronExpression",
    "mode",
    "feedback",
    "message",
    "type",
    "bodyText",
    "replyTo",
    "workerId",
    "taskId",
    "authorType",
    "defaultChoice",
    "options",
    "runner",
    "maxTasks",
    "currentAction",
    "prUrl",
    "prNumber",
    "summary",
    "structuredOutput",
    "error",
    "milestones",
    "appendMilestones",
    "name",
    "repo",
    "gitConfig",
    "headSha",
    "conclusion",
    "head",
    "base",
    "dependsOn",
    "missionId",
    "parentTaskId",
    "createdByWorkerId",
    "localUiUrl",
    "lastCommitSha",
    "force",
];

const METHODS: &[&str] = &["GET", "POST", "PATCH", "DELETE", "PUT"];

/// A small deterministic generator, so a failure reproduces.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next() as usize % items.len()]
    }
}

fn odd_value(dice: &mut Dice) -> Value {
    match dice.next() % 12 {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(-1),
        3 => json!(1e300),
        4 => json!(""),
        5 => json!("x".repeat(100_000)),
        6 => json!("\u{0}\u{202e}<script>alert(1)</script>"),
        7 => json!([1, "a", null]),
        8 => json!({"nested": {"deep": [null]}}),
        9 => json!(i64::MAX),
        10 => json!("not-a-uuid"),
        _ => json!("2026-13-45T99:99:99Z"),
    }
}

fn odd_body(dice: &mut Dice) -> Option<String> {
    match dice.next() % 8 {
        0 => None,
        1 => Some("{not json".into()),
        2 => Some("[1, 2, 3]".into()),
        3 => Some("\"a string\"".into()),
        _ => {
            let mut object = Map::new();
            for _ in 0..1 + dice.next() % 4 {
                object.insert(dice.pick(FIELDS).to_string(), odd_value(dice));
            }
            Some(Value::Object(object).to_string())
        }
    }
}

/// The row count of every table: a refused request leaves each as it was.
async fn row_counts(app: &TestApp) -> Vec<(String, i64)> {
    let mut tx = app.db.read().await.unwrap();
    let tables: Vec<(String,)> = sql::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%' ORDER BY name",
    )
    .postgres(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE' \
         AND table_name NOT LIKE '\\_sqlx%' ORDER BY table_name",
    )
    .fetch_all(&mut tx)
    .await
    .unwrap();
    let mut counts = Vec::new();
    for (table,) in tables {
        let (n,): (i64,) = sql::query_as(&format!("SELECT COUNT(*) FROM \"{table}\""))
            .fetch_one(&mut tx)
            .await
            .unwrap();
        counts.push((table, n));
    }
    counts
}

#[tokio::test]
async fn no_generated_request_gets_a_5xx_a_bare_refusal_or_a_partial_write() {
    let app = TestApp::new().await;
    let mission = app.mission("Target").await;
    let task = app.task(Some(&mission), "Work").await;
    let (_, other) = app
        .call(
            "POST",
            "/api/missions",
            &app.other,
            Some(json!({"title": "Another team's"})),
        )
        .await;
    let other_mission = other["id"].as_str().unwrap_or("none").to_string();
    let ids: Vec<String> = vec![
        mission.clone(),
        task.clone(),
        app.workspace.clone(),
        other_mission,
        "00000000-0000-4000-8000-000000000000".into(),
        "%FF%FE".into(),
        "x".repeat(300),
        "1".into(),
        "-5".into(),
        "9999999999999999999999".into(),
        "%20".into(),
    ];
    let keys: Vec<String> = vec![
        app.admin.clone(),
        app.worker.clone(),
        app.trigger.clone(),
        app.other.clone(),
        String::new(),
        "bld_not_a_key".into(),
    ];
    let mut dice = Dice(0x5eed);
    let mut refused = 0;
    for round in 0..3000 {
        let (method, template) = *dice.pick(ROUTES);
        // One in six goes with a method the path does not take.
        let method = if dice.next().is_multiple_of(6) {
            *dice.pick(METHODS)
        } else {
            method
        };
        let mut path = template.to_string();
        for slot in [
            "{mission}",
            "{task}",
            "{note}",
            "{worker}",
            "{workspace}",
            "{number}",
        ] {
            if path.contains(slot) {
                let id: &String = dice.pick(&ids);
                path = path.replace(slot, id);
            }
        }
        if dice.next().is_multiple_of(4) {
            let query = [
                "limit=-1",
                "limit=abc",
                "offset=-9",
                "status=zzz",
                "type=%FF",
                "missionId=",
                "cursor=nope",
                "workspaceId=x&limit=0",
                "force=maybe",
            ];
            path = format!("{path}?{}", dice.pick(&query));
        }
        let key = dice.pick(&keys);
        let body = odd_body(&mut dice);
        let before = row_counts(&app).await;
        let mut request = Request::builder().method(method).uri(&path);
        if !key.is_empty() {
            request = request.header(header::AUTHORIZATION, format!("Bearer {key}"));
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(body.clone().map(Body::from).unwrap_or_else(Body::empty))
            .unwrap();
        let response = app.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("").to_string())
            .unwrap_or_default();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let context = || {
            format!(
                "#{round} {method} {path} body {:?}",
                body.as_deref().map(|b| &b[..b.len().min(200)])
            )
        };
        assert!(status.as_u16() < 500, "{status} for {}", context());
        if status.is_client_error() {
            refused += 1;
            assert!(
                kind.starts_with("application/json"),
                "{status} {kind} for {}",
                context()
            );
            let answer: Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| panic!("not JSON for {}", context()));
            assert!(
                answer["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{answer} for {}",
                context()
            );
            assert_eq!(
                before,
                row_counts(&app).await,
                "a refused request wrote: {}",
                context()
            );
        }
    }
    assert!(refused > 2000, "only {refused} of 3000 were refused");
}
