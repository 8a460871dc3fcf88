//! A mission's cost budget: when spend exhausts it, what raising it does, and how it reads.
//!
//! Buildd's rule, kept: an `active` mission with a budget is exhausted once its spend
//! reaches the budget (`spend ≥ budget`), so a budget of $0 stops a mission at its first
//! check: zero means "spend nothing", not "no cap" (no cap is a null budget). Exhaustion
//! stops new claims and planning; it never stops a running worker.
//!
//! Raising differs from Buildd on purpose. Buildd resumes an exhausted mission when the new
//! budget is above the *old budget*, even if still at or below the spend (the mission then
//! runs until the next check exhausts it again), and keeps it exhausted when the budget is
//! cleared. Here a new budget resumes the mission only when it is above what was already
//! spent, is refused (400) otherwise, and clearing the budget resumes it.

use crate::enums::MissionStatus;
use crate::money::Usd;
use serde_json::Value;

/// The budget a mission's stored `costBudgetUsd` sets, if any. An unreadable or negative
/// value caps nothing (Buildd would read it as NaN and exhaust the mission at once).
pub fn budget_of(cost_budget_usd: Option<&str>) -> Option<Usd> {
    cost_budget_usd
        .and_then(Usd::parse)
        .filter(|b| !b.is_negative())
}

/// A `costBudgetUsd` as a create or update body sends it: `null` clears the budget; a
/// number or a decimal string sets it, rounded to whole cents as Buildd's `decimal(10,2)`
/// column stores it.
pub fn parse_budget(value: &Value) -> Result<Option<Usd>, String> {
    if value.is_null() {
        return Ok(None);
    }
    Usd::from_json(value)
        .filter(|b| !b.is_negative())
        .map(|b| Some(b.round_to_cents()))
        .ok_or_else(|| "costBudgetUsd must be a non-negative number or null".into())
}

/// The budget as Buildd stores and sends it: "25.00".
pub fn budget_string(budget: Usd) -> String {
    budget.fixed(2)
}

/// Whether a mission in `status` that spent `spend` becomes `budget_exhausted`: only an
/// active one with a budget, once spend reaches it.
pub fn exhausts(status: &MissionStatus, spend: Usd, budget: Option<Usd>) -> bool {
    *status == MissionStatus::Active && budget.is_some_and(|b| spend >= b)
}

/// What setting a mission's budget to `new_budget` (`None`: cleared) does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BudgetChange {
    /// Store it; the status stays (the mission was not exhausted).
    Store,
    /// Store it and make the exhausted mission `active` again (and wake its organizer).
    Resume,
    /// Refuse with this message (a 400): the budget would still be exhausted.
    Refuse(String),
}

/// Decides a budget change for a mission in `status` that spent `spend`.
///
/// The refusal names the spend rounded *down* to cents: budgets are whole cents, so "above
/// the $1.40 already spent" is exactly the rule ($1.41 is accepted for a spend of $1.405).
pub fn budget_change(status: &MissionStatus, spend: Usd, new_budget: Option<Usd>) -> BudgetChange {
    if *status != MissionStatus::BudgetExhausted {
        return BudgetChange::Store;
    }
    match new_budget {
        Some(b) if b <= spend => BudgetChange::Refuse(format!(
            "costBudgetUsd must be above the {} already spent",
            Usd::from_cents(spend.floor_cents())
        )),
        _ => BudgetChange::Resume,
    }
}

/// The title of the warning note posted when a mission's budget runs out.
pub const EXHAUSTED_NOTE_TITLE: &str = "Budget exhausted";

/// The body of that note, worded as Buildd writes it (spend to four places, budget to two):
/// "$1.4000 spent vs $1.00 budget — no new tasks will be spawned. Raise costBudgetUsd to
/// resume."
pub fn exhausted_note(spend: Usd, budget: Usd) -> String {
    format!(
        "${} spent vs ${} budget — no new tasks will be spawned. Raise costBudgetUsd to resume.",
        spend.fixed(4),
        budget.fixed(2)
    )
}

/// Why a mission out of budget starts nothing, for a refusal, a check-in or a claim:
/// "its budget is spent ($1.40 of $1.00): raise costBudgetUsd to resume".
pub fn stopped_reason(spend: Usd, budget: Option<Usd>) -> String {
    match budget {
        Some(budget) => {
            format!("its budget is spent ({spend} of {budget}): raise costBudgetUsd to resume")
        }
        None => "its budget is spent: raise costBudgetUsd to resume".into(),
    }
}

/// How much of a budget is spent, for the dashboard's bar.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetBar {
    /// Spent over budget, clamped to 0..=1 (1 for a $0 budget).
    pub fraction: f64,
    /// Spend reached the budget: the mission is, or will be at its next check, exhausted.
    pub reached: bool,
    /// At least 80 % spent, where Buildd's dashboard turns the figure amber.
    pub nearing: bool,
    /// How far spend went past the budget ($0 when it did not).
    pub over_by: Usd,
    /// "$0.40 of $1.00 spent", "$1.00 of $1.00 spent — budget reached",
    /// "$1.40 of $1.00 spent — $0.40 over".
    pub text: String,
}

/// Spend against the budget; `None` when the mission has no budget.
pub fn budget_bar(spend: Usd, budget: Option<Usd>) -> Option<BudgetBar> {
    let budget = budget?;
    let spend = spend.max(Usd::ZERO);
    let fraction = if budget <= Usd::ZERO {
        1.0
    } else {
        (spend.as_f64() / budget.as_f64()).clamp(0.0, 1.0)
    };
    let reached = spend >= budget;
    let over_by = if spend > budget {
        spend - budget
    } else {
        Usd::ZERO
    };
    let mut text = format!("{spend} of {budget} spent");
    if over_by.cents() > 0 {
        text.push_str(&format!(" — {over_by} over"));
    } else if reached {
        text.push_str(" — budget reached");
    }
    Some(BudgetBar {
        fraction,
        reached,
        nearing: spend.micros().saturating_mul(5) >= budget.micros().saturating_mul(4),
        over_by,
        text,
    })
}

/// Said in place of a figure a Buildd's answers do not carry (its missions have no
/// `spendUsd`), so an unknown spend never reads as $0.
pub const SPEND_NOT_REPORTED: &str = "spend not reported by this Buildd";

/// A mission's spend in a few words, for its row and card: "$1.40 of $5.00 spent", "$1.40
/// spent", or "budget $5.00" where the answer carries no spend; `None` when there is nothing
/// to say (nothing spent and no budget, or neither known).
pub fn spend_brief(spend: Option<Usd>, budget: Option<Usd>) -> Option<String> {
    match (spend, budget) {
        (Some(spend), Some(budget)) => Some(format!("{spend} of {budget} spent")),
        (Some(spend), None) => (spend.cents() > 0).then(|| format!("{spend} spent")),
        (None, Some(budget)) => Some(format!("budget {budget}")),
        (None, None) => None,
    }
}

/// [`spend_brief`] of a mission answer's `spendUsd` and `costBudgetUsd` as sent (decimal
/// strings), read without a float parser ([`Usd::parse_decimal`]), so the command center's
/// rows, in the dashboard's first download, carry none.
pub fn spend_brief_of(spend_usd: Option<&str>, cost_budget_usd: Option<&str>) -> Option<String> {
    let read = |text: Option<&str>| {
        text.and_then(Usd::parse_decimal)
            .filter(|u| !u.is_negative())
    };
    spend_brief(read(spend_usd), read(cost_budget_usd))
}

/// A budget as a person typed it ("25", "$12.50"), checked by the rule the server applies
/// to a sent `costBudgetUsd` ([`parse_budget`]), so a form refuses it before sending.
pub fn typed_budget(text: &str) -> Result<Usd, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Enter an amount in dollars, such as 25.".into());
    }
    match parse_budget(&Value::String(text.into())) {
        Ok(Some(budget)) => Ok(budget),
        _ => Err(format!(
            "“{text}” is not an amount in dollars: enter a number such as 25 or 12.50."
        )),
    }
}

/// The `costBudgetUsd` a form sends: a JSON number of whole cents, as Buildd's
/// `PATCH /api/missions/{id}` compares it, or `null` to clear.
pub fn budget_value(budget: Option<Usd>) -> Value {
    match budget {
        Some(b) => serde_json::Number::from_f64(b.round_to_cents().as_f64())
            .map_or(Value::Null, Value::Number),
        None => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn usd(cents: i64) -> Usd {
        Usd::from_cents(cents)
    }

    #[test]
    fn a_stored_budget_reads_leniently() {
        assert_eq!(budget_of(Some("25.00")), Some(usd(2500)));
        assert_eq!(budget_of(Some("5")), Some(usd(500)));
        assert_eq!(budget_of(Some("lots")), None);
        assert_eq!(budget_of(Some("-1.00")), None);
        assert_eq!(budget_of(None), None);
    }

    #[test]
    fn a_sent_budget_is_a_number_or_string_rounded_to_cents() {
        assert_eq!(parse_budget(&json!(25)), Ok(Some(usd(2500))));
        assert_eq!(parse_budget(&json!("5.00")), Ok(Some(usd(500))));
        assert_eq!(parse_budget(&json!(1.005)), Ok(Some(usd(101))));
        assert_eq!(parse_budget(&json!(0)), Ok(Some(Usd::ZERO)));
        assert_eq!(parse_budget(&json!(null)), Ok(None));
        for bad in [
            json!(-1),
            json!("NaN"),
            json!("inf"),
            json!(true),
            json!({}),
        ] {
            assert_eq!(
                parse_budget(&bad),
                Err("costBudgetUsd must be a non-negative number or null".into()),
                "{bad}"
            );
        }
        assert_eq!(budget_string(usd(2500)), "25.00");
    }

    #[test]
    fn a_stopped_mission_says_what_it_spent_of_what() {
        assert_eq!(
            stopped_reason(Usd::from_micros(1_404_000), Some(usd(100))),
            "its budget is spent ($1.40 of $1.00): raise costBudgetUsd to resume"
        );
        assert_eq!(
            stopped_reason(usd(5), None),
            "its budget is spent: raise costBudgetUsd to resume"
        );
    }

    #[test]
    fn an_active_mission_is_exhausted_once_spend_reaches_its_budget() {
        let active = MissionStatus::Active;
        assert!(!exhausts(&active, usd(99), Some(usd(100))));
        assert!(exhausts(&active, usd(100), Some(usd(100))));
        assert!(exhausts(&active, usd(140), Some(usd(100))));
        // No budget, no cap; a $0 budget allows nothing.
        assert!(!exhausts(&active, usd(1_000_000), None));
        assert!(exhausts(&active, Usd::ZERO, Some(Usd::ZERO)));
        // Only an active mission changes status.
        for status in [
            MissionStatus::Paused,
            MissionStatus::Completed,
            MissionStatus::Archived,
            MissionStatus::BudgetExhausted,
        ] {
            assert!(!exhausts(&status, usd(140), Some(usd(100))), "{status}");
        }
    }

    #[test]
    fn raising_above_the_spend_or_clearing_resumes() {
        let exhausted = MissionStatus::BudgetExhausted;
        assert_eq!(
            budget_change(&exhausted, usd(140), Some(usd(200))),
            BudgetChange::Resume
        );
        assert_eq!(
            budget_change(&exhausted, usd(140), None),
            BudgetChange::Resume
        );
        assert_eq!(
            budget_change(&exhausted, usd(140), Some(usd(141))),
            BudgetChange::Resume
        );
    }

    #[test]
    fn a_budget_still_spent_is_refused_naming_the_field() {
        let exhausted = MissionStatus::BudgetExhausted;
        let refused =
            BudgetChange::Refuse("costBudgetUsd must be above the $1.40 already spent".into());
        assert_eq!(budget_change(&exhausted, usd(140), Some(usd(140))), refused);
        assert_eq!(budget_change(&exhausted, usd(140), Some(usd(120))), refused);
        // Spend between cents: the message rounds down, and the next cent is accepted.
        let spend = Usd::from_micros(1_405_000);
        assert_eq!(budget_change(&exhausted, spend, Some(usd(140))), refused);
        assert_eq!(
            budget_change(&exhausted, spend, Some(usd(141))),
            BudgetChange::Resume
        );
    }

    #[test]
    fn a_mission_not_exhausted_just_stores_the_budget() {
        for status in [MissionStatus::Active, MissionStatus::Paused] {
            assert_eq!(
                budget_change(&status, usd(140), Some(usd(100))),
                BudgetChange::Store
            );
            assert_eq!(budget_change(&status, usd(140), None), BudgetChange::Store);
        }
    }

    #[test]
    fn the_note_is_worded_as_buildd_writes_it() {
        assert_eq!(EXHAUSTED_NOTE_TITLE, "Budget exhausted");
        assert_eq!(
            exhausted_note(Usd::from_micros(1_400_050), usd(100)),
            "$1.4001 spent vs $1.00 budget — no new tasks will be spawned. Raise costBudgetUsd to resume."
        );
    }

    #[test]
    fn the_bar_says_how_much_is_spent() {
        let bar = budget_bar(usd(40), Some(usd(100))).unwrap();
        assert_eq!(bar.text, "$0.40 of $1.00 spent");
        assert!((bar.fraction - 0.4).abs() < 1e-9);
        assert!(!bar.reached && !bar.nearing);
        assert_eq!(bar.over_by, Usd::ZERO);

        let near = budget_bar(usd(80), Some(usd(100))).unwrap();
        assert!(near.nearing && !near.reached);

        let at = budget_bar(usd(100), Some(usd(100))).unwrap();
        assert_eq!(at.text, "$1.00 of $1.00 spent — budget reached");
        assert!(at.reached && at.fraction == 1.0);

        let over = budget_bar(usd(140), Some(usd(100))).unwrap();
        assert_eq!(over.text, "$1.40 of $1.00 spent — $0.40 over");
        assert_eq!((over.fraction, over.over_by), (1.0, usd(40)));

        let zero = budget_bar(Usd::ZERO, Some(Usd::ZERO)).unwrap();
        assert_eq!((zero.fraction, zero.reached), (1.0, true));
        assert!(budget_bar(usd(140), None).is_none());
    }

    #[test]
    fn a_row_says_spend_and_budget_in_a_few_words() {
        assert_eq!(
            spend_brief(Some(usd(140)), Some(usd(500))).as_deref(),
            Some("$1.40 of $5.00 spent")
        );
        assert_eq!(
            spend_brief(Some(usd(140)), None).as_deref(),
            Some("$1.40 spent")
        );
        // Nothing spent and no cap: nothing to say.
        assert_eq!(spend_brief(Some(Usd::ZERO), None), None);
        assert_eq!(
            spend_brief(Some(Usd::ZERO), Some(usd(100))).as_deref(),
            Some("$0.00 of $1.00 spent")
        );
        // Buildd's answers carry no spend: the budget alone.
        assert_eq!(
            spend_brief(None, Some(usd(2500))).as_deref(),
            Some("budget $25.00")
        );
        assert_eq!(spend_brief(None, None), None);
        assert_eq!(
            spend_brief_of(Some("1.400000"), Some("5.00")).as_deref(),
            Some("$1.40 of $5.00 spent")
        );
        assert_eq!(spend_brief_of(None, Some("-1")), None);
        assert_eq!(spend_brief_of(Some("0.000000"), None), None);
    }

    #[test]
    fn a_typed_budget_is_checked_as_the_server_checks_it() {
        assert_eq!(typed_budget(" 25 "), Ok(usd(2500)));
        assert_eq!(typed_budget("$12.50"), Ok(usd(1250)));
        assert_eq!(typed_budget("1.005"), Ok(usd(101)));
        assert_eq!(typed_budget("0"), Ok(Usd::ZERO));
        assert_eq!(
            typed_budget("  "),
            Err("Enter an amount in dollars, such as 25.".into())
        );
        for bad in ["-1", "lots", "NaN", "1.2.3"] {
            let why = typed_budget(bad).unwrap_err();
            assert!(why.contains("not an amount in dollars"), "{bad}: {why}");
            assert!(why.contains(bad), "{why}");
        }
    }

    #[test]
    fn a_sent_budget_is_a_number_of_cents_or_null() {
        assert_eq!(budget_value(Some(usd(2500))), json!(25.0));
        assert_eq!(budget_value(Some(usd(1250))), json!(12.5));
        assert_eq!(budget_value(Some(Usd::from_micros(1_005_000))), json!(1.01));
        assert_eq!(budget_value(None), json!(null));
        // What is sent reads back as what was typed.
        assert_eq!(
            parse_budget(&budget_value(Some(usd(123)))),
            Ok(Some(usd(123)))
        );
    }
}
