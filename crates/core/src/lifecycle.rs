//! Mission status changes a person may make through `PATCH /api/missions/{id}`.

use crate::enums::MissionStatus;

/// The statuses `POST`/`PATCH` accept; `budget_exhausted` is set by the server only.
pub const SETTABLE_MISSION_STATUSES: [MissionStatus; 4] = [
    MissionStatus::Active,
    MissionStatus::Paused,
    MissionStatus::Completed,
    MissionStatus::Archived,
];

/// Parses a requested mission status, naming the field and the allowed values.
pub fn parse_settable_status(value: &str) -> Result<MissionStatus, String> {
    match MissionStatus::known(value) {
        Some(s) if SETTABLE_MISSION_STATUSES.contains(&s) => Ok(s),
        _ => Err(format!(
            "status must be one of: active, paused, completed, archived (got \"{value}\")"
        )),
    }
}

/// Whether a mission may go from `from` to `to`. Setting the current status is a no-op.
///
/// - active ⇄ paused; either may complete or be archived;
/// - completed may be reopened (active) or archived, not paused;
/// - archived may only be restored to active;
/// - a budget-exhausted mission resumes by raising its budget, not by setting active.
pub fn check_mission_transition(from: &MissionStatus, to: &MissionStatus) -> Result<(), String> {
    use MissionStatus::*;
    if from == to {
        return Ok(());
    }
    let allowed = match from {
        Active => matches!(to, Paused | Completed | Archived),
        Paused => matches!(to, Active | Completed | Archived),
        Completed => matches!(to, Active | Archived),
        Archived => matches!(to, Active),
        BudgetExhausted => matches!(to, Paused | Completed | Archived),
        Other(_) => true,
    };
    if allowed {
        Ok(())
    } else if *from == BudgetExhausted && *to == Active {
        Err(
            "status: a mission whose budget is exhausted resumes when costBudgetUsd is raised"
                .into(),
        )
    } else {
        Err(format!("status: a {from} mission cannot become {to}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use MissionStatus::*;

    #[test]
    fn settable_statuses() {
        assert_eq!(parse_settable_status("paused"), Ok(Paused));
        assert!(parse_settable_status("budget_exhausted")
            .unwrap_err()
            .starts_with("status must be"));
        assert!(parse_settable_status("done")
            .unwrap_err()
            .contains("\"done\""));
    }

    #[test]
    fn allowed_transitions() {
        for (from, to) in [
            (Active, Paused),
            (Active, Completed),
            (Active, Archived),
            (Paused, Active),
            (Paused, Completed),
            (Completed, Active),
            (Completed, Archived),
            (Archived, Active),
            (BudgetExhausted, Paused),
            (Active, Active),
        ] {
            assert_eq!(
                check_mission_transition(&from, &to),
                Ok(()),
                "{from} → {to}"
            );
        }
    }

    #[test]
    fn refused_transitions_name_the_field() {
        for (from, to) in [
            (Completed, Paused),
            (Archived, Paused),
            (Archived, Completed),
            (BudgetExhausted, Active),
        ] {
            let err = check_mission_transition(&from, &to).unwrap_err();
            assert!(err.starts_with("status"), "{err}");
        }
    }
}
