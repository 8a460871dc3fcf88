mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

/// Opens an organizer run on `mission` and completes it with `plan`, as a worker would.
async fn planned(app: &TestApp, mission: &str, plan: Value) -> String {
    let (status, run) = app
        .call(
            "POST",
            &format!("/api/missions/{mission}/run"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{run}");
    let id = run["task"]["id"].as_str().unwrap().to_string();
    complete(app, &id, plan).await;
    id
}

async fn complete(app: &TestApp, task: &str, plan: Value) {
    let (status, body) = app
        .complete_task(
            task,
            json!({"summary": "planned",
                   "structuredOutput": {"plan": plan, "summary": "s", "missionComplete": false}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

fn step(r: &str, deps: &[&str]) -> Value {
    json!({"ref": r, "title": format!("Step {r}"), "description": "d", "dependsOn": deps, "priority": 2,
           "outputRequirement": "pr_required", "roleSlug": "builder"})
}

async fn task_count(app: &TestApp) -> usize {
    let (_, page) = app
        .call("GET", "/api/tasks?limit=1", &app.admin, None)
        .await;
    page["total"].as_u64().unwrap() as usize
}

#[tokio::test]
async fn run_opens_one_organizer_run_at_a_time() {
    let app = TestApp::new().await;
    let m = app.mission("Ship search").await;
    let (status, first) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let task = &first["task"];
    assert_eq!(
        (
            task["title"].as_str(),
            task["mode"].as_str(),
            task["taskClass"].as_str()
        ),
        (
            Some("Mission: Ship search"),
            Some("planning"),
            Some("bookkeeping")
        )
    );
    assert_eq!(task["status"], "pending");
    let (status, again) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["deduped"], true);
    assert_eq!(again["task"]["id"], task["id"]);

    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"status": "paused"})),
    )
    .await;
    let (status, paused) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        paused["error"],
        "Cannot run mission with status: paused. Only active missions can be run."
    );
    let (status, _) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.worker, None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_runs_open_exactly_one_planning_task() {
    let app = std::sync::Arc::new(TestApp::new().await);
    let m = app.mission("Busy").await;
    let calls = (0..50).map(|_| {
        let app = app.clone();
        let path = format!("/api/missions/{m}/run");
        tokio::spawn(async move { app.call("POST", &path, &app.admin, None).await })
    });
    let mut created = 0;
    for call in calls {
        let (status, _) = call.await.unwrap();
        assert!(
            status == StatusCode::CREATED || status == StatusCode::OK,
            "{status}"
        );
        created += usize::from(status == StatusCode::CREATED);
    }
    assert_eq!(created, 1);
    let (_, tasks) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={m}"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(tasks["tasks"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn approve_creates_children_in_two_passes() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let mut second = step("b", &["a"]);
    second["baseBranch"] = json!("a");
    let plan = planned(
        &app,
        &m,
        json!([step("a", &[]), second, step("c", &["a", "b"])]),
    )
    .await;
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{plan}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ids: Vec<String> = serde_json::from_value(body["tasks"].clone()).unwrap();
    assert_eq!(ids.len(), 3);
    let (_, a) = app
        .call("GET", &format!("/api/tasks/{}", ids[0]), &app.admin, None)
        .await;
    let (_, b) = app
        .call("GET", &format!("/api/tasks/{}", ids[1]), &app.admin, None)
        .await;
    let (_, c) = app
        .call("GET", &format!("/api/tasks/{}", ids[2]), &app.admin, None)
        .await;
    for child in [&a, &b, &c] {
        assert_eq!(child["parentTaskId"], plan.as_str());
        assert_eq!(child["missionId"], m.as_str());
        assert_eq!(
            (
                child["mode"].as_str(),
                child["taskClass"].as_str(),
                child["status"].as_str()
            ),
            (Some("execution"), Some("work"), Some("pending"))
        );
        assert_eq!(
            (
                child["priority"].as_i64(),
                child["roleSlug"].as_str(),
                child["outputRequirement"].as_str()
            ),
            (Some(2), Some("builder"), Some("pr_required"))
        );
    }
    assert_eq!(a["title"], "Step a");
    assert_eq!(b["dependsOn"], json!([ids[0]]));
    assert_eq!(c["dependsOn"], json!([ids[0], ids[1]]));
    let expected_branch = format!("buildd/{}-step-a", &ids[0][..8]);
    assert_eq!(b["context"]["baseBranch"], expected_branch.as_str());

    let (status, again) = app
        .call(
            "POST",
            &format!("/api/tasks/{plan}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(again["error"], "Plan already approved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_approvals_create_one_child_set() {
    let app = std::sync::Arc::new(TestApp::new().await);
    let m = app.mission("M").await;
    let plan = planned(&app, &m, json!([step("a", &[]), step("b", &["a"])])).await;
    let calls = (0..20).map(|_| {
        let app = app.clone();
        let path = format!("/api/tasks/{plan}/approve-plan");
        tokio::spawn(async move { app.call("POST", &path, &app.admin, None).await.0 })
    });
    let mut ok = 0;
    for call in calls {
        let status = call.await.unwrap();
        assert!(
            status == StatusCode::OK || status == StatusCode::CONFLICT,
            "{status}"
        );
        ok += usize::from(status == StatusCode::OK);
    }
    assert_eq!(ok, 1);
    assert_eq!(
        task_count(&app).await,
        3,
        "one plan task and one set of two children"
    );
}

#[tokio::test]
async fn a_bad_plan_is_refused_before_anything_is_written() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let plan = planned(&app, &m, json!([step("a", &["ghost"])])).await;
    let before = task_count(&app).await;
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{plan}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "plan[0].dependsOn refers to unknown refs: \"ghost\""
    );
    assert_eq!(task_count(&app).await, before);

    let m2 = app.mission("M2").await;
    let cyclic = planned(&app, &m2, json!([step("a", &["b"]), step("b", &["a"])])).await;
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{cyclic}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "plan: dependency cycle a → b → a");

    // A run whose output breaks the schema is refused when it reports, field by field, and
    // its task keeps waiting for a valid report.
    let m3 = app.mission("M3").await;
    let (_, run) = app
        .call("POST", &format!("/api/missions/{m3}/run"), &app.admin, None)
        .await;
    let run = run["task"]["id"].as_str().unwrap().to_string();
    let worker = app.claim_task(&run).await;
    let (status, body) = app
        .report(
            &worker,
            json!({"status": "completed", "structuredOutput": {
                "plan": [{"ref": "a", "title": "A"}, {"ref": 7, "title": "B", "description": "d", "priority": "high"}],
                "missionComplete": "no"}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["errors"],
        json!([
            "structuredOutput.summary is required",
            "structuredOutput.missionComplete must be true or false",
            "structuredOutput.plan[0].description is required",
            "structuredOutput.plan[1].ref must be a string",
            "structuredOutput.plan[1].priority must be an integer"
        ])
    );
    let (_, task) = app
        .call("GET", &format!("/api/tasks/{run}"), &app.admin, None)
        .await;
    assert_eq!(task["status"], "assigned");
    assert_eq!(task_count(&app).await, before + 2);
}

#[tokio::test]
async fn only_a_plan_in_review_can_be_approved_or_rejected() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let work = app.task(Some(&m), "Work").await;
    for action in ["approve-plan", "reject-plan"] {
        let (status, body) = app
            .call(
                "POST",
                &format!("/api/tasks/{work}/{action}"),
                &app.admin,
                Some(json!({"feedback": "x"})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{action}");
        assert_eq!(body["error"], "Task is not a planning task");
    }
    let (_, run) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    let pending = run["task"]["id"].as_str().unwrap().to_string();
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{pending}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "Planning task has not completed yet");
    complete(&app, &pending, json!([])).await;
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{pending}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "No plan found in task result");
    let (status, body) = app
        .call("POST", "/api/tasks/nope/approve-plan", &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "Task not found");
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/tasks/{pending}/approve-plan"),
            &app.other,
            None,
        )
        .await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "another team's plan is not found"
    );
}

#[tokio::test]
async fn reject_files_a_revision_with_the_feedback() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let plan = planned(&app, &m, json!([step("a", &[])])).await;
    for body in [
        json!({}),
        json!({"feedback": "   "}),
        json!({"feedback": 5}),
    ] {
        let (status, answer) = app
            .call(
                "POST",
                &format!("/api/tasks/{plan}/reject-plan"),
                &app.admin,
                Some(body),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(answer["error"], "Feedback is required");
    }
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{plan}/reject-plan"),
            &app.admin,
            Some(json!({"feedback": " Split it. "})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let revision = body["taskId"].as_str().unwrap();
    let (_, r) = app
        .call("GET", &format!("/api/tasks/{revision}"), &app.admin, None)
        .await;
    assert_eq!(r["title"], "Mission: M (revised)");
    assert_eq!(
        (
            r["mode"].as_str(),
            r["taskClass"].as_str(),
            r["status"].as_str()
        ),
        (Some("planning"), Some("bookkeeping"), Some("pending"))
    );
    assert_eq!(r["context"]["planFeedback"], "Split it.");
    assert_eq!(r["context"]["previousPlanTaskId"], plan.as_str());
    assert_eq!(r["missionId"], m.as_str());

    // The rejected plan is no longer in review: a second reject or an approve is refused
    // cleanly, never a 500.
    for action in ["reject-plan", "approve-plan"] {
        let (status, body) = app
            .call(
                "POST",
                &format!("/api/tasks/{plan}/{action}"),
                &app.admin,
                Some(json!({"feedback": "again"})),
            )
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{action}: {body}");
        assert_eq!(body["error"], "Plan already rejected");
    }
    let (_, old) = app
        .call("GET", &format!("/api/tasks/{plan}"), &app.admin, None)
        .await;
    let rejection = &old["context"]["planRejection"];
    assert_eq!(rejection["feedback"], "Split it.");
    assert_eq!(rejection["revisionTaskId"], revision);

    // The revision is claimable, and its runner reads the feedback.
    let (_, claimed) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r"})),
        )
        .await;
    assert_eq!(claimed["workers"][0]["taskId"], revision);
    assert_eq!(
        claimed["workers"][0]["task"]["context"]["planFeedback"],
        "Split it."
    );
}

#[tokio::test]
async fn comments_pinned_to_steps_reach_the_revision_and_its_runner() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let plan = planned(&app, &m, json!([step("api", &[]), step("docs", &["api"])])).await;
    let reject = |body: Value| {
        let path = format!("/api/tasks/{plan}/reject-plan");
        let app = &app;
        async move { app.call("POST", &path, &app.admin, Some(body)).await }
    };
    // Each problem is named by its path, and nothing is filed.
    for (body, error) in [
        (
            json!({"feedback": "f", "stepComments": [{"ref": "nope", "comment": "x"}]}),
            "stepComments[0].ref: unknown step \"nope\"",
        ),
        (
            json!({"feedback": "f", "stepComments": [{"ref": "api"}]}),
            "stepComments[0].comment: required",
        ),
        (
            json!({"feedback": "f", "stepComments": {"api": "x"}}),
            "stepComments: must be an array",
        ),
        (
            json!({"stepComments": [{"ref": "api", "comment": "split it"}]}),
            "Feedback is required",
        ),
    ] {
        let (status, answer) = reject(body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(answer["error"], error);
    }
    let (_, still) = app
        .call("GET", &format!("/api/tasks/{plan}"), &app.admin, None)
        .await;
    assert!(still["context"].get("planRejection").is_none());

    let comments = json!([
        {"ref": "api", "comment": "Split the endpoint from the database check."},
        {"ref": "docs", "comment": "Wait for the endpoint."}
    ]);
    let (status, body) = reject(json!({"feedback": "Two things.", "stepComments": comments})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let revision = body["taskId"].as_str().unwrap().to_string();
    let (_, claimed) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r"})),
        )
        .await;
    let context = &claimed["workers"][0]["task"]["context"];
    assert_eq!(claimed["workers"][0]["taskId"], revision.as_str());
    assert_eq!(context["planFeedback"], "Two things.");
    assert_eq!(context["planStepComments"], comments);
    let (_, old) = app
        .call("GET", &format!("/api/tasks/{plan}"), &app.admin, None)
        .await;
    assert_eq!(old["context"]["planRejection"]["stepComments"], comments);

    // A second round without comments does not inherit the first round's.
    let worker = claimed["workers"][0]["id"].as_str().unwrap().to_string();
    app.report_ok(
        &worker,
        json!({"status": "completed", "structuredOutput":
               {"plan": [step("api", &[])], "summary": "s", "missionComplete": false}}),
    )
    .await;
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/tasks/{revision}/reject-plan"),
            &app.admin,
            Some(json!({"feedback": "Still too big."})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, claimed) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r"})),
        )
        .await;
    let context = &claimed["workers"][0]["task"]["context"];
    assert_eq!(context["planFeedback"], "Still too big.");
    assert!(context.get("planStepComments").is_none(), "{context}");
    assert_eq!(context["previousPlanTaskId"], revision.as_str());
}
