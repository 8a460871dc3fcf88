//! Buildd's string enumerations. Unknown values round-trip as `Other` so a newer Buildd
//! never breaks parsing. Each value also has a label, the value in words for people.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// A wire value in words: underscores become spaces ("waiting_input" → "waiting input").
/// For values that are not (yet) an enum here.
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

            pub const fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)+
                    $name::Other(s) => s.as_str(),
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

    /// Looked at by its check-ins: active, or stopped by its budget (a check-in says so).
    /// The server's query for due check-ins spells the same two statuses.
    pub fn checks_in(&self) -> bool {
        matches!(self, Self::Active | Self::BudgetExhausted)
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

string_enum!(
    /// `mission_notes.type`: what a note of the feed is. The reviewer's verdicts are the
    /// server's own; nobody posts them.
    NoteKind {
        Decision => "decision",
        Question => "question",
        Warning => "warning",
        Suggestion => "suggestion",
        Update => "update",
        Reply => "reply",
        Guidance => "guidance",
        ReviewerApproved => "reviewer_approved" as "reviewer: approved",
        ReviewerRequestChanges => "reviewer_request_changes" as "reviewer: changes requested",
        ReviewerEscalated => "reviewer_escalated" as "reviewer: escalated",
    }
);

impl NoteKind {
    /// The kinds a note may be posted with (Buildd's `NOTE_TYPES`).
    pub const POSTABLE: &'static [NoteKind] = &[
        NoteKind::Decision,
        NoteKind::Question,
        NoteKind::Warning,
        NoteKind::Suggestion,
        NoteKind::Update,
        NoteKind::Reply,
        NoteKind::Guidance,
    ];

    /// The kinds an agent posts (Buildd's `post_note` list), and all a task's own notes take.
    pub const AGENT: &'static [NoteKind] = &[
        NoteKind::Decision,
        NoteKind::Question,
        NoteKind::Warning,
        NoteKind::Suggestion,
        NoteKind::Update,
    ];

    /// `kinds` joined for error messages: "decision, question, …".
    pub fn names(kinds: &[NoteKind]) -> String {
        kinds
            .iter()
            .map(NoteKind::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The status a note of this kind starts in: a question waits for an answer.
    pub fn initial_status(&self) -> NoteStatus {
        match self {
            NoteKind::Question => NoteStatus::Open,
            _ => NoteStatus::Answered,
        }
    }
}

string_enum!(
    /// `mission_notes.status`.
    NoteStatus {
        Open => "open",
        Answered => "answered",
        Dismissed => "dismissed",
    }
);

string_enum!(
    /// `mission_notes.author_type`: who wrote a note.
    AuthorType {
        Agent => "agent",
        User => "user",
        System => "system",
    }
);

string_enum!(
    /// A PR file's `status`, as GitHub spells it.
    FileStatus {
        Added => "added",
        Removed => "removed",
        Modified => "modified",
        Renamed => "renamed",
        Copied => "copied",
        Changed => "changed",
        Unchanged => "unchanged",
    }
);

string_enum!(
    /// An instruction history entry's `type`: a person's message or the agent's answer.
    MessageKind {
        Instruction => "instruction",
        Response => "response",
    }
);

string_enum!(
    /// An instruction's `deliveryState`: queued until the worker's next report takes it.
    DeliveryState {
        Pending => "pending",
        Delivered => "delivered",
    }
);

string_enum!(
    /// A merge policy's `tier`: who merges its PRs.
    MergeTier {
        AutoThreshold => "auto-threshold",
        AgentReview => "agent-review",
        Human => "human",
    }
);

string_enum!(
    /// A worker's `prLifecycleStatus`: where its PR stands.
    PrLifecycle {
        PrOpen => "pr_open" as "open",
        CiRunning => "ci_running" as "CI running",
        CiGreen => "ci_green" as "CI green",
        CiFailed => "ci_failed" as "CI failing",
        Conflict => "conflict",
        Merged => "merged",
        Closed => "closed",
    }
);

string_enum!(
    /// `POST /api/workers/{id}/respond`'s `delivered`: how an answer reaches its agent.
    AnswerRoute {
        Instructions => "instructions",
        FollowUp => "follow_up" as "follow-up",
    }
);

string_enum!(
    /// An agent review's `gateCondition`: what the reviewer's approval does. Each label is
    /// how a policy's summary says it.
    ReviewGate {
        ApproveAndMerge => "approve-and-merge" as "merged",
        ApproveOnly => "approve-only" as "approved only; a person merges",
    }
);

string_enum!(
    /// `tasks.category`, as Buildd classifies a task.
    TaskCategory {
        Bug => "bug",
        Feature => "feature",
        Refactor => "refactor",
        Chore => "chore",
        Docs => "docs",
        Test => "test",
        Infra => "infra",
        Design => "design",
        Review => "review",
    }
);

string_enum!(
    /// `tasks.kind`: the sort of work a task is.
    TaskKind {
        Coordination => "coordination",
        Engineering => "engineering",
        Research => "research",
        Writing => "writing",
        Design => "design",
        Analysis => "analysis",
        Observation => "observation",
    }
);

string_enum!(
    /// An organizer run's `context.triggerSource`: what started it. Each label is how the
    /// runs list says it.
    TriggerSource {
        Manual => "manual" as "you ran it",
        Event => "event" as "after work finished",
        Backstop => "backstop" as "stuck check",
        Created => "created" as "mission created",
        Cron => "cron" as "check-in",
        AutoRetry => "auto_retry" as "retry",
        DependencyMet => "wake:dependency_met" as "dependency met",
        Resumed => "wake:resumed" as "resumed",
        Armed => "wake:armed" as "armed",
        BudgetRaised => "wake:budget_raised" as "budget raised",
        PrMerged => "wake:pr_merged" as "PR merged",
        OwnerNote => "wake:owner_note" as "after your note",
        OwnerAnswer => "wake:owner_answer" as "after your answer",
    }
);

string_enum!(
    /// `checkins.outcome`: whether a check-in started an organizer run.
    CheckinOutcome {
        Started => "started",
        Deferred => "deferred",
    }
);

string_enum!(
    /// `pr_reviews.outcome`: what came of an agent review's verdict.
    PrReviewOutcome {
        Merged => "merged",
        AwaitingPerson => "awaiting_person" as "awaiting person",
        AwaitingCi => "awaiting_ci" as "awaiting CI",
        Retry => "retry",
        Escalated => "escalated",
        Stale => "stale",
    }
);

string_enum!(
    /// `missions.gateCondition`: what of the mission it depends on lets it start.
    MissionGate {
        Merged => "merged",
        Completed => "completed",
    }
);

string_enum!(
    /// A check run's `status`, as GitHub spells it.
    CheckStatus {
        Queued => "queued",
        InProgress => "in_progress" as "in progress",
        Completed => "completed",
    }
);

string_enum!(
    /// A check run's `conclusion`, as GitHub spells it.
    CheckConclusion {
        Success => "success",
        Failure => "failure",
        Neutral => "neutral",
        Cancelled => "cancelled",
        TimedOut => "timed_out" as "timed out",
        Skipped => "skipped",
    }
);

impl CheckConclusion {
    /// The conclusions a check run may be reported with.
    pub const REPORTABLE: &'static [CheckConclusion] = &[
        CheckConclusion::Success,
        CheckConclusion::Failure,
        CheckConclusion::Neutral,
        CheckConclusion::Cancelled,
        CheckConclusion::TimedOut,
    ];

    /// A conclusion that lets a PR merge: GitHub's neutral and skipped runs block nothing.
    pub fn passes(&self) -> bool {
        matches!(self, Self::Success | Self::Neutral | Self::Skipped)
    }
}

string_enum!(
    /// `workspaces.dataClass`.
    DataClass {
        Standard => "standard",
        Sensitive => "sensitive",
    }
);

string_enum!(
    /// A new mission's `startMode`: armed starts it, held waits for a person.
    StartMode {
        Armed => "armed",
        Held => "held",
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
    fn only_active_and_out_of_budget_missions_check_in() {
        let checking: Vec<_> = [
            "active",
            "paused",
            "completed",
            "archived",
            "budget_exhausted",
        ]
        .map(MissionStatus::from)
        .into_iter()
        .filter(MissionStatus::checks_in)
        .collect();
        assert_eq!(
            checking,
            [MissionStatus::Active, MissionStatus::BudgetExhausted]
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
            NoteKind::ALL.iter().map(|v| v.label()).collect(),
            NoteStatus::ALL.iter().map(|v| v.label()).collect(),
            AuthorType::ALL.iter().map(|v| v.label()).collect(),
            FileStatus::ALL.iter().map(|v| v.label()).collect(),
            MessageKind::ALL.iter().map(|v| v.label()).collect(),
            DeliveryState::ALL.iter().map(|v| v.label()).collect(),
            MergeTier::ALL.iter().map(|v| v.label()).collect(),
            TriggerSource::ALL.iter().map(|v| v.label()).collect(),
            CheckinOutcome::ALL.iter().map(|v| v.label()).collect(),
            PrReviewOutcome::ALL.iter().map(|v| v.label()).collect(),
            MissionGate::ALL.iter().map(|v| v.label()).collect(),
            CheckStatus::ALL.iter().map(|v| v.label()).collect(),
            CheckConclusion::ALL.iter().map(|v| v.label()).collect(),
            DataClass::ALL.iter().map(|v| v.label()).collect(),
            StartMode::ALL.iter().map(|v| v.label()).collect(),
        ];
        for label in labels.iter().flatten() {
            assert!(!label.contains('_') && !label.is_empty(), "{label}");
        }
    }

    #[test]
    fn note_kinds_posted_by_anyone_and_by_agents() {
        assert_eq!(
            NoteKind::names(NoteKind::POSTABLE),
            "decision, question, warning, suggestion, update, reply, guidance"
        );
        assert_eq!(
            NoteKind::names(NoteKind::AGENT),
            "decision, question, warning, suggestion, update"
        );
        assert!(NoteKind::AGENT
            .iter()
            .all(|k| NoteKind::POSTABLE.contains(k)));
        assert_eq!(NoteKind::Question.initial_status(), NoteStatus::Open);
        assert_eq!(NoteKind::Decision.initial_status(), NoteStatus::Answered);
    }

    #[test]
    fn words_spell_any_wire_value() {
        assert_eq!(words("in_progress"), "in progress");
        assert!(matches!(words("queued"), Cow::Borrowed("queued")));
    }
}
