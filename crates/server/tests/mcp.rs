//! `POST /api/mcp` over a real socket, as Buildd's runner connects its agents
//! (`/api/mcp?workspace=…&worker=…`, the key as a bearer token): the Streamable HTTP
//! transport, the toolset per key level, and the path claim → progress → note →
//! instruction → plan → approve → PR → completion through `buildd action=…`.

use buildd_core::AccountLevel;
use buildd_server::demo::worker::{demo_plan, WorkerClient};
use buildd_server::serving::{self, Limits};
use buildd_server::{app, keys, Db};
use serde_json::{json, Value};

struct Served {
    base: String,
    admin: WorkerClient,
    admin_key: String,
    worker_key: String,
    trigger_key: String,
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
    let trigger_key = keys::create_key(&mut tx, &team, &AccountLevel::Trigger, "hook")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    // As `buildd-server serve` serves: on loopback, so `Host` must be a loopback name.
    tokio::spawn(serving::serve(
        listener,
        app(db, None),
        Limits::for_this_process(1),
        std::future::pending(),
    ));
    let admin = WorkerClient::new(&base, &admin_key);
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
        workspace: created["workspace"]["id"].as_str().unwrap().to_string(),
        base,
        admin,
        admin_key,
        worker_key,
        trigger_key,
        _dir: dir,
    }
}

/// One MCP connection: a key and the URL's query.
struct Agent {
    client: WorkerClient,
    path: String,
}

impl Agent {
    fn new(s: &Served, key: &str, query: &str) -> Self {
        Self {
            client: WorkerClient::new(&s.base, key),
            path: format!("/api/mcp{query}"),
        }
    }

    async fn post(&self, body: Value) -> (u16, Value) {
        self.client.send("POST", &self.path, body).await.unwrap()
    }

    async fn rpc(&self, method: &str, params: Value) -> Value {
        let (status, answer) = self
            .post(json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}))
            .await;
        assert_eq!(status, 200, "{method}: {answer}");
        assert_eq!(answer["id"], 7, "{answer}");
        answer
    }

    /// `buildd action=…`: the result's text, and whether it is marked an error.
    async fn act(&self, action: &str, params: Value) -> (String, bool) {
        let answer = self
            .rpc(
                "tools/call",
                json!({"name": "buildd", "arguments": {"action": action, "params": params}}),
            )
            .await;
        let result = &answer["result"];
        let text = result["content"][0]["text"].as_str().unwrap().to_string();
        (text, result["isError"].as_bool().unwrap_or(false))
    }

    /// An action that must succeed; its text.
    async fn ok(&self, action: &str, params: Value) -> String {
        let (text, is_error) = self.act(action, params).await;
        assert!(!is_error, "{action}: {text}");
        text
    }

    async fn offered(&self) -> Vec<String> {
        let listed = self.rpc("tools/list", json!({})).await;
        let tools = listed["result"]["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 1, "{listed}");
        tools[0]["inputSchema"]["properties"]["action"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    }
}

/// A POST of `body` exactly as given, which a JSON client could not send.
async fn raw_post(s: &Served, key: &str, body: &str) -> (u16, Value) {
    let host = format!("Host: {}\r\n", s.base.trim_start_matches("http://"));
    raw_post_with(s, key, body, &host).await
}

/// [`raw_post`] with `headers` (each line ending in CRLF, `Host` among them) as given.
async fn raw_post_with(s: &Served, key: &str, body: &str, headers: &str) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(s.base.trim_start_matches("http://"))
        .await
        .unwrap();
    let request = format!(
        "POST /api/mcp HTTP/1.1\r\n{headers}Authorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer[9..12].parse().unwrap();
    let json = answer.split_once("\r\n\r\n").unwrap().1;
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

/// The value after `label` on its line: "**Worker ID:** abc" → "abc".
fn after(text: &str, label: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} in {text}"));
    line[label.len()..].trim().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_transport_answers_as_streamable_http_and_refuses_in_json() {
    let s = serve().await;
    let nobody = WorkerClient::new(&s.base, "bld_not_a_key");
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}});
    let (status, answer) = nobody.send("POST", "/api/mcp", init.clone()).await.unwrap();
    assert_eq!(
        (status, answer["error"].as_str()),
        (401, Some("Invalid API key"))
    );

    let agent = Agent::new(&s, &s.worker_key, "");
    let (status, answer) = agent.post(init).await;
    assert_eq!(status, 200, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["protocolVersion"], "2025-03-26");
    assert_eq!(result["serverInfo"]["name"], "buildd");
    assert!(result["capabilities"]["tools"].is_object(), "{answer}");
    assert!(
        result["instructions"]
            .as_str()
            .unwrap()
            .contains("Token level: worker"),
        "{answer}"
    );
    // A version it does not know gets the newest it speaks.
    let newer = agent
        .rpc("initialize", json!({"protocolVersion": "2099-01-01"}))
        .await;
    assert_eq!(newer["result"]["protocolVersion"], "2025-06-18");

    // A notification is accepted with no body.
    let (status, answer) = agent
        .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    assert_eq!((status, answer), (202, Value::Null));

    // A batch gets an answer per request, none for its notification.
    let (status, answer) = agent
        .post(json!([
            {"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": "b", "method": "resources/list"},
        ]))
        .await;
    assert_eq!(status, 200, "{answer}");
    let answers = answer.as_array().unwrap();
    assert_eq!(answers.len(), 2, "{answer}");
    assert_eq!(answers[0]["result"], json!({}));
    assert_eq!(answers[1]["error"]["code"], -32601, "{answer}");

    // Malformed JSON and a message that is not JSON-RPC.
    let (status, answer) = raw_post(&s, &s.worker_key, "{").await;
    assert_eq!(
        (status, answer["error"]["code"].as_i64()),
        (400, Some(-32700))
    );
    let (_, answer) = agent.post(json!({"id": 3, "method": "ping"})).await;
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("jsonrpc"));
    let answer = agent.rpc("tools/call", json!({"arguments": {}})).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("params.name"));

    // There is no stream to open: 405 in JSON.
    let (status, answer) = agent
        .client
        .send("GET", "/api/mcp", Value::Null)
        .await
        .unwrap();
    assert_eq!(status, 405);
    assert!(
        answer["error"].as_str().unwrap().contains("stateless"),
        "{answer}"
    );

    // Another tool, a Buildd action this server does not carry out.
    let answer = agent
        .rpc(
            "tools/call",
            json!({"name": "recall", "arguments": {"query": "x"}}),
        )
        .await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let (text, is_error) = agent.act("manage_secrets", json!({})).await;
    assert!(is_error && text.contains("not provided"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_key_level_gets_its_own_toolset() {
    let s = serve().await;
    let admin = Agent::new(&s, &s.admin_key, "").offered().await;
    let worker = Agent::new(&s, &s.worker_key, "").offered().await;
    let trigger = Agent::new(&s, &s.trigger_key, "").offered().await;
    for action in [
        "approve_plan",
        "reject_plan",
        "manage_missions",
        "claim_task",
    ] {
        assert!(admin.iter().any(|a| a == action), "admin lacks {action}");
    }
    assert!(worker.iter().any(|a| a == "complete_task"));
    assert!(!worker.iter().any(|a| a == "approve_plan"), "{worker:?}");
    assert!(trigger.iter().any(|a| a == "create_task"));
    assert!(!trigger.iter().any(|a| a == "claim_task"), "{trigger:?}");

    // Calling above the key's level: a structured forbidden for admin actions.
    let (text, is_error) = Agent::new(&s, &s.worker_key, "")
        .act("approve_plan", json!({"taskId": "x"}))
        .await;
    assert!(is_error);
    let refusal: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (refusal["error"].as_str(), refusal["tokenLevel"].as_str()),
        (Some("forbidden"), Some("worker"))
    );
    let (text, is_error) = Agent::new(&s, &s.trigger_key, "")
        .act("claim_task", json!({}))
        .await;
    assert!(
        is_error && text.contains("requires a worker or admin token"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_plans_a_person_approves_and_a_step_lands_with_its_pr() {
    let s = serve().await;
    let lead = Agent::new(&s, &s.admin_key, "");
    let created = lead
        .ok(
            "manage_missions",
            json!({"action": "create", "title": "Checkout redesign", "workspaceId": "acme/web"}),
        )
        .await;
    let mission = after(&created, "Mission created:")
        .rsplit("(ID: ")
        .next()
        .unwrap()
        .trim_end_matches(')')
        .to_string();
    let organizer = after(&created, "Organizer task:");

    // The organizer run, claimed by an agent with no worker in its URL.
    let planner = Agent::new(&s, &s.worker_key, &format!("?workspace={}", s.workspace));
    let claimed = planner.ok("claim_task", json!({})).await;
    let worker = after(&claimed, "**Worker ID:**");
    assert!(claimed.contains("Checkout redesign"), "{claimed}");

    // The runner's agent names its worker: claim_task hands back the same assignment.
    let agent = Agent::new(
        &s,
        &s.worker_key,
        &format!("?workspace={}&worker={worker}", s.workspace),
    );
    let again = agent.ok("claim_task", json!({})).await;
    assert!(
        again.starts_with("Current assignment already active"),
        "{again}"
    );
    assert_eq!(after(&again, "**Worker ID:**"), worker);

    let progress = agent
        .ok(
            "update_progress",
            json!({"progress": 25, "message": "Reading the code"}),
        )
        .await;
    assert_eq!(progress, "Progress updated: 25% - Reading the code");
    let asked = agent
        .ok(
            "post_note",
            json!({"type": "question", "title": "Keep the legacy checkout?", "defaultChoice": "no"}),
        )
        .await;
    assert!(asked.contains("Default choice: no"), "{asked}");
    let (status, feed) = s
        .admin
        .send(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            Value::Null,
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{feed}");
    let note = feed["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["title"] == "Keep the legacy checkout?")
        .unwrap_or_else(|| panic!("the question is not on the feed: {feed}"));
    assert_eq!(
        (note["authorType"].as_str(), note["status"].as_str()),
        (Some("agent"), Some("open"))
    );

    // A person steers; the next report carries it, once.
    let sent = lead
        .ok(
            "send_agent_message",
            json!({"taskId": organizer, "message": "Keep the plan to three steps"}),
        )
        .await;
    assert!(sent.contains(&worker), "{sent}");
    let steered = agent.ok("update_progress", json!({"progress": 60})).await;
    assert!(
        steered.ends_with("**ADMIN INSTRUCTION:** Keep the plan to three steps"),
        "{steered}"
    );
    let quiet = agent.ok("update_progress", json!({"progress": 70})).await;
    assert!(!quiet.contains("INSTRUCTION"), "{quiet}");
    let events = agent.ok("query_events", json!({"type": "status"})).await;
    assert!(events.contains("[status] Reading the code"), "{events}");

    let plan = demo_plan("Checkout redesign", None);
    let steps = plan["plan"].as_array().unwrap().len();
    let done = agent
        .ok(
            "complete_task",
            json!({"summary": "Planned", "structuredOutput": plan}),
        )
        .await;
    assert!(done.starts_with("Task completed successfully!"), "{done}");
    let read = lead.ok("get_task", json!({"taskId": organizer})).await;
    assert!(read.contains("**Status:** completed"), "{read}");
    assert!(
        read.contains(&format!("**Mission:** Checkout redesign ({mission})")),
        "{read}"
    );

    let approved = lead.ok("approve_plan", json!({"taskId": organizer})).await;
    assert!(
        approved.starts_with(&format!("Plan approved! Created {steps} child task(s)")),
        "{approved}"
    );
    let listed = lead
        .ok(
            "manage_missions",
            json!({"action": "get", "missionId": mission}),
        )
        .await;
    assert_eq!(listed.matches("  - [").count(), steps + 1, "{listed}");

    // A step that needs a PR: completing before it says what to do, create_pr opens it.
    let stepper = Agent::new(&s, &s.worker_key, "");
    let mut pr_step = None;
    for _ in 0..steps {
        let claimed = stepper.ok("claim_task", json!({})).await;
        if claimed.starts_with("No tasks") {
            break;
        }
        let id = after(&claimed, "**Worker ID:**");
        let (status, row) = stepper
            .client
            .send("GET", &format!("/api/workers/{id}"), Value::Null)
            .await
            .unwrap();
        assert_eq!(status, 200, "{row}");
        if row["task"]["outputRequirement"] == "pr_required" {
            pr_step = Some((id, after(&claimed, "**Branch:**")));
            break;
        }
        stepper
            .ok("complete_task", json!({"workerId": id, "summary": "Done"}))
            .await;
    }
    let (id, branch) = pr_step.expect("the demo plan has a step that needs a PR");
    let (text, is_error) = stepper
        .act("complete_task", json!({"workerId": id, "summary": "Built"}))
        .await;
    assert!(
        is_error && text.starts_with("**Cannot complete task:**"),
        "{text}"
    );
    assert!(text.contains("create_pr"), "{text}");
    let opened = stepper
        .ok(
            "create_pr",
            json!({"workerId": id, "title": "Checkout: new flow", "head": branch}),
        )
        .await;
    assert!(opened.starts_with("Pull request created!"), "{opened}");
    assert!(opened.contains("Checkout: new flow"), "{opened}");
    let done = stepper
        .ok("complete_task", json!({"workerId": id, "summary": "Built"}))
        .await;
    assert!(done.starts_with("Task completed successfully!"), "{done}");
    let (status, prs) = s
        .admin
        .send("GET", &format!("/api/prs?missionId={mission}"), Value::Null)
        .await
        .unwrap();
    assert_eq!(status, 200, "{prs}");
    assert!(prs.to_string().contains("Checkout: new flow"), "{prs}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cancelled_task_fences_its_agent_and_bad_params_are_named() {
    let s = serve().await;
    let lead = Agent::new(&s, &s.admin_key, "");
    let filed = lead
        .ok(
            "create_task",
            json!({"title": "Fix the login bug", "description": "Users are logged out", "priority": "high"}),
        )
        .await;
    let task = after(&filed, "Task created:")
        .rsplit("(ID: ")
        .next()
        .unwrap()
        .trim_end_matches(')')
        .to_string();
    assert!(filed.contains("Priority: 7"), "{filed}");
    let (text, is_error) = lead
        .act(
            "create_task",
            json!({"title": "x", "description": "y", "loopConfig": {}}),
        )
        .await;
    assert!(is_error && text.contains("loopConfig"), "{text}");
    let (text, is_error) = lead.act("create_task", json!({"title": "x"})).await;
    assert!(
        is_error && text.contains("description is required"),
        "{text}"
    );

    let claimed = Agent::new(&s, &s.worker_key, "")
        .ok("claim_task", json!({}))
        .await;
    let worker = after(&claimed, "**Worker ID:**");
    let agent = Agent::new(&s, &s.worker_key, &format!("?worker={worker}"));
    let (text, is_error) = agent.act("post_note", json!({"title": "Hm"})).await;
    assert!(
        is_error && text.contains("missing required parameter(s): type"),
        "{text}"
    );

    let (status, answer) = s
        .admin
        .send(
            "PATCH",
            &format!("/api/tasks/{task}"),
            json!({"status": "cancelled"}),
        )
        .await
        .unwrap();
    assert_eq!(status, 200, "{answer}");
    let (text, is_error) = agent
        .act(
            "create_task",
            json!({"title": "More", "description": "work"}),
        )
        .await;
    assert!(is_error && text.contains("TASK CANCELLED"), "{text}");
    let (text, is_error) = agent.act("update_progress", json!({"progress": 90})).await;
    assert!(is_error && text.contains("ABORT"), "{text}");
}

/// DNS rebinding protection: a browser page of another origin, or any client naming this
/// loopback server by another name, is refused; Buildd's runner (no `Origin`, the address it
/// connects to as `Host`) and a page of this origin are not.
#[tokio::test(flavor = "multi_thread")]
async fn another_origin_or_a_rebound_name_is_refused() {
    let s = serve().await;
    let addr = s.base.trim_start_matches("http://").to_string();
    let port = addr.rsplit(':').next().unwrap().to_string();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#;
    let accepted = [
        format!("Host: {addr}\r\n"),
        format!("Host: {addr}\r\nOrigin: {}\r\n", s.base),
        format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}\r\n"),
    ];
    for headers in &accepted {
        let (status, answer) = raw_post_with(&s, &s.worker_key, init, headers).await;
        assert_eq!(status, 200, "{headers:?}: {answer}");
        assert_eq!(answer["result"]["protocolVersion"], "2025-06-18");
    }
    let other_origins = [
        format!("Host: {addr}\r\nOrigin: http://evil.example\r\n"),
        format!("Host: {addr}\r\nOrigin: http://127.0.0.1:1\r\n"),
        format!("Host: {addr}\r\nOrigin: null\r\n"),
    ];
    for headers in &other_origins {
        let (status, answer) = raw_post_with(&s, &s.worker_key, init, headers).await;
        assert_eq!(status, 403, "{headers:?}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.starts_with("Origin: "), "{error}");
    }
    // A rebound name, with or without a matching Origin.
    for headers in [
        format!("Host: evil.example:{port}\r\n"),
        format!("Host: evil.example:{port}\r\nOrigin: http://evil.example:{port}\r\n"),
    ] {
        let (status, answer) = raw_post_with(&s, &s.worker_key, init, &headers).await;
        assert_eq!(status, 403, "{headers:?}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.starts_with("Host: evil.example"), "{error}");
    }
}
