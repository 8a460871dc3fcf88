//! What one `.rs` file declares and names: its `mod` items and every path it spells with
//! `::`, with comments, string and char literals and `#[cfg(test)]` items left out.

/// A `mod name;` (`file`) or `mod name { … }`, inside the inline modules `within`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModDecl {
    pub within: Vec<String>,
    pub name: String,
    pub file: bool,
}

/// A path such as `crate::a::B` (one per leaf of a `use` group), inside the inline modules
/// `within`, on `line`; `reexport` when it is in a `pub use`.
#[derive(Debug, Clone, PartialEq)]
pub struct PathRef {
    pub within: Vec<String>,
    pub segments: Vec<String>,
    pub line: usize,
    pub reexport: bool,
}

#[derive(Debug, Default)]
pub struct Scan {
    pub mods: Vec<ModDecl>,
    pub paths: Vec<PathRef>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

struct Token {
    tok: Tok,
    line: usize,
}

pub fn scan(source: &str) -> Scan {
    let mut parser = Parser {
        toks: tokenize(source),
        scan: Scan::default(),
        inline: Vec::new(),
        depth: 0,
    };
    parser.run();
    parser.scan
}

/// Identifiers, `::` and single punctuation; everything else (comments, literals,
/// numbers, whitespace) is dropped.
fn tokenize(source: &str) -> Vec<Token> {
    let s: Vec<char> = source.chars().collect();
    let at = |j: usize| s.get(j).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < s.len() {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(s[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&s, i + 1, &mut line);
        } else if c == '\'' {
            i = skip_char_or_lifetime(&s, i);
        } else if c.is_ascii_digit() {
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            match (word.as_str(), at(i)) {
                ("r" | "br" | "cr", '"' | '#') => {
                    let hashes = s[i..].iter().take_while(|&&h| h == '#').count();
                    if at(i + hashes) == '"' {
                        i = skip_raw_string(&s, i + hashes + 1, hashes, &mut line);
                    } else if word == "r" && hashes == 1 {
                        // A raw identifier, `r#type`: the word after `#` is read next.
                        i += 1;
                    }
                }
                ("b" | "c", '"') => i = skip_string(&s, i + 1, &mut line),
                ("b", '\'') => i = skip_char_or_lifetime(&s, i),
                _ => out.push(Token {
                    tok: Tok::Ident(word),
                    line,
                }),
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

/// From just after an opening `"`, the index after its closing `"`.
fn skip_string(s: &[char], mut i: usize, line: &mut usize) -> usize {
    while i < s.len() {
        match s[i] {
            '\\' => {
                *line += usize::from(s.get(i + 1) == Some(&'\n'));
                i += 2;
            }
            '"' => return i + 1,
            c => {
                *line += usize::from(c == '\n');
                i += 1;
            }
        }
    }
    i
}

/// From just after `r#…#"`, the index after the closing `"#…#`.
fn skip_raw_string(s: &[char], mut i: usize, hashes: usize, line: &mut usize) -> usize {
    while i < s.len() {
        if s[i] == '"'
            && s[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&h| h == '#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        *line += usize::from(s[i] == '\n');
        i += 1;
    }
    i
}

/// At a `'`: skips a char literal (`'a'`, `'\n'`, `'\u{1F600}'`), or only the quote of a
/// lifetime or label, whose name is read as a word.
fn skip_char_or_lifetime(s: &[char], i: usize) -> usize {
    let at = |j: usize| s.get(j).copied().unwrap_or('\0');
    if at(i + 1) == '\\' {
        let mut j = i + 3;
        while j < s.len() && s[j] != '\'' && s[j] != '\n' {
            j += 1;
        }
        j + 1
    } else if at(i + 2) == '\'' {
        i + 3
    } else {
        i + 1
    }
}

struct Parser {
    toks: Vec<Token>,
    scan: Scan,
    /// Open inline modules, each with the brace depth inside it.
    inline: Vec<(String, usize)>,
    depth: usize,
}

impl Parser {
    fn tok(&self, i: usize) -> Option<&Tok> {
        self.toks.get(i).map(|t| &t.tok)
    }

    fn ident(&self, i: usize) -> Option<&str> {
        match self.tok(i) {
            Some(Tok::Ident(word)) => Some(word),
            _ => None,
        }
    }

    fn within(&self) -> Vec<String> {
        self.inline.iter().map(|(name, _)| name.clone()).collect()
    }

    fn run(&mut self) {
        let mut i = 0;
        while i < self.toks.len() {
            i = self.step(i);
        }
    }

    /// Reads what starts at `i`; returns where the next thing starts.
    fn step(&mut self, i: usize) -> usize {
        match self.tok(i) {
            Some(Tok::Punct('#')) => {
                let inner = self.tok(i + 1) == Some(&Tok::Punct('!'));
                let open = i + 1 + usize::from(inner);
                if self.tok(open) != Some(&Tok::Punct('[')) {
                    return i + 1;
                }
                let end = self.close_of(open);
                if !self.is_cfg_test(open + 1, end) {
                    return i + 1;
                }
                if inner {
                    // `#![cfg(test)]`: the rest of this file or inline module is test code.
                    self.close_of_enclosing(end)
                } else {
                    self.end_of_item(end + 1)
                }
            }
            Some(Tok::Ident(word)) if word == "mod" => {
                let Some(name) = self.ident(i + 1).map(str::to_string) else {
                    return i + 1;
                };
                let within = self.within();
                let file = match self.tok(i + 2) {
                    Some(Tok::Punct(';')) => true,
                    Some(Tok::Punct('{')) => {
                        self.depth += 1;
                        self.inline.push((name.clone(), self.depth));
                        false
                    }
                    _ => return i + 1,
                };
                self.scan.mods.push(ModDecl { within, name, file });
                i + 3
            }
            Some(Tok::Punct('{')) => {
                self.depth += 1;
                i + 1
            }
            Some(Tok::Punct('}')) => {
                if self.inline.last().is_some_and(|(_, d)| *d == self.depth) {
                    self.inline.pop();
                }
                self.depth = self.depth.saturating_sub(1);
                i + 1
            }
            Some(Tok::Ident(_))
                if self.tok(i + 1) == Some(&Tok::PathSep)
                    && (i == 0 || self.tok(i - 1) != Some(&Tok::PathSep)) =>
            {
                let mut leaves = Vec::new();
                let end = self.tree(i, &[], &mut leaves);
                let within = self.within();
                let reexport = i > 0 && self.ident(i - 1) == Some("use") && self.is_pub(i - 1);
                self.scan
                    .paths
                    .extend(leaves.into_iter().map(|(segments, line)| PathRef {
                        within: within.clone(),
                        segments,
                        line,
                        reexport,
                    }));
                end
            }
            _ => i + 1,
        }
    }

    /// Reads the path or `use` tree at `i` (`a::b`, `a::{b, c::*}`, `a::{self, b as c}`)
    /// after `prefix`, adding each leaf with its line; returns the index after it.
    fn tree(&self, mut i: usize, prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) -> usize {
        let mut path = prefix.to_vec();
        let mut line = self.toks.get(i).map_or(0, |t| t.line);
        let mut first = true;
        loop {
            match self.tok(i) {
                Some(Tok::Ident(word)) => {
                    // In a group, `self` is the group's own prefix.
                    if !(first && !prefix.is_empty() && word == "self") {
                        path.push(word.clone());
                    }
                    line = self.toks[i].line;
                    i += 1;
                }
                Some(Tok::Punct('*')) => {
                    i += 1;
                    break;
                }
                Some(Tok::Punct('{')) => return self.group(i + 1, &path, out),
                _ => break,
            }
            first = false;
            if self.tok(i) != Some(&Tok::PathSep) {
                break;
            }
            i += 1;
        }
        out.push((path, line));
        i
    }

    /// The items of a `{ … }` group, from just after its `{`; returns the index after `}`.
    fn group(&self, mut i: usize, prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) -> usize {
        loop {
            match self.tok(i) {
                None => return i,
                Some(Tok::Punct('}')) => return i + 1,
                Some(Tok::Punct(',')) => i += 1,
                // `b as c`: the alias names nothing.
                Some(Tok::Ident(word)) if word == "as" => i += 2,
                Some(_) => {
                    let next = self.tree(i, prefix, out);
                    i = if next == i { i + 1 } else { next };
                }
            }
        }
    }

    /// Whether the item keyword at `i` has a `pub`, `pub(crate)`, `pub(in …)` before it.
    fn is_pub(&self, i: usize) -> bool {
        let mut j = i;
        if j > 0 && self.tok(j - 1) == Some(&Tok::Punct(')')) {
            while j > 0 && self.tok(j - 1) != Some(&Tok::Punct('(')) {
                j -= 1;
            }
            j = j.saturating_sub(1);
        }
        j > 0 && self.ident(j - 1) == Some("pub")
    }

    /// The index of the bracket closing the one at `open`.
    fn close_of(&self, open: usize) -> usize {
        let mut depth = 0usize;
        for j in open..self.toks.len() {
            match self.tok(j) {
                Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
                Some(Tok::Punct(')' | ']' | '}')) => {
                    depth -= 1;
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
        }
        self.toks.len()
    }

    /// The index of the bracket closing the one around `i` (the end of the file when none).
    fn close_of_enclosing(&self, i: usize) -> usize {
        let mut depth = 0usize;
        for j in i + 1..self.toks.len() {
            match self.tok(j) {
                Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
                Some(Tok::Punct(')' | ']' | '}')) => {
                    if depth == 0 {
                        return j;
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        self.toks.len()
    }

    /// Whether the attribute tokens in `from..to` are `cfg(…)` true only under test.
    fn is_cfg_test(&self, from: usize, to: usize) -> bool {
        let words: Vec<&str> = (from..to).filter_map(|j| self.ident(j)).collect();
        words.first() == Some(&"cfg") && words.contains(&"test") && !words.contains(&"not")
    }

    /// From the token after an item's outer attribute, the index after that item: its `;`,
    /// the `}` of its body, or just before the bracket closing the group it sits in.
    fn end_of_item(&self, mut i: usize) -> usize {
        while self.tok(i) == Some(&Tok::Punct('#')) && self.tok(i + 1) == Some(&Tok::Punct('[')) {
            i = self.close_of(i + 1) + 1;
        }
        let mut depth = 0usize;
        while i < self.toks.len() {
            match self.tok(i) {
                Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
                Some(Tok::Punct(c @ (')' | ']' | '}'))) => {
                    if depth == 0 {
                        return i;
                    }
                    depth -= 1;
                    if depth == 0 && *c == '}' {
                        return i + 1;
                    }
                }
                Some(Tok::Punct(';')) if depth == 0 => return i + 1,
                _ => {}
            }
            i += 1;
        }
        i
    }
}
