use super::*;
use crate::insights::ms_of;
use crate::insights::weekly::weekly;

#[test]
fn weeks_are_whole_and_checked() {
    // Sunday 6 December 2026: this week began on Monday the 30th of November.
    let now = ms_of("2026-12-06T16:00:00Z").unwrap();
    let q = |weeks| InsightsQuery { weeks };
    assert_eq!(q(Some(1)).since(now), "2026-11-30T00:00:00.000Z");
    assert_eq!(q(Some(3)).since(now), "2026-11-16T00:00:00.000Z");
    assert_eq!(q(None).weeks(), DEFAULT_WEEKS);
    assert!(q(Some(12)).validate().is_ok());
    for bad in [0, -1, MAX_WEEKS + 1] {
        assert_eq!(q(Some(bad)).validate().unwrap_err().field, "weeks");
    }
    // On a Monday itself the week starts that day.
    let monday = ms_of("2026-11-30T00:30:00Z").unwrap();
    assert_eq!(q(Some(1)).since(monday), "2026-11-30T00:00:00.000Z");
}

#[test]
fn a_retry_delivers_what_its_task_does() {
    assert!(deliverable(TaskClass::Work, None));
    assert!(deliverable(TaskClass::Attempt, Some(TaskClass::Work)));
    assert!(!deliverable(
        TaskClass::Attempt,
        Some(TaskClass::Bookkeeping)
    ));
    assert!(!deliverable(TaskClass::Attempt, None));
    assert!(!deliverable(TaskClass::Bookkeeping, None));
}

fn hours(start: u32, end: u32, zone: &str, offset: i32) -> MissionHours {
    MissionHours {
        start,
        end,
        timezone: zone.into(),
        offset_seconds: offset,
    }
}

#[test]
fn the_window_most_missions_keep() {
    assert_eq!(common_hours(&[]), None);
    let one = [hours(9, 17, "UTC", 0)];
    assert_eq!(common_hours(&one), Some(&one[0]));
    let several = [
        hours(9, 17, "UTC", 0),
        hours(8, 16, "Europe/Paris", 3600),
        hours(8, 16, "Europe/Berlin", 3600),
    ];
    assert_eq!(common_hours(&several).map(|h| h.start), Some(8));
    // Equals: the earliest start.
    let tied = [hours(10, 18, "UTC", 0), hours(9, 17, "UTC", 0)];
    assert_eq!(common_hours(&tied).map(|h| h.start), Some(9));
}

#[test]
fn a_buildd_list_gives_failures_and_retries() {
    let list: Vec<TaskListItem> = serde_json::from_value(serde_json::json!([
        {"id": "a", "workspaceId": "api", "title": "Fix it", "status": "failed",
         "createdAt": "2026-11-24T09:00:00Z", "updatedAt": "2026-11-25T09:00:00Z"},
        {"id": "b", "workspaceId": "api", "title": "[retry] Fix it", "status": "completed",
         "parentTaskId": "a", "createdAt": "2026-11-25T10:00:00Z",
         "updatedAt": "2026-11-25T12:00:00Z"},
        {"id": "c", "workspaceId": "web", "title": "Old", "status": "failed",
         "createdAt": "2026-10-01T09:00:00Z", "updatedAt": "2026-10-02T09:00:00Z"}
    ]))
    .unwrap();
    let since = ms_of("2026-11-23T00:00:00Z").unwrap();
    let activity = of_buildd_tasks(&list, since);
    // The old failure is before the weeks read.
    assert_eq!(activity.tasks.len(), 2);
    assert!(activity.merged.is_empty() && activity.spend.is_empty());
    let weeks = weekly(&activity);
    assert_eq!(weeks.len(), 1);
    assert_eq!((weeks[0].team.failed, weeks[0].team.retried), (1, 1));
    assert_eq!(weeks[0].team.merged, 0);
    assert!(of_buildd_tasks(&[], since).tasks.is_empty());
}

#[test]
fn the_answer_reads_as_written() {
    let answer: TeamInsights = serde_json::from_value(serde_json::json!({
        "since": "2026-11-23T00:00:00.000Z",
        "merged": [{"workspaceId": "api", "number": 1, "deliverable": true,
                    "mergedAt": "2026-11-24T12:00:00Z"}],
        "tasks": [], "spend": [],
        "busy": [{"startedAt": "2026-11-24T10:00:00Z", "endedAt": "2026-11-24T11:00:00Z"}],
        "activeHours": [{"start": 9, "end": 17, "timezone": "UTC", "offsetSeconds": 0}]
    }))
    .unwrap();
    assert_eq!(answer.activity.merged.len(), 1);
    assert_eq!(answer.busy.len(), 1);
    let back = serde_json::to_value(&answer).unwrap();
    assert_eq!(back["merged"][0]["number"], 1);
    assert_eq!(back["activeHours"][0]["offsetSeconds"], 0);
}

#[cfg(feature = "tz")]
#[test]
fn a_zone_gives_its_offset_now() {
    let paris = crate::checkin::ActiveHours {
        start: 9,
        end: 17,
        timezone: "Europe/Paris".into(),
    };
    let winter = MissionHours::of(&paris, ms_of("2026-12-06T12:00:00Z").unwrap());
    assert_eq!(winter.offset_seconds, 3600);
    let summer = MissionHours::of(&paris, ms_of("2026-07-06T12:00:00Z").unwrap());
    assert_eq!(summer.offset_seconds, 7200);
}
