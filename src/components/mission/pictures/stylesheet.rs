//! The pictures' styles (`style/pictures.css`, copied to the build as it is) are fetched
//! with their code rather than with the first load, which has a size budget: linked once,
//! and waited for, so no picture is ever drawn unstyled. A sheet that fails to load is not
//! waited for longer: the pictures show, plain, and their tables read the same.

use js_sys::{Function, Promise};
use leptos::prelude::document;
use wasm_bindgen_futures::JsFuture;

const HREF: &str = "/pictures.css";

/// Links the pictures' stylesheet, once; resolves when it has loaded or failed.
pub async fn pictures_css() {
    let doc = document();
    let selector = format!("link[href='{HREF}']");
    if doc.query_selector(&selector).ok().flatten().is_some() {
        return;
    }
    let (Ok(link), Ok(Some(head))) = (doc.create_element("link"), doc.query_selector("head"))
    else {
        return;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", HREF);
    let settled = Promise::new(&mut |resolve: Function, _| {
        let _ = link.add_event_listener_with_callback("load", &resolve);
        let _ = link.add_event_listener_with_callback("error", &resolve);
    });
    let _ = head.append_child(&link);
    let _ = JsFuture::from(settled).await;
}
