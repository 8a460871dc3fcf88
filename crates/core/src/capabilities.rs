//! What the API behind the dashboard offers. Buildd answers `GET /api/missions/capabilities`
//! without a key (`{version, capabilities}`; v0.175 lists `startMode` and `pacing`). This
//! server answers the same list with its own additions, each named `missionControl.…`, so
//! the dashboard tells the two apart from one read and offers only what is there.

use serde::{Deserialize, Serialize};

/// `GET /api/missions/capabilities`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    pub version: u32,
    pub capabilities: Vec<String>,
}

/// What this server offers beyond Buildd v0.175.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extra {
    /// `GET /api/prs` (the team's, or `?missionId=`) with rails and reviews.
    PullRequests,
    /// `GET /api/missions/{id}/runs`: the organizer runs and check-ins timeline.
    OrganizerRuns,
    /// `GET /api/notes`: the team's notes across missions (open questions).
    TeamNotes,
    /// `GET /api/workspaces/{id}` answers API keys (Buildd serves it to a browser session).
    WorkspaceReadByKey,
    /// The Organizer checklist and active hours are stored on a mission without a schedule.
    CheckinFieldsWithoutSchedule,
    /// The mission detail carries `effectiveMergePolicy`.
    EffectiveMergePolicy,
    /// Tasks in the mission list carry `result`.
    TaskResultsInLists,
    /// `GET /api/events`: a server-sent `change` event when the team's data moves.
    ChangeStream,
    /// `POST /api/tasks/{id}/reject-plan` takes `stepComments` beside `feedback`.
    PlanStepComments,
    /// `GET /api/activity`: the team's tasks filtered, searched and paged on the server.
    Activity,
    /// A task's workers carry their milestones and the question they wait on.
    LiveRuns,
    /// `GET /api/tasks/waiting-input` and `POST /api/workers/{id}/respond` answer a person's
    /// (admin) key.
    WaitingAgents,
    /// `GET /api/insights`: the rows of the team's weekly figures and busiest hours.
    Insights,
    /// `GET /api/insights/prs`: the team's PRs with every fact their merge decision reads,
    /// for the merge policy's what-if.
    PolicyReplay,
}

impl Extra {
    pub const ALL: [Extra; 14] = [
        Extra::PullRequests,
        Extra::OrganizerRuns,
        Extra::TeamNotes,
        Extra::WorkspaceReadByKey,
        Extra::CheckinFieldsWithoutSchedule,
        Extra::EffectiveMergePolicy,
        Extra::TaskResultsInLists,
        Extra::ChangeStream,
        Extra::PlanStepComments,
        Extra::Activity,
        Extra::LiveRuns,
        Extra::WaitingAgents,
        Extra::Insights,
        Extra::PolicyReplay,
    ];

    /// Its name in the capability list.
    pub fn name(self) -> &'static str {
        match self {
            Extra::PullRequests => "missionControl.pullRequests",
            Extra::OrganizerRuns => "missionControl.organizerRuns",
            Extra::TeamNotes => "missionControl.teamNotes",
            Extra::WorkspaceReadByKey => "missionControl.workspaceReadByKey",
            Extra::CheckinFieldsWithoutSchedule => "missionControl.checkinFieldsWithoutSchedule",
            Extra::EffectiveMergePolicy => "missionControl.effectiveMergePolicy",
            Extra::TaskResultsInLists => "missionControl.taskResultsInLists",
            Extra::ChangeStream => "missionControl.changeStream",
            Extra::PlanStepComments => "missionControl.planStepComments",
            Extra::Activity => "missionControl.activity",
            Extra::LiveRuns => "missionControl.liveRuns",
            Extra::WaitingAgents => "missionControl.waitingAgents",
            Extra::Insights => "missionControl.insights",
            Extra::PolicyReplay => "missionControl.policyReplay",
        }
    }
}

impl Capabilities {
    pub const VERSION: u32 = 1;

    /// This server's answer: the Buildd capabilities it honours, then its own.
    pub fn of_this_server() -> Self {
        Self {
            version: Self::VERSION,
            capabilities: Extra::ALL.iter().map(|e| e.name().to_string()).collect(),
        }
    }

    pub fn offers(&self, extra: Extra) -> bool {
        self.capabilities.iter().any(|c| c == extra.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buildd_answer_offers_no_extra() {
        let buildd: Capabilities =
            serde_json::from_str(r#"{"version":1,"capabilities":["startMode","pacing"]}"#).unwrap();
        assert!(Extra::ALL.iter().all(|e| !buildd.offers(*e)));
    }

    #[test]
    fn this_server_offers_every_extra_by_a_distinct_name() {
        let ours = Capabilities::of_this_server();
        assert!(Extra::ALL.iter().all(|e| ours.offers(*e)));
        let mut names: Vec<_> = Extra::ALL.iter().map(|e| e.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Extra::ALL.len());
    }
}
