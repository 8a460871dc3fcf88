//! The dependency-wave picture of a plan: one column per wave (steps that can run once the
//! waves before them are done), one box per step, a line per dependency. On a revision,
//! steps added or changed since the one it replaces are marked in words and outline.

use buildd_core::plan_diff::StepChange;
use buildd_core::plan_output::{PlanStep, ResolvedPlan};
use leptos::prelude::*;

const BOX_W: usize = 150;
const BOX_H: usize = 40;
const GAP_X: usize = 50;
const GAP_Y: usize = 14;

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max - 1).collect::<String>())
    }
}

#[component]
pub fn PlanWaves(
    steps: Vec<PlanStep>,
    resolved: ResolvedPlan,
    /// Each step's change since the revision this one replaces; empty for a first plan.
    #[prop(optional)]
    changes: Vec<Option<StepChange>>,
) -> impl IntoView {
    let mark = |i: usize| match changes.get(i).copied().flatten() {
        Some(StepChange::Added) => Some("added"),
        Some(StepChange::Changed) => Some("changed"),
        _ => None,
    };
    let (added, changed) = (0..steps.len()).fold((0, 0), |(a, c), i| match mark(i) {
        Some("added") => (a + 1, c),
        Some(_) => (a, c + 1),
        None => (a, c),
    });
    // Where each step's box sits.
    let mut at = vec![(0usize, 0usize); steps.len()];
    for (w, wave) in resolved.waves.iter().enumerate() {
        for (row, &i) in wave.iter().enumerate() {
            at[i] = (w * (BOX_W + GAP_X), 24 + row * (BOX_H + GAP_Y));
        }
    }
    let width = resolved.waves.len() * (BOX_W + GAP_X) - GAP_X;
    let tallest = resolved.waves.iter().map(Vec::len).max().unwrap_or(0);
    let height = 24 + tallest * (BOX_H + GAP_Y);
    let edges = resolved
        .depends_on
        .iter()
        .enumerate()
        .flat_map(|(i, deps)| deps.iter().map(move |&d| (d, i)))
        .map(|(from, to)| {
            let (x1, y1) = (at[from].0 + BOX_W, at[from].1 + BOX_H / 2);
            let (x2, y2) = (at[to].0, at[to].1 + BOX_H / 2);
            view! { <line class="waves__edge" x1=x1 y1=y1 x2=x2 y2=y2></line> }
        })
        .collect_view();
    let labels = (0..resolved.waves.len())
        .map(|w| {
            view! {
                <text class="waves__label" x=w * (BOX_W + GAP_X) y=14>
                    {format!("Wave {}", w + 1)}
                </text>
            }
        })
        .collect_view();
    let boxes = steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let (x, y) = at[i];
            let mark = mark(i);
            let class = match mark {
                Some(m) => format!("waves__step waves__step--{m}"),
                None => "waves__step".to_string(),
            };
            let title = match mark {
                Some(m) => format!("{}: {} ({m})", step.step_ref, step.title),
                None => format!("{}: {}", step.step_ref, step.title),
            };
            let ref_room = if mark.is_some() { 12 } else { 20 };
            view! {
                <g class=class>
                    <title>{title}</title>
                    <rect x=x y=y width=BOX_W height=BOX_H rx=6></rect>
                    <text x=x + 8 y=y + 16 class="waves__ref">
                        {truncate(&step.step_ref, ref_room)}
                    </text>
                    {mark
                        .map(|m| {
                            view! {
                                <text
                                    x=x + BOX_W - 8
                                    y=y + 16
                                    text-anchor="end"
                                    class="waves__mark"
                                >
                                    {m}
                                </text>
                            }
                        })}
                    <text x=x + 8 y=y + 32>
                        {truncate(&step.title, 22)}
                    </text>
                </g>
            }
        })
        .collect_view();
    let marked = match (added, changed) {
        (0, 0) => String::new(),
        (a, c) => format!("; {a} added, {c} changed since the last revision"),
    };
    view! {
        <div class="waves">
            <svg
                viewBox=format!("0 0 {width} {height}")
                width=width
                height=height
                role="img"
                aria-label=format!(
                    "{} steps in {} waves; {} can start at once{marked}",
                    steps.len(),
                    resolved.waves.len(),
                    resolved.waves.first().map_or(0, Vec::len),
                )
                data-testid="plan-waves"
            >
                {labels}
                {edges}
                {boxes}
            </svg>
        </div>
    }
}
