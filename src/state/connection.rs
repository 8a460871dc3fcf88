//! Which Buildd API the dashboard talks to, with which key. Kept in localStorage; a link
//! may carry the key in its fragment (`#key=bld_…&base=…`), which is removed from the
//! address bar at once so it never lingers in history, and kept only once the Connect page
//! has checked it.

use crate::api::Connection;
use leptos::prelude::*;

const BASE_KEY: &str = "buildd.apiBase";
const KEY_KEY: &str = "buildd.apiKey";

/// Normalises a base URL typed by a person: trims it and drops a trailing slash.
pub fn normalize_base(base: &str) -> String {
    base.trim().trim_end_matches('/').to_string()
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn load() -> Option<Connection> {
    let s = storage()?;
    let key = s
        .get_item(KEY_KEY)
        .ok()
        .flatten()
        .filter(|k| !k.is_empty())?;
    let base = s.get_item(BASE_KEY).ok().flatten().unwrap_or_default();
    Some(Connection { base, key })
}

fn save(c: &Connection) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY_KEY, &c.key);
        let _ = s.set_item(BASE_KEY, &c.base);
    }
}

fn clear() {
    if let Some(s) = storage() {
        let _ = s.remove_item(KEY_KEY);
        let _ = s.remove_item(BASE_KEY);
    }
}

/// Takes `key=…` (and an optional `base=…`) out of the URL fragment, with the path it was
/// on (where to go once it is checked).
fn take_key_from_fragment() -> Option<(Connection, String)> {
    let location = window().location();
    let hash = location.hash().ok()?;
    let params = hash.strip_prefix('#')?;
    let mut key = None;
    let mut base = String::new();
    for pair in params.split('&') {
        match pair.split_once('=') {
            Some(("key", v)) if !v.is_empty() => key = Some(decode(v)),
            Some(("base", v)) => base = normalize_base(&decode(v)),
            _ => {}
        }
    }
    let key = key?;
    let clean = format!(
        "{}{}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&clean));
    }
    Some((Connection { base, key }, clean))
}

fn decode(v: &str) -> String {
    js_sys::decode_uri_component(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| v.to_string())
}

/// The connection of this tab, one a link brought that is not checked yet, and the server
/// that last refused the stored key.
#[derive(Clone, Copy)]
pub struct ConnectionState {
    current: RwSignal<Option<Connection>>,
    from_link: RwSignal<Option<(Connection, String)>>,
    rejected: RwSignal<Option<String>>,
}

impl ConnectionState {
    pub fn get(&self) -> Option<Connection> {
        self.current.get()
    }

    pub fn get_untracked(&self) -> Option<Connection> {
        self.current.get_untracked()
    }

    /// Whether a link brought a key that the Connect page has yet to check (tracked).
    pub fn link_waiting(&self) -> bool {
        self.from_link.with(Option::is_some)
    }

    /// The link's connection and the path it opened, for the Connect page to check.
    pub fn take_link(&self) -> Option<(Connection, String)> {
        let taken = self.from_link.get_untracked();
        if taken.is_some() {
            self.from_link.set(None);
        }
        taken
    }

    pub fn connect(&self, c: Connection) {
        save(&c);
        self.rejected.set(None);
        self.current.set(Some(c));
    }

    /// The server refused the key (401): it is forgotten, so nothing asks with it again and
    /// every page sends the person to Connect, which says why.
    pub fn reject(&self) {
        let Some(refused) = self.current.get_untracked() else {
            return;
        };
        clear();
        self.rejected.set(Some(refused.server_name()));
        self.current.set(None);
    }

    /// The server that refused the key last, until a key connects.
    pub fn rejected_by(&self) -> Option<String> {
        self.rejected.get()
    }

    pub fn disconnect(&self) {
        clear();
        self.current.set(None);
    }
}

/// Reads the stored connection, takes a link's out of the address bar, and provides them.
pub fn provide_connection() -> ConnectionState {
    let state = ConnectionState {
        current: RwSignal::new(load()),
        from_link: RwSignal::new(take_key_from_fragment()),
        rejected: RwSignal::new(None),
    };
    provide_context(state);
    state
}

pub fn use_connection() -> ConnectionState {
    expect_context::<ConnectionState>()
}
