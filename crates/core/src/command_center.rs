//! The command center's "Waiting on you": everything a person must act on across missions,
//! oldest first — plans in review, dormant missions to close, PRs held for a person, open
//! questions from the organizer, missions that spent their budget, missions whose check-ins
//! stopped on something only a person can fix, and failed work that nothing will pick up
//! by itself.

use crate::client::ClientMission;
use crate::completion::is_dormant;
use crate::enums::{words, MissionStatus, PrStatus, TaskStatus};
use crate::grouping::{mission_state, MissionState};
use crate::mission::SegmentState;
use crate::money::Usd;
use crate::note::MissionNote;
use crate::plan::plan_in_review;
use crate::progress::{compute_progress, is_deliverable, MissionProgress};
use crate::pull_request::{PrState, PullRequest};
use crate::task_prs::prs_of_tasks;
use crate::waiting::WaitingTask;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitKind {
    PlanInReview,
    Dormant,
    PrHeld,
    /// An open PR read from a task's worker, where the API lists no PRs (Buildd's): where
    /// CI stands, and so whether the policy lets a person merge it, is read when asked.
    PrOpen,
    Question,
    Deferred,
    Failed,
    /// The mission spent its budget: nothing new starts until a person raises it.
    OutOfBudget,
    /// An agent asks a person a question and waits (holding its seat while it is there).
    AgentWaiting,
}

/// What a person can do about an item right where it is listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitAction {
    /// Approve or reject the plan of this planning task.
    ReviewPlan { task_id: String },
    /// Queue this failed task again.
    Retry { task_id: String },
    /// Merge this PR, held for a person.
    Merge { number: i64, workspace_id: String },
    /// Merge the PR of this task, read from its mission first and judged by the policy
    /// (`hosted_merge`) before it is sent.
    MergeFromTask { task_id: String },
    /// Close the mission, whose work is done.
    Close,
    /// Raise the mission's budget above what it spent (`None`: the answer says no spend).
    RaiseBudget {
        spend: Option<Usd>,
        budget: Option<Usd>,
    },
    /// Answer the agent of this worker: a choice or words of one's own.
    Answer {
        worker_id: String,
        prompt: String,
        options: Vec<String>,
        /// Whether the agent is there to read it; otherwise it becomes a follow-up task.
        live: bool,
    },
    /// Answer the organizer's question (a note of the mission): one of its choices, or
    /// words of one's own, sent as a person's reply.
    AnswerQuestion {
        note_id: String,
        options: Vec<String>,
        default_choice: Option<String>,
    },
    /// Only the link: what is needed happens there (a workspace, a budget).
    Open,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WaitItem {
    pub kind: WaitKind,
    pub action: WaitAction,
    pub mission_id: String,
    pub mission_title: String,
    /// What it is about, unique within its kind: the planning task, the mission, the failed
    /// task, the PR (`<workspace>#<number>`) or the question.
    pub subject: String,
    /// What to act on, in words.
    pub title: String,
    /// Where to act: a dashboard path.
    pub href: String,
    /// Since when it waits (ISO time), for ordering oldest first.
    pub since: String,
}

impl WaitItem {
    /// Tells this item apart from every other one listed: several questions or held PRs of
    /// one mission share their kind and link.
    pub fn key(&self) -> (WaitKind, &str) {
        (self.kind, &self.subject)
    }
}

/// Check-in deferrals that only a person can clear (a spent budget is an item of its own).
const NEEDS_A_PERSON: [&str; 2] = ["no_workspace", "heartbeat_circuit_breaker"];

/// Failed work that nothing will pick up by itself: the mission is failing and no task of
/// it is queued or running.
pub fn stuck_on_failure(mission: &ClientMission, progress: &MissionProgress) -> bool {
    !mission.tasks.iter().any(|t| !t.status.is_terminal())
        && mission_state(mission, &mission.tasks, progress) == MissionState::Failing
}

/// Everything waiting on a person, oldest first. `prs`: the team's PRs, or `None` where
/// the API lists none, when each open mission's open PRs are read from its tasks.
pub fn waiting_on_you(
    missions: &[ClientMission],
    prs: Option<&[PullRequest]>,
    questions: &[MissionNote],
    agents: &[WaitingTask],
) -> Vec<WaitItem> {
    let title_of = |id: &str| title_of(missions, id);
    let mut items = Vec::new();
    for m in missions {
        if let Some(plan) = plan_in_review(&m.tasks) {
            items.push(WaitItem {
                kind: WaitKind::PlanInReview,
                action: WaitAction::ReviewPlan {
                    task_id: plan.id.clone(),
                },
                mission_id: m.id.clone(),
                mission_title: m.title.clone(),
                subject: plan.id.clone(),
                title: format!("Review the plan of {}", m.title),
                href: format!("/tasks/{}", plan.id),
                since: plan.updated_at.clone().unwrap_or_default(),
            });
        }
        if is_dormant(
            &m.status,
            m.requires_review,
            &m.orchestration_mode,
            &m.tasks,
        ) {
            items.push(WaitItem {
                kind: WaitKind::Dormant,
                action: WaitAction::Close,
                mission_id: m.id.clone(),
                mission_title: m.title.clone(),
                subject: m.id.clone(),
                title: format!("Close {}: its work is done", m.title),
                href: format!("/missions/{}", m.id),
                since: m.updated_at.clone().unwrap_or_default(),
            });
        }
        if m.status == MissionStatus::BudgetExhausted {
            let (spend, budget) = (m.spend(), m.budget());
            let what = match (spend, budget) {
                (Some(spend), Some(budget)) => format!("{spend} of {budget} spent"),
                _ => "its budget is spent".into(),
            };
            items.push(WaitItem {
                kind: WaitKind::OutOfBudget,
                action: WaitAction::RaiseBudget { spend, budget },
                mission_id: m.id.clone(),
                mission_title: m.title.clone(),
                subject: m.id.clone(),
                title: format!("Raise the budget of {}: {what}", m.title),
                href: format!("/missions/{}", m.id),
                since: m.updated_at.clone().unwrap_or_default(),
            });
        }
        let deferred = m
            .last_deferral_reason
            .as_deref()
            .filter(|r| NEEDS_A_PERSON.contains(r));
        if let (Some(reason), MissionStatus::Active | MissionStatus::BudgetExhausted) =
            (deferred, &m.status)
        {
            items.push(WaitItem {
                kind: WaitKind::Deferred,
                action: WaitAction::Open,
                mission_id: m.id.clone(),
                mission_title: m.title.clone(),
                subject: m.id.clone(),
                title: format!("{}: check-ins stopped ({})", m.title, words(reason)),
                href: format!("/missions/{}", m.id),
                since: m.last_deferred_at.clone().unwrap_or_default(),
            });
        }
    }
    for m in missions {
        let progress = compute_progress(&m.status, &m.tasks);
        if !stuck_on_failure(m, &progress) {
            continue;
        }
        let failed = progress
            .segments
            .iter()
            .filter(|s| s.state == SegmentState::Notch)
            .count();
        let since = m
            .tasks
            .iter()
            .filter_map(|t| t.updated_at.clone())
            .max()
            .unwrap_or_default();
        // The failed deliverable that failed last is the one to retry.
        let Some(broken) = m
            .tasks
            .iter()
            .filter(|t| t.status == TaskStatus::Failed && is_deliverable(t))
            .max_by(|a, b| a.updated_at.cmp(&b.updated_at))
        else {
            continue;
        };
        items.push(WaitItem {
            kind: WaitKind::Failed,
            action: WaitAction::Retry {
                task_id: broken.id.clone(),
            },
            mission_id: m.id.clone(),
            mission_title: m.title.clone(),
            subject: broken.id.clone(),
            title: format!(
                "{}: {failed} {} failed and nothing is queued — retry or re-plan",
                m.title,
                if failed == 1 { "task" } else { "tasks" }
            ),
            href: format!("/tasks/{}", broken.id),
            since,
        });
    }
    let Some(prs) = prs else {
        items.extend(prs_of_open_missions(missions));
        return with_rest(items, missions, questions, agents);
    };
    for pr in prs.iter().filter(|p| {
        p.state == PrStatus::Open
            && p.evaluation.state == PrState::Held
            // Held for a person: the human tier, an escalated or approve-only review, or a
            // rail that only a person may merge past.
            && p.evaluation.mergeable_by_person
    }) {
        let mission = pr.mission_id.clone().unwrap_or_default();
        items.push(WaitItem {
            kind: WaitKind::PrHeld,
            action: WaitAction::Merge {
                number: pr.number,
                workspace_id: pr.workspace_id.clone(),
            },
            mission_title: title_of(&mission),
            subject: format!("{}#{}", pr.workspace_id, pr.number),
            title: format!(
                "Merge PR #{}{}",
                pr.number,
                pr.title
                    .as_ref()
                    .map(|t| format!(": {t}"))
                    .unwrap_or_default()
            ),
            href: format!("/missions/{mission}"),
            since: pr.created_at.clone().unwrap_or_default(),
            mission_id: mission,
        });
    }
    items.sort_by(|a, b| a.since.cmp(&b.since));
    with_rest(items, missions, questions, agents)
}

/// The title of mission `id` (empty when it is not among `missions`).
fn title_of(missions: &[ClientMission], id: &str) -> String {
    missions
        .iter()
        .find(|m| m.id == id)
        .map(|m| m.title.clone())
        .unwrap_or_default()
}

/// The open PRs of open missions, as their tasks' latest workers tell them.
fn prs_of_open_missions(missions: &[ClientMission]) -> Vec<WaitItem> {
    let mut items = Vec::new();
    for m in missions.iter().filter(|m| m.status.is_open()) {
        for pr in prs_of_tasks(&m.tasks)
            .into_iter()
            .filter(|p| p.stage.is_open())
        {
            let since = m
                .tasks
                .iter()
                .find(|t| t.id == pr.task_id)
                .and_then(|t| t.updated_at.clone())
                .unwrap_or_default();
            let number = pr.number.map(|n| format!(" #{n}")).unwrap_or_default();
            items.push(WaitItem {
                kind: WaitKind::PrOpen,
                action: WaitAction::MergeFromTask {
                    task_id: pr.task_id.clone(),
                },
                mission_id: m.id.clone(),
                mission_title: m.title.clone(),
                subject: pr.url,
                title: format!("Merge PR{number}: {}", pr.task_title),
                href: format!("/missions/{}", m.id),
                since,
            });
        }
    }
    items
}

/// `items` with the organizer's open questions and the agents waiting on an answer, oldest
/// first.
fn with_rest(
    mut items: Vec<WaitItem>,
    missions: &[ClientMission],
    questions: &[MissionNote],
    agents: &[WaitingTask],
) -> Vec<WaitItem> {
    let title_of = |id: &str| title_of(missions, id);
    for q in questions.iter().filter(|q| q.is_open_question()) {
        let mission = q.mission_id.clone().unwrap_or_default();
        items.push(WaitItem {
            kind: WaitKind::Question,
            action: WaitAction::AnswerQuestion {
                note_id: q.id.clone(),
                options: q.options.clone(),
                default_choice: q.default_choice.clone(),
            },
            mission_title: title_of(&mission),
            subject: q.id.clone(),
            title: format!("Answer: {}", q.title),
            href: format!("/missions/{mission}?tab=feed"),
            since: q.created_at.clone(),
            mission_id: mission,
        });
    }
    for a in agents {
        let Some(worker) = &a.worker_id else {
            continue;
        };
        let mission = a.mission_id.clone().unwrap_or_default();
        items.push(WaitItem {
            kind: WaitKind::AgentWaiting,
            action: WaitAction::Answer {
                worker_id: worker.clone(),
                prompt: a.waiting_for.question().to_string(),
                options: a.waiting_for.options.clone(),
                live: a.live,
            },
            mission_title: if mission.is_empty() {
                "No mission".into()
            } else {
                title_of(&mission)
            },
            subject: worker.clone(),
            title: format!("{} asks: {}", a.title, a.waiting_for.question()),
            href: format!("/tasks/{}", a.id),
            since: a.since.clone().unwrap_or_default(),
            mission_id: mission,
        });
    }
    items.sort_by(|a, b| a.since.cmp(&b.since));
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mission(v: serde_json::Value) -> ClientMission {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_mission_that_spent_its_budget_waits_for_a_raise_once() {
        let missions = vec![
            mission(
                json!({"id": "m", "title": "Search", "status": "budget_exhausted",
                "costBudgetUsd": "1.00", "spendUsd": "1.400000",
                "lastDeferralReason": "budget_exhausted", "updatedAt": "2026-11-29T10:00:00Z",
                "tasks": []}),
            ),
            // Buildd's list carries no spend: the item says so without a figure.
            mission(
                json!({"id": "b", "title": "Hosted", "status": "budget_exhausted",
                "costBudgetUsd": 25, "tasks": []}),
            ),
            mission(json!({"id": "a", "title": "Fine", "status": "active",
                "costBudgetUsd": "5.00", "spendUsd": "1.000000", "tasks": []})),
        ];
        let items = waiting_on_you(&missions, Some(&[]), &[], &[]);
        let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Raise the budget of Hosted: its budget is spent",
                "Raise the budget of Search: $1.40 of $1.00 spent"
            ]
        );
        assert_eq!(
            items[1].action,
            WaitAction::RaiseBudget {
                spend: Some(Usd::from_cents(140)),
                budget: Some(Usd::from_cents(100))
            }
        );
        assert_eq!(
            items[0].action,
            WaitAction::RaiseBudget {
                spend: None,
                budget: Some(Usd::from_cents(2500))
            }
        );
    }

    #[test]
    fn everything_waiting_on_a_person_oldest_first() {
        let missions = vec![
            mission(
                json!({"id": "m1", "title": "Search", "status": "active", "tasks": [
                {"id": "p", "title": "Mission: Search", "status": "completed", "mode": "planning",
                 "taskClass": "bookkeeping", "updatedAt": "2026-11-29T10:00:00Z",
                 "result": {"structuredOutput": {"plan": [{"ref": "a", "title": "A", "description": "d"}],
                            "summary": "s", "missionComplete": false}}}]}),
            ),
            mission(
                json!({"id": "m2", "title": "Auth", "status": "active", "requiresReview": true,
                "updatedAt": "2026-11-29T08:00:00Z", "tasks": [
                {"id": "t", "title": "Rotate keys", "status": "completed", "taskClass": "work"},
                {"id": "o", "title": "Mission: Auth", "status": "completed", "mode": "planning",
                 "taskClass": "bookkeeping", "createdAt": "2026-11-29T07:30:00Z",
                 "result": {"structuredOutput": {"plan": [], "summary": "All landed",
                            "missionComplete": true}}}]}),
            ),
            mission(json!({"id": "m3", "title": "Export", "status": "active",
                "lastDeferralReason": "no_workspace", "lastDeferredAt": "2026-11-29T09:00:00Z", "tasks": []})),
            mission(json!({"id": "m4", "title": "Quiet", "status": "active",
                "lastDeferralReason": "heartbeat_no_change", "tasks": []})),
        ];
        let questions: Vec<MissionNote> = serde_json::from_value(json!([
            {"id": "q", "missionId": "m1", "authorType": "agent", "type": "question", "title": "Which index?",
             "status": "open", "createdAt": "2026-11-29T07:00:00Z", "options": ["btree", "gin"],
             "defaultChoice": "btree"},
            {"id": "q2", "missionId": "m1", "authorType": "agent", "type": "question", "title": "Done?",
             "status": "answered", "createdAt": "2026-11-29T06:00:00Z"}
        ])).unwrap();
        let items = waiting_on_you(&missions, Some(&[]), &questions, &[]);
        let kinds: Vec<(WaitKind, &str)> =
            items.iter().map(|i| (i.kind, i.href.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (WaitKind::Question, "/missions/m1?tab=feed"),
                (WaitKind::Dormant, "/missions/m2"),
                (WaitKind::Deferred, "/missions/m3"),
                (WaitKind::PlanInReview, "/tasks/p"),
            ]
        );
        // The question is answered in place, with its choices.
        assert_eq!(
            items[0].action,
            WaitAction::AnswerQuestion {
                note_id: "q".into(),
                options: vec!["btree".into(), "gin".into()],
                default_choice: Some("btree".into()),
            }
        );
        assert_eq!(items[0].mission_title, "Search");
        assert_eq!(items[2].title, "Export: check-ins stopped (no workspace)");
    }

    #[test]
    fn failed_work_waits_on_you_only_when_nothing_will_pick_it_up() {
        let failed = json!({"id": "f", "title": "Fix race", "status": "failed", "taskClass": "work",
            "updatedAt": "2026-11-29T05:00:00Z"});
        let stuck = mission(json!({"id": "m1", "title": "CI", "status": "active",
            "tasks": [failed, {"id": "d", "title": "Done", "status": "completed", "taskClass": "work"}]}));
        let replanning = mission(json!({"id": "m2", "title": "Docs", "status": "active",
            "tasks": [failed, {"id": "o", "title": "Mission: Docs", "status": "pending", "mode": "planning",
                               "taskClass": "bookkeeping"}]}));
        let paused =
            mission(json!({"id": "m3", "title": "Old", "status": "paused", "tasks": [failed]}));
        let items = waiting_on_you(&[stuck, replanning, paused], Some(&[]), &[], &[]);
        assert_eq!(items.len(), 1, "{items:?}");
        assert_eq!(items[0].kind, WaitKind::Failed);
        // It leads to the failed task, and retries it in place.
        assert_eq!(items[0].href, "/tasks/f");
        assert_eq!(
            items[0].action,
            WaitAction::Retry {
                task_id: "f".into()
            }
        );
        assert_eq!(
            items[0].title,
            "CI: 1 task failed and nothing is queued — retry or re-plan"
        );
        assert_eq!(items[0].since, "2026-11-29T05:00:00Z");
    }

    #[test]
    fn a_pr_waits_on_you_once_a_person_may_merge_it() {
        let pr = |number: i64, tier: &str, state: &str, person: bool| -> PullRequest {
            serde_json::from_value(json!({
                "number": number, "workspaceId": "w", "missionId": "m1", "state": "open",
                "title": "Add cache", "createdAt": format!("2026-11-29T0{number}:00:00Z"),
                "policy": {"policy": {"tier": tier}, "source": "mission", "reason": "r"},
                "evaluation": {"state": state, "reasons": [], "mergeableByPerson": person, "autoMerge": false}
            }))
            .unwrap()
        };
        let missions = vec![mission(
            json!({"id": "m1", "title": "Cache", "status": "active", "tasks": []}),
        )];
        let prs = [
            pr(1, "human", "held", true),
            // Escalated by the reviewer.
            pr(2, "agent-review", "held", true),
            // Still with the reviewer.
            pr(3, "agent-review", "held", false),
            pr(4, "human", "ci_failing", false),
        ];
        let items = waiting_on_you(&missions, Some(&prs), &[], &[]);
        let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(titles, ["Merge PR #1: Add cache", "Merge PR #2: Add cache"]);
        assert!(items.iter().all(|i| i.kind == WaitKind::PrHeld));
    }

    #[test]
    fn without_a_pr_list_the_open_prs_of_open_missions_wait_on_you() {
        let task = |id: &str, url: &str, merged: Option<&str>| {
            json!({"id": id, "title": format!("Task {id}"), "status": "completed",
                "updatedAt": format!("2026-11-29T0{}:00:00Z", id.len()),
                "workers": [{"id": format!("w{id}"), "status": "completed", "prUrl": url,
                    "mergedAt": merged}]})
        };
        let missions = vec![
            mission(
                json!({"id": "m1", "title": "Cache", "status": "active", "tasks": [
                    task("a", "https://github.com/o/r/pull/7", None),
                    task("bb", "https://github.com/o/r/pull/8", Some("2026-11-29T05:00:00Z")),
                    // A retry reporting the PR its first run opened: listed once.
                    task("ccc", "https://github.com/o/r/pull/7", None),
                ]}),
            ),
            // A mission that ended: nothing of it waits.
            mission(
                json!({"id": "m2", "title": "Done", "status": "completed", "tasks": [
                    task("d", "https://github.com/o/r/pull/9", None),
                ]}),
            ),
        ];
        let items = waiting_on_you(&missions, None, &[], &[]);
        let listed: Vec<(WaitKind, &str, &str)> = items
            .iter()
            .map(|i| (i.kind, i.title.as_str(), i.href.as_str()))
            .collect();
        assert_eq!(
            listed,
            [(WaitKind::PrOpen, "Merge PR #7: Task a", "/missions/m1")]
        );
        assert_eq!(
            items[0].action,
            WaitAction::MergeFromTask {
                task_id: "a".into()
            }
        );
        // With a PR list, the tasks' PRs are not read: the list says which are held.
        assert!(waiting_on_you(&missions, Some(&[]), &[], &[]).is_empty());
    }

    #[test]
    fn each_item_has_a_key_of_its_own_where_kind_and_link_repeat() {
        let missions = vec![mission(
            json!({"id": "m1", "title": "Cache", "status": "active", "tasks": []}),
        )];
        let pr = |number: i64| -> PullRequest {
            serde_json::from_value(json!({
                "number": number, "workspaceId": "w", "missionId": "m1", "state": "open",
                "createdAt": "2026-11-29T01:00:00Z",
                "policy": {"policy": {"tier": "human"}, "source": "mission", "reason": "r"},
                "evaluation": {"state": "held", "reasons": [], "mergeableByPerson": true, "autoMerge": false}
            }))
            .unwrap()
        };
        let question = |id: &str| -> MissionNote {
            serde_json::from_value(json!({"id": id, "missionId": "m1", "authorType": "agent",
                "type": "question", "title": "Which?", "status": "open",
                "createdAt": "2026-11-29T02:00:00Z"}))
            .unwrap()
        };
        let items = waiting_on_you(
            &missions,
            Some(&[pr(1), pr(2)]),
            &[question("q1"), question("q2")],
            &[],
        );
        assert_eq!(items.len(), 4);
        // The two PRs share a link, and so do the two questions.
        assert_eq!(items[0].href, items[1].href);
        assert_eq!(items[2].href, items[3].href);
        let keys: std::collections::HashSet<_> = items.iter().map(WaitItem::key).collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
    }

    #[test]
    fn an_agent_waiting_on_a_question_is_an_item_with_its_choices() {
        let missions = vec![mission(
            json!({"id": "m1", "title": "Cache", "status": "active", "tasks": []}),
        )];
        let agent = |id: &str, mission: Option<&str>, since: &str| -> WaitingTask {
            serde_json::from_value(json!({
                "id": id, "title": format!("Task {id}"), "workspaceId": "w",
                "missionId": mission, "workerId": format!("w-{id}"), "since": since,
                "live": true,
                "waitingFor": {"type": "question", "prompt": "Which cache?",
                               "options": [{"label": "Redis"}, "None"]}
            }))
            .unwrap()
        };
        let agents = [
            agent("t2", None, "2026-11-29T03:00:00Z"),
            agent("t1", Some("m1"), "2026-11-29T02:00:00Z"),
        ];
        let items = waiting_on_you(&missions, Some(&[]), &[], &agents);
        let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Task t1 asks: Which cache?", "Task t2 asks: Which cache?"]
        );
        assert_eq!(
            (
                items[0].mission_title.as_str(),
                items[1].mission_title.as_str()
            ),
            ("Cache", "No mission")
        );
        assert_eq!(
            items[0].action,
            WaitAction::Answer {
                worker_id: "w-t1".into(),
                prompt: "Which cache?".into(),
                options: vec!["Redis".into(), "None".into()],
                live: true,
            }
        );
        assert_eq!(items[0].href, "/tasks/t1");
    }
}
