//! Files a project puts into the prompt (instruction files, rules, skills,
//! memory notes) never bring in a file outside the project or a secret
//! inside it through a symbolic link. A generator of variants (each kind
//! of file × each way of linking: absolute, relative, through a chain of
//! links, a linked directory, a link to `.env`) asserts the effect: the
//! linked file's text is in no request sent to the model, and a warning
//! names the file; the kind's own control (a plain file) does arrive.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr};

/// Where each kind of file lives in a project, and its text with `marker`.
struct Kind {
    name: &'static str,
    /// The file's path in the project.
    rel: &'static str,
    /// The directory a linked directory replaces (the skill's or the
    /// store's), when the kind has one.
    dir: Option<&'static str>,
    text: fn(&str) -> String,
}

fn front(marker: &str) -> String {
    format!("---\nname: n-{marker}\ndescription: {marker}\ntype: user\n---\nbody {marker}\n")
}

fn plain(marker: &str) -> String {
    format!("{marker}\n")
}

const KINDS: &[Kind] = &[
    Kind {
        name: "AGENTS.md",
        rel: "AGENTS.md",
        dir: None,
        text: plain,
    },
    Kind {
        name: "rule",
        rel: ".wright/rules/r.md",
        dir: None,
        text: plain,
    },
    Kind {
        name: "skill",
        rel: ".wright/skills/s/SKILL.md",
        dir: Some(".wright/skills/s"),
        text: front,
    },
    Kind {
        name: "memory note",
        rel: ".wright/memory/m.md",
        dir: Some(".wright/memory"),
        text: front,
    },
];

/// Ways of linking the file at `at` in `env`'s project to `target`.
#[derive(Clone, Copy, Debug)]
enum Link {
    Absolute,
    Relative,
    Chain,
    Directory,
    Secret,
}

fn relative_to(from_dir: &Path, to: &Path) -> PathBuf {
    let ups = from_dir.components().count();
    let mut p = PathBuf::new();
    for _ in 0..ups {
        p.push("..");
    }
    p.join(to.strip_prefix("/").unwrap())
}

/// Plants `kind` linked by `link`; returns the marker that must not arrive.
fn plant(env: &Env, outside: &Path, kind: &Kind, link: Link, i: usize) -> Option<String> {
    let marker = format!("zq-linked-{i}-qz");
    let at = env.path(kind.rel);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    let target = outside.join(format!("t{i}.md"));
    std::fs::write(&target, (kind.text)(&marker)).unwrap();
    match link {
        Link::Absolute => symlink(&target, &at).unwrap(),
        Link::Relative => {
            let real_dir = at.parent().unwrap().canonicalize().unwrap();
            symlink(relative_to(&real_dir, &target), &at).unwrap();
        }
        Link::Chain => {
            let hop = env.path("hop.md");
            symlink(&target, &hop).unwrap();
            symlink(&hop, &at).unwrap();
        }
        Link::Directory => {
            let dir = env.path(kind.dir?);
            std::fs::remove_dir_all(&dir).unwrap();
            let real = outside.join(format!("d{i}"));
            let inner = real.join(at.strip_prefix(&dir).unwrap());
            std::fs::create_dir_all(inner.parent().unwrap()).unwrap();
            std::fs::write(&inner, (kind.text)(&marker)).unwrap();
            symlink(&real, &dir).unwrap();
        }
        Link::Secret => {
            env.write(".env", &(kind.text)(&marker));
            symlink(env.path(".env"), &at).unwrap();
        }
    }
    Some(marker)
}

fn first_request(env: &Env) -> (String, String) {
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("done"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let body = server
        .requests()
        .first()
        .map(|r| r.body_text())
        .unwrap_or_default();
    (body, stderr(&out))
}

#[test]
fn generator_linked_prompt_files_bring_nothing_in() {
    let links = [
        Link::Absolute,
        Link::Relative,
        Link::Chain,
        Link::Directory,
        Link::Secret,
    ];
    let mut i = 0;
    for kind in KINDS {
        for link in links {
            i += 1;
            let env = Env::new();
            let outside = tempfile::tempdir().unwrap();
            let outside = outside.path().canonicalize().unwrap();
            let Some(marker) = plant(&env, &outside, kind, link, i) else {
                continue;
            };
            let (body, err) = first_request(&env);
            assert!(!body.is_empty(), "no request");
            assert!(
                !body.contains(&marker),
                "{} linked {link:?}: the linked file reached the model",
                kind.name
            );
            assert!(
                err.contains("outside the project") || err.contains("secret file"),
                "{} linked {link:?}: no warning: {err}",
                kind.name
            );
        }
    }
}

/// The control: each kind, as a plain file, does reach the prompt.
#[test]
fn plain_prompt_files_arrive() {
    let env = Env::new();
    for (i, kind) in KINDS.iter().enumerate() {
        env.write(kind.rel, &(kind.text)(&format!("zq-plain-{i}-qz")));
    }
    let (body, _) = first_request(&env);
    for (i, kind) in KINDS.iter().enumerate() {
        assert!(
            body.contains(&format!("zq-plain-{i}-qz")),
            "{} did not reach the prompt",
            kind.name
        );
    }
}
