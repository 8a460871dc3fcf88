//! What the scripted organizer plans, round by round: first five steps in three waves, then
//! a follow-up that builds on what landed, then a proposal that the mission is done. Each
//! plan is shaped by the mission's title and, on a revision, by the reviewer's feedback.

use serde_json::{json, Value};

/// The mission a planning run is about: its title without "Mission: " or " (revised)".
pub fn subject_of(title: &str) -> &str {
    let t = title.strip_prefix("Mission: ").unwrap_or(title);
    let mut t = t;
    while let Some(rest) = t.strip_suffix(" (revised)") {
        t = rest;
    }
    t
}

/// A planning output for `subject` that passes the planning schema: two independent steps,
/// two that build on them, and a check that needs both.
pub fn demo_plan(subject: &str, feedback: Option<&str>) -> Value {
    let mut plan = vec![
        json!({"ref": "audit", "title": format!("Audit how {subject} works today"),
               "description": format!("Read the code and notes behind {subject}; list what exists, what is missing and the risks."),
               "kind": "research", "complexity": "simple", "outputRequirement": "none", "priority": 2}),
        json!({"ref": "spec", "title": format!("Write the acceptance checklist for {subject}"),
               "description": "Turn the mission brief into checks a reviewer can tick off.",
               "kind": "writing", "complexity": "simple", "outputRequirement": "none", "priority": 2}),
        json!({"ref": "server", "title": format!("Build the server side of {subject}"),
               "description": "Implement the API changes with tests, following the checklist.",
               "dependsOn": ["audit", "spec"], "roleSlug": "backend", "kind": "engineering",
               "complexity": "normal", "outputRequirement": "pr_required", "priority": 1}),
        json!({"ref": "ui", "title": format!("Build the dashboard side of {subject}"),
               "description": "Add the screens and states the checklist names.",
               "dependsOn": ["spec"], "roleSlug": "frontend", "kind": "engineering",
               "complexity": "normal", "outputRequirement": "pr_required", "priority": 1}),
        json!({"ref": "verify", "title": format!("Verify {subject} end to end"),
               "description": "Run the checklist against a build with both changes; fix what fails.",
               "dependsOn": ["server", "ui"], "baseBranch": "server", "kind": "engineering",
               "complexity": "simple", "outputRequirement": "pr_required"}),
    ];
    let summary = match feedback {
        // A revision a reviewer can compare: one step reworked, one dropped, one added.
        Some(f) => {
            plan[2]["description"] = json!(format!(
                "Implement the API changes with tests, following the checklist and the review: {f}"
            ));
            plan.pop();
            plan.insert(
                2,
                json!({"ref": "feedback", "title": "Address the review feedback",
                       "description": format!("The reviewer asked: {f}"),
                       "dependsOn": ["spec"], "kind": "engineering", "complexity": "simple",
                       "outputRequirement": "pr_required", "priority": 2}),
            );
            format!("Revised plan for {subject}, reworked after review: {f}")
        }
        None => format!("Audit and specify {subject}, build both sides in parallel, then verify."),
    };
    json!({"plan": plan, "summary": summary, "missionComplete": false})
}

/// The second round: what the first round's work showed still to do.
pub fn follow_up_plan(subject: &str, feedback: Option<&str>) -> Value {
    let mut plan = vec![
        json!({"ref": "gaps", "title": format!("Close the gaps the check of {subject} found"),
               "description": "Fix what the end-to-end check flagged in the first round.",
               "kind": "engineering", "complexity": "simple", "outputRequirement": "pr_required",
               "priority": 1}),
        json!({"ref": "docs", "title": format!("Document {subject}"),
               "description": "Write the user-facing notes and the runbook for what shipped.",
               "dependsOn": ["gaps"], "kind": "writing", "complexity": "simple",
               "outputRequirement": "none", "priority": 2}),
    ];
    let summary = match feedback {
        Some(f) => {
            plan.push(
                json!({"ref": "feedback", "title": "Address the review feedback",
                             "description": format!("The reviewer asked: {f}"),
                             "kind": "engineering", "complexity": "simple",
                             "outputRequirement": "pr_required", "priority": 2}),
            );
            format!("Follow-up for {subject}, reworked after review: {f}")
        }
        None => {
            format!("Building on the first round of {subject}: close its gaps, then document it.")
        }
    };
    json!({"plan": plan, "summary": summary, "missionComplete": false})
}

/// What the organizer plans after `rounds` approved plans: the first plan, the follow-up,
/// then nothing more and a proposal that the mission is done.
pub fn organizer_output(subject: &str, rounds: usize, feedback: Option<&str>) -> Value {
    match rounds {
        0 => demo_plan(subject, feedback),
        1 => follow_up_plan(subject, feedback),
        _ => json!({"plan": [], "missionComplete": true,
                    "summary": format!("Every step of {subject} landed: proposing completion.")}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use buildd_core::plan_output::{resolve_plan, validate_planning_output};

    #[test]
    fn the_plan_is_valid_and_has_three_waves() {
        let plan = validate_planning_output(&demo_plan("search", None)).unwrap();
        let resolved = resolve_plan(&plan.plan).unwrap();
        assert_eq!(resolved.waves.len(), 3);
        assert_eq!(resolved.waves[0].len(), 2);
    }

    #[test]
    fn the_rounds_plan_build_on_it_then_propose_completion() {
        for rounds in 0..3 {
            let output = organizer_output("search", rounds, None);
            let plan = validate_planning_output(&output).unwrap();
            assert_eq!(plan.mission_complete, rounds >= 2, "round {rounds}");
            assert_eq!(plan.plan.is_empty(), rounds >= 2, "round {rounds}");
            resolve_plan(&plan.plan).unwrap();
        }
        let revised = organizer_output("search", 1, Some("Add a changelog"));
        assert!(revised["summary"]
            .as_str()
            .unwrap()
            .contains("Add a changelog"));
    }

    #[test]
    fn a_revision_answers_the_feedback_with_one_step_changed_one_dropped_one_added() {
        use buildd_core::plan_diff::{diff_plans, StepChange};
        let first = validate_planning_output(&demo_plan("search", None)).unwrap();
        let output = demo_plan("search", Some("Cover the mobile layout"));
        let plan = validate_planning_output(&output).unwrap();
        resolve_plan(&plan.plan).unwrap();
        assert!(plan.summary.contains("Cover the mobile layout"));
        let diff = diff_plans(&first.plan, &plan.plan);
        let count = |change: StepChange| diff.steps.iter().filter(|s| s.change == change).count();
        assert_eq!(
            (
                count(StepChange::Changed),
                count(StepChange::Removed),
                count(StepChange::Added)
            ),
            (1, 1, 1)
        );
        assert_eq!(subject_of("Mission: Search (revised) (revised)"), "Search");
    }
}
