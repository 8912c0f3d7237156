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
