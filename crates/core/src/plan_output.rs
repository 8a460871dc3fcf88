//! A planning run's output: the planning schema, checked field by field, and the plan's
//! dependency graph (refs resolved, cycles named, steps grouped into waves).

use crate::TaskKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One step of a plan: a child task once the plan is approved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanStep {
    #[serde(rename = "ref")]
    pub step_ref: String,
    pub title: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_branch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role_slug: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_requirement: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<TaskKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complexity: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_capabilities: Vec<String>,
}

/// `result.structuredOutput` of a planning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanningOutput {
    pub plan: Vec<PlanStep>,
    pub summary: String,
    pub mission_complete: bool,
}

const COMPLEXITIES: [&str; 3] = ["simple", "normal", "complex"];
const OUTPUT_REQUIREMENTS: [&str; 4] = ["pr_required", "artifact_required", "none", "auto"];

/// Checks `output` against the planning schema; every problem is named by its path.
pub fn validate_planning_output(output: &Value) -> Result<PlanningOutput, Vec<String>> {
    let mut errors = Vec::new();
    let Some(object) = output.as_object() else {
        return Err(vec!["structuredOutput must be an object".into()]);
    };
    match object.get("summary") {
        Some(Value::String(_)) => {}
        Some(_) => errors.push("summary must be a string".into()),
        None => errors.push("summary is required".into()),
    }
    match object.get("missionComplete") {
        Some(Value::Bool(_)) => {}
        Some(_) => errors.push("missionComplete must be true or false".into()),
        None => errors.push("missionComplete is required".into()),
    }
    match object.get("plan") {
        Some(Value::Array(steps)) => {
            for (i, step) in steps.iter().enumerate() {
                check_step(i, step, &mut errors);
            }
        }
        Some(_) => errors.push("plan must be an array".into()),
        None => errors.push("plan is required".into()),
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Every field is checked above, so reading them cannot fail. Read by hand rather than
    // through serde: the dashboard then ships no second (Value) deserializer.
    let steps = object["plan"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    Ok(PlanningOutput {
        plan: steps
            .iter()
            .filter_map(Value::as_object)
            .map(read_step)
            .collect(),
        summary: object["summary"].as_str().unwrap_or_default().to_string(),
        mission_complete: object["missionComplete"].as_bool().unwrap_or_default(),
    })
}

fn read_step(step: &Map<String, Value>) -> PlanStep {
    let text = |k: &str| step.get(k).and_then(Value::as_str).map(str::to_string);
    let list = |k: &str| -> Vec<String> {
        step.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    PlanStep {
        step_ref: text("ref").unwrap_or_default(),
        title: text("title").unwrap_or_default(),
        description: text("description").unwrap_or_default(),
        depends_on: list("dependsOn"),
        base_branch: text("baseBranch"),
        role_slug: text("roleSlug"),
        output_requirement: text("outputRequirement"),
        priority: step.get("priority").and_then(Value::as_i64),
        kind: text("kind").map(TaskKind::from),
        complexity: text("complexity"),
        required_capabilities: list("requiredCapabilities"),
    }
}

fn check_step(i: usize, step: &Value, errors: &mut Vec<String>) {
    let at = |field: &str| format!("plan[{i}].{field}");
    let Some(step) = step.as_object() else {
        errors.push(format!("plan[{i}] must be an object"));
        return;
    };
    for field in ["ref", "title", "description"] {
        match step.get(field) {
            Some(Value::String(s)) if !s.trim().is_empty() => {}
            Some(Value::String(_)) | None | Some(Value::Null) => {
                errors.push(format!("{} is required", at(field)))
            }
            Some(_) => errors.push(format!("{} must be a string", at(field))),
        }
    }
    let optional = |field: &str, ok: fn(&Value) -> bool, what: &str, errors: &mut Vec<String>| {
        if let Some(v) = step.get(field).filter(|v| !v.is_null()) {
            if !ok(v) {
                errors.push(format!("{} must be {what}", at(field)));
            }
        }
    };
    optional("dependsOn", is_string_array, "an array of refs", errors);
    optional(
        "requiredCapabilities",
        is_string_array,
        "an array of strings",
        errors,
    );
    optional("baseBranch", Value::is_string, "a ref", errors);
    optional("roleSlug", Value::is_string, "a string", errors);
    optional("priority", |v| v.as_i64().is_some(), "an integer", errors);
    let kinds: Vec<&str> = TaskKind::ALL.iter().map(TaskKind::as_str).collect();
    one_of(step, "kind", &kinds, &at("kind"), errors);
    one_of(step, "complexity", &COMPLEXITIES, &at("complexity"), errors);
    one_of(
        step,
        "outputRequirement",
        &OUTPUT_REQUIREMENTS,
        &at("outputRequirement"),
        errors,
    );
}

fn is_string_array(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
}

fn one_of(
    step: &Map<String, Value>,
    field: &str,
    allowed: &[&str],
    at: &str,
    errors: &mut Vec<String>,
) {
    match step.get(field) {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) if allowed.contains(&s.as_str()) => {}
        Some(_) => errors.push(format!("{at} must be one of: {}", allowed.join(", "))),
    }
}

/// A plan whose refs all resolve and whose dependencies form no cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedPlan {
    /// For each step, the indexes of the steps it depends on.
    pub depends_on: Vec<Vec<usize>>,
    /// For each step, the index of the step whose branch it starts from.
    pub base_branch: Vec<Option<usize>>,
    /// Steps grouped by depth: wave 1 can run at once, wave 2 after it, and so on.
    pub waves: Vec<Vec<usize>>,
}

/// Resolves every `dependsOn` and `baseBranch` ref, refusing duplicates, unknown refs and
/// cycles with a message that names them.
pub fn resolve_plan(steps: &[PlanStep]) -> Result<ResolvedPlan, String> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        if index.insert(step.step_ref.as_str(), i).is_some() {
            return Err(format!(
                "plan: ref \"{}\" is used by more than one step",
                step.step_ref
            ));
        }
    }
    let mut depends_on = Vec::with_capacity(steps.len());
    let mut base_branch = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let unknown: Vec<String> = step
            .depends_on
            .iter()
            .filter(|r| !index.contains_key(r.as_str()))
            .map(|r| format!("\"{r}\""))
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "plan[{i}].dependsOn refers to unknown refs: {}",
                unknown.join(", ")
            ));
        }
        let mut deps: Vec<usize> = step.depends_on.iter().map(|r| index[r.as_str()]).collect();
        deps.dedup();
        depends_on.push(deps);
        base_branch.push(match &step.base_branch {
            Some(r) => Some(*index.get(r.as_str()).ok_or_else(|| {
                format!("plan[{i}].baseBranch refers to an unknown ref: \"{r}\"")
            })?),
            None => None,
        });
    }
    if let Some(cycle) = find_cycle(&depends_on) {
        let names: Vec<&str> = cycle.iter().map(|&i| steps[i].step_ref.as_str()).collect();
        return Err(format!("plan: dependency cycle {}", names.join(" → ")));
    }
    let waves = waves(&depends_on);
    Ok(ResolvedPlan {
        depends_on,
        base_branch,
        waves,
    })
}

/// A cycle as the refs along it, first repeated at the end ("a → b → a").
fn find_cycle(depends_on: &[Vec<usize>]) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: usize,
        graph: &[Vec<usize>],
        marks: &mut [Mark],
        path: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        marks[n] = Mark::Open;
        path.push(n);
        for &d in &graph[n] {
            match marks[d] {
                Mark::Open => {
                    let start = path.iter().position(|&p| p == d).expect("on the path");
                    let mut cycle = path[start..].to_vec();
                    cycle.push(d);
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(d, graph, marks, path) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks[n] = Mark::Done;
        None
    }
    let mut marks = vec![Mark::New; depends_on.len()];
    (0..depends_on.len()).find_map(|n| {
        (marks[n] == Mark::New)
            .then(|| visit(n, depends_on, &mut marks, &mut Vec::new()))
            .flatten()
    })
}

/// Groups an acyclic graph's nodes by depth (longest chain of dependencies before them).
fn waves(depends_on: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut depth: Vec<Option<usize>> = vec![None; depends_on.len()];
    fn depth_of(n: usize, graph: &[Vec<usize>], depth: &mut [Option<usize>]) -> usize {
        if let Some(d) = depth[n] {
            return d;
        }
        let d = graph[n]
            .iter()
            .map(|&p| depth_of(p, graph, depth) + 1)
            .max()
            .unwrap_or(0);
        depth[n] = Some(d);
        d
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    for n in 0..depends_on.len() {
        let d = depth_of(n, depends_on, &mut depth);
        if out.len() <= d {
            out.resize(d + 1, Vec::new());
        }
        out[d].push(n);
    }
    out
}

/// `title` in lower case, runs of anything but letters and digits as one `-`, at most `max`.
fn slug(title: &str, max: usize) -> String {
    let mut slug = String::new();
    for c in title.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_end_matches('-').chars().take(max).collect();
    slug.trim_end_matches('-').to_string()
}

/// The branch a child task works on, as Buildd predicts it: `buildd/<id8>-<slug30>`.
pub fn branch_name(task_id: &str, title: &str) -> String {
    let id8: String = task_id.chars().take(8).collect();
    format!("buildd/{id8}-{}", slug(title, 30))
}

/// A mission's working (integration) branch, as Buildd names it: `mission/<slug40>-<id8>`.
pub fn mission_branch_name(mission_id: &str, title: &str) -> String {
    let id8: String = mission_id.chars().take(8).collect();
    format!("mission/{}-{id8}", slug(title, 40))
}

#[cfg(test)]
mod tests;
