use super::*;

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;

#[cfg(unix)]
#[test]
fn new_files_are_private_whatever_the_umask_and_old_modes_are_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("config.toml");
    // The umask is process-wide; it is lowered only around this one write.
    let old = unsafe_umask(0);
    let r = replace_file(&file, b"a = 1\n");
    unsafe_umask(old);
    r.unwrap();
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    replace_file(&file, b"a = 2\n").unwrap();
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a = 2\n");
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1);
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn unsafe_umask(mask: u32) -> u32 {
    // SAFETY: umask only swaps the process's mask and cannot fail.
    unsafe { libc::umask(mask as libc::mode_t) as u32 }
}

#[cfg(unix)]
#[test]
fn a_symlink_at_the_target_is_refused_and_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let link = tmp.path().join("config.toml");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let e = replace_file(&link, b"evil").unwrap_err();
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // The old predictable temp name planted as a symlink is never used.
    let planted = tmp.path().join("other.toml");
    std::os::unix::fs::symlink(&victim, tmp.path().join("other.toml.tmp")).unwrap();
    replace_file(&planted, b"x").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
}
