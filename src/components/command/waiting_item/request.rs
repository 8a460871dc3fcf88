//! What the items' actions share: a request that refreshes the board once it is through,
//! and the shape an action takes beside its item.

use crate::api::{ApiError, Connection};
use crate::state::mutation::{refused, Mutation};
use leptos::prelude::*;

/// An item's action: the refusal of its last request, and its buttons.
pub type Actions = (Signal<Option<String>>, AnyView);

/// The class of an item's main button.
pub const BUTTON: &str = "button button--primary button--small";

/// A request of the item's: `send` with this tab's connection, then `refresh`.
pub fn mutation<I: 'static, Fut>(
    refresh: Callback<()>,
    what: &'static str,
    send: impl Fn(Connection, &I) -> Fut + 'static,
) -> Mutation<I>
where
    Fut: std::future::Future<Output = Result<(), ApiError>> + 'static,
{
    Mutation::request(
        move |c, input| {
            let sent = send(c, input);
            async move {
                sent.await?;
                refresh.run(());
                Ok(())
            }
        },
        refused(what),
    )
}
