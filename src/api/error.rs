use buildd_core::requests::FieldError;
use std::fmt;

/// Why a request failed, in terms a person can act on.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// 401: the key is missing or unknown.
    Unauthorized(String),
    /// 403: the key may not do this.
    Forbidden(String),
    /// 404.
    NotFound(String),
    /// 400 naming the field (and each of its problems in `errors`, read by the form that
    /// placed it); also a request the dashboard refused before sending, by the same rules.
    Invalid(FieldError),
    /// Any other error status, with the server's message.
    Status(u16, String),
    /// The request never got an answer.
    Unreachable(String),
    /// The answer was not what Buildd sends.
    Decode(String),
    /// A part of the dashboard's own code did not download.
    Code(String),
}

/// A chunk of the split build that did not load: a server gone, or a build replaced
/// without the previous one's chunks.
impl From<leptos::wasm_split::SplitLoaderError> for ApiError {
    fn from(e: leptos::wasm_split::SplitLoaderError) -> Self {
        Self::Code(e.to_string())
    }
}

impl ApiError {
    pub fn from_status(status: u16, message: String) -> Self {
        match status {
            401 => Self::Unauthorized(message),
            403 => Self::Forbidden(message),
            404 => Self::NotFound(message),
            _ => Self::Status(status, message),
        }
    }

    /// The server's own words when it refused the input (any status it explained other than
    /// 401/403/404), else the whole explanation.
    pub fn refusal(&self) -> String {
        match self {
            Self::Status(_, m) => m.clone(),
            Self::Invalid(e) => e.message.clone(),
            other => other.to_string(),
        }
    }

    /// The server's own words when it answered `status`, else the whole explanation.
    pub fn refusal_if(&self, status: u16) -> String {
        match self {
            Self::Status(s, m) if *s == status => m.clone(),
            Self::Invalid(e) if status == 400 => e.message.clone(),
            other => other.to_string(),
        }
    }

    /// The field a refusal names, for a form to place it.
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid(e) => Some(&e.field),
            _ => None,
        }
    }

    /// Whether connecting again with another key is the fix.
    pub fn needs_new_key(&self) -> bool {
        matches!(self, Self::Unauthorized(_) | Self::Forbidden(_))
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unauthorized(_) => write!(
                f,
                "The server rejected the API key (401 Unauthorized). Connect again with a valid key."
            ),
            Self::Forbidden(m) => write!(
                f,
                "This API key is not allowed to do that (403 Forbidden: {m}). Connect with an admin-level key."
            ),
            Self::NotFound(m) => write!(f, "Not found (404): {m}."),
            Self::Status(s, m) => write!(f, "The server answered {s}: {m}"),
            Self::Invalid(e) => write!(f, "{}", e.message),
            Self::Unreachable(server) => write!(
                f,
                "Could not reach the Buildd API at {server}. Check the URL and that the server is running."
            ),
            Self::Decode(e) => write!(f, "The server's answer could not be read: {e}"),
            Self::Code(e) => write!(
                f,
                "Part of this page could not be downloaded ({e}). Reload the page."
            ),
        }
    }
}
