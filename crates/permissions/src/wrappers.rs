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

use crate::shell::Word;

/// How one wrapper's options look.
struct Spec {
    /// Short options without a value.
    flags: &'static str,
    /// Short options with a value, attached (`-n5`) or next (`-n 5`).
    vals: &'static str,
    /// Short options with an optional value, attached only (`xargs -i{}`).
    opt_vals: &'static str,
    /// Long options: `name` (no value), `name=` (a value, attached or
    /// next) or `name?` (an optional value, attached only).
    long: &'static [&'static str],
    /// Operands between the options and the command (`timeout DURATION`).
    operands: usize,
}

const NONE: Spec = Spec {
    flags: "",
    vals: "",
    opt_vals: "",
    long: &[],
    operands: 0,
};

/// What the words after a wrapper's name are.
pub(crate) enum Step {
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
pub(crate) struct Effects {
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
pub(crate) fn is_wrapper(name: &str) -> bool {
    spec(name).is_some() || OPAQUE.iter().any(|(n, _)| *n == name)
}

fn spec(name: &str) -> Option<Spec> {
    Some(match name {
        "sudo" => Spec {
            flags: "AbEHiKkLlnPSsVvBN",
            vals: "CDghprtTuU",
            long: &[
                "askpass",
                "background",
                "bell",
                "close-from=",
                "chdir=",
                "preserve-env?",
                "edit",
                "group=",
                "set-home",
                "host=",
                "login",
                "remove-timestamp",
                "reset-timestamp",
                "list",
                "non-interactive",
                "preserve-groups",
                "prompt=",
                "chroot=",
                "role=",
                "stdin",
                "shell",
                "type=",
                "command-timeout=",
                "other-user=",
                "user=",
                "validate",
            ],
            ..NONE
        },
        "doas" => Spec {
            flags: "nsL",
            vals: "uC",
            ..NONE
        },
        "pkexec" => Spec {
            long: &["user=", "disable-internal-agent", "keep-cwd"],
            ..NONE
        },
        "runuser" => Spec {
            flags: "flmp",
            vals: "ugGw",
            long: &[
                "user=",
                "group=",
                "supp-group=",
                "login",
                "preserve-environment",
                "whitelist-environment=",
                "pty",
            ],
            ..NONE
        },
        "env" => Spec {
            flags: "i0v",
            vals: "uCa",
            long: &[
                "ignore-environment",
                "null",
                "unset=",
                "chdir=",
                "debug",
                "argv0=",
                "block-signal?",
                "default-signal?",
                "ignore-signal?",
                "list-signal-handling",
            ],
            ..NONE
        },
        "nice" => Spec {
            flags: "0123456789",
            vals: "n",
            long: &["adjustment="],
            ..NONE
        },
        "ionice" => Spec {
            flags: "t",
            vals: "cn",
            long: &["class=", "classdata=", "ignore"],
            ..NONE
        },
        "timeout" => Spec {
            flags: "v",
            vals: "sk",
            long: &[
                "signal=",
                "kill-after=",
                "preserve-status",
                "foreground",
                "verbose",
            ],
            operands: 1,
            ..NONE
        },
        "stdbuf" => Spec {
            vals: "ioe",
            long: &["input=", "output=", "error="],
            ..NONE
        },
        "nohup" | "catchsegv" | "busybox" | "builtin" => NONE,
        "setsid" => Spec {
            flags: "cfw",
            long: &["ctty", "fork", "wait"],
            ..NONE
        },
        "chroot" => Spec {
            long: &["userspec=", "groups=", "skip-chdir"],
            operands: 1,
            ..NONE
        },
        "taskset" => Spec {
            flags: "ac",
            long: &["all-tasks", "cpu-list"],
            operands: 1,
            ..NONE
        },
        "chrt" => Spec {
            flags: "abdfiormRv",
            vals: "TPD",
            long: &[
                "all-tasks",
                "batch",
                "deadline",
                "fifo",
                "idle",
                "other",
                "rr",
                "reset-on-fork",
                "max",
                "verbose",
                "sched-runtime=",
                "sched-period=",
                "sched-deadline=",
            ],
            operands: 1,
            ..NONE
        },
        "prlimit" => Spec {
            opt_vals: "cdefilmnqrstuvxy",
            long: &[
                "core?",
                "data?",
                "nice?",
                "fsize?",
                "sigpending?",
                "memlock?",
                "rss?",
                "nofile?",
                "msgqueue?",
                "rtprio?",
                "stack?",
                "cpu?",
                "nproc?",
                "as?",
                "locks?",
                "rttime?",
                "noheadings",
                "raw",
                "verbose",
            ],
            ..NONE
        },
        "unshare" => Spec {
            flags: "muinpUCTfrc",
            vals: "SGRw",
            long: &[
                "mount?",
                "uts?",
                "ipc?",
                "net?",
                "pid?",
                "user?",
                "cgroup?",
                "time?",
                "fork",
                "kill-child?",
                "mount-proc?",
                "map-root-user",
                "map-current-user",
                "map-auto",
                "map-user=",
                "map-group=",
                "map-users=",
                "map-groups=",
                "propagation=",
                "setgroups=",
                "keep-caps",
                "setuid=",
                "setgid=",
                "root=",
                "wd=",
                "monotonic=",
                "boottime=",
            ],
            ..NONE
        },
        "setpriv" => Spec {
            flags: "d",
            long: &[
                "dump",
                "nnp",
                "no-new-privs",
                "reuid=",
                "regid=",
                "ruid=",
                "rgid=",
                "euid=",
                "egid=",
                "clear-groups",
                "keep-groups",
                "init-groups",
                "groups=",
                "inh-caps=",
                "ambient-caps=",
                "bounding-set=",
                "securebits=",
                "pdeathsig=",
                "reset-env",
            ],
            ..NONE
        },
        "strace" => Spec {
            flags: "cCdDfFhikqrtTvVwxyYzZn",
            vals: "abeEIoOpPsSuUX",
            long: &[
                "output=",
                "trace=",
                "signal=",
                "user=",
                "env=",
                "string-limit=",
            ],
            ..NONE
        },
        "ltrace" => Spec {
            flags: "bcCfhiLrStTV",
            vals: "aAeDFlnopsuwx",
            long: &["output=", "library=", "demangle", "indent=", "align="],
            ..NONE
        },
        "valgrind" => Spec {
            flags: "qv",
            ..NONE
        },
        "flock" => Spec {
            flags: "sxenuoFv",
            vals: "wE",
            long: &[
                "shared",
                "exclusive",
                "nonblock",
                "nb",
                "unlock",
                "close",
                "no-fork",
                "verbose",
                "timeout=",
                "wait=",
                "conflict-exit-code=",
            ],
            operands: 1,
            ..NONE
        },
        "xargs" => Spec {
            flags: "0oprtx",
            vals: "adEILnPs",
            opt_vals: "eil",
            long: &[
                "null",
                "arg-file=",
                "delimiter=",
                "eof?",
                "replace?",
                "max-lines?",
                "max-args=",
                "max-procs=",
                "max-chars=",
                "process-slot-var=",
                "interactive",
                "no-run-if-empty",
                "verbose",
                "exit",
                "open-tty",
                "show-limits",
            ],
            ..NONE
        },
        "time" => Spec {
            flags: "apqv",
            vals: "fo",
            long: &[
                "format=",
                "output=",
                "append",
                "portability",
                "verbose",
                "quiet",
            ],
            ..NONE
        },
        "watch" => Spec {
            flags: "bcCdeghprtwx",
            vals: "nq",
            long: &[
                "beep",
                "color",
                "no-color",
                "differences?",
                "errexit",
                "chgexit",
                "interval=",
                "precise",
                "equexit=",
                "no-rerun",
                "no-title",
                "no-wrap",
                "exec",
            ],
            ..NONE
        },
        "command" => Spec {
            flags: "pvV",
            ..NONE
        },
        "exec" => Spec {
            flags: "cl",
            vals: "a",
            ..NONE
        },
        _ => return None,
    })
}

/// Finds where the command wrapped by `words[0]` starts.
pub(crate) fn peel(name: &str, words: &[Word], fx: &mut Effects) -> Step {
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
pub(crate) enum ShellRun<'a> {
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
pub(crate) fn shell_run(args: &[Word]) -> ShellRun<'_> {
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
