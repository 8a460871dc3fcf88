//! Buildd's string enumerations. Unknown values round-trip as `Other` so a newer Buildd
//! never breaks parsing. Each value also has a label, the value in words for people.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A wire value in words: underscores become spaces ("waiting_input" → "waiting input").
/// For values that are not (yet) an enum here, such as a check run's status.
pub fn words(value: &str) -> Cow<'_, str> {
    if value.contains('_') {
        Cow::Owned(value.replace('_', " "))
    } else {
        Cow::Borrowed(value)
    }
}

/// The label given, else the wire text in words (written out where the enum is declared,
/// so a label costs no work at run time).
macro_rules! label_or {
    ($label:literal $text:literal) => {
        $label
    };
    ($text:literal) => {
        $text
    };
}

macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal $(as $label:literal)?),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant,)+
            /// A value this version does not know.
            Other(String),
        }

        /// As stored: what a row reads (`#[sqlx(try_from = "String")]`).
        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self::known(&s).unwrap_or($name::Other(s))
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self::parse(s)
            }
        }

        impl $name {
            /// Every known value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)+
                    $name::Other(s) => s,
                }
            }

            /// The known value spelled `s`, if any.
            pub fn known(s: &str) -> Option<Self> {
                match s {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }

            pub fn parse(s: &str) -> Self {
                Self::known(s).unwrap_or_else(|| $name::Other(s.to_string()))
            }

            /// The value in words for people ("in progress", "budget exhausted"); an unknown
            /// value with its underscores as spaces.
            pub fn label(&self) -> Cow<'_, str> {
                match self {
                    $($name::$variant => Cow::Borrowed(label_or!($($label)? $text)),)+
                    $name::Other(s) => words(s),
                }
            }

            /// The known values joined for error messages: "a, b, c".
            pub fn list() -> String {
                [$($text),+].join(", ")
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok(Self::parse(&s))
            }
        }
    };
}

string_enum!(
    /// `missions.status`.
    MissionStatus {
        Active => "active",
        Paused => "paused",
        Completed => "completed",
        Archived => "archived",
        BudgetExhausted => "budget_exhausted" as "budget exhausted",
    }
);

string_enum!(
    /// `tasks.status`.
    TaskStatus {
        Pending => "pending",
        Assigned => "assigned",
        InProgress => "in_progress" as "in progress",
        Review => "review",
        Completed => "completed",
        Failed => "failed",
        Cancelled => "cancelled",
    }
);

impl MissionStatus {
    /// Still open to its organizer's questions: not completed or archived.
    pub fn is_open(&self) -> bool {
        !matches!(self, Self::Completed | Self::Archived)
    }
}

impl TaskStatus {
    /// Finished for good: the task will not run again by itself.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

string_enum!(
    /// `tasks.mode`.
    TaskMode {
        Execution => "execution",
        Planning => "planning",
    }
);

string_enum!(
    /// `tasks.taskClass`: deliverable work, a retry folded into its parent, or housekeeping.
    TaskClass {
        Work => "work",
        Attempt => "attempt",
        Bookkeeping => "bookkeeping",
    }
);

string_enum!(
    /// `accounts.level` of an API key.
    AccountLevel {
        Trigger => "trigger",
        Worker => "worker",
        Admin => "admin",
    }
);

string_enum!(
    /// `workers.status`.
    WorkerStatus {
        Idle => "idle",
        Starting => "starting",
        Running => "running",
        WaitingInput => "waiting_input" as "waiting input",
        Paused => "paused",
        Completed => "completed",
        Failed => "failed",
        Error => "error",
    }
);

impl WorkerStatus {
    /// A worker that is still on the task (Buildd's `LIVE_WORKER_STATUSES`).
    pub fn is_live(&self) -> bool {
        matches!(
            self,
            Self::Idle | Self::Starting | Self::Running | Self::WaitingInput
        )
    }
}

string_enum!(
    /// `missions.orchestrationMode`.
    OrchestrationMode {
        Auto => "auto",
        Manual => "manual",
    }
);

string_enum!(
    /// `missions.mode`: how a mission is worked.
    WorkMode {
        Dispatch => "dispatch",
        Interactive => "interactive",
    }
);

string_enum!(
    /// `tasks.outputRequirement`.
    OutputRequirement {
        PrRequired => "pr_required" as "PR required",
        ArtifactRequired => "artifact_required" as "artifact required",
        None => "none",
        Auto => "auto",
    }
);

string_enum!(
    /// `pullRequests.state`: whether a PR is still open, and how it ended.
    PrStatus {
        Open => "open",
        Merged => "merged",
        Closed => "closed",
    }
);

string_enum!(
    /// `workspaces.accessMode`.
    AccessMode {
        Open => "open",
        Restricted => "restricted",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_round_trip_and_unknown_ones_are_kept() {
        let s: TaskStatus = serde_json::from_str("\"in_progress\"").unwrap();
        assert_eq!(s, TaskStatus::InProgress);
        let odd: TaskStatus = serde_json::from_str("\"claimed\"").unwrap();
        assert_eq!(odd, TaskStatus::Other("claimed".into()));
        assert_eq!(serde_json::to_string(&odd).unwrap(), "\"claimed\"");
        assert_eq!(
            MissionStatus::list(),
            "active, paused, completed, archived, budget_exhausted"
        );
    }

    #[test]
    fn labels_are_words_for_people() {
        assert_eq!(TaskStatus::InProgress.label(), "in progress");
        assert_eq!(TaskStatus::Pending.label(), "pending");
        assert_eq!(MissionStatus::BudgetExhausted.label(), "budget exhausted");
        assert_eq!(WorkerStatus::WaitingInput.label(), "waiting input");
        assert_eq!(OutputRequirement::PrRequired.label(), "PR required");
        assert_eq!(TaskStatus::Other("on_hold".into()).label(), "on hold");
        // The wire text stays as Buildd spells it.
        assert_eq!(TaskStatus::InProgress.to_string(), "in_progress");
        let labels = [
            MissionStatus::ALL
                .iter()
                .map(|v| v.label())
                .collect::<Vec<_>>(),
            TaskStatus::ALL.iter().map(|v| v.label()).collect(),
            TaskMode::ALL.iter().map(|v| v.label()).collect(),
            TaskClass::ALL.iter().map(|v| v.label()).collect(),
            AccountLevel::ALL.iter().map(|v| v.label()).collect(),
            WorkerStatus::ALL.iter().map(|v| v.label()).collect(),
            OrchestrationMode::ALL.iter().map(|v| v.label()).collect(),
            WorkMode::ALL.iter().map(|v| v.label()).collect(),
            OutputRequirement::ALL.iter().map(|v| v.label()).collect(),
            AccessMode::ALL.iter().map(|v| v.label()).collect(),
        ];
        for label in labels.iter().flatten() {
            assert!(!label.contains('_') && !label.is_empty(), "{label}");
        }
    }

    #[test]
    fn words_spell_any_wire_value() {
        assert_eq!(words("in_progress"), "in progress");
        assert!(matches!(words("queued"), Cow::Borrowed("queued")));
    }
}
