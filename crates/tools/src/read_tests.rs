use super::*;
use serde_json::json;
use std::path::Path;

fn ctx(dir: &Path) -> ToolContext {
    ToolContext::new(dir, dir.join(".spill"))
}

async fn run(dir: &Path, args: serde_json::Value) -> Result<ToolOutput, ToolError> {
    ReadTool.run(args, &ctx(dir)).await
}

#[tokio::test]
async fn numbers_lines_like_cat_n() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\r\ntwo\nthree").unwrap();
    let out = run(dir.path(), json!({"file_path": "a.txt"}))
        .await
        .unwrap();
    assert_eq!(out.content, "     1\tone\n     2\ttwo\n     3\tthree\n");
    assert_eq!(out.display.summary, "3 lines");
}

#[tokio::test]
async fn offset_and_limit_with_note() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (1..=10).map(|i| format!("l{i}\n")).collect();
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    let abs = dir.path().join("a.txt").display().to_string();
    let out = run(
        dir.path(),
        json!({"file_path": abs, "offset": 3, "limit": 2}),
    )
    .await
    .unwrap();
    assert!(
        out.content.starts_with("     3\tl3\n     4\tl4\n"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("6 more lines; use offset=5"),
        "{}",
        out.content
    );
}

#[tokio::test]
async fn offset_past_end() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "x\n").unwrap();
    let out = run(dir.path(), json!({"file_path": "a.txt", "offset": 9}))
        .await
        .unwrap();
    assert!(out.content.contains("past the end"));
}

#[tokio::test]
async fn long_lines_are_cut() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "x".repeat(5000)).unwrap();
    let out = run(dir.path(), json!({"file_path": "a.txt"}))
        .await
        .unwrap();
    assert!(out.content.contains("[3000 more chars]"));
}

#[tokio::test]
async fn byte_cap_says_where_to_continue() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (1..=100).map(|i| format!("{i:0>50}\n")).collect();
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    let mut c = ctx(dir.path());
    c.limits.max_bytes = 600;
    let out = ReadTool
        .run(json!({"file_path": "a.txt"}), &c)
        .await
        .unwrap();
    assert!(
        out.content.contains("capped at 600 bytes; use offset="),
        "{}",
        out.content
    );
}

#[tokio::test]
async fn missing_file_suggests_similar() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.toml"), "x").unwrap();
    let err = run(dir.path(), json!({"file_path": "confg.toml"}))
        .await
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("File not found: confg.toml"), "{msg}");
    assert!(msg.contains("config.toml"), "{msg}");
}

#[tokio::test]
async fn directory_suggests_ls() {
    let dir = tempfile::tempdir().unwrap();
    let err = run(dir.path(), json!({"file_path": "."}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("use the ls tool"));
}

#[tokio::test]
async fn binary_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.bin"), [0u8, 159, 146, 150, 0, 1, 2]).unwrap();
    let err = run(dir.path(), json!({"file_path": "b.bin"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("binary file"));
}

#[tokio::test]
async fn empty_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("e"), "").unwrap();
    let out = run(dir.path(), json!({"file_path": "e"})).await.unwrap();
    assert!(out.content.contains("is empty"));
}

#[tokio::test]
async fn invalid_args() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        json!({}),
        json!({"file_path": 1}),
        json!({"file_path": "a", "offset": 0}),
    ] {
        let err = run(dir.path(), args).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)), "{err}");
    }
}
