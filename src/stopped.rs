//! When the app's code stops on an error (a panic aborts the wasm), nothing on the page
//! answers any more while it still looks alive. The person is told so at the top of the
//! page, with a link that reloads it; built with plain DOM calls, as nothing of the app
//! runs after the panic. The message is set as text, never as HTML.

use std::panic::PanicHookInfo;

/// Logs every panic to the console, as before, and shows the notice.
pub fn tell_when_stopped() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(info);
    }));
}

fn show(info: &PanicHookInfo) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    // One notice, however many panics follow.
    if document.get_element_by_id("stopped").is_some() {
        return;
    }
    let (Some(body), Ok(notice)) = (document.body(), document.create_element("div")) else {
        return;
    };
    notice.set_id("stopped");
    notice.set_class_name("stopped");
    let _ = notice.set_attribute("role", "alert");
    let _ = notice.set_attribute("data-testid", "stopped");
    let what = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_default();
    if let Ok(text) = document.create_element("p") {
        text.set_text_content(Some(&format!(
            "The dashboard stopped on an error and no longer updates; what the server \
             acknowledged is kept. ({what})"
        )));
        let _ = notice.append_child(&text);
    }
    if let Ok(reload) = document.create_element("a") {
        let here = window.location().href().unwrap_or_else(|_| "/".into());
        let _ = reload.set_attribute("href", &here);
        reload.set_text_content(Some("Reload the page"));
        let _ = notice.append_child(&reload);
    }
    // Before the first child, or last when there is none.
    let _ = body.insert_before(&notice, body.first_child().as_ref());
}
