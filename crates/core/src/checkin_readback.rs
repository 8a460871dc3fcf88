//! Reading back a checklist or active-hours save: Buildd answers 200 to such an edit of a
//! mission without a schedule and stores nothing, so a save is confirmed only by the
//! mission read again.

use crate::checkin::DEFAULT_CHECKLIST;
use crate::schedule::{ActiveHoursJson, CheckInSettings};

/// The cron Buildd gives a mission's heartbeat by default. A PATCH that turns check-ins on
/// for a mission without a schedule must name it: Buildd creates the schedule only with a
/// cron (and a workspace).
pub const HEARTBEAT_CRON: &str = "*/30 * * * *";

impl CheckInSettings {
    /// Whether the mission keeps checklist `sent` (`None`: the default).
    pub fn keeps_checklist(&self, sent: Option<&str>) -> bool {
        let default = DEFAULT_CHECKLIST.trim();
        match sent.map(str::trim).filter(|t| !t.is_empty()) {
            None => !self.custom_checklist,
            Some(t) if t == default => !self.custom_checklist,
            Some(t) => self.custom_checklist && self.checklist.trim() == t,
        }
    }

    /// Whether the mission keeps active hours `sent` (`None`: any hour).
    pub fn keeps_hours(&self, sent: Option<&ActiveHoursJson>) -> bool {
        self.active_hours.as_ref() == sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkin::DEFAULT_INTERVAL_SECS;

    fn settings(checklist: Option<&str>, hours: Option<ActiveHoursJson>) -> CheckInSettings {
        CheckInSettings {
            enabled: false,
            checklist: checklist.unwrap_or(DEFAULT_CHECKLIST).into(),
            custom_checklist: checklist.is_some(),
            active_hours: hours,
            next_check_in_at: None,
            interval_seconds: DEFAULT_INTERVAL_SECS,
            last_check: None,
        }
    }

    fn nine_to_six() -> ActiveHoursJson {
        ActiveHoursJson {
            start: 9,
            end: 18,
            timezone: "Europe/Paris".into(),
        }
    }

    #[test]
    fn a_checklist_not_stored_is_told_apart() {
        let unchanged = settings(None, None);
        assert!(!unchanged.keeps_checklist(Some("- [ ] CI green")));
        let stored = settings(Some("- [ ] CI green\n"), None);
        assert!(stored.keeps_checklist(Some("- [ ] CI green")));
        assert!(!stored.keeps_checklist(Some("- [ ] something else")));
    }

    #[test]
    fn the_default_is_kept_by_a_mission_without_its_own() {
        assert!(settings(None, None).keeps_checklist(None));
        assert!(settings(None, None).keeps_checklist(Some("  ")));
        assert!(settings(None, None).keeps_checklist(Some(DEFAULT_CHECKLIST)));
        assert!(!settings(Some("mine"), None).keeps_checklist(None));
    }

    #[test]
    fn active_hours_not_stored_are_told_apart() {
        assert!(!settings(None, None).keeps_hours(Some(&nine_to_six())));
        assert!(settings(None, Some(nine_to_six())).keeps_hours(Some(&nine_to_six())));
        assert!(!settings(None, Some(nine_to_six())).keeps_hours(None));
        assert!(settings(None, None).keeps_hours(None));
    }
}
