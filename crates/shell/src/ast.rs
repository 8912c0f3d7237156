//! The parsed form of a script: what [`crate::parse`] returns.
//!
//! It keeps only what the classifier understands: simple commands (words,
//! redirections, the operator after each and how deeply each is nested),
//! the substitutions they contain as parsed scripts of their own, and a list
//! of [`Unknown`] constructs. Anything listed there was not represented
//! exactly, so a script with any unknown is never "known safe".

/// What follows a simple command.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Sep {
    /// `;`, a newline, the end of a group, or the end of the script.
    #[default]
    End,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `|` or `|&`.
    Pipe,
    /// `&`.
    Background,
}

/// One shell word after quote removal.
///
/// A static word's `text` is exactly the argument the program receives. A
/// [`Word::dynamic`] word's text is only a rendering: literal parts unquoted,
/// `$NAME`/`${…}` as written, and each command or process substitution as
/// its [`marker`] character.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Word {
    /// The argument, or a rendering of it when dynamic.
    pub text: String,
    /// The shell computes it when it runs (variables, substitutions,
    /// arithmetic, `~`, brace expansion, `$"…"`): its text is not what runs.
    pub dynamic: bool,
    /// It has unquoted glob characters (`*`, `?`, `[`), so it may become
    /// several words or other names.
    pub glob: bool,
    /// Some of it was quoted or escaped.
    pub quoted: bool,
    /// It has an expansion or substitution outside double quotes, anywhere
    /// in it: bash splits its result on `$IFS`, so it may become several
    /// words, any of which may be an option (`a${X:- -o F}`).
    pub split: bool,
}

/// What a redirection does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>& file`: writes the target file.
    Write,
    /// `<`: reads the target file.
    Read,
    /// `>&N`, `<&N`, `>&-`, `N>&-`: duplicates or closes a descriptor.
    Dup,
    /// `<<` or `<<-`: the target is the here-document's body.
    HereDoc,
    /// `<<<`: the target is the text fed to standard input.
    HereString,
}

/// A redirection and its target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// What it does.
    pub kind: RedirectKind,
    /// The file, descriptor, here-document body or here-string.
    pub target: Word,
    /// It empties the target file before writing (`>`, `>|`, `&>`, `>& f`);
    /// `>>` and `<>` keep what is there.
    pub truncates: bool,
}

/// One simple command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Command {
    /// Its words, leading `NAME=value` assignments included. Empty for the
    /// redirections of a compound command (`{ …; } > out`).
    pub words: Vec<Word>,
    /// Its redirections, in order.
    pub redirects: Vec<Redirect>,
    /// The operator after it.
    pub sep: Sep,
    /// How many subshells, groups and compound-command bodies (`if`,
    /// loops, `case`, functions) enclose it: at depth 0 it surely runs, in
    /// this shell.
    pub depth: usize,
}

/// A command or process substitution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    /// The script as written between the delimiters.
    pub source: String,
    /// The script, parsed.
    pub script: Script,
}

/// A construct the parser did not represent exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// Why, phrased to follow "it …" (e.g. "uses arithmetic expansion").
    pub reason: &'static str,
    /// The text of the construct, for messages.
    pub text: String,
}

/// A parsed script.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Script {
    /// Every simple command in order, including those inside groups,
    /// subshells and compound commands (but not substitutions).
    pub commands: Vec<Command>,
    /// The substitutions; the `n`th stands in its word as [`marker`]`(n)`.
    pub substitutions: Vec<Substitution>,
    /// What was not understood. Non-empty means "not known safe".
    pub unknown: Vec<Unknown>,
}

impl Script {
    /// Whether this script and every substitution in it were fully understood.
    pub fn fully_understood(&self) -> bool {
        self.unknown.is_empty()
            && self
                .substitutions
                .iter()
                .all(|s| s.script.fully_understood())
    }
}

/// Marks a substitution too far down the list to number.
pub const SUBST: char = '\u{1}';
/// Substitution `n` is marked by the private-use character `MARK_BASE + n`.
const MARK_BASE: u32 = 0xF_0000;
const MARK_COUNT: u32 = 0xFFFE;

/// The character that stands for substitution `n` in a word's text.
pub fn marker(n: usize) -> char {
    u32::try_from(n)
        .ok()
        .filter(|n| *n < MARK_COUNT)
        .and_then(|n| char::from_u32(MARK_BASE + n))
        .unwrap_or(SUBST)
}

/// The substitution index a marker character stands for.
pub fn marker_index(c: char) -> Option<usize> {
    let v = u32::from(c);
    (MARK_BASE..MARK_BASE + MARK_COUNT)
        .contains(&v)
        .then(|| (v - MARK_BASE) as usize)
}

/// Whether `text` contains a substitution marker.
pub fn has_marker(text: &str) -> bool {
    text.chars()
        .any(|c| c == SUBST || marker_index(c).is_some())
}

/// `text` with every numbered marker replaced by [`SUBST`].
pub fn unnumbered(text: &str) -> String {
    text.chars()
        .map(|c| if marker_index(c).is_some() { SUBST } else { c })
        .collect()
}
