//! The mission page: its progress kept live, spend against budget and Raise budget, the
//! organizer's settings, the merge policy, where completion stands and closing, pull
//! requests and the feed tab.

mod budget;
mod closing;
mod completion;
mod feed;
mod layout;
mod live_refresh;
mod merge_policy;
mod organizer;
mod pull_requests;
