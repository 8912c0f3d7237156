//! Cargo JSON fixtures recorded from `cargo check --message-format=json
//! --quiet` on a two-file crate in a workspace (`crates/demo`), trimmed of
//! fields the parser ignores (`target`, span `text`, code explanations).

use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use super::super::{Diagnostic, Format, Severity};
use super::{parse, parse_detailed};

/// An unused-import warning in lib.rs; E0308 in lib.rs whose note points at
/// the callee in other.rs; E0308 inside a macro defined in other.rs and
/// invoked in lib.rs; the failure note; cargo's own stderr; build-finished.
pub(crate) const RECORDED: &str = r##"{"reason":"compiler-message","message":{"rendered":"warning: unused import: `std::collections::HashMap`\n --> crates/demo/src/lib.rs:1:5\n  |\n1 | use std::collections::HashMap;\n  |     ^^^^^^^^^^^^^^^^^^^^^^^^^\n  |\n  = note: `#[warn(unused_imports)]` (part of `#[warn(unused)]`) on by default\n\n","children":[{"children":[],"code":null,"level":"note","message":"`#[warn(unused_imports)]` (part of `#[warn(unused)]`) on by default","rendered":null,"spans":[]},{"children":[],"code":null,"level":"help","message":"remove the whole `use` item","rendered":null,"spans":[{"column_end":1,"column_start":1,"expansion":null,"file_name":"crates/demo/src/lib.rs","is_primary":true,"label":null,"line_end":2,"line_start":1}]}],"level":"warning","message":"unused import: `std::collections::HashMap`","spans":[{"column_end":30,"column_start":5,"expansion":null,"file_name":"crates/demo/src/lib.rs","is_primary":true,"label":null,"line_end":1,"line_start":1}],"code":{"code":"unused_imports","explanation":null}}}
{"reason":"compiler-message","message":{"rendered":"error[E0308]: mismatched types\n --> crates/demo/src/lib.rs:5:22\n  |\n5 |     other::takes_u32(\"no\")\n  |     ---------------- ^^^^ expected `u32`, found `&str`\n  |     |\n  |     arguments to this function are incorrect\n  |\nnote: function defined here\n --> crates/demo/src/other.rs:1:8\n  |\n1 | pub fn takes_u32(x: u32) -> u32 {\n  |        ^^^^^^^^^ ------\n\n","children":[{"children":[],"code":null,"level":"note","message":"function defined here","rendered":null,"spans":[{"column_end":24,"column_start":18,"expansion":null,"file_name":"crates/demo/src/other.rs","is_primary":false,"label":"","line_end":1,"line_start":1},{"column_end":17,"column_start":8,"expansion":null,"file_name":"crates/demo/src/other.rs","is_primary":true,"label":null,"line_end":1,"line_start":1}]}],"level":"error","message":"mismatched types","spans":[{"column_end":26,"column_start":22,"expansion":null,"file_name":"crates/demo/src/lib.rs","is_primary":true,"label":"expected `u32`, found `&str`","line_end":5,"line_start":5},{"column_end":21,"column_start":5,"expansion":null,"file_name":"crates/demo/src/lib.rs","is_primary":false,"label":"arguments to this function are incorrect","line_end":5,"line_start":5}],"code":{"code":"E0308","explanation":null}}}
{"reason":"compiler-message","message":{"rendered":"error[E0308]: mismatched types\n --> crates/demo/src/other.rs:7:23\n  |\n7 |         let _x: u32 = \"s\";\n  |                 ---   ^^^ expected `u32`, found `&str`\n  |                 |\n  |                 expected due to this\n  |\n ::: crates/demo/src/lib.rs:9:5\n  |\n9 |     other::make_bad!();\n  |     ------------------ in this macro invocation\n  |\n  = note: this error originates in the macro `other::make_bad` (in Nightly builds, run with -Z macro-backtrace for more info)\n\n","children":[],"level":"error","message":"mismatched types","spans":[{"column_end":26,"column_start":23,"expansion":{"def_site_span":{"column_end":22,"column_start":1,"expansion":null,"file_name":"crates/demo/src/other.rs","is_primary":false,"label":null,"line_end":5,"line_start":5},"macro_decl_name":"other::make_bad!","span":{"column_end":23,"column_start":5,"expansion":null,"file_name":"crates/demo/src/lib.rs","is_primary":false,"label":null,"line_end":9,"line_start":9}},"file_name":"crates/demo/src/other.rs","is_primary":true,"label":"expected `u32`, found `&str`","line_end":7,"line_start":7},{"column_end":20,"column_start":17,"expansion":{"def_site_span":{"column_end":22,"column_start":1,"expansion":null,"file_name":"crates/demo/src/other.rs","is_primary":false,"label":null,"line_end":5,"line_start":5},"macro_decl_name":"other::make_bad!","span":{"column_end":23,"column_start":5,"expansion":null,"file_name":"crates/demo/src/lib.rs","is_primary":false,"label":null,"line_end":9,"line_start":9}},"file_name":"crates/demo/src/other.rs","is_primary":false,"label":"expected due to this","line_end":7,"line_start":7}],"code":{"code":"E0308","explanation":null}}}
{"reason":"compiler-message","message":{"rendered":"For more information about this error, try `rustc --explain E0308`.\n","children":[],"level":"failure-note","message":"For more information about this error, try `rustc --explain E0308`.","spans":[],"code":null}}
error: could not compile `demo` (lib) due to 2 previous errors; 1 warning emitted
{"reason":"build-finished","success":false}"##;

const WS: &str = "/nonexistent-ws";

fn ws(rel: &str) -> PathBuf {
    Path::new(WS).join(rel)
}

fn lib() -> PathBuf {
    ws("crates/demo/src/lib.rs")
}

fn other() -> PathBuf {
    ws("crates/demo/src/other.rs")
}

fn brief(d: &Diagnostic) -> (PathBuf, u32, Option<u32>, Severity, Option<&str>, &str) {
    (
        d.file.clone(),
        d.line,
        d.column,
        d.severity,
        d.code.as_deref(),
        d.message.as_str(),
    )
}

#[test]
fn recorded_output_attributed_to_the_edited_lib() {
    let found = parse(Format::CargoJson, RECORDED, Path::new(WS), &[lib()]);
    let found: Vec<_> = found.iter().map(brief).collect();
    assert_eq!(
        found,
        vec![
            (
                lib(),
                1,
                Some(5),
                Severity::Warning,
                Some("unused_imports"),
                "unused import: `std::collections::HashMap`"
            ),
            (
                lib(),
                5,
                Some(22),
                Severity::Error,
                Some("E0308"),
                "mismatched types"
            ),
            // The primary span is in other.rs (the macro body), but the
            // expansion touches the edited lib.rs: its line there is the call.
            (
                lib(),
                9,
                Some(5),
                Severity::Error,
                Some("E0308"),
                "mismatched types"
            ),
        ]
    );
}

#[test]
fn a_note_span_in_another_file_attributes_the_error_to_that_file() {
    let found = parse(Format::CargoJson, RECORDED, Path::new(WS), &[other()]);
    let found: Vec<_> = found.iter().map(brief).collect();
    assert_eq!(
        found,
        vec![
            (
                lib(),
                1,
                Some(5),
                Severity::Warning,
                Some("unused_imports"),
                "unused import: `std::collections::HashMap`"
            ),
            // Editing the callee's signature broke the call: the note's span
            // in other.rs ties the error to it, at the note's primary span.
            (
                other(),
                1,
                Some(8),
                Severity::Error,
                Some("E0308"),
                "mismatched types"
            ),
            // The macro's primary span is in other.rs itself.
            (
                other(),
                7,
                Some(23),
                Severity::Error,
                Some("E0308"),
                "mismatched types"
            ),
        ]
    );
}

#[test]
fn without_edited_files_the_primary_span_decides() {
    let found = parse(Format::CargoJson, RECORDED, Path::new(WS), &[]);
    let files: Vec<_> = found.iter().map(|d| (d.file.clone(), d.line)).collect();
    assert_eq!(files, vec![(lib(), 1), (lib(), 5), (other(), 7)]);
}

#[test]
fn rendered_text_is_kept() {
    let found = parse(Format::CargoJson, RECORDED, Path::new(WS), &[lib()]);
    let rendered = found[1].rendered.as_deref().unwrap();
    assert!(
        rendered.starts_with("error[E0308]: mismatched types\n --> crates/demo/src/lib.rs:5:22\n")
    );
    assert!(rendered.contains("note: function defined here"));
}

#[test]
fn build_finished_is_read() {
    let parsed = parse_detailed(Format::CargoJson, RECORDED, Path::new(WS), &[]);
    assert_eq!(parsed.build_succeeded, Some(false));
    let ok = parse_detailed(
        Format::CargoJson,
        r#"{"reason":"build-finished","success":true}"#,
        Path::new(WS),
        &[],
    );
    assert_eq!(ok.build_succeeded, Some(true));
    assert!(ok.diagnostics.is_empty());
}

#[test]
fn garbage_and_truncated_json_are_skipped() {
    let full = RECORDED.lines().nth(1).unwrap();
    let truncated = &full[..full.len() / 2];
    let output = format!(
        "{truncated}\nnot json at all\n{{}}\n{{\"reason\":\"compiler-message\"}}\n[1,2]\n\u{1b}[1m{{\"reason\": 7}}\n{full}\n{{\"reason\":\"compiler-artifact\",\"fresh\":true}}\n"
    );
    let found = parse(Format::CargoJson, &output, Path::new(WS), &[lib()]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].line, 5);
}

#[test]
fn odd_messages_are_tolerated() {
    let output = [
        // No spans at all: not attributable to a file.
        r#"{"reason":"compiler-message","message":{"level":"error","message":"linking failed","spans":[],"children":[]}}"#,
        // An internal compiler error counts as an error; no primary span marked.
        r#"{"reason":"compiler-message","message":{"level":"error: internal compiler error","message":"boom","spans":[{"file_name":"src/a.rs","line_start":3,"column_start":1}]}}"#,
        // A top-level help is a note; an unknown level is skipped.
        r#"{"reason":"compiler-message","message":{"level":"help","message":"try this","spans":[{"file_name":"src/a.rs","line_start":4,"is_primary":true}]}}"#,
        r#"{"reason":"compiler-message","message":{"level":"mystery","message":"?","spans":[{"file_name":"src/a.rs","line_start":4}]}}"#,
        // A line number that does not fit is a malformed line.
        r#"{"reason":"compiler-message","message":{"level":"error","message":"big","spans":[{"file_name":"src/a.rs","line_start":99999999999}]}}"#,
    ]
    .join("\n");
    let found = parse(Format::CargoJson, &output, Path::new(WS), &[]);
    let found: Vec<_> = found
        .iter()
        .map(|d| (d.severity, d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (Severity::Error, 3, Some(1), "boom"),
            (Severity::Note, 4, None, "try this")
        ]
    );
}

#[test]
fn ansi_in_rendered_is_removed() {
    let output = r#"{"reason":"compiler-message","message":{"level":"warning","message":"w","rendered":"\u001b[33mwarning\u001b[0m: w\n","spans":[{"file_name":"src/a.rs","line_start":1,"is_primary":true}]}}"#;
    let found = parse(Format::CargoJson, output, Path::new(WS), &[]);
    assert_eq!(found[0].rendered.as_deref(), Some("warning: w\n"));
}
