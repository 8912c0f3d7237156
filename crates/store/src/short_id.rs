//! Session ids as people see them: the shortest prefix (at least
//! [`MIN_SHORT_ID`] characters) that no other session of the store shares.
//!
//! UUIDv7 ids begin with their creation time, so sessions started a few
//! seconds apart share a long prefix and a fixed-length cut (8 characters)
//! would name several of them; the prefix grows only as far as needed.
//! Every command taking an id accepts such a prefix ([`SessionStore::resolve_id`]).

use std::collections::HashMap;

use crate::store::SessionStore;

/// Fewest characters shown of an id.
pub const MIN_SHORT_ID: usize = 8;

/// Characters two ids share at their start.
fn common(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// `id` cut after one more character than it shares with any other id.
fn cut(id: &str, shared: usize) -> String {
    let mut len = (shared + 1).max(MIN_SHORT_ID);
    // Never end on a separator: `0193f2a1-` reads as cut short.
    if id.as_bytes().get(len - 1) == Some(&b'-') {
        len += 1;
    }
    id.get(..len.min(id.len())).unwrap_or(id).to_owned()
}

/// The shortest unique prefix of each of `ids`, keyed by the full id.
pub fn short_ids<'a>(ids: impl IntoIterator<Item = &'a str>) -> HashMap<String, String> {
    let mut sorted: Vec<&str> = ids.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = HashMap::with_capacity(sorted.len());
    for (i, id) in sorted.iter().enumerate() {
        let before = i.checked_sub(1).map_or(0, |j| common(sorted[j], id));
        let after = sorted.get(i + 1).map_or(0, |next| common(next, id));
        out.insert((*id).to_owned(), cut(id, before.max(after)));
    }
    out
}

impl SessionStore {
    /// The shortest unique prefixes of every session id in the store.
    pub fn short_ids(&self) -> HashMap<String, String> {
        let files = self.session_files(None);
        let ids: Vec<String> = files
            .iter()
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        short_ids(ids.iter().map(String::as_str))
    }

    /// `id` by its shortest unique prefix. Only the names of the session
    /// files are read (no file is examined), since this runs at every
    /// start and a store gathers thousands of sessions; a name that is not
    /// a regular file can only make the prefix longer, never ambiguous.
    pub fn short_id(&self, id: &str) -> String {
        let mut shared = 0;
        let projects = std::fs::read_dir(self.root())
            .into_iter()
            .flatten()
            .flatten();
        for project in projects.filter(|e| e.file_type().is_ok_and(|t| t.is_dir())) {
            let Ok(files) = std::fs::read_dir(project.path()) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name();
                let Some(other) = name.to_str().and_then(|n| n.strip_suffix(".jsonl")) else {
                    continue;
                };
                if other != id {
                    shared = shared.max(common(other, id));
                }
            }
        }
        cut(id, shared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_grow_only_where_ids_share_a_start() {
        let ids = [
            "019ac1d2-7f00-7aaa-8000-000000000001",
            "019ac1d2-7f00-7bbb-8000-000000000002",
            "019ac2ff-0000-7ccc-8000-000000000003",
            "02000000-0000-7ddd-8000-000000000004",
        ];
        let short = short_ids(ids);
        assert_eq!(short[ids[0]], "019ac1d2-7f00-7a");
        assert_eq!(short[ids[1]], "019ac1d2-7f00-7b");
        assert_eq!(short[ids[2]], "019ac2ff");
        assert_eq!(short[ids[3]], "02000000");
        // Each prefix names exactly one id.
        for (id, prefix) in &short {
            assert_eq!(
                ids.iter()
                    .filter(|i| i.starts_with(prefix.as_str()))
                    .count(),
                1
            );
            assert!(id.starts_with(prefix.as_str()));
        }
    }

    #[test]
    fn a_cut_never_ends_on_a_dash_and_short_ids_stay_whole() {
        let ids = ["0193f2a1-aaaa", "0193f2a1-bbbb", "abc"];
        let short = short_ids(ids);
        assert_eq!(short["0193f2a1-aaaa"], "0193f2a1-a");
        assert_eq!(short["abc"], "abc");
    }
}

#[cfg(test)]
mod store_tests {
    use crate::store::{SessionMeta, SessionStore};

    #[test]
    fn one_ids_prefix_is_the_one_the_whole_listing_gives() {
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        let ids = [
            "019ac1d2-7f00-7aaa-8000-000000000001",
            "019ac1d2-7f00-7bbb-8000-000000000002",
            "019ac2ff-0000-7ccc-8000-000000000003",
        ];
        for (n, id) in ids.iter().enumerate() {
            let meta = SessionMeta {
                cwd: dir.path().join(format!("project{}", n % 2)),
                ..SessionMeta::default()
            };
            let mut writer = store.create_with_id(&meta, id).unwrap();
            // A session's file is written with its first entry.
            writer
                .append_message(&wright_protocol::Message::user_text("hi"))
                .unwrap();
        }
        let all = store.short_ids();
        for id in ids {
            assert_eq!(store.short_id(id), all[id]);
        }
        assert_eq!(store.short_id(ids[0]), "019ac1d2-7f00-7a");
        assert_eq!(store.short_id("019ac2ff-ffff"), "019ac2ff-f");
    }
}
