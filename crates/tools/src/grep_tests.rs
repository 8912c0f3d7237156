use super::*;
use grep_regex::RegexMatcher;
use serde_json::json;
use std::path::Path;

fn searchable(matcher: &RegexMatcher, path: &Path) -> bool {
    let mut sink = Collect::new(true);
    Searcher::new()
        .search_path(matcher, path, &mut sink)
        .is_ok()
}

fn setup() -> (tempfile::TempDir, ToolContext) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("src")).unwrap();
    std::fs::write(
        d.join("src/a.rs"),
        "fn alpha() {}\nlet x = 1;\nfn beta() {}\n",
    )
    .unwrap();
    std::fs::write(d.join("src/b.py"), "def alpha():\n    pass\n").unwrap();
    std::fs::write(d.join("ignored.rs"), "fn alpha() {}\n").unwrap();
    std::fs::write(d.join(".gitignore"), "ignored.rs\n").unwrap();
    std::fs::write(d.join("bin.dat"), b"alpha\0\x01\x02").unwrap();
    let ctx = ToolContext::new(d, d.join(".spill"));
    (dir, ctx)
}

#[tokio::test]
async fn files_with_matches_default() {
    let (_d, ctx) = setup();
    let out = GrepTool
        .run(json!({"pattern": "alpha"}), &ctx)
        .await
        .unwrap();
    let mut lines: Vec<&str> = out.content.lines().collect();
    lines.sort();
    assert_eq!(lines, vec!["src/a.rs", "src/b.py"], "{}", out.content);
    assert_eq!(out.display.summary, "2 files");
}

#[tokio::test]
async fn content_mode_with_glob_and_context() {
    let (_d, ctx) = setup();
    let out = GrepTool
        .run(
            json!({"pattern": "^fn", "glob": "*.rs", "output_mode": "content"}),
            &ctx,
        )
        .await
        .unwrap();
    assert_eq!(
        out.content,
        "src/a.rs:1:fn alpha() {}\nsrc/a.rs:3:fn beta() {}\n"
    );
    let out = GrepTool
        .run(
            json!({"pattern": "BETA", "case_insensitive": true, "output_mode": "content", "context": 1}),
            &ctx,
        )
        .await
        .unwrap();
    assert_eq!(
        out.content,
        "src/a.rs-2-let x = 1;\nsrc/a.rs:3:fn beta() {}\n"
    );
}

#[tokio::test]
async fn count_mode_and_single_file() {
    let (_d, ctx) = setup();
    let out = GrepTool
        .run(
            json!({"pattern": "fn", "path": "src/a.rs", "output_mode": "count"}),
            &ctx,
        )
        .await
        .unwrap();
    assert_eq!(out.content, "src/a.rs:2\n");
    assert_eq!(out.display.summary, "2 matches");
}

#[tokio::test]
async fn no_matches_and_errors() {
    let (_d, ctx) = setup();
    let out = GrepTool.run(json!({"pattern": "zzz"}), &ctx).await.unwrap();
    assert_eq!(out.content, "No matches for zzz");
    let err = GrepTool
        .run(json!({"pattern": "("}), &ctx)
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(m) if m.contains("invalid regex")));
    let err = GrepTool
        .run(json!({"pattern": "a", "output_mode": "lines"}), &ctx)
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(_)));
    let err = GrepTool.run(json!({}), &ctx).await.unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(_)));
    let err = GrepTool
        .run(json!({"pattern": "a", "path": "missing"}), &ctx)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("Path not found"));
}

#[tokio::test]
async fn content_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (0..800).map(|i| format!("hit {i}\n")).collect();
    std::fs::write(dir.path().join("big.txt"), text).unwrap();
    let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
    let out = GrepTool
        .run(json!({"pattern": "hit", "output_mode": "content"}), &ctx)
        .await
        .unwrap();
    assert!(
        out.content.contains("[results capped: 800 matching lines"),
        "{}",
        &out.content[out.content.len() - 200..]
    );
    assert!(out.content.lines().count() <= MAX_LINES + 3);
}

#[test]
fn binary_files_are_searchable_without_error() {
    let (d, _ctx) = setup();
    let m = RegexMatcher::new("alpha").unwrap();
    assert!(searchable(&m, &d.path().join("bin.dat")));
}

#[tokio::test]
async fn claude_codes_flags() {
    let (_d, ctx) = setup();
    let run = |args: serde_json::Value| {
        let ctx = ctx.clone();
        async move { GrepTool.run(args, &ctx).await }
    };
    // -A / -B apart, -C around; -i.
    let out = run(json!({"pattern": "LET", "-i": true, "output_mode": "content", "-A": 1, "path": "src/a.rs"}))
        .await
        .unwrap();
    assert_eq!(
        out.content,
        "src/a.rs:2:let x = 1;\nsrc/a.rs-3-fn beta() {}\n"
    );
    let out = run(json!({"pattern": "let", "output_mode": "content", "-B": 1, "path": "src/a.rs"}))
        .await
        .unwrap();
    assert_eq!(
        out.content,
        "src/a.rs-1-fn alpha() {}\nsrc/a.rs:2:let x = 1;\n"
    );
    // -n false drops the line numbers.
    let out = run(json!({"pattern": "beta", "output_mode": "content", "-n": false}))
        .await
        .unwrap();
    assert_eq!(out.content, "src/a.rs:fn beta() {}\n");
    // type: ripgrep's file types.
    let out = run(json!({"pattern": "alpha", "type": "py"}))
        .await
        .unwrap();
    assert_eq!(out.content, "src/b.py\n");
    let err = run(json!({"pattern": "alpha", "type": "nosuchtype"}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(m) if m.contains("unknown file type")));
    // head_limit keeps the first N lines, without a cap note.
    let out = run(json!({"pattern": "fn", "output_mode": "content", "head_limit": 1}))
        .await
        .unwrap();
    assert_eq!(out.content.lines().count(), 1, "{}", out.content);
    assert!(!out.content.contains("capped"));
    // multiline lets a pattern span lines.
    let out = run(json!({"pattern": "alpha.*\\nlet", "output_mode": "files_with_matches"}))
        .await
        .unwrap();
    assert!(out.content.starts_with("No matches"), "{}", out.content);
    let out = run(json!({"pattern": "alpha.*\\nlet", "multiline": true}))
        .await
        .unwrap();
    assert_eq!(out.content, "src/a.rs\n");
    // Wrong types are invalid arguments.
    let err = run(json!({"pattern": "a", "-A": "two"})).await.unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(_)));
}

#[tokio::test]
async fn the_walk_stops_at_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..(MAX_FILES + 50) {
        std::fs::write(dir.path().join(format!("f{i}.txt")), "needle\n").unwrap();
    }
    let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
    let out = GrepTool
        .run(json!({"pattern": "needle"}), &ctx)
        .await
        .unwrap();
    assert_eq!(
        out.content.lines().count(),
        MAX_FILES + 1,
        "{}",
        out.content
    );
    assert!(
        out.content
            .contains("files found before the search stopped at the cap"),
        "{}",
        out.content
    );
    assert!(out.display.summary.ends_with("+ files"));
    // Under the cap, every match is found and the totals are exact.
    let out = GrepTool
        .run(
            json!({"pattern": "needle", "glob": "f1*.txt", "output_mode": "count"}),
            &ctx,
        )
        .await
        .unwrap();
    assert_eq!(out.content.lines().count(), 111, "{}", out.content);
    assert_eq!(out.display.summary, "111 matches");
}

#[tokio::test]
async fn one_result_is_singular_in_the_summary() {
    let (_d, ctx) = setup();
    let files = GrepTool
        .run(json!({"pattern": "beta"}), &ctx)
        .await
        .unwrap();
    assert_eq!(files.display.summary, "1 file");
    let lines = GrepTool
        .run(json!({"pattern": "beta", "output_mode": "content"}), &ctx)
        .await
        .unwrap();
    assert_eq!(lines.display.summary, "1 match");
}
