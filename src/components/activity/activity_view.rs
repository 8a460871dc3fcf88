//! What Activity shows, as its address says, so a reload or a shared link shows the same:
//! `status` (a status, or `active`), `mission` (an id, or `none`), `workspace`, `mode`,
//! `q` (title words or a task id), `since` and `until` (days), and `group` (`status` or
//! `mission`). A value the API would refuse is left out.

use buildd_core::activity::{ActivityQuery, Grouping};
use buildd_core::TaskMode;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

#[derive(Clone, Debug, PartialEq)]
pub struct ActivityView {
    /// The filters and the search, as the API takes them (no cursor).
    pub query: ActivityQuery,
    pub grouping: Grouping,
}

impl Default for ActivityView {
    fn default() -> Self {
        Self {
            query: ActivityQuery::default(),
            grouping: Grouping::None,
        }
    }
}

/// A filter's value in the address: absent when empty.
fn given(q: &ParamsMap, name: &str) -> Option<String> {
    q.get(name)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

impl ActivityView {
    pub fn from_query(q: &ParamsMap) -> Self {
        let mut query = ActivityQuery {
            status: given(q, "status"),
            mission_id: given(q, "mission"),
            workspace_id: given(q, "workspace"),
            mode: given(q, "mode").and_then(|m| TaskMode::known(&m)),
            // As typed: the box shows it back, spaces and all (the API trims it).
            q: q.get("q").filter(|v| !v.trim().is_empty()),
            since: given(q, "since"),
            until: given(q, "until"),
            ..ActivityQuery::default()
        };
        if query.statuses().is_err() {
            query.status = None;
        }
        if query.changed_since().is_err() {
            query.since = None;
        }
        if query.changed_before().is_err() {
            query.until = None;
        }
        Self {
            query,
            grouping: Grouping::parse(&q.get("group").unwrap_or_default()),
        }
    }

    /// `/activity` with this view in its query; what is not set is left out.
    pub fn href(&self) -> String {
        let encode = |v: &str| String::from(js_sys::encode_uri_component(v));
        let q = &self.query;
        let mode = q.mode.as_ref().map(|m| m.as_str().to_string());
        let search = q.q.clone().filter(|s| !s.trim().is_empty());
        let group = (self.grouping != Grouping::None).then(|| self.grouping.as_str().to_string());
        let parts: Vec<String> = [
            ("status", &q.status),
            ("mission", &q.mission_id),
            ("workspace", &q.workspace_id),
            ("mode", &mode),
            ("q", &search),
            ("since", &q.since),
            ("until", &q.until),
            ("group", &group),
        ]
        .into_iter()
        .filter_map(|(name, value)| Some(format!("{name}={}", encode(value.as_deref()?))))
        .collect();
        if parts.is_empty() {
            "/activity".into()
        } else {
            format!("/activity?{}", parts.join("&"))
        }
    }

    /// Whether any filter or search narrows the list.
    pub fn narrowed(&self) -> bool {
        self.query != ActivityQuery::default()
    }
}

/// Goes to the view `shown` changed as a picked value says. `replace` writes over the
/// current history entry: typing does not add one a letter.
pub fn view_changer(shown: Memo<ActivityView>) -> Callback<(ViewChange, bool)> {
    let navigate = use_navigate();
    Callback::new(move |(change, replace): (ViewChange, bool)| {
        let mut view = shown.get_untracked();
        change.apply(&mut view);
        let options = NavigateOptions {
            replace,
            ..Default::default()
        };
        navigate(&view.href(), options);
    })
}

/// One control's change to the view; an empty value clears what it sets.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewChange {
    Status(String),
    Mission(String),
    Workspace(String),
    Mode(String),
    Search(String),
    Since(String),
    Until(String),
    Group(String),
}

impl ViewChange {
    fn apply(self, view: &mut ActivityView) {
        let set = |v: String| (!v.trim().is_empty()).then_some(v);
        let q = &mut view.query;
        match self {
            ViewChange::Status(v) => q.status = set(v),
            ViewChange::Mission(v) => q.mission_id = set(v),
            ViewChange::Workspace(v) => q.workspace_id = set(v),
            ViewChange::Mode(v) => q.mode = TaskMode::known(&v),
            ViewChange::Search(v) => q.q = set(v),
            ViewChange::Since(v) => q.since = set(v),
            ViewChange::Until(v) => q.until = set(v),
            ViewChange::Group(v) => view.grouping = Grouping::parse(&v),
        }
    }
}
