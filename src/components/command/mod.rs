//! The command center's pieces: its mission rows, its keys, "Waiting on you".

pub mod answer_question;
pub mod command_keys;
pub mod merge_from_task;
pub mod mission_row;
pub mod mission_section;
pub mod running_now;
pub mod shortcuts;
pub mod waiting_card;
pub mod waiting_item;
pub mod waiting_list;
pub mod waiting_summary;
