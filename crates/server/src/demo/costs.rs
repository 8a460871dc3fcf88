//! What the demo's agents spend: believable figures that differ from task to task yet stay
//! the same for a task, so the seeded data and the scripted worker tell one story.

use buildd_core::money::Usd;
use buildd_core::spend::Usage;

/// The kind of run, which sets the range of its cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// An organizer run: reading the mission and writing a plan.
    Planning,
    /// A reviewer reading a PR.
    Review,
    /// An agent making a change.
    Execution,
}

/// What a whole run of `kind` on task `task_id` costs, with its tokens: planning $0.30 to
/// $0.70, a review $0.10 to $0.25, a change $0.70 to $1.50.
pub fn run_usage(task_id: &str, kind: RunKind) -> Usage {
    let (low, high) = match kind {
        RunKind::Planning => (30, 70),
        RunKind::Review => (10, 25),
        RunKind::Execution => (70, 150),
    };
    // FNV-1a: a stable spread over the range, the same for a task on every run.
    let hash = task_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let cents = low + (hash % (high - low + 1) as u64) as i64;
    let cost = Usd::from_cents(cents);
    // Roughly what a Sonnet-class model reads and writes for that money.
    Usage {
        cost,
        input_tokens: cents as u64 * 1_800,
        output_tokens: cents as u64 * 90,
    }
}

/// The running total a report `part` of `parts` of the way through a run states.
pub fn partial(usage: Usage, part: u64, parts: u64) -> Usage {
    let share = |n: u64| n * part / parts;
    Usage {
        cost: Usd::from_micros(usage.cost.micros() * part as i64 / parts as i64),
        input_tokens: share(usage.input_tokens),
        output_tokens: share(usage.output_tokens),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_costs_within_its_range_and_the_same_each_time() {
        for id in ["a", "b3c", "0f4eac36-6d04-4d9c-943c-3018c0418ed3"] {
            let change = run_usage(id, RunKind::Execution);
            assert!(change.cost >= Usd::from_cents(70) && change.cost <= Usd::from_cents(150));
            assert_eq!(change, run_usage(id, RunKind::Execution));
            let review = run_usage(id, RunKind::Review);
            assert!(review.cost <= Usd::from_cents(25));
        }
        let whole = run_usage("x", RunKind::Planning);
        assert_eq!(partial(whole, 1, 1), whole);
        assert_eq!(partial(whole, 0, 3).cost, Usd::ZERO);
    }
}
