use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::fs::symlink;

use super::*;
use crate::fs_resolve::resolve;

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf, Beneath) {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let ws = base.join("ws");
    let out = base.join("out");
    std::fs::create_dir_all(ws.join("a/b")).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let beneath = Beneath::new([ws.clone()]);
    (dir, ws, out, beneath)
}

fn read(b: &Beneath, p: &Path) -> Result<String, OpenError> {
    let mut s = String::new();
    b.open_read(p)?.read_to_string(&mut s).unwrap();
    Ok(s)
}

#[test]
fn writes_create_parents_and_replace_atomically() {
    let (_d, ws, _out, b) = setup();
    let p = ws.join("new/dir/f.txt");
    b.write(&p, b"one").unwrap();
    assert_eq!(read(&b, &p).unwrap(), "one");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o751)).unwrap();
    b.write(&p, b"two").unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
    let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o751);
    // No temp file left behind.
    assert_eq!(std::fs::read_dir(ws.join("new/dir")).unwrap().count(), 1);
    assert!(matches!(
        b.write(&ws.join("a"), b"x"),
        Err(OpenError::IsDirectory(_))
    ));
    assert!(b.open_read(&ws.join("missing")).unwrap_err().is_not_found());
}

#[test]
fn a_hard_link_is_replaced_not_written_through() {
    let (_d, ws, out, b) = setup();
    std::fs::write(out.join("victim"), "orig").unwrap();
    std::fs::hard_link(out.join("victim"), ws.join("h")).unwrap();
    b.write(&ws.join("h"), b"changed").unwrap();
    assert_eq!(std::fs::read_to_string(out.join("victim")).unwrap(), "orig");
}

#[test]
fn unresolved_paths_are_refused() {
    let (_d, ws, _out, b) = setup();
    assert!(matches!(
        b.write(&ws.join("a/../x"), b""),
        Err(OpenError::NotResolved(_))
    ));
    assert!(matches!(
        b.open_read(Path::new("rel")),
        Err(OpenError::NotResolved(_))
    ));
}

#[test]
fn paths_outside_every_root_open_beneath_slash() {
    let (_d, _ws, out, b) = setup();
    std::fs::write(out.join("f"), "outside").unwrap();
    assert_eq!(read(&b, &out.join("f")).unwrap(), "outside");
    assert_eq!(b.anchor(&out.join("f")).unwrap().0, Path::new("/"));
}

/// Resolve, then swap a component for a symlink before the open: the open
/// must fail, and nothing may be written where the link points.
#[test]
fn a_symlink_swapped_in_after_resolving_makes_the_open_fail() {
    for depth in ["a", "a/b"] {
        let (_d, ws, out, b) = setup();
        std::fs::write(out.join("f.txt"), "outside").unwrap();
        let target = resolve(&ws, &format!("{depth}/f.txt"), None).unwrap().real;
        assert_eq!(target, ws.join(depth).join("f.txt"));
        // The attacker swaps the directory for a link to `out`.
        std::fs::rename(ws.join(depth), ws.join("moved")).unwrap();
        symlink(&out, ws.join(depth)).unwrap();
        assert!(b.write(&target, b"HACKED").is_err(), "{depth}: write");
        assert!(b.open_read(&target).is_err(), "{depth}: read");
        assert_eq!(
            std::fs::read_to_string(out.join("f.txt")).unwrap(),
            "outside"
        );
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1, "{depth}");
    }
}

#[test]
fn a_final_component_swapped_for_a_symlink_is_not_followed() {
    let (_d, ws, out, b) = setup();
    std::fs::write(out.join("f.txt"), "outside").unwrap();
    let target = resolve(&ws, "a/f.txt", None).unwrap().real;
    symlink(out.join("f.txt"), ws.join("a/f.txt")).unwrap();
    assert!(matches!(
        b.write(&target, b"HACKED"),
        Err(OpenError::Symlink(_))
    ));
    assert!(b.open_read(&target).is_err());
    assert_eq!(
        std::fs::read_to_string(out.join("f.txt")).unwrap(),
        "outside"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn the_walk_refuses_symlinks_too() {
    let (_d, ws, out, _b) = setup();
    std::fs::write(out.join("f.txt"), "outside").unwrap();
    symlink(&out, ws.join("l")).unwrap();
    let names = [std::ffi::OsStr::new("l"), std::ffi::OsStr::new("f.txt")];
    let err = imp::open_read_walk(&ws, &names).unwrap_err();
    assert_eq!(err.raw_os_error(), Some(libc::ELOOP));
    std::fs::write(ws.join("a/b/g"), "in").unwrap();
    let names = ["a", "b", "g"].map(std::ffi::OsStr::new);
    assert!(imp::open_read_walk(&ws, &names).is_ok());
}

#[cfg(target_os = "linux")]
#[test]
fn the_portable_fallback_refuses_symlinks_and_writes_atomically() {
    let (_d, ws, out, _b) = setup();
    let a = std::ffi::OsStr::new("a");
    let f = std::ffi::OsStr::new("f.txt");
    portable::write(&ws, &[a, std::ffi::OsStr::new("new")], f, b"one").unwrap();
    assert_eq!(
        std::fs::read_to_string(ws.join("a/new/f.txt")).unwrap(),
        "one"
    );
    symlink(&out, ws.join("l")).unwrap();
    let l = std::ffi::OsStr::new("l");
    assert!(portable::write(&ws, &[l], f, b"HACKED").is_err());
    assert!(portable::open_read(&ws, &[l, f]).is_err());
    symlink(out.join("g"), ws.join("a/g")).unwrap();
    let g = std::ffi::OsStr::new("g");
    assert!(matches!(
        portable::write(&ws, &[a], g, b"HACKED"),
        Ok(portable::Written::Symlink)
    ));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}

#[test]
fn remove_unlinks_beneath_without_following_symlinks() {
    let (_d, ws, out, b) = setup();
    std::fs::write(ws.join("a/f"), "x").unwrap();
    b.remove(&ws.join("a/f")).unwrap();
    assert!(!ws.join("a/f").exists());
    assert!(b.remove(&ws.join("a/f")).unwrap_err().is_not_found());
    // A symlinked parent is refused: nothing outside is removed.
    std::fs::write(out.join("victim"), "keep").unwrap();
    symlink(&out, ws.join("l")).unwrap();
    assert!(matches!(
        b.remove(&ws.join("l/victim")),
        Err(OpenError::Symlink(_) | OpenError::Escape(_))
    ));
    assert_eq!(std::fs::read_to_string(out.join("victim")).unwrap(), "keep");
    // A symlink as the last component is removed itself, not its target.
    symlink(out.join("victim"), ws.join("fl")).unwrap();
    b.remove(&ws.join("fl")).unwrap();
    assert!(std::fs::symlink_metadata(ws.join("fl")).is_err());
    assert_eq!(std::fs::read_to_string(out.join("victim")).unwrap(), "keep");
    // A directory is not removed.
    assert!(matches!(
        b.remove(&ws.join("a")),
        Err(OpenError::IsDirectory(_))
    ));
}

#[test]
fn portable_remove_refuses_a_symlinked_parent() {
    let (_d, ws, out, _b) = setup();
    std::fs::write(out.join("victim"), "keep").unwrap();
    symlink(&out, ws.join("l")).unwrap();
    let (l, f) = (std::ffi::OsStr::new("l"), std::ffi::OsStr::new("victim"));
    assert!(portable::remove(&ws, &[l], f).is_err());
    assert_eq!(std::fs::read_to_string(out.join("victim")).unwrap(), "keep");
    std::fs::write(ws.join("a/g"), "x").unwrap();
    let a = std::ffi::OsStr::new("a");
    portable::remove(&ws, &[a], std::ffi::OsStr::new("g")).unwrap();
    assert!(!ws.join("a/g").exists());
}
