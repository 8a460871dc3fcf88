//! The pieces pages are made of, one component a file, by feature (as lemmy-ui-leptos lays
//! them out): what one feature's pages use is in its folder, what several use in `shared`.
//! They read and write through `state` and the API client, never through a page.

pub mod activity;
pub mod command;
pub mod insights;
pub mod mission;
pub mod missions;
pub mod shared;
pub mod task;
pub mod workspace;
