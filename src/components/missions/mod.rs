//! The mission list's pieces: its groups and cards, its workspace filter, search and sort,
//! and New mission.

pub mod list_tools;
pub mod list_view;
pub mod mission_card;
pub mod mission_groups;
pub mod new_mission;
pub mod workspace_filter;
