//! Asks before leaving a page with unsaved text: reload, close and in-app links alike.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

const QUESTION: &str = "You have unsaved changes. Leave without saving them?";

/// While `dirty` is true, leaving the page asks first.
pub fn guard_unsaved(dirty: Signal<bool>) {
    let unload = window_event_listener(ev::beforeunload, move |e: web_sys::BeforeUnloadEvent| {
        if dirty.get_untracked() {
            e.prevent_default();
            e.set_return_value(QUESTION);
        }
    });
    // In-app links are followed by the router without unloading: catch their clicks in the
    // capture phase, before the router sees them.
    let on_click = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |e: web_sys::MouseEvent| {
        if !dirty.get_untracked() {
            return;
        }
        let link = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("a[href]").ok().flatten());
        if link.is_some() && !window().confirm_with_message(QUESTION).unwrap_or(true) {
            e.prevent_default();
            e.stop_propagation();
        }
    });
    let target: web_sys::EventTarget = window().into();
    let _ = target.add_event_listener_with_callback_and_bool(
        "click",
        on_click.as_ref().unchecked_ref(),
        true,
    );
    let on_click = send_wrapper::SendWrapper::new(on_click);
    on_cleanup(move || {
        unload.remove();
        let target: web_sys::EventTarget = window().into();
        let _ = target.remove_event_listener_with_callback_and_bool(
            "click",
            on_click.as_ref().unchecked_ref(),
            true,
        );
    });
}
