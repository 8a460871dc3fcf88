//! How long a task's latest run took beside what it cost, in a line.

use buildd_core::duration::span;
use buildd_core::runs::seconds_between_times;
use buildd_core::MissionTask;

/// "took 12m · $0.70": the latest finished run's length and every attempt's cost, each when
/// the answer carries it (Buildd's mission tasks carry no cost) and something ran.
pub fn effort(t: &MissionTask) -> Option<String> {
    let took = t
        .workers
        .first()
        .and_then(|w| seconds_between_times(w.started_at.as_deref()?, w.completed_at.as_deref()?));
    let parts: Vec<String> = took
        .map(|s| format!("took {}", span(s)))
        .into_iter()
        .chain(
            t.cost()
                .filter(|_| !t.workers.is_empty())
                .map(|c| c.to_string()),
        )
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}
