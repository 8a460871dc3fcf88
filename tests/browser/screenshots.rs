//! The main pages at 1366 and 375 px, light and dark, as PNGs in the target dir
//! (`target/tmp/screenshots/`, or under `CARGO_TARGET_DIR`) for a reviewer to look at; each
//! also fits its width, with nothing wider than the window. `cargo xtask screenshots` has
//! the README's among them written into `docs/screenshots/` too (`BUILDD_README_SHOTS`).

use crate::fixtures::connected;
use crate::fixtures::pages::{main_pages, MainPage};
use buildd_testkit::TestServer;

/// The screenshots the README shows.
const IN_README: [&str; 4] = [
    "command-center-1366-light",
    "command-center-1366-dark",
    "mission-1366-light",
    "mission-1366-dark",
];

#[tokio::test(flavor = "multi_thread")]
async fn the_main_pages_fit_both_widths_in_both_themes_and_are_written_as_screenshots() {
    let server = TestServer::start_demo().await;
    let pages = main_pages(&server).await;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let browser = connected(&server).await;
    for width in [1366u32, 375] {
        browser
            .client
            .set_window_size(width, 900)
            .await
            .expect("window size");
        for theme in ["light", "dark"] {
            browser
                .run(&format!("localStorage.setItem('buildd.theme', '{theme}')"))
                .await;
            for MainPage {
                name,
                path,
                settled,
            } in &pages
            {
                browser.goto(&server.url(path)).await;
                browser.wait_for(settled).await;
                let shown = browser
                    .run("return document.documentElement.getAttribute('data-theme')")
                    .await;
                assert_eq!(shown, *theme, "{name} at {width} px");
                let overflow = browser
                    .run("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
                    .await;
                // Below zero when the page is shorter than the window: its scrollbar's place
                // is kept all the same.
                assert!(
                    overflow.as_i64().is_some_and(|o| o <= 0),
                    "{name} is wider than {width} px in the {theme} theme ({overflow})"
                );
                // A narrow window folds the header's links under Menu; a wide one shows them.
                let menu = browser
                    .run(
                        "return document.querySelector('[data-testid=menu]').offsetParent !== null",
                    )
                    .await;
                assert_eq!(menu.as_bool(), Some(width < 640), "Menu at {width} px");
                let png = browser.client.screenshot().await.expect("a screenshot");
                assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
                let shot = format!("{name}-{width}-{theme}");
                if let Some(docs) = std::env::var_os("BUILDD_README_SHOTS") {
                    if IN_README.contains(&shot.as_str()) {
                        std::fs::write(
                            std::path::Path::new(&docs).join(format!("{shot}.png")),
                            &png,
                        )
                        .unwrap();
                    }
                }
                std::fs::write(dir.join(format!("{shot}.png")), png).unwrap();
            }
        }
    }
    browser.close().await;
}

#[test]
fn the_readme_shows_the_screenshot_sets_pictures_before_the_commands() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands = readme.find("## The two commands").expect("the commands");
    for shot in IN_README {
        let link = format!("docs/screenshots/{shot}.png");
        let at = readme
            .find(&link)
            .unwrap_or_else(|| panic!("the README shows {shot}"));
        assert!(at < commands, "{shot} comes before the commands");
        let png = std::fs::read(root.join(&link)).unwrap_or_else(|e| panic!("{link}: {e}"));
        assert!(png.starts_with(b"\x89PNG"), "{link} is a PNG");
    }
}
