//! Programs that run their arguments as a command, and how to find it.
//!
//! Each wrapper has an exact option table (which options take a value,
//! which take one only when attached, how many operands come before the
//! command). Options are parsed the way the program's getopt does: short
//! clusters, attached and separate values, GNU long-option abbreviations.
//! Anything outside the table — an unknown or ambiguous option, a mode that
//! hands text to a shell (`env -S`, `su -c`, `watch`, `parallel`, `gdb`) —
//! makes the part opaque instead of guessing where the command starts:
//! a wrong guess would hide the real program from rules and the guard.

use crate::ast::Word;
use table::spec;

#[path = "wrappers_table.rs"]
mod table;

/// What the words after a wrapper's name are.
pub enum Step {
    /// The wrapped command starts at this index (of the wrapper's words).
    Command(usize),
    /// The wrapper runs nothing else (`command -v ls`, bare `env`).
    Itself,
    /// The wrapper cannot be checked: why.
    Opaque(&'static str),
    /// The wrapper runs this text with `sh -c` (`watch`, `flock -c`).
    Shell(Word),
}

/// Flags about the wrapper itself.
#[derive(Default)]
pub struct Effects {
    /// It runs the command as another user.
    pub privileged: bool,
    /// It adds arguments from its input (`xargs`).
    pub fed: bool,
    /// Variables set by `env NAME=…`.
    pub env: Vec<String>,
    /// The wrapper itself may write or change something (`time -o F`,
    /// `strace -o F`, `nohup` writing `nohup.out`, namespaces, limits).
    pub side_effects: bool,
}

/// Wrappers that only run the command (in a read-only sandbox it stays
/// read-only): anything else has effects of its own.
const PLAIN: &[&str] = &[
    "timeout", "nice", "env", "stdbuf", "ionice", "setsid", "command", "builtin", "time", "exec",
    "xargs", "sudo", "doas", "pkexec", "runuser",
];

/// Names that run their arguments as a command but are not modelled:
/// they are opaque wherever they appear.
const OPAQUE: &[(&str, &str)] = &[
    ("su", "`su` runs its arguments through a shell"),
    (
        "parallel",
        "`parallel` runs its arguments as shell commands",
    ),
    ("gdb", "a debugger can run any command"),
    ("lldb", "a debugger can run any command"),
    ("sg", "`sg` runs its arguments through a shell"),
    ("script", "`script` runs its arguments through a shell"),
    ("unbuffer", "`unbuffer` runs its arguments through tcl"),
    (
        "firejail",
        "`firejail` has options the checker does not know",
    ),
    ("bwrap", "`bwrap` has options the checker does not know"),
    (
        "systemd-run",
        "`systemd-run` runs commands outside the sandbox",
    ),
    ("ssh", "`ssh` runs its arguments through a remote shell"),
];

/// Whether `name` is a program that runs another program named in its
/// arguments (modelled or not).
pub fn is_wrapper(name: &str) -> bool {
    spec(name).is_some() || OPAQUE.iter().any(|(n, _)| *n == name)
}

/// Finds where the command wrapped by `words[0]` starts.
pub fn peel(name: &str, words: &[Word], fx: &mut Effects) -> Step {
    if let Some((_, why)) = OPAQUE.iter().find(|(n, _)| *n == name) {
        return Step::Opaque(why);
    }
    let Some(spec) = spec(name) else {
        return Step::Itself;
    };
    fx.privileged |= matches!(name, "sudo" | "doas" | "pkexec" | "runuser");
    fx.fed |= name == "xargs";
    let mut i = 1;
    let mut seen = String::new();
    let mut seen_long: Vec<&'static str> = Vec::new();
    let mut shell_script: Option<Word> = None;
    while let Some(w) = words.get(i) {
        if w.dynamic || w.glob {
            return Step::Opaque("a wrapper's option is computed when it runs");
        }
        let t = w.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if name == "env" && t == "-" {
            i += 1;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (given, attached) = match long.split_once('=') {
                Some((n, _)) => (n, true),
                None => (long, false),
            };
            if name == "env" && "split-string".starts_with(given) && !given.is_empty() {
                return Step::Opaque("`env -S` splits a string into a command");
            }
            if name == "flock" && "command".starts_with(given) && given.len() >= 2 {
                return flock_script(words, i, attached, t);
            }
            let Some(found) = resolve(spec.long, given) else {
                return Step::Opaque("a wrapper has an option the checker does not know");
            };
            seen_long.push(found);
            if found.ends_with('=') && !attached {
                i += 1;
            } else if !found.ends_with(['=', '?']) && attached {
                return Step::Opaque("a wrapper has an option the checker does not know");
            }
            i += 1;
            continue;
        }
        if t.len() < 2 || !t.starts_with('-') {
            break;
        }
        let body = &t[1..];
        for (k, c) in body.char_indices() {
            let rest = &body[k + c.len_utf8()..];
            if name == "env" && c == 'S' {
                return Step::Opaque("`env -S` splits a string into a command");
            }
            if c == 'c' && matches!(name, "flock") {
                return match rest {
                    "" => flock_script(words, i, false, t),
                    r => Step::Shell(Word {
                        text: r.to_owned(),
                        ..Word::default()
                    }),
                };
            }
            seen.push(c);
            if spec.opt_vals.contains(c) {
                break;
            }
            if spec.vals.contains(c) {
                if rest.is_empty() {
                    i += 1;
                }
                break;
            }
            if !spec.flags.contains(c) {
                return Step::Opaque("a wrapper has an option the checker does not know");
            }
        }
        i += 1;
    }
    fx.side_effects |= !PLAIN.contains(&name)
        || (name == "time"
            && (seen.contains(['o', 'a']) || seen_long.iter().any(|l| l.starts_with("output"))))
        || (name == "env"
            && (seen.contains('C') || seen_long.iter().any(|l| l.starts_with("chdir"))));
    // Options that mean "no command": `command -v`, `taskset -p`, `ionice -p`.
    if (name == "command" && (seen.contains('v') || seen.contains('V')))
        || (matches!(name, "taskset" | "chrt" | "ionice") && seen.contains('p'))
        || (name == "runuser" && !seen.contains('u'))
    {
        return if name == "runuser" {
            Step::Opaque("`runuser` without `-u` runs a shell")
        } else {
            Step::Itself
        };
    }
    let mut first = i;
    if name == "env" {
        while let Some(w) = words.get(first) {
            let Some((var, _)) = w.text.split_once('=') else {
                break;
            };
            fx.env.push(var.to_owned());
            first += 1;
        }
    }
    let skip = if name == "chrt" && seen.contains('m') {
        0
    } else {
        spec.operands
    };
    first += skip;
    if name == "flock"
        && let Some(w) = words.get(first)
        && (w.text == "-c" || w.text.starts_with("--command") || w.text == "--co")
    {
        shell_script = words.get(first + 1).cloned();
        if shell_script.is_none() {
            return Step::Opaque("`flock -c` without a command");
        }
    }
    if let Some(s) = shell_script {
        return Step::Shell(s);
    }
    if name == "watch" {
        // watch joins its arguments with spaces and runs them with `sh -c`
        // (unless `-x`).
        let rest = words.get(first..).unwrap_or_default();
        if seen.contains('x') {
            return if rest.is_empty() {
                Step::Itself
            } else {
                Step::Command(first)
            };
        }
        if rest.iter().any(|w| w.dynamic || w.glob) {
            return Step::Opaque("`watch` runs computed text through a shell");
        }
        let text = rest
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        return Step::Shell(Word {
            text,
            ..Word::default()
        });
    }
    if first >= words.len() {
        Step::Itself
    } else {
        Step::Command(first)
    }
}

/// `flock FILE -c CMD`, `flock -c CMD FILE`, `--command=CMD`: a shell script.
fn flock_script(words: &[Word], at: usize, attached: bool, t: &str) -> Step {
    let script = if attached {
        t.split_once('=').map(|(_, v)| Word {
            text: v.to_owned(),
            ..Word::default()
        })
    } else {
        words.get(at + 1).cloned()
    };
    match script {
        Some(w) if !w.dynamic => Step::Shell(w),
        _ => Step::Opaque("`flock -c` runs computed text through a shell"),
    }
}

/// Resolves a (possibly abbreviated) long option the way getopt_long does:
/// an exact name, or the only one it is a prefix of.
fn resolve(long: &'static [&'static str], given: &str) -> Option<&'static str> {
    let base = |l: &&str| l.trim_end_matches(['=', '?']).to_owned();
    if let Some(l) = long.iter().find(|l| base(l) == given) {
        return Some(l);
    }
    let mut hits = long.iter().filter(|l| base(l).starts_with(given));
    match (hits.next(), hits.next()) {
        (Some(l), None) if !given.is_empty() => Some(l),
        _ => None,
    }
}

/// Where `bash`/`sh`/… given `args` (after the name) finds its script.
pub enum ShellRun<'a> {
    /// `-c SCRIPT`.
    Inline(&'a Word),
    /// `-c` without a script, or a script file: runs nothing we can read.
    File,
    /// No operand: reads the script from standard input.
    Stdin,
    /// An option the checker does not know.
    Unknown,
}

/// Parses a shell's options (`-eu`, `-o posix`, `+O extglob`, `--norc`,
/// `--rcfile F`) up to its script operand.
pub fn shell_run(args: &[Word]) -> ShellRun<'_> {
    const LONG_FLAGS: &[&str] = &[
        "--norc",
        "--noprofile",
        "--posix",
        "--login",
        "--restricted",
        "--verbose",
        "--noediting",
        "--debugger",
        "--dump-strings",
        "--dump-po-strings",
        "--pretty-print",
        "--protected",
    ];
    let mut inline = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a.split || a.glob {
            // It may become options (`-c`) or the script when it runs.
            return ShellRun::Unknown;
        }
        if a.dynamic {
            break;
        }
        let t = a.text.as_str();
        i += 1;
        if t == "--" || t == "-" {
            break;
        }
        if t.starts_with("--") {
            if matches!(t, "--rcfile" | "--init-file") {
                i += 1;
            } else if !LONG_FLAGS.contains(&t) {
                return ShellRun::Unknown;
            }
            continue;
        }
        if (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 {
            for c in t[1..].chars() {
                match c {
                    'c' => inline = true,
                    'o' | 'O' => i += 1,
                    'a' | 'b' | 'e' | 'f' | 'h' | 'i' | 'k' | 'l' | 'm' | 'n' | 'p' | 'r' | 's'
                    | 't' | 'u' | 'v' | 'x' | 'B' | 'C' | 'E' | 'H' | 'P' | 'T' => {}
                    _ => return ShellRun::Unknown,
                }
            }
            continue;
        }
        i -= 1;
        break;
    }
    match args.get(i) {
        Some(script) if inline => ShellRun::Inline(script),
        Some(_) => ShellRun::File,
        None if inline => ShellRun::File,
        None => ShellRun::Stdin,
    }
}
