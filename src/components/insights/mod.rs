//! The Insights page: the team's weeks (deliverables merged, tasks failed and retried, the
//! median times to merge, what a merged deliverable cost, spend by mission) and its agents'
//! busiest hours against active hours, drawn from buildd-core's `weekly` and `busy_hours`
//! over the rows read, with the mission pictures' card, key and read-out.

pub mod bar_chart;
pub mod bars;
pub mod busy_card;
pub mod figures_table;
pub mod insights_view;
pub mod mission_spend_card;
pub mod week_card;
pub mod week_cards;
pub mod workspace_filter;
