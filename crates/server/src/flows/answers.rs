//! A person answers an agent waiting on a question. An agent still there reads the answer
//! with its next report, as instructions; one that is gone (Buildd's runner ends a session
//! that asks, by default) gets a follow-up task carrying the question, what the run had
//! done, and the answer, as Buildd's respond files it. Either way the question is closed,
//! and the mission's feed says who answered.

use super::task_edits::file;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::notes::system_note;
use crate::store::tasks::{find_task, NewTask};
use crate::store::workers::{append_instruction, record_session, Session, WorkerRow};
use crate::time::now;
use buildd_core::waiting::{follow_up, Responded, WaitingFor};
use buildd_core::{AnswerRoute, NoteKind, TaskMode};
use serde_json::json;

/// Answers `worker`'s question with `answer`, from `by` (the key's account).
pub async fn answer(
    tx: &mut Tx,
    team_id: &str,
    worker: &WorkerRow,
    answer: String,
    by: &str,
) -> ApiResult<Responded> {
    let Some(question) = worker.waiting_for() else {
        return Err(ApiError::bad("Worker is not waiting for input"));
    };
    let question = WaitingFor::of(&question).unwrap_or_default();
    let task = find_task(tx, team_id, &worker.task_id).await?;
    let at = now();
    let closed = Session {
        waiting_for: Some(None),
        ..Session::default()
    };
    record_session(tx, &worker.id, &closed).await?;
    let responded = if worker.is_finished() {
        let (title, description) = follow_up(
            &task.title,
            task.description.as_deref(),
            &worker.milestones(),
            question.question(),
            &answer,
        );
        let context = json!({
            "baseBranch": worker.branch,
            "userInput": answer,
            "previousAttempt": {"question": question.question(), "milestones": worker.milestones(),
                                "branch": worker.branch, "workerId": worker.id},
        });
        let next = NewTask {
            mission_id: task.mission_id.clone(),
            parent_task_id: Some(task.id.clone()),
            description: Some(description),
            context,
            mode: TaskMode::Execution,
            task_class: task.task_class.clone(),
            role_slug: task.role_slug.clone(),
            creation_source: Some("dashboard".into()),
            ..NewTask::new(team_id, &task.workspace_id, title)
        };
        file(tx, &next).await?;
        Responded {
            task_id: Some(next.id),
            delivered: Some(AnswerRoute::FollowUp),
        }
    } else {
        append_instruction(tx, worker, answer.clone(), &at).await?;
        Responded {
            task_id: None,
            delivered: Some(AnswerRoute::Instructions),
        }
    };
    if let Some(m) = &task.mission_id {
        let title = format!("Answered: {}", question.question());
        let body = Some(format!("{by} answered: {answer}"));
        system_note(
            tx,
            team_id,
            m,
            Some(&task.id),
            NoteKind::Update,
            &title,
            body,
        )
        .await?;
    }
    Ok(responded)
}
