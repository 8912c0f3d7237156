//! Recorded-shape fixtures for the text formats: gcc (recorded from gcc 12
//! with `-fsyntax-only -Wall`), clang, ruff's concise output, go vet, tsc,
//! the catch-all `lines`, and garbage.

use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use super::super::{Diagnostic, Format, Severity};
use super::{number, parse, strip_ansi};

const CWD: &str = "/nonexistent-proj";

fn at(rel: &str) -> PathBuf {
    Path::new(CWD).join(rel)
}

type Brief = (PathBuf, u32, Option<u32>, Severity, Option<String>, String);

fn brief(found: Vec<Diagnostic>) -> Vec<Brief> {
    found
        .into_iter()
        .map(|d| (d.file, d.line, d.column, d.severity, d.code, d.message))
        .collect()
}

fn d(
    rel: &str,
    line: u32,
    col: Option<u32>,
    sev: Severity,
    code: Option<&str>,
    msg: &str,
) -> Brief {
    (
        at(rel),
        line,
        col,
        sev,
        code.map(String::from),
        msg.to_string(),
    )
}

const GCC: &str = "\
main.c: In function \u{2018}main\u{2019}:
main.c:4:20: warning: passing argument 2 of \u{2018}add\u{2019} makes integer from pointer without a cast [-Wint-conversion]
    4 |     int r = add(1, \"x\");
      |                    ^~~
      |                    |
      |                    char *
In file included from main.c:1:
util.h:1:20: note: expected \u{2018}int\u{2019} but argument is of type \u{2018}char *\u{2019}
    1 | int add(int a, int b);
      |                ~~~~^
main.c:5:12: error: \u{2018}missing\u{2019} undeclared (first use in this function)
    5 |     return missing + r;
      |            ^~~~~~~
main.c:5:12: note: each undeclared identifier is reported only once for each function it appears in
main.c:3:9: warning: unused variable \u{2018}unused\u{2019} [-Wunused-variable]
    3 |     int unused;
      |         ^~~~~~
";

#[test]
fn gcc_recorded() {
    assert_eq!(
        brief(parse(Format::Gcc, GCC, Path::new(CWD), &[])),
        vec![
            d(
                "main.c",
                4,
                Some(20),
                Severity::Warning,
                None,
                "passing argument 2 of \u{2018}add\u{2019} makes integer from pointer without a cast [-Wint-conversion]"
            ),
            d(
                "util.h",
                1,
                Some(20),
                Severity::Note,
                None,
                "expected \u{2018}int\u{2019} but argument is of type \u{2018}char *\u{2019}"
            ),
            d(
                "main.c",
                5,
                Some(12),
                Severity::Error,
                None,
                "\u{2018}missing\u{2019} undeclared (first use in this function)"
            ),
            d(
                "main.c",
                5,
                Some(12),
                Severity::Note,
                None,
                "each undeclared identifier is reported only once for each function it appears in"
            ),
            d(
                "main.c",
                3,
                Some(9),
                Severity::Warning,
                None,
                "unused variable \u{2018}unused\u{2019} [-Wunused-variable]"
            ),
        ]
    );
}

#[test]
fn clang_and_old_gcc_shapes() {
    let output = "\
\u{1b}[1msrc/a.c:2:1: \u{1b}[0m\u{1b}[0;1;31mfatal error: \u{1b}[0m'x.h' file not found
/abs/b.c:7: error: old style without column
src/c.c:1:2: error[E1]: bracketed code
src/d.c:3:4: remark: just a remark
1 error generated.
";
    assert_eq!(
        brief(parse(Format::Gcc, output, Path::new(CWD), &[])),
        vec![
            d(
                "src/a.c",
                2,
                Some(1),
                Severity::Error,
                None,
                "'x.h' file not found"
            ),
            (
                PathBuf::from("/abs/b.c"),
                7,
                None,
                Severity::Error,
                None,
                "old style without column".to_string()
            ),
            d(
                "src/c.c",
                1,
                Some(2),
                Severity::Error,
                Some("E1"),
                "bracketed code"
            ),
            d("src/d.c", 3, Some(4), Severity::Note, None, "just a remark"),
        ]
    );
}

#[test]
fn ruff_concise() {
    let output = "\
app/main.py:1:8: F401 [*] `os` imported but unused
app/main.py:4:5: E741 Ambiguous variable name: `l`
app/dir with space/x.py:2:1: UP035 `typing.List` is deprecated, use `list` instead
app/broken.py:3:7: SyntaxError: Expected an expression
app/broken2.py:1:1: invalid-syntax: Expected a statement
Found 5 errors.
[*] 1 fixable with the `--fix` option.
";
    assert_eq!(
        brief(parse(Format::Gcc, output, Path::new(CWD), &[])),
        vec![
            d(
                "app/main.py",
                1,
                Some(8),
                Severity::Error,
                Some("F401"),
                "`os` imported but unused"
            ),
            d(
                "app/main.py",
                4,
                Some(5),
                Severity::Error,
                Some("E741"),
                "Ambiguous variable name: `l`"
            ),
            d(
                "app/dir with space/x.py",
                2,
                Some(1),
                Severity::Error,
                Some("UP035"),
                "`typing.List` is deprecated, use `list` instead"
            ),
            d(
                "app/broken.py",
                3,
                Some(7),
                Severity::Error,
                None,
                "SyntaxError: Expected an expression"
            ),
            d(
                "app/broken2.py",
                1,
                Some(1),
                Severity::Error,
                None,
                "invalid-syntax: Expected a statement"
            ),
        ]
    );
}

#[test]
fn go_vet() {
    let output = "\
# example.com/demo
# [example.com/demo]
./main.go:8:2: fmt.Printf format %d has arg name of wrong type string
vet: ./util/u.go:5:9: undefined: missing
./main.go:12: unreachable code
";
    assert_eq!(
        brief(parse(Format::Gcc, output, Path::new(CWD), &[])),
        vec![
            d(
                "main.go",
                8,
                Some(2),
                Severity::Error,
                None,
                "fmt.Printf format %d has arg name of wrong type string"
            ),
            d(
                "util/u.go",
                5,
                Some(9),
                Severity::Error,
                None,
                "undefined: missing"
            ),
            d(
                "main.go",
                12,
                None,
                Severity::Error,
                None,
                "unreachable code"
            ),
        ]
    );
}

#[test]
fn tsc_plain_and_pretty() {
    let output = "\
src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/other.ts(10,3): error TS2345: Argument of type '{ a: number; }' is not assignable to parameter of type 'Foo'.
  Object literal may only specify known properties, and 'a' does not exist in type 'Foo'.
error TS5058: The specified path does not exist: 'tsconfig.json'.
  not a continuation: the line above was not a diagnostic
src/p.ts:2:1 - error TS1005: ';' expected.
Found 3 errors in 3 files.
";
    assert_eq!(
        brief(parse(Format::Tsc, output, Path::new(CWD), &[])),
        vec![
            d(
                "src/index.ts",
                3,
                Some(7),
                Severity::Error,
                Some("TS2322"),
                "Type 'string' is not assignable to type 'number'."
            ),
            d(
                "src/other.ts",
                10,
                Some(3),
                Severity::Error,
                Some("TS2345"),
                "Argument of type '{ a: number; }' is not assignable to parameter of type 'Foo'.\n  \
                 Object literal may only specify known properties, and 'a' does not exist in type 'Foo'."
            ),
            d(
                "src/p.ts",
                2,
                Some(1),
                Severity::Error,
                Some("TS1005"),
                "';' expected."
            ),
        ]
    );
}

#[test]
fn tsc_long_elaboration_is_capped() {
    let mut output = String::from("a.ts(1,1): error TS2322: top\n");
    for i in 0..50 {
        output.push_str(&format!("{}deeper {i}\n", " ".repeat(2 + i)));
    }
    let found = parse(Format::Tsc, &output, Path::new(CWD), &[]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].message.lines().count(), 9);
}

#[test]
fn lines_mentions_of_edited_files() {
    let edited = [at("src/app.ts"), at("lib/b.js")];
    let output = "\
src/app.ts:12: something is off
WARN ./lib/b.js(3,4) bad thing
/nonexistent-proj/src/app.ts:7:9: absolute mention
src/app.tsx:1: another file
vendor/src/app.ts:5: a different file with the same tail
src/app.ts.bak:2: a backup
Problem in src/app.ts.
unrelated line
";
    let found = brief(parse(Format::Lines, output, Path::new(CWD), &edited));
    let e = |rel, line, col, msg| d(rel, line, col, Severity::Error, None, msg);
    assert_eq!(
        found,
        vec![
            e("src/app.ts", 12, None, "src/app.ts:12: something is off"),
            e("lib/b.js", 3, Some(4), "WARN ./lib/b.js(3,4) bad thing"),
            e(
                "src/app.ts",
                7,
                Some(9),
                "/nonexistent-proj/src/app.ts:7:9: absolute mention"
            ),
            e("src/app.ts", 0, None, "Problem in src/app.ts."),
        ]
    );
}

#[cfg(unix)]
#[test]
fn lines_with_a_symlinked_cwd() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir_all(real.join("src")).unwrap();
    std::fs::write(real.join("src/a.txt"), "x").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    // Edited through the link, checker run in the real dir, printing relative paths.
    let found = parse(
        Format::Lines,
        "src/a.txt:2: bad\n",
        &real,
        &[link.join("src/a.txt")],
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].line, 2);
    assert_eq!(
        found[0].file,
        real.join("src/a.txt").canonicalize().unwrap()
    );
}

#[test]
fn relative_paths_resolve_against_cwd_with_dots() {
    let found = parse(
        Format::Gcc,
        "../x/./y.c:1:1: error: e\n",
        Path::new("/nonexistent-proj/sub"),
        &[],
    );
    assert_eq!(found[0].file, at("x/y.c"));
}

#[test]
fn garbage_never_panics() {
    let inputs = [
        "",
        "\n\n\n",
        ":::\n:1:2: error: x\n",
        "a:b:c: d\n",
        "file.c:99999999999:1: error: too big\n",
        "(1,2): error TS1: x\n",
        "\u{0}\u{1b}[\u{1b}[999",
        "é:1:1: error: unicode file\n",
        "{\"reason\":\"compiler-message\",\"message\":{\"spans\":[{\"file_name\":",
    ];
    for input in inputs {
        for format in Format::ALL {
            let _ = parse(format, input, Path::new(CWD), &[at("é"), at("file.c")]);
        }
    }
    let found = parse(
        Format::Gcc,
        "é:1:1: error: unicode file\nfile.c:99999999999:1: error: too big\n",
        Path::new(CWD),
        &[],
    );
    assert_eq!(found.len(), 1);
}

#[test]
fn helpers() {
    assert_eq!(strip_ansi("\u{1b}[1;31merror\u{1b}[0m: x"), "error: x");
    assert_eq!(number("12"), Some(12));
    assert_eq!(number("99999999999"), None);
}
