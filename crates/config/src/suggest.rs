//! "Did you mean …": the nearest of a list of known words to a word that
//! is not among them, by edit distance. Used for config keys and values
//! here and for model names by the CLI.

/// The candidate nearest to `word`, when it is near enough to be a typo:
/// at most a third of the word's length in edits (at least one, at most
/// three), ignoring ASCII case. Ties go to the earlier candidate.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let len = word.chars().count();
    let limit = (len / 3).clamp(1, 3);
    candidates
        .into_iter()
        .filter(|c| !c.eq_ignore_ascii_case(&word))
        // Edits are at least the difference in length: most of a model
        // catalog is ruled out without the quadratic table.
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
        .map(|c| (distance(&word, &c.to_ascii_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters, with adjacent swaps counted as
/// one edit (the commonest typo).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_word_and_strangers_find_none() {
        let keys = ["max_turns", "max_tokens", "model", "provider"];
        assert_eq!(closest("max_turn", keys), Some("max_turns"));
        assert_eq!(closest("max_tokesn", keys), Some("max_tokens"));
        assert_eq!(closest("provdier", keys), Some("provider"));
        assert_eq!(closest("MODEL", keys), None);
        assert_eq!(closest("colour", keys), None);
        let models = ["claude-sonnet-4-5", "claude-haiku-4-5", "gpt-5.1"];
        assert_eq!(
            closest("claude-sonet-4-5", models),
            Some("claude-sonnet-4-5")
        );
        assert_eq!(closest("gpt-5.2", models), Some("gpt-5.1"));
        assert_eq!(closest("llama3", models), None);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("ab", "ba"), 1);
    }

    #[test]
    fn a_length_difference_at_the_limit_is_still_compared() {
        // "max_toke": limit 2; "max_tokens" is 2 longer and 2 edits away.
        assert_eq!(closest("max_toke", ["max_tokens"]), Some("max_tokens"));
        assert_eq!(closest("max_tok", ["max_tokens"]), None);
        assert_eq!(closest("mödel", ["model", "mödels"]), Some("model"));
    }
}
