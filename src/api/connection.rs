//! Which Buildd API a request goes to, and the key it is sent with.

use leptos::prelude::window;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    /// The API's origin, without a trailing slash; empty means this page's origin.
    pub base: String,
    pub key: String,
}

impl Connection {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// What to call the server in messages.
    pub fn server_name(&self) -> String {
        if self.base.is_empty() {
            window()
                .location()
                .origin()
                .unwrap_or_else(|_| "this server".into())
        } else {
            self.base.clone()
        }
    }
}
