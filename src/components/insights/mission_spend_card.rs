//! Spend by mission over the weeks read: a bar a mission, most spent first, for the team or
//! one workspace. Buildd's answers carry no spend: said in place.

use super::bar_chart::BarChart;
use super::bars::Bars;
use super::figures_table::FiguresTable;
use super::week_cards::{of, NO_SPEND};
use crate::components::mission::pictures::picture::Picture;
use buildd_core::insights::weekly::Week;
use buildd_core::money::Usd;
use leptos::prelude::*;
use std::collections::HashMap;

/// (mission, spend) over `weeks`, most first.
fn by_mission(weeks: &[Week], ws: Option<&str>) -> Vec<(Option<String>, Usd)> {
    let mut sums: HashMap<Option<String>, Usd> = HashMap::new();
    for w in weeks {
        for m in &of(w, ws).spend_by_mission {
            *sums.entry(m.mission_id.clone()).or_default() += m.spend;
        }
    }
    let mut sums: Vec<_> = sums.into_iter().collect();
    sums.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    sums
}

#[component]
pub fn MissionSpendCard(
    weeks: Memo<Vec<Week>>,
    ws: Memo<Option<String>>,
    /// A mission's title by id.
    titles: Memo<HashMap<String, String>>,
    hosted: bool,
) -> impl IntoView {
    let said = RwSignal::new(None);
    let name = move |id: &Option<String>| match id {
        Some(id) => titles
            .with(|t| t.get(id).cloned())
            .unwrap_or_else(|| id.clone()),
        None => "No mission".into(),
    };
    let spent = Memo::new(move |_| weeks.with(|w| ws.with(|ws| by_mission(w, ws.as_deref()))));
    let bars = Memo::new(move |_| {
        spent.with(|s| Bars {
            labels: s
                .iter()
                .map(|(id, _)| name(id).chars().take(10).collect())
                .collect(),
            values: s.iter().map(|(_, u)| vec![Some(u.as_f64())]).collect(),
            said: s
                .iter()
                .map(|(id, u)| format!("{}: {u}", name(id)))
                .collect(),
            shaded: vec![],
        })
    });
    let summary = Signal::derive(move || {
        spent.with(|s| match s.first() {
            _ if hosted => "Not known on this server.".into(),
            Some((id, u)) => format!(
                "{} missions spent; the most, {u}, by {}.",
                s.len(),
                name(id)
            ),
            None => "Nothing spent in these weeks.".into(),
        })
    });
    let rows = Signal::derive(move || {
        spent.with(|s| {
            s.iter()
                .map(|(id, u)| vec![name(id), u.to_string()])
                .collect()
        })
    });
    view! {
        <Picture
            title="Spend by mission"
            testid="mission-spend-picture"
            summary
            missing=Signal::derive(move || hosted.then(|| NO_SPEND.to_string()))
            said
            keys="Focus the picture, then ← and → step through the missions."
            picture=ViewFn::from(move || {
                (!hosted)
                    .then(|| {
                        view! {
                            <BarChart
                                bars
                                series=&["spent"]
                                value_label=|v| format!("${v:.2}")
                                label=summary
                                testid="mission-spend-picture"
                                said
                            />
                        }
                    })
            })
            table=ViewFn::from(move || {
                view! {
                    <FiguresTable
                        caption="Spend by mission in these weeks"
                        testid="mission-spend-picture"
                        heads=&["Mission", "Spent"]
                        rows
                    />
                }
            })
        />
    }
}
