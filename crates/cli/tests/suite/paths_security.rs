//! Path attacks on the file tools, end to end through the real binary in
//! `bypass` mode: a generator over path shapes × link chains × tools that
//! asserts the *effect* (nothing outside the workspace created or changed,
//! protected files unchanged), never the message.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, assert_clean, stderr};

/// How the path the model writes reaches the target `T`.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Relative,
    Absolute,
    Tilde,
    /// `./c/a/../T`: `..` after a real directory.
    DotDot,
    /// `c/d/../T` where `d` links to a deeper directory: `..` after a link.
    LinkDotDot,
    /// `c/e/../../c/T` where `e` links two levels deeper.
    LinkDotDot2,
}

/// What `T` is.
#[derive(Clone, Copy, Debug)]
enum Link {
    /// A real directory inside the workspace (the control).
    None,
    /// A link to a directory outside.
    DirOutside,
    /// A chain of n links ending at a directory outside.
    Chain(usize),
    /// A chain of n links ending at a missing file outside.
    Dangling(usize),
    /// A link to `.wright/config.local.toml`.
    WrightConfig,
    /// A link to `.git/hooks/pre-commit`.
    GitHook,
    /// `T -> t1 -> T`.
    Loop,
}

impl Link {
    /// Whether the path names a file inside `T` (`T/x.txt`) or `T` itself.
    fn dir_like(self) -> bool {
        matches!(self, Link::None | Link::DirOutside | Link::Chain(_))
    }
}

const SHAPES: [Shape; 6] = [
    Shape::Relative,
    Shape::Absolute,
    Shape::Tilde,
    Shape::DotDot,
    Shape::LinkDotDot,
    Shape::LinkDotDot2,
];

fn links() -> Vec<Link> {
    let mut v = vec![Link::None, Link::DirOutside];
    v.extend((1..=5).map(Link::Chain));
    v.extend((1..=5).map(Link::Dangling));
    v.extend([Link::WrightConfig, Link::GitHook, Link::Loop]);
    v
}

/// One case's directories: HOME, the workspace inside it, and a directory
/// outside the workspace (beside HOME).
struct Layout {
    env: Env,
    work: PathBuf,
    outside: PathBuf,
}

const WRIGHT_CONFIG: &str = ".wright/config.local.toml";
const GIT_HOOK: &str = ".git/hooks/pre-commit";

fn layout(link: Link) -> Layout {
    let env = Env::new();
    let home = env.home.path().canonicalize().unwrap();
    let work = home.join("proj");
    let outside = env.project.path().canonicalize().unwrap().join("outside");
    std::fs::create_dir_all(outside.join("c")).unwrap();
    std::fs::write(outside.join("c/x.txt"), "orig\n").unwrap();
    let c = work.join("c");
    for d in ["a", "sub/deeper/deepest", ".wright", ".git/hooks"] {
        let base = if d.starts_with('.') { &work } else { &c };
        std::fs::create_dir_all(base.join(d)).unwrap();
    }
    std::fs::write(work.join(WRIGHT_CONFIG), "# orig\n").unwrap();
    std::fs::write(work.join(GIT_HOOK), "#!/bin/sh\n# orig\n").unwrap();
    symlink(c.join("sub/deeper"), c.join("d")).unwrap();
    symlink(c.join("sub/deeper/deepest"), c.join("e")).unwrap();
    let t = c.join("T");
    let chain = |n: usize, end: PathBuf| {
        // T -> t1 -> … -> t(n-1) -> end
        let names: Vec<PathBuf> = (0..n)
            .map(|k| {
                if k == 0 {
                    t.clone()
                } else {
                    c.join(format!("t{k}"))
                }
            })
            .collect();
        for k in 0..n {
            let to = names.get(k + 1).cloned().unwrap_or_else(|| end.clone());
            symlink(to, &names[k]).unwrap();
        }
    };
    match link {
        Link::None => {
            std::fs::create_dir_all(&t).unwrap();
            std::fs::write(t.join("x.txt"), "orig\n").unwrap();
        }
        Link::DirOutside => chain(1, outside.join("c")),
        Link::Chain(n) => chain(n, outside.join("c")),
        Link::Dangling(n) => chain(n, outside.join("c/new.txt")),
        Link::WrightConfig => chain(1, work.join(WRIGHT_CONFIG)),
        Link::GitHook => chain(1, work.join(GIT_HOOK)),
        Link::Loop => {
            symlink(c.join("t1"), &t).unwrap();
            symlink(&t, c.join("t1")).unwrap();
        }
    }
    Layout { env, work, outside }
}

fn path_text(l: &Layout, shape: Shape, link: Link) -> String {
    let tail = if link.dir_like() { "T/x.txt" } else { "T" };
    match shape {
        Shape::Relative => format!("c/{tail}"),
        Shape::Absolute => format!("{}/c/{tail}", l.work.display()),
        Shape::Tilde => format!("~/proj/c/{tail}"),
        Shape::DotDot => format!("./c/a/../{tail}"),
        Shape::LinkDotDot => format!("c/d/../{tail}"),
        Shape::LinkDotDot2 => format!("c/e/../../c/{tail}"),
    }
}

/// Everything under `dir`: file contents and link targets.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&p).unwrap().display())
            } else if meta.is_dir() {
                stack.push(p.clone());
                "dir".to_owned()
            } else {
                std::fs::read_to_string(&p).unwrap_or_else(|_| "<binary>".into())
            };
            out.insert(p, what);
        }
    }
    out
}

/// What must not change: everything beside the workspace (the parent of
/// `outside`) and the protected files.
fn guarded(l: &Layout) -> (BTreeMap<PathBuf, String>, String, String) {
    let read = |rel: &str| std::fs::read_to_string(l.work.join(rel)).unwrap_or_default();
    (
        snapshot(l.outside.parent().unwrap()),
        read(WRIGHT_CONFIG),
        read(GIT_HOOK),
    )
}

fn run_case(shape: Shape, link: Link) -> Result<(), String> {
    let l = layout(link);
    let path = path_text(&l, shape, link);
    let calls: Vec<(String, &str, Value)> = vec![
        (
            "c1".into(),
            "Write",
            json!({"file_path": path, "content": "HACKED\n"}),
        ),
        (
            "c2".into(),
            "Edit",
            json!({"file_path": path, "old_string": "orig", "new_string": "HACKED"}),
        ),
        (
            "c3".into(),
            "Edit",
            json!({"file_path": path, "old_string": "", "new_string": "HACKED\n"}),
        ),
        ("c4".into(), "Read", json!({"file_path": path})),
    ];
    let calls: Vec<(&str, &str, Value)> = calls
        .iter()
        .map(|(id, n, v)| (id.as_str(), *n, v.clone()))
        .collect();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&calls)),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let before = guarded(&l);
    let out = l
        .env
        .std_wright_p("anthropic", &server.url(), "go")
        .current_dir(&l.work)
        .env("HOME", l.env.home.path().canonicalize().unwrap())
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert_clean(&out);
    let after = guarded(&l);
    if before != after {
        return Err(format!(
            "{shape:?} × {link:?} ({path}): outside or protected files changed\n\
             before: {before:?}\nafter: {after:?}\nstderr: {}",
            stderr(&out)
        ));
    }
    // The control: a plain path inside the workspace is still written
    // (`link/..` shapes land under c/sub, where the kernel puts them).
    if matches!(link, Link::None) {
        let at = match shape {
            Shape::LinkDotDot => "c/sub/T/x.txt",
            Shape::LinkDotDot2 => "c/sub/c/T/x.txt",
            _ => "c/T/x.txt",
        };
        let text = std::fs::read_to_string(l.work.join(at)).unwrap_or_default();
        if !text.contains("HACKED") {
            return Err(format!(
                "{shape:?} control ({path}): {at} was not written: {}",
                stderr(&out)
            ));
        }
    }
    Ok(())
}

#[test]
fn no_path_shape_or_link_chain_lets_a_file_tool_write_outside_or_to_protected_files() {
    let mut failures = Vec::new();
    let mut total = 0;
    for shape in SHAPES {
        for link in links() {
            total += 1;
            if let Err(e) = run_case(shape, link) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases got through:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn protected_files_are_refused_by_name_even_in_bypass() {
    let l = layout(Link::None);
    let mut calls = Vec::new();
    let targets = [
        WRIGHT_CONFIG,
        ".wright/config.toml",
        GIT_HOOK,
        ".git/hooks/post-checkout",
        ".git/config",
        ".mcp.json",
        ".claude/settings.json",
        ".wright/agents/x.md",
    ];
    for (i, t) in targets.iter().enumerate() {
        calls.push((
            format!("w{i}"),
            "Write",
            json!({"file_path": t, "content": "HACKED\n"}),
        ));
    }
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
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    assert_clean(&out);
    for t in targets {
        let text = std::fs::read_to_string(l.work.join(t)).unwrap_or_default();
        assert!(!text.contains("HACKED"), "{t} was written");
    }
}
