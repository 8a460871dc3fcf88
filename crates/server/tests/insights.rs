//! `GET /api/insights`: the rows of the team's weekly figures and busiest hours, from the
//! Monday `weeks - 1` back on, each row as stored; buildd-core's rules over them give known
//! figures. Another team's rows never show, and a bad `weeks` is named.

mod common;

use axum::http::StatusCode;
use buildd_core::insights::busy_hours::busy_hours;
use buildd_core::insights::ms_of;
use buildd_core::insights::team::{common_hours, InsightsQuery, TeamInsights};
use buildd_core::insights::weekly::weekly;
use buildd_core::money::Usd;
use buildd_server::db::sql;
use chrono::{Duration, SecondsFormat, Utc};
use common::TestApp;
use serde_json::{json, Value};

/// `hours` after the Monday that starts this week, `weeks_back` weeks before it.
fn at(weeks_back: i64, hours: i64) -> String {
    let monday = InsightsQuery { weeks: Some(1) }.since(Utc::now().timestamp_millis());
    let monday = chrono::DateTime::parse_from_rfc3339(&monday).unwrap();
    (monday - Duration::weeks(weeks_back) + Duration::hours(hours))
        .with_timezone(&Utc)
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

async fn team_of(app: &TestApp, task: &str) -> String {
    let mut tx = app.db.write().await.unwrap();
    let (team,): (String,) = sql::query_as("SELECT team_id FROM tasks WHERE id = ?")
        .bind(task)
        .fetch_one(&mut tx)
        .await
        .unwrap();
    team
}

async fn exec(app: &TestApp, sql: &str, binds: &[Option<String>]) {
    let mut tx = app.db.write().await.unwrap();
    let mut q = sql::query(sql);
    for b in binds {
        q = q.bind(b.clone());
    }
    q.execute(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
}

/// A worker on `task` from `start` to `end` that cost `micros`.
async fn worker(app: &TestApp, ws: &str, task: &str, start: &str, end: &str, micros: i64) {
    exec(
        app,
        &format!(
            "INSERT INTO workers (id, task_id, workspace_id, name, runner, status, started_at, \
             completed_at, created_at, updated_at, cost_micros) \
             VALUES (?, ?, ?, 'w', 'test', 'completed', ?, ?, ?, ?, {micros})"
        ),
        &[
            Some(format!("{task}-{start}")),
            Some(task.into()),
            Some(ws.into()),
            Some(start.into()),
            Some(end.into()),
            Some(start.into()),
            Some(end.into()),
        ],
    )
    .await;
}

/// PR `number` of `task`, opened at `opened` and merged at `merged`.
async fn merged_pr(
    app: &TestApp,
    team: &str,
    ws: &str,
    task: &str,
    number: i64,
    opened: &str,
    merged: &str,
) {
    exec(
        app,
        &format!(
            "INSERT INTO pull_requests (id, team_id, workspace_id, task_id, mission_id, number, \
             state, merged_at, created_at, updated_at) \
             SELECT ?, ?, ?, id, mission_id, {number}, 'merged', ?, ?, ? FROM tasks WHERE id = ?"
        ),
        &[
            Some(format!("pr-{ws}-{number}")),
            Some(team.into()),
            Some(ws.into()),
            Some(merged.into()),
            Some(opened.into()),
            Some(merged.into()),
            Some(task.into()),
        ],
    )
    .await;
}

async fn insights(app: &TestApp, key: &str, query: &str) -> TeamInsights {
    let (status, body) = app
        .call("GET", &format!("/api/insights{query}"), key, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    serde_json::from_value(body).unwrap()
}

#[tokio::test]
async fn the_teams_weeks_come_out_as_worked() {
    let app = TestApp::new().await;
    let ws = app.workspace.clone();
    let mission = app.mission("Faster builds").await;
    let (status, body) = app
        .call(
            "PATCH",
            &format!("/api/missions/{mission}"),
            &app.admin,
            Some(
                json!({"activeHoursStart": 9, "activeHoursEnd": 17, "activeHoursTimezone": "UTC"}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cache = app.task(Some(&mission), "Cache the toolchain").await;
    let split = app.task(Some(&mission), "Split the tests").await;
    let flaky = app.task(None, "Fix the flaky test").await;
    let retry = app.task(None, "[retry] Fix the flaky test").await;
    let ancient = app.task(None, "Long ago").await;
    let team = team_of(&app, &cache).await;

    // Last week: the cache work claimed at 10:00, its PR opened at 12:00 and merged at 14:00
    // on Monday, for $1.50; the split claimed Tuesday 09:00, opened 10:00, merged 13:00, for
    // $2.50. This week: the flaky test failed and was retried, for $0.40.
    worker(&app, &ws, &cache, &at(1, 10), &at(1, 12), 1_500_000).await;
    merged_pr(&app, &team, &ws, &cache, 1, &at(1, 12), &at(1, 14)).await;
    worker(&app, &ws, &split, &at(1, 33), &at(1, 34), 2_500_000).await;
    merged_pr(&app, &team, &ws, &split, 2, &at(1, 34), &at(1, 37)).await;
    worker(&app, &ws, &flaky, &at(0, 10), &at(0, 11), 400_000).await;
    exec(
        &app,
        "UPDATE tasks SET status = 'failed', updated_at = ? WHERE id = ?",
        &[Some(at(0, 11)), Some(flaky.clone())],
    )
    .await;
    exec(
        &app,
        "UPDATE tasks SET task_class = 'attempt', parent_task_id = ?, created_at = ? WHERE id = ?",
        &[Some(flaky.clone()), Some(at(0, 12)), Some(retry.clone())],
    )
    .await;
    // Three weeks back: outside two weeks read.
    worker(&app, &ws, &ancient, &at(3, 10), &at(3, 11), 9_000_000).await;
    merged_pr(&app, &team, &ws, &ancient, 3, &at(3, 10), &at(3, 11)).await;

    let answer = insights(&app, &app.admin, "?weeks=2").await;
    assert_eq!(answer.since, at(1, 0));
    let numbers: Vec<i64> = answer.activity.merged.iter().map(|p| p.number).collect();
    assert_eq!(numbers, [1, 2]);
    assert!(answer.activity.merged.iter().all(|p| p.deliverable));
    assert_eq!(
        answer.activity.merged[0].claimed_at.as_deref(),
        Some(at(1, 10).as_str())
    );
    assert_eq!(answer.activity.spend.len(), 3);
    assert_eq!(answer.busy.len(), 3);

    let weeks = weekly(&answer.activity);
    assert_eq!(weeks.len(), 2);
    let (last, this) = (&weeks[0].team, &weeks[1].team);
    assert_eq!((last.merged, last.failed, last.retried), (2, 0, 0));
    // 4h and 4h from claim to merge; 2h and 3h from PR to merge.
    assert_eq!(last.median_claim_to_merge_secs, Some(4 * 3600));
    assert_eq!(last.median_review_wait_secs, Some(9000));
    assert_eq!(last.spend, Usd::from_cents(400));
    assert_eq!(last.cost_per_merged, Some(Usd::from_cents(200)));
    assert_eq!(
        last.spend_by_mission[0].mission_id.as_deref(),
        Some(mission.as_str())
    );
    assert_eq!((this.merged, this.failed, this.retried), (0, 1, 1));
    assert_eq!(this.spend, Usd::from_cents(40));
    assert_eq!(weeks[1].workspaces[0].workspace_id, ws);

    // Agents worked 2h from 10:00 (last Monday and this one), 1h from 09:00 (Tuesday).
    let window = common_hours(&answer.active_hours).map(|h| (h.start, h.end));
    assert_eq!(window, Some((9, 17)));
    let now = ms_of(&at(0, 24 * 7)).unwrap();
    let busy = busy_hours(&answer.busy, now, |_| 0, window);
    assert_eq!(busy.busiest, Some(10));
    assert_eq!(busy.hours[10].agent_seconds, 2 * 3600);
    assert_eq!(busy.hours[11].agent_seconds, 3600);
    assert_eq!(busy.hours[9].agent_seconds, 3600);
    assert_eq!(
        (busy.agent_seconds, busy.active_seconds),
        (4 * 3600, 4 * 3600)
    );

    // Twelve weeks by default reach the old merge too.
    let all = insights(&app, &app.admin, "").await;
    assert_eq!(all.activity.merged.len(), 3);
}

#[tokio::test]
async fn another_teams_rows_never_show_and_bad_weeks_are_named() {
    let app = TestApp::new().await;
    let ours = app.task(None, "Ours").await;
    let ws = app.workspace.clone();
    let team = team_of(&app, &ours).await;
    worker(&app, &ws, &ours, &at(0, 1), &at(0, 2), 1_000_000).await;
    merged_pr(&app, &team, &ws, &ours, 7, &at(0, 1), &at(0, 2)).await;

    // Team B's own workspace, task, worker and merge.
    let (status, body) = app
        .call(
            "POST",
            "/api/workspaces",
            &app.other,
            Some(json!({"name": "theirs", "repo": "other/theirs"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let their_ws = body["workspace"]["id"].as_str().unwrap().to_string();
    let (status, body) = app
        .call(
            "POST",
            "/api/tasks",
            &app.other,
            Some(json!({"title": "Theirs", "workspaceId": their_ws})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let theirs = body["id"].as_str().unwrap().to_string();
    let their_team = team_of(&app, &theirs).await;
    worker(&app, &their_ws, &theirs, &at(0, 3), &at(0, 4), 5_000_000).await;
    merged_pr(
        &app,
        &their_team,
        &their_ws,
        &theirs,
        8,
        &at(0, 3),
        &at(0, 4),
    )
    .await;
    exec(
        &app,
        "UPDATE tasks SET status = 'failed' WHERE id = ?",
        &[Some(theirs.clone())],
    )
    .await;

    let mine = insights(&app, &app.admin, "?weeks=1").await;
    let numbers: Vec<i64> = mine.activity.merged.iter().map(|p| p.number).collect();
    assert_eq!(numbers, [7]);
    assert!(mine.activity.tasks.is_empty());
    assert_eq!(mine.activity.spend.len(), 1);
    assert_eq!(mine.busy.len(), 1);
    let seen = serde_json::to_string(&mine).unwrap();
    assert!(
        !seen.contains(&their_ws) && !seen.contains("5.00"),
        "{seen}"
    );

    let theirs = insights(&app, &app.other, "?weeks=1").await;
    let numbers: Vec<i64> = theirs.activity.merged.iter().map(|p| p.number).collect();
    assert_eq!(numbers, [8]);
    assert_eq!(theirs.activity.tasks.len(), 1);
    assert!(!serde_json::to_string(&theirs).unwrap().contains(&ws));

    for query in ["weeks=0", "weeks=53", "weeks=soon"] {
        let (status, answer): (StatusCode, Value) = app
            .call("GET", &format!("/api/insights?{query}"), &app.admin, None)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(answer["field"], "weeks", "{answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    let (status, _) = app.call("GET", "/api/insights", "", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
