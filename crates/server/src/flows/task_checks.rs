//! What task writes check and keep true: the workspace a task goes to, its dependencies
//! (same workspace, no cycle), and reopening a completed mission that gets new work.

use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::missions;
use crate::store::schedules::enable_for_mission;
use crate::store::tasks::{dependency_graph_from, known_in_workspace};
use crate::store::workspaces::{team_workspaces, WorkspaceRow};
use std::collections::HashSet;

/// Resolves `workspaceId` as Buildd does: an id, an exact repo, or a workspace name, within
/// the caller's team. Left out, a team with exactly one workspace uses it.
pub async fn resolve_workspace(
    tx: &mut Tx,
    team_id: &str,
    given: Option<String>,
) -> ApiResult<WorkspaceRow> {
    let all = team_workspaces(tx, team_id).await?;
    match given {
        Some(x) => all
            .into_iter()
            .find(|w| {
                w.id == x
                    || w.repo
                        .as_deref()
                        .is_some_and(|r| r.eq_ignore_ascii_case(&x))
                    || w.name.eq_ignore_ascii_case(&x)
            })
            .ok_or_else(|| ApiError::bad(format!("No workspace found matching \"{x}\""))),
        None if all.len() == 1 => Ok(all.into_iter().next().expect("one workspace")),
        None => Err(ApiError::bad("workspaceId is required")),
    }
}

/// Checks `dependsOn` ids: tasks of the same workspace, not the task itself.
pub async fn check_dependencies(
    tx: &mut Tx,
    team_id: &str,
    workspace_id: &str,
    task_id: &str,
    ids: &[String],
) -> ApiResult<()> {
    if ids.iter().any(|d| d == task_id) {
        return Err(ApiError::bad("dependsOn: a task cannot depend on itself"));
    }
    let known = known_in_workspace(tx, team_id, workspace_id, ids).await?;
    let unknown: Vec<&str> = ids
        .iter()
        .filter(|id| !known.contains(*id))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(ApiError::bad(format!(
            "dependsOn references unknown tasks in this workspace: {}",
            unknown.join(", ")
        )))
    }
}

/// Refuses a `dependsOn` change on `task_id` that would close a cycle, naming it.
pub async fn check_no_cycle(
    tx: &mut Tx,
    team_id: &str,
    task_id: &str,
    deps: &[String],
) -> ApiResult<()> {
    let mut graph = dependency_graph_from(tx, team_id, deps).await?;
    graph.insert(task_id.to_string(), deps.to_vec());
    // Depth-first from the task: reaching it again is a cycle.
    let mut stack: Vec<(String, Vec<String>)> =
        vec![(task_id.to_string(), vec![task_id.to_string()])];
    let mut seen = HashSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            let mut p = path.clone();
            p.push(next.clone());
            if next == task_id {
                return Err(ApiError::bad(format!(
                    "dependsOn would create a cycle: {}",
                    p.join(" → ")
                )));
            }
            if seen.insert(next.clone()) {
                stack.push((next.clone(), p));
            }
        }
    }
    Ok(())
}

/// Reopens a completed mission that got new or reopened work: its check-ins run again.
pub async fn reopen_mission(tx: &mut Tx, mission_id: &str, at: &str) -> ApiResult<()> {
    if missions::reopen(tx, mission_id, at).await? {
        enable_for_mission(tx, mission_id, at).await?;
    }
    Ok(())
}
