//! Sends API requests with the key this tab is connected with. Without a key nothing is
//! sent; a key the server refuses (401) is forgotten, so it is not sent again.

use crate::api::{ApiError, Connection};
use crate::state::connection::ConnectionState;
use std::future::Future;

/// `request` sent with this tab's connection. Pages render only while connected, but a
/// refresh may still fire in the moment after Disconnect: it is refused as a missing key.
/// A 401 from the server ends the connection: the same refused key is never sent again.
pub fn with_connection<T: 'static, Fut>(
    connection: &ConnectionState,
    request: impl FnOnce(Connection) -> Fut,
) -> impl Future<Output = Result<T, ApiError>> + 'static
where
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    settle(*connection, connection.get_untracked().map(request))
}

/// The answer to `sent`, a request made with `connection`'s key (`None`: there was none).
pub async fn settle<T>(
    connection: ConnectionState,
    sent: Option<impl Future<Output = Result<T, ApiError>>>,
) -> Result<T, ApiError> {
    match sent {
        Some(answer) => {
            let answer = answer.await;
            if matches!(answer, Err(ApiError::Unauthorized(_))) {
                connection.reject();
            }
            answer
        }
        None => Err(ApiError::Unauthorized("not connected".into())),
    }
}
