//! A fail-closed pass over the whole syntax tree for what tree-sitter-bash
//! keeps as plain text but bash would run or read differently.
//!
//! The walker in [`crate::parse`] trusts the node kinds; this pass does not.
//! It looks at the text of every leaf and records an [`crate::Unknown`] for
//! what bash treats as code there: a backquote or `$(` tree-sitter left
//! inside a word (`${x:-`cmd`}`, an unquoted here-document body, a `[[ =~ ]]`
//! regex, nested escaped backquotes), a comment glued to a line
//! continuation (bash joins `a\⏎#x` into the word `a#x`, tree-sitter sees a
//! comment), and redirection operators inside `[ … ]` (bash redirects
//! there, tree-sitter makes them comparisons).

use tree_sitter::Node;

use crate::parse::{Walker, children};

/// Redirection operators: inside `[ … ]` bash redirects with them.
const REDIRECT_OPS: &[&str] = &[
    ">", ">>", "<", ">|", "&>", "&>>", "<>", ">&", "<&", "<<", "<<<", "<<-", ">&-", "<&-",
];

/// Deepest nesting checked; deeper trees are unknown already.
const MAX_NEST: usize = 400;

impl Walker<'_> {
    /// Records unknowns for code tree-sitter kept as text below `root`.
    pub(crate) fn hidden(&mut self, root: Node<'_>) {
        self.hidden_in(root, false, 0);
    }

    fn hidden_in(&mut self, node: Node<'_>, in_backquotes: bool, nest: usize) {
        if nest > MAX_NEST {
            self.unknown("nests too deeply to check", node);
            return;
        }
        match node.kind() {
            // Single-quoted text and `$'…'` are data, except that inside a
            // double-quoted `"${x:-'…'}"` bash keeps the quotes as text and
            // still runs the backquotes and `$(` between them.
            "raw_string" | "ansi_c_string" => {
                let text = self.text(node);
                if text.contains(['`', '$']) && inside_double_quotes(node) {
                    self.unknown(
                        "has single quotes bash does not honour inside double quotes",
                        node,
                    );
                }
                return;
            }
            "comment" => {
                let before = self.src.get(..node.start_byte()).unwrap_or_default();
                if before.ends_with("\\\n") || before.ends_with("\\\r\n") {
                    self.unknown(
                        "has a comment right after a line continuation (bash joins them)",
                        node,
                    );
                }
                return;
            }
            "heredoc_redirect" => {
                let quoted = children(node).iter().any(|(_, c)| {
                    c.kind() == "heredoc_start" && self.text(*c).contains(['\'', '"', '\\'])
                });
                for (_, child) in children(node) {
                    if quoted && child.kind() == "heredoc_body" {
                        continue; // a quoted body is data, expanded nowhere
                    }
                    self.hidden_in(child, in_backquotes, nest + 1);
                }
                return;
            }
            "test_command" => {
                let single = children(node).first().is_some_and(|(_, c)| c.kind() == "[");
                if single && self.has_redirect_op(node) {
                    self.unknown("redirects inside `[ … ]`", node);
                }
            }
            "command_substitution" | "process_substitution" => {
                let backquotes = children(node).first().is_some_and(|(_, c)| c.kind() == "`");
                for (_, child) in children(node) {
                    if child.is_named() {
                        self.hidden_in(child, backquotes, nest + 1);
                    }
                }
                return;
            }
            _ => {}
        }
        let kids = children(node);
        if kids.is_empty() {
            // Unnamed leaves are the grammar's own tokens (`$((`, `${`).
            if node.is_named() && code_in_text(self.text(node), in_backquotes) {
                self.unknown("has a command substitution the parser kept as text", node);
            }
            return;
        }
        for (_, child) in kids {
            self.hidden_in(child, in_backquotes, nest + 1);
        }
    }

    fn has_redirect_op(&self, node: Node<'_>) -> bool {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            for (_, c) in children(n) {
                if !c.is_named() && REDIRECT_OPS.contains(&c.kind()) {
                    return true;
                }
                if c.kind().ends_with("redirect") {
                    return true;
                }
                stack.push(c);
            }
        }
        false
    }
}

/// Whether leaf text holds something bash runs: an unescaped backquote, an
/// unescaped `$(`, `<(` or `>(`, or — inside backquotes, where `\`` opens
/// a nested substitution — any backquote at all.
fn code_in_text(text: &str, in_backquotes: bool) -> bool {
    let mut escaped = false;
    let mut prev = '\0';
    for c in text.chars() {
        if escaped {
            escaped = false;
            if c == '`' && in_backquotes {
                return true;
            }
            prev = '\0';
            continue;
        }
        match c {
            '\\' => escaped = true,
            '`' => return true,
            '(' if matches!(prev, '$' | '<' | '>') => return true,
            _ => {}
        }
        prev = c;
    }
    false
}

/// Whether `node` lies inside a double-quoted string.
fn inside_double_quotes(node: Node<'_>) -> bool {
    let mut up = node.parent();
    while let Some(n) = up {
        if n.kind() == "string" {
            return true;
        }
        up = n.parent();
    }
    false
}
