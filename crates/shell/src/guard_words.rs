//! The guard's reading of one command's words: what it prints (literal
//! `echo`/`printf`, `cat`/`tee` passing input on), `bash -c` scripts, and
//! option parsing.

use super::*;

/// What a command writes to standard output when that is knowable: a
/// literal `echo`/`printf`, or `cat`/`tee` passing on known input.
pub(super) fn output_of(argv: &[String], stdin: Option<&[String]>) -> Option<Vec<String>> {
    let name = base_name(argv.first()?);
    let args = &argv[1..];
    match name {
        "echo" => Some(echo_output(args)),
        "printf" => printf_output(args).map(|o| vec![o]),
        "cat" if args.iter().all(|a| a.starts_with('-')) => stdin.map(<[String]>::to_vec),
        "tee" => stdin.map(<[String]>::to_vec),
        // Where it runs, which `resolve` follows (`$(pwd)/build`).
        "pwd" => Some(vec!["$PWD".to_owned()]),
        _ => None,
    }
}

/// `echo`'s output, with and without escapes decoded (shells differ).
pub(super) fn echo_output(args: &[String]) -> Vec<String> {
    let flags = args
        .iter()
        .take_while(|a| {
            a.len() > 1
                && a.starts_with('-')
                && a[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'))
        })
        .count();
    let raw = args[flags..].join(" ") + "\n";
    let (decoded, _) = unescape(&raw, Escapes::Echo);
    if decoded == raw {
        vec![raw]
    } else {
        vec![raw, decoded]
    }
}

/// `printf`'s output; `None` for `printf -v`.
pub(super) fn printf_output(args: &[String]) -> Option<String> {
    let args = match args.first().map(String::as_str) {
        Some("--") => &args[1..],
        Some(a) if a.starts_with("-v") => return None,
        _ => args,
    };
    let fmt: Vec<char> = args.first()?.chars().collect();
    let mut rest = args[1..].iter();
    let mut out = String::new();
    for _ in 0..MAX_VARIANTS {
        let before = rest.len();
        let mut lit = String::new();
        let mut i = 0;
        while i < fmt.len() {
            if fmt[i] != '%' {
                lit.push(fmt[i]);
                i += 1;
                continue;
            }
            i += 1;
            if fmt.get(i) == Some(&'%') {
                lit.push('%');
                i += 1;
                continue;
            }
            out.push_str(&unescape(&std::mem::take(&mut lit), Escapes::Printf).0);
            while i < fmt.len()
                && (fmt[i] == '*' || "-+ #0'.".contains(fmt[i]) || fmt[i].is_ascii_digit())
            {
                if fmt[i] == '*' {
                    rest.next();
                }
                i += 1;
            }
            let arg = rest.next().map_or("", String::as_str);
            match fmt.get(i) {
                Some('b') => {
                    let (text, stop) = unescape(arg, Escapes::Echo);
                    out.push_str(&text);
                    if stop {
                        return Some(out);
                    }
                }
                Some('c') => out.extend(arg.chars().next()),
                Some(_) => out.push_str(arg),
                None => {}
            }
            i += 1;
        }
        out.push_str(&unescape(&lit, Escapes::Printf).0);
        if rest.len() == 0 || rest.len() == before {
            break;
        }
    }
    Some(out)
}

pub(super) fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Shell options that take the next word as their argument.
pub(super) const SHELL_OPT_ARGS: &[&str] = &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"];

/// The script of `bash -c SCRIPT` (also `-lc`, `-ec`, …).
pub(super) fn shell_script(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if SHELL_OPT_ARGS.contains(&a.as_str()) {
            it.next();
            continue;
        }
        if a.starts_with('-') && !a.starts_with("--") && a.contains('c') {
            return it.find(|s| !s.starts_with('-')).map(String::as_str);
        }
        if !a.starts_with('-') && !a.starts_with('+') {
            return None;
        }
    }
    None
}

/// Whether the shell reads its script from standard input (no script file).
pub(super) fn reads_stdin(args: &[String]) -> bool {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-" => return true,
            "--" => return it.next().is_none(),
            s if SHELL_OPT_ARGS.contains(&s) => {
                it.next();
            }
            s if s.starts_with('-') || s.starts_with('+') => {
                if !s.starts_with("--") && s.contains('s') {
                    return true;
                }
            }
            _ => return false,
        }
    }
    true
}

pub(super) struct Parsed<'a> {
    pub(super) short: String,
    pub(super) long: Vec<&'a str>,
    pub(super) operands: Vec<&'a str>,
}

pub(super) fn parse_opts(args: &[String]) -> Parsed<'_> {
    let mut p = Parsed {
        short: String::new(),
        long: Vec::new(),
        operands: Vec::new(),
    };
    let mut rest = false;
    for a in args {
        if rest {
            p.operands.push(a);
        } else if a == "--" {
            rest = true;
        } else if let Some(l) = a.strip_prefix("--") {
            p.long.push(l);
        } else if let Some(s) = a.strip_prefix('-').filter(|s| !s.is_empty()) {
            p.short.push_str(s);
        } else {
            p.operands.push(a);
        }
    }
    p
}
