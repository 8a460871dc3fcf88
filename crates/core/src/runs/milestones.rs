//! A run's milestones as a timeline: each step's label, when it was reached, and how long
//! it lasted — until the next step, or until the run ended (or now, while it runs). Buildd's
//! runner sends `{type, label, ts}` with `ts` in epoch milliseconds; older reports carry
//! `timestamp` as an ISO time, and some only a `type`.

use super::at;
use crate::task::TaskWorker;
use serde_json::Value;

/// One step of a run's timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub label: String,
    /// `phase`, `status`, `checkpoint`, `action`, `statusTransition`…
    pub kind: String,
    /// When it was reached (epoch milliseconds), if the report said.
    pub at_ms: Option<i64>,
    /// How long until the next step, or the run's end; `None` when unknown.
    pub took_ms: Option<i64>,
}

fn when(m: &Value) -> Option<i64> {
    match m.get("ts") {
        Some(Value::Number(n)) => n.as_i64(),
        _ => m
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(|t| at(Some(t)))
            .map(|t| t.timestamp_millis()),
    }
}

/// The run's milestones as steps, oldest first. The last step lasts until the run ended,
/// or until `now_ms` while it is live.
pub fn steps(run: &TaskWorker, now_ms: i64) -> Vec<Step> {
    let end = match at(run.completed_at.as_deref()) {
        Some(done) => Some(done.timestamp_millis()),
        None if run.status.is_live() => Some(now_ms),
        None => None,
    };
    let mut out: Vec<Step> = run
        .milestones
        .iter()
        .map(|m| {
            let kind = m
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let label = m
                .get("label")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| crate::enums::words(&kind).into_owned());
            Step {
                label,
                kind,
                at_ms: when(m),
                took_ms: None,
            }
        })
        .collect();
    let next: Vec<Option<i64>> = out
        .iter()
        .skip(1)
        .map(|s| s.at_ms)
        .chain(std::iter::once(end))
        .collect();
    for (step, next) in out.iter_mut().zip(next) {
        step.took_ms = match (step.at_ms, next) {
            (Some(a), Some(b)) if b >= a => Some(b - a),
            _ => None,
        };
    }
    out
}

/// How many milestones the run reported beyond those kept, when the server says.
pub fn not_kept(run: &TaskWorker) -> Option<i64> {
    let reported = run.milestones_reported?;
    let kept = run.milestones.len() as i64;
    (reported > kept).then_some(reported - kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(v: Value) -> TaskWorker {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn each_step_lasts_until_the_next_and_the_last_until_the_end() {
        let done = run(json!({"id": "w", "status": "completed",
        "startedAt": "2026-12-05T10:00:00Z", "completedAt": "2026-12-05T10:00:10Z",
        "milestones": [
            {"type": "checkpoint", "label": "Session started", "ts": 1796464800000i64},
            {"type": "phase", "label": "Read the code", "ts": 1796464803000i64},
            {"type": "statusTransition"}
        ]}));
        let s = steps(&done, 0);
        let shown: Vec<(&str, Option<i64>)> =
            s.iter().map(|s| (s.label.as_str(), s.took_ms)).collect();
        // The last has no time of its own, so neither it nor the one before is measured.
        assert_eq!(
            shown,
            [
                ("Session started", Some(3000)),
                ("Read the code", None),
                ("statusTransition", None)
            ]
        );
        let live = run(json!({"id": "w", "status": "running",
            "milestones": [{"type": "action", "label": "Edited a.rs",
                            "timestamp": "2026-12-05T10:00:00Z"}]}));
        let at = steps(&live, 1796464805000).remove(0);
        assert_eq!((at.at_ms, at.took_ms), (Some(1796464800000), Some(5000)));
        assert!(steps(&run(json!({"id": "w", "status": "failed"})), 0).is_empty());
    }

    #[test]
    fn the_server_says_how_many_were_not_kept() {
        let many = run(
            json!({"id": "w", "status": "running", "milestonesReported": 500,
            "milestones": (0..200).map(|i| json!({"label": i})).collect::<Vec<_>>()}),
        );
        assert_eq!(not_kept(&many), Some(300));
        assert_eq!(
            not_kept(&run(json!({"id": "w", "status": "running"}))),
            None
        );
    }
}
