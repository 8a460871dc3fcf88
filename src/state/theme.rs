//! Light and dark themes: the system's choice until a person picks one.

use leptos::prelude::*;

const THEME_KEY: &str = "buildd.theme";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

fn apply(theme: Option<Theme>) {
    if let Some(root) = document().document_element() {
        let _ = match theme {
            Some(Theme::Light) => root.set_attribute("data-theme", "light"),
            Some(Theme::Dark) => root.set_attribute("data-theme", "dark"),
            None => root.remove_attribute("data-theme"),
        };
    }
}

fn system_prefers_dark() -> bool {
    window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

#[derive(Clone, Copy)]
pub struct ThemeState(RwSignal<Theme>);

impl ThemeState {
    pub fn get(&self) -> Theme {
        self.0.get()
    }

    pub fn toggle(&self) {
        let next = match self.0.get_untracked() {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        };
        if let Ok(Some(s)) = window().local_storage() {
            let _ = s.set_item(
                THEME_KEY,
                if next == Theme::Dark { "dark" } else { "light" },
            );
        }
        apply(Some(next));
        self.0.set(next);
    }
}

pub fn provide_theme() {
    let stored = window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(THEME_KEY).ok().flatten());
    let chosen = match stored.as_deref() {
        Some("dark") => Some(Theme::Dark),
        Some("light") => Some(Theme::Light),
        _ => None,
    };
    apply(chosen);
    let theme = chosen.unwrap_or(if system_prefers_dark() {
        Theme::Dark
    } else {
        Theme::Light
    });
    provide_context(ThemeState(RwSignal::new(theme)));
}

pub fn use_theme() -> ThemeState {
    expect_context::<ThemeState>()
}
