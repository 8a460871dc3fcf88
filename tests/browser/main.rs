//! End to end, as a person uses the dashboard: the real server on a loopback port with a
//! temporary database, the release dashboard, headless Chromium. A module a page; what they
//! share is in `fixtures`.

#![cfg(not(target_arch = "wasm32"))]

mod fixtures;

mod accessibility;
mod activity;
mod command_center;
mod connect;
mod csp;
mod first_load;
mod insights;
mod layout_shift;
mod live_updates;
mod mission_page;
mod missions_list;
mod on_buildd;
mod pictures;
mod plan_review;
mod running_work;
mod screenshots;
mod starting_work;
mod task_page;
mod workspace_settings;
