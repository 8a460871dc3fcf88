//! Stylesheets fetched with the code that needs them rather than with the first load, which
//! has a size budget (`style/pages.css` for the pages after the command center,
//! `style/pictures.css` for the pictures; copied to the build as they are). Each is linked
//! once and waited for, so nothing is ever drawn unstyled; a sheet that fails to load is not
//! waited for longer: the page shows, plain, and reads the same.

use js_sys::{Function, Promise};
use leptos::prelude::document;
use std::future::Future;
use wasm_bindgen_futures::JsFuture;

/// The pages after the command center.
pub const PAGES: &str = "/pages.css";
/// A mission's pictures and the Insights page's.
pub const PICTURES: &str = "/pictures.css";

/// Links the stylesheet at `href` now, once; the future resolves when it has loaded or
/// failed (at once when it was already linked).
pub fn link(href: &'static str) -> impl Future<Output = ()> {
    let settled = linked(href);
    async move {
        if let Some(settled) = settled {
            let _ = JsFuture::from(settled).await;
        }
    }
}

/// The new link's load, or `None` when it was linked before (or there is no document).
fn linked(href: &str) -> Option<Promise> {
    let doc = document();
    let selector = format!("link[href='{href}']");
    if doc.query_selector(&selector).ok().flatten().is_some() {
        return None;
    }
    let link = doc.create_element("link").ok()?;
    let head = doc.query_selector("head").ok().flatten()?;
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", href);
    let settled = Promise::new(&mut |resolve: Function, _| {
        let _ = link.add_event_listener_with_callback("load", &resolve);
        let _ = link.add_event_listener_with_callback("error", &resolve);
    });
    let _ = head.append_child(&link);
    Some(settled)
}
