use super::*;

fn ro(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    classify(&words).is_read_only()
}

#[test]
fn read_only_uses() {
    for s in [
        "ls -la src",
        "ls --color=auto -1",
        "cat -n a",
        "head -n 5 a",
        "head -5 a",
        "tail -f log",
        "wc -l a b",
        "grep -rn foo src",
        "grep -A3 -e foo a",
        "rg -n --hidden -g *.rs foo",
        "find . -name *.rs -type f -print",
        "find -L src -maxdepth 2 -newermt 2020-01-01",
        "sort -rn -k 2 a",
        "uniq -c a",
        "sed -n 1,20p a",
        "sed s/a/b/g a",
        "sed -e s/x/y/ -e 5q a",
        "date +%s",
        "git status --short",
        "git diff HEAD~1 -- src",
        "git diff -U5 --stat",
        "git log --oneline -n 5",
        "git log -5 --format=%h",
        "git show HEAD:a",
        "git branch -a",
        "git -C sub status",
        "git rev-parse --show-toplevel",
        "git config --get user.name",
        "/usr/bin/ls -l",
        "cargo --version",
        "cargo -V",
    ] {
        assert!(ro(s), "{s}");
    }
}

#[test]
fn writing_or_running_uses() {
    for s in [
        "sort -o out a",
        "sort --output=out a",
        "sort --outp=out a",
        "sort -ro out a",
        "find . -delete",
        "find . -exec rm {} ;",
        "find . -fprint x",
        "find . -fls x",
        "find . -okdir rm ;",
        "rg --pre cat foo",
        "rg -z foo",
        "tree -o x",
        "uniq a out",
        "file -C",
        "diff -l a b",
        "sed -i s/a/b/ f",
        "sed -n w\\ x f",
        "sed s/a/b/w\\ x f",
        "sed s/a/b/e f",
        "sed 1e f",
        "sed -f script f",
        "date -s now",
        "date 0101",
        "printf -v x y",
        "less a",
        "more a",
        "man ls",
        "git diff --output=x",
        "git diff --outp=x",
        "git diff --ext-diff",
        "git log --textconv",
        "git -c core.pager=x log",
        "git -p log",
        "git --exec-path=x status",
        "git grep -O foo",
        "git branch new",
        "git tag v1",
        "git config user.name x",
        "git commit -m x",
        "git stash",
        "./ls",
        "hostname evil",
        "cargo build",
    ] {
        assert!(!ro(s), "{s}");
    }
}

#[test]
fn feeding_only_to_harmless_programs() {
    assert!(safe_to_feed("grep"));
    assert!(safe_to_feed("/usr/bin/cat"));
    for p in [
        "sort", "git", "find", "sed", "rg", "file", "diff", "printf", "./grep",
    ] {
        assert!(!safe_to_feed(p), "{p}");
    }
}

/// Options with an optional value take it attached only, so the next word
/// is still checked; and options that write or run programs stay refused.
#[test]
fn audit_regressions() {
    for s in [
        "date -Iseconds",
        "date -I",
        "date --iso-8601=seconds -u",
        "od -w16 -x a",
        "od -w -x a",
        "df -x tmpfs -h",
        "column -t -n name -s , a",
        "column -d -t a",
        "rg -j 4 foo",
        "git status -uno",
        "git status -M50 -s",
        "git diff -M50% -C -B HEAD",
        "git diff -U5 -l 100 HEAD",
        "git log -L 1,2:a",
        "git blame -M -C20 a",
        "git shortlog -w80,4,8 -sn",
        "sort -S 1M -k 2 a",
        "file -b a",
    ] {
        assert!(ro(s), "{s}");
    }
    for s in [
        // `-I` with the value `d`, then an operand that sets the clock.
        "date -Id 010100002020",
        "date -uId 0101",
        // `-w` must not swallow the next word.
        "od -w --bogus a",
        "od -wx --bogus a",
        // sort writes temporary files in `-T`'s directory.
        "sort -T /tmp a",
        "sort -rT /tmp a",
        "sort --temporary-directory=/tmp a",
        // libmagic runs external decompressors.
        "file -z a",
        "file -bz a",
        "file --uncompress a",
        // `column -d` is a flag: the next word is an option, not its value.
        "column -d --bogus a",
        // Optional-value git short options take the rest of the word only.
        "git diff -MS --output=x",
        "git diff -US --output=x",
        "git log -CG --output=x",
        "git blame -MS --bogus a",
        "git status -u --bogus",
        "git shortlog -wS --bogus",
    ] {
        assert!(!ro(s), "{s}");
    }
}
