//! The per-program option table of the read-only allowlist.
//!
//! Each entry lists the options known not to write files or run programs;
//! options that do (`sort -o`/`-T`, `tree -o`, `file -C`/`-z`, `diff -l` which runs
//! `pr`, `rg --pre`, `fd -x`, `uniq IN OUT`) are left out on purpose.
//! Pagers (`less`, `more`, `man`) are absent: they run `!cmd`.

use super::search;

use super::Opts;

/// Programs whose `--version` (and listed aliases) only prints a version.
pub(super) const VERSION_ONLY: &[&str] = &[
    "cargo", "rustc", "rustup", "node", "npm", "npx", "pnpm", "yarn", "deno", "bun", "python",
    "python3", "pip", "pip3", "go", "java", "javac", "gcc", "g++", "cc", "clang", "make", "cmake",
    "ruby", "perl", "bash", "sh", "zsh", "git", "docker", "kubectl", "tsc", "rg", "fd", "jq",
    "curl", "wget", "ls", "grep", "sed", "awk", "find", "tar", "ssh", "gh",
];

/// `(program, alias)` pairs where the alias also only prints the version.
pub(super) const VERSION_ALIASES: &[(&str, &str)] = &[
    ("cargo", "-V"),
    ("cargo", "version"),
    ("rustc", "-V"),
    ("rustup", "-V"),
    ("go", "version"),
    ("python", "-V"),
    ("python3", "-V"),
    ("pip", "-V"),
    ("pip3", "-V"),
    ("rg", "-V"),
    ("fd", "-V"),
    ("git", "version"),
    ("docker", "version"),
];

/// Programs none of whose options write or run anything, so arguments fed
/// by `xargs` cannot change what they do.
pub(super) const FEEDABLE: &[&str] = &[
    "cat",
    "head",
    "tail",
    "wc",
    "ls",
    "grep",
    "egrep",
    "fgrep",
    "stat",
    "du",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "echo",
    "nl",
    "od",
    "hexdump",
    "strings",
    "cut",
    "cmp",
];

/// `date` options (no `-s`/`--set`). `-I[FMT]` takes an optional value,
/// attached only: modelled as taking the next word, `date -Id 0101` hid
/// the clock-setting operand `0101` (`-I` with `d`, then the operand).
pub(super) const DATE: Opts = Opts {
    short: "uR",
    short_opt: "I",
    short_val: "drf",
    long: &[
        "date=",
        "utc",
        "universal",
        "iso-8601?",
        "rfc-3339=",
        "rfc-email",
        "reference=",
        "debug",
        "file=",
        "resolution",
    ],
    more_long: &[],
    max_operands: None,
};

const fn o(short: &'static str, short_val: &'static str, long: &'static [&'static str]) -> Opts {
    Opts {
        short,
        short_opt: "",
        short_val,
        long,
        more_long: &[],
        max_operands: None,
    }
}

/// The option table for `name`.
pub(super) fn lookup(name: &str) -> Option<&'static Opts> {
    static LS: Opts = o(
        "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1",
        "IwT",
        &[
            "all",
            "almost-all",
            "author",
            "escape",
            "block-size=",
            "ignore-backups",
            "color?",
            "classify?",
            "directory",
            "dired",
            "file-type",
            "format=",
            "full-time",
            "group-directories-first",
            "no-group",
            "human-readable",
            "si",
            "hide=",
            "hyperlink?",
            "indicator-style=",
            "inode",
            "ignore=",
            "dereference",
            "dereference-command-line",
            "dereference-command-line-symlink-to-dir",
            "literal",
            "numeric-uid-gid",
            "hide-control-chars",
            "show-control-chars",
            "quote-name",
            "quoting-style=",
            "reverse",
            "recursive",
            "size",
            "sort=",
            "time=",
            "time-style=",
            "tabsize=",
            "width=",
            "context",
            "zero",
            "help",
            "version",
        ],
    );
    static CAT: Opts = o(
        "AbeEnstTuv",
        "",
        &[
            "show-all",
            "number-nonblank",
            "number",
            "squeeze-blank",
            "show-ends",
            "show-tabs",
            "show-nonprinting",
            "help",
            "version",
        ],
    );
    static HEAD: Opts = o(
        "qvz0123456789",
        "nc",
        &[
            "lines=",
            "bytes=",
            "quiet",
            "silent",
            "verbose",
            "zero-terminated",
            "help",
        ],
    );
    static TAIL: Opts = o(
        "qvzfFr0123456789",
        "ncs",
        &[
            "lines=",
            "bytes=",
            "quiet",
            "silent",
            "verbose",
            "zero-terminated",
            "follow?",
            "retry",
            "pid=",
            "sleep-interval=",
            "help",
        ],
    );
    static WC: Opts = o(
        "clmwL",
        "",
        &[
            "bytes",
            "chars",
            "lines",
            "words",
            "max-line-length",
            "files0-from=",
            "total=",
            "help",
        ],
    );
    static GREP: Opts = o(
        "EFGPiyvwxczLlosqbHhnTZzUraRI0123456789",
        "efmABCdD",
        search::GREP_LONG,
    );
    static RG: Opts = o(
        // `-j N` (threads) takes a value.
        "iSswxvocClLnNHIUFaPqu0.0123456789",
        "egtTmABCMrEdj",
        search::RG_LONG,
    );
    // No `-z`/`--uncompress`: libmagic runs external decompressors for
    // formats it has no built-in support for (as `rg -z` does).
    static FILE: Opts = o(
        "bcEhiklLNnprsv0S",
        "efFmP",
        &[
            "brief",
            "mime",
            "mime-type",
            "mime-encoding",
            "no-dereference",
            "dereference",
            "keep-going",
            "raw",
            "special-files",
            "separator=",
            "files-from=",
            "extension",
            "apple",
            "help",
            "version",
        ],
    );
    static STAT: Opts = o(
        "LftZ",
        "c",
        &[
            "dereference",
            "file-system",
            "format=",
            "printf=",
            "terse",
            "cached=",
            "help",
        ],
    );
    static DU: Opts = o(
        "0abcDhHklLmPsSx",
        "dBtX",
        &[
            "null",
            "all",
            "apparent-size",
            "block-size=",
            "bytes",
            "total",
            "dereference-args",
            "max-depth=",
            "files0-from=",
            "human-readable",
            "inodes",
            "dereference",
            "count-links",
            "no-dereference",
            "separate-dirs",
            "si",
            "summarize",
            "threshold=",
            "time?",
            "time-style=",
            "exclude-from=",
            "exclude=",
            "one-file-system",
            "help",
        ],
    );
    // `-x TYPE` takes a value (a flag here would check its value as options).
    static DF: Opts = o(
        "ahHiklPT",
        "Btx",
        &[
            "all",
            "block-size=",
            "human-readable",
            "si",
            "inodes",
            "local",
            "output?",
            "portability",
            "print-type",
            "total",
            "type=",
            "exclude-type=",
            "help",
        ],
    );
    static TREE: Opts = o(
        "adlfxpsughDFqNQrtvUCAiSJn",
        "LPI",
        &[
            "noreport",
            "dirsfirst",
            "gitignore",
            "charset=",
            "filelimit=",
            "du",
            "prune",
            "matchdirs",
            "ignore-case",
            "sort=",
            "help",
            "version",
        ],
    );
    static DIFF: Opts = o(
        "abBcdeEfHiNnpqrsStTuwyZ0123456789",
        "CUFIWDSxX",
        &[
            "normal",
            "brief",
            "report-identical-files",
            "context?",
            "unified?",
            "ed",
            "rcs",
            "side-by-side",
            "width=",
            "left-column",
            "suppress-common-lines",
            "show-c-function",
            "show-function-line=",
            "label=",
            "expand-tabs",
            "initial-tab",
            "tabsize=",
            "suppress-blank-empty",
            "new-file",
            "unidirectional-new-file",
            "ignore-case",
            "ignore-tab-expansion",
            "ignore-trailing-space",
            "ignore-space-change",
            "ignore-all-space",
            "ignore-blank-lines",
            "ignore-matching-lines=",
            "strip-trailing-cr",
            "text",
            "recursive",
            "no-dereference",
            "exclude=",
            "exclude-from=",
            "starting-file=",
            "from-file=",
            "to-file=",
            "minimal",
            "speed-large-files",
            "color?",
            "help",
            "version",
        ],
    );
    static CMP: Opts = o(
        "blsz",
        "inN",
        &["print-bytes", "verbose", "quiet", "silent", "help"],
    );
    static COMM: Opts = o(
        "123iz",
        "",
        &[
            "check-order",
            "nocheck-order",
            "output-delimiter=",
            "total",
            "zero-terminated",
        ],
    );
    static UNAME: Opts = o(
        "asnrvmpio",
        "",
        &[
            "all",
            "kernel-name",
            "nodename",
            "kernel-release",
            "kernel-version",
            "machine",
            "processor",
            "hardware-platform",
            "operating-system",
        ],
    );
    static ID: Opts = o(
        "gGnruzZ",
        "",
        &["group", "groups", "name", "real", "user", "zero"],
    );
    static NOTHING: Opts = o("", "", &["help", "version"]);
    static PWD: Opts = o("LP", "", &[]);
    static PRINTENV: Opts = o("0", "", &["null"]);
    static BASENAME: Opts = o("az", "s", &["multiple", "suffix=", "zero"]);
    static DIRNAME: Opts = o("z", "", &["zero"]);
    static REALPATH: Opts = o(
        "eEmLPqsz",
        "",
        &[
            "canonicalize-existing",
            "canonicalize-missing",
            "logical",
            "physical",
            "quiet",
            "relative-to=",
            "relative-base=",
            "strip",
            "no-symlinks",
            "zero",
        ],
    );
    static READLINK: Opts = o(
        "efmnqsvz",
        "",
        &[
            "canonicalize",
            "canonicalize-existing",
            "canonicalize-missing",
            "no-newline",
            "quiet",
            "silent",
            "verbose",
            "zero",
        ],
    );
    static CUT: Opts = o(
        "nsz",
        "bcfd",
        &[
            "bytes=",
            "characters=",
            "fields=",
            "delimiter=",
            "complement",
            "only-delimited",
            "output-delimiter=",
            "zero-terminated",
        ],
    );
    static TR: Opts = o(
        "cCdst",
        "",
        &["complement", "delete", "squeeze-repeats", "truncate-set1"],
    );
    static UNIQ: Opts = Opts {
        short: "cdDiuz",
        short_opt: "",
        short_val: "fsw",
        long: &[
            "count",
            "repeated",
            "all-repeated?",
            "skip-fields=",
            "group?",
            "ignore-case",
            "skip-chars=",
            "unique",
            "zero-terminated",
            "check-chars=",
        ],
        more_long: &[],
        max_operands: Some(1),
    };
    static NL: Opts = o(
        "p",
        "bdfhilnsvw",
        &[
            "body-numbering=",
            "section-delimiter=",
            "footer-numbering=",
            "header-numbering=",
            "line-increment=",
            "join-blank-lines=",
            "number-format=",
            "no-renumber",
            "number-separator=",
            "starting-line-number=",
            "number-width=",
        ],
    );
    // `-w[N]` takes an optional value, attached only (`od -w -x` is two
    // options, not `-w` with the value `-x`).
    static OD: Opts = Opts {
        short_opt: "w",
        ..o(
            "bcdfilosvx",
            "AjNSt",
            &[
                "address-radix=",
                "endian=",
                "skip-bytes=",
                "read-bytes=",
                "strings?",
                "format=",
                "output-duplicates",
                "width?",
                "traditional",
            ],
        )
    };
    static HEXDUMP: Opts = o("bcCdovx", "efns", &[]);
    static SUMS: Opts = o(
        "bctwz",
        "",
        &[
            "binary",
            "check",
            "tag",
            "text",
            "zero",
            "ignore-missing",
            "quiet",
            "status",
            "strict",
            "warn",
            "help",
            "version",
        ],
    );
    // No `-T`/`--temporary-directory`: sort writes temporary files there.
    static SORT: Opts = o(
        "bdfgiMhnRrVcCsumz",
        "ktS",
        &[
            "ignore-leading-blanks",
            "dictionary-order",
            "ignore-case",
            "general-numeric-sort",
            "ignore-nonprinting",
            "month-sort",
            "human-numeric-sort",
            "numeric-sort",
            "random-sort",
            "random-source=",
            "reverse",
            "sort=",
            "version-sort",
            "check?",
            "merge",
            "key=",
            "field-separator=",
            "stable",
            "unique",
            "zero-terminated",
            "buffer-size=",
            "parallel=",
            "debug",
            "help",
        ],
    );
    // util-linux 2.38: `-d` is a flag (`--table-noheadings`), while `-n`,
    // `-R`, `-r`, `-E`, `-i`, `-p` take values.
    static COLUMN: Opts = o(
        "tdeLJx",
        "nONlEHRTWripcos",
        &[
            "table",
            "table-name=",
            "table-order=",
            "table-columns=",
            "table-columns-limit=",
            "table-noextreme=",
            "table-noheadings",
            "table-header-repeat",
            "table-hide=",
            "table-right=",
            "table-truncate=",
            "table-wrap=",
            "keep-empty-lines",
            "json",
            "tree=",
            "tree-id=",
            "tree-parent=",
            "output-width=",
            "columns=",
            "separator=",
            "output-separator=",
            "fillrows",
        ],
    );
    static TAC: Opts = o("br", "s", &["before", "regex", "separator="]);
    static REV: Opts = o("0", "", &["zero"]);
    static FOLD: Opts = o("bs", "w", &["bytes", "spaces", "width="]);
    static PASTE: Opts = o("sz", "d", &["serial", "delimiters=", "zero-terminated"]);
    static STRINGS: Opts = o("afdw", "nte", &["all", "bytes=", "radix=", "encoding="]);
    static BASE64: Opts = o("diw0123456789", "w", &["decode", "ignore-garbage", "wrap="]);
    static SEQ: Opts = o("w", "fs", &["equal-width", "format=", "separator="]);
    static JQ_LIKE: Opts = o(
        "nrjacsSeCM",
        "",
        &[
            "null-input",
            "raw-output",
            "join-output",
            "ascii-output",
            "compact-output",
            "slurp",
            "sort-keys",
            "exit-status",
            "color-output",
            "monochrome-output",
            "tab",
            "indent=",
            "raw-input",
            "seq",
            "stream",
            "raw-output0",
        ],
    );
    static WHICH: Opts = o("as", "", &["all", "skip-alias", "skip-functions"]);
    static TYPE: Opts = o("aftpP", "", &[]);
    static FD: Opts = o(
        "HIusiFpgaL01",
        "tedEjc",
        &[
            "hidden",
            "no-ignore",
            "no-ignore-vcs",
            "unrestricted",
            "case-sensitive",
            "ignore-case",
            "glob",
            "regex",
            "fixed-strings",
            "absolute-path",
            "follow",
            "full-path",
            "print0",
            "max-depth=",
            "min-depth=",
            "exact-depth=",
            "type=",
            "extension=",
            "exclude=",
            "size=",
            "changed-within=",
            "changed-before=",
            "max-results=",
            "color=",
            "threads=",
            "one-file-system",
            "strip-cwd-prefix?",
            "prune",
            "no-require-git",
            "show-errors",
            "help",
            "version",
        ],
    );
    static SLEEP: Opts = o("", "", &[]);
    static PS: Opts = o(
        "AaefFHjlLmrTuvwxMZ",
        "pqstUGgCO",
        &["forest", "sort=", "format="],
    );
    Some(match name {
        "ls" | "dir" | "vdir" => &LS,
        "cat" => &CAT,
        "head" => &HEAD,
        "tail" => &TAIL,
        "wc" => &WC,
        "grep" | "egrep" | "fgrep" => &GREP,
        "rg" => &RG,
        "file" => &FILE,
        "stat" => &STAT,
        "du" => &DU,
        "df" => &DF,
        "tree" => &TREE,
        "diff" => &DIFF,
        "cmp" => &CMP,
        "comm" => &COMM,
        "uname" => &UNAME,
        "id" => &ID,
        "whoami" | "nproc" | "arch" | "tty" | "groups" | "uptime" | "locale" | "users" => &NOTHING,
        "pwd" => &PWD,
        "printenv" => &PRINTENV,
        "basename" => &BASENAME,
        "dirname" => &DIRNAME,
        "realpath" => &REALPATH,
        "readlink" => &READLINK,
        "cut" => &CUT,
        "tr" => &TR,
        "uniq" => &UNIQ,
        "nl" => &NL,
        "od" => &OD,
        "hexdump" => &HEXDUMP,
        "md5sum" | "sha1sum" | "sha224sum" | "sha256sum" | "sha384sum" | "sha512sum" | "b2sum"
        | "cksum" => &SUMS,
        "sort" => &SORT,
        "column" => &COLUMN,
        "tac" => &TAC,
        "rev" => &REV,
        "fold" => &FOLD,
        "paste" => &PASTE,
        "strings" => &STRINGS,
        "base64" => &BASE64,
        "seq" => &SEQ,
        "jq" => &JQ_LIKE,
        "which" => &WHICH,
        "type" => &TYPE,
        "fd" | "fdfind" => &FD,
        "sleep" => &SLEEP,
        "ps" => &PS,
        _ => return None,
    })
}
