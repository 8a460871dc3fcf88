//! The workspace list's and a workspace's settings page's pieces.

pub mod merge_settings;
pub mod workspace_policy;
pub mod workspace_row;
