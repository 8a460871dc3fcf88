//! The split build's loader, read and written short. The splitter writes one `makeLoad` of
//! six lines for each of its ~180 shared chunks and lists every chunk a page needs by name;
//! the loader is in the first load, where those repeats cost 0.7 KB after brotli. The same
//! loads are written here as one function, with each page's chunks as ranges of numbers
//! (`"12-102,105"`), each load made once, on first use; the numbers are of the files the
//! chunks are merged into (`chunk_groups.rs`). Anything in the loader not of the splitter's
//! known form is refused, so a new splitter cannot be misread.

/// The splitter's loader, read: what comes before its loads, its chunks' numbers and each
/// page's chunks.
pub struct Loader {
    header: String,
    chunks: Vec<u32>,
    pub pages: Vec<(String, Vec<u32>)>,
}

/// Reads the splitter's loader `text`, refusing anything not of its known form.
pub fn parse(text: &str) -> Result<Loader, String> {
    let start = text
        .find("\n/*")
        .or_else(|| text.find("\nconst __chunk_"))
        .ok_or("the loader has no chunks")?;
    let (header, body) = text.split_at(start + 1);
    if !header.contains("function makeLoad(") || !header.contains("function wrapAsyncCb(") {
        return Err("the loader has no makeLoad and wrapAsyncCb".into());
    }
    let mut chunks = Vec::new();
    let mut pages = Vec::new();
    for block in blocks(body) {
        if let Some(rest) = block.strip_prefix("const __chunk_") {
            let number = rest
                .split(' ')
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| format!("a chunk without a number: {block}"))?;
            if block != chunk_block(number) {
                return Err(format!("chunk {number} is not of the known form: {block}"));
            }
            chunks.push(number);
        } else if let Some(rest) = block.strip_prefix("export const __wasm_split_load_") {
            let name = rest.split(' ').next().unwrap_or_default();
            let head = page_head(name);
            let deps = block
                .strip_prefix(&head)
                .and_then(|b| b.strip_prefix(", ["))
                .and_then(|b| b.strip_suffix("]));"))
                .ok_or_else(|| format!("page {name} is not of the known form: {block}"))?;
            let mut numbers = Vec::new();
            for dep in deps.split(", ").filter(|d| !d.is_empty()) {
                let number = dep
                    .strip_prefix("__chunk_")
                    .and_then(|n| n.parse::<u32>().ok())
                    .ok_or_else(|| format!("page {name} needs {dep}, not a chunk"))?;
                numbers.push(number);
            }
            if let Some(missing) = numbers.iter().find(|n| !chunks.contains(n)) {
                return Err(format!(
                    "page {name} needs chunk {missing}, which the loader lacks"
                ));
            }
            numbers.sort_unstable();
            numbers.dedup();
            pages.push((name.to_string(), numbers));
        } else {
            return Err(format!(
                "the loader holds what is not a chunk or a page: {block}"
            ));
        }
    }
    Ok(Loader {
        header: header.to_string(),
        chunks,
        pages,
    })
}

impl Loader {
    /// The chunks' numbers, in the loader's order.
    pub fn chunks(&self) -> &[u32] {
        &self.chunks
    }

    /// The loader written short, its chunks fetched as `groups` (`chunk_groups.rs`): group
    /// `n` of them is the file `chunk_<n>-<build>.wasm`, and each page loads the groups
    /// holding its chunks.
    pub fn write(&self, build: &str, groups: &[Vec<u32>]) -> Result<String, String> {
        let group_of = |chunk: &u32| groups.iter().position(|g| g.contains(chunk));
        if let Some(lost) = self.chunks.iter().find(|c| group_of(c).is_none()) {
            return Err(format!("chunk {lost} is in no group"));
        }
        let mut out = self.header.clone();
        out.push_str(&format!(
            r#"// The chunks' loads, made on first use, one each.
const chunks = [];
function load(name, deps) {{
    return makeLoad(() => {{
        const src = fetch(new URL(`./${{name}}-{build}.wasm`, import.meta.url));
        src.catch(() => {{}});
        return async (imports) => WebAssembly.instantiateStreaming(src, imports);
    }}, deps);
}}
// The chunks numbered in `ranges` ("12-102,105").
function shared(ranges) {{
    return ranges.split(",").flatMap((range) => {{
        const [from, to = from] = range.split("-").map(Number);
        return Array.from({{ length: to - from + 1 }}, (_, k) => (chunks[from + k] ??= load(`chunk_${{from + k}}`, [])));
    }});
}}
"#
        ));
        for (name, needs) in &self.pages {
            let mut numbers: Vec<u32> = needs
                .iter()
                .filter_map(|c| group_of(c).map(|g| g as u32))
                .collect();
            numbers.sort_unstable();
            numbers.dedup();
            let deps = if numbers.is_empty() {
                "[]".to_string()
            } else {
                format!("shared(\"{}\")", ranges(&numbers))
            };
            out.push_str(&format!(
                "export const __wasm_split_load_{name} = wrapAsyncCb(load(\"split_{name}\", {deps}));\n"
            ));
        }
        Ok(out)
    }
}

/// The body's statements, each from a line starting `const ` or `export const ` to the next,
/// without the splitter's comment lines.
fn blocks(body: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in body.lines() {
        let line = line.trim_end();
        if line.is_empty() || (line.starts_with("/*") && line.ends_with("*/")) {
            continue;
        }
        match blocks.last_mut() {
            Some(block) if !line.starts_with("const ") && !line.starts_with("export const ") => {
                block.push('\n');
                block.push_str(line);
            }
            _ => blocks.push(line.to_string()),
        }
    }
    blocks
}

/// How the splitter fetches `file`, as its loads' first lines say.
fn fetch(file: &str) -> String {
    format!(
        "    const src = fetch(new URL(\"./{file}.wasm\", import.meta.url));\n    src.catch(() => {{}});\n    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));\n}}"
    )
}

fn chunk_block(number: u32) -> String {
    format!(
        "const __chunk_{number} = makeLoad(() => {{\n{}\n, []);",
        fetch(&format!("chunk_{number}"))
    )
}

fn page_head(name: &str) -> String {
    format!(
        "export const __wasm_split_load_{name} = wrapAsyncCb(makeLoad(() => {{\n{}\n",
        fetch(&format!("split_{name}"))
    )
}

/// Sorted numbers as ranges: `[1, 2, 3, 5]` is `"1-3,5"`.
fn ranges(numbers: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let from = numbers[i];
        while i + 1 < numbers.len() && numbers[i + 1] == numbers[i] + 1 {
            i += 1;
        }
        let to = numbers[i];
        out.push(if from == to {
            from.to_string()
        } else {
            format!("{from}-{to}")
        });
        i += 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "import { initSync } from \"./app.js\";\nfunction wrapAsyncCb(callee) {}\nfunction makeLoad(fetcher, deps) {}\n";

    fn loader(chunks: &[u32], pages: &[(&str, &[u32])]) -> String {
        let mut text = HEADER.to_string();
        for n in chunks {
            text.push_str(&format!("/* a, b */\n{}\n", chunk_block(*n)));
        }
        for (name, deps) in pages {
            let deps: Vec<String> = deps.iter().map(|n| format!("__chunk_{n}")).collect();
            text.push_str(&format!("{}, [{}]));\n", page_head(name), deps.join(", ")));
        }
        text
    }

    #[test]
    fn each_page_names_the_groups_of_its_chunks_as_ranges_of_one_load_function() {
        let text = loader(
            &[12, 13, 14, 15, 17],
            &[("task_page", &[15, 12, 13, 17]), ("connect_page", &[])],
        );
        let read = parse(&text).unwrap();
        assert_eq!(read.chunks(), [12, 13, 14, 15, 17]);
        assert_eq!(
            read.pages[0],
            ("task_page".to_string(), vec![12, 13, 15, 17])
        );
        // Each chunk a group of its own: the groups are numbered from 0.
        let alone: Vec<Vec<u32>> = read.chunks().iter().map(|c| vec![*c]).collect();
        let short = read.write("ab12", &alone).unwrap();
        assert!(short.starts_with(HEADER), "{short}");
        assert!(short.contains("`./${name}-ab12.wasm`"), "{short}");
        assert!(short.contains(
            "export const __wasm_split_load_task_page = wrapAsyncCb(load(\"split_task_page\", shared(\"0-1,3-4\")));"
        ), "{short}");
        assert!(short.contains(
            "export const __wasm_split_load_connect_page = wrapAsyncCb(load(\"split_connect_page\", []));"
        ), "{short}");
        assert!(!short.contains("__chunk_"), "{short}");
        assert!(short.len() < text.len());
        // Merged: the page loads each group holding one of its chunks, once.
        let merged = read
            .write("ab12", &[vec![12, 13, 14], vec![15, 17]])
            .unwrap();
        assert!(
            merged.contains("load(\"split_task_page\", shared(\"0-1\"))"),
            "{merged}"
        );
        let lost = read
            .write("ab12", &[vec![12, 13, 14], vec![15]])
            .unwrap_err();
        assert!(lost.contains("chunk 17"), "{lost}");
    }

    #[test]
    fn a_loader_of_another_form_is_refused() {
        let text = loader(&[12], &[("task_page", &[12])]);
        let changed = text.replace("src.catch(() => {});", "src.catch(console.error);");
        assert!(parse(&changed).err().unwrap().contains("known form"));
        let unknown = format!("{text}export const somethingElse = 1;\n");
        assert!(parse(&unknown)
            .err()
            .unwrap()
            .contains("not a chunk or a page"));
        let missing = loader(&[12], &[("task_page", &[12, 40])]);
        assert!(parse(&missing).err().unwrap().contains("lacks"));
    }

    #[test]
    fn ranges_join_runs_of_numbers() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
        assert_eq!(ranges(&[4]), "4");
    }
}
