//! The destructive-command guard: commands refused in every permission mode,
//! before any rule or prompt is consulted.
//!
//! Refused: a recursive delete (`rm -r`, `find … -delete`/`-exec rm`), a
//! move (`mv`, of its sources or onto its target), a recursive permission
//! or ownership change (`chmod`/`chown`/`chgrp`/`setfacl -R`) or a sync
//! with deletion (`rsync --delete*`) whose target is `/`, a home, a
//! top-level system directory or an ancestor of the working directory,
//! *or whose target the guard cannot resolve* (below); any
//! `rm --no-preserve-root`; fork bombs; `mkfs*`, `mke2fs`, `mkswap` and
//! other formatters; any program but a known reader given a disk device,
//! and redirection onto one; and every git transport that can force-update
//! or delete remote refs: `git push` with `--force`/`-f`/`+refspec`,
//! `--delete`/`-d`/`:branch`, `--mirror` or `--prune` (`--force-with-lease`
//! is allowed), `git send-pack`/`http-push` forcing, mirroring, deleting or
//! pushing all, and configuration that makes a push a mirror or forced
//! (`-c remote.X.mirror=true`, `-c remote.X.push=+…`, `-c push.*`,
//! `git config remote.X.mirror`, `GIT_CONFIG_*` in the environment), also
//! through a git alias the same line defines (`git config alias.x …`,
//! `git -c alias.x=…`).
//! Each is found after `;`, `&&`, `||`, `|`, `&`, in `( … )` and `{ …; }`,
//! behind wrappers (`sudo`, `env`, `xargs`, `timeout`, …), inside
//! `bash -c '…'`, `eval`, `$(…)`/backticks and literal `echo`/`printf` text
//! piped into a shell.
//!
//! Targets are normalized lexically (`..`, `.`, `//`, brace expansion) and
//! followed through what the line itself makes knowable: earlier
//! `NAME=value` assignments, literal `for` lists, `$(echo …)` and `$(pwd)`
//! substitutions, and `cd` to a literal directory (so `cd / && rm -rf *` is
//! caught). Where the line can take several paths the guard assumes any of
//! them. Everything else fails closed: a target holding a value computed
//! when the command runs (a variable the line does not set — `$TMPDIR`,
//! `$OLDPWD`, a `read` or `printf -v` result —, a command's output,
//! `~user`, `~+`, `~-`, `${HOME%/*}`), reached from a directory `cd` got
//! to through one, passing through a link the line creates, given by
//! `xargs` from unknown input, leaving the starting directory (`../x`: the
//! guard does not know the workspace's name) or naming it whole (`$PWD`)
//! is refused, with a request to name the path literally. Literal paths
//! inside the starting directory and literal absolute paths that are not
//! critical (`/tmp/x`) stay allowed.
//!
//! Given the [`Place`] a command runs in ([`check_command_at`], as the
//! permission engine and the `Bash` tool call it), every target is also
//! made absolute and followed through the links that exist now: the
//! workspace, the start directory, the home, an ancestor of one of them,
//! `/` and the system directories are refused however they are spelled
//! (`rm -rf /home/me/proj`, a link to `/` an earlier command left).
//!
//! Quoted text passed as data is not a command: `echo "rm -rf /"` and
//! `grep -r 'rm -rf /' .` are allowed, `bash -c "rm -rf /"` is not.

use crate::Recent;

use crate::guard_view::{Escapes, Sep, Simple, has_marker, lex, marker_index, unescape};

const MAX_DEPTH: usize = 8;
/// Most argument lists one command may expand to through known values.
const MAX_VARIANTS: usize = 64;
/// Most values remembered for one variable (the newest are kept).
const MAX_VALUES: usize = 16;
/// Longer values are not remembered.
const MAX_VALUE_LEN: usize = 4096;
/// Most directories the shell may be in at one point.
const MAX_DIRS: usize = 64;

/// Least work the guard may do for one command, in bytes lexed. Lexing
/// garbled text costs tree-sitter about a microsecond a byte (its error
/// recovery), so this bounds a short line's check to a few tens of
/// milliseconds; fuzzing found a 127-byte line that lexed 1 MiB in 18,000
/// nested checks and took 1.4 s.
const WORK_BASE: usize = 32 << 10;
/// What one nested check costs besides its text: a parser is set up and a
/// syntax tree walked for even the shortest script.
const CHECK_COST: usize = 64;
/// Text the guard may lex per byte of the command: scripts nest in
/// scripts (`sh -c`, `env -S`, `eval`, option clusters), and every level is
/// lexed again, so a crafted line could otherwise take minutes.
const WORK_FACTOR: usize = 16;

thread_local! {
    /// Verdicts given last on this thread: one bash call is checked by the
    /// permission engine's hard guard, by the tool before it spawns and by
    /// the checks around an approval (see [`Recent`]).
    static RECENT: Recent<Result<(), String>> = const { Recent::new() };
}

/// `Err(reason)` when `command` is destructive enough to refuse outright,
/// or too intricate to check within a bounded amount of work. Without a
/// [`Place`], a literal absolute path is judged by its spelling alone; the
/// tools call [`check_command_at`].
pub fn check_command(command: &str) -> Result<(), String> {
    RECENT.with(|recent| recent.get_or(command, |command| run_guard(command, None)))
}

/// [`check_command`], and besides, no destructive target may be, once
/// made absolute in `place` and followed through the links that exist
/// now, a workspace root, the start directory, the home, an ancestor of
/// one of them, `/` or a system directory (see [`place`](self::place)).
pub fn check_command_at(command: &str, place: &Place) -> Result<(), String> {
    check_command(command)?;
    // Not remembered: the links the verdict followed may change between
    // one call and the next with the same text.
    run_guard(command, Some(place.clone()))
}

fn run_guard(command: &str, place: Option<Place>) -> Result<(), String> {
    let mut guard = Guard {
        budget: WORK_BASE.max(command.len().saturating_mul(WORK_FACTOR)),
        place,
        ..Guard::default()
    };
    guard.check(command, &mut Ctx::default(), 0)
}

/// What the script has made knowable at one point.
#[derive(Debug, Clone)]
struct Ctx {
    /// Variables assigned earlier in the line, with every value they may hold.
    vars: Vec<(String, Vec<String>)>,
    /// Every directory the shell may be in, normalized; `""` is where it
    /// started (or somewhere unknown).
    cwd: Vec<String>,
    /// The script may not run at all (an `eval` behind `&&`, in an `if`, …).
    maybe: bool,
}

impl Default for Ctx {
    fn default() -> Self {
        Self {
            vars: Vec::new(),
            cwd: vec![String::new()],
            maybe: false,
        }
    }
}

impl Ctx {
    fn var(&self, name: &str) -> Option<&[String]> {
        self.vars
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }

    /// Records `values` for `name`: in place of the old ones when the
    /// assignment surely runs, beside them when it may not.
    fn assign(&mut self, name: &str, values: Vec<String>, replace: bool) {
        let values: Vec<String> = values
            .into_iter()
            .filter(|v| v.len() <= MAX_VALUE_LEN)
            .collect();
        if values.is_empty() {
            if replace {
                self.vars.retain(|(n, _)| n != name); // now unknown
            }
            return;
        }
        let slot = match self.vars.iter().position(|(n, _)| n == name) {
            Some(i) => &mut self.vars[i].1,
            None => {
                self.vars.push((name.to_owned(), Vec::new()));
                let last = self.vars.len() - 1;
                &mut self.vars[last].1
            }
        };
        if replace {
            slot.clear();
        }
        for v in values {
            slot.retain(|old| *old != v);
            slot.push(v);
        }
        if slot.len() > MAX_VALUES {
            slot.drain(..slot.len() - MAX_VALUES);
        }
    }
}

/// Standard input and redirections of one command.
#[derive(Default, Clone, Copy)]
struct Io<'a> {
    redirects: &'a [String],
    herestrings: &'a [String],
    /// What a literal `echo`/`printf` earlier in the pipeline writes to it.
    stdin: Option<&'a [String]>,
    /// The command surely runs, in the current shell.
    sure: bool,
}

#[derive(Default)]
struct Guard {
    /// Git aliases the script defines: (lowercase name, value).
    aliases: Vec<(String, String)>,
    /// Bytes of script text still allowed to be lexed.
    budget: usize,
    /// Links the line creates (`ln -s / x`), from every directory it may
    /// run in: a destructive command through one is refused. Kept for the
    /// whole line, nested scripts included, since a link outlives them.
    links: Vec<Norm>,
    /// Links the line creates to disk devices.
    device_links: Vec<Norm>,
    /// The line creates a link whose name the guard cannot know.
    links_unknown: bool,
    /// Loop variables, with their literal values when known.
    loops: Vec<(String, Option<Vec<String>>)>,
    /// Where the command runs, when the caller knows.
    place: Option<Place>,
}

impl Guard {
    fn check(&mut self, script: &str, ctx: &mut Ctx, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err("command nesting is too deep to check".into());
        }
        let Some(left) = self.budget.checked_sub(script.len() + CHECK_COST) else {
            return Err(
                "the command nests scripts in scripts too intricately to check; split it into simpler commands"
                    .into(),
            );
        };
        self.budget = left;
        check_fork_bomb(script)?;
        for (name, values) in loop_vars(script) {
            if !self.loops.iter().any(|(n, v)| *n == name && *v == values) {
                self.loops.push((name, values));
            }
        }
        let lexed = lex(script);
        let nested = &lexed.nested;
        let mut checked = vec![false; nested.len()];
        // Every directory possible once the current `&&` chain is left.
        let mut chain_all = ctx.cwd.clone();
        let mut piped: Option<Vec<String>> = None;
        let mut prev_sep = Sep::End;
        // Open `if`/`while`/`for`/`case` blocks, whose bodies may not run.
        let mut blocks = 0usize;
        for cmd in &lexed.commands {
            // Substitutions run first, in a subshell.
            let all_words = cmd
                .words
                .iter()
                .chain(&cmd.redirects)
                .chain(&cmd.herestrings);
            for n in all_words.flat_map(|w| w.chars().filter_map(marker_index)) {
                if let Some(done) = checked.get_mut(n)
                    && !*done
                {
                    *done = true;
                    self.check(&nested[n], &mut ctx.clone(), depth + 1)?;
                }
            }
            let variants = self.expand_words(&cmd.words, nested, ctx, depth)?;
            let redirects = self.expand_each(&cmd.redirects, nested, ctx, depth)?;
            let herestrings = self.expand_each(&cmd.herestrings, nested, ctx, depth)?;
            if cmd
                .words
                .first()
                .is_some_and(|w| CLOSERS.contains(&w.as_str()))
            {
                blocks = blocks.saturating_sub(1);
            }
            let sure = !ctx.maybe
                && cmd.depth == 0
                && blocks == 0
                && matches!(prev_sep, Sep::End)
                && !matches!(cmd.sep, Sep::Pipe | Sep::Background);
            // A here-document or here-string is standard input too
            // (`cat <<EOF | sh`).
            let stdin = piped
                .take()
                .or_else(|| (!herestrings.is_empty()).then(|| herestrings.clone()));
            let io = Io {
                redirects: &redirects,
                herestrings: &herestrings,
                stdin: stdin.as_deref(),
                sure,
            };
            let mut out = Some(Vec::new());
            for argv in &variants {
                self.check_simple(argv, io, ctx, depth)?;
                match (output_of(unwrap(argv).0, io.stdin), &mut out) {
                    (Some(o), Some(all)) => all.extend(o),
                    _ => out = None,
                }
            }
            if cmd.sep == Sep::Pipe {
                piped = out;
            }
            // An `eval` may have changed directory.
            let now = ctx.cwd.clone();
            add_dirs(&mut chain_all, &now)?;
            self.assignments(cmd, nested, ctx, sure, depth)?;
            if cmd
                .words
                .first()
                .is_some_and(|w| OPENERS.contains(&w.as_str()))
            {
                blocks += 1;
            }
            change_dir(cmd, &variants, prev_sep, ctx, &mut chain_all)?;
            if cmd.sep != Sep::And {
                ctx.cwd.clone_from(&chain_all);
            }
            prev_sep = cmd.sep;
        }
        for (n, done) in checked.iter().enumerate() {
            if !done {
                self.check(&nested[n], &mut ctx.clone(), depth + 1)?;
            }
        }
        Ok(())
    }

    fn check_simple(
        &mut self,
        words: &[String],
        io: Io<'_>,
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        self.check_devices(words, io)?;
        check_git_env(words)?;
        self.check_run(words, io, ctx, depth, true)
    }

    fn check_argv(
        &mut self,
        argv: &[String],
        io: Io<'_>,
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        let Some(first) = argv.first() else {
            return Ok(());
        };
        let name = base_name(first);
        let args = &argv[1..];
        match name {
            "rm" => self.check_rm(args, ctx),
            "mv" => self.check_mv(args, ctx),
            "chmod" | "chown" | "chgrp" => self.check_recursive_owner(name, args, ctx),
            "setfacl" => self.check_setfacl(args, ctx),
            "rsync" => self.check_rsync(args, ctx),
            "ln" => {
                self.record_links(args, ctx);
                Ok(())
            }
            "find" => self.check_find(args, ctx, depth),
            "dd" => match args
                .iter()
                .filter_map(|a| a.strip_prefix("of="))
                .find(|d| self.is_device(d))
            {
                Some(dev) => Err(format!("dd onto disk device {dev}")),
                None => Ok(()),
            },
            n if formats(n) => Err(format!("{n} formats a file system")),
            "wipefs" | "fdisk" | "sfdisk" | "parted" | "shred" | "blkdiscard" => {
                match args.iter().find(|a| self.is_device(a)) {
                    Some(dev) => Err(format!("{name} on disk device {dev}")),
                    None => Ok(()),
                }
            }
            "git" => self.check_git(args, ctx, depth),
            "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "fish" => {
                self.check_shell(args, io, ctx, depth)
            }
            "eval" => {
                // It runs in this shell: what it assigns or changes stays.
                let maybe = ctx.maybe;
                ctx.maybe |= !io.sure;
                let result = self.check(&args.join(" "), ctx, depth + 1);
                ctx.maybe = maybe;
                result
            }
            _ => Ok(()),
        }
    }

    /// Records `NAME=value` commands, `export`/`declare`/… and `unset`.
    /// `certain` when the command surely runs, in this shell.
    fn assignments(
        &mut self,
        cmd: &Simple,
        nested: &[String],
        ctx: &mut Ctx,
        certain: bool,
        depth: usize,
    ) -> Result<(), String> {
        let mut words = cmd.words.as_slice();
        while let [first, rest @ ..] = words
            && KEYWORDS.contains(&first.as_str())
        {
            words = rest;
        }
        let first = words.first().map(String::as_str);
        let assigns = if words.iter().all(|w| is_assignment(w)) {
            words
        } else if matches!(
            first,
            Some("export" | "declare" | "typeset" | "local" | "readonly" | "unset")
        ) {
            &words[1..]
        } else {
            &[]
        };
        // What `read`, `printf -v`, … fill in is computed when they run.
        let plain = words.iter().take_while(|w| is_assignment(w)).count();
        for name in filled_names(&words[plain..]) {
            let unknown = format!("${{{name}}}");
            ctx.assign(&name, vec![unknown], certain);
        }
        for w in assigns {
            if first == Some("unset") {
                ctx.assign(w, vec![String::new()], certain);
            } else if is_assignment(w)
                && let Some((name, value)) = w.split_once('=')
            {
                let (values, _) = self.expand(value, nested, ctx, depth)?;
                ctx.assign(name, values, certain);
            }
        }
        Ok(())
    }

    /// Every argument list `words` may expand to.
    fn expand_words(
        &mut self,
        words: &[String],
        nested: &[String],
        ctx: &Ctx,
        depth: usize,
    ) -> Result<Vec<Vec<String>>, String> {
        let mut lists: Vec<Vec<String>> = vec![Vec::new()];
        for word in words {
            let (values, substituted) = self.expand(word, nested, ctx, depth)?;
            // Unquoted expansions are split into words, quoted ones are not;
            // the quotes are gone, so both are checked.
            let mut alts: Vec<Vec<String>> = Vec::with_capacity(values.len());
            for v in values {
                if substituted && v.split_whitespace().next() != Some(v.as_str()) {
                    alts.push(v.split_whitespace().map(str::to_owned).collect());
                }
                alts.push(vec![v]);
            }
            if let [only] = alts.as_slice() {
                for list in &mut lists {
                    list.extend(only.iter().cloned());
                }
                continue;
            }
            if lists.len() * alts.len() > MAX_VARIANTS {
                return Err("too many possible variable values to check".into());
            }
            let mut next = Vec::with_capacity(lists.len() * alts.len());
            for list in &lists {
                for alt in &alts {
                    let mut l = list.clone();
                    l.extend(alt.iter().cloned());
                    next.push(l);
                }
            }
            lists = next;
        }
        Ok(lists)
    }

    /// Every value each of `words` may expand to, without word splitting.
    fn expand_each(
        &mut self,
        words: &[String],
        nested: &[String],
        ctx: &Ctx,
        depth: usize,
    ) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for w in words {
            out.extend(self.expand(w, nested, ctx, depth)?.0);
        }
        Ok(out)
    }

    /// The values `word` may take once known variables and literal
    /// `$(echo …)` substitutions are put in, and whether any were. Unknown
    /// ones are left as written.
    fn expand(
        &mut self,
        word: &str,
        nested: &[String],
        ctx: &Ctx,
        depth: usize,
    ) -> Result<(Vec<String>, bool), String> {
        if !word.contains('$') && !has_marker(word) {
            return Ok((vec![word.to_owned()], false));
        }
        let chars: Vec<char> = word.chars().collect();
        let mut values = vec![String::new()];
        let mut substituted = false;
        let mut i = 0;
        while i < chars.len() {
            let (alts, used, len): (Vec<String>, bool, usize) = match chars[i] {
                '$' => self.expand_var(&chars[i..], nested, ctx, depth)?,
                c => match marker_index(c) {
                    Some(n) => match nested.get(n) {
                        Some(script) => match self.literal_output(script, ctx, depth + 1)? {
                            Some(outs) => (outs, true, 1),
                            None => (vec![c.to_string()], false, 1),
                        },
                        None => (vec![c.to_string()], false, 1),
                    },
                    None => (vec![c.to_string()], false, 1),
                },
            };
            let (alts, used) = if alts.is_empty() {
                (vec![chars[i..i + len].iter().collect()], false)
            } else {
                (alts, used)
            };
            substituted |= used;
            i += len;
            if alts.len() == 1 {
                for v in &mut values {
                    v.push_str(&alts[0]);
                }
                continue;
            }
            let mut next = Vec::with_capacity(values.len() * alts.len());
            for v in &values {
                for a in &alts {
                    next.push(format!("{v}{a}"));
                }
            }
            if next.len() > MAX_VARIANTS {
                return Err("too many possible variable values to check".into());
            }
            values = next;
        }
        Ok((values, substituted))
    }

    /// Expands the `$NAME`, `${NAME}` or `${NAME:-default}` at the start of
    /// `chars`: (values, whether substituted, chars consumed).
    fn expand_var(
        &mut self,
        chars: &[char],
        nested: &[String],
        ctx: &Ctx,
        depth: usize,
    ) -> Result<(Vec<String>, bool, usize), String> {
        let literal = |len: usize| (vec![chars[..len].iter().collect::<String>()], false, len);
        let ident = |from: usize| {
            let tail = &chars[from.min(chars.len())..];
            match tail.first() {
                Some(c) if c.is_ascii_alphabetic() || *c == '_' => tail
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .count(),
                _ => 0,
            }
        };
        if chars.get(1) != Some(&'{') {
            let n = ident(1);
            if n == 0 {
                return Ok(literal(1));
            }
            let name: String = chars[1..1 + n].iter().collect();
            return Ok(match self.values(ctx, &name) {
                Some(v) => (v, true, 1 + n),
                None => literal(1 + n),
            });
        }
        let Some(close) = chars.iter().position(|&c| c == '}') else {
            return Ok(literal(1));
        };
        let n = ident(2);
        let name: String = chars[2..2 + n].iter().collect();
        let op: String = chars[2 + n..close].iter().collect();
        let known = if n > 0 { self.values(ctx, &name) } else { None };
        let default = [":-", ":=", "-", "="]
            .iter()
            .find_map(|p| op.strip_prefix(p))
            .filter(|_| n > 0);
        Ok(match (known, default, op.is_empty()) {
            (Some(v), _, true) | (Some(v), Some(_), _) => (v, true, close + 1),
            (None, Some(d), _) => {
                let (mut alts, _) = self.expand(d, nested, ctx, depth)?;
                alts.insert(0, chars[..=close].iter().collect());
                (alts, true, close + 1)
            }
            _ => literal(close + 1),
        })
    }

    /// Every value `name` may hold: what the line assigned, and for a loop
    /// variable its literal list or, failing that, itself (computed).
    fn values(&self, ctx: &Ctx, name: &str) -> Option<Vec<String>> {
        let mut out: Option<Vec<String>> = ctx.var(name).map(<[String]>::to_vec);
        for (_, values) in self.loops.iter().filter(|(n, _)| n == name) {
            let add = values
                .clone()
                .unwrap_or_else(|| vec![format!("${{{name}}}")]);
            let all = out.get_or_insert_with(Vec::new);
            for v in add {
                if !all.contains(&v) {
                    all.push(v);
                }
            }
        }
        out
    }

    /// What `script` prints when it is a single literal `echo`/`printf`.
    fn literal_output(
        &mut self,
        script: &str,
        ctx: &Ctx,
        depth: usize,
    ) -> Result<Option<Vec<String>>, String> {
        if depth > MAX_DEPTH {
            return Ok(None);
        }
        let lexed = lex(script);
        let [cmd] = lexed.commands.as_slice() else {
            return Ok(None);
        };
        let mut outs = Vec::new();
        if cmd.words.is_empty() {
            return Ok(None);
        }
        for argv in self.expand_words(&cmd.words, &lexed.nested, ctx, depth)? {
            match output_of(unwrap(&argv).0, None) {
                Some(o) => outs.extend(o.into_iter().map(|s| s.trim_end_matches('\n').to_owned())),
                None => return Ok(None),
            }
        }
        Ok(Some(outs))
    }
}

/// Words that open a compound command whose body may not run.
const OPENERS: &[&str] = &["if", "while", "until", "for", "case", "select"];
/// Words that close one.
const CLOSERS: &[&str] = &["fi", "done", "esac"];
/// Words that may stand before a command inside a compound command.
const KEYWORDS: &[&str] = &["then", "do", "else", "elif", "if", "while", "until", "!"];

fn base_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

#[path = "guard_devices.rs"]
mod devices;
#[path = "guard_dirs.rs"]
mod dirs;
#[path = "guard_launchers.rs"]
mod launchers;
#[path = "guard_loops.rs"]
mod loops;
#[path = "guard_place.rs"]
pub mod place;
#[path = "guard_resolve.rs"]
mod resolve;
#[path = "guard_run.rs"]
mod run;
#[path = "guard_targets.rs"]
mod targets;
#[path = "guard_words.rs"]
mod words;

use devices::*;
use dirs::*;
use launchers::*;
use loops::*;
pub use place::Place;
use resolve::*;
use run::*;
use targets::*;
use words::*;

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
