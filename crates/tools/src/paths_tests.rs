//! Path attacks on the file tools, in process: path shapes × link chains ×
//! tools, asserting the effect (nothing outside the workspace created or
//! changed, protected files unchanged), whatever the tools return.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;
use crate::{EditTool, OutsideWrites, ReadTool, Tool, ToolContext, WriteTool};

#[derive(Clone, Copy, Debug)]
enum Shape {
    Relative,
    Absolute,
    Tilde,
    DotDot,
    LinkDotDot,
    LinkDotDot2,
}

#[derive(Clone, Copy, Debug)]
enum Link {
    None,
    DirOutside,
    Chain(usize),
    Dangling(usize),
    WrightConfig,
    GitHook,
    Loop,
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

const WRIGHT_CONFIG: &str = ".wright/config.local.toml";
const GIT_HOOK: &str = ".git/hooks/pre-commit";

struct Layout {
    _dir: tempfile::TempDir,
    home: PathBuf,
    work: PathBuf,
    outside: PathBuf,
}

/// `base/home/proj` is the workspace, `base/outside` is not.
fn layout(link: Link) -> Layout {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let home = base.join("home");
    let work = home.join("proj");
    let outside = base.join("outside");
    std::fs::create_dir_all(outside.join("c")).unwrap();
    std::fs::write(outside.join("c/x.txt"), "orig\n").unwrap();
    let c = work.join("c");
    for d in ["a", "sub/deeper/deepest"] {
        std::fs::create_dir_all(c.join(d)).unwrap();
    }
    for d in [".wright", ".git/hooks"] {
        std::fs::create_dir_all(work.join(d)).unwrap();
    }
    std::fs::write(work.join(WRIGHT_CONFIG), "# orig\n").unwrap();
    std::fs::write(work.join(GIT_HOOK), "#!/bin/sh\n# orig\n").unwrap();
    symlink(c.join("sub/deeper"), c.join("d")).unwrap();
    symlink(c.join("sub/deeper/deepest"), c.join("e")).unwrap();
    let t = c.join("T");
    let chain = |n: usize, end: PathBuf| {
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
    Layout {
        _dir: dir,
        home,
        work,
        outside,
    }
}

fn path_text(l: &Layout, shape: Shape, link: Link) -> String {
    let dir_like = matches!(link, Link::None | Link::DirOutside | Link::Chain(_));
    let tail = if dir_like { "T/x.txt" } else { "T" };
    match shape {
        Shape::Relative => format!("c/{tail}"),
        Shape::Absolute => format!("{}/c/{tail}", l.work.display()),
        Shape::Tilde => format!("~/proj/c/{tail}"),
        Shape::DotDot => format!("./c/a/../{tail}"),
        Shape::LinkDotDot => format!("c/d/../{tail}"),
        Shape::LinkDotDot2 => format!("c/e/../../c/{tail}"),
    }
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&p).unwrap().display())
            } else if meta.is_dir() {
                stack.push(p.clone());
                "dir".to_owned()
            } else {
                std::fs::read_to_string(&p).unwrap()
            };
            out.insert(p, what);
        }
    }
    out
}

/// Everything outside the workspace (beside HOME) and the protected files.
fn guarded(l: &Layout) -> (BTreeMap<PathBuf, String>, String, String) {
    let read = |rel: &str| std::fs::read_to_string(l.work.join(rel)).unwrap();
    (snapshot(&l.outside), read(WRIGHT_CONFIG), read(GIT_HOOK))
}

fn ctx(l: &Layout) -> ToolContext {
    let mut ctx = ToolContext::new(&l.work, l.work.join(".spill"));
    ctx.roots = vec![l.work.clone()];
    ctx.home = Some(l.home.clone());
    ctx.protected_dirs = vec![l.home.join(".config/wright")];
    ctx
}

async fn run_case(shape: Shape, link: Link) -> Result<(), String> {
    let l = layout(link);
    let path = path_text(&l, shape, link);
    let ctx = ctx(&l);
    let before = guarded(&l);
    let mut results = Vec::new();
    let write = WriteTool.run(json!({"file_path": path, "content": "HACKED\n"}), &ctx);
    results.push(write.await.map(|o| o.content));
    let edit = json!({"file_path": path, "old_string": "orig", "new_string": "HACKED"});
    results.push(EditTool.run(edit, &ctx).await.map(|o| o.content));
    let create = json!({"file_path": path, "old_string": "", "new_string": "HACKED\n"});
    results.push(EditTool.run(create, &ctx).await.map(|o| o.content));
    results.push(
        ReadTool
            .run(json!({"file_path": path}), &ctx)
            .await
            .map(|o| o.content),
    );
    let after = guarded(&l);
    if before != after {
        return Err(format!(
            "{shape:?} × {link:?} ({path}) changed outside or protected files: {results:?}\n\
             before {before:?}\nafter {after:?}"
        ));
    }
    Ok(())
}

#[tokio::test]
async fn no_path_shape_or_link_chain_writes_outside_or_to_protected_files() {
    let mut failures = Vec::new();
    let mut total = 0;
    for shape in SHAPES {
        for link in links() {
            total += 1;
            if let Err(e) = run_case(shape, link).await {
                failures.push(e);
            }
        }
    }
    assert_eq!(total, 90);
    assert!(
        failures.is_empty(),
        "{} of {total} got through:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test]
async fn the_control_case_still_writes_inside() {
    let l = layout(Link::None);
    let ctx = ctx(&l);
    for shape in SHAPES {
        let path = path_text(&l, shape, Link::None);
        let out = WriteTool
            .run(
                json!({"file_path": path, "content": format!("{shape:?}\n")}),
                &ctx,
            )
            .await
            .unwrap();
        assert!(out.content.contains("lines"), "{shape:?}: {}", out.content);
    }
    // `link/..` is the link target's parent, as for the kernel: the last
    // two shapes land under c/sub, not in c/T.
    let read = |p: &str| std::fs::read_to_string(l.work.join(p)).unwrap();
    assert_eq!(read("c/T/x.txt"), "DotDot\n");
    assert_eq!(read("c/sub/T/x.txt"), "LinkDotDot\n");
    assert_eq!(read("c/sub/c/T/x.txt"), "LinkDotDot2\n");
}

#[tokio::test]
async fn protected_names_are_blocked_even_when_outside_writes_are_allowed() {
    let l = layout(Link::None);
    let mut ctx = ctx(&l);
    ctx.outside_writes = OutsideWrites::Allow;
    std::fs::create_dir_all(l.home.join(".config/wright")).unwrap();
    let user = l.home.join(".config/wright/config.toml");
    let user = user.to_str().unwrap();
    for target in [
        WRIGHT_CONFIG,
        ".wright/config.toml",
        "sub/.wright/config.toml",
        GIT_HOOK,
        ".git/hooks/new-hook",
        ".git/config",
        ".mcp.json",
        ".claude/settings.local.json",
        ".wright/agents/evil.md",
        ".wright/hooks.toml",
        user,
        "~/.config/wright/config.toml",
    ] {
        let w = WriteTool
            .run(json!({"file_path": target, "content": "HACKED"}), &ctx)
            .await
            .unwrap_err();
        assert!(
            w.to_string().starts_with("Blocked by guard: "),
            "{target}: {w}"
        );
        let e = EditTool
            .run(
                json!({"file_path": target, "old_string": "", "new_string": "x"}),
                &ctx,
            )
            .await
            .unwrap_err();
        assert!(
            e.to_string().starts_with("Blocked by guard: "),
            "{target}: {e}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(l.work.join(WRIGHT_CONFIG)).unwrap(),
        "# orig\n"
    );
    assert!(!l.work.join(".mcp.json").exists());
    assert!(!l.home.join(".config/wright/config.toml").exists());
    // Reads of protected files are fine.
    let r = ReadTool
        .run(json!({"file_path": GIT_HOOK}), &ctx)
        .await
        .unwrap();
    assert!(r.content.contains("orig"));
}

#[tokio::test]
async fn approved_outside_writes_go_to_the_resolved_file() {
    let l = layout(Link::DirOutside);
    let mut ctx = ctx(&l);
    let err = WriteTool
        .run(json!({"file_path": "c/T/new.txt", "content": "x"}), &ctx)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("outside the workspace"), "{err}");
    ctx.outside_writes = OutsideWrites::Allow;
    WriteTool
        .run(json!({"file_path": "c/T/new.txt", "content": "x"}), &ctx)
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(l.outside.join("c/new.txt")).unwrap(),
        "x"
    );
}

#[test]
fn resolve_reports_loops() {
    let l = layout(Link::Loop);
    let err = resolve(&ctx(&l), "c/T").unwrap_err();
    assert!(err.to_string().contains("symbolic links"), "{err}");
}
