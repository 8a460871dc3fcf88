//! When a mission's work is done, and who says so. The rule: every deliverable task completed
//! with its PR merged (or no PR needed), nothing still open and no plan waiting for review.
//! An auto mission's organizer decides when the work is done and the rule verifies it: the
//! mission closes only once its newest organizer run proposed completion
//! (`missionComplete: true`) and the rule holds. A manual mission, which has no organizer of
//! its own, closes by the rule alone. A mission that requires review does not close by
//! itself: it waits, dormant, for a person to close it.

mod outcome;

pub use outcome::Outcome;

use crate::dependencies::has_open_pr;
use crate::enums::{MissionStatus, OrchestrationMode, TaskMode, TaskStatus};
use crate::mission::MissionTask;
use crate::plan::{newest_run, plan_in_review};
use crate::progress::is_deliverable;

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One thing that keeps a mission from completing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocker {
    /// Tasks not finished yet (organizer runs apart).
    Open(usize),
    /// An organizer run is in flight: it may file more work.
    Planning,
    PlanInReview,
    Failed(usize),
    /// A completed deliverable whose PR has not merged.
    Unmerged {
        number: Option<i64>,
        title: String,
    },
    /// Nothing to deliver, and nobody proposed completion.
    NoDeliverables,
}

impl Blocker {
    /// "2 tasks still open", "PR #41 not merged".
    pub fn text(&self) -> String {
        match self {
            Self::Open(n) => count(*n, "task still open", "tasks still open"),
            Self::Planning => "the organizer is planning".into(),
            Self::PlanInReview => "a plan waits for review".into(),
            Self::Failed(n) => count(*n, "task failed", "tasks failed"),
            Self::Unmerged {
                number: Some(n), ..
            } => format!("PR #{n} not merged"),
            Self::Unmerged { title, .. } => format!("the PR of \"{title}\" not merged"),
            Self::NoDeliverables => "no deliverable tasks yet".into(),
        }
    }

    /// What completion waits for: "PR #41 to merge", "2 open tasks to finish".
    fn waited_for(&self) -> String {
        match self {
            Self::Open(n) => format!("{} to finish", count(*n, "open task", "open tasks")),
            Self::Planning => "the organizer's run to finish".into(),
            Self::PlanInReview => "the plan's review".into(),
            Self::Failed(n) => format!(
                "{} to be retried or cancelled",
                count(*n, "failed task", "failed tasks")
            ),
            Self::Unmerged {
                number: Some(n), ..
            } => format!("PR #{n} to merge"),
            Self::Unmerged { title, .. } => format!("the PR of \"{title}\" to merge"),
            Self::NoDeliverables => "deliverable tasks".into(),
        }
    }
}

/// Every reason the rule does not hold yet. `proposed`: the organizer proposed completion,
/// which lets a mission with nothing to deliver (a monitoring mission) close.
pub fn blockers(tasks: &[MissionTask], proposed: bool) -> Vec<Blocker> {
    let mut why = Vec::new();
    let open = tasks
        .iter()
        .filter(|t| !t.status.is_terminal() && t.mode != TaskMode::Planning)
        .count();
    if open > 0 {
        why.push(Blocker::Open(open));
    }
    if tasks
        .iter()
        .any(|t| !t.status.is_terminal() && t.mode == TaskMode::Planning)
    {
        why.push(Blocker::Planning);
    }
    if plan_in_review(tasks).is_some() {
        why.push(Blocker::PlanInReview);
    }
    let deliverables: Vec<&MissionTask> = tasks
        .iter()
        .filter(|t| is_deliverable(t) && t.status != TaskStatus::Cancelled)
        .collect();
    let failed = deliverables
        .iter()
        .filter(|t| t.status == TaskStatus::Failed)
        .count();
    if failed > 0 {
        why.push(Blocker::Failed(failed));
    }
    for t in deliverables
        .iter()
        .filter(|t| t.status == TaskStatus::Completed && has_open_pr(&t.workers))
    {
        why.push(Blocker::Unmerged {
            number: t.workers.iter().find_map(|w| w.pr_number),
            title: t.title.clone(),
        });
    }
    if deliverables.is_empty() && why.is_empty() && !proposed {
        why.push(Blocker::NoDeliverables);
    }
    why
}

/// The rule alone, as words: `Ok` when the work is done, else every reason it is not.
pub fn completion_check(tasks: &[MissionTask]) -> Result<(), Vec<String>> {
    let why = blockers(tasks, false);
    if why.is_empty() {
        Ok(())
    } else {
        Err(why.iter().map(Blocker::text).collect())
    }
}

/// "Not complete yet: 2 tasks still open, PR #41 not merged".
pub fn why_not_text(why: &[String]) -> String {
    format!("Not complete yet: {}", why.join(", "))
}

/// Whether the organizer decides when `mode`'s missions are done: an auto mission's does; a
/// manual mission has no organizer of its own.
pub fn organizer_decides(mode: &OrchestrationMode) -> bool {
    *mode != OrchestrationMode::Manual
}

/// Whether the mission's newest organizer run finished proposing completion.
pub fn completion_proposed(tasks: &[MissionTask]) -> bool {
    newest_run(tasks).is_some_and(|run| {
        run.status == TaskStatus::Completed
            && run
                .result()
                .and_then(|r| r.structured_output.as_ref())
                .and_then(|o| o.get("missionComplete"))
                .and_then(|v| v.as_bool())
                == Some(true)
    })
}

/// Where a mission's completion stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// The work is done and, for an auto mission, the organizer proposed it.
    Complete,
    /// The rule holds, but the organizer has not proposed completion: its next run decides.
    AwaitingOrganizer,
    /// The organizer proposed completion; these still block it. It completes by itself once
    /// they clear.
    AwaitingVerification(Vec<Blocker>),
    /// Work remains, and nobody proposed completion.
    NotDone(Vec<Blocker>),
}

impl Completion {
    /// A proposal that waits on merges alone: the merges complete the mission, so finished
    /// work need not open another organizer run.
    pub fn waits_on_merges_only(&self) -> bool {
        matches!(self, Self::AwaitingVerification(why)
            if why.iter().all(|b| matches!(b, Blocker::Unmerged { .. })))
    }
}

/// The one completion decision, for the server that closes missions and the dashboard that
/// says where they stand.
pub fn completion(mode: &OrchestrationMode, tasks: &[MissionTask]) -> Completion {
    let proposed = completion_proposed(tasks);
    let why = blockers(tasks, proposed);
    match (why.is_empty(), proposed, organizer_decides(mode)) {
        (true, true, _) | (true, false, false) => Completion::Complete,
        (true, false, true) => Completion::AwaitingOrganizer,
        (false, true, _) => Completion::AwaitingVerification(why),
        (false, false, _) => Completion::NotDone(why),
    }
}

/// Whether [`completion`] needs the mission's whole task list. With a task still open
/// (`open_work`: one not [`TaskStatus::is_terminal`]) the mission is not complete, and
/// only a completion proposal of its newest organizer run makes that worth saying; so with
/// open work and no proposal, the decision is known without reading every task.
pub fn needs_task_list(open_work: bool, proposed: bool) -> bool {
    !open_work || proposed
}

fn reasons(why: &[Blocker]) -> Vec<String> {
    why.iter().map(Blocker::text).collect()
}

/// "awaiting verification: 2 tasks still open, PR #12 not merged": the feed note of a
/// proposal that cannot be honoured yet.
pub fn awaiting_verification_text(why: &[Blocker]) -> String {
    format!("awaiting verification: {}", reasons(why).join(", "))
}

/// Where completion stands, in a few words for a mission's row.
pub fn completion_brief(
    mode: &OrchestrationMode,
    requires_review: bool,
    tasks: &[MissionTask],
) -> String {
    match completion(mode, tasks) {
        Completion::Complete if requires_review => "waits for you to close it".into(),
        Completion::Complete => "done".into(),
        Completion::AwaitingOrganizer => "waits for the organizer's next run".into(),
        Completion::AwaitingVerification(why) => {
            format!(
                "organizer proposed completion; {}",
                reasons(&why).join(", ")
            )
        }
        Completion::NotDone(why) => why_not_text(&reasons(&why)),
    }
}

/// Where completion stands, in a sentence for the mission page.
pub fn completion_standing(
    status: &MissionStatus,
    mode: &OrchestrationMode,
    requires_review: bool,
    tasks: &[MissionTask],
) -> Option<String> {
    let decision = completion(mode, tasks);
    let decided = if organizer_decides(mode) {
        "the organizer proposed it and every deliverable landed"
    } else {
        "every deliverable landed"
    };
    match status {
        MissionStatus::Completed => Some(match decision {
            Completion::Complete => format!("Completed: {decided}."),
            // Buildd's mission answer may leave out the run's result: who decided is unknown.
            _ if newest_run(tasks).is_some_and(|r| r.result.is_none()) => "Completed.".into(),
            _ => "Completed: closed by a person.".into(),
        }),
        MissionStatus::Active => Some(match decision {
            Completion::Complete if requires_review => {
                format!("Done — {decided}. It waits for you to close it.")
            }
            Completion::Complete => format!("Done — {decided}; it closes by itself."),
            Completion::AwaitingOrganizer => "Every deliverable landed; waiting for the \
                organizer's next run to say whether the mission is done."
                .into(),
            Completion::AwaitingVerification(why) => {
                let waits: Vec<String> = why.iter().map(Blocker::waited_for).collect();
                format!(
                    "The organizer proposed completion; waiting for {}.",
                    join_words(&waits)
                )
            }
            Completion::NotDone(why) => format!("{}.", why_not_text(&reasons(&why))),
        }),
        _ => None,
    }
}

/// "a", "a and b", "a, b and c".
fn join_words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Done, but waiting for a person to close it: an active mission that requires review whose
/// completion is decided.
pub fn is_dormant(
    status: &MissionStatus,
    requires_review: bool,
    mode: &OrchestrationMode,
    tasks: &[MissionTask],
) -> bool {
    *status == MissionStatus::Active
        && requires_review
        && completion(mode, tasks) == Completion::Complete
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskClass, TaskMode, WorkerStatus};
    use crate::test_support::{task, worker};

    const AUTO: OrchestrationMode = OrchestrationMode::Auto;
    const MANUAL: OrchestrationMode = OrchestrationMode::Manual;

    fn with_pr(id: &str, number: i64, merged: bool) -> MissionTask {
        let mut t = task(id, TaskStatus::Completed);
        let mut w = worker(WorkerStatus::Completed, Some("https://x/pull/1"), merged);
        w.pr_number = Some(number);
        t.workers = vec![w];
        t
    }

    /// An organizer run created at `created` that finished with `plan` steps.
    fn run(id: &str, created: &str, steps: usize, proposes: bool) -> MissionTask {
        let mut t = task(id, TaskStatus::Completed);
        t.mode = TaskMode::Planning;
        t.task_class = Some(TaskClass::Bookkeeping);
        t.created_at = Some(created.into());
        let plan: Vec<_> = (0..steps)
            .map(|i| serde_json::json!({"ref": format!("s{i}"), "title": "S", "description": "d"}))
            .collect();
        t.result = Some(Some(
            serde_json::from_value(serde_json::json!({"structuredOutput":
                {"plan": plan, "summary": "s", "missionComplete": proposes}}))
            .unwrap(),
        ));
        t
    }

    /// Where the shortcut says the list is not needed, the decision on the whole list is
    /// indeed "not done", whatever else the list holds.
    #[test]
    fn open_work_without_a_proposal_is_not_done_whatever_the_rest() {
        let rests = [
            vec![],
            vec![with_pr("done", 4, true)],
            vec![
                with_pr("unmerged", 5, false),
                run("r0", "2026-01-01T00:00:00Z", 1, false),
            ],
            vec![task("failed", TaskStatus::Failed)],
        ];
        for open in [
            TaskStatus::Pending,
            TaskStatus::Assigned,
            TaskStatus::InProgress,
        ] {
            for rest in &rests {
                for mode in [AUTO, MANUAL] {
                    let mut tasks = rest.clone();
                    tasks.push(task("open", open.clone()));
                    let proposed = completion_proposed(&tasks);
                    assert!(!needs_task_list(true, proposed));
                    assert!(matches!(completion(&mode, &tasks), Completion::NotDone(_)));
                }
            }
        }
        // A proposal, or no open work, needs the list.
        assert!(needs_task_list(true, true));
        assert!(needs_task_list(false, false));
    }

    /// A deliverable filed from run `parent`.
    fn child(id: &str, parent: &str, t: MissionTask) -> MissionTask {
        let mut t = MissionTask { id: id.into(), ..t };
        t.parent_task_id = Some(parent.into());
        t.created_at = Some("2026-01-01T00:30:00Z".into());
        t
    }

    #[test]
    fn merged_or_pr_free_deliverables_satisfy_the_rule() {
        let tasks = [
            with_pr("a", 1, true),
            task("b", TaskStatus::Completed),
            task("c", TaskStatus::Cancelled),
        ];
        assert_eq!(completion_check(&tasks), Ok(()));
    }

    #[test]
    fn open_work_failures_and_unmerged_prs_say_why() {
        let tasks = [
            task("a", TaskStatus::Assigned),
            task("b", TaskStatus::Pending),
            with_pr("c", 41, false),
            task("d", TaskStatus::Failed),
        ];
        let why = completion_check(&tasks).unwrap_err();
        assert_eq!(
            why_not_text(&why),
            "Not complete yet: 2 tasks still open, 1 task failed, PR #41 not merged"
        );
    }

    #[test]
    fn housekeeping_alone_or_nothing_is_not_done() {
        let organizer = run("o", "2026-01-01T00:00:00Z", 0, false);
        assert_eq!(
            completion_check(&[organizer]),
            Err(vec!["no deliverable tasks yet".to_string()])
        );
        assert_eq!(
            completion_check(&[task("c", TaskStatus::Cancelled)]),
            Err(vec!["no deliverable tasks yet".to_string()])
        );
    }

    #[test]
    fn an_auto_mission_waits_for_its_organizer_to_propose() {
        let first = run("p1", "2026-01-01T00:00:00Z", 1, false);
        let done = child("a", "p1", task("a", TaskStatus::Completed));
        let tasks = [first.clone(), done.clone()];
        assert_eq!(completion(&AUTO, &tasks), Completion::AwaitingOrganizer);
        // The manual mission has no organizer of its own: the rule alone closes it.
        assert_eq!(completion(&MANUAL, &tasks), Completion::Complete);
        // The next run in flight may file more work.
        let mut next = run("p2", "2026-01-01T01:00:00Z", 0, false);
        next.status = TaskStatus::Pending;
        next.result = None;
        assert_eq!(
            completion(&AUTO, &[first.clone(), done.clone(), next]),
            Completion::NotDone(vec![Blocker::Planning])
        );
        // It proposes completion: the mission is complete.
        let proposal = run("p2", "2026-01-01T01:00:00Z", 0, true);
        assert_eq!(
            completion(&AUTO, &[first.clone(), done.clone(), proposal]),
            Completion::Complete
        );
        // A newer run that did not propose supersedes an older proposal.
        let old_proposal = run("p0", "2025-12-31T00:00:00Z", 0, true);
        assert_eq!(
            completion(&AUTO, &[old_proposal, first, done]),
            Completion::AwaitingOrganizer
        );
    }

    #[test]
    fn a_proposal_over_open_work_or_an_open_pr_awaits_verification() {
        let proposal = run("p", "2026-01-01T00:00:00Z", 0, true);
        let open = child("a", "x", task("a", TaskStatus::Assigned));
        let unmerged = child("b", "x", with_pr("b", 12, false));
        let decision = completion(&AUTO, &[proposal.clone(), open, unmerged.clone()]);
        let Completion::AwaitingVerification(why) = &decision else {
            panic!("{decision:?}");
        };
        assert_eq!(
            awaiting_verification_text(why),
            "awaiting verification: 1 task still open, PR #12 not merged"
        );
        let standing =
            completion_standing(&MissionStatus::Active, &AUTO, false, &[proposal, unmerged]);
        assert_eq!(
            standing.as_deref(),
            Some("The organizer proposed completion; waiting for PR #12 to merge.")
        );
    }

    #[test]
    fn a_rows_brief_says_the_same_in_fewer_words() {
        let first = run("p1", "2026-01-01T00:00:00Z", 1, false);
        let done = child("a", "p1", task("a", TaskStatus::Completed));
        let unmerged = child("b", "p1", with_pr("b", 12, false));
        let proposal = run("p2", "2026-01-01T01:00:00Z", 0, true);
        let brief = |rr, tasks: &[MissionTask]| completion_brief(&AUTO, rr, tasks);
        assert_eq!(
            brief(false, &[first.clone(), done.clone()]),
            "waits for the organizer's next run"
        );
        assert_eq!(
            brief(false, &[first.clone(), unmerged.clone()]),
            "Not complete yet: PR #12 not merged"
        );
        assert_eq!(
            brief(false, &[first.clone(), unmerged, proposal.clone()]),
            "organizer proposed completion; PR #12 not merged"
        );
        assert_eq!(
            brief(false, &[first.clone(), done.clone(), proposal.clone()]),
            "done"
        );
        assert_eq!(
            brief(true, &[first, done, proposal]),
            "waits for you to close it"
        );
    }

    #[test]
    fn an_empty_plan_that_proposes_completion_needs_no_deliverables() {
        let monitoring = [run("p", "2026-01-01T00:00:00Z", 0, true)];
        assert_eq!(completion(&AUTO, &monitoring), Completion::Complete);
        assert_eq!(
            completion_standing(&MissionStatus::Completed, &AUTO, false, &monitoring).as_deref(),
            Some("Completed: the organizer proposed it and every deliverable landed.")
        );
        // Without the proposal there is nothing to verify.
        let nothing = [run("p", "2026-01-01T00:00:00Z", 0, false)];
        assert_eq!(
            completion(&AUTO, &nothing),
            Completion::NotDone(vec![Blocker::NoDeliverables])
        );
        assert_eq!(
            completion(&MANUAL, &nothing),
            Completion::NotDone(vec![Blocker::NoDeliverables])
        );
    }

    #[test]
    fn the_mission_page_says_where_completion_stands() {
        let first = run("p1", "2026-01-01T00:00:00Z", 1, false);
        let done = child("a", "p1", task("a", TaskStatus::Completed));
        let standing = |status, rr, tasks: &[MissionTask]| {
            completion_standing(&status, &AUTO, rr, tasks).unwrap()
        };
        assert!(
            standing(MissionStatus::Active, false, &[first.clone(), done.clone()])
                .contains("waiting for the organizer's next run")
        );
        let open = child("b", "p1", task("b", TaskStatus::Pending));
        assert_eq!(
            standing(MissionStatus::Active, false, &[first.clone(), open]),
            "Not complete yet: 1 task still open."
        );
        let proposal = run("p2", "2026-01-01T01:00:00Z", 0, true);
        let finished = [first.clone(), done, proposal];
        assert!(
            standing(MissionStatus::Active, true, &finished).contains("waits for you to close it")
        );
        assert_eq!(
            standing(MissionStatus::Completed, false, &[first]),
            "Completed: closed by a person."
        );
        assert_eq!(
            completion_standing(&MissionStatus::Paused, &AUTO, false, &finished),
            None
        );
        // A run whose result the answer left out says nothing of who decided.
        let mut unknown = run("p3", "2026-01-02T00:00:00Z", 0, true);
        unknown.result = None;
        assert_eq!(
            standing(MissionStatus::Completed, false, &[unknown]),
            "Completed."
        );
    }

    #[test]
    fn a_mission_that_requires_review_waits_dormant_once_decided() {
        let done = [task("a", TaskStatus::Completed)];
        assert!(is_dormant(&MissionStatus::Active, true, &MANUAL, &done));
        assert!(!is_dormant(&MissionStatus::Active, false, &MANUAL, &done));
        assert!(!is_dormant(&MissionStatus::Completed, true, &MANUAL, &done));
        // An auto mission whose organizer has not proposed is not dormant yet.
        assert!(!is_dormant(&MissionStatus::Active, true, &AUTO, &done));
        let proposed = [done[0].clone(), run("p", "2026-01-01T00:00:00Z", 0, true)];
        assert!(is_dormant(&MissionStatus::Active, true, &AUTO, &proposed));
        assert!(!is_dormant(
            &MissionStatus::Active,
            true,
            &MANUAL,
            &[task("a", TaskStatus::Pending)]
        ));
    }
}
