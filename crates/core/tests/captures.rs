//! Every response body captured from a running Buildd parses into these types, and
//! serialising it back keeps every field Buildd sent (so this server answers in the same
//! shape).

use buildd_core::*;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;
use std::path::PathBuf;

/// `shared/` sits beside the clone. Read at run time: a cached test binary may have been
/// compiled in another clone. `captures` holds the first recordings, `more-captures` the
/// later ones (notes, runs, the workspace list, the worker protocol, capabilities); the
/// testkit's `recordings` were taken from the same Buildd for the recorded Buildd of the
/// browser tests (the account read, task reads, routes Buildd lacks), and `recordings` here
/// from it too, of a later state (a mission with check-ins on and its schedule).
fn captures_dirs() -> [PathBuf; 4] {
    let crate_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo test"));
    let buildd = crate_dir.join("../../../shared/buildd");
    [
        buildd.join("captures"),
        buildd.join("more-captures"),
        crate_dir.join("../testkit/recordings"),
        crate_dir.join("tests/recordings"),
    ]
}

struct Capture {
    name: String,
    method: String,
    path: String,
    /// The request's JSON body, or null.
    request: Value,
    status: u16,
    /// Null for an HTML page (Next.js's 404 for a route Buildd lacks).
    body: Value,
}

fn read_captures() -> Vec<Capture> {
    let mut files = Vec::new();
    for dir in captures_dirs() {
        files.extend(
            std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("captures at {}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "http")),
        );
    }
    files.sort_by_key(|f| f.file_name().map(|n| n.to_owned()));
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            let request_line = text
                .lines()
                .find(|l| l.contains(" HTTP/1.1") && l.starts_with(char::is_uppercase))
                .unwrap();
            let mut parts = request_line.split_whitespace();
            let method = parts.next().unwrap().to_string();
            let path = parts.next().unwrap().to_string();
            let (asked, response) = text.split_once("### response").unwrap();
            // Kept as text where it is not JSON (a malformed body is among the captures).
            let request = match asked.find("\n{") {
                Some(start) => serde_json::from_str(&asked[start..])
                    .unwrap_or_else(|_| Value::from(asked[start..].trim())),
                None => Value::Null,
            };
            let status_line = response
                .lines()
                .find(|l| l.starts_with("HTTP/1.1"))
                .unwrap();
            let status = status_line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .parse()
                .unwrap();
            let body = match response.find("\n{") {
                Some(start) => serde_json::from_str(&response[start..]).unwrap(),
                None => Value::Null,
            };
            Capture {
                name: file.file_name().unwrap().to_string_lossy().into_owned(),
                method,
                path,
                request,
                status,
                body,
            }
        })
        .collect()
}

/// Every key path in `original` is present in `ours`, recursing into objects and into
/// the first element of arrays.
fn missing_keys(original: &Value, ours: &Value, at: &str, out: &mut Vec<String>) {
    match (original, ours) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let here = format!("{at}.{k}");
                match b.get(k) {
                    None => out.push(here),
                    Some(w) => missing_keys(v, w, &here, out),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                missing_keys(v, w, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn check<T: DeserializeOwned + Serialize>(c: &Capture) {
    let parsed: T =
        serde_json::from_value(c.body.clone()).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    let back = serde_json::to_value(&parsed).unwrap();
    let mut missing = Vec::new();
    missing_keys(&c.body, &back, "", &mut missing);
    assert!(missing.is_empty(), "{}: fields lost: {missing:?}", c.name);
}

/// Buildd's workspace list carries each member account's key hash ([defect]): it is
/// parsed, every other field is kept, and no hash survives a round trip.
fn check_without_key_hashes(c: &Capture) {
    let parsed: WorkspaceList =
        serde_json::from_value(c.body.clone()).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    assert!(
        c.body.to_string().contains("\"apiKey\""),
        "{}: the defect is recorded",
        c.name
    );
    let back = serde_json::to_value(&parsed).unwrap();
    assert!(
        !back.to_string().contains("apiKey"),
        "{}: a key hash is echoed",
        c.name
    );
    let mut missing = Vec::new();
    missing_keys(&c.body, &back, "", &mut missing);
    missing.retain(|m| !m.contains(".accountWorkspaces"));
    assert!(missing.is_empty(), "{}: fields lost: {missing:?}", c.name);
}

/// The dashboard's lean types read the same answers.
fn lean<T: DeserializeOwned>(c: &Capture) {
    serde_json::from_value::<T>(c.body.clone())
        .unwrap_or_else(|e| panic!("{} (client): {e}", c.name));
}

/// The command center's lean list reads every field it keeps as the full list does, and
/// leaves the rest empty.
/// `without_tasks` keeps every field of a recorded mission but its tasks.
fn settings_are_the_mission_less_its_tasks(c: &Capture) {
    let mission: client::ClientMission = serde_json::from_value(c.body.clone()).unwrap();
    let settings = mission.without_tasks();
    assert!(settings.tasks.is_empty());
    assert_eq!(
        settings,
        client::ClientMission {
            tasks: vec![],
            ..mission
        },
        "{}",
        c.name
    );
}

fn board_reads_the_list(c: &Capture) {
    let board: client::BoardMissionList = serde_json::from_value(c.body.clone())
        .unwrap_or_else(|e| panic!("{} (board): {e}", c.name));
    let full: client::ClientMissionList = serde_json::from_value(c.body.clone()).unwrap();
    let expected: Vec<client::ClientMission> = full
        .missions
        .into_iter()
        .map(|m| client::ClientMission {
            description: None,
            workspace: None,
            check_ins: None,
            schedule: None,
            merge_policy: None,
            effective_merge_policy: None,
            workspace_merge_policy: None,
            ..m
        })
        .collect();
    assert!(
        !expected.is_empty(),
        "{}: an empty list proves nothing",
        c.name
    );
    assert_eq!(board.into_missions(), expected, "{}", c.name);
}

#[test]
fn every_capture_parses_and_keeps_its_shape() {
    let captures = read_captures();
    assert!(
        captures.len() >= 60,
        "found only {} captures",
        captures.len()
    );
    for c in &captures {
        let path = c.path.split('?').next().unwrap();
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        if c.body.is_null() {
            assert_eq!(
                c.status, 404,
                "{}: only Buildd's 404 page is not JSON",
                c.name
            );
            continue;
        }
        if c.status >= 400 {
            let e: ApiErrorBody = serde_json::from_value(c.body.clone()).unwrap();
            assert!(!e.error.is_empty(), "{}", c.name);
            continue;
        }
        match (c.method.as_str(), segments.as_slice()) {
            ("GET", ["api", "missions"]) => {
                check::<MissionList>(c);
                lean::<client::ClientMissionList>(c);
                board_reads_the_list(c);
            }
            ("POST", ["api", "missions"]) => check::<MissionCreated>(c),
            ("GET", ["api", "missions", "capabilities"]) => check::<capabilities::Capabilities>(c),
            ("GET", ["api", "missions", _]) => {
                check::<MissionDetail>(c);
                lean::<client::ClientMission>(c);
                settings_are_the_mission_less_its_tasks(c);
            }
            ("PATCH", ["api", "missions", _]) => check::<Mission>(c),
            ("POST", ["api", "tasks"]) => {
                check::<TaskCreated>(c);
                lean::<client::ClientTask>(c);
            }
            ("PATCH", ["api", "tasks", _]) => {
                check::<Task>(c);
                lean::<client::ClientTask>(c);
            }
            ("DELETE", ["api", "tasks", _]) => check::<Success>(c),
            ("POST", ["api", "tasks", _, "start"]) => check::<requests::tasks::TaskStarted>(c),
            ("GET", ["api", "tasks"]) if c.path.contains("limit=") => check::<TaskPage>(c),
            ("GET", ["api", "tasks"]) => check::<TaskList>(c),
            ("GET", ["api", "tasks", _]) => {
                check::<Task>(c);
                lean::<client::ClientTask>(c);
            }
            ("POST", ["api", "tasks", _, "approve-plan"]) => check::<ApprovedPlan>(c),
            ("POST", ["api", "tasks", _, "reject-plan"]) => check::<RejectedPlan>(c),
            ("PATCH", ["api", "workspaces", _]) => check::<Success>(c),
            ("GET", ["api", "workspaces"]) => check_without_key_hashes(c),
            ("GET", ["api", "missions", _, "notes"]) => check::<note::NotesPage>(c),
            ("POST", ["api", "missions", _, "notes"]) => check::<note::MissionNote>(c),
            ("POST", ["api", "missions", _, "notes", _, "reply"]) => check::<note::MissionNote>(c),
            ("POST", ["api", "missions", _, "reconcile"]) => check::<reconcile::Reconciled>(c),
            ("POST", ["api", "missions", _, "run"]) => {
                check::<organizer_runs::RunAnswer>(c);
                lean::<client::ClientRunOutcome>(c);
            }
            ("POST", ["api", "workers", "claim"]) => check::<ClaimResponse>(c),
            ("GET", ["api", "accounts", "me"]) => check::<AccountMe>(c),
            ("GET", ["api", "tasks", _, "messages"]) => check::<TaskMessages>(c),
            ("PATCH", ["api", "workers", _]) => check::<Worker>(c),
            _ => panic!("{}: no client type for {} {}", c.name, c.method, c.path),
        }
    }
}

#[test]
fn parsed_values_are_the_ones_buildd_sent() {
    let captures = read_captures();
    let detail = captures.iter().find(|c| c.name.starts_with("02-")).unwrap();
    let d: MissionDetail = serde_json::from_value(detail.body.clone()).unwrap();
    assert_eq!(d.mission.title, "Ref mission: health endpoint");
    assert_eq!(d.mission.status, MissionStatus::Active);
    assert_eq!(d.tasks.len(), 2);
    assert_eq!(d.tasks[0].mode, TaskMode::Planning);
    let plan = d.tasks[0]
        .result()
        .unwrap()
        .structured_output
        .as_ref()
        .unwrap();
    assert_eq!(plan["plan"].as_array().unwrap().len(), 2);

    // A detail says `result: null` for a task without one; the list says nothing.
    let later = captures.iter().find(|c| c.name.starts_with("72-")).unwrap();
    let d: MissionDetail = serde_json::from_value(later.body.clone()).unwrap();
    assert!(d.tasks.iter().any(|t| t.result == Some(None)));
    assert_eq!(d.schedule.as_ref().unwrap().pause_after_failures, 5);
    let listed = captures.iter().find(|c| c.name.starts_with("73-")).unwrap();
    let l: MissionList = serde_json::from_value(listed.body.clone()).unwrap();
    assert!(l.missions[0].tasks.iter().all(|t| t.result.is_none()));

    let list = captures.iter().find(|c| c.name.starts_with("26-")).unwrap();
    let l: MissionList = serde_json::from_value(list.body.clone()).unwrap();
    assert_eq!(l.missions[0].segments.len(), 2);
    assert_eq!(l.missions[0].segments[0].state, SegmentState::Empty);
    assert_eq!(
        l.missions[0].cron_expression.as_deref(),
        Some("*/30 * * * *")
    );

    let task = captures.iter().find(|c| c.name.starts_with("23-")).unwrap();
    let t: Task = serde_json::from_value(task.body.clone()).unwrap();
    assert_eq!(t.task_class, Some(TaskClass::Bookkeeping));
    assert_eq!(t.mission.flatten().unwrap().status, MissionStatus::Active);
}

#[test]
fn buildd_progress_fields_agree_with_the_shared_rule() {
    // Buildd's list computes progress with its legacy heuristic; the captured missions
    // are simple enough that the shared rule gives the same numbers.
    for c in read_captures()
        .iter()
        .filter(|c| c.name.starts_with("26-") || c.name.starts_with("01-"))
    {
        let l: MissionList = serde_json::from_value(c.body.clone()).unwrap();
        for m in &l.missions {
            let p = compute_progress(&m.mission.status, &m.tasks);
            assert_eq!(p.total_tasks, m.total_tasks, "{}", c.name);
            assert_eq!(p.completed_tasks, m.completed_tasks, "{}", c.name);
            assert_eq!(p.progress, m.progress, "{}", c.name);
            assert_eq!(p.segments, m.segments, "{}", c.name);
        }
    }
}

#[test]
fn captured_plans_validate_and_resolve() {
    let captures = read_captures();
    let detail = captures.iter().find(|c| c.name.starts_with("02-")).unwrap();
    for task in detail.body["tasks"].as_array().unwrap() {
        let output = &task["result"]["structuredOutput"];
        let plan = plan_output::validate_planning_output(output).unwrap();
        let by_serde: plan_output::PlanningOutput = serde_json::from_value(output.clone()).unwrap();
        assert_eq!(plan, by_serde, "every captured field is read");
        let resolved = plan_output::resolve_plan(&plan.plan).unwrap();
        assert_eq!(resolved.depends_on.len(), plan.plan.len());
    }
    let first = &detail.body["tasks"][0]["result"]["structuredOutput"];
    let plan = plan_output::validate_planning_output(first).unwrap();
    let resolved = plan_output::resolve_plan(&plan.plan).unwrap();
    assert_eq!(
        resolved.base_branch,
        vec![None, Some(0)],
        "step-2 starts from step-1's branch"
    );
    assert_eq!(resolved.waves, vec![vec![0], vec![1]]);
}

/// The capture named `prefix…`.
fn capture<'a>(captures: &'a [Capture], prefix: &str) -> &'a Capture {
    captures
        .iter()
        .find(|c| c.name.starts_with(prefix))
        .unwrap_or_else(|| panic!("no capture {prefix}"))
}

#[test]
fn the_dashboards_requests_for_running_work_are_the_ones_buildd_took() {
    use requests::missions::MissionPatch;
    use requests::tasks::{StartTask, TaskPatch};
    use requests::Patch;
    let captures = read_captures();
    let sent = |request: &dyn erased::Json| request.json();
    // Stop, with and without a reason: Buildd cancels, and keeps no reason.
    let stop = capture(&captures, "85-");
    assert_eq!(stop.request, sent(&TaskPatch::stop(Some("It is looping"))));
    assert_eq!(stop.body["status"], "cancelled");
    assert_eq!(
        capture(&captures, "87-").request,
        sent(&TaskPatch::stop(None))
    );
    // Buildd cancels a task that already ended too: the dashboard reads the task first.
    assert_eq!(capture(&captures, "87-").status, 200);
    assert!(requests::tasks::stop_refused(&TaskStatus::Cancelled).is_some());
    // A report after the stop is answered 200 by Buildd: its runner learns of the stop
    // from its abort command or its reconcile loop, not from the report.
    assert_eq!(capture(&captures, "86-").status, 200);

    // Editing a pending task and a mission.
    let edit = TaskPatch {
        title: Patch::Value("Nightly cleanup of old carts".into()),
        description: Patch::Value("Carts older than 30 days.".into()),
        priority: Patch::Value(2),
        ..TaskPatch::default()
    };
    let edited = capture(&captures, "96-");
    assert_eq!(edited.request, sent(&edit));
    let task: client::ClientTask = serde_json::from_value(edited.body.clone()).unwrap();
    assert_eq!(
        (task.title.as_str(), task.priority),
        ("Nightly cleanup of old carts", 2)
    );
    let edit = MissionPatch {
        title: Patch::Value("Migrate the orders table".into()),
        description: Patch::Value("Move orders to the new schema.".into()),
        priority: Patch::Value(3),
        ..MissionPatch::default()
    };
    assert_eq!(capture(&captures, "89-").request, sent(&edit));

    // Arm: held when created so, armed by `{arm: true}`.
    let arm = MissionPatch {
        arm: Some(true),
        ..MissionPatch::default()
    };
    assert_eq!(capture(&captures, "90-").request, sent(&arm));
    let held: MissionCreated =
        serde_json::from_value(capture(&captures, "88-").body.clone()).unwrap();
    let armed: MissionDetail =
        serde_json::from_value(capture(&captures, "91-").body.clone()).unwrap();
    assert!(held.mission.is_held && !armed.mission.is_held);

    // Start now: refused with Buildd's gate for a deferred task, then forced.
    let gate = capture(&captures, "93-");
    assert_eq!(
        (gate.status, &gate.body["gateReason"]),
        (422, &Value::from("deferred_start"))
    );
    assert_eq!(gate.request, sent(&StartTask::default()));
    let forced = capture(&captures, "94-");
    assert_eq!(
        forced.request,
        sent(&StartTask {
            force_override: Some(true)
        })
    );
    let started: requests::tasks::TaskStarted =
        serde_json::from_value(forced.body.clone()).unwrap();
    assert!(started.started);

    // A person's key may neither list nor answer agents waiting on a question there.
    assert_eq!(capture(&captures, "82-").status, 403);
    assert_eq!(capture(&captures, "83-").status, 401);
    // Buildd's task read carries a run's figures but not its question or milestones.
    let waiting: client::ClientTask =
        serde_json::from_value(capture(&captures, "81-").body.clone()).unwrap();
    let run = &waiting.workers[0];
    assert_eq!(run.status, WorkerStatus::WaitingInput);
    assert_eq!((run.commit_count, run.files_changed), (Some(2), Some(3)));
    assert!(run.waiting_for.is_none() && run.milestones.is_empty());
}

/// A typed request as the JSON it goes out as.
mod erased {
    pub trait Json {
        fn json(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap()
        }
    }
}

#[test]
fn a_merge_on_buildd_is_judged_by_the_policy_then_sent_as_buildd_takes_it() {
    use hosted_merge::{hosted_merge, HostedMerge};
    use task_prs::{prs_of_tasks, TaskPrStage};
    let captures = read_captures();
    let detail: client::ClientMission =
        serde_json::from_value(capture(&captures, "78-").body.clone()).unwrap();
    let prs = prs_of_tasks(&detail.tasks);
    let stage = |n: i64| prs.iter().find(|p| p.number == Some(n)).unwrap();
    assert_eq!(stage(12).stage, TaskPrStage::CiGreen);
    assert_eq!(stage(13).stage, TaskPrStage::CiFailed);
    // No policy of its own or its workspace's: the built-in one, which lets a person merge
    // a green PR past the rails Buildd cannot show, and holds a failing one on CI.
    let policy = detail.effective_policy();
    assert!(matches!(
        hosted_merge(stage(12), &policy),
        HostedMerge::Allowed { ref past } if !past.is_empty()
    ));
    assert!(matches!(
        hosted_merge(stage(13), &policy),
        HostedMerge::Refused {
            rail: Some(merge_rails::Rail::Ci),
            ..
        }
    ));
    // The request Buildd took, and its own error for a workspace without GitHub.
    let merge = capture(&captures, "77-");
    let sent = requests::prs::MergeOnBuildd {
        pr_number: 12,
        workspace_id: detail.workspace_id.clone().unwrap(),
    };
    assert_eq!(merge.request, serde_json::to_value(&sent).unwrap());
    assert_eq!(
        (merge.status, merge.body["error"].as_str()),
        (400, Some("Workspace not linked to GitHub repo"))
    );
}

#[test]
fn buildds_open_prs_wait_on_you_as_its_mission_list_tells_them() {
    use command_center::{waiting_on_you, WaitAction, WaitKind};
    let captures = read_captures();
    let list: client::BoardMissionList =
        serde_json::from_value(capture(&captures, "104-").body.clone()).unwrap();
    let missions = list.into_missions();
    // Buildd lists no PRs: its list's workers carry the address and `mergedAt`, no number
    // and no lifecycle, so the number is read from the address.
    let items = waiting_on_you(&missions, None, &[], &[]);
    let prs: Vec<(&str, &str)> = items
        .iter()
        .filter(|i| i.kind == WaitKind::PrOpen)
        .map(|i| (i.mission_title.as_str(), i.title.as_str()))
        .collect();
    assert_eq!(
        prs,
        [
            ("Other mission", "Merge PR #12: Task of the OTHER mission"),
            ("Other mission", "Merge PR #13: Speed up the checkout query"),
        ]
    );
    let tasks: Vec<&str> = items
        .iter()
        .filter_map(|i| match &i.action {
            WaitAction::MergeFromTask { task_id } => Some(task_id.as_str()),
            _ => None,
        })
        .collect();
    let other = missions
        .iter()
        .find(|m| m.title == "Other mission")
        .unwrap();
    let with_prs: Vec<&str> = other.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(tasks.len(), 2);
    assert!(tasks.iter().all(|t| with_prs.contains(t)), "{tasks:?}");
}
