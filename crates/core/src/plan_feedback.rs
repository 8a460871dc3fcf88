//! A reviewer's reasons for rejecting a plan: overall feedback plus comments pinned to
//! steps, as `POST /api/tasks/{id}/reject-plan` takes them. Hosted Buildd knows only the
//! plain `feedback` string, so the comments also render into it; and when the revision
//! comes back, each comment is judged addressed or not from the two revisions' difference.

use crate::plan_diff::{PlanDiff, StepChange};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// At most this many step comments in one rejection.
pub const MAX_STEP_COMMENTS: usize = 50;
/// At most this many characters in one step comment.
pub const MAX_COMMENT_CHARS: usize = 4_000;
/// At most this many characters of overall feedback.
pub const MAX_FEEDBACK_CHARS: usize = 20_000;

/// A comment pinned to one step of the rejected plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepComment {
    #[serde(rename = "ref")]
    pub step_ref: String,
    pub comment: String,
}

/// `{feedback, stepComments: [{ref, comment}]}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanFeedback {
    #[serde(default)]
    pub feedback: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_comments: Vec<StepComment>,
}

/// Buildd's answer when a rejection says nothing.
pub const FEEDBACK_REQUIRED: &str = "Feedback is required";

/// Reads a reject-plan body, trimming the texts. Every problem is named by its path
/// (`stepComments[1].ref: unknown step "x"`). With `plan_refs`, each comment must name a
/// step of the rejected plan. A body with neither feedback nor comments gets Buildd's
/// "Feedback is required".
pub fn read_plan_feedback(
    body: &Value,
    plan_refs: Option<&[&str]>,
) -> Result<PlanFeedback, Vec<String>> {
    let Some(object) = body.as_object() else {
        return Err(vec!["body: must be a JSON object".into()]);
    };
    let mut errors = Vec::new();
    let feedback = match object.get("feedback") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => {
            let s = s.trim();
            if s.chars().count() > MAX_FEEDBACK_CHARS {
                errors.push(format!("feedback: at most {MAX_FEEDBACK_CHARS} characters"));
            }
            s.to_string()
        }
        Some(_) => {
            errors.push("feedback: must be a string".into());
            String::new()
        }
    };
    let mut step_comments = Vec::new();
    match object.get("stepComments") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            if items.len() > MAX_STEP_COMMENTS {
                errors.push(format!(
                    "stepComments: at most {MAX_STEP_COMMENTS} comments"
                ));
            }
            for (i, item) in items.iter().enumerate() {
                if let Some(c) = read_comment(i, item, plan_refs, &mut errors) {
                    step_comments.push(c);
                }
            }
        }
        Some(_) => errors.push("stepComments: must be an array".into()),
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if feedback.is_empty() && step_comments.is_empty() {
        return Err(vec![FEEDBACK_REQUIRED.into()]);
    }
    Ok(PlanFeedback {
        feedback,
        step_comments,
    })
}

fn read_comment(
    i: usize,
    item: &Value,
    plan_refs: Option<&[&str]>,
    errors: &mut Vec<String>,
) -> Option<StepComment> {
    let at = |field: &str| format!("stepComments[{i}].{field}");
    let Some(item) = item.as_object() else {
        errors.push(format!("stepComments[{i}]: must be an object"));
        return None;
    };
    let mut text = |field: &str| -> Option<String> {
        match item.get(field) {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
            None | Some(Value::Null) | Some(Value::String(_)) => {
                errors.push(format!("{}: required", at(field)));
                None
            }
            Some(_) => {
                errors.push(format!("{}: must be a string", at(field)));
                None
            }
        }
    };
    let step_ref = text("ref");
    let comment = text("comment");
    if let (Some(r), Some(refs)) = (&step_ref, plan_refs) {
        if !refs.contains(&r.as_str()) {
            errors.push(format!("{}: unknown step \"{r}\"", at("ref")));
            return None;
        }
    }
    if comment
        .as_ref()
        .is_some_and(|c| c.chars().count() > MAX_COMMENT_CHARS)
    {
        errors.push(format!(
            "{}: at most {MAX_COMMENT_CHARS} characters",
            at("comment")
        ));
        return None;
    }
    Some(StepComment {
        step_ref: step_ref?,
        comment: comment?,
    })
}

impl PlanFeedback {
    /// The plain `feedback` hosted Buildd takes: the overall text, then one line per step
    /// comment ("Step `ref`: comment", its line breaks folded into spaces).
    pub fn to_text(&self) -> String {
        let lines: Vec<String> = self
            .step_comments
            .iter()
            .map(|c| {
                let comment: Vec<&str> = c.comment.split_whitespace().collect();
                format!("Step `{}`: {}", c.step_ref, comment.join(" "))
            })
            .collect();
        match (self.feedback.trim(), lines.is_empty()) {
            (overall, true) => overall.to_string(),
            ("", false) => lines.join("\n"),
            (overall, false) => format!("{overall}\n\n{}", lines.join("\n")),
        }
    }

    /// Reads back what [`PlanFeedback::to_text`] wrote, as a hosted Buildd hands it to the
    /// revision (`planFeedback`): each "Step `ref`: comment" line is a step comment, the rest
    /// the overall text. Text without such lines is all overall feedback.
    pub fn from_text(text: &str) -> PlanFeedback {
        let mut overall: Vec<&str> = Vec::new();
        let mut step_comments = Vec::new();
        for line in text.lines() {
            match step_line(line) {
                Some(c) => step_comments.push(c),
                None => overall.push(line),
            }
        }
        PlanFeedback {
            feedback: overall.join("\n").trim().to_string(),
            step_comments,
        }
    }
}

/// "Step `ref`: comment".
fn step_line(line: &str) -> Option<StepComment> {
    let (step_ref, comment) = line.trim().strip_prefix("Step `")?.split_once("`: ")?;
    let comment = comment.trim();
    (!step_ref.is_empty() && !step_ref.contains('`') && !comment.is_empty()).then(|| StepComment {
        step_ref: step_ref.to_string(),
        comment: comment.to_string(),
    })
}

/// What became of a step comment in the next revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentOutcome {
    /// The step changed (beyond a bare rename).
    Changed,
    /// The step was removed.
    Removed,
    /// The step is as it was, or only renamed; or the comment named no step of the plan.
    Unchanged,
}

impl CommentOutcome {
    pub fn is_addressed(self) -> bool {
        self != CommentOutcome::Unchanged
    }
}

/// Judges a comment on the older revision against its difference with the newer one.
pub fn comment_outcome(comment: &StepComment, diff: &PlanDiff) -> CommentOutcome {
    match diff.by_old_ref(&comment.step_ref) {
        Some(step) if step.change == StepChange::Removed => CommentOutcome::Removed,
        Some(step) if step.addresses_comments() => CommentOutcome::Changed,
        _ => CommentOutcome::Unchanged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan_diff::diff_plans;
    use crate::plan_output::PlanStep;
    use serde_json::json;

    const REFS: &[&str] = &["extract", "adopt"];

    fn comment(r: &str, text: &str) -> StepComment {
        StepComment {
            step_ref: r.into(),
            comment: text.into(),
        }
    }

    #[test]
    fn a_structured_rejection_reads_from_camel_case() {
        let body = json!({
            "feedback": "  Add error handling ",
            "stepComments": [{"ref": "adopt", "comment": " Cover the admin routes too "}]
        });
        let read = read_plan_feedback(&body, Some(REFS)).unwrap();
        assert_eq!(read.feedback, "Add error handling");
        assert_eq!(
            read.step_comments,
            [comment("adopt", "Cover the admin routes too")]
        );
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            json!({"feedback": "Add error handling",
                   "stepComments": [{"ref": "adopt", "comment": "Cover the admin routes too"}]})
        );
        let plain: PlanFeedback = serde_json::from_value(json!({"feedback": "x"})).unwrap();
        assert!(plain.step_comments.is_empty());
    }

    #[test]
    fn comments_alone_are_enough_but_nothing_is_not() {
        let only = json!({"stepComments": [{"ref": "extract", "comment": "Split it"}]});
        assert!(read_plan_feedback(&only, Some(REFS)).is_ok());
        for empty in [
            json!({}),
            json!({"feedback": "   "}),
            json!({"stepComments": []}),
        ] {
            assert_eq!(
                read_plan_feedback(&empty, Some(REFS)),
                Err(vec![FEEDBACK_REQUIRED.to_string()])
            );
        }
    }

    #[test]
    fn every_problem_is_named_by_its_path() {
        let body = json!({
            "feedback": 7,
            "stepComments": [
                {"ref": "extract", "comment": ""},
                {"ref": "x", "comment": "Why?"},
                "not an object",
                {"ref": 3, "comment": "c".repeat(MAX_COMMENT_CHARS + 1)},
            ]
        });
        assert_eq!(
            read_plan_feedback(&body, Some(REFS)).unwrap_err(),
            [
                "feedback: must be a string",
                "stepComments[0].comment: required",
                "stepComments[1].ref: unknown step \"x\"",
                "stepComments[2]: must be an object",
                "stepComments[3].ref: must be a string",
                "stepComments[3].comment: at most 4000 characters",
            ]
        );
        // Without the plan's refs at hand, any ref is taken.
        let any = json!({"stepComments": [{"ref": "x", "comment": "Why?"}]});
        assert!(read_plan_feedback(&any, None).is_ok());
    }

    #[test]
    fn limits_hold() {
        let many: Vec<Value> = (0..=MAX_STEP_COMMENTS)
            .map(|_| json!({"ref": "adopt", "comment": "more"}))
            .collect();
        assert_eq!(
            read_plan_feedback(&json!({"stepComments": many}), Some(REFS)).unwrap_err(),
            ["stepComments: at most 50 comments"]
        );
        let long = json!({"feedback": "f".repeat(MAX_FEEDBACK_CHARS + 1)});
        assert_eq!(
            read_plan_feedback(&long, None).unwrap_err(),
            ["feedback: at most 20000 characters"]
        );
        assert_eq!(
            read_plan_feedback(&json!([]), None).unwrap_err(),
            ["body: must be a JSON object"]
        );
        assert_eq!(
            read_plan_feedback(&json!({"stepComments": {}}), None).unwrap_err(),
            ["stepComments: must be an array"]
        );
    }

    #[test]
    fn renders_into_buildd_s_plain_feedback() {
        let both = PlanFeedback {
            feedback: "Add error handling".into(),
            step_comments: vec![
                comment("extract", "Keep the old export\nfor a release"),
                comment("adopt", "Cover admin routes"),
            ],
        };
        assert_eq!(
            both.to_text(),
            "Add error handling\n\nStep `extract`: Keep the old export for a release\nStep `adopt`: Cover admin routes"
        );
        let only = PlanFeedback {
            feedback: String::new(),
            step_comments: vec![comment("adopt", "Cover admin routes")],
        };
        assert_eq!(only.to_text(), "Step `adopt`: Cover admin routes");
        let plain = PlanFeedback {
            feedback: "Add tests".into(),
            step_comments: vec![],
        };
        assert_eq!(plain.to_text(), "Add tests");
    }

    #[test]
    fn buildd_s_plain_feedback_reads_back_into_its_comments() {
        let both = PlanFeedback {
            feedback: "Add error handling\nand logs".into(),
            step_comments: vec![
                comment("extract", "Keep the old export for a release"),
                comment("adopt", "Cover admin routes"),
            ],
        };
        assert_eq!(PlanFeedback::from_text(&both.to_text()), both);
        let plain = PlanFeedback::from_text("Split `db-check` in two.\nStep one: none");
        assert_eq!(plain.feedback, "Split `db-check` in two.\nStep one: none");
        assert!(plain.step_comments.is_empty());
        let only = PlanFeedback::from_text("Step `adopt`: Cover admin routes");
        assert_eq!(only.feedback, "");
        assert_eq!(only.step_comments, [comment("adopt", "Cover admin routes")]);
    }

    #[test]
    fn a_comment_is_addressed_when_its_step_changed_or_went() {
        let step = |r: &str, description: &str| PlanStep {
            step_ref: r.into(),
            title: r.to_uppercase(),
            description: description.into(),
            depends_on: vec![],
            base_branch: None,
            role_slug: None,
            output_requirement: None,
            priority: None,
            kind: None,
            complexity: None,
            required_capabilities: vec![],
        };
        let old = [
            step("a", "one"),
            step("b", "two"),
            step("c", "three"),
            step("d", "four"),
        ];
        let mut renamed_d = step("d2", "four");
        renamed_d.title = "D".into();
        let new = [step("a", "one, with tests"), step("b", "two"), renamed_d];
        let diff = diff_plans(&old, &new);
        let outcome = |r: &str| comment_outcome(&comment(r, "fix"), &diff);
        assert_eq!(outcome("a"), CommentOutcome::Changed);
        assert_eq!(outcome("b"), CommentOutcome::Unchanged);
        assert_eq!(outcome("c"), CommentOutcome::Removed);
        assert_eq!(outcome("d"), CommentOutcome::Unchanged);
        assert_eq!(outcome("nope"), CommentOutcome::Unchanged);
        assert!(outcome("c").is_addressed() && !outcome("b").is_addressed());
    }
}
