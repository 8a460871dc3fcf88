//! Buildd's string enumerations. Unknown values round-trip as `Other` so a newer Buildd
//! never breaks parsing.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant,)+
            /// A value this version does not know.
            Other(String),
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
        BudgetExhausted => "budget_exhausted",
    }
);

string_enum!(
    /// `tasks.status`.
    TaskStatus {
        Pending => "pending",
        Assigned => "assigned",
        InProgress => "in_progress",
        Review => "review",
        Completed => "completed",
        Failed => "failed",
        Cancelled => "cancelled",
    }
);

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
        WaitingInput => "waiting_input",
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
    /// `tasks.outputRequirement`.
    OutputRequirement {
        PrRequired => "pr_required",
        ArtifactRequired => "artifact_required",
        None => "none",
        Auto => "auto",
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
}
