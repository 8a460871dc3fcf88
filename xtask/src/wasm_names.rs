//! Shorter names for the JS functions the main wasm imports. wasm-bindgen names each one
//! `__wbg_<name>_<16 hex digits>`; the digits are noise to brotli, twice over (the wasm's
//! import section and the JS object that provides them), about 3 KB of the first load. Each
//! such name becomes `<prefix>_<n>`, `n` counting up in base 36, in both files; a name the
//! JS does not hold leaves both files as they were.

use std::ops::Range;

/// `wasm` and `js` with the hashed import names shortened.
pub fn shorten(wasm: &[u8], js: &str) -> Result<(Vec<u8>, String), String> {
    let mut renamed: Vec<(String, String)> = Vec::new();
    let wasm = rewrite_imports(wasm, |import| {
        let field = import.field;
        let hashed = field.rsplit_once('_').filter(|(prefix, hash)| {
            prefix.starts_with("__wb")
                && hash.len() == 16
                && hash.bytes().all(|b| b.is_ascii_hexdigit())
        });
        let field = match hashed {
            Some((prefix, _)) => {
                let short = format!("{prefix}_{}", base36(renamed.len()));
                renamed.push((field.to_string(), short.clone()));
                short
            }
            None => field.to_string(),
        };
        Ok((import.module.to_string(), field))
    })?;
    let mut js = js.to_string();
    for (long, short) in &renamed {
        if !js.contains(long.as_str()) {
            return Err(format!("the JS does not provide the import {long}"));
        }
        js = js.replace(long.as_str(), short);
    }
    Ok((wasm, js))
}

fn base36(mut n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
}

/// `wasm` with each import's module and field named as `rename` says (the description
/// kept); an error from `rename` stops the rewrite.
pub(crate) fn rewrite_imports(
    wasm: &[u8],
    mut rename: impl FnMut(&Import) -> Result<(String, String), String>,
) -> Result<Vec<u8>, String> {
    rewrite_section(wasm, 2, |body| {
        let mut out = Vec::with_capacity(body.len());
        let imports = parse_imports(body)?;
        push_leb(&mut out, imports.len() as u64);
        for import in imports {
            let (module, field) = rename(&import)?;
            push_import(&mut out, &module, &field, import.description);
        }
        Ok(out)
    })
}

/// `wasm` with the body of each section `id` replaced by what `rewrite` makes of it, the
/// other sections as they were.
pub(crate) fn rewrite_section(
    wasm: &[u8],
    id: u8,
    mut rewrite: impl FnMut(&[u8]) -> Result<Vec<u8>, String>,
) -> Result<Vec<u8>, String> {
    let mut out = wasm[..8].to_vec();
    for (section, whole, body) in sections(wasm)? {
        if section == id {
            let body = rewrite(&wasm[body])?;
            out.push(id);
            push_leb(&mut out, body.len() as u64);
            out.extend_from_slice(&body);
        } else {
            out.extend_from_slice(&wasm[whole]);
        }
    }
    Ok(out)
}

/// The body of `wasm`'s first section `id`, if it has one.
pub(crate) fn section(wasm: &[u8], id: u8) -> Result<Option<&[u8]>, String> {
    Ok(sections(wasm)?
        .into_iter()
        .find(|(section, _, _)| *section == id)
        .map(|(_, _, body)| &wasm[body]))
}

/// A section: its id, where it lies and where its body lies.
type Section = (u8, Range<usize>, Range<usize>);

/// Each section of `wasm`.
fn sections(wasm: &[u8]) -> Result<Vec<Section>, String> {
    if wasm.get(..8) != Some(b"\0asm\x01\0\0\0".as_slice()) {
        return Err("not a wasm module (version 1)".into());
    }
    let mut found = Vec::new();
    let mut at = 8;
    while at < wasm.len() {
        let mut body_at = at + 1;
        let size = leb(wasm, &mut body_at)? as usize;
        let end = body_at + size;
        if end > wasm.len() {
            return Err("a section runs past the end".into());
        }
        found.push((wasm[at], at..end, body_at..end));
        at = end;
    }
    Ok(found)
}

/// An import as the import section holds it: its description is its kind's byte and what
/// follows (a type, limits, a global's type).
pub(crate) struct Import<'a> {
    pub module: &'a str,
    pub field: &'a str,
    pub description: &'a [u8],
}

/// The imports of the import section `body`.
pub(crate) fn parse_imports(body: &[u8]) -> Result<Vec<Import<'_>>, String> {
    let mut at = 0;
    let count = leb(body, &mut at)?;
    let mut imports = Vec::new();
    for _ in 0..count {
        let module = name(body, &mut at)?;
        let field = name(body, &mut at)?;
        let described = at;
        skip_description(body, &mut at)?;
        imports.push(Import {
            module,
            field,
            description: &body[described..at],
        });
    }
    if at != body.len() {
        return Err("the import section has bytes after its imports".into());
    }
    Ok(imports)
}

/// Appends an import to an import section.
pub(crate) fn push_import(out: &mut Vec<u8>, module: &str, field: &str, description: &[u8]) {
    push_name(out, module);
    push_name(out, field);
    out.extend_from_slice(description);
}

/// Moves past an import's description: function, table, memory, global or tag.
fn skip_description(body: &[u8], at: &mut usize) -> Result<(), String> {
    let kind = *body.get(*at).ok_or("an import without a kind")?;
    *at += 1;
    let limits = |at: &mut usize| -> Result<(), String> {
        let flags = *body.get(*at).ok_or("limits without flags")?;
        *at += 1;
        leb(body, at)?;
        if flags & 1 == 1 {
            leb(body, at)?;
        }
        Ok(())
    };
    match kind {
        0 => leb(body, at).map(drop),
        1 => {
            *at += 1;
            limits(at)
        }
        2 => limits(at),
        3 => {
            *at += 2;
            Ok(())
        }
        4 => {
            *at += 1;
            leb(body, at).map(drop)
        }
        other => Err(format!("an import of unknown kind {other}")),
    }
}

pub(crate) fn name<'a>(body: &'a [u8], at: &mut usize) -> Result<&'a str, String> {
    let len = leb(body, at)? as usize;
    let bytes = body.get(*at..*at + len).ok_or("a name runs past the end")?;
    *at += len;
    std::str::from_utf8(bytes).map_err(|_| "a name that is not UTF-8".to_string())
}

pub(crate) fn push_name(out: &mut Vec<u8>, name: &str) {
    push_leb(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
}

/// An unsigned LEB128 number at `at`, moving past it.
pub(crate) fn leb(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).ok_or("a number runs past the end")?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a number longer than 64 bits".into())
}

pub(crate) fn push_leb(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module importing two hashed functions, a memory and an unhashed function, then a
    /// custom section.
    fn module() -> Vec<u8> {
        let mut imports = Vec::new();
        push_leb(&mut imports, 4);
        for (field, description) in [
            ("__wbg_body_5f971cbc6950ca4f", vec![0u8, 3]),
            ("memory", vec![2, 1, 17, 100]),
            ("__wbindgen_cast_0000000000000001", vec![0, 1]),
            ("plain", vec![0, 0]),
        ] {
            push_name(&mut imports, "./app_bg.js");
            push_name(&mut imports, field);
            imports.extend(description);
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.push(2);
        push_leb(&mut wasm, imports.len() as u64);
        wasm.extend(&imports);
        wasm.extend([0, 4, 1, b'x', 7, 7]);
        wasm
    }

    fn fields(wasm: &[u8]) -> Vec<String> {
        let mut found = Vec::new();
        rewrite_imports(wasm, |i| {
            found.push(i.field.to_string());
            Ok((i.module.to_string(), i.field.to_string()))
        })
        .unwrap();
        found
    }

    #[test]
    fn hashed_names_shorten_in_both_files_and_the_rest_stays() {
        let js = "{__wbg_body_5f971cbc6950ca4f:function(n){return n.body},\
                  __wbindgen_cast_0000000000000001:function(n){return n},plain:()=>0}";
        let (wasm, js) = shorten(&module(), js).unwrap();
        assert_eq!(
            fields(&wasm),
            ["__wbg_body_0", "memory", "__wbindgen_cast_1", "plain"]
        );
        assert_eq!(
            js,
            "{__wbg_body_0:function(n){return n.body},\
             __wbindgen_cast_1:function(n){return n},plain:()=>0}"
        );
        // Everything after the import section is as it was.
        assert!(wasm.ends_with(&[0, 4, 1, b'x', 7, 7]));
        assert_eq!(base36(36 * 36 + 35), "10z");
    }

    #[test]
    fn an_import_the_js_does_not_provide_stops_the_shortening() {
        let refused = shorten(&module(), "{plain:()=>0}").unwrap_err();
        assert!(refused.contains("__wbg_body_5f971cbc6950ca4f"), "{refused}");
    }
}
