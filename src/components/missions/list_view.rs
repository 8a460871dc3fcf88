//! What the mission list shows, as its address says: the workspace filter, the search and
//! the sort.

use buildd_core::client::ClientMission;

/// What the list shows: the address's filter, search and sort.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListView {
    pub workspace: Option<String>,
    pub search: String,
    pub sort: Sort,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// Most recently active first.
    #[default]
    Activity,
    /// Furthest along first.
    Progress,
    Title,
}

impl Sort {
    pub const ALL: [Sort; 3] = [Sort::Activity, Sort::Progress, Sort::Title];

    pub fn slug(self) -> &'static str {
        match self {
            Sort::Activity => "activity",
            Sort::Progress => "progress",
            Sort::Title => "title",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Sort::Activity => "Last activity",
            Sort::Progress => "Progress",
            Sort::Title => "Title",
        }
    }
}

impl ListView {
    pub fn from_query(q: &leptos_router::params::ParamsMap) -> Self {
        Self {
            workspace: q.get("workspace").filter(|w| !w.is_empty()),
            search: q.get("q").unwrap_or_default(),
            sort: Sort::ALL
                .into_iter()
                .find(|s| q.get("sort").as_deref() == Some(s.slug()))
                .unwrap_or_default(),
        }
    }

    /// `/missions` with this view in its query; defaults are left out.
    pub fn href(&self) -> String {
        let encode = |v: &str| String::from(js_sys::encode_uri_component(v));
        let mut parts = Vec::new();
        if let Some(w) = &self.workspace {
            parts.push(format!("workspace={}", encode(w)));
        }
        if !self.search.trim().is_empty() {
            parts.push(format!("q={}", encode(&self.search)));
        }
        if self.sort != Sort::Activity {
            parts.push(format!("sort={}", self.sort.slug()));
        }
        if parts.is_empty() {
            "/missions".into()
        } else {
            format!("/missions?{}", parts.join("&"))
        }
    }

    /// Whether `m` is in the view: its workspace, and every word searched for in its title
    /// or goal.
    pub fn shows(&self, m: &ClientMission) -> bool {
        let in_workspace = self
            .workspace
            .as_ref()
            .is_none_or(|ws| m.workspace_id.as_deref() == Some(ws.as_str()));
        let text = format!(
            "{} {}",
            m.title,
            m.description.as_deref().unwrap_or_default()
        )
        .to_lowercase();
        in_workspace
            && self
                .search
                .to_lowercase()
                .split_whitespace()
                .all(|word| text.contains(word))
    }
}
