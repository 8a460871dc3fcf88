//! A revised plan set against the revision it replaces (buildd-core's `diff_plans`), so a
//! reviewer reads only what changed since they sent it back: steps added, removed and
//! changed, which fields changed, and a changed description word by word. Insertions and
//! deletions are `<ins>`/`<del>` with their kind in words, never told by colour alone.

use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::state::rows::{row_memo, unique_keys};
use buildd_core::plan_diff::{diff_plans, PlanDiff, StepChange, StepDiff};
use buildd_core::plan_feedback::{comment_outcome, CommentOutcome, StepComment};
use buildd_core::plan_output::PlanStep;
use buildd_core::word_diff::WordSegment;
use leptos::prelude::*;

/// A revision compared with the one before it, and what became of the comments pinned to
/// that one's steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// The number of the revision compared with.
    pub against: usize,
    pub diff: PlanDiff,
    pub comments: Vec<(StepComment, CommentOutcome)>,
}

impl Comparison {
    pub fn of(
        against: usize,
        old: &[PlanStep],
        new: &[PlanStep],
        comments: &[StepComment],
    ) -> Self {
        let diff = diff_plans(old, new);
        let comments = comments
            .iter()
            .map(|c| (c.clone(), comment_outcome(c, &diff)))
            .collect();
        Self {
            against,
            diff,
            comments,
        }
    }

    /// How the step that has `new_ref` in this revision changed.
    pub fn change_of(&self, new_ref: &str) -> Option<StepChange> {
        self.diff
            .steps
            .iter()
            .find(|s| s.new_ref.as_deref() == Some(new_ref))
            .map(|s| s.change)
    }

    /// The comments on the step that became `step` here, or (for a removed step) was it.
    pub fn comments_on(&self, step: &StepDiff) -> Vec<(StepComment, CommentOutcome)> {
        let Some(old_ref) = step.old_ref.as_deref() else {
            return Vec::new();
        };
        self.comments
            .iter()
            .filter(|(c, _)| c.step_ref == old_ref)
            .cloned()
            .collect()
    }

    /// The comments on the step that has `new_ref` in this revision.
    pub fn comments_on_ref(&self, new_ref: &str) -> Vec<(StepComment, CommentOutcome)> {
        self.diff
            .steps
            .iter()
            .find(|s| s.new_ref.as_deref() == Some(new_ref))
            .map(|s| self.comments_on(s))
            .unwrap_or_default()
    }

    /// "1 added · 1 removed · 1 changed · 2 unchanged", naming only what is there.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = [
            StepChange::Added,
            StepChange::Removed,
            StepChange::Changed,
            StepChange::Unchanged,
        ]
        .into_iter()
        .filter_map(|change| {
            let n = self.diff.count(change);
            (n > 0).then(|| format!("{n} {}", change.label()))
        })
        .collect();
        if self.diff.is_unchanged() {
            format!("No step changed ({})", parts.join(" · "))
        } else {
            parts.join(" · ")
        }
    }
}

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

fn word_diff_view(segments: Vec<WordSegment>) -> impl IntoView {
    segments
        .into_iter()
        .map(|s| match s {
            WordSegment::Same(t) => view! { <span>{t}</span> }.into_any(),
            WordSegment::Added(t) => view! {
                <ins>
                    <span class="sr-only">"[added: "</span>
                    {t}
                    <span class="sr-only">"]"</span>
                </ins>
            }
            .into_any(),
            WordSegment::Removed(t) => view! {
                <del>
                    <span class="sr-only">"[removed: "</span>
                    {t}
                    <span class="sr-only">"]"</span>
                </del>
            }
            .into_any(),
        })
        .enumerate()
        .map(|(i, v)| {
            view! {
                {(i > 0).then_some(" ")}
                {v}
            }
        })
        .collect_view()
}

fn refs(list: &[String]) -> String {
    list.iter()
        .map(|r| format!("`{r}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn step_key(step: &StepDiff) -> String {
    match (&step.new_ref, &step.old_ref) {
        (Some(new), _) => format!("now {new}"),
        (None, Some(old)) => format!("was {old}"),
        (None, None) => String::new(),
    }
}

#[component]
fn ChangedStep(step: Memo<StepDiff>, comparison: Memo<Comparison>) -> impl IntoView {
    let change = move || step.with(|s| s.change);
    let head = move || {
        step.with(|s| {
            let shown_ref = s
                .new_ref
                .clone()
                .or_else(|| s.old_ref.clone())
                .unwrap_or_default();
            let renamed = match (&s.old_ref, &s.new_ref) {
                (Some(old), Some(new)) if old != new => Some(format!(" (was {old})")),
                _ => None,
            };
            view! {
                <span class=format!(
                    "badge step-change step-change--{}",
                    s.change.label(),
                )>{s.change.label()}</span>
                <code class="step-card__ref">{shown_ref}</code>
                {renamed}
                <strong>{s.title.clone()}</strong>
            }
        })
    };
    let fields = move || {
        step.with(|s| {
            (!s.fields.is_empty()).then(|| {
                let names: Vec<&str> = s.fields.iter().map(|f| f.label()).collect();
                view! {
                    <p class="small" data-testid="compare-fields">
                        {format!("Changed: {}", names.join(", "))}
                    </p>
                }
            })
        })
    };
    let description = move || {
        step.with(|s| {
            s.description.clone().map(|segments| {
                view! {
                    <p class="word-diff small" data-testid="word-diff">
                        {word_diff_view(segments)}
                    </p>
                }
            })
        })
    };
    let dependencies = move || {
        step.with(|s| {
            let mut parts = Vec::new();
            if !s.dependencies_added.is_empty() {
                parts.push(format!("now depends on {}", refs(&s.dependencies_added)));
            }
            if !s.dependencies_removed.is_empty() {
                parts.push(format!("no longer on {}", refs(&s.dependencies_removed)));
            }
            (!parts.is_empty()).then(|| {
                let mut line = parts.join("; ");
                if let Some(first) = line.get_mut(..1) {
                    first.make_ascii_uppercase();
                }
                view! {
                    <p class="small" data-testid="compare-dependencies">
                        <InlineMarkdown source=line />
                    </p>
                }
            })
        })
    };
    let comments = move || {
        let on = step.with(|s| comparison.with(|c| c.comments_on(s)));
        on.into_iter()
            .map(|(comment, outcome)| view! { <CommentOutcomeNote comment outcome /> })
            .collect_view()
    };
    view! {
        <li
            class="plan-compare__step"
            data-testid="compare-step"
            data-change=move || change().label()
        >
            <div class="step-card__head">{head}</div>
            {fields}
            {description}
            {dependencies}
            // A removed step has no card of its own: its comments are told here.
            {move || (change() == StepChange::Removed).then(comments)}
        </li>
    }
}

/// What changed since the revision this one replaces.
#[component]
pub fn PlanCompare(comparison: Memo<Comparison>) -> impl IntoView {
    let shown = Memo::new(move |_| {
        comparison.with(|c| {
            c.diff
                .steps
                .iter()
                .filter(|s| s.change != StepChange::Unchanged)
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let keys = Memo::new(move |_| shown.with(|s| unique_keys(s.iter().map(step_key))));
    let row = move |key: String| {
        let step = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            shown.with(|s| s.get(at).cloned())
        });
        view! { <ChangedStep step comparison /> }
    };
    view! {
        <section class="plan-compare" data-testid="plan-compare">
            <h3>{move || format!("Compared with revision {}", comparison.with(|c| c.against))}</h3>
            <p class="small" data-testid="plan-compare-summary">
                {move || comparison.with(Comparison::summary)}
            </p>
            <p class="muted small" class:hidden=move || shown.with(Vec::is_empty)>
                "Struck-through words were removed, underlined words added."
            </p>
            <ul class="plan-compare__steps">
                <For each=move || keys.get() key=String::clone children=row />
            </ul>
        </section>
    }
}
