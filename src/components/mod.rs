pub mod app_header;
pub mod badges;
pub mod mission_card;
pub mod panel;
pub mod progress_bar;
pub mod progress_card;
pub mod state_chip;
pub mod task_row;
