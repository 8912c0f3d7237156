//! Where the shell is: `cd`, `pushd`, `popd` and `chdir` to directories the
//! line spells out, and a directory computed when the command runs
//! ([`UNKNOWN_DIR`]) for every other one (`cd "$X"`, `cd -`, `popd`, after
//! `source`), from which no relative target is known.

use super::*;

/// Tracks `cd`, `pushd` and `popd`: to a directory the line spells out,
/// or to [`UNKNOWN_DIR`]. A sourced script may change directory too.
pub(super) fn change_dir(
    cmd: &Simple,
    variants: &[Vec<String>],
    prev_sep: Sep,
    ctx: &mut Ctx,
    chain_all: &mut Vec<String>,
) -> Result<(), String> {
    let mut targets: Vec<String> = Vec::new();
    let mut any = false;
    let mut sourced = false;
    for argv in variants {
        let argv = unwrap(argv).0;
        let Some(name) = argv.first().map(|w| base_name(w)) else {
            continue;
        };
        if matches!(name, "source" | ".") {
            sourced = true;
            continue;
        }
        if !matches!(name, "cd" | "pushd" | "popd" | "chdir") {
            continue;
        }
        any = true;
        let arg = argv[1..]
            .iter()
            .find(|a| !(a.starts_with('-') && a.len() > 1) || *a == "--")
            .filter(|a| *a != "--")
            .or_else(|| argv[1..].iter().skip_while(|a| *a != "--").nth(1));
        // `popd`, `pushd` alone and `cd -` go back to a directory that may
        // predate the line; `cd "$(…)"` goes where a command says.
        let target = match (name, arg) {
            ("cd" | "chdir", None) => Some("~"),
            (_, Some(a)) if a != "-" && !has_marker(a) => Some(a.as_str()),
            _ => None,
        };
        let target = target.filter(|t| computed(t).is_none() && !t.contains('{'));
        for dir in &ctx.cwd {
            let t = target.map_or_else(|| UNKNOWN_DIR.to_owned(), |t| render(&resolve(dir, t)));
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
    }
    if sourced {
        add_dirs(&mut ctx.cwd, &[UNKNOWN_DIR.to_owned()])?;
        add_dirs(chain_all, &[UNKNOWN_DIR.to_owned()])?;
    }
    if !any {
        return Ok(());
    }
    // `cd X && next`: next runs only where cd succeeded, in this shell.
    if cmd.depth == 0 && cmd.sep == Sep::And && prev_sep != Sep::Pipe {
        ctx.cwd.clear();
    }
    add_dirs(&mut ctx.cwd, &targets)?;
    add_dirs(chain_all, &targets)
}

pub(super) fn add_dirs(set: &mut Vec<String>, new: &[String]) -> Result<(), String> {
    for d in new {
        if !set.contains(d) {
            set.push(d.clone());
        }
    }
    // Below the start a relative target reaches nothing it could not reach
    // from the start itself, so those directories need no tracking.
    if set.iter().any(String::is_empty) {
        set.retain(|d| {
            d.is_empty()
                || d.starts_with(['/', '~'])
                || d.starts_with("..")
                || d.starts_with(UNKNOWN_DIR)
        });
    }
    if set.len() > MAX_DIRS {
        return Err("too many directory changes to check".into());
    }
    Ok(())
}
