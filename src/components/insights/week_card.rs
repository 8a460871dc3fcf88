//! One picture of the weeks: its bars, their key, and its table one click away, with what
//! the answers do not carry said in place of the bars.

use super::bar_chart::BarChart;
use super::bars::Bars;
use super::figures_table::FiguresTable;
use crate::components::mission::pictures::legend::Legend;
use crate::components::mission::pictures::picture::Picture;
use leptos::prelude::*;

#[component]
pub fn WeekCard(
    title: &'static str,
    testid: &'static str,
    bars: Memo<Bars>,
    /// Each series' class modifier.
    series: &'static [&'static str],
    value_label: fn(f64) -> String,
    legend: &'static [(&'static str, &'static str)],
    /// What the weeks show, for the summary and the table's caption.
    what: &'static str,
    /// What the answers do not carry, when they do not.
    missing: Option<&'static str>,
    /// Drawn even so, from what they do carry.
    #[prop(optional)]
    partly: bool,
) -> impl IntoView {
    let said = RwSignal::new(None);
    let drawn = partly || missing.is_none();
    let summary = Signal::derive(move || {
        let weeks = bars.with(|b| b.labels.len());
        match bars.with(|b| b.said.last().cloned()) {
            _ if !drawn => "Not known on this server.".to_string(),
            Some(last) => format!("{weeks} weeks of {what}; the latest, {last}."),
            None => format!("No weeks of {what} yet."),
        }
    });
    let rows = Signal::derive(move || {
        bars.with(|b| {
            b.labels
                .iter()
                .zip(&b.said)
                .map(|(l, s)| vec![l.clone(), s.clone()])
                .collect()
        })
    });
    view! {
        <Picture
            title
            testid
            summary
            missing=Signal::derive(move || missing.map(String::from))
            said
            keys="Focus the picture, then ← and → step through the weeks; Home and End go to the ends."
            picture=ViewFn::from(move || {
                drawn
                    .then(|| {
                        view! {
                            <BarChart bars series value_label label=summary testid said />
                            <Legend items=legend />
                        }
                    })
            })
            table=ViewFn::from(move || {
                view! { <FiguresTable caption=what testid heads=&["Week", "Figures"] rows /> }
            })
        />
    }
}
