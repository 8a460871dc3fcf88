//! The pieces pages are made of, a file each with the small private pieces it draws (a
//! folder for a section of several: `organizer/`). They read and write through `state` and
//! the API client, never through a page.

pub mod app_header;
pub mod badges;
pub mod close_mission;
pub mod confirm;
pub mod feed;
pub mod markdown;
pub mod merge_policy_editor;
pub mod message_agent;
pub mod mission_card;
pub mod mission_status;
pub mod new_mission;
pub mod new_task;
pub mod not_offered;
pub mod organizer;
pub mod panel;
pub mod plan_banner;
pub mod plan_review_panel;
pub mod plan_waves;
pub mod policy_summary;
pub mod pr_checks;
pub mod pr_list;
pub mod pr_review;
pub mod progress_bar;
pub mod progress_card;
pub mod retry_task;
pub mod shortcuts;
pub mod state_chip;
pub mod task_pr_status;
pub mod task_prs;
pub mod task_row;
pub mod waiting_item;
pub mod waiting_list;
pub mod workspace_settings;
