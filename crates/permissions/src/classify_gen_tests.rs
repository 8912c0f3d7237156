//! Generated security cases for the command classifier (issue 10, part 8):
//! bash constructs × writing payloads × modes, asserting a writing
//! combination is never allowed, plus ordinary read-only commands that
//! must stay allowed in plan mode.

use crate::test_fx::{Fx, check, fx};
use crate::{Engine, Mode, Verdict};

/// Commands that write a file, delete one, or run a program that can.
const PAYLOADS: &[&str] = &[
    "rm -rf x",
    "touch x",
    "sort -o x a",
    "sort --output=x a",
    "sort --outp=x a",
    "find . -delete",
    "find . -fprint x",
    "find . -exec touch x ;",
    "git diff --output=x",
    "git log --output=x",
    "git -c core.pager=touch log",
    "git diff --ext-diff",
    "sed -i s/a/b/ f",
    "sed 'w x' f",
    "sed -n 's/a/b/w x' f",
    "sed -e 1e\\ touch\\ x f",
    "less f",
    "man ls",
    "tee x",
    "rg --pre touch foo",
    "tree -o x",
    "uniq a x",
    "file -C -m x",
    "diff -l a b",
    "cp a x",
    "awk 'BEGIN{system(\"touch x\")}'",
    "tar -cf x a",
    "dd of=x",
    "date -s 2020-01-01",
    "printf -v x hi",
    "git branch newbranch",
    "git tag v1",
    "git config user.name x",
    "git stash",
    "ls > x",
    "ls >> x",
    "ls 2> x",
    "ls &> x",
    "ls >| x",
    "ls > /dev/../tmp/../x",
    "ls >& x",
    "ls > /dev/fd/../../x",
    "ls > /dev/stdout/../x",
    "ls > /dev/fd/3/../../x",
    "ls > /dev/null/../x",
    "x='a[$(touch y)]'; echo $((x))",
    "x='a[$(touch y)]'; [[ $x -eq 1 ]]",
    "x='a[$(touch y)]'; echo ${b[x]}",
    "x='a[$(touch y)]'; echo ${b:x}",
    "test -v 'a[$(touch y)]'",
    "[[ -v 'a[$(touch y)]' ]]",
    "echo $[ a[$(touch y)] ]",
    "x='$(touch y)'; echo ${x@P}",
];

/// How a payload is embedded in a larger command line.
fn constructs(p: &str) -> Vec<String> {
    let q = p.replace('\'', "'\\''");
    let mut v = vec![
        p.to_owned(),
        format!("echo $({p})"),
        format!("echo `{p}`"),
        format!("echo $(( $({p}) ))"),
        format!("echo $((1)); {p}"),
        format!("echo $(case a in a) {p};; esac)"),
        format!("x=$(case a in (a) ls;; esac; {p})"),
        format!("({p})"),
        format!("{{ {p}; }}"),
        format!("ls && {p}"),
        format!("ls || {p}"),
        format!("ls; {p}"),
        format!("ls | {p}"),
        format!("! {p}"),
        format!("cat <<EOF\n$({p})\nEOF"),
        format!("cat <(ls) <({p})"),
        format!("f() {{ {p}; }}; f"),
        format!("eval '{q}'"),
        format!("bash -c '{q}'"),
        format!("sh -c '{q}'"),
        format!("env {p}"),
        format!("nice {p}"),
        format!("timeout 5 {p}"),
        format!("command {p}"),
        format!("builtin {p}"),
        format!("if true; then {p}; fi"),
        format!("for i in 1; do {p}; done"),
        format!("while false; do :; done; {p}"),
        format!("[[ -n $(ls) ]] && {p}"),
        format!("X=1 {p}"),
        format!("echo ${{x:-$({p})}}"),
    ];
    // Spellings of the program name itself.
    if let Some((prog, rest)) = p.split_once(' ') {
        v.push(format!("/usr/bin/{prog} {rest}"));
        v.push(format!("'{prog}' {rest}"));
        v.push(format!("\"{prog}\" {rest}"));
        let mut esc = prog.to_owned();
        esc.insert(1, '\\');
        v.push(format!("{esc} {rest}"));
        v.push(format!("$'{prog}' {rest}"));
        v.push(format!("${{x:-{prog}}} {rest}"));
        v.push(format!("X={prog}; $X {rest}"));
        v.push(format!("echo {rest} | xargs {prog}"));
    }
    v
}

/// Options fed to a read-only-looking command through `xargs`.
const FED: &[&str] = &[
    "echo --output=x | xargs git diff",
    "echo -o x | xargs sort",
    "echo -delete | xargs find .",
    "echo --pre=touch | xargs rg foo",
    "printf '%s\\n' -i | xargs sed s/a/b/",
    "ls | xargs git log",
    "find . -name '*.rs' | xargs sort",
    "git diff $OPTS",
    "sort $X a",
    "git diff *",
    "sort * ",
];

fn engine(f: &Fx, mode: Mode, allow: &[&str]) -> Engine {
    crate::test_fx::engine(f, mode, allow, &[])
}

/// The engines a writing command must never be allowed by.
fn engines(f: &Fx) -> Vec<(&'static str, Engine)> {
    vec![
        ("plan", engine(f, Mode::Plan, &[])),
        (
            "allow-rules",
            engine(
                f,
                Mode::Default,
                &[
                    "Bash(git diff:*)",
                    "Bash(git log:*)",
                    "Bash(ls:*)",
                    "Bash(echo:*)",
                    "Bash(cat:*)",
                    "Bash(sort:*)",
                    "Bash(find:*)",
                    "Bash(sed -n:*)",
                    "Bash(rg:*)",
                ],
            ),
        ),
    ]
}

/// Every generated (engine, command) pair that was allowed although it writes.
pub(crate) fn bypasses() -> (usize, Vec<String>) {
    let f = fx();
    let mut total = 0;
    let mut allowed = Vec::new();
    let mut cmds: Vec<String> = PAYLOADS.iter().flat_map(|p| constructs(p)).collect();
    cmds.extend(FED.iter().map(|s| (*s).to_owned()));
    for (name, e) in engines(&f) {
        for c in &cmds {
            total += 1;
            if check(&e, &f, c) == Verdict::Allow {
                allowed.push(format!("{name}: {c}"));
            }
        }
    }
    // Auto mode: constructs the classifier cannot fully understand (and
    // fed options) count as dangerous, so they ask.
    let auto = engine(&f, Mode::Auto, &[]);
    let unknown = [
        "echo $(( $(rm -rf x) ))",
        "echo $((1)); rm -rf x",
        "echo ${a[$(rm -rf x)]}",
        "X=rm; $X -rf x",
        "${x:-rm} -rf x",
        "f() { rm -rf x; }; f",
        "echo -rf x | xargs rm",
        "git -C sub push",
        "/bin/rm -rf x",
        "echo $(case a in a) rm -rf x;; esac)",
        "find . -delete",
    ];
    for c in unknown {
        total += 1;
        if check(&auto, &f, c) == Verdict::Allow {
            allowed.push(format!("auto: {c}"));
        }
    }
    (total, allowed)
}

#[test]
fn writing_commands_are_never_allowed() {
    let (total, allowed) = bypasses();
    assert!(total > 2000, "{total}");
    assert!(
        allowed.is_empty(),
        "{} of {total} allowed:\n{}",
        allowed.len(),
        allowed.join("\n")
    );
}

/// Ordinary read-only commands run in plan mode without asking.
#[test]
fn ordinary_read_only_commands_are_allowed_in_plan_mode() {
    let f = fx();
    let e = engine(&f, Mode::Plan, &[]);
    let rows = [
        "ls -la",
        "ls -la src",
        "git status",
        "git status --short",
        "git diff HEAD~1 -- src",
        "git diff --stat",
        "git log --oneline -5",
        "git log -n 5 --format='%h %s'",
        "git show HEAD:src/lib.rs",
        "git branch",
        "git branch -a",
        "git rev-parse --show-toplevel",
        "grep -rn foo src | head",
        "grep -rn 'fn main' src --include='*.rs'",
        "cat a | wc -l",
        "find . -name '*.rs'",
        "find src -type f -name '*.rs' -print",
        "cargo --version",
        "rg -n foo src",
        "head -n 20 src/lib.rs",
        "tail -5 log.txt",
        "sed -n '1,20p' src/lib.rs",
        "sort a | uniq -c | sort -rn | head",
        "wc -l src/*.rs",
        "echo hi; pwd",
        "ls 2>/dev/null",
        "cargo --version 2>&1",
        "cd src && ls",
        "find . -name '*.rs' | xargs grep -n foo",
        "diff a b",
        "[[ -f Cargo.toml ]] && cat Cargo.toml",
        "echo $(git rev-parse HEAD)",
        "stat -c %s a",
        "du -sh .",
        "jq -r .name package.json",
        "/usr/bin/ls -la",
    ];
    let refused: Vec<_> = rows
        .iter()
        .filter(|c| check(&e, &f, c) != Verdict::Allow)
        .collect();
    assert!(refused.is_empty(), "should be allowed: {refused:#?}");
}
