//! A mission's budget, in the caller's transaction: spend that reaches it stops the mission
//! (`budget_exhausted`: no claims, no organizer runs; running workers finish), and a budget
//! set above the spend, or cleared, starts it again. The decisions are buildd-core's
//! (`budget::exhausts`, `budget::budget_change`); the spend is kept by the database's
//! triggers in the same transaction that moved a worker's cost.

use super::organizer::{wake, Trigger};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::store::missions::{self, existing_mission, MissionRow};
use crate::store::notes::system_note;
use crate::time::now;
use buildd_core::budget::{
    budget_change, exhausted_note, exhausts, BudgetChange, EXHAUSTED_NOTE_TITLE,
};
use buildd_core::money::Usd;
use buildd_core::{NoteKind, TriggerSource};

/// Stops mission `mission_id` when its spend has reached its budget; the warning note is
/// posted once, by the write that made the move.
pub async fn enforce(tx: &mut Tx, mission_id: &str) -> ApiResult<()> {
    let mission = existing_mission(tx, mission_id).await?;
    let (spend, budget) = (mission.spend(), mission.budget());
    let Some(limit) = budget.filter(|_| exhausts(&mission.status(), spend, budget)) else {
        return Ok(());
    };
    if missions::exhaust(tx, mission_id, &now()).await? {
        let body = exhausted_note(spend, limit);
        let team = mission.team_id.as_str();
        system_note(
            tx,
            team,
            mission_id,
            None,
            NoteKind::Warning,
            EXHAUSTED_NOTE_TITLE,
            Some(body),
        )
        .await?;
    }
    Ok(())
}

/// Sets mission `row`'s budget to `budget` (`None` clears it). A mission that ran out starts
/// again when the new budget is above its spend, or cleared, and plans ("budget raised");
/// a budget still at or below the spend is refused. An active mission given a budget its
/// spend already reached stops at once.
pub async fn set(tx: &mut Tx, row: &MissionRow, budget: Option<Usd>) -> ApiResult<()> {
    let resume = match budget_change(&row.status(), row.spend(), budget) {
        BudgetChange::Refuse(why) => return Err(ApiError::BadRequest(why)),
        BudgetChange::Resume => true,
        BudgetChange::Store => false,
    };
    missions::set_budget(tx, &row.id, budget, resume).await?;
    if resume {
        let trigger = Trigger {
            source: TriggerSource::BudgetRaised,
            task_id: None,
        };
        wake(tx, &row.id, trigger).await?;
    }
    enforce(tx, &row.id).await
}
