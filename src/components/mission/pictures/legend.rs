//! A picture's key: a swatch and a word for each colour or line, so nothing is told by
//! colour alone (the swatches take the same theme tokens as the picture).

use leptos::prelude::*;

#[component]
pub fn Legend(
    /// (swatch modifier, words), in the order drawn.
    items: &'static [(&'static str, &'static str)],
) -> impl IntoView {
    view! {
        <ul class="legend pic__legend">
            {items
                .iter()
                .map(|(key, label)| {
                    view! {
                        <li class="legend__item">
                            <span class=format!("pic__swatch pic__swatch--{key}")></span>
                            {*label}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
