//! Reading a session file one line at a time, with a cap on a line's size.
//!
//! wright never writes a line above [`MAX_LINE`] (large fields go to
//! blobs, and the writer refuses what would still be bigger), so such a
//! line is foreign: a hand edit, another tool, a corrupted copy. Reading it
//! whole would hold tens of megabytes (or all of memory) for one entry; the
//! reader skips it without keeping it, and every reader of session files
//! (loading, listing, search) reports it and keeps the lines around it.

use std::io::{self, BufRead, BufReader, Read};

/// The largest session line read, in bytes (its newline not counted).
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// How much is read from the file at a time.
const CHUNK: usize = 64 * 1024;

/// One line of a session file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RawLine<'a> {
    /// A line within the cap, without its newline.
    Text {
        /// The line's bytes.
        bytes: &'a [u8],
        /// Whether a newline ended it (only the last line may lack one).
        terminated: bool,
    },
    /// A line above the cap, skipped unread.
    Oversized {
        /// Its length in bytes.
        len: u64,
        /// Whether a newline ended it.
        terminated: bool,
    },
}

/// Lines of a reader, each at most `cap` bytes held in memory.
pub(crate) struct BoundedLines<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    cap: usize,
}

impl<R: Read> BoundedLines<R> {
    /// Lines of `reader`, capped at [`MAX_LINE`].
    pub(crate) fn new(reader: R) -> Self {
        Self::with_cap(reader, MAX_LINE)
    }

    /// Lines of `reader`, capped at `cap` bytes (tests use a small cap).
    pub(crate) fn with_cap(reader: R, cap: usize) -> Self {
        Self {
            reader: BufReader::with_capacity(CHUNK, reader),
            line: Vec::new(),
            cap,
        }
    }

    /// The next line, `None` at the end of the file.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        self.line.clear();
        // Bytes of the current line seen so far (kept or not).
        let mut len: u64 = 0;
        let mut oversized = false;
        let terminated = loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                if len == 0 {
                    return Ok(None);
                }
                break false;
            }
            let (part, used, done) = match memchr::memchr(b'\n', buf) {
                Some(at) => (&buf[..at], at + 1, true),
                None => (buf, buf.len(), false),
            };
            len += part.len() as u64;
            if !oversized && len > self.cap as u64 {
                oversized = true;
                // Give the memory back: the rest of the line is only counted.
                self.line = Vec::new();
            }
            if !oversized {
                self.line.extend_from_slice(part);
            }
            self.reader.consume(used);
            if done {
                break true;
            }
        };
        Ok(Some(if oversized {
            RawLine::Oversized { len, terminated }
        } else {
            RawLine::Text {
                bytes: &self.line,
                terminated,
            }
        }))
    }
}

/// A line's size for a warning, in megabytes.
pub(crate) fn describe_size(len: u64) -> String {
    format!("{:.1} MB", len as f64 / 1_000_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: usize) -> Vec<String> {
        let mut lines = BoundedLines::with_cap(input, cap);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(match line {
                RawLine::Text { bytes, terminated } => {
                    format!(
                        "{}{}",
                        String::from_utf8_lossy(bytes),
                        if terminated { "\\n" } else { "" }
                    )
                }
                RawLine::Oversized { len, terminated } => {
                    format!("<{len}>{}", if terminated { "\\n" } else { "" })
                }
            });
        }
        out
    }

    #[test]
    fn lines_keep_their_ends() {
        assert_eq!(all(b"a\nbb\n", 10), ["a\\n", "bb\\n"]);
        assert_eq!(all(b"a\n\nc", 10), ["a\\n", "\\n", "c"]);
        assert!(all(b"", 10).is_empty());
    }

    #[test]
    fn a_line_above_the_cap_is_skipped_and_the_rest_kept() {
        assert_eq!(
            all(b"one\n0123456789abc\ntwo\n0123456789x", 10),
            ["one\\n", "<13>\\n", "two\\n", "<11>"]
        );
        // Exactly at the cap is kept.
        assert_eq!(all(b"0123456789\n", 10), ["0123456789\\n"]);
    }

    #[test]
    fn a_long_line_spans_many_reads() {
        let mut input = vec![b'x'; CHUNK * 3 + 7];
        input.push(b'\n');
        input.extend_from_slice(b"after\n");
        let lines = all(&input, CHUNK * 2);
        assert_eq!(
            lines,
            [format!("<{}>\\n", CHUNK * 3 + 7), "after\\n".into()]
        );
        let lines = all(&input, CHUNK * 4);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), CHUNK * 3 + 7 + 2);
    }
}
