//! Buildd Mission Control: the browser dashboard for Buildd missions.

pub mod api;
pub mod app;
pub mod components;
pub mod format;
pub mod pages;
pub mod state;
pub mod stopped;
