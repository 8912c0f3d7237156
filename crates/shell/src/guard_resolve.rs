//! Whether the guard can resolve a destructive command's target, and the
//! checks of the commands that destroy what they are given: recursive
//! `rm`, `mv`, recursive `chmod`/`chown`/`chgrp`/`setfacl` and `rsync`
//! with deletion.
//!
//! Fail closed: a target is allowed only when the guard knows what it
//! names, from every directory the shell may be in, and that is not
//! critical. A value computed when the command runs (a variable the line
//! does not set, a command's output, `~user`, `~+`, `~-`, a directory `cd`
//! reached through one of those, a link the line itself creates) is
//! refused with a request to name the path literally, and so is a relative
//! path that leaves the starting directory or names it whole: the guard
//! does not know the workspace's name, so `../proj` may be the workspace
//! itself and `../..` an ancestor.

use super::*;

/// The unresolved reason's ending: what the user can do about it.
const NAME_IT: &str = "name the path literally";

/// What stands for the arguments `xargs` adds from input the guard does
/// not know; a `$` makes every check treat it as computed.
pub(super) const UNKNOWN_INPUT: &str = "$(xargs-input)";

/// How a destructive command treats its target.
#[derive(Clone, Copy)]
pub(super) struct Op<'a> {
    /// What begins the reason ("recursive rm of").
    pub(super) what: &'a str,
    /// A critical target is refused (not for the place `mv` moves into:
    /// moving into `/etc` is a write the sandbox and the rules judge).
    pub(super) critical: bool,
    /// The command acts on what a link names, not on the link: only
    /// `rm` removes a link itself.
    pub(super) follows: bool,
}

impl<'a> Op<'a> {
    /// Deletes, or changes everything below, its target.
    pub(super) fn destroys(what: &'a str) -> Self {
        Self {
            what,
            critical: true,
            follows: true,
        }
    }
}

/// Every word brace expansion makes of `word` (`/{etc,usr}`, `{1..3}`).
/// `${…}` is a parameter, not a brace expression.
pub(super) fn braces(word: &str) -> Result<Vec<String>, String> {
    let mut todo = vec![word.to_owned()];
    let mut done = Vec::new();
    while let Some(w) = todo.pop() {
        match first_group(&w) {
            Some(alts) => todo.extend(alts),
            None => done.push(w),
        }
        if todo.len() + done.len() > MAX_VARIANTS {
            return Err(format!("{word} expands to too many words to check"));
        }
    }
    done.reverse();
    Ok(done)
}

/// The words the first brace expression in `w` stands for, if it has one.
fn first_group(w: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = w.chars().collect();
    let mut start = 0;
    while let Some(open) = chars[start..].iter().position(|&c| c == '{') {
        let open = start + open;
        start = open + 1;
        if open > 0 && chars[open - 1] == '$' {
            continue;
        }
        let mut depth = 0usize;
        let mut commas = Vec::new();
        let mut close = None;
        for (k, &c) in chars.iter().enumerate().skip(open) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(k);
                        break;
                    }
                }
                ',' if depth == 1 => commas.push(k),
                _ => {}
            }
        }
        // An unclosed brace is literal, and so is everything after it.
        let close = close?;
        let pre: String = chars[..open].iter().collect();
        let post: String = chars[close + 1..].iter().collect();
        let inner: Vec<String> = if commas.is_empty() {
            match sequence(&chars[open + 1..close].iter().collect::<String>()) {
                Some(seq) => seq,
                None => continue,
            }
        } else {
            let mut from = open + 1;
            let mut parts = Vec::new();
            for &c in commas.iter().chain(std::iter::once(&close)) {
                parts.push(chars[from..c].iter().collect());
                from = c + 1;
            }
            parts
        };
        return Some(inner.iter().map(|i| format!("{pre}{i}{post}")).collect());
    }
    None
}

/// `a..e` or `1..10[..step]`, bounded; `None` when it is not a sequence.
fn sequence(inner: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = inner.split("..").collect();
    let (a, b) = match parts.as_slice() {
        [a, b] | [a, b, _] => (*a, *b),
        _ => return None,
    };
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let n = x.abs_diff(y);
        if n >= MAX_VARIANTS as u64 {
            // Too long to list: a stand-in the checks treat as computed.
            return Some(vec![format!("${{{inner}}}")]);
        }
        let (lo, hi) = (x.min(y), x.max(y));
        return Some((lo..=hi).map(|v| v.to_string()).collect());
    }
    let (mut x, mut y) = (a.chars(), b.chars());
    match (x.next(), x.next(), y.next(), y.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            let (lo, hi) = (x.min(y) as u8, x.max(y) as u8);
            Some((lo..=hi).map(|c| char::from(c).to_string()).collect())
        }
        _ => None,
    }
}

/// Why `path` (one brace alternative) is computed when the command runs,
/// before any directory is considered.
pub(super) fn computed(path: &str) -> Option<&'static str> {
    // A backtick left in a word is an escaped substitution nested in a
    // backtick one (`` `rm -rf \`pwd\`` ``), which the parse keeps as text.
    if has_marker(path) || path.contains('`') {
        return Some("it is a command's output, computed when the command runs");
    }
    let rest = ["HOME", "PWD"]
        .iter()
        .find_map(|v| strip_var(path, v))
        .unwrap_or(path);
    if rest.contains('$') {
        return Some("it holds a value the line does not set, computed when the command runs");
    }
    if path.starts_with('~') && path != "~" && !path.starts_with("~/") {
        return Some("`~name`, `~+` and `~-` are computed when the command runs");
    }
    None
}

/// The last component of `path` is `.` or `..`, which `rm` and `mv` refuse
/// to touch themselves.
fn dot_last(path: &str) -> bool {
    matches!(
        path.trim_end_matches('/').rsplit('/').next(),
        Some("." | ".." | "")
    )
}

impl Guard {
    /// `Err(reason)` unless `original` names, from every directory the
    /// shell may be in, a path the guard knows and that is not critical.
    pub(super) fn judge(&self, op: Op<'_>, original: &str, ctx: &Ctx) -> Result<(), String> {
        let what = op.what;
        // Substitutions as the user wrote them, not as the guard's markers.
        let shown: String = original
            .chars()
            .map(|c| match marker_index(c) {
                Some(_) => "$(…)".to_owned(),
                None => c.to_string(),
            })
            .collect();
        let target = shown.as_str();
        let unresolved = |why: &str| Err(format!("{what} {target}: {why}; {NAME_IT}"));
        for alt in braces(original)? {
            // A home the line assigns is what `~` means.
            let homes: Vec<String> = match ctx.var("HOME") {
                Some(values) if alt == "~" || alt.starts_with("~/") => {
                    values.iter().map(|h| format!("{h}{}", &alt[1..])).collect()
                }
                _ => vec![alt],
            };
            for path in &homes {
                if let Some(why) = computed(path) {
                    return unresolved(why);
                }
                for dir in &ctx.cwd {
                    let n = resolve(dir, path);
                    if n.base == Base::Unknown {
                        return unresolved(
                            "the directory it is run in is computed when the command runs",
                        );
                    }
                    if op.critical && is_critical(&n) {
                        let from = if resolve("", path) == n {
                            String::new()
                        } else {
                            dir.clone()
                        };
                        return Err(format!("{what} {target}{}", in_dir(&from)));
                    }
                    if n.base == Base::Start && n.ups > 0 {
                        return Err(format!(
                            "{what} {target}: it leaves the directory the command starts in, and may be the workspace itself or an ancestor; {NAME_IT}, as an absolute path"
                        ));
                    }
                    // `.` itself is fine: `rm` and `mv` refuse it, and a
                    // `chmod -R` or `rsync` into it stays inside. `$PWD`
                    // names the workspace to any program.
                    if n.base == Base::Start && n.comps.is_empty() && !dot_last(path) {
                        return unresolved("it is the whole directory the command starts in");
                    }
                    if self.links_unknown && n.base == Base::Start {
                        return unresolved(
                            "the line creates a link whose name is computed when the command runs",
                        );
                    }
                    let through = self.links.iter().find(|l| {
                        l.base == n.base
                            && l.ups == n.ups
                            && n.comps.starts_with(&l.comps)
                            && (n.comps.len() > l.comps.len() || path.ends_with('/') || op.follows)
                    });
                    if let Some(l) = through {
                        return unresolved(&format!(
                            "it goes through the link {} the line creates",
                            render(l)
                        ));
                    }
                    // `.` itself was allowed above.
                    if op.critical && !(n.base == Base::Start && n.comps.is_empty()) {
                        self.judge_place(op, target, path, &n)?;
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn check_rm(&self, args: &[String], ctx: &Ctx) -> Result<(), String> {
        let p = parse_opts(args);
        if p.long.contains(&"no-preserve-root") {
            return Err("rm --no-preserve-root".into());
        }
        let recursive = p.short.contains(['r', 'R']) || p.long.contains(&"recursive");
        if !recursive {
            return Ok(());
        }
        let op = Op {
            follows: false,
            ..Op::destroys("recursive rm of")
        };
        for t in &p.operands {
            self.judge(op, t, ctx)?;
        }
        Ok(())
    }

    /// `mv`: every source and the target must be known; a critical source
    /// (moving `~` or `/usr` away) is refused.
    pub(super) fn check_mv(&self, args: &[String], ctx: &Ctx) -> Result<(), String> {
        let mut operands: Vec<&str> = Vec::new();
        let mut target_dir: Option<&str> = None;
        let mut it = args.iter();
        let mut opts = true;
        while let Some(a) = it.next() {
            if !opts || a == "-" || !a.starts_with('-') {
                operands.push(a);
            } else if a == "--" {
                opts = false;
            } else if a == "-S" || a == "--suffix" {
                it.next();
            } else if a == "-t" || a == "--target-directory" {
                target_dir = it.next().map(String::as_str);
            } else if let Some(d) = a.strip_prefix("--target-directory=") {
                target_dir = Some(d);
            } else if let Some(d) = a.strip_prefix("-t") {
                target_dir = Some(d);
            }
        }
        let dest = match target_dir {
            Some(d) => Some(d),
            None if operands.len() > 1 => operands.pop(),
            None => None,
        };
        if let Some(d) = dest {
            let op = Op {
                critical: false,
                ..Op::destroys("mv onto")
            };
            self.judge(op, d, ctx)?;
        }
        for s in operands {
            self.judge(Op::destroys("mv of"), s, ctx)?;
        }
        Ok(())
    }

    /// Recursive `chmod`/`chown`/`chgrp`: the first operand is the mode or
    /// owner (unless `--reference` gives it).
    pub(super) fn check_recursive_owner(
        &self,
        name: &str,
        args: &[String],
        ctx: &Ctx,
    ) -> Result<(), String> {
        let p = parse_opts(args);
        let recursive = p.short.contains('R') || p.long.contains(&"recursive");
        if !recursive {
            return Ok(());
        }
        let referenced = p.long.iter().any(|l| l.starts_with("reference"));
        let skip = match p.operands.first() {
            Some(first) if !referenced && (name != "chmod" || is_mode(first)) => 1,
            _ => 0,
        };
        for t in &p.operands[skip..] {
            let what = format!("recursive {name} of");
            self.judge(Op::destroys(&what), t, ctx)?;
        }
        Ok(())
    }

    /// `setfacl -R`: operands after the ACL options and their arguments.
    pub(super) fn check_setfacl(&self, args: &[String], ctx: &Ctx) -> Result<(), String> {
        const TAKES: &[&str] = &[
            "--modify",
            "--modify-file",
            "--remove",
            "--remove-file",
            "--set",
            "--set-file",
        ];
        let mut recursive = false;
        let mut operands = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a == "--recursive" {
                recursive = true;
            } else if TAKES.contains(&a.as_str()) {
                it.next();
            } else if a.starts_with("--") {
            } else if let Some(short) = a.strip_prefix('-').filter(|s| !s.is_empty()) {
                recursive |= short.contains('R');
                if short.ends_with(['m', 'M', 'x', 'X']) {
                    it.next();
                }
            } else {
                operands.push(a);
            }
        }
        if recursive {
            for t in operands {
                self.judge(Op::destroys("recursive setfacl of"), t, ctx)?;
            }
        }
        Ok(())
    }

    /// `rsync` that deletes (`--delete*`, `--del`, `--remove-source-files`):
    /// every local operand must be known. Remote ones (`host:path`,
    /// `rsync://`) are another machine's.
    pub(super) fn check_rsync(&self, args: &[String], ctx: &Ctx) -> Result<(), String> {
        let deletes = args.iter().any(|a| {
            a.strip_prefix("--")
                .is_some_and(|l| l.starts_with("del") || l.starts_with("remove-source-files"))
        });
        if !deletes {
            return Ok(());
        }
        for a in args.iter().filter(|a| !a.starts_with('-')) {
            let remote =
                a.starts_with("rsync://") || a.split('/').next().is_some_and(|h| h.contains(':'));
            if !remote {
                self.judge(Op::destroys("rsync deleting in"), a, ctx)?;
            }
        }
        Ok(())
    }

    /// Records the links `ln` makes: a later destructive command through
    /// one of them is refused, and so is a write through a link to a disk
    /// device.
    pub(super) fn record_links(&mut self, args: &[String], ctx: &Ctx) {
        let mut operands: Vec<&str> = Vec::new();
        let mut dir: Option<&str> = None;
        let mut it = args.iter();
        let mut opts = true;
        while let Some(a) = it.next() {
            if !opts || !a.starts_with('-') || a == "-" {
                operands.push(a);
            } else if a == "--" {
                opts = false;
            } else if a == "-S" || a == "--suffix" {
                it.next();
            } else if a == "-t" || a == "--target-directory" {
                dir = it.next().map(String::as_str);
            } else if let Some(d) = a.strip_prefix("--target-directory=") {
                dir = Some(d);
            }
        }
        let (sources, made): (&[&str], Vec<String>) = match (dir, operands.as_slice()) {
            (Some(d), all) => (all, vec![d.to_owned()]),
            (None, [one]) => (
                &operands[..],
                vec![
                    one.trim_end_matches('/')
                        .rsplit('/')
                        .next()
                        .unwrap_or(one)
                        .to_owned(),
                ],
            ),
            (None, [sources @ .., last]) => (sources, vec![(*last).to_owned()]),
            (None, []) => return,
        };
        let to_device = sources.iter().any(|s| self.is_device(s));
        for m in &made {
            if computed(m).is_some() {
                self.links_unknown = true;
                continue;
            }
            for d in &ctx.cwd {
                let n = resolve(d, m);
                if n.base == Base::Unknown {
                    self.links_unknown = true;
                } else if to_device {
                    self.device_links.push(n);
                } else {
                    self.links.push(n);
                }
            }
        }
    }
}

/// A `chmod` mode: octal digits or `[ugoa]*[-+=][rwxXst]*`, comma-joined.
fn is_mode(word: &str) -> bool {
    !word.is_empty()
        && (word.chars().all(|c| c.is_ascii_digit())
            || word.split(',').all(|part| {
                let p = part.trim_start_matches(['u', 'g', 'o', 'a']);
                p.starts_with(['-', '+', '=']) && p.chars().all(|c| "-+=rwxXstugo".contains(c))
            }))
}
