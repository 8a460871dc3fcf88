//! What the first screen does not need waits for it: the page's first answer drawn and
//! painted (the command center's rows, a mission page's first read), or two seconds on a
//! page that says nothing. In the split build (`lazy`), "Waiting on you", the team's PRs
//! and questions and the change stream are one chunk, fetched then, so it neither delays
//! the first rows nor competes with a page's own chunks.

use js_sys::{Function, Promise};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Whether the first screen is drawn (its page's first answer is in, well or not) and
/// painted.
#[derive(Clone, Copy)]
pub struct FirstScreen {
    drawn: StoredValue<bool>,
    painted: StoredValue<bool>,
}

impl FirstScreen {
    /// Marks the first screen drawn: the page's first answer is in.
    pub fn drawn(self) {
        self.drawn.set_value(true);
    }

    /// Resolves once the first screen is drawn and painted; at once after that. (`Send`,
    /// as a view's `Suspend` needs, though the browser's timers are not.)
    pub fn shown(self) -> impl Future<Output = ()> + Send {
        SendWrapper::new(async move {
            if self.painted.get_value() {
                return;
            }
            // A page that marks nothing is taken as drawn after two seconds.
            for _ in 0..100 {
                if self.drawn.get_value() {
                    break;
                }
                gloo_timers::future::TimeoutFuture::new(20).await;
            }
            painted().await;
            self.painted.set_value(true);
        })
    }
}

pub fn provide_first_screen() {
    provide_context(FirstScreen {
        drawn: StoredValue::new(false),
        painted: StoredValue::new(false),
    });
}

pub fn use_first_screen() -> FirstScreen {
    expect_context::<FirstScreen>()
}

/// Resolves after the next paint: a timeout queued from an animation frame runs once the
/// frame is painted. A hidden tab paints nothing, so a timer ends the wait there.
async fn painted() {
    let promise = Promise::new(&mut |resolve: Function, _| {
        let after_frame = resolve.clone();
        request_animation_frame(move || {
            set_timeout(
                move || {
                    let _ = after_frame.call0(&JsValue::NULL);
                },
                Duration::ZERO,
            );
        });
        set_timeout(
            move || {
                let _ = resolve.call0(&JsValue::NULL);
            },
            Duration::from_millis(250),
        );
    });
    let _ = JsFuture::from(promise).await;
}

/// What a function split off by [`split_off!`] returns: a future, awaited by the split
/// wrapper once the chunk is in.
pub type Later<T> = Pin<Box<dyn Future<Output = T>>>;

/// Puts a function returning [`Later`]`<Result<$out, ApiError>>` into the split build's
/// (`lazy`) chunk `$module`, fetched at its first call; functions of one module share one
/// chunk. A chunk that fails to load reads as [`ApiError::Code`](crate::api::ApiError::Code)
/// rather than stopping the app.
///
/// With `preload $name`, `$name()` fetches the chunk without calling anything in it, for a
/// page to fetch ahead what it will likely need; it does nothing in the whole build.
macro_rules! split_off {
    ($module:ident, $out:ty, preload $preload:ident, $item:item) => {
        #[cfg_attr(
            feature = "lazy",
            ::leptos::wasm_split::wasm_split(
                $module,
                wasm_split_path = ::leptos::wasm_split,
                fallible,
                preload($preload),
                return_wrapper(let future = _; { future.await } -> ::std::result::Result<$out, $crate::api::ApiError>)
            )
        )]
        $item

        #[cfg(not(feature = "lazy"))]
        pub async fn $preload() -> Result<(), ()> {
            Ok(())
        }
    };
    ($module:ident, $out:ty, $item:item) => {
        #[cfg_attr(
            feature = "lazy",
            ::leptos::wasm_split::wasm_split(
                $module,
                wasm_split_path = ::leptos::wasm_split,
                fallible,
                return_wrapper(let future = _; { future.await } -> ::std::result::Result<$out, $crate::api::ApiError>)
            )
        )]
        $item
    };
}
pub(crate) use split_off;
