//! Report text: order, caps, counts, paths, and the failure fallbacks.

use std::path::{Path, PathBuf};
use std::time::Duration;

use pretty_assertions::assert_eq;

use super::super::parse::cargo_tests::RECORDED;
use super::super::{CheckRun, Diagnostic, Format, Severity, parse};
use super::{Report, ReportLimits, failure_note, report, report_output, timeout_note};

const ROOT: &str = "/nonexistent-root";

fn run(format: Format, label: &str, cwd: &str, files: &[&str]) -> CheckRun {
    CheckRun {
        label: label.to_string(),
        command: "true".to_string(),
        cwd: PathBuf::from(cwd),
        root: PathBuf::from(ROOT),
        format,
        timeout: Duration::from_secs(120),
        files: files.iter().map(PathBuf::from).collect(),
    }
}

fn cargo_run(files: &[&str]) -> CheckRun {
    run(Format::CargoJson, "cargo check", ROOT, files)
}

const LIB: &str = "/nonexistent-root/crates/demo/src/lib.rs";
const OTHER: &str = "/nonexistent-root/crates/demo/src/other.rs";

fn diag(file: &str, line: u32, severity: Severity, message: &str) -> Diagnostic {
    Diagnostic {
        file: PathBuf::from(file),
        line,
        column: Some(1),
        severity,
        code: None,
        message: message.to_string(),
        rendered: None,
    }
}

fn cargo_report(files: &[&str]) -> Report {
    let run = cargo_run(files);
    let found = parse(Format::CargoJson, RECORDED, &run.cwd, &run.files);
    report(&run, &found, ReportLimits::default())
}

#[test]
fn cargo_errors_first_then_warnings() {
    let report = cargo_report(&[LIB]);
    assert_eq!((report.errors, report.warnings), (2, 1));
    assert_eq!(
        report.text,
        "\
[verifier: cargo check — 2 errors, 1 warning in the edited files]
error[E0308]: mismatched types
 --> crates/demo/src/lib.rs:5:22
  |
5 |     other::takes_u32(\"no\")
  |     ---------------- ^^^^ expected `u32`, found `&str`
  |     |
  |     arguments to this function are incorrect
  |
note: function defined here
 --> crates/demo/src/other.rs:1:8
  |
1 | pub fn takes_u32(x: u32) -> u32 {
  |        ^^^^^^^^^ ------

error[E0308]: mismatched types
 --> crates/demo/src/other.rs:7:23
  |
7 |         let _x: u32 = \"s\";
  |                 ---   ^^^ expected `u32`, found `&str`
  |                 |
  |                 expected due to this
  |
 ::: crates/demo/src/lib.rs:9:5
  |
9 |     other::make_bad!();
  |     ------------------ in this macro invocation
  |
  = note: this error originates in the macro `other::make_bad` (in Nightly builds, run with -Z macro-backtrace for more info)

warning: unused import: `std::collections::HashMap`
 --> crates/demo/src/lib.rs:1:5
  |
1 | use std::collections::HashMap;
  |     ^^^^^^^^^^^^^^^^^^^^^^^^^
  |
  = note: `#[warn(unused_imports)]` (part of `#[warn(unused)]`) on by default"
    );
}

#[test]
fn clean_file_counts_errors_elsewhere() {
    let report = cargo_report(&["/nonexistent-root/crates/demo/src/clean.rs"]);
    assert_eq!((report.errors, report.warnings), (0, 0));
    assert_eq!(
        report.text,
        "[verifier: cargo check — no errors in the edited files (2 errors elsewhere in the workspace)]"
    );
}

#[test]
fn clean_without_anything() {
    let run = cargo_run(&[LIB]);
    let report = report(&run, &[], ReportLimits::default());
    assert_eq!(
        report.text,
        "[verifier: cargo check — no errors in the edited files]"
    );
    let one = report_output(
        &run,
        "{\"reason\":\"build-finished\",\"success\":true}\n",
        Some(0),
        ReportLimits::default(),
    );
    assert_eq!(
        one.text,
        "[verifier: cargo check — no errors in the edited files]"
    );
}

#[test]
fn only_warnings() {
    let run = run(Format::Gcc, "gcc", ROOT, &["/nonexistent-root/a.c"]);
    let found = [
        diag("/nonexistent-root/a.c", 3, Severity::Warning, "w1"),
        diag("/nonexistent-root/a.c", 4, Severity::Warning, "w2"),
    ];
    let report = report(&run, &found, ReportLimits::default());
    assert_eq!(
        report.text,
        "[verifier: gcc — no errors, 2 warnings in the edited files]\na.c:3:1: warning: w1\na.c:4:1: warning: w2"
    );
}

#[test]
fn cargo_workspace_below_root_shows_root_relative_paths() {
    let run = run(
        Format::CargoJson,
        "cargo check",
        "/nonexistent-root/rust",
        &["/nonexistent-root/rust/crates/demo/src/other.rs"],
    );
    let found = parse(Format::CargoJson, RECORDED, &run.cwd, &run.files);
    let report = report(&run, &found, ReportLimits::default());
    assert_eq!((report.errors, report.warnings), (2, 0));
    assert!(
        report
            .text
            .contains("\n --> rust/crates/demo/src/lib.rs:5:22\n")
    );
    assert!(
        report
            .text
            .contains("\n --> rust/crates/demo/src/other.rs:1:8\n")
    );
    assert!(
        report
            .text
            .contains("\n ::: rust/crates/demo/src/lib.rs:9:5\n")
    );
    assert!(!report.text.contains("unused import"));
}

#[test]
fn plain_rendering_notes_and_outside_paths() {
    let run = run(
        Format::Gcc,
        "gcc",
        ROOT,
        &["/nonexistent-root/src/a.c", "/elsewhere/b.c"],
    );
    let mut coded = diag("/elsewhere/b.c", 2, Severity::Error, "outside");
    coded.code = Some("E1".to_string());
    let mut no_column = diag("/nonexistent-root/src/a.c", 9, Severity::Error, "no column");
    no_column.column = None;
    let mut no_line = diag("/nonexistent-root/src/a.c", 0, Severity::Error, "no line");
    no_line.column = None;
    let found = [
        diag(
            "/nonexistent-root/src/a.c",
            1,
            Severity::Note,
            "orphan note, dropped",
        ),
        diag(
            "/nonexistent-root/src/a.c",
            2,
            Severity::Warning,
            "a warning",
        ),
        diag(
            "/nonexistent-root/inc/a.h",
            1,
            Severity::Note,
            "warning's note, dropped",
        ),
        diag("/nonexistent-root/src/a.c", 5, Severity::Error, "an error"),
        diag(
            "/nonexistent-root/inc/a.h",
            3,
            Severity::Note,
            "error's note, kept",
        ),
        coded,
        no_column,
        no_line,
        // Elsewhere: counted, its note goes with it.
        diag("/nonexistent-root/src/z.c", 1, Severity::Error, "elsewhere"),
        diag(
            "/nonexistent-root/src/a.c",
            1,
            Severity::Note,
            "note of elsewhere",
        ),
        diag(
            "/nonexistent-root/src/z.c",
            2,
            Severity::Warning,
            "warning elsewhere, not counted",
        ),
    ];
    let report = report(&run, &found, ReportLimits::default());
    assert_eq!((report.errors, report.warnings), (4, 1));
    assert_eq!(
        report.text,
        "\
[verifier: gcc — 4 errors, 1 warning in the edited files (1 error elsewhere in the workspace)]
src/a.c:5:1: error: an error
inc/a.h:3:1: note: error's note, kept

/elsewhere/b.c:2:1: error[E1]: outside
src/a.c:9: error: no column
src/a.c: error: no line
src/a.c:2:1: warning: a warning"
    );
}

#[test]
fn duplicates_are_reported_once() {
    let run = run(Format::Gcc, "gcc", ROOT, &["/nonexistent-root/a.c"]);
    let d = diag("/nonexistent-root/a.c", 3, Severity::Error, "same");
    let found = [
        d.clone(),
        d.clone(),
        diag("/nonexistent-root/a.c", 3, Severity::Note, "dup's note"),
        d,
    ];
    let report = report(&run, &found, ReportLimits::default());
    assert_eq!(report.errors, 1);
    assert_eq!(
        report.text,
        "[verifier: gcc — 1 error in the edited files]\na.c:3:1: error: same"
    );
}

#[test]
fn capped_by_count() {
    let run = run(Format::Gcc, "gcc", ROOT, &["/nonexistent-root/a.c"]);
    let found: Vec<Diagnostic> = (1..=25)
        .map(|i| {
            diag(
                "/nonexistent-root/a.c",
                i,
                if i % 5 == 0 {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                "x",
            )
        })
        .collect();
    let report = report(&run, &found, ReportLimits::default());
    assert_eq!((report.errors, report.warnings), (20, 5));
    let lines: Vec<&str> = report.text.lines().collect();
    assert_eq!(lines.len(), 1 + 20 + 1);
    assert_eq!(
        lines[0],
        "[verifier: gcc — 20 errors, 5 warnings in the edited files]"
    );
    assert_eq!(lines[1], "a.c:1:1: error: x");
    assert_eq!(lines[20], "a.c:24:1: error: x");
    assert_eq!(lines[21], "[… 5 more not shown]");
}

#[test]
fn capped_by_bytes_and_rendered_lines() {
    let run = cargo_run(&[LIB]);
    let long: String = (1..=100)
        .map(|i| format!("line {i} {}\n", "x".repeat(50)))
        .collect();
    let found: Vec<Diagnostic> = (1..=10)
        .map(|i| {
            let mut d = diag(LIB, i, Severity::Error, "big");
            d.rendered = Some(long.clone());
            d
        })
        .collect();
    let report = report(&run, &found, ReportLimits::default());
    assert_eq!(report.errors, 10);
    assert!(report.text.len() <= 8_000 + 40, "{}", report.text.len());
    let first_block: Vec<&str> = report.text.split("\n\n").next().unwrap().lines().collect();
    // Header, 30 lines, the cut note.
    assert_eq!(first_block.len(), 32);
    assert_eq!(first_block[31], "… (70 more lines)");
    assert!(report.text.ends_with("more not shown]"));
    let shown = report.text.matches("line 1 ").count();
    assert!((3..10).contains(&shown), "{shown}");
    assert!(
        report
            .text
            .ends_with(&format!("[… {} more not shown]", 10 - shown))
    );

    // A single block larger than the byte budget is cut, not dropped.
    let tiny = ReportLimits {
        max_bytes: 300,
        ..ReportLimits::default()
    };
    let report = super::report(&run, &found[..1], tiny);
    assert!(report.text.len() <= 300, "{}", report.text.len());
    assert!(report.text.ends_with('…'));
    assert!(report.text.contains("line 1 "));
}

#[test]
fn output_with_exit_status() {
    let limits = ReportLimits::default();
    let cargo = cargo_run(&[LIB]);
    let manifest = "error: failed to parse manifest at `/x/Cargo.toml`\n\nCaused by:\n  TOML parse error at line 3\n";
    assert_eq!(
        report_output(&cargo, manifest, Some(101), limits).text,
        "[verifier: cargo check exited with status 101 but reported no errors: \
         error: failed to parse manifest at `/x/Cargo.toml` | Caused by: | TOML parse error at line 3]"
    );
    // build-finished alone says it failed when the status is unknown.
    let finished = "{\"reason\":\"build-finished\",\"success\":false}\n";
    assert_eq!(
        report_output(&cargo, finished, None, limits).text,
        "[verifier: cargo check failed but printed nothing]"
    );

    let tsc = run(Format::Tsc, "npx tsc", ROOT, &["/nonexistent-root/a.ts"]);
    assert_eq!(
        report_output(
            &tsc,
            "bash: line 1: npx: command not found\n",
            Some(127),
            limits
        )
        .text,
        "[verifier: npx tsc could not run: exit status 127: bash: line 1: npx: command not found]"
    );
    let with_warning = "a.ts(1,1): warning TS1: careful\nerror TS5058: no tsconfig\n";
    assert_eq!(
        report_output(&tsc, with_warning, Some(2), limits).text,
        "[verifier: npx tsc — no errors, 1 warning in the edited files]\n\
         a.ts:1:1: warning[TS1]: careful\n\
         [verifier: npx tsc exited with status 2 but reported no errors: a.ts(1,1): warning TS1: careful | error TS5058: no tsconfig]"
    );
    let errors = "a.ts(1,1): error TS2322: bad\n";
    let report = report_output(&tsc, errors, Some(2), limits);
    assert_eq!(report.errors, 1);
    assert_eq!(
        report.text,
        "[verifier: npx tsc — 1 error in the edited files]\na.ts:1:1: error[TS2322]: bad"
    );
    assert_eq!(
        report_output(&tsc, "", Some(0), limits).text,
        "[verifier: npx tsc — no errors in the edited files]"
    );
}

#[test]
fn lines_format_failure_elsewhere_is_not_clean() {
    let lint = run(Format::Lines, "lint", ROOT, &["/nonexistent-root/a.sh"]);
    let report = report_output(&lint, "b.sh:3: bad\n", Some(1), ReportLimits::default());
    assert_eq!(
        report.text,
        "[verifier: lint exited with status 1 but reported no errors: b.sh:3: bad]"
    );
    let report = report_output(&lint, "a.sh:3: bad\n", Some(1), ReportLimits::default());
    assert_eq!(
        report.text,
        "[verifier: lint — 1 error in the edited files]\na.sh:3: error: a.sh:3: bad"
    );
}

#[test]
fn failure_notes_are_one_short_line() {
    let run = cargo_run(&[LIB]);
    assert_eq!(
        timeout_note(&run),
        "[verifier: cargo check could not run: timed out after 120 s]"
    );
    let mut quick = run.clone();
    quick.timeout = Duration::from_millis(1500);
    assert_eq!(
        timeout_note(&quick),
        "[verifier: cargo check could not run: timed out after 1.5 s]"
    );
    assert_eq!(
        failure_note(&run, "\n  sandbox refused\nsecond line"),
        "[verifier: cargo check could not run: sandbox refused]"
    );
    assert_eq!(
        failure_note(&run, ""),
        "[verifier: cargo check could not run: unknown reason]"
    );
    let long = failure_note(&run, &"y".repeat(1000));
    assert!(long.chars().count() < 260);
    assert!(!long.contains('\n'));
    let _ = Path::new(OTHER);
}
