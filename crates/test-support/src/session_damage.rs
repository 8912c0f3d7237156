//! Damaged session files for the loaders' tests: one line of a session
//! file (header first) corrupted, given an unknown parent or type, or torn.

use serde_json::{Value, json};

/// How a line is damaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// Not JSON at all.
    Corrupt,
    /// Valid, but its parent id names no entry.
    UnknownParent,
    /// Valid, but of a type no loader knows.
    UnknownType,
    /// Cut in half (as a crash mid-write leaves it).
    Torn,
}

/// Every kind, for generators.
pub const DAMAGES: [Damage; 4] = [
    Damage::Corrupt,
    Damage::UnknownParent,
    Damage::UnknownType,
    Damage::Torn,
];

/// `lines` (header first) with line `at` damaged, as file text; a torn last
/// line has no newline. A line that is not JSON is replaced whole.
pub fn damaged(lines: &[String], at: usize, how: Damage) -> String {
    let mut out = lines.to_vec();
    let Some(line) = lines.get(at) else {
        return out.join("\n") + "\n";
    };
    let parsed: Option<Value> = serde_json::from_str(line).ok();
    match how {
        Damage::Corrupt => out[at] = "{\"id\": not json at all ]]".to_owned(),
        Damage::UnknownParent => {
            let mut v = parsed.unwrap_or_else(|| json!({}));
            v["parent_id"] = json!("ffffffffffffffff");
            out[at] = v.to_string();
        }
        Damage::UnknownType => {
            let v = parsed.unwrap_or_else(|| json!({}));
            out[at] = json!({"id": v["id"], "parent_id": v["parent_id"], "ts": v["ts"],
                "type": "hologram", "payload": {"x": 1}})
            .to_string();
        }
        Damage::Torn => {
            let mut cut = line.len() / 2;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            out[at].truncate(cut);
            if at + 1 == lines.len() {
                return out.join("\n");
            }
        }
    }
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damages_one_line_only() {
        let lines: Vec<String> = [
            "{\"v\":1}",
            "{\"id\":\"a\",\"parent_id\":null,\"ts\":\"t\"}",
            "{\"id\":\"b\"}",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let text = damaged(&lines, 1, Damage::UnknownParent);
        assert!(text.contains("ffffffffffffffff"));
        assert!(text.starts_with("{\"v\":1}\n") && text.ends_with("{\"id\":\"b\"}\n"));
        assert!(!damaged(&lines, 2, Damage::Torn).ends_with('\n'));
        assert!(damaged(&lines, 1, Damage::Corrupt).contains("not json"));
        assert!(damaged(&lines, 1, Damage::UnknownType).contains("hologram"));
    }
}
