//! A run of the [`crate::agents`] steps: once, or in several rounds, each against a server
//! of its own, summed up by their medians. A machine shared with others carries a step at
//! rates that differ from minute to minute by more than the load changes them; the median
//! of rounds taken turn about, and the spread of one step's rounds beside it, tell the two
//! apart.

use crate::agents::{announce, kept_up, quantile, run_round, Plan, StepResult};
use std::path::Path;

/// Runs every step of `plan` against a server started from `binary`, once a round, each
/// round against a fresh server, printing as it goes; returns each round's steps.
pub async fn run(binary: &Path, plan: &Plan) -> Vec<Vec<StepResult>> {
    announce(binary, plan);
    let mut rounds = Vec::new();
    for round in 1..=plan.rounds.max(1) {
        if plan.rounds > 1 {
            println!("\n  round {round} of {}:", plan.rounds);
        }
        rounds.push(run_round(binary, plan).await);
    }
    if rounds.len() > 1 {
        print_medians(&rounds);
    }
    rounds
}

/// One step's figures over its rounds.
struct StepRounds {
    agents: usize,
    offered: f64,
    /// Writes answered a second: the median, the least and the most of the rounds.
    writes: [f64; 3],
    report_p99: f64,
    claim_p99: f64,
    poll_p99: f64,
    shed: f64,
    errors: u64,
}

impl StepRounds {
    /// The figures of step `i` over `rounds`.
    fn of(rounds: &[Vec<StepResult>], i: usize) -> Self {
        let steps: Vec<&StepResult> = rounds.iter().map(|r| &r[i]).collect();
        let median = |f: &dyn Fn(&StepResult) -> f64| {
            quantile(&steps.iter().map(|s| f(s)).collect::<Vec<_>>(), 0.5)
        };
        let writes: Vec<f64> = steps.iter().map(|s| s.writes_per_second()).collect();
        Self {
            agents: steps[0].agents,
            offered: steps[0].offered,
            writes: [
                quantile(&writes, 0.5),
                quantile(&writes, 0.0),
                quantile(&writes, 1.0),
            ],
            report_p99: median(&|s| s.reports.quantile(0.99)),
            claim_p99: median(&|s| s.claims.quantile(0.99)),
            poll_p99: median(&|s| s.polls.quantile(0.99)),
            shed: median(&|s| s.shed() as f64),
            errors: steps.iter().map(|s| s.errors()).sum(),
        }
    }

    /// Its median round kept up with what was offered.
    fn held(&self) -> bool {
        kept_up(self.writes[0], self.offered)
    }
}

/// Prints each step's median figures over `rounds` (every round ran the same steps), the
/// knee by the medians, how the median carried rate past it compares with the most, and
/// how far one step's rounds lay apart.
fn print_medians(rounds: &[Vec<StepResult>]) {
    let Some(first) = rounds.first() else {
        return;
    };
    let steps: Vec<StepRounds> = (0..first.len())
        .map(|i| StepRounds::of(rounds, i))
        .collect();
    println!(
        "\n  medians of {} rounds, each on a fresh server, steps taken turn about:",
        rounds.len()
    );
    println!(
        "  {:>6} {:>8} {:>15} {:>8} | {:>10} {:>9} {:>8} | {:>6} {:>6}",
        "agents",
        "writes/s",
        "least-most",
        "offered",
        "report p99",
        "claim p99",
        "poll p99",
        "503s",
        "errors"
    );
    for s in &steps {
        let [median, least, most] = s.writes;
        println!(
            "  {:>6} {median:>8.0} {:>15} {:>8.0} | {:>10.1} {:>9.1} {:>8.1} | {:>6.0} {:>6}",
            s.agents,
            format!("{least:.0}-{most:.0}"),
            s.offered,
            s.report_p99,
            s.claim_p99,
            s.poll_p99,
            s.shed,
            s.errors
        );
    }
    let most = steps.iter().map(|s| s.writes[0]).fold(0.0, f64::max);
    match steps.iter().position(|s| !s.held()) {
        None => println!("  knee by the medians: not reached (up to {most:.0} writes/s)"),
        Some(knee) => {
            let past = &steps[knee..];
            let least = past
                .iter()
                .map(|s| s.writes[0])
                .fold(f64::INFINITY, f64::min);
            let from = knee.checked_sub(1).map(|i| steps[i].agents);
            println!(
                "  knee by the medians: {} {} agents; the most a step carried: {most:.0} writes/s (median)",
                from.map_or("below".to_string(), |a| format!("between {a} and")),
                steps[knee].agents
            );
            println!(
                "  past the knee: every step's median at least {least:.0} writes/s, {:.0}% of the most",
                100.0 * least / most.max(1.0)
            );
        }
    }
    let spread = steps
        .iter()
        .map(|s| 100.0 * (s.writes[2] - s.writes[1]) / s.writes[2].max(1.0))
        .fold(0.0, f64::max);
    println!(
        "  one step's rounds lay up to {spread:.0}% apart (least to most, as a share of the most)"
    );
}
