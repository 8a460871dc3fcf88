//! A pull request's migrations as a whole: every statement classified, plus the structural
//! blocks — an existing migration edited or deleted, a schema change with no migration, a
//! migration number another open PR already uses, EXPAND and CONTRACT mixed in one PR.

use super::{classify_sql, Verdict};
use crate::enums::FileStatus;
pub use crate::merge_rails::MigrationLayout;
pub use crate::pull_request::{FileVerdicts, MigrationReport, PrFile};

/// A migration of another open PR, for number collisions.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenMigration {
    pub pr_number: i64,
    pub path: String,
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The number a migration file starts with ("0042" of `0042_add_index.sql`).
pub fn migration_number(path: &str) -> Option<String> {
    let digits: String = file_name(path)
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (!digits.is_empty()).then_some(digits)
}

/// The text a unified diff adds: its `+` lines.
pub fn added_text(patch: &str) -> String {
    patch
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .map(|l| &l[1..])
        .collect::<Vec<_>>()
        .join("\n")
}

/// Classifies the migrations of a PR. `open` are other open PRs' migrations; the PR with the
/// higher number owns a collision (or this one, when its number is unknown).
pub fn classify_pr_migrations(
    files: &[PrFile],
    layout: &MigrationLayout,
    open: &[OpenMigration],
    pr_number: Option<i64>,
) -> MigrationReport {
    let mut reasons = Vec::new();
    let mut verdicts = Vec::new();
    let (mut expand_files, mut contract_files) = (0, 0);
    let mut first_contract = None;
    let migrations: Vec<&PrFile> = files
        .iter()
        .filter(|f| layout.is_migration(&f.path))
        .collect();
    for f in &migrations {
        match &f.status {
            FileStatus::Removed => reasons.push(format!("deletes migration {}", f.path)),
            FileStatus::Added => match &f.patch {
                None => reasons.push(format!("could not inspect migration {}", f.path)),
                Some(patch) => {
                    let statements = classify_sql(&added_text(patch));
                    let contract = statements.iter().find(|s| s.verdict == Verdict::Contract);
                    match contract {
                        Some(c) => {
                            contract_files += 1;
                            first_contract.get_or_insert(format!("{}: {}", f.path, c.reason));
                        }
                        None => expand_files += 1,
                    }
                    verdicts.push(FileVerdicts {
                        path: f.path.clone(),
                        statements,
                    });
                }
            },
            _ => reasons.push(format!("modifies existing migration {}", f.path)),
        }
    }
    if contract_files > 0 && expand_files > 0 {
        reasons.push(format!(
            "PR mixes EXPAND and CONTRACT migrations — split into two PRs: ship the additive \
             changes first, then the destructive ones once nothing reads the old columns. \
             Triggered by: {}",
            first_contract.clone().unwrap_or_default()
        ));
    } else if let Some(c) = first_contract {
        reasons.push(c);
    }
    let schema_changed = files.iter().any(|f| {
        f.path == layout.schema_file || f.path.ends_with(&format!("/{}", layout.schema_file))
    });
    if schema_changed && migrations.is_empty() {
        reasons.push(format!(
            "schema file {} changed without a migration",
            layout.schema_file
        ));
    }
    for f in migrations.iter().filter(|f| f.status == FileStatus::Added) {
        let Some(n) = migration_number(&f.path) else {
            continue;
        };
        let clash = open.iter().find(|o| {
            migration_number(&o.path).as_deref() == Some(n.as_str())
                && pr_number.is_none_or(|mine| mine > o.pr_number)
        });
        if let Some(o) = clash {
            reasons.push(format!(
                "migration number collision: {} conflicts with open PR #{} migration {}",
                file_name(&f.path),
                o.pr_number,
                file_name(&o.path)
            ));
        }
    }
    MigrationReport {
        verdict: if reasons.is_empty() {
            Verdict::Expand
        } else {
            Verdict::Contract
        },
        reasons,
        files: verdicts,
    }
}
