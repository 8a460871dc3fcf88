//! The stream classes wasm-bindgen exports for `wasm-streams` (a dependency of leptos's
//! server functions, which the dashboard does not use), taken out of the main module. An
//! exported class keeps its methods' code alive whether or not anything makes one; these
//! cost the first load about 1.7 KB after brotli. Nothing in the app makes one: were that to
//! change, wasm-bindgen's glue would wrap one (`Class.__wrap`), and the build stops.

use crate::wasm_names::{leb, name, push_leb, push_name, rewrite_section};

const CLASSES: [&str; 3] = [
    "IntoUnderlyingByteSource",
    "IntoUnderlyingSink",
    "IntoUnderlyingSource",
];

/// `wasm` and `js` (as wasm-bindgen wrote it) without the classes and their exports.
pub fn drop_unused(wasm: &[u8], js: &str) -> Result<(Vec<u8>, String), String> {
    if let Some(made) = CLASSES.iter().find(|c| js.contains(&format!("{c}.__wrap"))) {
        return Err(format!(
            "the app now makes a {made}: it can no longer be dropped"
        ));
    }
    let mut js = js.to_string();
    for class in CLASSES {
        js = drop_class(&js, class)?;
    }
    let prefixes: Vec<String> = CLASSES
        .iter()
        .flat_map(|c| {
            let lower = c.to_lowercase();
            [format!("{lower}_"), format!("__wbg_{lower}_")]
        })
        .collect();
    let wasm = drop_exports(wasm, |export| {
        prefixes.iter().any(|p| export.starts_with(p.as_str()))
    })?;
    Ok((wasm, js))
}

/// `js` without `export class <class> {…}` and the line after it that gives the class its
/// `Symbol.dispose`. The class ends at the first line that is a lone `}`, as wasm-bindgen
/// writes classes.
fn drop_class(js: &str, class: &str) -> Result<String, String> {
    let head = format!("export class {class} {{\n");
    let start = js
        .find(&head)
        .ok_or_else(|| format!("the JS exports no class {class}"))?;
    let body_end = js[start..]
        .find("\n}\n")
        .map(|at| start + at + 3)
        .ok_or_else(|| format!("the class {class} does not end"))?;
    let dispose = format!("if (Symbol.dispose) {class}.prototype");
    let end = match js[body_end..].starts_with(&dispose) {
        true => js[body_end..]
            .find('\n')
            .map_or(js.len(), |at| body_end + at + 1),
        false => body_end,
    };
    Ok(format!("{}{}", &js[..start], &js[end..]))
}

/// `wasm` without the exports `drop` names (section 7), the rest as it was.
fn drop_exports(wasm: &[u8], drop: impl Fn(&str) -> bool) -> Result<Vec<u8>, String> {
    rewrite_section(wasm, 7, |body| {
        let mut kept = Vec::new();
        let mut count = 0;
        let mut at = 0;
        for _ in 0..leb(body, &mut at)? {
            let export = name(body, &mut at)?;
            let described = at;
            at += 1;
            leb(body, &mut at)?;
            if !drop(export) {
                count += 1;
                push_name(&mut kept, export);
                kept.extend_from_slice(&body[described..at]);
            }
        }
        let mut section = Vec::new();
        push_leb(&mut section, count);
        section.extend(kept);
        Ok(section)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module exporting a class's method, its free and `main`, then a custom section.
    fn module() -> Vec<u8> {
        let mut exports = Vec::new();
        push_leb(&mut exports, 3);
        for (export, index) in [
            ("intounderlyingsink_close", 4u8),
            ("main", 5),
            ("__wbg_intounderlyingsink_free", 6),
        ] {
            push_name(&mut exports, export);
            exports.extend([0, index]);
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.push(7);
        push_leb(&mut wasm, exports.len() as u64);
        wasm.extend(&exports);
        wasm.extend([0, 4, 1, b'x', 7, 7]);
        wasm
    }

    #[test]
    fn a_class_and_its_exports_go_and_the_rest_stays() {
        let mut js = String::from("import x from \"./a.js\";\n\n");
        for class in CLASSES {
            js.push_str(&format!(
                "export class {class} {{\n    free() {{\n        wasm.x();\n    }}\n}}\n\
                 if (Symbol.dispose) {class}.prototype[Symbol.dispose] = {class}.prototype.free;\n\n"
            ));
        }
        js.push_str("export function main() {}\n");
        let (wasm, js) = drop_unused(&module(), &js).unwrap();
        assert_eq!(
            js,
            "import x from \"./a.js\";\n\n\n\n\nexport function main() {}\n"
        );
        let mut expected = b"\0asm\x01\0\0\0\x07".to_vec();
        let mut exports = Vec::new();
        push_leb(&mut exports, 1);
        push_name(&mut exports, "main");
        exports.extend([0, 5]);
        push_leb(&mut expected, exports.len() as u64);
        expected.extend(exports);
        expected.extend([0, 4, 1, b'x', 7, 7]);
        assert_eq!(wasm, expected);
    }

    #[test]
    fn a_class_the_app_makes_stops_the_build() {
        let js = "export class IntoUnderlyingSink {\n}\nIntoUnderlyingSink.__wrap(1);\n";
        let refused = drop_unused(&module(), js).unwrap_err();
        assert!(refused.contains("IntoUnderlyingSink"), "{refused}");
    }
}
