//! A task page's pieces, the Plan Review Panel among them.

pub mod cost_forecast;
pub mod message_agent;
pub mod plan_banner;
pub mod plan_compare;
pub mod plan_review_panel;
pub mod plan_steps;
pub mod plan_tracker;
pub mod plan_waves;
pub mod retry_task;
pub mod revision_history;
pub mod run_timeline;
pub mod run_view;
pub mod step_card;
pub mod step_comment;
pub mod task_actions;
pub mod task_cost;
pub mod task_editor;
pub mod task_head;
pub mod task_pr_status;
pub mod task_relations;
pub mod task_result;
pub mod task_view;
