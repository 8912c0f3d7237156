//! The exact option table of each modelled wrapper: which options take a
//! value, which take one only when attached, how many operands come before
//! the command. Kept apart from the parser so the table can be audited alone.

/// How one wrapper's options look.
pub(super) struct Spec {
    /// Short options without a value.
    pub(super) flags: &'static str,
    /// Short options with a value, attached (`-n5`) or next (`-n 5`).
    pub(super) vals: &'static str,
    /// Short options with an optional value, attached only (`xargs -i{}`).
    pub(super) opt_vals: &'static str,
    /// Long options: `name` (no value), `name=` (a value, attached or
    /// next) or `name?` (an optional value, attached only).
    pub(super) long: &'static [&'static str],
    /// Operands between the options and the command (`timeout DURATION`).
    pub(super) operands: usize,
}

pub(super) const NONE: Spec = Spec {
    flags: "",
    vals: "",
    opt_vals: "",
    long: &[],
    operands: 0,
};

/// The option table of wrapper `name`, if it is modelled.
pub(super) fn spec(name: &str) -> Option<Spec> {
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
