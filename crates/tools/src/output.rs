//! Finishing a tool's output for the model: truncation with a note, spilling
//! the full text to a file when asked, and running blocking file-system work
//! off the async threads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use wright_sandbox::private_fs::{Tighten, private_file_options};

use crate::truncate::{self, Keep};
use crate::{OutputLimits, ToolError};

/// Model content after truncation, and where the full text went if spilled.
pub struct Finished {
    /// What goes to the model.
    pub content: String,
    /// Where the full text was written, when it was cut and spilled.
    pub spill_path: Option<PathBuf>,
}

/// Truncates `text` to `limits`; when it was cut and `spill` names a prefix,
/// writes the full text to a new file in `spill_dir` and says so in the content.
pub fn finish(
    text: &str,
    limits: &OutputLimits,
    keep: Keep,
    spill: Option<(&Path, &str)>,
) -> Finished {
    let t = truncate::with_limits(text, limits, keep);
    if !t.was_truncated() {
        return Finished {
            content: t.text,
            spill_path: None,
        };
    }
    let mut content = t.text;
    let mut spill_path = None;
    if let Some((dir, prefix)) = spill {
        match write_spill(dir, prefix, text) {
            Ok(path) => {
                content.push_str(&format!(
                    "[Full output ({} bytes) saved to {}; read or grep it for the cut part]\n",
                    text.len(),
                    path.display()
                ));
                spill_path = Some(path);
            }
            Err(e) => content.push_str(&format!("[Full output could not be saved: {e}]\n")),
        }
    }
    Finished {
        content,
        spill_path,
    }
}

/// Writes the full output to a new file, 0600 in a 0700 directory (made
/// or tightened so): command output can hold anything a command printed,
/// secrets included, and the spill directory outlives the run.
fn write_spill(dir: &Path, prefix: &str, text: &str) -> std::io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    private_dir(dir)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{prefix}-{stamp}-{}-{n}.txt", std::process::id()));
        match private_file_options()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                f.write_all(text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Makes `dir` (with its missing parents) 0700, or tightens it so.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    wright_sandbox::private_fs::private_dir(dir, Tighten::Yes)
}

/// Creates a new, empty 0600 file for appending in `dir` (made private
/// like the spill files, for the same reason): `{stem}.log`, or
/// `{stem}-2.log`, `{stem}-3.log`… when taken, as when a resumed session
/// numbers its jobs from 1 again.
pub(crate) fn new_private_log(dir: &Path, stem: &str) -> std::io::Result<(std::fs::File, PathBuf)> {
    private_dir(dir)?;
    for n in 1u32.. {
        let name = match n {
            1 => format!("{stem}.log"),
            n => format!("{stem}-{n}.log"),
        };
        let path = dir.join(name);
        match private_file_options()
            .append(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => return Ok((f, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free file name"))
}

/// Runs blocking work on tokio's blocking pool.
pub(crate) async fn blocking<T, F>(f: F) -> Result<T, ToolError>
where
    F: FnOnce() -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ToolError::Failed(format!("tool task failed: {e}")))?
}

/// Cuts `line` to `max` characters, saying how much was cut.
pub(crate) fn cut_line(line: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match line.char_indices().nth(max) {
        None => line.into(),
        Some((i, _)) => {
            let rest = line[i..].chars().count();
            format!("{}… [{rest} more chars]", &line[..i]).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn spill_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let spill = dir.path().join("a/spill");
        std::fs::create_dir_all(&spill).unwrap();
        std::fs::set_permissions(&spill, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = write_spill(&spill, "bash", "secret output").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&spill), 0o700);
        let fresh = dir.path().join("b/c");
        write_spill(&fresh, "bash", "x").unwrap();
        assert_eq!(mode(&fresh), 0o700);
        assert_eq!(mode(&dir.path().join("b")), 0o700);
    }

    #[test]
    fn spills_only_when_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let limits = OutputLimits {
            max_lines: 5,
            ..OutputLimits::default()
        };
        let small = finish("a\nb\n", &limits, Keep::HeadTail, Some((dir.path(), "x")));
        assert!(small.spill_path.is_none());
        let text: String = (0..50).map(|i| format!("{i}\n")).collect();
        let big = finish(&text, &limits, Keep::HeadTail, Some((dir.path(), "x")));
        let path = big.spill_path.unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(big.content.contains(&path.display().to_string()));
    }

    #[test]
    fn cut_line_counts_chars() {
        assert_eq!(cut_line("abc", 5), "abc");
        assert_eq!(cut_line("ééééé", 2), "éé… [3 more chars]");
    }
}
