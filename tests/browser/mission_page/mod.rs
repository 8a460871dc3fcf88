//! The mission page: its progress kept live, the organizer's settings, the merge policy,
//! where completion stands and closing, pull requests and the feed tab.

mod closing;
mod completion;
mod feed;
mod layout;
mod live_refresh;
mod merge_policy;
mod organizer;
mod pull_requests;
