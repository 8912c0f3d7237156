//! Variables the parse does not show being assigned: `for`/`select` loop
//! variables (found in the script's text, since the parsed loop keeps only
//! its body) and the names `read`, `mapfile`, `printf -v` and `getopts`
//! fill in at run time. The guard never takes such a variable's earlier
//! value as its only one.

use super::*;

/// Most words of a literal loop list taken as the loop variable's values;
/// longer lists make it unknown, so nested loops stay within
/// [`MAX_VARIANTS`].
const MAX_LOOP_VALUES: usize = 4;

/// The loop variables `script` names, each with the literal words of its
/// `in` list (`None` when the list is computed, too long or absent).
pub(super) fn loop_vars(script: &str) -> Vec<(String, Option<Vec<String>>)> {
    let mut out = Vec::new();
    let bytes = script.as_bytes();
    for kw in ["for", "select"] {
        let mut from = 0;
        while let Some(pos) = script[from..].find(kw) {
            let at = from + pos;
            from = at + kw.len();
            let boundary = at == 0 || b" \t\n;&|(){}!".contains(&bytes[at - 1]);
            let rest = &script[from..];
            if !boundary || !rest.starts_with([' ', '\t']) {
                continue;
            }
            let rest = rest.trim_start_matches([' ', '\t']);
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let after = rest[name.len()..].trim_start_matches([' ', '\t']);
            let list = after
                .strip_prefix("in")
                .filter(|l| l.starts_with([' ', '\t', ';', '\n']))
                .map(|l| &l[..l.find([';', '\n']).unwrap_or(l.len())]);
            let values = list.and_then(|l| {
                let lexed = lex(&format!(": {l}"));
                let [cmd] = lexed.commands.as_slice() else {
                    return None;
                };
                let words = cmd.words.get(1..)?.to_vec();
                let literal = words.len() <= MAX_LOOP_VALUES
                    && lexed.nested.is_empty()
                    && words.iter().all(|w| !has_marker(w));
                literal.then_some(words)
            });
            out.push((name, values));
        }
    }
    out
}

/// The names a `read`, `mapfile`/`readarray`, `printf -v` or `getopts`
/// command (`words`, assignments and keywords gone) fills in.
pub(super) fn filled_names(words: &[String]) -> Vec<String> {
    let Some(first) = words.first().map(String::as_str) else {
        return Vec::new();
    };
    let args = &words[1..];
    let names_after = |takes: &str, default: &str| {
        let mut names = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(opts) = a.strip_prefix('-').filter(|o| !o.is_empty()) {
                // `-a NAME` names an array; other value options take a word.
                if let Some(k) = opts.find(|c| takes.contains(c)) {
                    let value = if k + 1 < opts.len() {
                        Some(opts[k + 1..].to_owned())
                    } else {
                        it.next().cloned()
                    };
                    if opts[k..].starts_with('a')
                        && let Some(v) = value
                    {
                        names.push(v);
                    }
                }
            } else {
                names.push(a.clone());
            }
        }
        if names.is_empty() {
            names.push(default.to_owned());
        }
        names
    };
    match first {
        "read" => names_after("adinNptu", "REPLY"),
        "mapfile" | "readarray" => names_after("dnOsuCc", "MAPFILE")
            .into_iter()
            .rev()
            .take(1)
            .collect(),
        "printf" => match args.first().map(String::as_str) {
            Some("-v") => args.get(1).cloned().into_iter().collect(),
            Some(v) if v.starts_with("-v") => vec![v[2..].to_owned()],
            _ => Vec::new(),
        },
        "getopts" => args.get(1).cloned().into_iter().collect(),
        _ => Vec::new(),
    }
}
