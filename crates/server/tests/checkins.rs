mod common;

use axum::http::StatusCode;
use buildd_core::checkin::DEFAULT_CHECKLIST;
use buildd_server::db::sql;
use buildd_server::scheduler::{check_in, tick};
use buildd_server::CheckinConfig;
use chrono::{Duration, Utc};
use common::*;
use serde_json::{json, Value};

async fn patch(app: &TestApp, id: &str, body: Value) -> (StatusCode, Value) {
    app.call(
        "PATCH",
        &format!("/api/missions/{id}"),
        &app.admin,
        Some(body),
    )
    .await
}

#[tokio::test]
async fn a_new_auto_mission_gets_check_ins_and_starts_planning() {
    let app = TestApp::new().await;
    let (status, created) = app
        .call(
            "POST",
            "/api/missions",
            &app.admin,
            Some(json!({"title": "Ship search", "workspaceId": app.workspace})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let organizer = created["organizerTask"]["id"].as_str().unwrap();
    let m = app.mission_json(id).await;
    assert_eq!(m["schedule"]["name"], "Mission: Ship search");
    assert_eq!(m["schedule"]["taskTemplate"]["context"]["heartbeat"], true);
    assert_eq!(
        m["schedule"]["taskTemplate"]["context"]["heartbeatChecklist"],
        DEFAULT_CHECKLIST
    );
    let check_ins = &m["checkIns"];
    assert_eq!(check_ins["enabled"], true);
    assert_eq!(check_ins["customChecklist"], false);
    assert_eq!(check_ins["intervalSeconds"], 3600);
    assert!(check_ins["nextCheckInAt"].is_string());
    let (_, run) = app
        .call("GET", &format!("/api/tasks/{organizer}"), &app.admin, None)
        .await;
    assert_eq!(run["title"], "Mission: Ship search");
    assert_eq!(run["taskClass"], "bookkeeping");
    assert_eq!(run["context"]["heartbeatChecklist"], DEFAULT_CHECKLIST);
    assert_eq!(app.run_labels(id).await, ["mission created"]);

    // isHeartbeat: false turns check-ins off and skips the first run; manual plans only on Run.
    for body in [
        json!({"title": "Quiet", "workspaceId": app.workspace, "isHeartbeat": false}),
        json!({"title": "By hand", "workspaceId": app.workspace, "orchestrationMode": "manual"}),
    ] {
        let (_, created) = app
            .call("POST", "/api/missions", &app.admin, Some(body))
            .await;
        assert!(created["organizerTask"].is_null(), "{created}");
        let m = app.mission_json(created["id"].as_str().unwrap()).await;
        assert_eq!(m["checkIns"]["enabled"], false);
        assert!(m["checkIns"]["nextCheckInAt"].is_null());
    }
}

#[tokio::test]
async fn the_checklist_is_custom_cleared_and_limited() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(
            json!({"title": "Prod health", "heartbeatChecklist": "- [ ] API p99 under 200ms"}),
        )
        .await;
    let m = app.mission_json(&id).await;
    assert_eq!(m["checkIns"]["checklist"], "- [ ] API p99 under 200ms");
    assert_eq!(m["checkIns"]["customChecklist"], true);

    let (status, _) = patch(&app, &id, json!({"heartbeatChecklist": "- [ ] Error rate"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.mission_json(&id).await["checkIns"]["checklist"],
        "- [ ] Error rate"
    );
    for cleared in [json!(""), json!(null)] {
        patch(&app, &id, json!({"heartbeatChecklist": "- [ ] Custom"})).await;
        let (status, _) = patch(&app, &id, json!({"heartbeatChecklist": cleared})).await;
        assert_eq!(status, StatusCode::OK);
        let m = app.mission_json(&id).await;
        assert_eq!(m["checkIns"]["checklist"], DEFAULT_CHECKLIST);
        assert_eq!(m["checkIns"]["customChecklist"], false);
    }
    let (status, body) = patch(&app, &id, json!({"heartbeatChecklist": "x".repeat(8001)})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .starts_with("heartbeatChecklist must be at most 8000"));
    let (status, body) = patch(&app, &id, json!({"heartbeatChecklist": 5})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (
            StatusCode::BAD_REQUEST,
            Some("heartbeatChecklist must be a string")
        )
    );

    // Each organizer run is given the checklist (the run opened at creation had the old one).
    app.finish_planning(&id).await;
    patch(
        &app,
        &id,
        json!({"heartbeatChecklist": "- [ ] DB connections"}),
    )
    .await;
    let (_, run) = app
        .call("POST", &format!("/api/missions/{id}/run"), &app.admin, None)
        .await;
    assert_eq!(
        run["task"]["context"]["heartbeatChecklist"],
        "- [ ] DB connections"
    );
}

#[tokio::test]
async fn active_hours_are_checked_field_by_field() {
    let app = TestApp::new().await;
    let id = app.mission_with(json!({"title": "Nightly"})).await;
    let tz = "America/New_York";
    for (body, starts) in [
        (
            json!({"activeHoursStart": 24, "activeHoursEnd": 6, "activeHoursTimezone": tz}),
            "activeHoursStart must be an integer from 0 to 23",
        ),
        (
            json!({"activeHoursStart": 9, "activeHoursEnd": -1, "activeHoursTimezone": tz}),
            "activeHoursEnd must be an integer from 0 to 23",
        ),
        (
            json!({"activeHoursStart": 9.5, "activeHoursEnd": 6, "activeHoursTimezone": tz}),
            "activeHoursStart must be an integer from 0 to 23",
        ),
        (
            json!({"activeHoursStart": 9, "activeHoursEnd": 9, "activeHoursTimezone": tz}),
            "activeHoursEnd must differ",
        ),
        (
            json!({"activeHoursStart": 9, "activeHoursEnd": 18, "activeHoursTimezone": "Moon/Base"}),
            "activeHoursTimezone must be an IANA time zone",
        ),
        (
            json!({"activeHoursStart": 9, "activeHoursEnd": 18}),
            "activeHoursTimezone is required",
        ),
        (
            json!({"activeHoursTimezone": tz}),
            "activeHoursStart is required",
        ),
    ] {
        let (status, answer) = patch(&app, &id, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(starts),
            "{body}: {answer}"
        );
    }
    assert!(app.mission_json(&id).await["checkIns"]["activeHours"].is_null());

    let (status, _) = patch(
        &app,
        &id,
        json!({"activeHoursStart": 22, "activeHoursEnd": 6, "activeHoursTimezone": tz}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let m = app.mission_json(&id).await;
    assert_eq!(
        m["checkIns"]["activeHours"],
        json!({"start": 22, "end": 6, "timezone": tz})
    );
    assert_eq!(
        m["schedule"]["taskTemplate"]["context"]["activeHoursStart"],
        22
    );
    // One field at a time, against what is stored.
    let (status, _) = patch(&app, &id, json!({"activeHoursEnd": 7})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.mission_json(&id).await["checkIns"]["activeHours"]["end"],
        7
    );
    let (status, _) = patch(
        &app,
        &id,
        json!({"activeHoursStart": null, "activeHoursEnd": null, "activeHoursTimezone": null}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(app.mission_json(&id).await["checkIns"]["activeHours"].is_null());
}

#[tokio::test]
async fn a_task_finishing_plans_an_auto_mission_once() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Cart", "isHeartbeat": false}))
        .await;
    let a = app.task(Some(&id), "Build the cart API").await;
    let b = app.task(Some(&id), "Build the cart UI").await;
    let (status, _) = app.complete_task(&a, json!({"summary": "done"})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        app.run_labels(&id).await.is_empty(),
        "other work is still open"
    );
    // Its PR is still open, so the mission is not done: the organizer plans what is next.
    app.complete_task(
        &b,
        json!({"summary": "done", "prUrl": "https://github.com/acme/web/pull/3", "prNumber": 3}),
    )
    .await;
    let listed = app.runs_json(&id).await;
    assert_eq!(listed_labels(&listed), ["after Build the cart UI finished"]);
    assert_eq!(listed["runs"][0]["triggerSource"], "event");
    assert_eq!(listed["runs"][0]["triggerTaskId"], json!(b));

    // Run pressed while that run is in flight: the same run.
    let (status, again) = app
        .call("POST", &format!("/api/missions/{id}/run"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["deduped"], true);
    assert_eq!(
        app.runs_json(&id).await["runs"].as_array().unwrap().len(),
        1
    );

    // A manual mission never plans on its own.
    let manual = app.mission("By hand").await;
    let t = app.task(Some(&manual), "Only task").await;
    app.complete_task(&t, json!({"summary": "done"})).await;
    assert!(app.run_labels(&manual).await.is_empty());
}

#[tokio::test]
async fn resuming_and_a_landed_dependency_plan_again() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Search", "isHeartbeat": false}))
        .await;
    patch(&app, &id, json!({"status": "paused"})).await;
    let (status, _) = patch(&app, &id, json!({"status": "active"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.run_labels(&id).await, ["resumed"]);

    let upstream = app.mission("Schema").await;
    let downstream = app
        .mission_with(json!({"title": "Reports", "isHeartbeat": false}))
        .await;
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE missions SET depends_on_mission_id = ? WHERE id = ?")
        .bind(&upstream)
        .bind(&downstream)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (_, skipped) = app
        .call(
            "POST",
            &format!("/api/missions/{downstream}/run"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(skipped["skippedBlocked"], true);
    assert!(skipped["task"].is_null());
    patch(&app, &upstream, json!({"status": "completed"})).await;
    assert_eq!(app.run_labels(&downstream).await, ["dependency met"]);
}

fn config() -> CheckinConfig {
    CheckinConfig::default()
}

fn listed_labels(runs: &Value) -> Vec<String> {
    runs["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap().to_string())
        .collect()
}

fn check_ins(runs: &Value) -> Vec<(String, String)> {
    runs["checkIns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["reason"].as_str().unwrap_or("started").to_string(),
                c["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn check_ins_start_the_organizer_only_when_the_mission_is_stuck() {
    let app = TestApp::new().await;
    let id = app.mission_with(json!({"title": "Billing"})).await;
    let start = Utc::now();
    let tuned = CheckinConfig {
        grace: Duration::hours(3),
        ..config()
    };
    let t = app.task(Some(&id), "Fix invoices").await;

    // An hour on: the first run is in flight and a task is open.
    assert_eq!(
        tick(&app.db, start + Duration::minutes(61), &tuned)
            .await
            .unwrap(),
        1
    );
    // Nothing is due again before the interval has passed.
    assert_eq!(
        tick(&app.db, start + Duration::minutes(62), &tuned)
            .await
            .unwrap(),
        0
    );
    app.finish_planning(&id).await;
    app.complete_task(
        &t,
        json!({"summary": "done", "prUrl": "https://github.com/acme/web/pull/4", "prNumber": 4}),
    )
    .await;
    // That finish planned again (event); finish it too.
    app.finish_planning(&id).await;
    tick(&app.db, start + Duration::minutes(122), &tuned)
        .await
        .unwrap();
    // Three hours after the last run: stuck, the organizer starts.
    tick(&app.db, start + Duration::minutes(300), &tuned)
        .await
        .unwrap();
    let listed = app.runs_json(&id).await;
    let seen = check_ins(&listed);
    assert_eq!(seen.len(), 3);
    assert_eq!(
        seen[0],
        ("started".into(), "stuck, organizer started".into())
    );
    assert_eq!(seen[1].0, "recent_organizer_run");
    // The last run opened a moment after `start`: "2h 1m" or "2h 2m".
    assert!(seen[1].1.starts_with("deferred: ran 2h "), "{}", seen[1].1);
    assert_eq!(
        seen[2],
        ("open_work".into(), "deferred: open work (1 task)".into())
    );
    assert_eq!(listed_labels(&listed)[0], "stuck check");
    let m = app.mission_json(&id).await;
    assert_eq!(m["checkIns"]["lastCheck"]["outcome"], "started");

    // The stuck check found nothing to do; later, nothing has changed.
    app.finish_planning(&id).await;
    tick(&app.db, start + Duration::minutes(600), &tuned)
        .await
        .unwrap();
    let listed = app.runs_json(&id).await;
    assert_eq!(
        check_ins(&listed)[0],
        (
            "heartbeat_no_change".into(),
            "deferred: nothing changed".into()
        )
    );
    assert_eq!(m["schedule"]["lastDeferralReason"], Value::Null);
    assert_eq!(
        app.mission_json(&id).await["schedule"]["lastDeferralReason"],
        "heartbeat_no_change"
    );
}

#[tokio::test]
async fn check_ins_wait_for_active_hours_and_stop_with_the_mission() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Nightly", "isHeartbeat": true}))
        .await;
    // A one-hour window that is certainly not now, nor in an hour.
    let now = Utc::now() + Duration::minutes(61);
    let outside = (now.format("%H").to_string().parse::<i64>().unwrap() + 12) % 24;
    let (status, body) = patch(&app, &id, json!({"activeHoursStart": outside, "activeHoursEnd": (outside + 1) % 24, "activeHoursTimezone": "UTC"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    tick(&app.db, now, &config()).await.unwrap();
    assert_eq!(
        check_ins(&app.runs_json(&id).await)[0],
        ("active_hours".into(), "outside active hours".into())
    );
    let next = app.mission_json(&id).await["checkIns"]["nextCheckInAt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        next.contains(&format!("T{outside:02}:")),
        "next check-in {next} in the window"
    );

    // Paused: no check-ins; resumed: back; completed: stopped.
    patch(&app, &id, json!({"status": "paused"})).await;
    assert_eq!(app.mission_json(&id).await["checkIns"]["enabled"], false);
    assert_eq!(
        tick(&app.db, now + Duration::hours(30), &config())
            .await
            .unwrap(),
        0
    );
    patch(&app, &id, json!({"status": "active"})).await;
    assert_eq!(app.mission_json(&id).await["checkIns"]["enabled"], true);
    assert_eq!(
        tick(&app.db, now + Duration::hours(30), &config())
            .await
            .unwrap(),
        1
    );
    patch(&app, &id, json!({"status": "completed"})).await;
    assert_eq!(app.mission_json(&id).await["checkIns"]["enabled"], false);
    assert_eq!(
        tick(&app.db, now + Duration::hours(60), &config())
            .await
            .unwrap(),
        0
    );
}

#[tokio::test]
async fn a_mission_completed_after_it_was_found_due_is_not_checked_in() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Nightly", "isHeartbeat": true}))
        .await;
    // Completed with its schedule still on, as a report ending its last task through another
    // server does between the chore finding the mission due and checking it in.
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE missions SET status = 'completed' WHERE id = ?")
        .bind(&id)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let mut tx = app.db.write().await.unwrap();
    let later = Utc::now() + Duration::minutes(61);
    let decided = check_in(&mut tx, &id, later, &config()).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(decided, None);
    assert!(check_ins(&app.runs_json(&id).await).is_empty());
    assert_eq!(app.mission_json(&id).await["status"], "completed");
}

#[tokio::test]
async fn a_budget_is_a_non_negative_amount_kept_to_the_cent() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Costly", "isHeartbeat": false}))
        .await;
    let (status, body) = patch(&app, &id, json!({"costBudgetUsd": 10})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["costBudgetUsd"], "10.00");
    for bad in [json!(-1), json!("lots"), json!(true)] {
        let (status, body) = patch(&app, &id, json!({"costBudgetUsd": bad})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"]
            .as_str()
            .unwrap()
            .starts_with("costBudgetUsd must be"));
    }
    let (_, body) = patch(&app, &id, json!({"costBudgetUsd": "25.5"})).await;
    assert_eq!(body["costBudgetUsd"], "25.50");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn triggers_arriving_together_start_one_run() {
    let app = std::sync::Arc::new(TestApp::new().await);
    let id = app
        .mission_with(json!({"title": "Busy", "isHeartbeat": false}))
        .await;
    let t = app.task(Some(&id), "Last task").await;
    let worker = app.claim_task(&t).await;
    patch(&app, &id, json!({"status": "paused"})).await;
    patch(&app, &id, json!({"status": "active"})).await; // resumed: one run
    app.finish_planning(&id).await;
    let mut handles = Vec::new();
    for i in 0..12 {
        let (app, id, worker) = (app.clone(), id.clone(), worker.clone());
        handles.push(tokio::spawn(async move {
            match i {
                0 => {
                    app.report(
                        &worker,
                        json!({"status": "completed", "prUrl": "https://github.com/acme/web/pull/5"}),
                    )
                    .await
                    .0
                }
                _ => {
                    app.call("POST", &format!("/api/missions/{id}/run"), &app.admin, None)
                        .await
                        .0
                }
            }
        }));
    }
    for h in handles {
        assert!(h.await.unwrap().is_success());
    }
    let (_, page) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={id}&status=pending"),
            &app.admin,
            None,
        )
        .await;
    let in_flight = page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["title"] == "Mission: Busy")
        .count();
    assert_eq!(in_flight, 1);
    assert_eq!(
        app.runs_json(&id).await["runs"].as_array().unwrap().len(),
        2
    );
}

#[tokio::test]
async fn a_merged_pr_plans_again_when_no_work_is_left_open() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Billing", "isHeartbeat": false}))
        .await;
    let failed = app.task(Some(&id), "Flaky part").await;
    let shipped = app.task(Some(&id), "Ship part").await;
    let worker = app.claim_task(&failed).await;
    app.report(&worker, json!({"status": "failed", "error": "gave up"}))
        .await;
    app.complete_task(
        &shipped,
        json!({"prNumber": 9, "prUrl": "https://github.com/acme/web/pull/9", "headSha": "cafe1234",
               "files": [{"path": "src/billing.rs", "status": "modified", "additions": 5, "deletions": 1}]}),
    )
    .await;
    assert_eq!(app.run_labels(&id).await, ["after Ship part finished"]);
    app.finish_planning(&id).await;
    let (status, pr) = app
        .call(
            "POST",
            "/api/prs/9/checks",
            &app.worker,
            Some(
                json!({"workspaceId": app.workspace, "headSha": "cafe1234", "name": "test",
                        "status": "completed", "conclusion": "success"}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{pr}");
    assert_eq!(pr["state"], "merged");
    // Not complete (a task failed), nothing open: the organizer plans what is next.
    assert_eq!(
        app.run_labels(&id).await,
        ["PR merged", "after Ship part finished"]
    );
}
