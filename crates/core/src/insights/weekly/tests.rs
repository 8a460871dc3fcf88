use super::*;
use crate::insights::ms_of;

fn merged(
    ws: &str,
    number: i64,
    claimed: Option<&str>,
    opened: Option<&str>,
    at: &str,
) -> MergedPr {
    MergedPr {
        workspace_id: ws.into(),
        mission_id: None,
        number,
        deliverable: true,
        claimed_at: claimed.map(Into::into),
        opened_at: opened.map(Into::into),
        merged_at: at.into(),
    }
}

fn spent(at: &str, cost: &str, ws: Option<&str>, mission: Option<&str>) -> SpendPoint {
    SpendPoint {
        at: at.into(),
        cost_usd: cost.into(),
        started_at: None,
        mission_id: mission.map(Into::into),
        workspace_id: ws.map(Into::into),
    }
}

fn usd(cents: i64) -> Usd {
    Usd::from_cents(cents)
}

fn by_mission(rows: &[(&str, i64)]) -> Vec<MissionSpend> {
    rows.iter()
        .map(|&(m, cents)| MissionSpend {
            mission_id: (!m.is_empty()).then(|| m.into()),
            spend: usd(cents),
        })
        .collect()
}

fn activity() -> TeamActivity {
    let mut housekeeping = merged("api", 3, None, None, "2026-11-25T12:00:00Z");
    housekeeping.deliverable = false;
    TeamActivity {
        merged: vec![
            merged(
                "api",
                1,
                Some("2026-11-24T10:00:00Z"),
                Some("2026-11-24T11:00:00Z"),
                "2026-11-24T12:00:00Z",
            ),
            // Late on Sunday: still week 48.
            merged(
                "api",
                2,
                Some("2026-11-29T18:00:00Z"),
                Some("2026-11-29T21:00:00Z"),
                "2026-11-29T23:00:00Z",
            ),
            housekeeping,
            merged("web", 4, None, None, "2026-12-08T10:00:00Z"),
        ],
        tasks: vec![
            TaskTally {
                workspace_id: "web".into(),
                class: TaskClass::Work,
                status: TaskStatus::Failed,
                created_at: Some("2026-11-24T09:00:00Z".into()),
                finished_at: Some("2026-11-25T09:00:00Z".into()),
            },
            TaskTally {
                workspace_id: "web".into(),
                class: TaskClass::Attempt,
                status: TaskStatus::Completed,
                created_at: Some("2026-11-25T10:00:00Z".into()),
                finished_at: Some("2026-12-01T10:00:00Z".into()),
            },
        ],
        spend: vec![
            spent("2026-11-24T12:00:00Z", "1.00", Some("api"), Some("m1")),
            spent("2026-11-25T12:00:00Z", "3.00", Some("api"), Some("m2")),
            spent("2026-11-26T12:00:00Z", "0.50", Some("web"), Some("m3")),
            spent("2026-11-26T13:00:00Z", "0.10", None, None),
            spent("2026-12-08T12:00:00Z", "2.00", Some("web"), Some("m3")),
        ],
    }
}

#[test]
fn weeks_per_workspace_without_gaps() {
    let weeks = weekly(&activity());
    let labels: Vec<&str> = weeks.iter().map(|w| w.label.as_str()).collect();
    assert_eq!(labels, ["2026-W48", "2026-W49", "2026-W50"]);
    assert_eq!(weeks[0].starts_ms, ms_of("2026-11-23T00:00:00Z").unwrap());
    let api = Figures {
        merged: 2,
        failed: 0,
        retried: 0,
        // 2h and 5h from claim; 1h and 2h from the PR.
        median_claim_to_merge_secs: Some(12_600),
        median_review_wait_secs: Some(5_400),
        spend: usd(400),
        cost_per_merged: Some(usd(200)),
        spend_by_mission: by_mission(&[("m2", 300), ("m1", 100)]),
    };
    let web = Figures {
        failed: 1,
        retried: 1,
        spend: usd(50),
        spend_by_mission: by_mission(&[("m3", 50)]),
        ..Figures::default()
    };
    assert_eq!(
        weeks[0].team,
        Figures {
            failed: 1,
            retried: 1,
            spend: usd(460),
            cost_per_merged: Some(usd(230)),
            spend_by_mission: by_mission(&[("m2", 300), ("m1", 100), ("m3", 50), ("", 10)]),
            ..api.clone()
        }
    );
    assert_eq!(
        weeks[0].workspaces,
        [
            WorkspaceFigures {
                workspace_id: "api".into(),
                figures: api
            },
            WorkspaceFigures {
                workspace_id: "web".into(),
                figures: web
            },
        ]
    );
    // The quiet week is there, every workspace in it at nothing.
    assert_eq!(weeks[1].team, Figures::default());
    assert_eq!(weeks[1].workspaces.len(), 2);
    assert!(weeks[1]
        .workspaces
        .iter()
        .all(|w| w.figures == Figures::default()));
    assert_eq!(weeks[2].workspaces[1].figures.merged, 1);
    assert_eq!(weeks[2].team.median_review_wait_secs, None);
    assert_eq!(
        weeks[0].describe(),
        "2026-W48: 2 deliverables merged, 1 failed, 1 retried, $4.60 spent, $2.30 per merged \
         deliverable, median review wait 1h 30m."
    );
}

#[test]
fn nothing_and_one_merge() {
    assert!(weekly(&TeamActivity::default()).is_empty());
    let one = weekly(&TeamActivity {
        merged: vec![merged("api", 1, None, None, "2027-01-01T12:00:00Z")],
        ..TeamActivity::default()
    });
    assert_eq!(one.len(), 1);
    // New Year's Day 2027 is in the last ISO week of 2026.
    assert_eq!(one[0].label, "2026-W53");
    assert_eq!(one[0].team.merged, 1);
    // Nothing spent: a merge that cost nothing reported.
    assert_eq!(one[0].team.cost_per_merged, Some(Usd::ZERO));
}

#[test]
fn a_merged_pr_of_the_api_reads() {
    let pr: PullRequest = serde_json::from_value(serde_json::json!({
        "number": 5, "url": null, "title": null, "taskId": "t", "missionId": "m",
        "workspaceId": "ws", "baseBranch": null, "headBranch": null, "headSha": null,
        "state": "merged", "mergedAt": "2026-11-24T12:00:00Z",
        "createdAt": "2026-11-24T11:00:00Z", "files": null,
        "policy": {"policy": {"tier": "auto-threshold"}, "source": "default", "reason": "r"},
        "evaluation": {"state": "merged", "reasons": [], "mergeableByPerson": false,
                       "autoMerge": false, "tierHold": null, "migrations": null}
    }))
    .unwrap();
    let m = MergedPr::of(&pr, true, Some("2026-11-24T10:00:00Z")).unwrap();
    assert_eq!((m.number, m.mission_id.as_deref()), (5, Some("m")));
    assert_eq!(m.opened_at.as_deref(), Some("2026-11-24T11:00:00Z"));
    let open = PullRequest {
        merged_at: None,
        ..pr
    };
    assert_eq!(MergedPr::of(&open, true, None), None);
}
