//! Ctrl-G: the composer's text in the person's own editor (`$VISUAL`, else
//! `$EDITOR`). The text goes to a new private file in the temp dir, the
//! terminal leaves raw mode while the editor runs, and what was saved
//! comes back as the composer's text. An editor that fails or exits with
//! an error leaves the composer as it was.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::Command;

use crossterm::event::{
    DisableBracketedPaste, EnableBracketedPaste, KeyboardEnhancementFlags,
    PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::{execute, terminal};

/// The editor command the environment names, if any.
fn editor_command() -> Option<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|var| std::env::var(var).ok())
        .map(|v| v.trim().to_owned())
        .find(|v| !v.is_empty())
}

/// A new file only this user can read, for the draft.
fn draft_file(text: &str) -> io::Result<PathBuf> {
    let dir = std::env::temp_dir();
    for n in 0..100u32 {
        let path = dir.join(format!("wright-prompt-{}-{n}.md", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(mut file) => {
                file.write_all(text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free name for the draft file"))
}

/// Runs the editor on `text`; the saved text, or why there is none.
/// `enhanced`: the terminal reports keys unambiguously (undone for the
/// editor, which expects plain keys).
pub(crate) fn edit(text: &str, enhanced: bool) -> Result<String, String> {
    let Some(editor) = editor_command() else {
        return Err("Ctrl-G opens your editor: set VISUAL or EDITOR".to_owned());
    };
    let path = draft_file(text).map_err(|e| format!("could not write the draft: {e}"))?;
    let mut out = io::stdout();
    if enhanced {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(out, DisableBracketedPaste, crossterm::cursor::Show);
    let _ = terminal::disable_raw_mode();
    // Through the shell: `EDITOR="code --wait"` is a command with options.
    #[cfg(unix)]
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&path)
        .status();
    #[cfg(not(unix))]
    let status = Command::new("cmd")
        .arg("/C")
        .arg(format!("{editor} \"{}\"", path.display()))
        .status();
    let _ = terminal::enable_raw_mode();
    let _ = execute!(out, EnableBracketedPaste);
    if enhanced {
        let _ = execute!(
            out,
            PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES)
        );
    }
    let saved = std::fs::read_to_string(&path);
    let _ = std::fs::remove_file(&path);
    match status {
        Ok(s) if s.success() => saved
            .map(|t| t.trim_end_matches(['\n', '\r']).to_owned())
            .map_err(|e| format!("could not read the draft back: {e}")),
        Ok(s) => Err(format!(
            "the editor exited with {s}; the prompt is unchanged"
        )),
        Err(e) => Err(format!("could not start the editor `{editor}`: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_are_new_private_files() {
        let a = draft_file("one").unwrap();
        let b = draft_file("two").unwrap();
        assert_ne!(a, b);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&a).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "{mode:o}");
        }
        let _ = std::fs::remove_file(a);
        let _ = std::fs::remove_file(b);
    }
}
