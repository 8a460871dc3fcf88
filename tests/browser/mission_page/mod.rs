//! The mission page: its progress kept live, the organizer's settings, the merge policy,
//! closing, pull requests and the feed tab.

mod closing;
mod feed;
mod live_refresh;
mod merge_policy;
mod organizer;
mod pull_requests;
