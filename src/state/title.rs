//! The tab's title: the page it shows, and how many things wait on you — "(2) Checkout
//! redesign · Mission Control" — so a row of tabs tells them apart.

use leptos::prelude::*;

const APP: &str = "Mission Control";

/// What the current page calls itself in the tab's title, and which page said it (the page
/// left behind cleans up after the new one has named itself, and must not clear its name).
#[derive(Clone, Copy)]
pub struct PageTitle(RwSignal<Option<(u64, String)>>);

/// Provides the page's name and keeps the document's title, counting `waiting`.
pub fn provide_title(waiting: Memo<usize>) {
    let page = PageTitle(RwSignal::new(None));
    provide_context(page);
    Effect::new(move |_| {
        let name = page.0.get();
        let named = match name {
            Some((_, name)) => format!("{name} · {APP}"),
            None => format!("Buildd {APP}"),
        };
        let n = waiting.get();
        document().set_title(&if n > 0 {
            format!("({n}) {named}")
        } else {
            named
        });
    });
}

/// Names the tab after this page while it is shown; `name` is read again as it changes (a
/// mission's title once it has loaded).
pub fn page_title(name: impl Fn() -> Option<String> + 'static) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static PAGES: AtomicU64 = AtomicU64::new(0);
    let this = PAGES.fetch_add(1, Ordering::Relaxed);
    let page = expect_context::<PageTitle>();
    Effect::new(move |_| match name() {
        Some(n) => page.0.set(Some((this, n))),
        None => page.0.update(|t| {
            if t.as_ref().is_some_and(|(by, _)| *by == this) {
                *t = None;
            }
        }),
    });
    on_cleanup(move || {
        if page
            .0
            .with_untracked(|t| t.as_ref().is_some_and(|(by, _)| *by == this))
        {
            page.0.set(None);
        }
    });
}
