use serde::{Deserialize, Serialize};

/// Buildd's error envelope: `{"error": "<message>"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiErrorBody {
    pub error: String,
}
