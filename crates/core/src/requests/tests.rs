use super::missions::{MissionPatch, NewMission};
use super::notes::{NewNote, NoteReply};
use super::prs::{CheckRunReport, MergePr, OpenPr};
use super::tasks::{NewTask, TaskPatch};
use super::workers::{Claim, Heartbeat, Instruct, WorkerReport};
use super::workspaces::{NewWorkspace, WorkspacePatch};
use super::*;
use crate::enums::*;
use serde_json::{json, Value};

fn s() -> Option<String> {
    Some("x".into())
}

fn p() -> Patch<String> {
    Patch::Value("x".into())
}

/// Every request with each of its text fields set.
fn full_requests() -> Vec<Value> {
    [
        serde_json::to_value(NewMission {
            title: s(),
            description: s(),
            status: Some(MissionStatus::Active),
            orchestration_mode: Some(OrchestrationMode::Auto),
            workspace_id: s(),
            start_mode: Some("held".into()),
            mode: Patch::Value(WorkMode::Dispatch),
            heartbeat_checklist: p(),
            active_hours_timezone: p(),
            ..Default::default()
        }),
        serde_json::to_value(MissionPatch {
            title: p(),
            description: p(),
            heartbeat_checklist: p(),
            active_hours_timezone: p(),
            cron_expression: s(),
            ..Default::default()
        }),
        serde_json::to_value(NewTask {
            title: s(),
            description: s(),
            mode: Some(TaskMode::Execution),
            mission_id: s(),
            workspace_id: s(),
            parent_task_id: s(),
            created_by_worker_id: s(),
            creation_source: s(),
            role_slug: s(),
            category: s().map(crate::TaskCategory::from),
            output_requirement: Some(OutputRequirement::Auto),
            ..Default::default()
        }),
        serde_json::to_value(TaskPatch {
            title: p(),
            description: p(),
            role_slug: p(),
            mission_id: p(),
            status: Some(TaskStatus::Cancelled),
            reason: s(),
            start_at: p(),
            ..Default::default()
        }),
        serde_json::to_value(Claim {
            runner: s(),
            workspace_id: s(),
            task_id: s(),
            max_tasks: None,
        }),
        serde_json::to_value(Heartbeat {
            local_ui_url: s(),
            active_worker_count: None,
        }),
        serde_json::to_value(WorkerReport {
            status: Some(WorkerStatus::Running),
            error: s(),
            current_action: p(),
            pr_url: s(),
            summary: s(),
            next_suggestion: s(),
            head_sha: s(),
            last_commit_sha: s(),
            base_branch: s(),
            head_branch: s(),
            ..Default::default()
        }),
        serde_json::to_value(Instruct {
            message: s(),
            priority: s(),
        }),
        serde_json::to_value(NewNote {
            kind: Some(NoteKind::Question),
            title: s(),
            body_text: s(),
            author_type: Some(AuthorType::Agent),
            status: Some(NoteStatus::Open),
            default_choice: s(),
            worker_id: s(),
            task_id: s(),
            reply_to: s(),
            ..Default::default()
        }),
        serde_json::to_value(NoteReply {
            title: s(),
            body_text: s(),
        }),
        serde_json::to_value(OpenPr {
            worker_id: s(),
            title: s(),
            head: s(),
            base: s(),
            body: s(),
            draft: None,
            pr_url: s(),
        }),
        serde_json::to_value(CheckRunReport {
            workspace_id: s(),
            head_sha: s(),
            name: s(),
            status: s(),
            conclusion: Some("x".into()),
            details_url: s(),
        }),
        serde_json::to_value(MergePr::new("x")),
        serde_json::to_value(NewWorkspace {
            name: s(),
            repo: s(),
        }),
        serde_json::to_value(WorkspacePatch {
            name: p(),
            repo: p(),
            repo_url: p(),
            default_branch: p(),
            local_path: p(),
            access_mode: Some(AccessMode::Open),
            data_class: Some("x".into()),
            ..Default::default()
        }),
    ]
    .into_iter()
    .map(Result::unwrap)
    .collect()
}

#[test]
fn every_text_field_of_every_request_has_a_limit() {
    for request in full_requests() {
        for (key, value) in request.as_object().unwrap() {
            if value.is_string() {
                assert!(text_limit(key).is_some(), "{key} has no limit: {request}");
            }
        }
    }
}

#[test]
fn a_text_over_its_limit_is_refused_naming_it() {
    let body = json!({"title": "t".repeat(501)});
    let refused = check_text(body.as_object().unwrap()).unwrap_err();
    assert_eq!(refused.field, "title");
    assert_eq!(
        refused.message,
        "title must be at most 500 characters (it has 501)"
    );
    // A field no request reads is not ours to limit.
    assert!(check_text(
        json!({"environment": "e".repeat(5000)})
            .as_object()
            .unwrap()
    )
    .is_ok());
    // The dashboard's check refuses what the server would.
    let long = NewTask::new(&"t".repeat(501));
    assert_eq!(check(&long).unwrap_err().field, "title");
}

#[test]
fn a_mission_patch_sends_only_what_changes() {
    let patch = MissionPatch {
        title: Patch::Value("Faster builds".into()),
        priority: Patch::Value(3),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&patch).unwrap(),
        json!({"title": "Faster builds", "priority": 3})
    );
    let cleared = MissionPatch {
        cost_budget_usd: Patch::Null,
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&cleared).unwrap(),
        json!({"costBudgetUsd": null})
    );
    let read: MissionPatch =
        serde_json::from_value(json!({"activeHoursStart": 9, "unknownField": 1})).unwrap();
    assert_eq!(read.active_hours_start, Patch::Value(9));
    assert!(read.checkins().any());
}

#[test]
fn validation_names_the_field() {
    let refused = |v: Value| -> FieldError {
        let r: MissionPatch = serde_json::from_value(v).unwrap();
        r.validate().unwrap_err()
    };
    assert_eq!(
        refused(json!({"title": " "})).message,
        "title must be a non-empty string"
    );
    assert_eq!(
        refused(json!({"priority": null})).message,
        "priority must be an integer"
    );
    assert!(refused(json!({"status": "done"}))
        .message
        .starts_with("status must be one of"));
    assert_eq!(refused(json!({"mode": "solo"})).field, "mode");
    let policy = refused(json!({"mergePolicy": {"tier": "sometimes"}}));
    assert_eq!(policy.field, "mergePolicy");
    assert!(!policy.errors.is_empty());
    let stop = TaskPatch::stop(Some("  looping  "));
    assert_eq!(
        serde_json::to_value(&stop).unwrap(),
        json!({"status": "cancelled", "reason": "looping"})
    );
    assert!(stop.validate().is_ok());
    let bad_status: TaskPatch = serde_json::from_value(json!({"status": "review"})).unwrap();
    assert_eq!(
        bad_status.validate().unwrap_err().message,
        "Invalid status. Allowed: pending, completed, failed, cancelled"
    );
}

#[test]
fn a_person_note_names_its_author() {
    let note =
        serde_json::to_value(NewNote::by_person(NoteKind::Guidance, "Keep it small")).unwrap();
    assert_eq!(
        note,
        json!({"type": "guidance", "title": "Keep it small", "authorType": "user"})
    );
    let reply = serde_json::to_value(NewNote::reply("n1", "Use Redis")).unwrap();
    assert_eq!(
        reply,
        json!({"type": "reply", "title": "Use Redis", "replyTo": "n1", "authorType": "user"})
    );
}
