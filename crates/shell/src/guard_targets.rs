//! The guard's targets: which paths a destructive command reaches
//! (normalized lexically against the known cwd, home and variables), which
//! of them are critical (the root, a home, a top-level system directory, an
//! ancestor of the cwd, a disk device), and the checks of `git push` and
//! fork bombs. Whether a target is known at all is
//! [`super::resolve`]'s matter.

pub(super) fn in_dir(dir: &str) -> String {
    if dir.is_empty() {
        String::new()
    } else {
        format!(" (in {dir})")
    }
}

pub(super) fn check_push(args: &[String]) -> Result<(), String> {
    const FORCE: &str = "(use --force-with-lease)";
    let mut opts = true;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if opts && a == "--" {
            opts = false;
        } else if opts && let Some(long) = a.strip_prefix("--") {
            let (name, has_value) = long
                .split_once('=')
                .map_or((long, false), |(n, _)| (n, true));
            if name == "force" {
                return Err(format!("git push --force {FORCE}"));
            }
            // Git accepts any unambiguous prefix of a long option.
            for (full, what) in [
                ("delete", "deletes remote branches"),
                ("mirror", "overwrites and deletes remote refs"),
                ("prune", "deletes remote branches"),
            ] {
                if !name.is_empty() && full.starts_with(name) {
                    return Err(format!("git push --{full} {what}"));
                }
            }
            if !has_value && matches!(name, "push-option" | "repo" | "receive-pack" | "exec") {
                i += 1;
            }
        } else if opts && a.len() > 1 && a.starts_with('-') {
            for (k, c) in a.char_indices().skip(1) {
                match c {
                    'f' => return Err(format!("git push {a} {FORCE}")),
                    'd' => return Err(format!("git push {a} deletes remote branches")),
                    'o' => {
                        if k + 1 == a.len() {
                            i += 1; // -o's argument
                        }
                        break;
                    }
                    _ => {}
                }
            }
        } else if a.starts_with('+') {
            return Err(format!("git push of forced refspec {a}"));
        } else if a.len() > 1 && a.starts_with(':') {
            return Err(format!("git push {a} deletes a remote branch"));
        }
    }
    Ok(())
}

pub(super) const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/Users",
    "/System",
    "/Library",
    "/Applications",
    "/private",
];

/// Where a path starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Base {
    Root,
    Home,
    /// The working directory the command line started in.
    Start,
    /// A directory computed when the command runs (`cd "$X"`, `cd -`).
    Unknown,
}

/// How a directory computed when the command runs is written among the
/// directories the shell may be in. No shell word holds a NUL, so no
/// literal `cd` reaches it.
pub(super) const UNKNOWN_DIR: &str = "\0";

/// A path with `.`, `..` and `//` resolved lexically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Norm {
    pub(super) base: Base,
    /// `..` steps above the base (never for `Root`).
    pub(super) ups: usize,
    pub(super) comps: Vec<String>,
}

/// Homes `~/..` is judged against.
pub(super) const HOMES: &[&str] = &["/root", "/home/user", "/Users/user"];

pub(super) fn strip_var<'a>(path: &'a str, var: &str) -> Option<&'a str> {
    [format!("${var}"), format!("${{{var}}}")]
        .iter()
        .find_map(|p| path.strip_prefix(p.as_str()))
        .filter(|r| r.is_empty() || r.starts_with('/'))
}

pub(super) fn normalize(path: &str) -> Norm {
    if path.starts_with(UNKNOWN_DIR) {
        return Norm {
            base: Base::Unknown,
            ups: 0,
            comps: Vec::new(),
        };
    }
    let (base, rest) = if let Some(r) = strip_var(path, "HOME").or_else(|| {
        path.strip_prefix('~')
            .filter(|r| r.is_empty() || r.starts_with('/'))
    }) {
        (Base::Home, r)
    } else if let Some(r) = path.strip_prefix('/') {
        (Base::Root, r)
    } else {
        (Base::Start, path)
    };
    let mut n = Norm {
        base,
        ups: 0,
        comps: Vec::new(),
    };
    for c in rest.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if n.comps.pop().is_none() && base != Base::Root {
                    n.ups += 1;
                }
            }
            _ => n.comps.push(c.to_owned()),
        }
    }
    n
}

/// `target` as seen from directory `dir` (a rendered [`Norm`]).
pub(super) fn resolve(dir: &str, target: &str) -> Norm {
    let (dir, target) = match strip_var(target, "PWD") {
        Some(rest) => (dir, rest.trim_start_matches('/')),
        None => (dir, target),
    };
    let absolute = target.starts_with('/') || normalize(target).base == Base::Home;
    if !absolute && dir.starts_with(UNKNOWN_DIR) {
        normalize(UNKNOWN_DIR)
    } else if absolute || dir.is_empty() {
        normalize(target)
    } else {
        normalize(&format!("{dir}/{target}"))
    }
}

pub(super) fn render(n: &Norm) -> String {
    let parts: Vec<&str> = std::iter::repeat_n("..", n.ups)
        .chain(n.comps.iter().map(String::as_str))
        .collect();
    let joined = parts.join("/");
    match n.base {
        Base::Root => format!("/{joined}"),
        Base::Home if joined.is_empty() => "~".to_owned(),
        Base::Home => format!("~/{joined}"),
        Base::Start => joined,
        Base::Unknown => UNKNOWN_DIR.to_owned(),
    }
}

/// `/`, the home directory, a top-level system directory, an ancestor of the
/// starting directory, or all the contents of one of those.
pub(super) fn is_critical(n: &Norm) -> bool {
    let mut comps = n.comps.as_slice();
    while let [rest @ .., last] = comps
        && matches!(last.as_str(), "*" | ".*" | "**")
    {
        comps = rest;
    }
    match n.base {
        Base::Root => match comps {
            [] => true,
            [one] => is_system_dir(one),
            _ => false,
        },
        Base::Home if n.ups == 0 => comps.is_empty(),
        Base::Home => HOMES.iter().any(|home| {
            let mut abs = normalize(home);
            abs.comps.truncate(abs.comps.len().saturating_sub(n.ups));
            abs.comps.extend(comps.iter().cloned());
            is_critical(&abs)
        }),
        Base::Start => n.ups > 0 && comps.is_empty(),
        Base::Unknown => false,
    }
}

/// A top-level system directory's name, or a glob matching one.
pub(super) fn is_system_dir(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let glob = name.contains(['*', '?', '[']);
    SYSTEM_DIRS.iter().any(|d| {
        let d = d.trim_start_matches('/').to_ascii_lowercase();
        d == name || (glob && glob_match(name.as_bytes(), d.as_bytes()))
    })
}

/// Shell pattern matching with `*`, `?` and `[…]`.
pub(super) fn glob_match(pat: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let step = match pat.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(b'?') => Some(p + 1),
            Some(b'[') => class_match(&pat[p..], text[t]).map(|len| p + len),
            Some(&c) if c == text[t] => Some(p + 1),
            _ => None,
        };
        match (step, star) {
            (Some(next), _) => {
                p = next;
                t += 1;
            }
            (None, Some((sp, st))) => {
                p = sp + 1;
                t = st + 1;
                star = Some((sp, st + 1));
            }
            (None, None) => return false,
        }
    }
    pat[p..].iter().all(|&c| c == b'*')
}

/// Whether the `[…]` class at the start of `pat` matches `c`: the class
/// length if so.
pub(super) fn class_match(pat: &[u8], c: u8) -> Option<usize> {
    let mut i = 1;
    let negate = matches!(pat.get(i), Some(b'!' | b'^'));
    if negate {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    while let Some(&b) = pat.get(i) {
        if b == b']' && !first {
            return (hit != negate).then_some(i + 1);
        }
        first = false;
        if pat.get(i + 1) == Some(&b'-') && pat.get(i + 2).is_some_and(|&e| e != b']') {
            hit |= (b..=pat[i + 2]).contains(&c);
            i += 3;
        } else {
            hit |= b == c;
            i += 1;
        }
    }
    // No closing bracket: a literal `[`.
    (c == b'[').then_some(1)
}

/// `name(){ … name|name& … }` in any spacing, with any function name.
pub(super) fn check_fork_bomb(script: &str) -> Result<(), String> {
    let s: String = script.chars().filter(|c| !c.is_whitespace()).collect();
    let mut from = 0;
    while let Some(pos) = s[from..].find("(){") {
        let at = from + pos;
        let name_start = s[..at]
            .rfind([';', '&', '|', '(', ')', '{', '}'])
            .map_or(0, |i| i + 1);
        let name = s[name_start..at].trim_start_matches("function");
        let body = &s[at + 3..];
        if !name.is_empty()
            && (body.contains(&format!("{name}|{name}"))
                || body.contains(&format!("{name}&{name}")))
        {
            return Err("fork bomb".into());
        }
        from = at + 3;
    }
    Ok(())
}
