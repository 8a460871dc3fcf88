//! What work cost: a worker's report, a task's cost and a mission's spend.
//!
//! A worker (one claim of a task) reports its running totals: `costUsd` and the token
//! counts, each report replacing the last. A task costs what all its workers cost, every
//! attempt included; a mission spends what all its tasks cost — organizer runs, reviewer
//! runs and aggregation too, since money spent is spent (progress, unlike spend, counts
//! deliverables only). Buildd sums the same way (`SUM(workers.costUsd)` over the mission's
//! tasks).

use crate::money::Usd;
use crate::task::TaskWorker;
use crate::worker::WorkerSession;
use serde_json::{Map, Value};
use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// Cost and tokens, of one worker or summed over many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub cost: Usd,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    /// What a worker row says it used. A missing or unreadable `costUsd` counts as nothing,
    /// as do negative numbers, which no valid report writes.
    pub fn of_session(session: &WorkerSession) -> Usage {
        let cost = session
            .cost_usd
            .as_deref()
            .and_then(Usd::parse)
            .filter(|c| !c.is_negative())
            .unwrap_or_default();
        Usage {
            cost,
            input_tokens: u64::try_from(session.input_tokens).unwrap_or(0),
            output_tokens: u64::try_from(session.output_tokens).unwrap_or(0),
        }
    }

    pub fn tokens(self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

impl Add for Usage {
    type Output = Usage;
    fn add(self, other: Usage) -> Usage {
        Usage {
            cost: self.cost + other.cost,
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
        }
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        *self = *self + other;
    }
}

impl Sum for Usage {
    fn sum<I: Iterator<Item = Usage>>(iter: I) -> Usage {
        iter.fold(Usage::default(), Add::add)
    }
}

/// A task's usage: the sum over all its workers, every attempt counted.
pub fn task_usage<'a>(workers: impl IntoIterator<Item = &'a WorkerSession>) -> Usage {
    workers.into_iter().map(Usage::of_session).sum()
}

/// A mission's usage: the sum over all its tasks, housekeeping included.
pub fn mission_usage(tasks: impl IntoIterator<Item = Usage>) -> Usage {
    tasks.into_iter().sum()
}

/// One attempt's usage as the task's page reads it (`?include=workers`); `None` when the
/// answer states no cost for it, so an unknown cost is never shown as $0.
pub fn attempt_usage(worker: &TaskWorker) -> Option<Usage> {
    let cost = worker
        .cost_usd
        .as_deref()
        .and_then(Usd::parse)
        .filter(|c| !c.is_negative())?;
    let tokens = |n: Option<i64>| n.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
    Some(Usage {
        cost,
        input_tokens: tokens(worker.input_tokens),
        output_tokens: tokens(worker.output_tokens),
    })
}

/// A task's total as its page shows it: the answer's own `costUsd` where it carries one
/// (this server's), else the sum of its attempts when every one states its cost; tokens are
/// summed over the attempts. `None` when the cost is not known.
pub fn task_total(cost_usd: Option<&str>, workers: &[TaskWorker]) -> Option<Usage> {
    let attempts: Option<Vec<Usage>> = workers.iter().map(attempt_usage).collect();
    let summed: Usage = attempts.iter().flatten().copied().sum();
    let tokens = |f: fn(&TaskWorker) -> Option<i64>| {
        workers
            .iter()
            .filter_map(|w| f(w).and_then(|n| u64::try_from(n).ok()))
            .fold(0u64, u64::saturating_add)
    };
    let cost = match cost_usd.and_then(Usd::parse) {
        Some(cost) => cost,
        None if attempts.is_some() && !workers.is_empty() => summed.cost,
        None => return None,
    };
    Some(Usage {
        cost,
        input_tokens: tokens(|w| w.input_tokens),
        output_tokens: tokens(|w| w.output_tokens),
    })
}

/// A count with thousands grouped: "12,400".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Tokens as a person reads them: "12,400 in · 3,100 out".
pub fn tokens_text(usage: Usage) -> String {
    format!(
        "{} in · {} out",
        grouped(usage.input_tokens),
        grouped(usage.output_tokens)
    )
}

/// The usage fields of a worker report (`PATCH /api/workers/{id}`), each present or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UsageReport {
    pub cost_usd: Option<Usd>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
}

impl UsageReport {
    /// Writes the reported totals over the session's, as a later report replaces an earlier
    /// one; a field not reported is left as it was.
    pub fn apply(&self, session: &mut WorkerSession) {
        if let Some(cost) = self.cost_usd {
            session.cost_usd = Some(cost.to_decimal_string());
        }
        if let Some(n) = self.input_tokens {
            session.input_tokens = i64::try_from(n).unwrap_or(i64::MAX);
        }
        if let Some(n) = self.output_tokens {
            session.output_tokens = i64::try_from(n).unwrap_or(i64::MAX);
        }
    }
}

/// A report's `costUsd`: a non-negative, finite JSON number. Buildd takes numbers only (a
/// string is ignored there); here anything else is refused, so a runner's mistake is seen.
pub fn cost_usd_of(value: &Value) -> Result<Usd, String> {
    const ERROR: &str = "costUsd must be a non-negative number";
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(Usd::from_f64)
            .filter(|c| !c.is_negative())
            .ok_or_else(|| ERROR.to_string()),
        _ => Err(ERROR.into()),
    }
}

/// A report's token count `field`: a non-negative whole JSON number (`1200.0` is whole).
pub fn tokens_of(field: &str, value: &Value) -> Result<u64, String> {
    let error = || format!("{field} must be a non-negative integer");
    match value {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < u64::MAX as f64)
                    .map(|f| f as u64)
            })
            .ok_or_else(error),
        _ => Err(error()),
    }
}

/// The usage fields of a worker report's body, every problem named by its field. An
/// absent or `null` field is not reported.
pub fn read_usage_report(body: &Map<String, Value>) -> Result<UsageReport, Vec<String>> {
    fn keep<T>(result: Result<T, String>, errors: &mut Vec<String>) -> Option<T> {
        result.map_err(|e| errors.push(e)).ok()
    }
    let mut errors = Vec::new();
    let present = |field: &str| body.get(field).filter(|v| !v.is_null());
    let cost_usd = match present("costUsd") {
        Some(v) => keep(cost_usd_of(v), &mut errors),
        None => body.get("resultMeta").and_then(result_meta_cost),
    };
    let [input_tokens, output_tokens] = ["inputTokens", "outputTokens"]
        .map(|field| present(field).and_then(|v| keep(tokens_of(field, v), &mut errors)));
    if errors.is_empty() {
        Ok(UsageReport {
            cost_usd,
            input_tokens,
            output_tokens,
        })
    } else {
        Err(errors)
    }
}

/// The cost a finished session's `resultMeta` states: the sum of `modelUsage.*.costUSD`.
/// Buildd's runner sends its cost only there (never `costUsd`), so this is what makes its
/// workers' spend count. Values that are not non-negative numbers are passed over: the
/// metadata is the SDK's, not a field a runner chose.
pub fn result_meta_cost(meta: &Value) -> Option<Usd> {
    let models = meta.get("modelUsage")?.as_object()?;
    let costs: Vec<Usd> = models
        .values()
        .filter_map(|m| m.get("costUSD")?.as_f64())
        .filter_map(Usd::from_f64)
        .filter(|c| !c.is_negative())
        .collect();
    (!costs.is_empty()).then(|| costs.into_iter().sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn session(cost: Option<&str>, input: i64, output: i64) -> WorkerSession {
        WorkerSession {
            cost_usd: cost.map(str::to_string),
            input_tokens: input,
            output_tokens: output,
            ..WorkerSession::default()
        }
    }

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn a_runners_result_meta_states_its_cost_when_cost_usd_is_absent() {
        let body = object(json!({
            "status": "completed",
            "inputTokens": 12000,
            "resultMeta": {"modelUsage": {
                "claude-sonnet": {"inputTokens": 10000, "costUSD": 0.05},
                "claude-haiku": {"inputTokens": 2000, "costUSD": 0.0125},
                "broken": {"costUSD": "lots"}
            }}
        }));
        let report = read_usage_report(&body).unwrap();
        assert_eq!(report.cost_usd, Some(Usd::from_micros(62_500)));
        assert_eq!(report.input_tokens, Some(12000));
        // An explicit costUsd wins over the metadata.
        let mut explicit = body.clone();
        explicit.insert("costUsd".into(), json!(0.5));
        assert_eq!(
            read_usage_report(&explicit).unwrap().cost_usd,
            Some(Usd::from_cents(50))
        );
        // Metadata without a cost states none.
        assert_eq!(result_meta_cost(&json!({"numTurns": 3})), None);
        assert_eq!(result_meta_cost(&json!({"modelUsage": {}})), None);
    }

    #[test]
    fn a_task_costs_what_every_attempt_cost() {
        let first = session(Some("0.500000"), 1000, 200);
        let retry = session(Some("0.900000"), 3000, 400);
        let usage = task_usage([&first, &retry]);
        assert_eq!(usage.cost, Usd::from_cents(140));
        assert_eq!((usage.input_tokens, usage.output_tokens), (4000, 600));
        assert_eq!(usage.tokens(), 4600);
    }

    #[test]
    fn unreadable_or_missing_costs_count_as_nothing() {
        let usage = task_usage([
            &session(None, 10, 1),
            &session(Some("garbage"), 0, 0),
            &session(Some("-3.00"), -5, 0),
            &session(Some("0.012300"), 0, 0),
        ]);
        assert_eq!(usage.cost, Usd::from_micros(12_300));
        assert_eq!(usage.input_tokens, 10);
    }

    #[test]
    fn a_mission_spends_what_all_its_tasks_cost() {
        let organizer = task_usage([&session(Some("0.20"), 0, 0)]);
        let work = task_usage([&session(Some("1.00"), 0, 0)]);
        let review = task_usage([&session(Some("0.15"), 0, 0)]);
        assert_eq!(
            mission_usage([organizer, work, review]).cost,
            Usd::from_cents(135)
        );
        assert_eq!(mission_usage([]), Usage::default());
    }

    #[test]
    fn a_report_is_read_field_by_field() {
        let report =
            read_usage_report(&object(json!({"costUsd": 0.0123, "inputTokens": 1200.0}))).unwrap();
        assert_eq!(report.cost_usd, Some(Usd::from_micros(12_300)));
        assert_eq!(report.input_tokens, Some(1200));
        assert_eq!(report.output_tokens, None);
        let nothing = read_usage_report(&object(json!({"status": "running", "costUsd": null})));
        assert_eq!(nothing, Ok(UsageReport::default()));
    }

    #[test]
    fn bad_values_are_named() {
        let errors = read_usage_report(&object(json!({
            "costUsd": -1, "inputTokens": 1.5, "outputTokens": "7"
        })))
        .unwrap_err();
        assert_eq!(
            errors,
            [
                "costUsd must be a non-negative number",
                "inputTokens must be a non-negative integer",
                "outputTokens must be a non-negative integer",
            ]
        );
        assert!(cost_usd_of(&json!("0.5")).is_err());
        assert!(tokens_of("inputTokens", &json!(-1)).is_err());
        assert_eq!(cost_usd_of(&json!(0)), Ok(Usd::ZERO));
    }

    #[test]
    fn a_later_report_replaces_the_earlier_totals() {
        let mut s = session(Some("0.400000"), 100, 10);
        UsageReport {
            cost_usd: Some(Usd::from_cents(90)),
            input_tokens: Some(300),
            output_tokens: None,
        }
        .apply(&mut s);
        assert_eq!(s.cost_usd.as_deref(), Some("0.900000"));
        assert_eq!((s.input_tokens, s.output_tokens), (300, 10));
    }

    fn attempt(cost: Option<&str>, input: Option<i64>, output: Option<i64>) -> TaskWorker {
        serde_json::from_value(json!({
            "id": "w", "status": "completed", "costUsd": cost,
            "inputTokens": input, "outputTokens": output
        }))
        .unwrap()
    }

    #[test]
    fn an_attempt_states_its_cost_or_is_unknown() {
        let known = attempt_usage(&attempt(Some("0.500000"), Some(1000), Some(200))).unwrap();
        assert_eq!(known.cost, Usd::from_cents(50));
        assert_eq!((known.input_tokens, known.output_tokens), (1000, 200));
        assert_eq!(attempt_usage(&attempt(None, Some(1000), None)), None);
        assert_eq!(attempt_usage(&attempt(Some("lots"), None, None)), None);
        // Buildd's zero default is a figure like any other.
        let zero = attempt_usage(&attempt(Some("0"), None, None)).unwrap();
        assert_eq!(zero, Usage::default());
    }

    #[test]
    fn a_tasks_total_is_its_own_cost_or_the_sum_of_stated_attempts() {
        let first = attempt(Some("0.500000"), Some(1000), Some(200));
        let retry = attempt(Some("0.900000"), Some(3000), Some(400));
        let both = [retry.clone(), first.clone()];
        let summed = task_total(None, &both).unwrap();
        assert_eq!(summed.cost, Usd::from_cents(140));
        assert_eq!((summed.input_tokens, summed.output_tokens), (4000, 600));
        // The server's own figure wins.
        let stated = task_total(Some("1.500000"), &both).unwrap();
        assert_eq!(stated.cost, Usd::from_cents(150));
        assert_eq!(stated.input_tokens, 4000);
        assert_eq!(
            task_total(Some("0.000000"), &[]).map(|u| u.cost),
            Some(Usd::ZERO)
        );
        // An attempt without a cost, or no attempts and no figure: unknown.
        assert_eq!(task_total(None, &[first, attempt(None, None, None)]), None);
        assert_eq!(task_total(None, &[]), None);
    }

    #[test]
    fn tokens_read_with_thousands_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        let usage = Usage {
            cost: Usd::ZERO,
            input_tokens: 12_400,
            output_tokens: 310,
        };
        assert_eq!(tokens_text(usage), "12,400 in · 310 out");
    }
}
