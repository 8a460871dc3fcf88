//! Pull requests: reported by workers, checked by CI, evaluated against the merge policy's
//! rails (buildd-core's `evaluate_pr`), merged automatically when the auto-threshold tier
//! allows it or by a person otherwise. A merge is a squash and records a release.

mod endpoints;
mod record;

pub use endpoints::{list, merge_endpoint, record_check};
pub use record::record_pr;

use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::merge_policy::{effective_policy, EffectivePolicy, MergePolicy};
use buildd_core::migrations::{MigrationLayout, OpenMigration};
use buildd_core::pr_rails::{evaluate_pr, Files, PrFacts, RailSettings};
use buildd_core::pull_request::{CheckRun, PrEvaluation, PrFile};
use serde_json::Value;

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct PrRow {
    pub id: String,
    pub team_id: String,
    pub workspace_id: String,
    pub task_id: Option<String>,
    pub mission_id: Option<String>,
    pub number: i64,
    pub url: Option<String>,
    pub base_branch: Option<String>,
    pub head_branch: Option<String>,
    pub head_sha: Option<String>,
    pub files: Option<String>,
    pub files_state: String,
    pub state: String,
    pub merged_at: Option<String>,
    pub created_at: String,
}

pub const PR_COLUMNS: &str = "p.id, p.team_id, p.workspace_id, p.task_id, p.mission_id, \
    p.number, p.url, p.base_branch, p.head_branch, p.head_sha, p.files, p.files_state, \
    p.state, p.merged_at, p.created_at";

impl PrRow {
    pub fn files(&self) -> Files {
        match self.files_state.as_str() {
            "listed" => self
                .files
                .as_deref()
                .and_then(|f| serde_json::from_str::<Vec<PrFile>>(f).ok())
                .map(Files::Listed)
                .unwrap_or(Files::Malformed),
            "malformed" => Files::Malformed,
            _ => Files::Missing,
        }
    }
}

/// The PR `number` of `workspace_id`.
pub async fn find_pr(tx: &mut Tx, workspace_id: &str, number: i64) -> ApiResult<Option<PrRow>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.workspace_id = ? AND p.number = ?"
    ))
    .bind(workspace_id)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?)
}

pub async fn checks_of(tx: &mut Tx, pr_id: &str) -> ApiResult<Vec<CheckRun>> {
    let rows: Vec<(String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT name, head_sha, status, conclusion FROM check_runs WHERE pr_id = ? \
         ORDER BY created_at, rowid",
    )
    .bind(pr_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(name, head_sha, status, conclusion)| CheckRun {
            name,
            head_sha,
            status,
            conclusion,
        })
        .collect())
}

fn policy_at(value: Option<&Value>) -> Option<MergePolicy> {
    value.and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// The policy and rail evaluation of `pr` now.
pub async fn evaluate(tx: &mut Tx, pr: &PrRow) -> ApiResult<(EffectivePolicy, PrEvaluation)> {
    let (git_config,): (String,) = sqlx::query_as("SELECT git_config FROM workspaces WHERE id = ?")
        .bind(&pr.workspace_id)
        .fetch_one(&mut **tx)
        .await?;
    let git: Value = serde_json::from_str(&git_config).unwrap_or(Value::Null);
    let task_review: bool = match &pr.task_id {
        Some(t) => sqlx::query_as::<_, (bool,)>("SELECT requires_review FROM tasks WHERE id = ?")
            .bind(t)
            .fetch_optional(&mut **tx)
            .await?
            .is_some_and(|(r,)| r),
        None => false,
    };
    let (mission_review, mission_policy) = match &pr.mission_id {
        Some(m) => sqlx::query_as::<_, (bool, Option<String>)>(
            "SELECT requires_review, merge_policy FROM missions WHERE id = ?",
        )
        .bind(m)
        .fetch_optional(&mut **tx)
        .await?
        .map(|(r, p)| (r, p.and_then(|p| serde_json::from_str(&p).ok())))
        .unwrap_or((false, None)),
        None => (false, None),
    };
    let policy = effective_policy(
        task_review,
        mission_review,
        mission_policy.as_ref(),
        policy_at(git.get("mergePolicy")).as_ref(),
    );
    let defaults = MigrationLayout::default();
    let layout = MigrationLayout {
        dir: git
            .get("migrationsPath")
            .and_then(Value::as_str)
            .unwrap_or(&defaults.dir)
            .to_string(),
        schema_file: git
            .get("schemaFile")
            .and_then(Value::as_str)
            .unwrap_or(&defaults.schema_file)
            .to_string(),
    };
    let others: Vec<PrRow> = sqlx::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.workspace_id = ? AND p.state = 'open' \
         AND p.id <> ?"
    ))
    .bind(&pr.workspace_id)
    .bind(&pr.id)
    .fetch_all(&mut **tx)
    .await?;
    let open_migrations: Vec<OpenMigration> = others
        .iter()
        .flat_map(|o| match o.files() {
            Files::Listed(files) => files
                .into_iter()
                .filter(|f| f.status != "removed" && layout.is_migration(&f.path))
                .map(|f| OpenMigration {
                    pr_number: o.number,
                    path: f.path,
                })
                .collect(),
            _ => vec![],
        })
        .collect();
    let checks = checks_of(tx, &pr.id).await?;
    let files = pr.files();
    let evaluation = evaluate_pr(
        &PrFacts {
            number: pr.number,
            head_sha: pr.head_sha.as_deref(),
            files: &files,
            checks: &checks,
            merged: pr.state == "merged",
            closed: pr.state == "closed",
        },
        &RailSettings {
            policy: &policy,
            layout: &layout,
            open_migrations: &open_migrations,
            auto_merge_on_green: git.get("autoMergeOnGreen").and_then(Value::as_bool)
                != Some(false),
        },
    );
    Ok((policy, evaluation))
}

/// Merges `pr` when its evaluation lets it merge by itself; returns whether it merged.
pub async fn maybe_auto_merge(tx: &mut Tx, pr: &PrRow) -> ApiResult<bool> {
    let (_, evaluation) = evaluate(tx, pr).await?;
    if evaluation.auto_merge {
        merge(tx, pr, "auto-merge").await?;
    }
    Ok(evaluation.auto_merge)
}

/// Squash-merges `pr`: the PR, its workers and the release record; then the mission may
/// complete, or plans again.
pub async fn merge(tx: &mut Tx, pr: &PrRow, by: &str) -> ApiResult<()> {
    let at = now();
    sqlx::query(
        "UPDATE pull_requests SET state = 'merged', merged_at = ?, merged_by = ?, updated_at = ? \
         WHERE id = ? AND state = 'open'",
    )
    .bind(&at)
    .bind(by)
    .bind(&at)
    .bind(&pr.id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE workers SET merged_at = ?, pr_lifecycle_status = 'merged', updated_at = ? \
         WHERE workspace_id = ? AND pr_number = ?",
    )
    .bind(&at)
    .bind(&at)
    .bind(&pr.workspace_id)
    .bind(pr.number)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO release_events (id, team_id, workspace_id, pr_id, mission_id, merged_by, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(&pr.team_id)
    .bind(&pr.workspace_id)
    .bind(&pr.id)
    .bind(&pr.mission_id)
    .bind(by)
    .bind(&at)
    .execute(&mut **tx)
    .await?;
    if let Some(mission) = &pr.mission_id {
        let completed = crate::mission_completion::maybe_complete(tx, mission).await?;
        let (open,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM tasks WHERE mission_id = ? \
             AND status NOT IN ('completed', 'failed', 'cancelled')",
        )
        .bind(mission)
        .fetch_one(&mut **tx)
        .await?;
        // With work still open the merge unblocks it; the organizer plans once it is done.
        if !completed && open == 0 {
            let trigger = crate::organizer::Trigger {
                source: "wake:pr_merged",
                task_id: pr.task_id.as_deref(),
            };
            crate::organizer::wake(tx, mission, trigger).await?;
        }
    }
    Ok(())
}
