//! Statements: tree-sitter-bash's syntax tree turned into [`Script`].
//!
//! Every statement kind bash has is either represented (lists, pipelines,
//! `!`, subshells, groups, `if`, `while`/`until`, `for … in`, `case`,
//! assignments, `export`/`declare`/`local`/`unset`, redirections,
//! here-documents) or recorded as [`Unknown`] (arithmetic commands and
//! C-style `for`, function definitions, `[[ … ]]` with arithmetic or `-v`,
//! parse errors, anything new). Bodies of unknown constructs are still
//! walked, so the guard and deny rules see the commands inside them.

use tree_sitter::{Node, Parser};

use crate::ast::{Command, Redirect, RedirectKind, Script, Sep, Unknown, Word};
use crate::recent::Recent;

/// Longest script parsed; longer ones are one unknown.
const MAX_LEN: usize = 1 << 20;
/// Deepest nesting of syntax walked.
const MAX_NEST: usize = 200;

thread_local! {
    /// Scripts parsed last on this thread (see [`Recent`]).
    static RECENT: Recent<Script> = const { Recent::new() };
}

/// Parses `script` with tree-sitter-bash. Never fails: whatever cannot be
/// represented exactly is listed in [`Script::unknown`].
pub fn parse(script: &str) -> Script {
    RECENT.with(|recent| recent.get_or(script, parse_uncached))
}

pub(crate) fn parse_uncached(script: &str) -> Script {
    if script.len() > MAX_LEN {
        return unknown_script("is too long to check", "");
    }
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .is_err()
    {
        return unknown_script("could not be parsed (no bash grammar)", script);
    }
    // tree-sitter-bash's scanner hands raw code points to C's `isdigit`,
    // which reads out of bounds for many non-ASCII ones and crashes the
    // process. Bash treats such characters as word characters, so the parser
    // gets an ASCII stand-in of the same byte length (`x` for every non-ASCII
    // byte) and all text is read back from the original. The stand-in can
    // only make more look dynamic (`$é` reads as a variable), never less.
    let stand_in: String = script
        .bytes()
        .map(|b| if b.is_ascii() { char::from(b) } else { 'x' })
        .collect();
    let Some(tree) = parser.parse(&stand_in, None) else {
        return unknown_script("could not be parsed", script);
    };
    let root = tree.root_node();
    let mut w = Walker {
        src: script,
        out: Script::default(),
        nest: 0,
    };
    if root.has_error() {
        w.unknown("does not parse as bash", root);
    }
    w.statements(root, 0);
    w.hidden(root);
    w.out
}

fn unknown_script(reason: &'static str, text: &str) -> Script {
    Script {
        unknown: vec![Unknown {
            reason,
            text: text.chars().take(200).collect(),
        }],
        ..Script::default()
    }
}

/// The children of `node` with their field names.
pub(crate) fn children<'t>(node: Node<'t>) -> Vec<(Option<&'t str>, Node<'t>)> {
    let mut cursor = node.walk();
    let mut out = Vec::new();
    if cursor.goto_first_child() {
        loop {
            out.push((cursor.field_name(), cursor.node()));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

pub(crate) struct Walker<'s> {
    pub(crate) src: &'s str,
    pub(crate) out: Script,
    pub(crate) nest: usize,
}

impl<'s> Walker<'s> {
    pub(crate) fn text(&self, node: Node<'_>) -> &'s str {
        self.src
            .get(node.start_byte()..node.end_byte())
            .unwrap_or_default()
    }

    pub(crate) fn unknown(&mut self, reason: &'static str, node: Node<'_>) {
        let text: String = self.text(node).chars().take(200).collect();
        self.out.unknown.push(Unknown { reason, text });
    }

    /// Walks the statements among `node`'s children (a program, a body).
    fn statements(&mut self, node: Node<'_>, depth: usize) {
        let kids = children(node);
        for (i, (_, child)) in kids.iter().enumerate() {
            if !child.is_named() {
                continue;
            }
            let before = self.out.commands.len();
            self.statement(*child, depth);
            let background = kids
                .get(i + 1)
                .is_some_and(|(_, n)| !n.is_named() && n.kind() == "&");
            self.set_sep(
                before,
                if background {
                    Sep::Background
                } else {
                    Sep::End
                },
            );
        }
    }

    /// Sets the operator after the last command emitted since `before`.
    fn set_sep(&mut self, before: usize, sep: Sep) {
        if self.out.commands.len() > before
            && let Some(last) = self.out.commands.last_mut()
        {
            last.sep = sep;
        }
    }

    pub(crate) fn statement(&mut self, node: Node<'_>, depth: usize) {
        if self.nest > MAX_NEST {
            self.unknown("nests too deeply to check", node);
            return;
        }
        self.nest += 1;
        self.statement_inner(node, depth);
        self.nest -= 1;
    }

    fn statement_inner(&mut self, node: Node<'_>, depth: usize) {
        match node.kind() {
            "comment" => {}
            "command" => self.command(node, depth, Vec::new()),
            "variable_assignment"
            | "variable_assignments"
            | "declaration_command"
            | "unset_command" => self.command(node, depth, Vec::new()),
            "redirected_statement" => self.redirected(node, depth),
            "list" => {
                let before = self.out.commands.len();
                for (_, child) in children(node) {
                    if child.is_named() {
                        self.statement(child, depth);
                    } else {
                        let sep = match child.kind() {
                            "&&" => Sep::And,
                            "||" => Sep::Or,
                            _ => Sep::End,
                        };
                        self.set_sep(before, sep);
                    }
                }
            }
            "pipeline" => {
                let before = self.out.commands.len();
                for (_, child) in children(node) {
                    if child.is_named() {
                        self.statement(child, depth);
                    } else if matches!(child.kind(), "|" | "|&") {
                        self.set_sep(before, Sep::Pipe);
                    }
                }
            }
            "negated_command" => self.statements(node, depth),
            "subshell" | "do_group" | "else_clause" | "elif_clause" => {
                self.statements(node, depth + 1);
            }
            "compound_statement" => {
                let arithmetic = children(node)
                    .first()
                    .is_some_and(|(_, n)| n.kind() == "((");
                if arithmetic {
                    self.unknown("uses an arithmetic command `(( … ))`", node);
                    self.scan(node);
                } else {
                    self.statements(node, depth + 1);
                }
            }
            "if_statement" | "while_statement" => self.compound(node, depth),
            "for_statement" => {
                for (field, child) in children(node) {
                    match field {
                        Some("value") => {
                            self.word(child);
                        }
                        Some("body") => self.statement(child, depth + 1),
                        _ => {}
                    }
                }
            }
            "case_statement" => {
                for (field, child) in children(node) {
                    if field == Some("value") {
                        self.word(child);
                    } else if child.kind() == "case_item" {
                        for (f, item) in children(child) {
                            if f == Some("value") {
                                self.word(item);
                            } else if item.is_named() && item.kind() != "comment" {
                                self.statement(item, depth + 1);
                            }
                        }
                    }
                }
            }
            "function_definition" => {
                self.unknown("defines a function", node);
                for (field, child) in children(node) {
                    match field {
                        Some("body") => self.statement(child, depth + 1),
                        Some("redirect") => {
                            self.redirect(child);
                        }
                        _ => {}
                    }
                }
            }
            "test_command" => self.test_command(node, depth),
            "c_style_for_statement" => {
                self.unknown("uses a C-style `for` loop (arithmetic)", node);
                self.scan(node);
            }
            _ => {
                self.unknown("uses a construct the checker does not know", node);
                self.scan(node);
            }
        }
    }

    /// `if`/`while`/`until`: every part may or may not run.
    fn compound(&mut self, node: Node<'_>, depth: usize) {
        for (_, child) in children(node) {
            if child.is_named() && child.kind() != "comment" {
                self.statement(child, depth + 1);
            }
        }
    }

    /// `[[ … ]]`: understood when it has no arithmetic (`-eq`, …) and no
    /// `-v`/`-R` (whose array subscripts are evaluated as arithmetic).
    fn test_command(&mut self, node: Node<'_>, depth: usize) {
        let before = self.out.unknown.len();
        self.scan(node);
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if n.kind() == "test_operator"
                && matches!(
                    self.text(n),
                    "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" | "-v" | "-R"
                )
            {
                self.unknown("uses an arithmetic or `-v` test in `[[ … ]]`", n);
                break;
            }
            stack.extend(children(n).into_iter().map(|(_, c)| c));
        }
        if self.out.unknown.len() == before {
            // It runs no program: a command without words stands for it.
            self.out.commands.push(Command {
                depth,
                ..Command::default()
            });
        }
    }

    /// Evaluates every word-like node below `node` (so its substitutions
    /// are recorded), without emitting commands for it.
    pub(crate) fn scan(&mut self, node: Node<'_>) {
        for (_, child) in children(node) {
            match child.kind() {
                "word"
                | "string"
                | "raw_string"
                | "ansi_c_string"
                | "translated_string"
                | "concatenation"
                | "simple_expansion"
                | "expansion"
                | "command_substitution"
                | "process_substitution"
                | "arithmetic_expansion"
                | "number" => {
                    self.word(child);
                }
                "do_group"
                | "compound_statement"
                | "command"
                | "list"
                | "pipeline"
                | "redirected_statement" => self.statement(child, 1),
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    // A redirection inside a construct still opens its file.
                    let (redirects, more) = self.redirect(child);
                    self.out.commands.push(Command {
                        redirects,
                        depth: 1,
                        ..Command::default()
                    });
                    self.continuation(more, 1);
                }
                _ => self.scan(child),
            }
        }
    }

    fn redirected(&mut self, node: Node<'_>, depth: usize) {
        let mut body = None;
        let mut redirects = Vec::new();
        let mut more = Vec::new();
        for (field, child) in children(node) {
            if field == Some("body") {
                body = Some(child);
            } else if child.is_named() {
                let (r, m) = self.redirect(child);
                redirects.extend(r);
                more.extend(m);
            }
        }
        match body {
            Some(b) if b.kind() == "command" => {
                self.command(b, depth, redirects);
            }
            Some(b) => {
                self.statement(b, depth);
                self.out.commands.push(Command {
                    redirects,
                    depth,
                    ..Command::default()
                });
            }
            None => self.out.commands.push(Command {
                redirects,
                depth,
                ..Command::default()
            }),
        }
        self.continuation(more, depth);
    }

    /// What followed a here-document's start on its line (`cat <<E | sh`,
    /// `cat <<E && rm x`): it runs after the command it is attached to.
    fn continuation(&mut self, more: Vec<(Sep, Node<'_>)>, depth: usize) {
        for (sep, node) in more {
            if let Some(last) = self.out.commands.last_mut() {
                last.sep = sep;
            }
            self.statement(node, depth);
        }
    }

    /// One simple command (or assignment/declaration statement).
    fn command(&mut self, node: Node<'_>, depth: usize, mut redirects: Vec<Redirect>) {
        let mut words = Vec::new();
        let mut more = Vec::new();
        match node.kind() {
            "variable_assignment" => words.push(self.assignment(node)),
            "variable_assignments" | "declaration_command" | "unset_command" => {
                for (_, child) in children(node) {
                    match child.kind() {
                        "variable_assignment" => words.push(self.assignment(child)),
                        "comment" => {}
                        k if !child.is_named() => {
                            if matches!(
                                k,
                                "export"
                                    | "declare"
                                    | "typeset"
                                    | "local"
                                    | "readonly"
                                    | "unset"
                                    | "unsetenv"
                            ) {
                                words.push(Word {
                                    text: k.to_owned(),
                                    ..Word::default()
                                });
                            }
                        }
                        "variable_name" => words.push(Word {
                            text: self.text(child).to_owned(),
                            ..Word::default()
                        }),
                        _ => words.push(self.word(child)),
                    }
                }
            }
            _ => {
                for (field, child) in children(node) {
                    match (field, child.kind()) {
                        (_, "variable_assignment") => words.push(self.assignment(child)),
                        (Some("name"), _) => {
                            let inner = children(child).into_iter().find(|(_, c)| c.is_named());
                            match inner {
                                Some((_, c)) => words.push(self.word(c)),
                                None => words.push(self.word(child)),
                            }
                        }
                        (Some("argument"), _) => words.push(self.word(child)),
                        (Some("redirect"), _)
                        | (_, "file_redirect" | "herestring_redirect" | "heredoc_redirect") => {
                            let (r, m) = self.redirect(child);
                            redirects.extend(r);
                            more.extend(m);
                        }
                        (_, "comment") => {}
                        _ if child.is_named() => {
                            self.unknown("has a part the checker does not know", child);
                            self.scan(child);
                        }
                        _ => {}
                    }
                }
            }
        }
        self.out.commands.push(Command {
            words,
            redirects,
            sep: Sep::End,
            depth,
        });
        self.continuation(more, depth);
    }

    /// `NAME=value`, `NAME+=value`, `NAME=(a b)` as one word.
    fn assignment(&mut self, node: Node<'_>) -> Word {
        let mut word = Word::default();
        for (field, child) in children(node) {
            match (field, child.kind()) {
                (Some("name"), "variable_name") => word.text.push_str(self.text(child)),
                (Some("name"), _) => {
                    self.unknown("assigns to an array element (arithmetic subscript)", child);
                    word.dynamic = true;
                    word.text.push_str(self.text(child));
                }
                (Some("value"), "array") => {
                    self.scan(child);
                    word.dynamic = true;
                    word.text.push_str(self.text(child));
                }
                (Some("value"), _) => {
                    let v = self.word(child);
                    word.dynamic |= v.dynamic;
                    word.quoted |= v.quoted;
                    word.text.push_str(&v.text);
                }
                (_, "=" | "+=") => word.text.push_str(child.kind()),
                _ => {}
            }
        }
        word
    }

    /// One redirection node, and any statements that continue the line
    /// after a here-document start.
    pub(crate) fn redirect<'t>(&mut self, node: Node<'t>) -> (Vec<Redirect>, Vec<(Sep, Node<'t>)>) {
        let mut more = Vec::new();
        let mut out = Vec::new();
        match node.kind() {
            "file_redirect" => {
                let mut op = "";
                let mut target: Option<Word> = None;
                for (field, child) in children(node) {
                    match field {
                        Some("destination") => {
                            let w = self.word(child);
                            target = Some(match target {
                                Some(mut t) => {
                                    t.text.push_str(&w.text);
                                    t.dynamic |= w.dynamic;
                                    t
                                }
                                None => w,
                            });
                        }
                        Some("descriptor") => {}
                        _ if !child.is_named() => op = child.kind(),
                        _ => {}
                    }
                }
                let target = target.unwrap_or_default();
                let is_fd = !target.dynamic
                    && (target.text == "-" || target.text.chars().all(|c| c.is_ascii_digit()));
                let kind = match op {
                    ">" | ">>" | ">|" | "&>" | "&>>" | "<>" => Some(RedirectKind::Write),
                    "<" => Some(RedirectKind::Read),
                    ">&" | "<&" if target.text.is_empty() || is_fd => Some(RedirectKind::Dup),
                    ">&" => Some(RedirectKind::Write),
                    "<&" => Some(RedirectKind::Read),
                    ">&-" | "<&-" => Some(RedirectKind::Dup),
                    _ => None,
                };
                match kind {
                    Some(kind) => out.push(Redirect {
                        truncates: kind == RedirectKind::Write
                            && matches!(op, ">" | ">|" | "&>" | ">&"),
                        kind,
                        target,
                    }),
                    None => self.unknown("uses a redirection the checker does not know", node),
                }
            }
            "herestring_redirect" => {
                let mut target = Word::default();
                for (_, child) in children(node) {
                    if child.is_named() && child.kind() != "file_descriptor" {
                        target = self.word(child);
                    }
                }
                out.push(Redirect {
                    kind: RedirectKind::HereString,
                    target,
                    truncates: false,
                });
            }
            "heredoc_redirect" => {
                let mut target = Word::default();
                let mut quoted_delim = false;
                let mut op = Sep::End;
                for (field, child) in children(node) {
                    match (field, child.kind()) {
                        (_, "heredoc_start") => {
                            quoted_delim = self.text(child).contains(['\'', '"', '\\']);
                        }
                        (_, "heredoc_body") => target = self.heredoc_body(child, quoted_delim),
                        (_, "heredoc_end" | "file_descriptor") => {}
                        (_, "pipeline") => more.push((Sep::Pipe, child)),
                        (Some("right"), _) => more.push((op, child)),
                        (_, "&&") => op = Sep::And,
                        (_, "||") => op = Sep::Or,
                        (_, "|" | "|&") => op = Sep::Pipe,
                        (Some("argument"), _) => {
                            self.unknown("has arguments after a here-document", child);
                            self.word(child);
                        }
                        (Some("redirect"), _) => {
                            let (r, m) = self.redirect(child);
                            out.extend(r);
                            more.extend(m);
                        }
                        _ if child.is_named() => {
                            self.unknown("continues a here-document line oddly", child);
                            self.scan(child);
                        }
                        _ => {}
                    }
                }
                out.insert(
                    0,
                    Redirect {
                        kind: RedirectKind::HereDoc,
                        target,
                        truncates: false,
                    },
                );
            }
            _ => {
                self.unknown("uses a redirection the checker does not know", node);
                self.scan(node);
            }
        }
        (out, more)
    }

    /// A here-document body: data, but an unquoted one expands `$…`.
    fn heredoc_body(&mut self, node: Node<'_>, quoted: bool) -> Word {
        if quoted {
            return Word {
                text: self.text(node).to_owned(),
                quoted: true,
                ..Word::default()
            };
        }
        let mut word = Word::default();
        let mut at = node.start_byte();
        for (_, child) in children(node) {
            if child.kind() == "heredoc_content" || !child.is_named() {
                continue;
            }
            word.text
                .push_str(self.src.get(at..child.start_byte()).unwrap_or_default());
            let w = self.word(child);
            word.text.push_str(&w.text);
            word.dynamic = true;
            at = child.end_byte();
        }
        word.text
            .push_str(self.src.get(at..node.end_byte()).unwrap_or_default());
        word
    }
}
