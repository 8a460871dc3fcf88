//! The time zones the browser knows, read from `Intl`.

use wasm_bindgen::JsCast;

/// The browser's time zone, the default for a new window.
pub fn browser_zone() -> String {
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new())
        .resolved_options();
    js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|z| z.as_string())
        .unwrap_or_else(|| "UTC".into())
}

/// Every IANA zone the browser knows (`Intl.supportedValuesOf("timeZone")`).
pub fn zones() -> Vec<String> {
    let intl = js_sys::Reflect::get(&js_sys::global(), &"Intl".into()).ok();
    let list = intl.and_then(|intl| {
        let f = js_sys::Reflect::get(&intl, &"supportedValuesOf".into()).ok()?;
        let f: js_sys::Function = f.dyn_into().ok()?;
        f.call1(&intl, &"timeZone".into()).ok()
    });
    match list.and_then(|l| l.dyn_into::<js_sys::Array>().ok()) {
        Some(a) => a.iter().filter_map(|z| z.as_string()).collect(),
        None => vec!["UTC".into()],
    }
}
