//! Asking before `wright rewind --to N` overwrites files: the files it
//! would restore or delete are listed, and the user answers at a terminal;
//! without one the rewind is refused unless `--yes` was given.

use std::io::{BufRead, IsTerminal, Write};

use wright_store::{RestoreAction, RestoredFile};

use crate::exit::SetupError;

/// Shows what rewinding session `short_id` to before turn `n` would do to
/// files and asks; `Ok(true)` to go on. Nothing is asked when no file would
/// change (the conversation alone moves to a new branch and loses nothing).
pub fn confirm(
    short_id: &str,
    n: usize,
    turn_text: &str,
    preview: &[RestoredFile],
) -> Result<bool, SetupError> {
    let changing = preview
        .iter()
        .filter(|f| !matches!(f.action, RestoreAction::Failed(_)))
        .count();
    if changing == 0 {
        return Ok(true);
    }
    let mut text = format!(
        "rewinding session {short_id} to before turn {n} ({turn_text}) will change {changing} file(s):\n"
    );
    text.push_str(&describe(preview));
    text.push_str(
        "Your own edits to these files since then are overwritten (kept in the session file).\n",
    );
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    if !std::io::stdin().is_terminal() {
        return Err(SetupError(
            "not rewound: stdin is not a terminal to ask on; pass --yes to rewind without asking"
                .to_owned(),
        ));
    }
    let _ = write!(stderr, "Rewind? [y/N] ");
    let _ = stderr.flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| SetupError(format!("cannot read the answer: {e}")))?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes"))
}

/// One line per file: what the rewind would do to it.
pub fn describe(preview: &[RestoredFile]) -> String {
    preview
        .iter()
        .map(|f| {
            let what = match &f.action {
                RestoreAction::Restored => "overwritten with its earlier content".to_owned(),
                RestoreAction::Deleted => "deleted (it did not exist then)".to_owned(),
                RestoreAction::Failed(why) => format!("left alone: {why}"),
            };
            format!("  {}: {what}\n", f.path.display())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_described_by_what_happens_to_them() {
        let preview = [
            RestoredFile {
                path: "/p/a.txt".into(),
                action: RestoreAction::Restored,
            },
            RestoredFile {
                path: "/p/b.txt".into(),
                action: RestoreAction::Deleted,
            },
        ];
        let text = describe(&preview);
        assert!(text.contains("/p/a.txt: overwritten"), "{text}");
        assert!(text.contains("/p/b.txt: deleted"), "{text}");
    }

    #[test]
    fn nothing_to_change_asks_nothing() {
        let preview = [RestoredFile {
            path: "/p/a.txt".into(),
            action: RestoreAction::Failed("outside".into()),
        }];
        assert!(confirm("abc", 1, "t", &preview).unwrap());
    }
}
