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

/// The shortest unique prefix of each of `ids`, keyed by the full id.
pub fn short_ids<'a>(ids: impl IntoIterator<Item = &'a str>) -> HashMap<String, String> {
    let mut sorted: Vec<&str> = ids.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    let common = |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let mut out = HashMap::with_capacity(sorted.len());
    for (i, id) in sorted.iter().enumerate() {
        let before = i.checked_sub(1).map_or(0, |j| common(sorted[j], id));
        let after = sorted.get(i + 1).map_or(0, |next| common(next, id));
        let mut len = (before.max(after) + 1).max(MIN_SHORT_ID);
        // Never end on a separator: `0193f2a1-` reads as cut short.
        if id.as_bytes().get(len - 1) == Some(&b'-') {
            len += 1;
        }
        let short = id.get(..len.min(id.len())).unwrap_or(id);
        out.insert((*id).to_owned(), short.to_owned());
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

    /// `id` by its shortest unique prefix (the whole id if it is unknown).
    pub fn short_id(&self, id: &str) -> String {
        let mut all = self.short_ids();
        all.remove(id).unwrap_or_else(|| id.to_owned())
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
