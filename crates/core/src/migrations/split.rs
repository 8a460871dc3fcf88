//! Splitting a migration file into statements: comments dropped, `;` and drizzle's
//! `--> statement-breakpoint` as separators, never inside quotes or a dollar-quoted body.

/// The statements of `sql`, whitespace collapsed, without comments.
pub fn statements(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = sql.chars().collect();
    let mut i = 0;
    let mut dollar: Option<String> = None;
    let mut quote = false;
    while i < chars.len() {
        let c = chars[i];
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        if let Some(tag) = &dollar {
            if chars[i..].starts_with(&tag.chars().collect::<Vec<_>>()) {
                current.push_str(tag);
                i += tag.chars().count();
                dollar = None;
            } else {
                current.push(c);
                i += 1;
            }
            continue;
        }
        if quote {
            current.push(c);
            if c == '\'' {
                quote = false;
            }
            i += 1;
            continue;
        }
        if rest == "--" {
            // A line comment; drizzle's breakpoint marker ends a statement.
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| i + p);
            let comment: String = chars[i..end].iter().collect();
            if comment
                .trim_start_matches('-')
                .trim_start()
                .starts_with('>')
                && comment.contains("statement-breakpoint")
            {
                out.push(std::mem::take(&mut current));
            }
            i = end;
            continue;
        }
        if rest == "/*" {
            let after = chars[i + 2..]
                .windows(2)
                .position(|w| w == ['*', '/'])
                .map_or(chars.len(), |p| i + 2 + p + 2);
            current.push(' ');
            i = after;
            continue;
        }
        if c == '$' {
            // `$$` or `$tag$` opens a dollar-quoted body.
            if let Some(len) = chars[i + 1..].iter().position(|&c| c == '$').filter(|&p| {
                chars[i + 1..i + 1 + p]
                    .iter()
                    .all(|c| c.is_alphanumeric() || *c == '_')
            }) {
                let tag: String = chars[i..i + len + 2].iter().collect();
                current.push_str(&tag);
                i += len + 2;
                dollar = Some(tag);
                continue;
            }
        }
        if c == '\'' {
            quote = true;
        }
        if c == ';' {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
        i += 1;
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect()
}

/// The statement inside drizzle's idempotent wrapper
/// `DO $$ BEGIN <statement>; EXCEPTION WHEN duplicate_object THEN null; END $$`.
pub fn unwrap_duplicate_object_guard(statement: &str) -> Option<String> {
    let upper = statement.to_uppercase();
    let body = upper.strip_prefix("DO $$ BEGIN ")?;
    let tail = " EXCEPTION WHEN DUPLICATE_OBJECT THEN NULL; END $$";
    if !body.ends_with(tail) {
        return None;
    }
    let start = "DO $$ BEGIN ".len();
    let end = statement.len() - tail.len();
    let inner = statement[start..end].trim().trim_end_matches(';').trim();
    (!inner.is_empty() && !inner.contains(';')).then(|| inner.to_string())
}
