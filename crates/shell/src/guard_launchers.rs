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
        if deletes && let Some((t, dir)) = starts.iter().find_map(|s| critical(s, ctx)) {
            return Err(format!("find deleting under {t}{}", in_dir(&dir)));
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
                    if let Some((key, value)) = args.get(i + 1).and_then(|kv| kv.split_once('=')) {
                        self.git_alias(key, value, ctx, depth)?;
                    }
                    i += 2;
                }
                "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env" => i += 2,
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
            [key, value, ..] => self.git_alias(key, value, ctx, depth),
            _ => Ok(()),
        }
    }
}
