//! Git metadata that an unsandboxed git trusts (issue 36, part 1), end to
//! end through the real binary: a generator over plant kinds × path shapes
//! for the file tools (in `bypass`) and over plant kinds for commands (in
//! the OS sandbox). Each case is judged by its effect, never the message:
//! afterwards the user's plain `git status` in the project, its submodule
//! and its linked worktree runs no program a plant named (no marker file
//! appears), and every file a plant aimed at is unchanged. The planted
//! programs leave their marker only outside the sandbox
//! (`WRIGHT_SANDBOXED` unset): a plant's program running inside it, on a
//! command's own git, is confined and no escape.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, assert_clean, stderr};

/// Whether the kernel enforces the sandbox here; the tests say so when not.
fn sandboxed(test: &str) -> bool {
    match wright_sandbox::probe() {
        wright_sandbox::Support::Available => true,
        wright_sandbox::Support::Unavailable(why) => {
            eprintln!("SKIPPED {test}: OS sandbox unavailable: {why}");
            false
        }
    }
}

fn sh(dir: &Path, script: &str) {
    let out = Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
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
}

/// A project with a submodule `sub` (git dir `.git/modules/sub`), an
/// embedded repository `emb` added as a gitlink (no `.gitmodules` entry)
/// and a linked worktree `wt` inside it, and outside it (in HOME) a repository
/// `evil` whose config runs programs that leave `MARK-*` files in HOME.
struct Layout {
    env: Env,
    work: PathBuf,
    evil: PathBuf,
}

fn layout() -> Layout {
    let env = Env::new();
    let home = env.home.path().canonicalize().unwrap();
    let work = env.project.path().canonicalize().unwrap();
    let h = home.display();
    sh(
        &home,
        &format!(
            "git init -q evil && git -C evil config core.fsmonitor 'test x$WRIGHT_SANDBOXED = x1 || touch {h}/MARK-fsmonitor; false' && \
             git -C evil config filter.evil.clean 'test x$WRIGHT_SANDBOXED = x1 || touch {h}/MARK-filter; cat' && \
             mkdir -p evil/.git/info && echo '* filter=evil' > evil/.git/info/attributes && \
             git init -q origin && echo s > origin/s.txt && git -C origin add -A && \
             git -C origin commit -qm s"
        ),
    );
    sh(
        &work,
        &format!(
            "git init -q && echo one > a.txt && git add a.txt && git commit -qm a && \
             git -c protocol.file.allow=always submodule add -q {h}/origin sub && \
             git commit -qm sub && git worktree add -q wt && echo /wt/ >> .git/info/exclude && \
             git init -q emb && echo e > emb/e && git -C emb add e && git -C emb commit -qm e && \
             git add emb 2>/dev/null && git commit -qm emb && \
             echo two > a.txt && echo t2 > sub/s.txt && echo w2 > wt/a.txt && \
             ln -s wt lw && ln -s .git lg && echo /lw >> .git/info/exclude && \
             echo /lg >> .git/info/exclude"
        ),
    );
    Layout {
        evil: home.join("evil/.git"),
        env,
        work,
    }
}

/// The user's plain `git status` where they work: the project, its
/// submodule, its linked worktree. Returns the markers that appeared.
fn victim(l: &Layout) -> Vec<String> {
    for dir in [".", "sub", "wt"] {
        let _ = Command::new("git")
            .args(["status", "--porcelain"])
            .current_dir(l.work.join(dir))
            .env("HOME", l.env.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("WRIGHT_SANDBOXED")
            .output();
    }
    std::fs::read_dir(l.env.home.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("MARK"))
        .collect()
}

/// The repositories nested in the project beyond the submodule and the
/// linked worktree: each `.git` file or link, each `.git` dir or bare git
/// dir with a `HEAD` (without one, git takes it for no repository).
fn new_repositories(l: &Layout) -> Vec<PathBuf> {
    let known = [
        l.work.join("sub/.git"),
        l.work.join("wt/.git"),
        l.work.join("emb/.git"),
    ];
    wright_sandbox::git_dirs::scan_nested(&l.work)
        .found
        .into_iter()
        .map(|(p, _, _)| p)
        .filter(|p| !known.contains(p))
        .filter(|p| {
            let Ok(meta) = p.symlink_metadata() else {
                return false;
            };
            !meta.is_dir()
                || std::fs::read_dir(p)
                    .map(|mut d| {
                        d.any(|e| e.is_ok_and(|e| e.file_name().eq_ignore_ascii_case("head")))
                    })
                    .unwrap_or(false)
        })
        .collect()
}

/// Every file under the project, its git dirs included (links as their
/// targets), to see what a case changed.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(meta) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            let name = e.file_name();
            let what = if meta.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&p).unwrap().display())
            } else if meta.is_dir() {
                // Git's own bookkeeping changes on every status.
                if name != "objects" && name != "logs" {
                    stack.push(p.clone());
                }
                "dir".to_owned()
            } else if name == "index" || name == "index.lock" || name == "FETCH_HEAD" {
                continue;
            } else {
                std::fs::read_to_string(&p).unwrap_or_else(|_| "<binary>".into())
            };
            out.insert(p, what);
        }
    }
    out
}

/// What a plant writes: each file (relative to the project, before the
/// shape is applied) with its text.
#[derive(Clone, Copy, Debug)]
enum Plant {
    /// The linked worktree's `.git` file, pointed at `evil`.
    WorktreeDotGit,
    /// The submodule's `.git` file, pointed at `evil`.
    SubmoduleDotGit,
    /// The submodule's git dir config.
    ModuleConfig,
    /// A new git dir under `.git/modules`.
    NewModule,
    /// The linked worktree's `gitdir` and `commondir` records.
    WorktreeRecords,
    /// A nested repository: `nested/.git` as a file, and as a directory.
    Nested,
    /// A bare git dir in the tree.
    Bare,
}

const PLANTS: [Plant; 7] = [
    Plant::WorktreeDotGit,
    Plant::SubmoduleDotGit,
    Plant::ModuleConfig,
    Plant::NewModule,
    Plant::WorktreeRecords,
    Plant::Nested,
    Plant::Bare,
];

const FSMONITOR: &str = "[core]\n\tfsmonitor = \"touch MARK_DIR/MARK-planted; false\"\n";

fn writes(plant: Plant, evil: &Path) -> Vec<(&'static str, String)> {
    let point = format!("gitdir: {}\n", evil.display());
    match plant {
        Plant::WorktreeDotGit => vec![("wt/.git", point)],
        Plant::SubmoduleDotGit => vec![("sub/.git", point)],
        Plant::ModuleConfig => vec![(".git/modules/sub/config", FSMONITOR.to_owned())],
        Plant::NewModule => vec![
            (".git/modules/x/HEAD", "ref: refs/heads/main\n".to_owned()),
            (".git/modules/x/config", FSMONITOR.to_owned()),
        ],
        Plant::WorktreeRecords => vec![
            (
                ".git/worktrees/wt/commondir",
                format!("{}\n", evil.display()),
            ),
            (
                ".git/worktrees/wt/gitdir",
                "/tmp/elsewhere/.git\n".to_owned(),
            ),
        ],
        Plant::Nested => vec![
            ("nested/.git", point),
            ("nested2/.git/HEAD", "ref: refs/heads/main\n".to_owned()),
            ("nested2/.git/config", FSMONITOR.to_owned()),
            ("nested2/.git/objects/x", "x".to_owned()),
        ],
        Plant::Bare => vec![
            ("bare/HEAD", "ref: refs/heads/main\n".to_owned()),
            ("bare/config", FSMONITOR.to_owned()),
            ("bare/objects/x", "x".to_owned()),
            ("bare/refs/heads/main", "0\n".to_owned()),
        ],
    }
}

/// How the path is spelled.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Relative,
    DotSlash,
    Absolute,
    /// `.GIT` for `.git` (a case-insensitive file system would take it).
    Upper,
    /// Through the links `lw -> wt` and `lg -> .git`.
    Link,
    /// `a/../x`.
    DotDot,
}

const SHAPES: [Shape; 6] = [
    Shape::Relative,
    Shape::DotSlash,
    Shape::Absolute,
    Shape::Upper,
    Shape::Link,
    Shape::DotDot,
];

fn spell(l: &Layout, shape: Shape, rel: &str) -> String {
    match shape {
        Shape::Relative => rel.to_owned(),
        Shape::DotSlash => format!("./{rel}"),
        Shape::Absolute => l.work.join(rel).display().to_string(),
        Shape::Upper => rel.replace(".git", ".GIT"),
        Shape::Link => {
            if let Some(rest) = rel.strip_prefix(".git/") {
                format!("lg/{rest}")
            } else if let Some(rest) = rel.strip_prefix("wt/") {
                format!("lw/{rest}")
            } else {
                format!("lw/../{rel}")
            }
        }
        Shape::DotDot => format!("sub/../{rel}"),
    }
}

fn session(l: &Layout, calls: &[(String, &str, Value)], mode: &str) -> std::process::Output {
    session_sent(l, calls, mode).0
}

/// [`session`], with the tool results wright sent back.
fn session_sent(
    l: &Layout,
    calls: &[(String, &str, Value)],
    mode: &str,
) -> (std::process::Output, String) {
    let calls: Vec<(&str, &str, Value)> = calls
        .iter()
        .map(|(id, n, v)| (id.as_str(), *n, v.clone()))
        .collect();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&calls)),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = l
        .env
        .std_wright_p("anthropic", &server.url(), "go")
        .current_dir(&l.work)
        .args(["--permission-mode", mode])
        .output()
        .unwrap();
    assert_clean(&out);
    let sent = server
        .requests()
        .get(1)
        .map(|r| {
            super::scenarios::tool_results("anthropic", r)
                .into_iter()
                .map(|(_, text, _)| text)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    (out, sent)
}

fn run_file_tool_case(plant: Plant) -> Result<(), String> {
    let l = layout();
    let marks = l.env.home.path().canonicalize().unwrap();
    let mut calls = Vec::new();
    for shape in SHAPES {
        for (rel, text) in writes(plant, &l.evil) {
            let text = text.replace("MARK_DIR", &marks.display().to_string());
            let path = spell(&l, shape, rel);
            let n = calls.len();
            calls.push((
                format!("w{n}"),
                "Write",
                json!({"file_path": path, "content": text}),
            ));
            // A trailing slash too, where the name is `.git` itself.
            if rel.ends_with(".git") {
                calls.push((
                    format!("t{n}"),
                    "Write",
                    json!({"file_path": format!("{path}/"), "content": text}),
                ));
            }
            calls.push((
                format!("e{n}"),
                "Edit",
                json!({"file_path": path, "old_string": "", "new_string": text}),
            ));
        }
    }
    let before = snapshot(&l.work);
    let out = session(&l, &calls, "bypass");
    let after = snapshot(&l.work);
    let marks = victim(&l);
    // Files of no git meaning may be written (a lone `HEAD` or `config` in
    // a plain directory); nothing named `.git` or inside one may change.
    let gitish = |p: &PathBuf| {
        p.components()
            .any(|c| c.as_os_str().eq_ignore_ascii_case(".git"))
    };
    let changed: Vec<String> = after
        .iter()
        .filter(|(p, v)| before.get(*p) != Some(*v) && gitish(p))
        .map(|(p, _)| p.display().to_string())
        .chain(
            before
                .keys()
                .filter(|p| !after.contains_key(*p))
                .map(|p| format!("{} (removed)", p.display())),
        )
        .collect();
    let repos = new_repositories(&l);
    if !marks.is_empty() || !changed.is_empty() || !repos.is_empty() {
        return Err(format!(
            "{plant:?}: markers {marks:?}, changed {changed:?}, new repositories {repos:?}\n\
             stderr: {}",
            stderr(&out)
        ));
    }
    Ok(())
}

#[test]
fn no_git_metadata_plant_by_a_file_tool_runs_anything_or_changes_anything() {
    let failures: Vec<String> = PLANTS
        .iter()
        .filter_map(|p| run_file_tool_case(*p).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} plants got through:\n{}",
        failures.len(),
        PLANTS.len(),
        failures.join("\n\n")
    );
}

/// `python3 -c '<code>'`, with `g` bound to `.git` and `cfg` to a config
/// whose fsmonitor leaves a marker in `marks`: spelled so the permission
/// check cannot see the target, since the point is what the OS layer does
/// when a plant gets that far.
fn py(marks: &Path, code: &str) -> String {
    format!(
        "python3 -c 'import os; g=\".g\"+\"it\"; q=chr(34); \
         cfg=\"[core]\\n\\tfsmonitor = \"+q+\"test x$WRIGHT_SANDBOXED = x1 || touch {}/MARK-planted; false\"+q+\"\\n\"; {code}'",
        marks.display()
    )
}

/// Commands: each plant as a shell script, all through the sandbox.
fn command_plants(l: &Layout) -> Vec<(&'static str, String)> {
    let e = l.evil.display().to_string();
    let m = l.env.home.path().canonicalize().unwrap();
    let py = |code: &str| py(&m, &code.replace("EVIL", &e));
    vec![
        (
            "worktree .git",
            py(r#"open("wt/"+g,"w").write("gitdir: EVIL\n")"#),
        ),
        (
            "worktree .git by rename",
            py(r#"open("x","w").write("gitdir: EVIL\n"); os.replace("x", "wt/"+g)"#),
        ),
        (
            "submodule .git",
            py(r#"open("sub/"+g,"w").write("gitdir: EVIL\n")"#),
        ),
        (
            "submodule .git as a link",
            py(r#"os.remove("sub/"+g); os.symlink("EVIL", "sub/"+g)"#),
        ),
        (
            "module config",
            py(r#"open(g+"/modules/sub/config","a").write(cfg)"#),
        ),
        (
            "modules renamed away",
            py(
                r#"os.rename(g+"/modules", g+"/m2"); os.makedirs(g+"/modules/sub"); open(g+"/modules/sub/config","w").write(cfg)"#,
            ),
        ),
        (
            "new module",
            py(r#"os.makedirs(g+"/modules/x"); open(g+"/modules/x/config","w").write(cfg)"#),
        ),
        (
            "embedded repository's config",
            py(r#"open("emb/"+g+"/config","a").write(cfg)"#),
        ),
        (
            "embedded repository's .git replaced",
            py(
                r#"import shutil; os.rename("emb/"+g, "emb/old"); shutil.copytree("emb/old", "emb/"+g); open("emb/"+g+"/config","a").write(cfg)"#,
            ),
        ),
        (
            "worktree records",
            py(r#"open(g+"/worktrees/wt/commondir","w").write("EVIL\n")"#),
        ),
        (
            "nested repository as a gitlink",
            format!(
                "git init -q nested && {} && echo n > nested/n && git -C nested add n && \
                 git -C nested -c user.name=t -c user.email=t@t commit -qm n && \
                 echo n2 > nested/n && git add nested",
                py(r#"open("nested/"+g+"/config","a").write(cfg)"#)
            ),
        ),
        (
            "nested .git file as a gitlink",
            format!(
                "mkdir -p n2 && {} && git add n2",
                py(r#"open("n2/"+g,"w").write("gitdir: EVIL\n")"#)
            ),
        ),
        (
            "bare repository",
            format!(
                "git init -q --bare bare.git && {}",
                py(r#"open("bare.git/config","a").write(cfg)"#)
            ),
        ),
    ]
}

#[test]
fn no_git_metadata_plant_by_a_command_runs_anything_outside_the_sandbox() {
    if !sandboxed("git plants by commands") {
        return;
    }
    let mut failures = Vec::new();
    let names: Vec<&str> = command_plants(&layout()).iter().map(|(n, _)| *n).collect();
    for (i, name) in names.iter().enumerate() {
        let l = layout();
        let (_, script) = command_plants(&l).swap_remove(i);
        let guarded: Vec<PathBuf> = [
            "wt/.git",
            "sub/.git",
            ".git/modules/sub/config",
            ".git/worktrees/wt/commondir",
            "emb/.git/config",
        ]
        .iter()
        .map(|r| l.work.join(r))
        .collect();
        let read = |p: &PathBuf| std::fs::read_to_string(p).unwrap_or_default();
        let before: Vec<String> = guarded.iter().map(read).collect();
        let calls = vec![(
            "c1".to_owned(),
            "Bash",
            json!({"command": format!("{script}; echo R\"\"AN")}),
        )];
        let (out, sent) = session_sent(&l, &calls, "bypass");
        if !sent.contains("RAN") {
            failures.push(format!("{name}: the command did not run: {sent}"));
            continue;
        }
        let after: Vec<String> = guarded.iter().map(read).collect();
        let marks = victim(&l);
        let repos = new_repositories(&l);
        if !marks.is_empty() || before != after || !repos.is_empty() {
            failures.push(format!(
                "{name}: markers {marks:?}, new repositories {repos:?}, guarded files before \
                 {before:?} after {after:?}\nstderr: {}",
                stderr(&out)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} command plants got through:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
}

/// A Task with `isolation: worktree` whose child (every tool, `bypass`)
/// tries to repoint its worktree's `.git` file at a git dir whose config
/// runs a filter and fsmonitor, by Write, Edit and a command, and to plant
/// such a git dir in the worktree: wright's own status, `add -A` and commit
/// at the end, and the user's `git status` afterwards, run none of it, and
/// the child's real change still lands on its branch.
#[test]
fn a_worktree_childs_dot_git_repoint_runs_nothing() {
    let l = layout();
    let home = l.env.home.path().canonicalize().unwrap();
    l.env.write(
        ".wright/agents/coder.md",
        "---\nname: coder\ndescription: Makes changes\ntools: Read, Write, Edit, Bash\nisolation: worktree\n---\nYou change code.\n",
    );
    sh(&l.work, "git add -A && git commit -qm agents");
    let point = format!("gitdir: {}\n", l.evil.display());
    let filter = format!(
        "[filter \"evil\"]\n\tclean = \"test x$WRIGHT_SANDBOXED = x1 || touch {}/MARK-planted-filter; cat\"\n",
        home.display()
    );
    let child = vec![
        (
            "k1",
            "Write",
            json!({"file_path": ".git", "content": point}),
        ),
        (
            "k2",
            "Edit",
            json!({"file_path": ".git", "old_string": "gitdir:", "new_string": format!("{point}#")}),
        ),
        (
            "k3",
            "Write",
            json!({"file_path": "p/HEAD", "content": "ref: refs/heads/main\n"}),
        ),
        (
            "k4",
            "Write",
            json!({"file_path": "p/config", "content": filter}),
        ),
        (
            "k5",
            "Write",
            json!({"file_path": "p/info/attributes", "content": "* filter=evil\n"}),
        ),
        (
            "k6",
            "Write",
            json!({"file_path": "p/objects/x", "content": "x"}),
        ),
        (
            "k7",
            "Write",
            json!({"file_path": "p/refs/heads/main", "content": "0\n"}),
        ),
        (
            "k8",
            "Write",
            json!({"file_path": "./.git/", "content": "gitdir: p\n"}),
        ),
        (
            "k9",
            "Bash",
            // Spelled so the permission check cannot see the target: the
            // point is what the sandbox does when a plant gets that far.
            json!({"command": format!(
                "python3 -c \"open('.g'+'it','w').write('{}')\"; echo R\"\"AN",
                point.trim()
            )}),
        ),
        (
            "k10",
            "Write",
            json!({"file_path": "a.txt", "content": "changed by the child\n"}),
        ),
    ];
    let script = vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Task",
            json!({"description": "change a", "prompt": "change a.txt", "subagent_type": "coder"}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&child)),
        MockResponse::sse(anthropic::text("changed a.txt")),
        MockResponse::sse(anthropic::text("done")),
    ];
    let server = MockServer::start(script).unwrap();
    let out = l
        .env
        .std_wright_p("anthropic", &server.url(), "go")
        .current_dir(&l.work)
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let results = super::scenarios::tool_results("anthropic", &server.requests()[3]);
    let report = &results[0].1;
    let branch = report
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no branch in {report}"));
    let marks = victim(&l);
    assert!(
        marks.is_empty(),
        "{marks:?} ran: {report}\n{}",
        stderr(&out)
    );
    let show = Command::new("git")
        .args(["show", &format!("{branch}:a.txt")])
        .current_dir(&l.work)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&show.stdout),
        "changed by the child\n",
        "{report}"
    );
    // Without the OS sandbox the child's command could rewrite it; the
    // markers above are what matter then (wright's gits never read it).
    if !sandboxed("the worktree's .git file") {
        return;
    }
    // The worktree's `.git` file still names its own git dir.
    let wt = report
        .split("(worktree ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap_or_else(|| panic!("no worktree in {report}"));
    let dot_git = std::fs::read_to_string(Path::new(wt).join(".git")).unwrap();
    assert!(dot_git.contains(".git/worktrees/"), "{dot_git}: {report}");
    // And the child's command did run (the refusal was the sandbox's).
    let child_results = super::scenarios::tool_results("anthropic", &server.requests()[2]);
    assert!(
        child_results
            .iter()
            .any(|(_, text, _)| text.contains("RAN")),
        "{child_results:?}"
    );
}
