//! Ctrl-R reverse incremental search over the history, as in bash: the
//! query grows as the user types, each Ctrl-R looks further back, Enter
//! keeps the match and Esc puts back what was typed before.

/// An open reverse search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Search {
    /// What the user typed after Ctrl-R.
    pub(crate) query: String,
    /// The entry matched, if any.
    pub(crate) hit: Option<usize>,
    /// Whether the last search found nothing (shown as `failed`).
    pub(crate) failed: bool,
    /// The composer's text and cursor before the search, for Esc.
    pub(crate) original: (String, usize),
}

impl Search {
    /// A search started over a composer holding `text` at `cursor`.
    pub(crate) fn new(text: String, cursor: usize) -> Self {
        Self {
            query: String::new(),
            hit: None,
            failed: false,
            original: (text, cursor),
        }
    }

    /// Re-runs the search from the newest entry after the query changed.
    pub(crate) fn refresh(&mut self, entries: &[String]) {
        self.find(entries, entries.len());
    }

    /// Ctrl-R again: the next older match.
    pub(crate) fn older(&mut self, entries: &[String]) {
        let before = self.hit.unwrap_or(entries.len());
        self.find(entries, before);
    }

    /// Looks for the query in entries older than `before`; on a miss the
    /// previous hit stays and the search is marked failed.
    fn find(&mut self, entries: &[String], before: usize) {
        if self.query.is_empty() {
            self.failed = false;
            return;
        }
        let found = entries
            .get(..before.min(entries.len()))
            .unwrap_or_default()
            .iter()
            .rposition(|e| e.contains(&self.query));
        match found {
            Some(i) => {
                self.hit = Some(i);
                self.failed = false;
            }
            None => self.failed = true,
        }
    }

    /// The prompt line, e.g. ``(reverse-i-search)`cargo`: ``.
    pub(crate) fn label(&self) -> String {
        let failed = if self.failed { "failed " } else { "" };
        format!("({failed}reverse-i-search)`{}`: ", self.query)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list() -> Vec<String> {
        ["cargo build", "git status", "cargo test", "ls"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn finds_newest_first_then_older_then_fails_keeping_the_hit() {
        let entries = list();
        let mut s = Search::new("draft".into(), 5);
        s.refresh(&entries);
        assert_eq!((s.hit, s.failed), (None, false));
        s.query.push_str("car");
        s.refresh(&entries);
        assert_eq!(s.hit, Some(2));
        s.older(&entries);
        assert_eq!(s.hit, Some(0));
        s.older(&entries);
        assert_eq!((s.hit, s.failed), (Some(0), true));
        assert_eq!(s.label(), "(failed reverse-i-search)`car`: ");
        s.query = "status".into();
        s.refresh(&entries);
        assert_eq!((s.hit, s.failed), (Some(1), false));
        assert_eq!(s.label(), "(reverse-i-search)`status`: ");
    }
}
