//! The burn-up as a table: a row a moment the counts changed, its figures in columns, then
//! the moments marked. What a screen reader reads instead of the picture.

use super::burn_up_chart::BANDS;
use super::frame::moment;
use buildd_core::insights::burn_up::BurnUp;
use leptos::prelude::*;

#[component]
pub fn BurnUpTable(burn: Memo<BurnUp>) -> impl IntoView {
    let rows = move || {
        burn.with(|b| {
            b.points
                .iter()
                .map(|p| {
                    let counts = [
                        p.done,
                        p.awaiting_merge,
                        p.in_flight,
                        p.failed,
                        p.not_started,
                    ];
                    view! {
                        <tr>
                            <th scope="row">{moment(p.at_ms)}</th>
                            {counts.map(|c| view! { <td>{c}</td> }).collect_view()}
                            <td>{p.total()}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let marked = move || {
        burn.with(|b| {
            (!b.markers.is_empty()).then(|| {
                let rows = b.markers.iter().map(|m| {
                    view! {
                        <tr>
                            <th scope="row">{moment(m.at_ms)}</th>
                            <td>{m.label.clone()}</td>
                        </tr>
                    }
                });
                view! {
                    <table class="pic__table" data-testid="burn-up-markers-table">
                        <caption>"Moments marked"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"When"</th>
                                <th scope="col">"What"</th>
                            </tr>
                        </thead>
                        <tbody>{rows.collect_view()}</tbody>
                    </table>
                }
            })
        })
    };
    view! {
        <div class="pic__tables" role="region" aria-label="Burn-up as a table" tabindex="0">
            <table class="pic__table" data-testid="burn-up-table">
                <caption>"Deliverables at each moment they moved, oldest first"</caption>
                <thead>
                    <tr>
                        <th scope="col">"When"</th>
                        {BANDS
                            .map(|(_, label)| view! { <th scope="col">{label}</th> })
                            .collect_view()}
                        <th scope="col">"Total"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            {marked}
        </div>
    }
}
