//! What a plan's output comes to: its summary and steps, their waves, and what keeps it from
//! approval (pure, so the panel only displays it).

use buildd_core::plan_output::{resolve_plan, validate_planning_output, PlanStep, ResolvedPlan};
use serde_json::Value;

/// What a plan's output comes to.
#[derive(Clone, PartialEq)]
pub struct Plan {
    pub summary: String,
    pub steps: Vec<PlanStep>,
    pub resolved: Option<ResolvedPlan>,
    pub warnings: Vec<String>,
    pub can_approve: bool,
}

pub fn read_plan(output: &Value) -> Plan {
    let summary = output
        .get("summary")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let (steps, problems, resolved) = match validate_planning_output(output) {
        Ok(plan) => match resolve_plan(&plan.plan) {
            Ok(resolved) => (plan.plan, vec![], Some(resolved)),
            Err(e) => (plan.plan, vec![e], None),
        },
        Err(errors) => (vec![], errors, None),
    };
    let can_approve = problems.is_empty();
    let mut warnings = problems;
    if let Some(r) = &resolved {
        if steps.len() > 1 && r.waves.len() == steps.len() {
            warnings.push(
                "This plan is filed as a chain: only one step can run at a time. Check that \
                 every dependsOn is really needed."
                    .into(),
            );
        }
    }
    Plan {
        summary,
        steps,
        resolved,
        warnings,
        can_approve,
    }
}
