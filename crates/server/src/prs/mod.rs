//! Pull requests: reported by workers, checked by CI, evaluated against the merge policy's
//! rails (buildd-core's `evaluate_pr`), merged automatically when the auto-threshold tier
//! allows it, on a reviewer's approval under agent-review, or by a person otherwise. A merge
//! is a squash and records a release.

mod endpoints;
mod record;
mod review;
mod stalls;

pub use endpoints::{list, merge_endpoint, record_check};
pub use record::record_pr;
pub use review::{
    apply_verdict, recheck_approval, request_review, review_run_ended, start_reviews,
};
pub use stalls::notify_stalls;

use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::merge_policy::{effective_policy, EffectivePolicy, MergePolicy};
use buildd_core::migrations::{MigrationLayout, OpenMigration};
use buildd_core::pr_rails::{evaluate_pr, Files, PrFacts, RailSettings};
use buildd_core::pull_request::{CheckRun, PrEvaluation, PrFile, PrReview, ReviewStatus};
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
    pub updated_at: String,
    pub stall_notified_at: Option<String>,
}

pub const PR_COLUMNS: &str = "p.id, p.team_id, p.workspace_id, p.task_id, p.mission_id, \
    p.number, p.url, p.base_branch, p.head_branch, p.head_sha, p.files, p.files_state, \
    p.state, p.merged_at, p.created_at, p.updated_at, p.stall_notified_at";

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

/// Everything a PR is judged by, read once.
pub struct PrContext {
    pub policy: EffectivePolicy,
    pub layout: MigrationLayout,
    pub open_migrations: Vec<OpenMigration>,
    pub checks: Vec<CheckRun>,
    pub files: Files,
    /// The workspace's `gitConfig`.
    pub git: Value,
    /// Reviews under the agent-review tier, newest first.
    pub reviews: Vec<PrReview>,
    /// The mission's integration branch, the only one a reviewer's approval merges into.
    pub working_branch: Option<String>,
}

impl PrContext {
    /// Where the reviewer stands on the head commit.
    pub fn review_status(&self, pr: &PrRow) -> ReviewStatus {
        self.reviews
            .first()
            .filter(|r| r.head_sha.is_some() && r.head_sha == pr.head_sha)
            .map(PrReview::status)
            .unwrap_or_default()
    }

    pub fn facts<'a>(&'a self, pr: &'a PrRow) -> PrFacts<'a> {
        PrFacts {
            number: pr.number,
            head_sha: pr.head_sha.as_deref(),
            files: &self.files,
            checks: &self.checks,
            merged: pr.state == "merged",
            closed: pr.state == "closed",
            review: self.review_status(pr),
        }
    }

    pub fn settings(&self) -> RailSettings<'_> {
        RailSettings {
            policy: &self.policy,
            layout: &self.layout,
            open_migrations: &self.open_migrations,
            auto_merge_on_green: self.git.get("autoMergeOnGreenCI").and_then(Value::as_bool)
                != Some(false),
        }
    }

    /// Branches a reviewer's approval never merges into.
    pub fn protected_branches(&self) -> Vec<String> {
        let mut branches = vec!["main".to_string()];
        for key in ["targetBranch", "defaultBranch", "prodBranch"] {
            if let Some(b) = self.git.get(key).and_then(Value::as_str) {
                branches.push(b.to_string());
            }
        }
        branches
    }

    pub fn evaluation(&self, pr: &PrRow) -> PrEvaluation {
        evaluate_pr(&self.facts(pr), &self.settings())
    }
}

async fn reviews_of(tx: &mut Tx, pr_id: &str) -> ApiResult<Vec<PrReview>> {
    type Row = (
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<f64>,
        Option<String>,
        Option<String>,
        String,
        String,
        Option<String>,
    );
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT iteration, head_sha, reviewer_task_id, verdict, confidence, summary, outcome, \
         reasons, created_at, decided_at FROM pr_reviews WHERE pr_id = ? \
         ORDER BY created_at DESC, rowid DESC",
    )
    .bind(pr_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| PrReview {
            iteration: r.0,
            head_sha: r.1,
            reviewer_task_id: r.2,
            verdict: r.3,
            confidence: r.4,
            summary: r.5,
            outcome: r.6,
            reasons: serde_json::from_str(&r.7).unwrap_or_default(),
            created_at: r.8,
            decided_at: r.9,
        })
        .collect())
}

/// Reads what `pr` is judged by now.
pub async fn context(tx: &mut Tx, pr: &PrRow) -> ApiResult<PrContext> {
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
    let (mission_review, mission_policy, working_branch) = match &pr.mission_id {
        Some(m) => sqlx::query_as::<_, (bool, Option<String>, Option<String>)>(
            "SELECT requires_review, merge_policy, working_branch FROM missions WHERE id = ?",
        )
        .bind(m)
        .fetch_optional(&mut **tx)
        .await?
        .map(|(r, p, b)| (r, p.and_then(|p| serde_json::from_str(&p).ok()), b))
        .unwrap_or((false, None, None)),
        None => (false, None, None),
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
    Ok(PrContext {
        policy,
        layout,
        open_migrations,
        checks: checks_of(tx, &pr.id).await?,
        files: pr.files(),
        git,
        reviews: reviews_of(tx, &pr.id).await?,
        working_branch,
    })
}

/// The policy and rail evaluation of `pr` now.
pub async fn evaluate(tx: &mut Tx, pr: &PrRow) -> ApiResult<(EffectivePolicy, PrEvaluation)> {
    let ctx = context(tx, pr).await?;
    let evaluation = ctx.evaluation(pr);
    Ok((ctx.policy, evaluation))
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
