//! `MissionDraft`: the New mission form as typed, and the request it makes once checked.

use buildd_core::budget::{budget_value, typed_budget};
use buildd_core::money::Usd;
use buildd_core::requests::missions::NewMission as NewMissionRequest;
use buildd_core::requests::Patch;
use buildd_core::OrchestrationMode;

/// The form as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct MissionDraft {
    pub title: String,
    pub description: String,
    pub workspace: String,
    pub manual: bool,
    pub check_ins: bool,
    pub requires_review: bool,
    /// The budget as typed; empty for none.
    pub budget: String,
}

impl Default for MissionDraft {
    fn default() -> Self {
        Self {
            title: String::new(),
            description: String::new(),
            workspace: String::new(),
            manual: false,
            check_ins: true,
            requires_review: false,
            budget: String::new(),
        }
    }
}

impl MissionDraft {
    /// The budget typed, checked by the server's rule: `Ok(None)` when left empty.
    pub fn budget(&self) -> Result<Option<Usd>, String> {
        if self.budget.trim().is_empty() {
            return Ok(None);
        }
        typed_budget(&self.budget).map(Some)
    }

    /// The mission to create, with `budget` as checked.
    pub fn request(&self, budget: Option<Usd>) -> NewMissionRequest {
        let text = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        NewMissionRequest {
            description: text(&self.description),
            orchestration_mode: Some(if self.manual {
                OrchestrationMode::Manual
            } else {
                OrchestrationMode::Auto
            }),
            requires_review: Some(self.requires_review),
            // Check-ins are an auto mission's: a manual one has none.
            is_heartbeat: Patch::Value(!self.manual && self.check_ins),
            workspace_id: text(&self.workspace),
            cost_budget_usd: match budget {
                Some(_) => Patch::Value(budget_value(budget)),
                None => Patch::Absent,
            },
            ..NewMissionRequest::new(self.title.trim())
        }
    }
}
