//! What several features use: the app's header and a page's guard, panel states, chips and
//! badges, a form's error line and buttons, Markdown, the progress bar, a PR's checks,
//! Merge on Buildd, the merge-policy form, Raise budget, Stop and New task.

pub mod answer_agent;
pub mod answer_choices;
pub mod app_header;
pub mod class_badge;
pub mod details_editor;
pub mod empty_state;
pub mod error_panel;
pub mod form_actions;
pub mod form_error;
pub mod health_chip;
pub mod inline_markdown;
pub mod loading;
pub mod markdown;
pub mod merge_on_buildd;
pub mod mode_badge;
pub mod new_task;
pub mod new_task_form;
pub mod not_offered;
pub mod policy_form;
pub mod policy_summary;
pub mod polled;
pub mod pr_checks;
pub mod progress_bar;
pub mod raise_budget;
pub mod require_connection;
pub mod state_chip;
pub mod status_badge;
pub mod stop_task;
