//! The guard with a [`Place`]: every class of target issue 36 lists,
//! and the workspace, its ancestors and the home named absolutely or
//! through a link, refused; ordinary deletes inside the workspace allowed.

use super::super::check_command_at;
use super::*;

/// A home `T/home` and a workspace `T/outer/ws` (the start directory)
/// holding `build/`, a link `toroot` to `/` and `tohome` to the home.
struct Fx {
    _dir: tempfile_free::Dir,
    t: String,
    place: Place,
}

/// A temp directory without a dev-dependency: removed on drop.
mod tempfile_free {
    use std::path::PathBuf;

    pub struct Dir(pub PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn fx() -> Fx {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let t = std::env::temp_dir().join(format!(
        "wright-guard-place-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let ws = t.join("outer/ws");
    let home = t.join("home");
    std::fs::create_dir_all(ws.join("build")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/", ws.join("toroot")).unwrap();
        std::os::unix::fs::symlink(&home, ws.join("tohome")).unwrap();
    }
    Fx {
        t: t.to_string_lossy().into_owned(),
        place: Place {
            cwd: ws.clone(),
            roots: vec![ws],
            home: Some(home),
        },
        _dir: tempfile_free::Dir(t),
    }
}

fn refused_at(fx: &Fx, cases: &[(&str, &str)]) -> Vec<String> {
    cases
        .iter()
        .map(|(class, cmd)| (class, cmd.replace("{T}", &fx.t)))
        .filter_map(|(class, cmd)| {
            check_command_at(&cmd, &fx.place)
                .is_ok()
                .then(|| format!("{class}: {cmd}"))
        })
        .collect()
}

/// Issue 36 part 6's classes, one row each or more, checked with the
/// place known (the way the tools check): none gets through.
const CLASSES: &[(&str, &str)] = &[
    ("user tilde", "rm -rf ~root"),
    ("user tilde", "chmod -R 777 ~nobody/"),
    ("~+", "rm -rf ~+"),
    ("~+", "rm -rf ~+/*"),
    ("~-", "mv ~- /tmp/x"),
    ("braces into /", "rm -rf /{etc,usr}"),
    ("braces into /", "rm -rf {/,build}"),
    ("braces into HOME", "rm -rf ~/{,.}*"),
    ("braces into HOME", "rm -rf {~,build}"),
    ("braces into HOME", "rm -rf {T}/{home,x}"),
    ("$(pwd)", "rm -rf $(pwd)"),
    ("$(pwd)", "rm -rf \"`pwd`\""),
    ("$(dirname $PWD)", "rm -rf \"$(dirname $PWD)\""),
    ("$(dirname $PWD)", "chown -R nobody $(dirname \"$PWD\")"),
    ("cd $X && rm -rf *", "cd \"$X\" && rm -rf *"),
    ("cd $X && rm -rf *", "cd $(dirname $PWD) && rm -rf *"),
    ("cd $X && rm -rf *", "cd {T} && rm -rf *"),
    ("$HOME", "rm -rf $HOME"),
    ("$HOME", "rm -rf \"${HOME}\"/*"),
    ("$HOME", "rm -rf ${HOME%/*}"),
    ("read", "read X; rm -rf \"$X\""),
    ("read", "X=build; read -r X; rm -rf $X"),
    ("printf -v", "X=build; printf -v X / ; rm -rf $X"),
    ("loop variable", "for d in / ~; do rm -rf $d; done"),
    ("loop variable", "for d in $(ls /); do rm -rf /$d; done"),
    ("$OLDPWD", "rm -rf $OLDPWD"),
    ("$OLDPWD", "cd $OLDPWD && rm -rf ./*"),
    ("link to / then delete", "ln -s / x && rm -rf x/"),
    ("link to / then delete", "rm -rf toroot/"),
    ("link to / then delete", "chmod -R 777 toroot"),
    ("link to / then delete", "rm -rf toroot/etc"),
    ("link to / then delete", "rm -rf tohome/"),
    ("block device", "cat img | tee /dev/sda"),
    ("block device", "cp img /dev/nvme0n1"),
    ("block device", "pv img > /dev/vdb"),
    ("mke2fs", "mke2fs /dev/sdb1"),
    ("mke2fs", "mke2fs -t ext4 disk.img"),
    ("send-pack --force", "git send-pack --force origin main"),
    ("mirror push", "git -c remote.origin.mirror=true push"),
    ("mirror push", "git -c Remote.Origin.Mirror=yes push origin"),
    ("rsync --delete into HOME", "rsync -a --delete src/ ~/"),
    (
        "rsync --delete into HOME",
        "rsync -a --delete src/ {T}/home",
    ),
    ("mv ~ elsewhere", "mv ~ /tmp/x"),
    ("mv ~ elsewhere", "mv {T}/home /tmp/x"),
    // The workspace, its ancestors and the home, named literally.
    ("workspace", "rm -rf {T}/outer/ws"),
    ("workspace", "rm -rf {T}/outer/ws/"),
    ("workspace", "rm -rf {T}/outer/ws/."),
    ("workspace", "rm -rf {T}/outer/ws/build/.."),
    ("workspace", "mv {T}/outer/ws /tmp/gone"),
    ("workspace", "find {T}/outer/ws -delete"),
    ("workspace", "chmod -R 000 {T}/outer/ws"),
    ("workspace", "rsync -a --delete /tmp/empty/ {T}/outer/ws"),
    ("workspace", "cd {T}/outer && rm -rf ws"),
    ("ancestor", "rm -rf {T}/outer"),
    ("ancestor", "rm -rf {T}"),
    ("ancestor", "rm -rf {T}/*"),
    ("ancestor", "rm -rf {T}/out*"),
    ("ancestor", "rm -rf {T}/outer/*"),
    ("ancestor", "chown -R nobody {T}/outer"),
    ("home", "rm -rf {T}/home"),
    ("home", "rm -rf {T}/home/*"),
    ("home", "rm -rf {T}/home/.*"),
    ("home", "chmod -R 000 tohome"),
    ("home", "cd {T}/home && rm -rf *"),
];

#[test]
fn every_class_is_refused_where_the_place_is_known() {
    let fx = fx();
    let missed = refused_at(&fx, CLASSES);
    assert!(missed.is_empty(), "should block: {missed:#?}");
}

#[test]
fn ordinary_deletes_inside_the_workspace_stay_allowed() {
    let fx = fx();
    let allowed = [
        "rm -rf build",
        "rm -rf build/",
        "rm -rf ./build {T}/outer/ws/build",
        "rm -rf {T}/outer/ws/*",
        "rm -rf *",
        "rm -rf .",
        "chmod -R 755 .",
        "find . -name '*.o' -delete",
        "rm -rf toroot",
        "rm -rf /tmp/wright-guard-elsewhere",
        "rm -rf ~/.cache/pip",
        "rm -rf tohome/.cache",
        "rm -rf {T}/home/.cache",
        "mv build {T}/outer/ws/build2",
        "mv x.txt {T}/home/",
        "rsync -a --delete build/ dist/",
        "cd build && rm -rf *",
    ];
    let refused: Vec<(String, String)> = allowed
        .iter()
        .map(|c| c.replace("{T}", &fx.t))
        .filter_map(|c| check_command_at(&c, &fx.place).err().map(|e| (c, e)))
        .collect();
    assert!(refused.is_empty(), "should allow: {refused:#?}");
}

#[test]
fn the_reason_names_the_place_and_the_way_out() {
    let fx = fx();
    let why = check_command_at(&format!("rm -rf {}/outer", fx.t), &fx.place).unwrap_err();
    assert!(why.contains("an ancestor of the workspace"), "{why}");
    assert!(why.contains("literally"), "{why}");
    let why = check_command_at("rm -rf toroot/", &fx.place).unwrap_err();
    assert!(why.contains("(/)"), "the real target is shown: {why}");
    // Without the place, the spelling alone cannot tell.
    assert_eq!(check_command(&format!("rm -rf {}/outer", fx.t)), Ok(()));
}
