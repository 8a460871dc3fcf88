//! Organizer runs: a planning task "Mission: <title>" that plans the mission's next step. One
//! function opens them for every trigger (Run, a task finishing, resume, dependency met, a
//! check-in), recording the trigger; the database allows one in flight per mission, so two
//! triggers at once start one run.

use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::mission_tasks::mission_tasks;
use crate::store::missions::{mission_by_id, set_working_branch, MissionRow};
use crate::store::schedules::{effective_checklist, find_schedule, template_context};
use crate::store::tasks::{insert_unless_taken, planning_in_flight, NewTask, TaskRow};
use crate::store::turns::hold_mission;
use buildd_core::completion::{completion, is_dormant};
use buildd_core::plan::plan_in_review;
use buildd_core::plan_output::mission_branch_name;
use buildd_core::schedule::context_keys::CHECKLIST;
use buildd_core::{MissionStatus, OrchestrationMode, TaskClass, TaskMode, TriggerSource};
use serde_json::{json, Map};

/// What started a run: `context.triggerSource`, and the task whose end started it.
pub struct Trigger<'a> {
    pub source: TriggerSource,
    pub task_id: Option<&'a str>,
}

pub enum RunOutcome {
    Started(TaskRow),
    /// A run was already in flight; it is the one.
    Deduped(TaskRow),
}

impl RunOutcome {
    pub fn task(&self) -> &TaskRow {
        match self {
            Self::Started(t) | Self::Deduped(t) => t,
        }
    }
}

/// Opens an organizer run of `mission` for `trigger`, or returns the one in flight. The run
/// carries the mission's Organizer checklist. `None` when the mission has no workspace to
/// plan in.
pub async fn open_run(
    tx: &mut Tx,
    mission: &MissionRow,
    trigger: Trigger<'_>,
) -> ApiResult<Option<RunOutcome>> {
    let Some(workspace) = &mission.workspace_id else {
        return Ok(None);
    };
    // Whether a run is in flight decides whether to open one: triggers arriving together
    // take the mission's turn.
    hold_mission(tx, &mission.id).await?;
    if let Some(existing) = planning_in_flight(tx, &mission.id).await? {
        return Ok(Some(RunOutcome::Deduped(existing)));
    }
    let checklist = match &mission.schedule_id {
        Some(s) => find_schedule(tx, s)
            .await?
            .map(|s| effective_checklist(&template_context(&s.task_template))),
        None => None,
    }
    .unwrap_or_else(|| effective_checklist(&Map::new()));
    let mut context = json!({"triggerSource": trigger.source, CHECKLIST: checklist});
    if trigger.source == TriggerSource::Manual {
        context["manualRun"] = json!(true);
    }
    if let Some(t) = trigger.task_id {
        context["triggerTaskId"] = json!(t);
    }
    // A mission in a workspace with a repo gets its working branch at its first run.
    if mission.working_branch.is_none() {
        let branch = mission_branch_name(&mission.id, &mission.title);
        set_working_branch(tx, &mission.id, workspace, &branch).await?;
    }
    let run = NewTask {
        mission_id: Some(mission.id.clone()),
        description: Some(
            "Plan the mission's next step, following its Organizer checklist.".into(),
        ),
        context,
        mode: TaskMode::Planning,
        task_class: TaskClass::Bookkeeping,
        creation_source: Some("orchestrator".into()),
        priority: mission.priority,
        ..NewTask::new(
            &mission.team_id,
            workspace,
            format!("Mission: {}", mission.title),
        )
    };
    // The partial unique index turns a second run in flight into "nothing inserted".
    let inserted = insert_unless_taken(tx, &run).await?;
    let task = planning_in_flight(tx, &mission.id)
        .await?
        .ok_or_else(|| ApiError::Internal("the organizer run vanished".into()))?;
    Ok(Some(if inserted {
        metrics::counter!("buildd_organizer_runs_started_total").increment(1);
        RunOutcome::Started(task)
    } else {
        RunOutcome::Deduped(task)
    }))
}

/// Whether the mission waits on another mission that has not landed.
pub fn dependency_blocked(mission: &MissionRow) -> bool {
    mission.depends_on_mission_id.is_some() && mission.dependency_met_at.is_none()
}

/// Plans an auto mission again after an event (`wake:*`): only an active, auto, released,
/// unblocked mission, and never over a plan that waits for a person.
pub async fn wake(
    tx: &mut Tx,
    mission_id: &str,
    trigger: Trigger<'_>,
) -> ApiResult<Option<RunOutcome>> {
    let Some(mission) = mission_by_id(tx, mission_id).await? else {
        return Ok(None);
    };
    if mission.status() != MissionStatus::Active
        || mission.orchestration_mode.clone() != OrchestrationMode::Auto
        || mission.is_held
        || dependency_blocked(&mission)
    {
        return Ok(None);
    }
    let tasks = mission_tasks(tx, &mission.team_id, mission_id).await?;
    // A plan waiting for a person, or finished work waiting to be closed, is left alone.
    let mode = mission.orchestration_mode.clone();
    if plan_in_review(&tasks).is_some()
        || is_dormant(&mission.status(), mission.requires_review, &mode, &tasks)
    {
        return Ok(None);
    }
    open_run(tx, &mission, trigger).await
}

/// A task of a mission finished, and the mission has no other open work unless `open`: when
/// it was the last, the organizer plans the next step — unless its last run proposed
/// completion and only merges remain, which complete the mission by themselves. A finished
/// organizer run does not start another (its plan waits for review).
pub async fn after_task_finished(tx: &mut Tx, task: &TaskRow, open: bool) -> ApiResult<()> {
    let Some(mission_id) = &task.mission_id else {
        return Ok(());
    };
    if task.mode == TaskMode::Planning || open {
        return Ok(());
    }
    let tasks = mission_tasks(tx, &task.team_id, mission_id).await?;
    if let Some(mission) = mission_by_id(tx, mission_id).await? {
        let mode = mission.orchestration_mode.clone();
        if completion(&mode, &tasks).waits_on_merges_only() {
            return Ok(());
        }
    }
    wake(
        tx,
        mission_id,
        Trigger {
            source: TriggerSource::Event,
            task_id: Some(&task.id),
        },
    )
    .await?;
    Ok(())
}
