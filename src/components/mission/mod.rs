//! A mission page's pieces (the mission list's are in `missions`).

pub mod arm_mission;
pub mod budget_card;
pub mod close_mission;
pub mod confirm;
pub mod feed;
pub mod merge_policy_editor;
pub mod mission_editor;
pub mod mission_head;
pub mod mission_status_card;
pub mod mission_waiting;
pub mod organizer;
pub mod pictures;
pub mod pr_item;
pub mod pr_list;
pub mod pr_review_line;
pub mod progress_card;
pub mod progress_legend;
pub mod task_pr_list;
pub mod task_row;
pub mod task_sections;
