//! buildd-core's rules as the SQL functions the Postgres triggers call. Postgres cannot
//! call into the server, so each function is the rule's whole table of answers, computed
//! by buildd-core here and installed at open: the triggers and the rest of the server
//! cannot disagree, and a rule changed in buildd-core changes the function at the next
//! start.

use buildd_core::claims::ClaimStop;
use buildd_core::dependencies::dependency_satisfied;
use buildd_core::{MissionStatus, TaskStatus};
use sqlx::PgPool;
use std::fmt::Write;

/// Installs the functions whose bodies differ from the rules'.
pub(super) async fn install(pool: &PgPool) -> Result<(), sqlx::Error> {
    let functions = [
        (
            "buildd_dependency_satisfied",
            "has_open_pr",
            dependency_table(),
        ),
        ("buildd_claim_stop", "is_held", claim_stop_table()),
    ];
    for (name, flag, body) in functions {
        let installed: Option<String> =
            sqlx::query_scalar("SELECT prosrc FROM pg_proc WHERE proname = $1")
                .bind(name)
                .fetch_optional(pool)
                .await?;
        if installed.as_deref() == Some(body.as_str()) {
            continue;
        }
        let sql = format!(
            "CREATE OR REPLACE FUNCTION {name}(status TEXT, {flag} BIGINT) RETURNS BIGINT \
             LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $rule${body}$rule$"
        );
        sqlx::query(&sql).execute(pool).await?;
    }
    Ok(())
}

/// `buildd_dependency_satisfied(status, has_open_pr)`: 1 when a task in `status`, with or
/// without an open PR, lets its dependents start.
fn dependency_table() -> String {
    let statuses = TaskStatus::ALL.iter().map(TaskStatus::as_str);
    table("has_open_pr", statuses, |status, flag| {
        i64::from(dependency_satisfied(&TaskStatus::parse(status), flag))
    })
}

/// `buildd_claim_stop(status, is_held)`: what a mission in `status`, held or not, does to
/// its tasks' claims (`ClaimStop`'s code).
fn claim_stop_table() -> String {
    let statuses = MissionStatus::ALL.iter().map(MissionStatus::as_str);
    table("is_held", statuses, |status, flag| {
        ClaimStop::of(&MissionStatus::parse(status), flag).code()
    })
}

/// A `CASE` over every known status and both flag values, then a status the enum does not
/// know (or NULL), as SQLite's registered functions read it: as the empty text. A NULL
/// flag reads as 0, as SQLite reads it.
fn table<'a>(
    flag_name: &str,
    statuses: impl Iterator<Item = &'a str>,
    rule: impl Fn(&str, bool) -> i64,
) -> String {
    let mut sql = String::from(" SELECT CASE");
    for status in statuses {
        for flag in [false, true] {
            let _ = write!(
                sql,
                " WHEN status = '{status}' AND (COALESCE({flag_name}, 0) <> 0) = {flag} THEN {}",
                rule(status, flag)
            );
        }
    }
    let _ = write!(
        sql,
        " WHEN COALESCE({flag_name}, 0) <> 0 THEN {} ELSE {} END ",
        rule("", true),
        rule("", false)
    );
    sql
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A status is spelled into SQL as it is: one with a quote would break the table.
    #[test]
    fn every_status_is_plain_words() {
        let tasks = TaskStatus::ALL.iter().map(TaskStatus::as_str);
        let missions = MissionStatus::ALL.iter().map(MissionStatus::as_str);
        for status in tasks.chain(missions) {
            assert!(
                status.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{status}"
            );
        }
    }
}
