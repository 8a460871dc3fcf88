//! What a PR is judged by — its effective merge policy, migration layout, CI checks, file
//! listing, reviews and the workspace's switches — read once, and its rail evaluation
//! (buildd-core's `evaluate_pr`).

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::missions::mission_by_id;
use crate::store::prs::{checks_of, other_open_prs, reviews_of, PrRow};
use crate::store::tasks::task_by_id;
use crate::store::workspaces::git_config;
use buildd_core::merge_policy::{effective_policy, EffectivePolicy};
use buildd_core::merge_rails::GitMergeConfig;
use buildd_core::migrations::{MigrationLayout, OpenMigration};
use buildd_core::pr_rails::{evaluate_pr, Files, PrFacts, RailSettings};
use buildd_core::pull_request::{CheckRun, PrEvaluation, PrReview, ReviewStatus};
use buildd_core::{FileStatus, PrStatus};
use serde_json::Value;

/// Everything a PR is judged by, read once.
pub struct PrContext {
    pub policy: EffectivePolicy,
    pub layout: MigrationLayout,
    pub open_migrations: Vec<OpenMigration>,
    pub checks: Vec<CheckRun>,
    pub files: Files,
    /// The workspace's `gitConfig`.
    pub git: Value,
    /// Whether green auto-threshold PRs merge by themselves there.
    pub auto_merge_on_green: bool,
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
            merged: pr.state == PrStatus::Merged,
            closed: pr.state == PrStatus::Closed,
            review: self.review_status(pr),
        }
    }

    pub fn settings(&self) -> RailSettings<'_> {
        RailSettings {
            policy: &self.policy,
            layout: &self.layout,
            open_migrations: &self.open_migrations,
            auto_merge_on_green: self.auto_merge_on_green,
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

/// Reads what `pr` is judged by now.
pub async fn context(tx: &mut Tx, pr: &PrRow) -> ApiResult<PrContext> {
    let git: Value =
        serde_json::from_str(&git_config(tx, &pr.workspace_id).await?).unwrap_or(Value::Null);
    let task_review = match &pr.task_id {
        Some(t) => task_by_id(tx, t).await?.is_some_and(|t| t.requires_review),
        None => false,
    };
    let mission = match &pr.mission_id {
        Some(m) => mission_by_id(tx, m).await?,
        None => None,
    };
    let (mission_review, mission_policy, working_branch) = match mission {
        Some(m) => (
            m.requires_review,
            m.merge_policy.and_then(|p| serde_json::from_str(&p).ok()),
            m.working_branch,
        ),
        None => (false, None, None),
    };
    let config = GitMergeConfig::of(&git);
    let policy = effective_policy(
        task_review,
        mission_review,
        mission_policy.as_ref(),
        config.policy.as_ref(),
    );
    let layout = config.layout();
    let others = other_open_prs(tx, &pr.workspace_id, &pr.id).await?;
    let open_migrations: Vec<OpenMigration> = others
        .iter()
        .flat_map(|o| match o.files() {
            Files::Listed(files) => files
                .into_iter()
                .filter(|f| f.status != FileStatus::Removed && layout.is_migration(&f.path))
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
        auto_merge_on_green: config.auto_merge_on_green,
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
