//! Buildd's own clients against this server over a real socket, call for call as their
//! source makes them: the runner (`apps/runner/src/buildd.ts` and its worker manager) and
//! the MCP tool `buildd action=…` (`packages/core/mcp-tools.ts`).

use buildd_core::AccountLevel;
use buildd_server::demo::worker::{demo_plan, WorkerClient};
use buildd_server::{app, keys, Db};
use serde_json::{json, Value};

struct Served {
    admin: WorkerClient,
    worker: WorkerClient,
    workspace: String,
    _dir: tempfile::TempDir,
}

async fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("db.sqlite")).await.unwrap();
    let mut tx = db.write().await.unwrap();
    let team = keys::ensure_team(&mut tx, "T").await.unwrap();
    let admin_key = keys::create_key(&mut tx, &team, &AccountLevel::Admin, "person")
        .await
        .unwrap();
    let worker_key = keys::create_key(&mut tx, &team, &AccountLevel::Worker, "runner")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = app(db, None);
    tokio::spawn(async move { axum::serve(listener, router).await });
    let admin = WorkerClient::new(&base, &admin_key);
    let worker = WorkerClient::new(&base, &worker_key);
    let (status, created) = admin
        .send(
            "POST",
            "/api/workspaces",
            json!({"name": "web", "repo": "acme/web"}),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{created}");
    Served {
        admin,
        worker,
        workspace: created["workspace"]["id"].as_str().unwrap().to_string(),
        _dir: dir,
    }
}

/// Sends and expects `status`; returns the answer.
async fn expect(
    client: &WorkerClient,
    method: &str,
    path: &str,
    body: Value,
    status: u16,
) -> Value {
    let (got, answer) = client.send(method, path, body).await.unwrap();
    assert_eq!(got, status, "{method} {path}: {answer}");
    answer
}

const RUNNER: &str = "headless://ci-host";

#[tokio::test(flavor = "multi_thread")]
async fn the_runner_claims_reports_opens_its_pr_and_finishes() {
    let s = serve().await;
    let mission = expect(
        &s.admin,
        "POST",
        "/api/missions",
        json!({"title": "Health checks", "workspaceId": s.workspace, "orchestrationMode": "manual"}),
        201,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let task = expect(
        &s.admin,
        "POST",
        "/api/tasks",
        json!({"title": "Add /healthz", "workspaceId": s.workspace, "missionId": mission,
               "outputRequirement": "pr_required"}),
        200,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Startup: who am I, and is there work (`pendingTaskCount > 0` makes it claim at once).
    let me = expect(&s.worker, "GET", "/api/accounts/me", Value::Null, 200).await;
    assert_eq!(
        (me["name"].as_str(), me["level"].as_str()),
        (Some("runner"), Some("worker"))
    );
    let environment = json!({"tools": [{"name": "git"}], "envKeys": [], "mcp": [], "labels": {}});
    let beat = json!({"localUiUrl": RUNNER, "activeWorkerCount": 0, "environment": environment});
    let heard = expect(
        &s.worker,
        "POST",
        "/api/workers/heartbeat",
        beat.clone(),
        200,
    )
    .await;
    assert_eq!(heard["pendingTaskCount"], 1);

    let claimed = expect(
        &s.worker,
        "POST",
        "/api/workers/claim",
        json!({"maxTasks": 3, "runner": RUNNER, "environment": environment,
               "claimAcrossAccessible": true}),
        200,
    )
    .await;
    let claim = &claimed["workers"][0];
    let worker = claim["id"].as_str().unwrap().to_string();
    let branch = claim["branch"].as_str().unwrap().to_string();
    assert_eq!(claim["task"]["id"], task);
    assert_eq!(claim["task"]["workspace"]["repo"], "acme/web");
    expect(&s.worker, "POST", "/api/workers/heartbeat", beat, 200).await;
    let at = format!("/api/workers/{worker}");
    expect(
        &s.worker,
        "PATCH",
        &at,
        json!({"localUiUrl": RUNNER, "status": "running"}),
        200,
    )
    .await;
    let config = expect(
        &s.worker,
        "GET",
        &format!("/api/workspaces/{}/config", s.workspace),
        Value::Null,
        200,
    )
    .await;
    assert!(config.get("configStatus").is_some(), "{config}");

    // A person steers; the next sync hands the message over.
    expect(
        &s.admin,
        "POST",
        &format!("{at}/instruct"),
        json!({"message": "Also return the build sha"}),
        200,
    )
    .await;
    let synced = expect(
        &s.worker,
        "PATCH",
        &at,
        json!({"status": "running", "currentAction": "Editing src/health.rs",
               "milestones": [{"type": "status", "label": "Worktree ready", "ts": 1}],
               "localUiUrl": RUNNER, "appendMcpCalls": [{"server": "buildd", "tool": "buildd", "ts": 1, "ok": true}]}),
        200,
    )
    .await;
    assert_eq!(synced["instructions"], "Also return the build sha");

    // Reconcile: the worker is alive on the server, so the runner keeps it.
    let remote = expect(&s.worker, "GET", &at, Value::Null, 200).await;
    assert_eq!(remote["status"], "running");
    assert_eq!(remote["task"]["status"], "assigned");

    // The agent's create_pr, then the runner's completion with its git stats.
    let opened = expect(
        &s.worker,
        "POST",
        "/api/github/pr",
        json!({"workerId": worker, "title": "Add /healthz", "body": "Adds GET /healthz", "head": branch}),
        200,
    )
    .await;
    let number = opened["pr"]["number"].as_i64().unwrap();
    let done = json!({"status": "completed", "summary": "Added /healthz", "lastCommitSha": "4e1f00d",
                      "commitCount": 2, "filesChanged": 3, "linesAdded": 40, "linesRemoved": 2});
    expect(&s.worker, "PATCH", &at, done.clone(), 200).await;
    let remote = expect(&s.worker, "GET", &at, Value::Null, 200).await;
    assert_eq!(
        (remote["status"].as_str(), remote["task"]["status"].as_str()),
        (Some("completed"), Some("completed"))
    );
    // A second completion (the runner's, after the agent's) is told to stop, not applied.
    let late = expect(&s.worker, "PATCH", &at, done, 409).await;
    assert_eq!(late["abort"], true);

    // The PR is on the rails: CI passes for the head commit, then a person merges.
    expect(
        &s.worker,
        "POST",
        &format!("/api/prs/{number}/checks"),
        json!({"workspaceId": s.workspace, "headSha": "4e1f00d", "name": "build",
               "status": "completed", "conclusion": "success"}),
        201,
    )
    .await;
    let merged = expect(
        &s.admin,
        "POST",
        &format!("/api/prs/{number}/merge"),
        json!({"workspaceId": s.workspace}),
        200,
    )
    .await;
    assert_eq!(
        (merged["ok"].as_bool(), merged["merged"].as_bool()),
        (Some(true), Some(true))
    );
    let mission = expect(
        &s.admin,
        "GET",
        &format!("/api/missions/{mission}"),
        Value::Null,
        200,
    )
    .await;
    assert_eq!(mission["progress"], 100, "{mission}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_mcp_agent_plans_and_a_person_approves() {
    let s = serve().await;
    // The MCP server offers plan review and missions to an admin key only.
    let admin_me = expect(&s.admin, "GET", "/api/accounts/me", Value::Null, 200).await;
    assert_eq!(admin_me["level"], "admin");
    let mission = expect(
        &s.admin,
        "POST",
        "/api/missions",
        json!({"title": "Checkout redesign", "workspaceId": s.workspace}),
        201,
    )
    .await;
    let mission_id = mission["id"].as_str().unwrap().to_string();
    let organizer = mission["organizerTask"]["id"].as_str().unwrap().to_string();

    // claim_task
    let me = expect(&s.worker, "GET", "/api/accounts/me", Value::Null, 200).await;
    assert_eq!(me["level"], "worker");
    let claimed = expect(
        &s.worker,
        "POST",
        "/api/workers/claim",
        json!({"maxTasks": 1, "workspaceId": s.workspace, "runner": "mcp"}),
        200,
    )
    .await;
    let worker = claimed["workers"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(claimed["workers"][0]["taskId"], organizer);
    let at = format!("/api/workers/{worker}");

    // post_note: the worker names the mission, the note goes to its feed as the agent's.
    let remote = expect(&s.worker, "GET", &at, Value::Null, 200).await;
    assert_eq!(remote["task"]["missionId"], mission_id);
    let note = expect(
        &s.worker,
        "POST",
        &format!("/api/missions/{mission_id}/notes"),
        json!({"type": "question", "title": "Keep the legacy checkout?", "authorType": "agent",
               "taskId": organizer, "workerId": worker, "status": "open",
               "bodyText": "Leaning no", "defaultChoice": "no"}),
        201,
    )
    .await;
    assert_eq!(
        (note["authorType"].as_str(), note["status"].as_str()),
        (Some("agent"), Some("open"))
    );

    // update_progress, then complete_task with the plan as structured output.
    let progress = expect(
        &s.worker,
        "PATCH",
        &at,
        json!({"status": "running", "progress": 50,
               "appendMilestones": [{"type": "status", "label": "Planning", "progress": 50, "ts": 1}],
               "currentAction": "Planning"}),
        200,
    )
    .await;
    assert_eq!(progress["status"], "running");
    let plan = demo_plan("Checkout redesign", None);
    expect(
        &s.worker,
        "PATCH",
        &at,
        json!({"status": "completed", "summary": "Planned", "structuredOutput": plan}),
        200,
    )
    .await;
    let finished = expect(&s.worker, "GET", &at, Value::Null, 200).await;
    let task = expect(
        &s.worker,
        "GET",
        &format!("/api/tasks/{}", finished["taskId"].as_str().unwrap()),
        Value::Null,
        200,
    )
    .await;
    assert_eq!(task["status"], "completed");
    assert_eq!(task["result"]["structuredOutput"]["plan"], plan["plan"]);

    // approve_plan with the admin key: one child per step.
    let approved = expect(
        &s.admin,
        "POST",
        &format!("/api/tasks/{organizer}/approve-plan"),
        Value::Null,
        200,
    )
    .await;
    assert_eq!(
        approved["tasks"].as_array().unwrap().len(),
        plan["plan"].as_array().unwrap().len()
    );
}
