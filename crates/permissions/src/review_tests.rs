//! Regression rows from the adversarial review of the classifier
//! (reports/classifier.md): each command got through in the settings named
//! by its row and must never be allowed there again.

use crate::test_fx::{Fx, check, engine, fx};
use crate::{Engine, Mode, Verdict};

/// Plan mode, no rules.
const P: u8 = 1;
/// Default mode with the review's allow rules.
const R: u8 = 2;
/// Auto mode, no rules.
const A: u8 = 4;
/// Auto mode with `Bash(rm:*)` and `Bash(curl:*)` denied.
const D: u8 = 8;
/// Every setting.
const ALL: u8 = P | R | A | D;
/// Settings where writing at all is refused.
const PR: u8 = P | R;

const ROWS: &[(u8, &str)] = &[
    // A1: backquotes inside `${…}`.
    (ALL, "echo ${x:-`id; echo EXEC2`}"),
    (ALL, "echo ${x-`touch M`}"),
    (ALL, "echo ${x=`touch M`}"),
    (ALL, "echo ${x:?`touch M`}"),
    (ALL, "echo \"${x:-`touch M`}\""),
    (ALL, "echo ${x:-${y:-`touch M`}}"),
    (ALL, "cat <<< ${x:-`touch M`}"),
    (ALL, "ls ${x:-`touch M4`}"),
    (ALL, "echo ${x:-`rm -rf d6`}"),
    (ALL, "echo ${x:-$(rm -rf d6)}"),
    // A2: backquotes in an unquoted here-document body.
    (ALL, "cat f <<E\n`touch M5`\nE"),
    (ALL, "find . <<E\n`rm -rf d`\nE"),
    (ALL, "git diff <<E\n`touch M`\nE"),
    // A3: nested escaped backquotes, `[[ =~ ]]`.
    (ALL, "echo `echo \\`touch M\\``"),
    (ALL, "echo `echo \\`rm -rf d\\``"),
    (ALL, "[[ x =~ ( `touch M` ) ]]"),
    (ALL, "[[ x =~ ( `rm -rf d` ) ]]"),
    // A4: backslash-newline glued to a word, then `#`.
    (ALL, "echo a\\\n#; echo EXEC4"),
    (ALL, "git diff HEAD\\\n#; touch M2"),
    (ALL, "sed -n p a\\\n#; touch M8"),
    (ALL, "npm run test x\\\n#; touch M9"),
    (ALL, "ls a\\\n#; rm -rf d"),
    // A5: redirections inside `[ … ]`.
    (PR, "[ a > M10 ] && ls"),
    (PR, "[ a >> M10 ]"),
    (PR, "if [ a > M10 ]; then ls; fi"),
    (PR, "( [ a > M10 ] )"),
    (PR, "echo $([ a > M10 ])"),
    // A6: a shell fed its script from input.
    (ALL, "ls | xargs -I{} sh -c {}"),
    (ALL, "ls | xargs -I{} bash -c '{}'"),
    (ALL, "find . -exec sh -c {} \\;"),
    (ALL, "echo 'rm -rf d' | xargs -I{} sh -c {}"),
    // B: word splitting smuggles options.
    (PR, "sort a${X:- -o F}"),
    (PR, "sort a${X- -o F}"),
    (PR, "sort a${X:= -o F}"),
    (PR, "sort a${HOME:+ -o F}"),
    (PR, "sort a${IFS}-o${IFS}F"),
    (PR, "sort a$IFS-o${IFS}F"),
    (PR, "sort a${HOME/#*/ -o F}"),
    (PR, "sort x${X:- --compress-program=sh}"),
    (PR, "git diff HEAD${X:- --output=F}"),
    (PR, "find .${X:- -fprint M6}"),
    (ALL, "find .${X:- -exec rm -rf d \\;}"),
    (PR, "find .${X:- -exec touch M7 \\;}"),
    (PR, "sed -n 1p f${X:- -i}"),
    (PR, "rg x .${X:- --pre=CMD}"),
    (PR, "fd x .${X:- -x CMD}"),
    (PR, "file a${X:- -C -m F}"),
    (PR, "uniq a${X:- OUT}"),
    (PR, "xxd a${X:- OUT}"),
    // C1: `env -S` in every spelling.
    (ALL, "env -S'rm -rf d' ls"),
    (ALL, "env -iS'rm -rf d' ls"),
    (ALL, "env -0S'rm -rf d' ls"),
    (ALL, "env --s='rm -rf d' ls"),
    (ALL, "env --sp='rm -rf d' ls"),
    (ALL, "env --split-s='rm -rf d' ls"),
    (ALL, "env -S 'rm -rf d' ls"),
    // C2: xargs options.
    (ALL, "xargs --process-slot-var ls rm -rf d"),
    (ALL, "xargs --arg-file cat rm -rf d"),
    (ALL, "xargs -i rm ls"),
    (ALL, "echo d | xargs -i rm -rf {}"),
    (PR, "xargs --arg-file cat touch M"),
    // C3: GNU time.
    (PR, "\\time -o ls ls"),
    (PR, "\\time --output=F ls"),
    (PR, "/usr/bin/time -o F ls"),
    (PR, "command time -o F ls"),
    (ALL, "\\time -o ls rm -rf d"),
    (ALL, "/usr/bin/time -f %e -o x rm -rf d"),
    // C4: watch.
    (ALL, "timeout 3 watch -n1 ls '; rm -rf d'"),
    (ALL, "watch -g ls '; rm -rf d'"),
    (ALL, "watch -d rm -rf d"),
    (PR, "watch -n1 ls '; touch M'"),
    // C5: wrappers and shell options.
    (ALL, "bash -o posix -c 'rm -rf d1'"),
    (ALL, "sh -o errexit -c 'rm -rf d1'"),
    (ALL, "sh -eu -c 'rm -rf d1'"),
    (ALL, "bash --norc -c 'rm -rf d1'"),
    (ALL, "flock /tmp/l rm -rf d3"),
    (ALL, "flock /tmp/l -c 'rm -rf d3'"),
    (ALL, "busybox rm -rf d"),
    (ALL, "strace -o /dev/null rm -rf d"),
    (ALL, "ltrace -o /dev/null rm -rf d"),
    (ALL, "taskset 1 rm -rf d"),
    (ALL, "taskset -c 0 rm -rf d"),
    (ALL, "chrt 1 rm -rf d"),
    (ALL, "chrt -f 1 rm -rf d"),
    (ALL, "unshare -r rm -rf d"),
    (ALL, "prlimit --nofile=10 rm -rf d"),
    (ALL, "runuser -u me rm -rf d"),
    (ALL, "setpriv --nnp rm -rf d"),
    (ALL, "nohup rm -rf d"),
    (ALL, "ionice -c3 rm -rf d"),
    (ALL, "nice -n 5 rm -rf d"),
    (ALL, "chroot / rm -rf d"),
    (ALL, "stdbuf -oL rm -rf d"),
    (ALL, "setsid -f rm -rf d"),
    (ALL, "valgrind -q rm -rf d"),
    (ALL, "catchsegv rm -rf d"),
    (ALL, "gdb -batch -ex 'shell rm -rf d'"),
    (ALL, "su -c 'rm -rf d'"),
    (ALL, "parallel rm -rf ::: d"),
    (ALL, "someunknownwrapper --opt rm -rf d"),
    (P | R | D, "flock /tmp/l curl https://x"),
    (P | R | D, "busybox curl https://x"),
    (P | R | D, "strace -f curl https://x"),
    (P | R | D, "sh -o errexit -c 'curl https://x'"),
    // D1: git options with optional values.
    (PR, "git diff --unified --output=F"),
    (PR, "git diff --unified --ext-diff"),
    (PR, "git log --unified --output=F"),
    (PR, "git show --unified --output=F"),
    (PR, "git log --min-parents --output=F"),
    (PR, "git log --max-parents --output=F"),
    (PR, "git log --format --output=F"),
    (PR, "git stash list --unified --output=F"),
    (PR, "git reflog --unified --output=F"),
    (PR, "git whatchanged --unified --output=F"),
    (PR, "git shortlog -w --output=F HEAD"),
    (PR, "git diff --abbrev --output=F"),
    (PR, "git diff --color --output=F"),
    (PR, "git log -U --output=F"),
    // D2: swallowed values fool listing checks.
    (PR, "git tag --format -l NEW"),
    (PR, "git branch --format -l NEW"),
    (PR, "git branch --sort --list NEW"),
    (PR, "git config --file --get x.y z"),
    (PR, "git config x.y z"),
    // D3: ls-remote.
    (PR, "git ls-remote --upload-pack='touch M;' ."),
    (PR, "git ls-remote -u 'touch M;' ."),
    // D4: xxd prefixes.
    (PR, "xxd -ps IN OUT"),
    (PR, "xxd -as IN OUT"),
    (PR, "xxd -pl IN OUT"),
    (PR, "xxd -po IN OUT"),
    // D6: tree -o.
    (PR, "tree -Lo 1 F"),
    (PR, "tree -o F"),
    // E: auto mode danger list.
    (A | D, "git reset --har"),
    (A | D, "git reset --hard"),
    (A | D, "rm --rec -f d"),
    (A | D, "rm --recursiv d"),
    (A | D, "git restore src"),
    (A | D, "git checkout HEAD src"),
    (A | D, "git checkout -- src"),
    (A | D, "git checkout -f"),
    (A | D, "git switch -f main"),
    (A | D, "git switch --discard-changes main"),
    (A | D, "git checkout -B main"),
    (A | D, "git branch -d -f x"),
    (A | D, "git branch -df x"),
    (A | D, "git branch --delete --force x"),
    (A | D, "git branch -D x"),
    (A | D, "git rm -rf ."),
    (A | D, "git update-ref -d refs/heads/main"),
    (A | D, "git reflog expire --expire=now --all"),
    (A | D, "git gc --prune=now"),
    (A | D, "git filter-branch --tree-filter 'rm x' HEAD"),
    (A | D, "git filter-repo --path x --invert-paths"),
    (A | D, "git clean -fdx"),
    (A | D, "chmod --recur 000 ."),
    (A | D, "cp /dev/null src/main.rs"),
    (A | D, "mv src /tmp/x"),
    (A | D, "kill -9 -1"),
    (A | D, "kill -1"),
    (A | D, "npm publish"),
    (A | D, "npm pub"),
    (A | D, "yarn npm publish"),
    (A | D, "cargo publish"),
    (A | D, "twine upload dist/*"),
    (A | D, "gh release create v1"),
    (A | D, "docker push img"),
    (A | D, "curl --data-binary @f https://x"),
    (A | D, "curl --json @f https://x"),
    (A | D, "curl -X POST https://x"),
    (A | D, "curl -XPUT https://x"),
    (A | D, "curl -F a=@f https://x"),
    (A | D, "curl -T f https://x"),
    (A | D, "curl -sd x https://x"),
    (A | D, "wget --post-file=f https://x"),
    (A | D, "wget --post-data=x https://x"),
    (A | D, "perl -e 'unlink q(x)'"),
    (A | D, "python3 -c 'import os'"),
    (A | D, "python -c 'import os'"),
    (A | D, "node -e 'require(1)'"),
    (A | D, "ruby -e 'File.delete 1'"),
    (A | D, "cargo run -- rm -rf d"),
    (A | D, "someprog ${X}"),
    // F: deny rules.
    (D, "find . -exec rm {} \\;"),
    (D, "sudo rm x"),
    (D, "timeout 5 rm x"),
    (D, "xargs -a list rm"),
];

fn settings(f: &Fx) -> Vec<(u8, &'static str, Engine)> {
    vec![
        (P, "plan", engine(f, Mode::Plan, &[], &[])),
        (
            R,
            "allow-rules",
            engine(
                f,
                Mode::Default,
                &[
                    "Bash(git diff:*)",
                    "Bash(ls:*)",
                    "Bash(npm run test:*)",
                    "Bash(cat:*)",
                    "Bash(find:*)",
                    "Bash(sed -n:*)",
                    "Bash(sort:*)",
                    "Bash(git log:*)",
                ],
                &[],
            ),
        ),
        (A, "auto", engine(f, Mode::Auto, &[], &[])),
        (
            D,
            "auto+deny",
            engine(f, Mode::Auto, &[], &["Bash(rm:*)", "Bash(curl:*)"]),
        ),
    ]
}

#[test]
fn review_bypasses_are_never_allowed() {
    let f = fx();
    let mut allowed = Vec::new();
    let mut total = 0;
    for (bit, name, e) in settings(&f) {
        for (mask, cmd) in ROWS {
            if mask & bit != 0 {
                total += 1;
                if check(&e, &f, cmd) == Verdict::Allow {
                    allowed.push(format!("{name}: {cmd:?}"));
                }
            }
        }
    }
    assert!(
        allowed.is_empty(),
        "{} of {total} allowed:\n{}",
        allowed.len(),
        allowed.join("\n")
    );
}

/// Commands under a deny rule are denied however a wrapper runs them.
#[test]
fn deny_rules_see_through_wrappers() {
    let f = fx();
    let e = engine(&f, Mode::Auto, &[], &["Bash(rm:*)", "Bash(curl:*)"]);
    let rows = [
        "flock /tmp/l rm -rf d3",
        "busybox rm -rf d",
        "strace -o /dev/null rm -rf d",
        "taskset 1 rm x",
        "chrt -f 1 rm x",
        "unshare -r rm x",
        "prlimit --nofile=10 rm x",
        "\\time -o ls rm -rf d",
        "xargs --process-slot-var ls rm x",
        "xargs -i rm ls",
        "bash -o posix -c 'rm -rf d1'",
        "sh -o errexit -c 'curl x'",
        "watch -n1 ls '; rm x'",
        "someunknownwrapper rm x",
        "find . -exec rm {} \\;",
    ];
    let not_denied: Vec<_> = rows
        .iter()
        .filter(|c| !matches!(check(&e, &f, c), Verdict::Deny { .. }))
        .collect();
    assert!(not_denied.is_empty(), "should be denied: {not_denied:#?}");
}

/// Plain commands, wrapped and continued over lines, still run in plan mode.
#[test]
fn plain_commands_still_run_in_plan_mode() {
    let f = fx();
    let e = engine(&f, Mode::Plan, &[], &[]);
    let rows = [
        "ls -la \\\n  src",
        "git log --oneline \\\n  -5",
        "grep -rn foo \\\n src | head",
        "timeout 5 git status",
        "nice -n 5 ls",
        "env LANG=C ls",
        "command -v ls",
        "echo \"$HOME\"",
        "ls \"$HOME\"",
        "git diff -U3",
        "git diff --unified=3",
        "git log --format=%h -3",
        "git branch --list",
        "cat a # a comment",
        "echo `date`",
    ];
    let refused: Vec<_> = rows
        .iter()
        .filter(|c| check(&e, &f, c) != Verdict::Allow)
        .collect();
    assert!(refused.is_empty(), "should be allowed: {refused:#?}");
}
