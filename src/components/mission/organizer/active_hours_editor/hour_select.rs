//! `<HourSelect>`: one end of the active-hours window, a whole hour of the day.

use super::hours_draft::hh;
use leptos::prelude::*;

#[component]
pub fn HourSelect(
    /// The hour chosen (tracked).
    value: impl Fn() -> u32 + Send + 'static,
    set: impl Fn(u32) + 'static,
    /// Both the `id` its label points at and its `data-testid`.
    id: &'static str,
) -> impl IntoView {
    view! {
        <select
            id=id
            data-testid=id
            prop:value=move || value().to_string()
            on:change=move |ev| set(event_target_value(&ev).parse().unwrap_or(0))
        >
            {(0..24).map(|h| view! { <option value=h.to_string()>{hh(h)}</option> }).collect_view()}
        </select>
    }
}
