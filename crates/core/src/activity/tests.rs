use super::*;
use serde_json::json;

fn item(id: &str, status: &str, mission: Option<&str>, updated: &str) -> TaskListItem {
    serde_json::from_value(json!({
        "id": id, "workspaceId": "ws", "externalId": null, "externalUrl": null,
        "title": format!("Task {id}"), "status": status, "runnerPreference": null,
        "claimedBy": null, "claimedAt": null, "expiresAt": null, "startAt": null,
        "createdByAccountId": null, "createdByWorkerId": null, "creationSource": "api",
        "parentTaskId": null, "category": null, "project": null, "outputRequirement": null,
        "missionId": mission, "createdAt": updated, "updatedAt": updated, "workspace": null
    }))
    .unwrap()
}

fn query(v: serde_json::Value) -> ActivityQuery {
    serde_json::from_value(v).unwrap()
}

#[test]
fn days_bound_the_changes_and_run_to_their_end() {
    let q = query(json!({"since": "2026-12-05", "until": "2026-12-05"}));
    assert_eq!(
        q.changed_since().unwrap().as_deref(),
        Some("2026-12-05T00:00:00.000Z")
    );
    assert_eq!(
        q.changed_before().unwrap().as_deref(),
        Some("2026-12-06T00:00:00.000Z")
    );
    let bad = query(json!({"since": "yesterday"}));
    assert_eq!(bad.validate().unwrap_err().field, "since");
    assert_eq!(
        query(json!({"cursor": "x"})).validate().unwrap_err().field,
        "cursor"
    );
    assert_eq!(
        query(json!({"status": "doing"}))
            .validate()
            .unwrap_err()
            .field,
        "status"
    );
}

#[test]
fn a_hosted_list_is_filtered_sorted_and_paged_here() {
    let list = [
        item("a", "failed", Some("m1"), "2026-12-05T10:00:00.000Z"),
        item("b", "failed", None, "2026-12-05T11:00:00.000Z"),
        item("c", "completed", None, "2026-12-05T12:00:00.000Z"),
        item("d", "failed", None, "2026-12-04T09:00:00.000Z"),
    ];
    // What failed today, of no mission.
    let q = query(json!({"status": "failed", "missionId": "none", "since": "2026-12-05"}));
    let page = of_buildd_list(&list, &q);
    let ids: Vec<&str> = page.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!((ids, page.total), (vec!["b"], 1));
    // Newest change first, two a page.
    let q = query(json!({"limit": "2"}));
    let first = of_buildd_list(&list, &q);
    let ids: Vec<&str> = first.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["c", "b"]);
    let next = ActivityQuery {
        cursor: first.next_cursor.clone(),
        ..q.clone()
    };
    let second = of_buildd_list(&list, &next);
    let ids: Vec<&str> = second.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!((ids, second.next_cursor), (vec!["a", "d"], None));
    // A search by words of the title, or by id.
    assert_eq!(
        of_buildd_list(&list, &query(json!({"q": "task C"}))).total,
        1
    );
    assert_eq!(of_buildd_list(&list, &query(json!({"q": "d"}))).total, 1);
    assert_eq!(of_buildd_list(&[], &q).total, 0);
}

#[test]
fn groups_follow_the_work_and_put_no_mission_last() {
    let tasks: Vec<ActivityTask> = [
        item("a", "completed", None, "1"),
        item("b", "pending", Some("m1"), "2"),
        item("c", "in_progress", Some("m2"), "3"),
        item("d", "pending", Some("m1"), "4"),
    ]
    .iter()
    .map(ActivityTask::of_buildd)
    .collect();
    let by_status = groups(&tasks, Grouping::Status);
    let labels: Vec<&str> = by_status.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["pending", "in progress", "completed"]);
    assert_eq!(by_status[0].1, [1, 3]);
    let by_mission = groups(&tasks, Grouping::Mission);
    let labels: Vec<&str> = by_mission.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["m1", "m2", "No mission"]);
    assert_eq!(groups(&tasks, Grouping::None).len(), 1);
    assert!(groups(&[], Grouping::Status).is_empty());
}
