use super::*;
use serde_json::json;

struct Fx {
    dir: tempfile::TempDir,
    ctx: ToolContext,
}

fn fx() -> Fx {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ToolContext::new(dir.path(), dir.path().join(".spill"));
    Fx { dir, ctx }
}

impl Fx {
    fn put(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.dir.path().join(name), bytes).unwrap();
    }
    fn get(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap()
    }
    async fn edit(&self, args: serde_json::Value) -> Result<ToolOutput, ToolError> {
        EditTool.run(args, &self.ctx).await
    }
}

#[tokio::test]
async fn unique_replacement_with_diff() {
    let f = fx();
    f.put("a.rs", b"fn main() {\n    old();\n}\n");
    let out = f
        .edit(json!({"file_path": "a.rs", "old_string": "old();", "new_string": "new();"}))
        .await
        .unwrap();
    assert_eq!(out.content, "Edited a.rs: replaced 1 occurrence");
    assert_eq!(f.get("a.rs"), "fn main() {\n    new();\n}\n");
    let d = out.display.diff.unwrap();
    assert!(
        d.contains("-    old();") && d.contains("+    new();"),
        "{d}"
    );
}

#[tokio::test]
async fn non_unique_says_how_many() {
    let f = fx();
    f.put("a.txt", b"x\nx\nx\n");
    let err = f
        .edit(json!({"file_path": "a.txt", "old_string": "x", "new_string": "y"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("Found 3 matches"), "{err}");
    let out = f
        .edit(json!({"file_path": "a.txt", "old_string": "x", "new_string": "y", "replace_all": true}))
        .await
        .unwrap();
    assert!(out.content.contains("3 occurrences"));
    assert_eq!(f.get("a.txt"), "y\ny\ny\n");
}

#[tokio::test]
async fn no_match_shows_closest_region() {
    let f = fx();
    let text: String = (1..=30).map(|i| format!("value_{i} = {i}\n")).collect();
    f.put("a.py", text.as_bytes());
    let err = f
        .edit(json!({"file_path": "a.py", "old_string": "value_15 = 51", "new_string": "z"}))
        .await
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("not found in a.py"), "{msg}");
    assert!(msg.contains("    15\tvalue_15 = 15"), "{msg}");
}

#[tokio::test]
async fn crlf_and_bom_preserved_with_lf_old_string() {
    let f = fx();
    f.put("w.txt", "\u{feff}one\r\ntwo\r\nthree\r\n".as_bytes());
    let out = f
        .edit(json!({"file_path": "w.txt", "old_string": "one\ntwo\n", "new_string": "uno\ndos\n"}))
        .await
        .unwrap();
    assert!(out.content.starts_with("Edited"));
    assert_eq!(f.get("w.txt"), "\u{feff}uno\r\ndos\r\nthree\r\n");
}

#[tokio::test]
async fn trailing_whitespace_fallback_applies() {
    let f = fx();
    f.put("a.txt", b"alpha  \nbeta\t\ngamma\n");
    let out = f
        .edit(json!({"file_path": "a.txt", "old_string": "alpha\nbeta", "new_string": "A\nB"}))
        .await
        .unwrap();
    assert!(out.content.contains("normalizing whitespace"));
    assert_eq!(f.get("a.txt"), "A\nB\ngamma\n");
}

#[tokio::test]
async fn empty_old_string_creates_or_refuses() {
    let f = fx();
    let out = f
        .edit(json!({"file_path": "new/file.txt", "old_string": "", "new_string": "hi\n"}))
        .await
        .unwrap();
    assert!(out.content.starts_with("Created new/file.txt"));
    assert_eq!(f.get("new/file.txt"), "hi\n");
    let err = f
        .edit(json!({"file_path": "new/file.txt", "old_string": "", "new_string": "again"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("already exists and is not empty"));
    f.put("empty.txt", b"");
    f.edit(json!({"file_path": "empty.txt", "old_string": "", "new_string": "filled"}))
        .await
        .unwrap();
    assert_eq!(f.get("empty.txt"), "filled");
}

#[tokio::test]
async fn errors_for_bad_input() {
    let f = fx();
    let err = f
        .edit(json!({"file_path": "a", "old_string": "same", "new_string": "same"}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(_)));
    let err = f
        .edit(json!({"file_path": "a", "old_string": "x"}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(m) if m.contains("new_string")));
    let err = f
        .edit(json!({"file_path": "missing.txt", "old_string": "x", "new_string": "y"}))
        .await
        .unwrap_err();
    assert!(err.to_string().starts_with("File not found: missing.txt"));
    f.put("b.bin", &[0, 1, 2, 0, 255]);
    let err = f
        .edit(json!({"file_path": "b.bin", "old_string": "x", "new_string": "y"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("binary"));
    let err = f
        .edit(json!({"file_path": ".", "old_string": "x", "new_string": "y"}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("directory"));
}

#[test]
fn crlf_detection() {
    assert!(is_crlf("a\r\nb\r\n"));
    assert!(!is_crlf("a\nb\n"));
    assert!(!is_crlf("a\r\nb\nc\nd\n"));
}
