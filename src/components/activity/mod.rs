//! The Activity page's pieces: its address (`activity_view`), filters, search, list, rows
//! and New task with a mission or none.

pub mod activity_filters;
pub mod activity_list;
pub mod activity_row;
pub mod activity_search;
pub mod activity_view;
pub mod attempt_list;
pub mod choices;
pub mod filter_select;
pub mod new_activity_task;
