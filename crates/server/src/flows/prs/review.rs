//! The agent-review tier: a reviewer task for each head commit of a PR, and its verdict
//! applied as buildd-core's `decide_review` says — a merge, a fix on the same branch, or a
//! person. Escalation triggers are taken from the server's file list, before the reviewer
//! runs and again when its verdict lands.

use super::merge::merge;
use super::rails::{context, PrContext};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::notes::system_note;
use crate::store::prs::{
    awaiting_ci, escalate_review, find_pr, insert_review, latest_retry, live_reviews, open_prs,
    pending_review, pr_by_id, record_decision, AwaitingCi, PendingReview, PrRow,
};
use crate::store::tasks::{self, task_by_id, NewTask, TaskRow};
use crate::time::now;
use buildd_core::pr_rails::{Files, PrFacts, RailSettings};
use buildd_core::reviewer::{
    decide_review, escalations, ReviewContext, ReviewOutcome, ReviewerOutput, MAX_REVIEW_ITERATIONS,
};
use buildd_core::reviewer_patch::{render_reviewer_patch, DEFAULT_TOKEN_BUDGET};
use buildd_core::{NoteKind, PrReviewOutcome, PrStatus};
use buildd_core::{TaskCategory, TaskClass};
use serde_json::{json, Value};

/// Reviewer and fix tasks go ahead of ordinary work.
const REVIEW_PRIORITY: i64 = 8;

fn review_context<'a>(
    ctx: &'a PrContext,
    pr: &'a PrRow,
    facts: &'a PrFacts<'a>,
    settings: &'a RailSettings<'a>,
    protected: &'a [String],
    iteration: i64,
) -> ReviewContext<'a> {
    ReviewContext {
        facts,
        settings,
        base_branch: pr.base_branch.as_deref(),
        protected,
        integration_branch: ctx.working_branch.as_deref(),
        iteration,
    }
}

async fn task_title(tx: &mut Tx, id: Option<&str>) -> ApiResult<String> {
    let Some(id) = id else {
        return Ok("a change".into());
    };
    Ok(task_by_id(tx, id)
        .await?
        .map_or_else(|| "a change".into(), |t| t.title))
}

async fn note(
    tx: &mut Tx,
    pr: &PrRow,
    task: Option<&str>,
    kind: NoteKind,
    title: &str,
    body: String,
) -> ApiResult<()> {
    match &pr.mission_id {
        Some(m) => system_note(tx, &pr.team_id, m, task, kind, title, Some(body)).await,
        None => Ok(()),
    }
}

/// What the reviewer is given: the PR, how to answer, and its files — names only, or the
/// patch itself when the workspace turns `policyConfig.reviewerPatchEvidence` on.
fn reviewer_brief(ctx: &PrContext, pr: &PrRow, title: &str, iteration: i64) -> String {
    let head = pr.head_sha.as_deref().unwrap_or_default();
    let mut text = format!(
        "Review PR #{} for \"{title}\" (review {iteration} of at most {MAX_REVIEW_ITERATIONS}): \
         {} into {}, head commit {}.\n\n\
         Answer in structuredOutput: {{\"verdict\": \"approve\" | \"request-changes\" | \"escalate\", \
         \"confidence\": 0 to 1, \"summary\": \"…\", \"feedback\": \"what to fix\", \
         \"escalationReason\": \"why a person must decide\"}}. Cite findings as path:line.\n\n",
        pr.number,
        pr.head_branch.as_deref().unwrap_or("its branch"),
        pr.base_branch.as_deref().unwrap_or("its base"),
        head.get(..7).unwrap_or(head),
    );
    let threshold = ctx
        .policy
        .policy
        .agent_review
        .as_ref()
        .and_then(|a| a.max_confidence_threshold);
    if let Some(t) = threshold {
        text.push_str(&format!(
            "Escalate rather than approve when your confidence is below {t}.\n\n"
        ));
    }
    let evidence = ctx
        .git
        .pointer("/policyConfig/reviewerPatchEvidence")
        .and_then(Value::as_bool)
        == Some(true);
    match &ctx.files {
        Files::Listed(files) if evidence => {
            text.push_str(&render_reviewer_patch(files, DEFAULT_TOKEN_BUDGET).text);
        }
        Files::Listed(files) => {
            text.push_str("Changed files:\n");
            for f in files {
                text.push_str(&format!(
                    "- {} ({}, +{}/-{})\n",
                    f.path, f.status, f.additions, f.deletions
                ));
            }
        }
        _ => text.push_str("The PR's file listing is not available."),
    }
    text
}

/// Starts the review of `pr`'s head commit when its tier is agent-review and that commit has
/// none: a reviewer task, or straight to a person when an escalation trigger already fires.
pub async fn request_review(tx: &mut Tx, pr: &PrRow) -> ApiResult<()> {
    let Some(head) = pr
        .head_sha
        .as_deref()
        .filter(|_| pr.state == PrStatus::Open)
    else {
        return Ok(());
    };
    let ctx = context(tx, pr).await?;
    // A stale review of this commit (its verdict came after the tier changed) does not count.
    let reviewed = ctx
        .reviews
        .iter()
        .any(|r| r.head_sha.as_deref() == Some(head) && !r.is_stale());
    if !ctx.policy.policy.has_reviewer() {
        // Its reviews in flight are not needed any more.
        let why = format!("the PR left agent review ({})", ctx.policy.reason);
        return retire(tx, pr, true, &why).await;
    }
    if reviewed {
        return Ok(());
    }
    supersede(tx, pr).await?;
    // Each requested fix earns one more review; stale and trigger-escalated ones do not count.
    let fixes = ctx
        .reviews
        .iter()
        .filter(|r| r.outcome == Some(PrReviewOutcome::Retry))
        .count() as i64;
    let iteration = fixes + 1;
    let (facts, settings, protected) = (ctx.facts(pr), ctx.settings(), ctx.protected_branches());
    let triggers = escalations(&review_context(
        &ctx, pr, &facts, &settings, &protected, iteration,
    ));
    let title = task_title(tx, pr.task_id.as_deref()).await?;
    if !triggers.is_empty() {
        insert_review(
            tx,
            pr,
            iteration,
            None,
            Some(PrReviewOutcome::Escalated),
            &triggers,
        )
        .await?;
        let heading = format!("PR #{} escalated to you before review", pr.number);
        return note(
            tx,
            pr,
            pr.task_id.as_deref(),
            NoteKind::ReviewerEscalated,
            &heading,
            triggers.join("\n\n"),
        )
        .await;
    }
    let Some(root) = &pr.task_id else {
        return Ok(());
    };
    let role = ctx
        .policy
        .policy
        .agent_review
        .as_ref()
        .map(|a| a.reviewer_role.clone());
    let reviewer = NewTask {
        mission_id: pr.mission_id.clone(),
        parent_task_id: Some(root.clone()),
        description: Some(reviewer_brief(&ctx, pr, &title, iteration)),
        context: json!({"reviewerFor": root, "prNumber": pr.number, "headSha": head,
                        "headBranch": pr.head_branch, "iteration": iteration}),
        task_class: TaskClass::Attempt,
        category: Some(TaskCategory::Review),
        role_slug: role,
        output_requirement: "none".into(),
        creation_source: Some("reviewer".into()),
        priority: REVIEW_PRIORITY,
        ..NewTask::new(
            &pr.team_id,
            &pr.workspace_id,
            format!("[reviewer] PR #{}: {title}", pr.number),
        )
    };
    tasks::insert(tx, &reviewer).await?;
    insert_review(tx, pr, iteration, Some(&reviewer.id), None, &[]).await
}

/// Reviews of older commits still open are stale once a newer commit is pushed: their
/// reviewers stop, and nothing they say is used.
async fn supersede(tx: &mut Tx, pr: &PrRow) -> ApiResult<()> {
    let why = "a newer commit was pushed: this review is stale";
    retire(tx, pr, false, why).await
}

/// Ends the live reviews of `pr` — those of other commits, or with `all` every one — as
/// stale with `why`, and stops their reviewers.
async fn retire(tx: &mut Tx, pr: &PrRow, all: bool, why: &str) -> ApiResult<()> {
    for (review, reviewer) in live_reviews(tx, pr, all).await? {
        record_decision(
            tx,
            &review,
            None,
            PrReviewOutcome::Stale,
            &[why.to_string()],
        )
        .await?;
        if let Some(task) = reviewer {
            tasks::cancel(tx, &task, &now()).await?;
        }
    }
    Ok(())
}

/// Applies the verdict of reviewer task `task`, checked against the PR as it is now.
pub async fn apply_verdict(tx: &mut Tx, task: &TaskRow, output: &ReviewerOutput) -> ApiResult<()> {
    let Some(review) = pending_review(tx, &task.id).await? else {
        return Ok(());
    };
    let pr = pr_by_id(tx, &review.pr_id).await?;
    if pr.state != PrStatus::Open || pr.head_sha != review.head_sha {
        let why = if pr.state != PrStatus::Open {
            format!("the PR is already {}: the verdict is not needed", pr.state)
        } else {
            "the PR's head changed since the review began: the verdict is stale".into()
        };
        return record_decision(tx, &review.id, Some(output), PrReviewOutcome::Stale, &[why]).await;
    }
    settle(tx, &pr, &review, Some(&task.id), output).await
}

/// Decides what `output` on `review` leads to now, records it and carries it out.
async fn settle(
    tx: &mut Tx,
    pr: &PrRow,
    review: &PendingReview,
    reviewer: Option<&str>,
    output: &ReviewerOutput,
) -> ApiResult<()> {
    let ctx = context(tx, pr).await?;
    if !ctx.policy.policy.has_reviewer() {
        let why = [format!(
            "the PR is no longer under agent review ({}): the verdict is not used",
            ctx.policy.reason
        )];
        return record_decision(tx, &review.id, Some(output), PrReviewOutcome::Stale, &why).await;
    }
    let (facts, settings, protected) = (ctx.facts(pr), ctx.settings(), ctx.protected_branches());
    let rc = review_context(&ctx, pr, &facts, &settings, &protected, review.iteration);
    let outcome = decide_review(output, &rc);
    let reasons = match &outcome {
        ReviewOutcome::Escalate(r) => r.clone(),
        _ => vec![],
    };
    record_decision(tx, &review.id, Some(output), outcome.recorded(), &reasons).await?;
    let n = pr.number;
    let summary = output.summary.clone();
    match outcome {
        ReviewOutcome::Merge => {
            merge(
                tx,
                pr,
                &format!("reviewer:{}", reviewer.unwrap_or("approval")),
            )
            .await?;
            note(
                tx,
                pr,
                reviewer,
                NoteKind::ReviewerApproved,
                &format!("PR #{n} approved by the reviewer and merged"),
                summary,
            )
            .await
        }
        ReviewOutcome::AwaitingPerson => {
            note(
                tx,
                pr,
                reviewer,
                NoteKind::ReviewerApproved,
                &format!("PR #{n} approved by the reviewer: merge it when ready"),
                summary,
            )
            .await
        }
        // Decided again when CI reports for this commit.
        ReviewOutcome::AwaitingCi => Ok(()),
        ReviewOutcome::Retry { next_iteration } => {
            let feedback = output.feedback.clone().unwrap_or_else(|| summary.clone());
            open_fix(tx, pr, &feedback, review.iteration, next_iteration).await?;
            let title = format!(
                "PR #{n}: the reviewer requested changes (review {} of {MAX_REVIEW_ITERATIONS})",
                review.iteration
            );
            note(
                tx,
                pr,
                reviewer,
                NoteKind::ReviewerRequestChanges,
                &title,
                feedback,
            )
            .await
        }
        ReviewOutcome::Escalate(reasons) => {
            let body = format!("{}\n\n{summary}", reasons.join("\n\n"));
            note(
                tx,
                pr,
                reviewer,
                NoteKind::ReviewerEscalated,
                &format!("PR #{n} escalated to you"),
                body,
            )
            .await
        }
    }
}

/// An approval that waited for CI is decided again now that CI reported on `pr`.
pub async fn recheck_approval(tx: &mut Tx, pr: &PrRow) -> ApiResult<()> {
    let Some(AwaitingCi {
        review,
        reviewer_task_id: reviewer,
        confidence,
        summary,
    }) = awaiting_ci(tx, pr).await?
    else {
        return Ok(());
    };
    let output = ReviewerOutput {
        verdict: "approve".into(),
        confidence: confidence.unwrap_or_default(),
        summary: summary.unwrap_or_default(),
        feedback: None,
        escalation_reason: None,
    };
    settle(tx, pr, &review, reviewer.as_deref(), &output).await
}

/// A fix for the reviewer's findings, on the PR's own branch.
async fn open_fix(
    tx: &mut Tx,
    pr: &PrRow,
    feedback: &str,
    iteration: i64,
    next: i64,
) -> ApiResult<()> {
    let title = task_title(tx, pr.task_id.as_deref()).await?;
    let branch = pr.head_branch.clone().unwrap_or_default();
    let context = json!({"headBranch": branch, "resumeBranch": branch, "baseBranch": pr.base_branch,
                         "prNumber": pr.number, "iteration": next, "maxIterations": MAX_REVIEW_ITERATIONS,
                         "reviewFeedback": feedback});
    let fix = NewTask {
        mission_id: pr.mission_id.clone(),
        parent_task_id: pr.task_id.clone(),
        description: Some(format!(
            "The reviewer requested changes on PR #{} (review {iteration} of {MAX_REVIEW_ITERATIONS}). \
             Push the fix to `{branch}` and report the same PR.\n\n{feedback}",
            pr.number
        )),
        context,
        task_class: TaskClass::Attempt,
        output_requirement: "pr_required".into(),
        creation_source: Some("reviewer".into()),
        priority: REVIEW_PRIORITY,
        ..NewTask::new(&pr.team_id, &pr.workspace_id, format!("[reviewer retry] {title}"))
    };
    tasks::insert(tx, &fix).await
}

/// A reviewer task that ended without a verdict (failed or cancelled), or a fix that ended
/// without pushing a new commit, leaves the PR to a person rather than waiting forever.
pub async fn review_run_ended(tx: &mut Tx, task: &TaskRow) -> ApiResult<()> {
    if let Some(review) = pending_review(tx, &task.id).await? {
        let pr = pr_by_id(tx, &review.pr_id).await?;
        if pr.state != PrStatus::Open || pr.head_sha != review.head_sha {
            let why = ["the reviewer stopped after the PR moved on".to_string()];
            return record_decision(tx, &review.id, None, PrReviewOutcome::Stale, &why).await;
        }
        let why = format!("the reviewer run ended without a verdict ({})", task.status);
        return to_a_person(tx, &pr, task, &review.id, why).await;
    }
    fix_ended(tx, task).await
}

/// A fix the reviewer asked for ended; unless it pushed a commit that is now under review,
/// the PR goes to a person.
async fn fix_ended(tx: &mut Tx, task: &TaskRow) -> ApiResult<()> {
    let context: Value = serde_json::from_str(&task.context).unwrap_or_default();
    let (Some(number), true) = (
        context.get("prNumber").and_then(Value::as_i64),
        context.get("reviewFeedback").is_some(),
    ) else {
        return Ok(());
    };
    let Some(pr) = find_pr(tx, &task.workspace_id, number).await? else {
        return Ok(());
    };
    // The review that asked for this fix, still the latest on the PR's head.
    let asked = latest_retry(tx, &pr).await?;
    let Some(review) = asked.filter(|_| pr.state == PrStatus::Open) else {
        return Ok(());
    };
    let why = format!(
        "the fix the reviewer asked for ended without a new commit ({})",
        task.status
    );
    to_a_person(tx, &pr, task, &review, why).await
}

/// Sends `pr` to a person: `review` is escalated with `why` (its verdict kept), and the
/// mission's feed says so.
async fn to_a_person(
    tx: &mut Tx,
    pr: &PrRow,
    task: &TaskRow,
    review: &str,
    why: String,
) -> ApiResult<()> {
    escalate_review(tx, review, &why).await?;
    let title = format!("PR #{} escalated to you", pr.number);
    note(
        tx,
        pr,
        Some(&task.id),
        NoteKind::ReviewerEscalated,
        &title,
        why,
    )
    .await
}

/// Starts the reviews a policy change calls for: open PRs of `mission` (or of every mission
/// in `workspace`) now under agent-review without a review of their head.
pub async fn start_reviews(
    tx: &mut Tx,
    mission: Option<&str>,
    workspace: Option<&str>,
) -> ApiResult<()> {
    for pr in &open_prs(tx, mission, workspace).await? {
        request_review(tx, pr).await?;
    }
    Ok(())
}
