//! How a changed step's refs read: as a key for the list, and in a sentence.

use buildd_core::plan_diff::StepDiff;

/// Step refs as inline code: "`a`, `b`".
pub fn refs(list: &[String]) -> String {
    list.iter()
        .map(|r| format!("`{r}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A changed step's key: its ref now, or what it was for a removed one.
pub fn step_key(step: &StepDiff) -> String {
    match (&step.new_ref, &step.old_ref) {
        (Some(new), _) => format!("now {new}"),
        (None, Some(old)) => format!("was {old}"),
        (None, None) => String::new(),
    }
}
