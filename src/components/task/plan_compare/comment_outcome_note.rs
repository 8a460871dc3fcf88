//! `<CommentOutcomeNote>`: a comment pinned to a step of the previous revision, with what
//! became of it.

use crate::components::shared::inline_markdown::InlineMarkdown;
use buildd_core::plan_feedback::{CommentOutcome, StepComment};
use leptos::prelude::*;

/// What became of a comment, in words.
pub fn outcome_words(outcome: CommentOutcome) -> &'static str {
    match outcome {
        CommentOutcome::Changed => "addressed: the step changed",
        CommentOutcome::Removed => "addressed: the step was removed",
        CommentOutcome::Unchanged => "unchanged: the step is as it was",
    }
}

/// A comment with what became of it, beside its step.
#[component]
pub fn CommentOutcomeNote(comment: StepComment, outcome: CommentOutcome) -> impl IntoView {
    let tone = if outcome.is_addressed() {
        "comment-outcome comment-outcome--addressed"
    } else {
        "comment-outcome comment-outcome--unchanged"
    };
    let state = if outcome.is_addressed() {
        "addressed"
    } else {
        "unchanged"
    };
    view! {
        <p class=tone data-testid="comment-outcome" data-outcome=state>
            <strong>{outcome_words(outcome)}</strong>
            " — your comment: "
            <q>
                <InlineMarkdown source=comment.comment />
            </q>
        </p>
    }
}
