//! The guard's look inside commands that launch other commands from their
//! arguments: `find` (`-exec`/`-execdir`/`-ok`/`-okdir`, `-delete` under a
//! critical start), and git, whose aliases (set with `-c alias.x=…` or
//! `git config alias.x …`, `!`-aliases run a shell) are checked where they
//! are defined and where they are used, besides `git push`.

use super::*;

impl Guard {
    pub(super) fn check_find(
        &mut self,
        args: &[String],
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        let mut i = 0;
        while let Some(a) = args.get(i) {
            match a.as_str() {
                "-H" | "-L" | "-P" => i += 1,
                "-D" => i += 2,
                s if s.starts_with("-O") => i += 1,
                _ => break,
            }
        }
        let rest = &args[i.min(args.len())..];
        let n = rest
            .iter()
            .position(|a| a.starts_with('-') || matches!(a.as_str(), "(" | "!" | ")" | ","))
            .unwrap_or(rest.len());
        let dot = [".".to_owned()];
        let starts = if n == 0 { &dot[..] } else { &rest[..n] };
        let expr = &rest[n..];
        let mut deletes = false;
        let mut j = 0;
        while let Some(a) = expr.get(j) {
            if a == "-delete" {
                deletes = true;
            } else if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                let end = expr[j + 1..]
                    .iter()
                    .position(|w| w == ";" || w == "+")
                    .map_or(expr.len(), |p| j + 1 + p);
                let cmd = &expr[j + 1..end];
                let run = unwrap(cmd).0;
                if run
                    .first()
                    .is_some_and(|c| matches!(base_name(c), "rm" | "shred" | "unlink"))
                {
                    deletes = true;
                }
                self.check_simple(cmd, Io::default(), ctx, depth)?;
                j = end;
            }
            j += 1;
        }
        if deletes {
            for s in starts {
                self.judge(Op::destroys("find deleting under"), s, ctx)?;
            }
        }
        Ok(())
    }

    pub(super) fn check_git(
        &mut self,
        args: &[String],
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err("command nesting is too deep to check".into());
        }
        let mut i = 0;
        while let Some(a) = args.get(i) {
            match a.as_str() {
                "-c" => {
                    let kv = args.get(i + 1).map(String::as_str).unwrap_or_default();
                    let (key, value) = kv.split_once('=').unwrap_or((kv, "true"));
                    check_push_config(key, Some(value), "git -c")?;
                    self.git_alias(key, value, ctx, depth)?;
                    i += 2;
                }
                "--config-env" => {
                    let kv = args.get(i + 1).map(String::as_str).unwrap_or_default();
                    let key = kv.split_once('=').map_or(kv, |(k, _)| k);
                    check_push_config(key, None, "git --config-env")?;
                    i += 2;
                }
                s if s.starts_with("--config-env=") => {
                    let kv = &s["--config-env=".len()..];
                    let key = kv.split_once('=').map_or(kv, |(k, _)| k);
                    check_push_config(key, None, "git --config-env")?;
                    i += 1;
                }
                "-C" | "--git-dir" | "--work-tree" | "--namespace" => i += 2,
                s if s.starts_with('-') => i += 1,
                _ => break,
            }
        }
        let Some(sub) = args.get(i) else {
            return Ok(());
        };
        let rest = &args[i + 1..];
        match sub.as_str() {
            "push" => check_push(rest),
            "send-pack" | "http-push" => check_send_pack(sub, rest),
            "remote" if rest.iter().any(|a| a.starts_with("--mirror")) => {
                Err("git remote --mirror makes every push overwrite and delete remote refs".into())
            }
            "config" => self.check_git_config(rest, ctx, depth),
            _ => {
                let lname = sub.to_ascii_lowercase();
                let values: Vec<String> = self
                    .aliases
                    .iter()
                    .filter(|(n, _)| *n == lname)
                    .map(|(_, v)| v.clone())
                    .collect();
                for v in values {
                    self.check_alias_use(&v, rest, ctx, depth)
                        .map_err(|e| format!("git alias {sub}: {e}"))?;
                }
                Ok(())
            }
        }
    }

    /// Checks running alias `value` with `rest` as its arguments.
    fn check_alias_use(
        &mut self,
        value: &str,
        rest: &[String],
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        if let Some(shell) = value.strip_prefix('!') {
            let script = std::iter::once(shell.to_owned())
                .chain(rest.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ");
            return self.check(&script, &mut ctx.clone(), depth + 1);
        }
        let mut words: Vec<String> = lex(value)
            .commands
            .into_iter()
            .flat_map(|c| c.words)
            .collect();
        words.extend(rest.iter().cloned());
        self.check_git(&words, ctx, depth + 1)
    }

    /// Checks and records `alias.NAME` = `value`.
    fn git_alias(
        &mut self,
        key: &str,
        value: &str,
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        let key = key.to_ascii_lowercase();
        let Some(name) = key.strip_prefix("alias.") else {
            return Ok(());
        };
        self.check_alias_use(value, &[], ctx, depth)
            .map_err(|e| format!("git alias {name}: {e}"))?;
        self.aliases.push((name.to_owned(), value.to_owned()));
        Ok(())
    }

    fn check_git_config(
        &mut self,
        args: &[String],
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        let mut pos: Vec<&String> = Vec::new();
        let mut i = 0;
        while let Some(a) = args.get(i) {
            i += 1;
            match a.as_str() {
                "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment" | "--value" => {
                    i += 1;
                }
                "--" => {
                    pos.extend(&args[i..]);
                    break;
                }
                s if s.starts_with('-') => {}
                _ => pos.push(a),
            }
        }
        if pos.first().is_some_and(|p| p.as_str() == "set") {
            pos.remove(0);
        }
        match pos.as_slice() {
            [key, value, ..] => {
                check_push_config(key, Some(value), "git config")?;
                self.git_alias(key, value, ctx, depth)
            }
            _ => Ok(()),
        }
    }
}

/// `push.*` settings that cannot make a push force-update or delete refs.
const HARMLESS_PUSH_KEYS: &[&str] = &[
    "push.default",
    "push.autosetupremote",
    "push.followtags",
    "push.gpgsign",
    "push.pushoption",
    "push.recursesubmodules",
    "push.usebitmaps",
    "push.negotiate",
    "push.useforceifincludes",
];

/// Refuses configuration that makes a push a mirror or forced:
/// `remote.X.mirror`, a `remote.X.push` refspec with `+` or deleting (`:x`),
/// any `push.*` not known harmless. `value` is `None` when it comes from
/// the environment (`--config-env`), unknown to the guard.
pub(super) fn check_push_config(key: &str, value: Option<&str>, how: &str) -> Result<(), String> {
    let key = key.to_ascii_lowercase();
    let refused = if let Some(rest) = key.strip_prefix("remote.") {
        if rest.ends_with(".mirror") {
            value.is_none_or(|v| {
                !matches!(
                    v.to_ascii_lowercase().as_str(),
                    "false" | "no" | "off" | "0"
                )
            })
        } else if rest.ends_with(".push") {
            value.is_none_or(|v| v.starts_with('+') || (v.starts_with(':') && v.len() > 1))
        } else {
            false
        }
    } else {
        key.starts_with("push.") && !HARMLESS_PUSH_KEYS.contains(&key.as_str())
    };
    if refused {
        return Err(format!(
            "{how} {key} can make a push force-update or delete remote refs (treated like git push --force; use --force-with-lease)"
        ));
    }
    Ok(())
}

/// `git send-pack`/`git http-push`: forcing, mirroring, pushing all refs,
/// deleting or a `+`/`:` refspec is refused like `git push --force`.
pub(super) fn check_send_pack(sub: &str, args: &[String]) -> Result<(), String> {
    for a in args {
        let refused = matches!(
            a.as_str(),
            "--force" | "-f" | "--mirror" | "--all" | "-d" | "-D" | "--delete"
        ) || (a.starts_with('+') && a.len() > 1)
            || (a.starts_with(':') && a.len() > 1);
        if refused {
            return Err(format!(
                "git {sub} {a} can force-update or delete remote refs (treated like git push --force)"
            ));
        }
    }
    Ok(())
}

/// Git configuration given in the environment (`GIT_CONFIG_PARAMETERS`,
/// `GIT_CONFIG_KEY_n`, `GIT_CONFIG_GLOBAL`, …) that may make a push a
/// mirror or forced.
pub(super) fn check_git_env(words: &[String]) -> Result<(), String> {
    for w in words {
        let Some((name, value)) = w.split_once('=') else {
            continue;
        };
        if !name.starts_with("GIT_CONFIG") {
            continue;
        }
        let v = value.to_ascii_lowercase();
        // A config file the guard cannot read may say anything.
        let file = matches!(
            name,
            "GIT_CONFIG" | "GIT_CONFIG_GLOBAL" | "GIT_CONFIG_SYSTEM"
        );
        if v.contains("mirror")
            || v.contains(".push")
            || v.starts_with("push.")
            || v.contains("'push.")
            || (file
                && words
                    .iter()
                    .any(|x| matches!(x.as_str(), "push" | "send-pack" | "http-push")))
        {
            return Err(format!(
                "git configuration from the environment ({name}) can make a push force-update or delete remote refs"
            ));
        }
    }
    Ok(())
}
