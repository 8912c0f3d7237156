//! The read-only allowlist: commands *and their options* known to only read.
//!
//! A command is read-only only when its program is listed and every option
//! it is given is one listed for that program (options are parsed the way
//! getopt does: clusters, attached and separate values, `--`); anything
//! else — an unknown option, an abbreviated long option, an option that
//! writes (`sort -o`, `git diff --output`) or runs a program (`find -exec`,
//! `rg --pre`, `less`'s `!cmd`) — is not. Programs whose every option is
//! harmless are marked so, which lets `xargs` feed them arguments.

#[path = "readonly_git.rs"]
mod git;
#[path = "readonly_search.rs"]
mod search;
#[path = "readonly_table.rs"]
mod table;

/// How a command's words classify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// It only reads.
    ReadOnly,
    /// The program is listed, but this use may write or run programs.
    NotReadOnly(String),
    /// The program (or git subcommand) is not on the allowlist.
    Unlisted,
}

impl Class {
    /// Whether it only reads.
    pub fn is_read_only(&self) -> bool {
        matches!(self, Class::ReadOnly)
    }
}

/// Options of one program.
pub(crate) struct Opts {
    /// Short flags without a value (digits allow `head -5`).
    pub short: &'static str,
    /// Short options with an optional value (`od -w[N]`, `date -I[FMT]`):
    /// the rest of the word is the value, never the next word, so `-w`
    /// followed by another word leaves that word for the option checks.
    pub short_opt: &'static str,
    /// Short options that take a value, attached (`-n5`) or next (`-n 5`).
    pub short_val: &'static str,
    /// Long options: `name` (no value), `name=` (a value, attached or
    /// next) or `name?` (an optional value, attached only).
    pub long: &'static [&'static str],
    /// More long options, in the same form (a list shared by several programs).
    pub more_long: &'static [&'static str],
    /// Most operands allowed (`uniq IN OUT` writes OUT).
    pub max_operands: Option<usize>,
}

/// The name a program is known by: its own name, or the base name of an
/// absolute path in a system directory. Relative paths (`./ls`) are not
/// the system program.
pub fn program_name(word: &str) -> Option<&str> {
    if !word.contains('/') {
        return Some(word);
    }
    const DIRS: &[&str] = &[
        "/bin/",
        "/usr/bin/",
        "/usr/local/bin/",
        "/sbin/",
        "/usr/sbin/",
    ];
    DIRS.iter()
        .find_map(|d| word.strip_prefix(d))
        .filter(|n| !n.is_empty() && !n.contains('/'))
}

/// Classifies a command: `argv[0]` the program, the rest its arguments,
/// all static text (the caller refuses dynamic words first).
pub fn classify(argv: &[&str]) -> Class {
    let Some(name) = argv.first().and_then(|w| program_name(w)) else {
        return Class::Unlisted;
    };
    let args = &argv[1..];
    match name {
        "git" => git::classify(args),
        "find" => find(args),
        "sed" => sed(args),
        "printf" => match args.first() {
            Some(a) if a.starts_with("-v") => no("`printf -v` assigns a variable"),
            _ => Class::ReadOnly,
        },
        "echo" | "true" | "false" | ":" => Class::ReadOnly,
        "test" | "[" => {
            // `-v`/`-R` evaluate array subscripts as arithmetic.
            if args.iter().any(|a| matches!(*a, "-v" | "-R")) {
                no("`test -v` evaluates arithmetic")
            } else {
                Class::ReadOnly
            }
        }
        "date" => {
            let opts = table::DATE;
            match operands(&opts, args) {
                Ok(ops) if ops.iter().all(|o| o.starts_with('+')) => Class::ReadOnly,
                Ok(_) => no("`date` with an operand sets the clock"),
                Err(e) => Class::NotReadOnly(e),
            }
        }
        "hostname" => {
            if args.iter().all(|a| {
                matches!(
                    *a,
                    "-f" | "-s" | "-i" | "-I" | "-d" | "-A" | "-a" | "--fqdn" | "--short"
                )
            }) {
                Class::ReadOnly
            } else {
                no("`hostname NAME` sets the host name")
            }
        }
        "env" if args.is_empty() => Class::ReadOnly,
        // tree's own parser gives `-L`, `-P`, `-I` the next word even inside
        // a cluster (`-Lo 1 F` is `-L 1 -o F`): only the plain forms.
        "tree"
            if args.iter().any(|a| {
                a.len() > 2
                    && a.starts_with('-')
                    && !a.starts_with("--")
                    && a.contains(['L', 'P', 'I'])
            }) =>
        {
            no("`tree` option cluster with a value is not checked")
        }
        // `command -v NAME` only looks the name up.
        "command" if matches!(args.first(), Some(&"-v" | &"-V")) => Class::ReadOnly,
        "cd" | "pushd" | "popd" => {
            if args.len() <= 1 || (args.len() == 2 && matches!(args[0], "-L" | "-P")) {
                Class::ReadOnly
            } else {
                no("unexpected `cd` arguments")
            }
        }
        _ if args.len() == 1
            && matches!(args[0], "--version" | "-V" | "version")
            && table::VERSION_ONLY.contains(&name) =>
        {
            if args[0] == "--version" || table::VERSION_ALIASES.contains(&(name, args[0])) {
                Class::ReadOnly
            } else {
                Class::Unlisted
            }
        }
        _ => match table::lookup(name) {
            Some(opts) => match operands(opts, args) {
                Ok(_) => Class::ReadOnly,
                Err(e) => Class::NotReadOnly(e),
            },
            None => Class::Unlisted,
        },
    }
}

/// Whether `program` is on the allowlist at all: a program the allowlist
/// models never runs another program named in its arguments (except the
/// `find -exec` the caller peels), so its operands are not commands.
pub fn is_listed(program: &str) -> bool {
    program_name(program).is_some_and(|p| {
        matches!(
            p,
            "git"
                | "find"
                | "sed"
                | "printf"
                | "echo"
                | "true"
                | "false"
                | ":"
                | "test"
                | "["
                | "date"
                | "hostname"
                | "cd"
                | "pushd"
                | "popd"
        ) || table::lookup(p).is_some()
    })
}

/// (xxd is not listed: it matches options by prefix, `-ps IN OUT` writes.)
///
/// Whether arguments fed by `xargs` (or `find -exec {}`) cannot make the
/// program write or run anything: every option it has is harmless.
pub fn safe_to_feed(program: &str) -> bool {
    program_name(program).is_some_and(|p| table::FEEDABLE.contains(&p))
}

fn no(why: &str) -> Class {
    Class::NotReadOnly(why.to_owned())
}

/// Parses `args` against `opts`; the operands, or why an option is refused.
pub(crate) fn operands<'a>(opts: &Opts, args: &[&'a str]) -> Result<Vec<&'a str>, String> {
    parse_args(opts, args).map(|(ops, _)| ops)
}

/// Parses `args` against `opts`: the operands and the options actually
/// given (`--name` with the listed name, `-c` for a short one), so checks
/// such as "is this a listing" see what the program sees, not a value an
/// option swallowed (`git tag --format -l NEW` creates `NEW`).
pub(crate) fn parse_args<'a>(
    opts: &Opts,
    args: &[&'a str],
) -> Result<(Vec<&'a str>, Vec<String>), String> {
    let mut ops = Vec::new();
    let mut seen = Vec::new();
    let mut i = 0;
    while let Some(&a) = args.get(i) {
        i += 1;
        if a == "--" {
            ops.extend(args[i..].iter().copied());
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, _)) => (n, true),
                None => (long, false),
            };
            let found = opts.long.iter().chain(opts.more_long).find(|l| {
                l.strip_suffix(['=', '?'])
                    .map_or(**l == name, |base| base == name)
            });
            match found {
                Some(l) if l.ends_with('=') => {
                    if !value {
                        i += 1;
                    }
                }
                Some(l) if l.ends_with('?') => {}
                Some(_) if !value => {}
                _ => return Err(format!("option `{a}` is not known to be read-only")),
            }
            seen.push(format!("--{name}"));
        } else if a.len() > 1 && a.starts_with('-') {
            for (k, c) in a.char_indices().skip(1) {
                seen.push(format!("-{c}"));
                if opts.short_opt.contains(c) {
                    // getopt's `c::`: whatever follows in this word is the value.
                    break;
                }
                if opts.short_val.contains(c) {
                    if k + c.len_utf8() == a.len() {
                        i += 1;
                    }
                    break;
                }
                if !opts.short.contains(c) {
                    return Err(format!("option `-{c}` is not known to be read-only"));
                }
            }
        } else {
            ops.push(a);
        }
    }
    match opts.max_operands {
        Some(n) if ops.len() > n => Err(format!("more than {n} operands (the last is written)")),
        _ => Ok((ops, seen)),
    }
}

/// `find`: tests and read-only actions only.
fn find(args: &[&str]) -> Class {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            s if s.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    while let Some(a) = args.get(i) {
        i += 1;
        if !(a.starts_with('-') || matches!(*a, "(" | ")" | "!" | ",")) {
            continue; // a starting point (before the expression) or stray
        }
        if search::FIND_FLAGS.contains(a) || matches!(*a, "(" | ")" | "!" | ",") {
            continue;
        }
        if search::FIND_VALUED.contains(a) || a.starts_with("-newer") {
            i += 1;
            continue;
        }
        return Class::NotReadOnly(format!("`find {a}` is not known to be read-only"));
    }
    Class::ReadOnly
}

/// `sed`: printing scripts only (no `-i`, no `w`/`W`/`e`/`r`/`R`, no
/// `s///w` or `s///e`, no script files).
fn sed(args: &[&str]) -> Class {
    let opts = Opts {
        short: "nrEsuz",
        short_opt: "",
        short_val: "el",
        long: &[
            "quiet",
            "silent",
            "regexp-extended",
            "separate",
            "unbuffered",
            "null-data",
            "expression=",
            "line-length=",
            "posix",
            "debug",
            "sandbox",
        ],
        more_long: &[],
        max_operands: None,
    };
    let mut scripts = Vec::new();
    let mut i = 0;
    let mut explicit = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if *a == "-e" || *a == "--expression" {
            explicit = true;
            scripts.extend(args.get(i));
            i += 1;
        } else if let Some(s) = a.strip_prefix("--expression=") {
            explicit = true;
            scripts.push(s);
        } else if a.starts_with("-e") && !a.starts_with("--") {
            explicit = true;
            scripts.push(&a[2..]);
        } else if a.starts_with('-') && a.contains('e') && !a.starts_with("--") {
            return no("`sed` option cluster with `-e` is not checked");
        }
    }
    let ops = match operands(&opts, args) {
        Ok(ops) => ops,
        Err(e) => return Class::NotReadOnly(e),
    };
    if !explicit {
        match ops.first() {
            Some(s) => scripts.push(s),
            None => return no("`sed` without a script"),
        }
    }
    match scripts.iter().try_for_each(|s| sed_script(s)) {
        Ok(()) => Class::ReadOnly,
        Err(e) => Class::NotReadOnly(e),
    }
}

/// Checks one sed script: addresses, then commands that only print.
fn sed_script(s: &str) -> Result<(), String> {
    let refuse = |c: char| Err(format!("sed command `{c}` writes files or runs programs"));
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    // Skips a regex delimited by `d` starting after it; returns the index after the closing one.
    let skip_delim = |mut j: usize, d: char| -> Option<usize> {
        while let Some(&c) = chars.get(j) {
            if c == '\\' {
                j += 2;
                continue;
            }
            if c == d {
                return Some(j + 1);
            }
            if c == '\n' {
                return None;
            }
            j += 1;
        }
        None
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\n' | ';' | '{' | '}' | '!' | ',' | '$' | '~' | '+' => i += 1,
            '0'..='9' => i += 1,
            '/' => i = skip_delim(i + 1, '/').ok_or("unterminated sed address")?,
            '\\' => {
                let d = *chars.get(i + 1).ok_or("bad sed address")?;
                i = skip_delim(i + 2, d).ok_or("unterminated sed address")?;
            }
            'I' | 'M' => i += 1,
            '#' | ':' | 'b' | 't' | 'T' | 'a' | 'i' | 'c' => {
                // Rest of the line is a label or text.
                while i < chars.len() && chars[i] != '\n' {
                    if matches!(c, 'b' | 't' | 'T' | ':') && chars[i] == ';' && i > 0 {
                        break;
                    }
                    i += 1;
                }
            }
            'p' | 'P' | 'd' | 'D' | 'n' | 'N' | 'q' | 'Q' | '=' | 'l' | 'g' | 'G' | 'h' | 'H'
            | 'x' | 'z' | 'F' => i += 1,
            's' | 'y' => {
                let d = *chars.get(i + 1).ok_or("bad sed `s`")?;
                if d == '\\' || d == '\n' {
                    return Err("bad sed `s` delimiter".into());
                }
                let mid = skip_delim(i + 2, d).ok_or("unterminated sed `s`")?;
                i = skip_delim(mid, d).ok_or("unterminated sed `s`")?;
                if c == 's' {
                    while let Some(&f) = chars.get(i) {
                        match f {
                            'g' | 'p' | 'i' | 'I' | 'm' | 'M' | '0'..='9' => i += 1,
                            'w' | 'W' | 'e' => return refuse(f),
                            _ => break,
                        }
                    }
                }
            }
            other => return refuse(other),
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "readonly_tests.rs"]
mod tests;
