//! The migration classifier: each SQL statement of a migration is EXPAND (purely additive,
//! safe to merge unattended) or CONTRACT (destructive, data-moving, or not understood — a
//! person reviews it). Statements are parsed by a real SQL parser; what it cannot parse is
//! CONTRACT. PR-level rules add the structural blocks.

mod pr;
mod split;

pub use pr::*;

pub use crate::pull_request::{StatementVerdict, Verdict};
use sqlparser::ast::{
    AlterColumnOperation, AlterTableOperation, ColumnOption, ObjectName, ObjectType, Statement,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

fn name(n: &ObjectName) -> String {
    n.to_string().replace('"', "")
}

fn expand(statement: &str, reason: impl Into<String>) -> StatementVerdict {
    StatementVerdict {
        statement: statement.into(),
        verdict: Verdict::Expand,
        reason: reason.into(),
    }
}

fn contract(statement: &str, reason: impl Into<String>) -> StatementVerdict {
    StatementVerdict {
        statement: statement.into(),
        verdict: Verdict::Contract,
        reason: reason.into(),
    }
}

fn preview(sql: &str) -> String {
    let short: String = sql.chars().take(120).collect();
    if short.len() < sql.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// The table a data statement writes, read from its text (the word after its verb).
fn dml_target(sql: &str) -> String {
    let words: Vec<&str> = sql.split_whitespace().collect();
    let skip = ["INTO", "FROM", "ONLY"];
    words
        .iter()
        .skip(1)
        .find(|w| !skip.contains(&w.to_uppercase().as_str()))
        .map(|w| w.split('(').next().unwrap_or(w).replace('"', ""))
        .unwrap_or_default()
}

fn alter_table(sql: &str, table: &str, ops: &[AlterTableOperation]) -> StatementVerdict {
    for op in ops {
        let unsafe_reason = match op {
            AlterTableOperation::DropColumn { column_names, .. } => Some(format!(
                "drops column {table}.{}",
                column_names
                    .iter()
                    .map(|c| c.value.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            AlterTableOperation::DropConstraint { name, .. } => {
                Some(format!("drops constraint {table}.{}", name.value))
            }
            AlterTableOperation::DropPrimaryKey { .. } => {
                Some(format!("drops the primary key of {table}"))
            }
            AlterTableOperation::DropForeignKey { name, .. } => {
                Some(format!("drops constraint {table}.{}", name.value))
            }
            AlterTableOperation::RenameColumn {
                old_column_name,
                new_column_name,
            } => Some(format!(
                "renames column {table}.{} to {}",
                old_column_name.value, new_column_name.value
            )),
            AlterTableOperation::RenameTable { table_name } => Some(format!(
                "renames table {table} to {}",
                table_name
                    .to_string()
                    .trim_start_matches("TO ")
                    .trim_start_matches("AS ")
                    .replace('"', "")
            )),
            AlterTableOperation::ChangeColumn { old_name, .. } => {
                Some(format!("changes type of {table}.{}", old_name.value))
            }
            AlterTableOperation::ModifyColumn { col_name, .. } => {
                Some(format!("changes type of {table}.{}", col_name.value))
            }
            AlterTableOperation::AlterColumn { column_name, op } => match op {
                AlterColumnOperation::SetDataType { .. } => {
                    Some(format!("changes type of {table}.{}", column_name.value))
                }
                AlterColumnOperation::SetNotNull => Some(format!(
                    "adds NOT NULL constraint to existing column {table}.{}",
                    column_name.value
                )),
                AlterColumnOperation::SetDefault { .. }
                | AlterColumnOperation::DropDefault
                | AlterColumnOperation::DropNotNull => None,
                AlterColumnOperation::AddGenerated { .. } => {
                    Some(format!("ambiguous migration statement: {}", preview(sql)))
                }
            },
            AlterTableOperation::AddColumn { column_def, .. } => {
                let options: Vec<&ColumnOption> =
                    column_def.options.iter().map(|o| &o.option).collect();
                let not_null = options.iter().any(|o| matches!(o, ColumnOption::NotNull));
                let default = options
                    .iter()
                    .any(|o| matches!(o, ColumnOption::Default(_)));
                (not_null && !default).then(|| {
                    format!(
                        "adds NOT NULL column without default {table}.{}",
                        column_def.name.value
                    )
                })
            }
            AlterTableOperation::AddConstraint { .. } => None,
            _ => Some(format!("ambiguous migration statement: {}", preview(sql))),
        };
        if let Some(reason) = unsafe_reason {
            return contract(sql, reason);
        }
    }
    expand(sql, format!("alters table {table} additively"))
}

/// Classifies one statement already parsed.
fn classify_statement(sql: &str, statement: &Statement) -> StatementVerdict {
    match statement {
        Statement::CreateTable(t) => expand(sql, format!("creates table {}", name(&t.name))),
        Statement::CreateIndex(i) => expand(
            sql,
            format!(
                "creates index {}",
                i.name.as_ref().map(name).unwrap_or_default()
            ),
        ),
        Statement::CreateType { name: n, .. } => expand(sql, format!("creates type {}", name(n))),
        Statement::CreateExtension { name: n, .. } => {
            expand(sql, format!("creates extension {}", n.value))
        }
        Statement::CreateSequence { name: n, .. } => {
            expand(sql, format!("creates sequence {}", name(n)))
        }
        Statement::AlterType(t) => match &t.operation {
            sqlparser::ast::AlterTypeOperation::AddValue(_) => {
                expand(sql, format!("adds a value to type {}", name(&t.name)))
            }
            _ => contract(sql, format!("renames in type {}", name(&t.name))),
        },
        Statement::AlterTable {
            name: n,
            operations,
            ..
        } => alter_table(sql, &name(n), operations),
        Statement::Drop {
            object_type, names, ..
        } => {
            let what = match object_type {
                ObjectType::Table => "table",
                ObjectType::Index => "index",
                ObjectType::Type => "type",
                ObjectType::View => "view",
                ObjectType::MaterializedView => "materialized view",
                ObjectType::Schema => "schema",
                ObjectType::Sequence => "sequence",
                _ => "object",
            };
            let list: Vec<String> = names.iter().map(name).collect();
            contract(sql, format!("drops {what} {}", list.join(", ")))
        }
        Statement::Insert(_) => contract(
            sql,
            format!("runs data migration INSERT on {}", dml_target(sql)),
        ),
        Statement::Update { .. } => contract(
            sql,
            format!("runs data migration UPDATE on {}", dml_target(sql)),
        ),
        Statement::Delete(_) => contract(
            sql,
            format!("runs data migration DELETE on {}", dml_target(sql)),
        ),
        Statement::Merge { .. } => contract(
            sql,
            format!("runs data migration MERGE on {}", dml_target(sql)),
        ),
        Statement::Truncate { .. } => contract(sql, "truncates a table".to_string()),
        _ => contract(
            sql,
            format!("ambiguous migration statement: {}", preview(sql)),
        ),
    }
}

/// Classifies every statement of a migration file. A file without statements, and any
/// statement the parser does not understand, is CONTRACT.
pub fn classify_sql(sql: &str) -> Vec<StatementVerdict> {
    let pieces = split::statements(sql);
    if pieces.is_empty() {
        return vec![contract("", "migration contains no SQL statements")];
    }
    pieces
        .iter()
        .map(|piece| {
            let inner = split::unwrap_duplicate_object_guard(piece);
            let text = inner.as_deref().unwrap_or(piece);
            match Parser::parse_sql(&PostgreSqlDialect {}, text) {
                Ok(parsed) if parsed.len() == 1 => {
                    let mut v = classify_statement(text, &parsed[0]);
                    v.statement = piece.clone();
                    v
                }
                _ => contract(
                    piece,
                    format!("ambiguous migration statement: {}", preview(piece)),
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
