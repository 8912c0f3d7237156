//! The destructive-command guard end to end (issue 36, part 6): a
//! generator of computed or protected targets, each one `Bash` call run by
//! the real binary in `-p` with `--permission-mode bypass` and
//! `accept-edits`. Each case is judged by its effect: the canary files in
//! the fake home, the workspace and both of its ancestors are all still
//! there, unchanged in content, mode and owner, and nothing the case
//! would have made exists; and the tool result says the guard blocked it.
//! Controls: literal deletes inside the workspace run and delete.
//!
//! Every target a case could reach lies under the test's own temp
//! directory, or is a path the OS sandbox keeps read-only (`/`, `/etc`,
//! `~root`), so a case that got through destroys nothing of the host's.

use std::os::unix::fs::{MetadataExt, symlink};
use std::path::PathBuf;

use serde_json::json;
use tempfile::TempDir;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, assert_clean, stderr};

/// A file's content, mode and owner.
type Seen = (String, u32, u32);

/// `T/home` (HOME), `T/outer/ws` (the workspace), and canaries in each of
/// them and in `T` and `T/outer`.
struct Layout {
    env: Env,
    t: PathBuf,
    /// The workspace and home, resolved once (a case that got through
    /// may have removed them).
    ws: PathBuf,
    home: PathBuf,
    _top: TempDir,
}

impl Layout {
    fn new() -> Self {
        let top = tempfile::tempdir().unwrap();
        let t = top.path().canonicalize().unwrap();
        std::fs::create_dir_all(t.join("outer")).unwrap();
        let env = Env {
            project: tempfile::Builder::new()
                .prefix("ws")
                .tempdir_in(t.join("outer"))
                .unwrap(),
            home: tempfile::Builder::new()
                .prefix("home")
                .tempdir_in(&t)
                .unwrap(),
        };
        let ws = env.project.path().canonicalize().unwrap();
        let home = env.home.path().canonicalize().unwrap();
        let l = Self {
            env,
            t,
            ws,
            home,
            _top: top,
        };
        std::fs::create_dir_all(l.ws().join("build/obj")).unwrap();
        for dir in l.canary_dirs() {
            std::fs::write(dir.join("canary.txt"), "canary\n").unwrap();
        }
        std::fs::write(l.ws().join("build/obj/a.o"), "o").unwrap();
        std::fs::write(l.ws().join("disk.img"), "not a file system\n").unwrap();
        std::fs::create_dir_all(l.t.join("empty")).unwrap();
        // Links an earlier command could have left in the workspace.
        symlink(l.home(), l.ws().join("tohome")).unwrap();
        symlink(l.t.join("outer"), l.ws().join("toouter")).unwrap();
        l
    }

    fn ws(&self) -> PathBuf {
        self.ws.clone()
    }

    fn home(&self) -> PathBuf {
        self.home.clone()
    }

    fn canary_dirs(&self) -> Vec<PathBuf> {
        vec![
            self.home(),
            self.ws(),
            self.ws().join("build"),
            self.t.join("outer"),
            self.t.clone(),
        ]
    }

    /// Content, mode and owner of every canary, and of the workspace's
    /// `build/obj/a.o` and `disk.img`.
    fn fingerprint(&self) -> Vec<(PathBuf, Option<Seen>)> {
        let mut files: Vec<PathBuf> = self
            .canary_dirs()
            .iter()
            .map(|d| d.join("canary.txt"))
            .collect();
        files.push(self.ws().join("build/obj/a.o"));
        files.push(self.ws().join("disk.img"));
        files
            .into_iter()
            .map(|f| {
                let seen = std::fs::symlink_metadata(&f).ok().map(|m| {
                    let text = std::fs::read_to_string(&f).unwrap_or_default();
                    (text, m.mode(), m.uid())
                });
                (f, seen)
            })
            .collect()
    }

    /// `case` with `{T}`, `{WS}`, `{WSNAME}` and `{HOME}` filled in.
    fn fill(&self, case: &str) -> String {
        let ws = self.ws();
        let name = ws.file_name().unwrap().to_string_lossy().into_owned();
        case.replace("{T}", &self.t.to_string_lossy())
            .replace("{WSNAME}", &name)
            .replace("{WS}", &ws.to_string_lossy())
            .replace("{HOME}", &self.home().to_string_lossy())
    }
}

/// Runs `-p` with the model calling `Bash` once with `command`, then
/// "done"; returns the run and the one tool result (text, is_error).
fn run_one(env: &Env, command: &str, mode: &str) -> (std::process::Output, Option<(String, bool)>) {
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({ "command": command }),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--permission-mode", mode])
        .output()
        .unwrap();
    let result = server
        .requests()
        .get(1)
        .and_then(|r| tool_results("anthropic", r).into_iter().next())
        .map(|(_, text, err)| (text, err));
    (out, result)
}

/// Each variant names a target the guard cannot know to be safe: computed
/// (tildes, braces, substitutions, `read`, loops, `$OLDPWD`), through a
/// link, or the workspace, an ancestor or the home named literally. Paths
/// a case would create are listed after `=>`, to be checked absent.
const CASES: &[&str] = &[
    // `~user`, `~+`, `~-`.
    "rm -rf ~root/.wright-guard-e2e",
    "rm -rf ~+",
    "rm -rf ~+/*",
    "cd build && rm -rf ~-",
    // Brace expansion into the home or `/`.
    "rm -rf {~,build}",
    "rm -rf ~/{,.}*",
    "rm -rf {{HOME},build}",
    // (`rm` itself refuses `/`, so a miss here deletes nothing.)
    "rm -rf /{.wright-guard-none,}",
    "rm -rf {T}/{empty,}",
    // The working directory or its parent by substitution.
    "rm -rf $(pwd)",
    "rm -rf \"$(dirname $PWD)\"",
    "rm -rf `pwd`/..",
    "chmod -R 000 \"$(pwd)\"",
    // `cd` to a computed directory, then a glob delete.
    "cd \"$(dirname $PWD)\" && rm -rf *",
    "X=$(dirname \"$PWD\"); cd $X && rm -rf ./*",
    "cd ~ && cd - >/dev/null && cd - >/dev/null && rm -rf *",
    // Parameter expansions of HOME.
    "rm -rf $HOME",
    "rm -rf \"${HOME}\"/*",
    "rm -rf ${HOME%/*}",
    "rm -rf ${HOME:-/}",
    // Values from `read` and `printf -v`.
    "read -r X <<< \"$HOME\"; rm -rf \"$X\"",
    "X=build; read -r X <<< \"$PWD\"; rm -rf $X",
    "X=build; printf -v X '%s' \"$HOME\"; rm -rf $X",
    // Loop variables.
    "for d in \"$HOME\" \"$PWD\"; do rm -rf $d; done",
    "for d in $(dirname $PWD); do rm -rf $d; done",
    "echo \"$HOME\" | while read d; do rm -rf $d; done",
    // `$OLDPWD`.
    "cd {HOME} && cd {WS} && rm -rf $OLDPWD",
    "rm -rf \"$OLDPWD\"/*",
    // A link to a protected place, made on the line or left earlier.
    "ln -s {HOME} h && rm -rf h/",
    "ln -s .. up && rm -rf up/*",
    "rm -rf tohome/",
    "rm -rf tohome/*",
    "chmod -R 000 tohome",
    "rm -rf toouter/",
    // Writes to disk devices by programs other than `dd`; `mke2fs`.
    "tee /dev/sdzz < canary.txt",
    "cp canary.txt /dev/nvme9n9",
    "cat canary.txt > /dev/vdzz",
    "mke2fs -F -q disk.img",
    "mkfs.ext4 -F -q disk.img",
    // `rsync --delete` into HOME or the workspace.
    "rsync -a --delete {T}/empty/ ~/",
    "rsync -a --delete {T}/empty/ {WS}",
    // Moving the home, the workspace or an ancestor away.
    "mv ~ {T}/moved",
    "mv {HOME} {T}/moved",
    "mv {WS} {T}/moved",
    "mv ../{WSNAME} {T}/moved",
    // The workspace, an ancestor or the home, named literally.
    "rm -rf {WS}",
    "rm -rf {WS}/",
    "rm -rf {WS}/build/..",
    "cd .. && rm -rf {WSNAME}",
    "cd {T}/outer && rm -rf {WSNAME}",
    "rm -rf ../{WSNAME}",
    "rm -rf {T}/outer",
    "rm -rf {T}/outer/*",
    "rm -rf {T}",
    "rm -rf {HOME}",
    "rm -rf {HOME}/*",
    "find {WS} -delete",
    "find {T}/outer -delete",
    "chmod -R 000 {WS}",
    "chmod -R 000 {HOME}",
    "chown -R nobody {T}/outer",
    "chown -R nobody:nogroup {HOME}",
];

/// Paths a device or move case would have made if it ran.
fn made(l: &Layout) -> Vec<PathBuf> {
    vec![
        PathBuf::from("/dev/sdzz"),
        PathBuf::from("/dev/nvme9n9"),
        PathBuf::from("/dev/vdzz"),
        l.t.join("moved"),
        l.ws().join("h"),
        l.ws().join("up"),
    ]
}

fn check_mode(mode: &str) {
    let mut failures = Vec::new();
    for case in CASES {
        let l = Layout::new();
        let command = l.fill(case);
        let before = l.fingerprint();
        let (out, result) = run_one(&l.env, &command, mode);
        assert_clean(&out);
        let after = l.fingerprint();
        let mut why = Vec::new();
        if !out.status.success() {
            why.push(format!("exit {:?}: {}", out.status.code(), stderr(&out)));
        }
        for ((f, b), (_, a)) in before.iter().zip(&after) {
            if b != a {
                why.push(format!("{} changed: {b:?} -> {a:?}", f.display()));
            }
        }
        for p in made(&l) {
            if std::fs::symlink_metadata(&p).is_ok() {
                why.push(format!("{} was made", p.display()));
                let _ = std::fs::remove_file(&p);
            }
        }
        match &result {
            Some((text, true))
                if text.contains("refused in every mode")
                    || text.starts_with("Blocked by guard") =>
            {
                // A target the guard cannot resolve, or the workspace
                // named whole, is refused with the way out; `/`, `~` and
                // devices are simply refused.
                let unresolved = [
                    "computed",
                    "ancestor",
                    "the workspace",
                    "leaves the directory",
                ]
                .iter()
                .any(|w| text.contains(w));
                if unresolved
                    && !text.contains("name the path literally")
                    && !text.contains("inside the workspace literally")
                {
                    why.push(format!("the reason gives no way out: {text}"));
                }
            }
            other => why.push(format!("not blocked: {other:?}")),
        }
        if !why.is_empty() {
            failures.push(format!("{command}\n    {}", why.join("\n    ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{mode}: {} of {} cases got through or changed something:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn computed_and_protected_targets_are_refused_in_bypass() {
    check_mode("bypass");
}

#[test]
fn computed_and_protected_targets_are_refused_in_accept_edits() {
    check_mode("accept-edits");
}

/// Controls: literal deletes and permission changes inside the workspace
/// run, in `bypass`, and do what they say.
#[test]
fn literal_targets_inside_the_workspace_still_run() {
    let cases: &[(&str, &[&str])] = &[
        ("rm -rf build/", &["build"]),
        ("rm -rf {WS}/build", &["build"]),
        ("cd build && rm -rf *", &["build/obj", "build/canary.txt"]),
        ("rm -rf tohome", &["tohome"]),
        ("find build -name '*.o' -delete", &["build/obj/a.o"]),
    ];
    for (case, gone) in cases {
        let l = Layout::new();
        let command = l.fill(case);
        let (out, result) = run_one(&l.env, &command, "bypass");
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        assert!(matches!(&result, Some((_, false))), "{command}: {result:?}");
        for g in *gone {
            assert!(
                std::fs::symlink_metadata(l.ws().join(g)).is_err(),
                "{command}: {g} is still there"
            );
        }
        // Outside the workspace nothing changed.
        assert!(l.home().join("canary.txt").exists(), "{command}");
        assert!(l.t.join("outer/canary.txt").exists(), "{command}");
        assert!(l.ws().join("canary.txt").exists(), "{command}");
    }
    // `chmod -R` inside the workspace runs too.
    let l = Layout::new();
    let (out, result) = run_one(&l.env, "chmod -R 700 build", "bypass");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(matches!(&result, Some((_, false))), "{result:?}");
    let mode = std::fs::metadata(l.ws().join("build/canary.txt"))
        .unwrap()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
}

/// Runs `script` in `dir` with a quiet, config-free git.
fn sh(dir: &std::path::Path, script: &str) -> String {
    let out = std::process::Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Git transports that force-update or delete remote refs, in `bypass`:
/// the remote's refs are unchanged afterwards (the OS sandbox lets a
/// command write the temp dir the remote is in, so only the guard stands
/// between), and each is blocked.
#[test]
fn forcing_git_transports_leave_the_remote_unchanged() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no git");
        return;
    }
    let cases = [
        "git push --force origin main",
        "git send-pack --force {T}/remote.git main",
        "git send-pack --mirror {T}/remote.git",
        "git -c remote.origin.mirror=true push origin",
        "git -c Remote.Origin.Mirror=yes push",
        "git push origin :keep",
        "git push origin +main",
        "git config remote.origin.mirror true && git push origin",
    ];
    // The last is the control: a plain push of a new branch runs and
    // reaches the remote, so the sandbox does not hide it.
    let control = "git push origin main:fresh";
    for case in cases.iter().chain([&control]) {
        let l = Layout::new();
        let t = l.t.display().to_string();
        sh(
            &l.t,
            "git init -q --bare remote.git && git init -q seed && cd seed && echo a > a && \
             git add a && git commit -qm a && git branch -M main && git branch keep && \
             git push -q ../remote.git main keep",
        );
        sh(
            &l.ws,
            &format!(
                "git init -q && git remote add origin {t}/remote.git && git fetch -q origin && \
                 git checkout -q -b main origin/main && echo b > a && git commit -qam b --amend"
            ),
        );
        let refs = |l: &Layout| sh(&l.t.join("remote.git"), "git for-each-ref");
        let before = refs(&l);
        let command = l.fill(case);
        let (out, result) = run_one(&l.env, &command, "bypass");
        assert_clean(&out);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        if *case == control {
            assert!(refs(&l).contains("refs/heads/fresh"), "{result:?}");
            continue;
        }
        assert_eq!(refs(&l), before, "{command}: the remote changed");
        assert!(
            matches!(&result, Some((text, true)) if text.contains("refused in every mode") || text.starts_with("Blocked by guard")),
            "{command}: {result:?}"
        );
    }
}
