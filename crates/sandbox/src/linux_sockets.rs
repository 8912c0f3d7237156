//! With the network off, the host's Unix sockets and IPC objects are out of
//! a command's reach: a pathname socket is a door to the service behind it
//! (Docker's or Podman's daemon is root on the host, the ssh-agent signs
//! with the user's keys, the D-Bus session bus and `systemd --user` start
//! programs outside the sandbox, a tmux or kitty socket types into the
//! user's terminal), and a read-only mount does not stop `connect`.
//!
//! Landlock's Unix-socket right (ABI 9, Linux 7.1) confines `connect` to
//! the writable roots; on every kernel the mount namespace also covers the
//! sockets that exist when the command starts, outside the workspace, with
//! an empty read-only file (see [`outside_sockets`]): those in the runtime
//! directories (`/run`, `/var/run`, `$XDG_RUNTIME_DIR`), the temp dirs
//! (`/tmp/.X11-unix`, `tmux-*`, `ssh-*` first, then a bounded search), a
//! shallow search of HOME (`~/.docker/run`, `~/.colima`, `~/.rd`), and what
//! the socket variables ([`crate::SOCKET_VARS`]) name. `/dev/shm` (POSIX
//! shared memory) becomes a tmpfs of the sandbox's own, and `/dev/mqueue`
//! the IPC namespace's.
//!
//! Covering cannot reach a socket a host process creates after the command
//! started, so before Landlock ABI 9 the seccomp filter refuses new Unix
//! sockets altogether with the network off (see [`crate::linux_seccomp`]).
//! Where Landlock confines `connect`, sockets in the workspace roots (a
//! project's own dev server) stay reachable, and so does every socket the
//! command creates there; elsewhere they are once `allow_sockets` lists
//! any socket (the user's opt-in, which accepts late sockets too).
//!
//! `[sandbox] allow_sockets = [...]` in config (a project's entries only
//! once it is trusted) reopens named sockets, through
//! [`crate::SandboxPolicy::allow_sockets`].

use std::collections::VecDeque;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// Runtime directories searched deeply: daemons put their sockets here.
const RUNTIME_DIRS: &[&str] = &["/run", "/var/run"];

/// Temp dirs searched less deeply (anyone can fill them with files).
const TEMP_DIRS: &[&str] = &["/tmp", "/var/tmp"];

/// Directories in the temp dirs that hold other programs' sockets, looked
/// at before the bounded search so a flood of files cannot hide them:
/// X11's, tmux's, ssh-agent's, screen's, GNOME's ICE.
const TEMP_SOCKET_DIRS: &[&str] = &[".X11-unix", ".ICE-unix", "tmux-", "ssh-", "screen", "emacs"];

/// How many entries each search reads at most.
const BUDGET: usize = 20_000;

/// Directories of HOME never searched: large, and no daemon's.
const HOME_SKIP: &[&str] = &[
    "node_modules",
    ".git",
    ".cargo",
    ".rustup",
    ".npm",
    ".cache",
    ".local",
    "go",
    ".m2",
    ".gradle",
];

/// The Unix sockets a command should not reach, found now: see the module
/// doc. `keep` are the workspace roots (sockets beneath them stay), `home`
/// is searched shallowly, `named` are the paths the socket variables name.
pub(crate) fn outside_sockets(
    keep: &[PathBuf],
    home: Option<&Path>,
    runtime_dir: Option<&Path>,
    named: &[PathBuf],
    allowed: &[PathBuf],
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut search = |roots: Vec<PathBuf>, depth: usize, skip: &[&str]| {
        find_sockets(roots, depth, BUDGET, skip, keep, &mut out);
    };
    let mut runtime: Vec<PathBuf> = RUNTIME_DIRS
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
        .collect();
    runtime.extend(runtime_dir.map(Path::to_path_buf));
    search(runtime, 6, &[]);
    let temp: Vec<PathBuf> = TEMP_DIRS
        .iter()
        .map(PathBuf::from)
        .chain(std::iter::once(std::env::temp_dir()))
        .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
        .collect();
    let known: Vec<PathBuf> = temp
        .iter()
        .filter_map(|t| std::fs::read_dir(t).ok())
        .flat_map(|rd| rd.flatten())
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            TEMP_SOCKET_DIRS.iter().any(|p| name.starts_with(p))
                && e.file_type().is_ok_and(|t| t.is_dir())
        })
        .map(|e| e.path())
        .collect();
    search(known, 2, &[]);
    search(temp, 3, &[]);
    if let Some(home) = home {
        search(vec![home.to_path_buf()], 4, HOME_SKIP);
    }
    // A variable may name a directory of sockets as well as one socket.
    let named_dirs: Vec<PathBuf> = named
        .iter()
        .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
        .cloned()
        .collect();
    search(named_dirs, 3, &[]);
    out.extend(
        named
            .iter()
            .filter(|p| {
                !under(p, keep)
                    && p.symlink_metadata()
                        .is_ok_and(|m| m.file_type().is_socket())
            })
            .cloned(),
    );
    out.retain(|s| !allowed.iter().any(|a| a == s));
    out.sort();
    out.dedup();
    out
}

fn under(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|r| path.starts_with(r))
}

/// Breadth-first search of `roots` to `depth` for socket files, reading at
/// most `budget` entries, never following links, never entering `keep`.
fn find_sockets(
    roots: Vec<PathBuf>,
    depth: usize,
    mut budget: usize,
    skip: &[&str],
    keep: &[PathBuf],
    out: &mut Vec<PathBuf>,
) {
    let mut queue: VecDeque<(PathBuf, usize)> = roots.into_iter().map(|r| (r, 0)).collect();
    while let Some((dir, level)) = queue.pop_front() {
        if under(&dir, keep) || matches!(dir.to_str(), Some("/proc" | "/sys")) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if budget == 0 {
                return;
            }
            budget -= 1;
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_socket() {
                if !under(&path, keep) {
                    out.push(path);
                }
            } else if kind.is_dir() && level + 1 < depth {
                let name = entry.file_name();
                if !skip.iter().any(|s| name == *s) {
                    queue.push_back((path, level + 1));
                }
            }
        }
    }
}

/// The absolute paths a socket variable's value names: `unix:path=/a,x=y`
/// (D-Bus), `unix:///a` (Docker), `/a,123,0` (tmux), `/a:1:1` (GnuPG),
/// `unix:/a` (kitty, PulseAudio), or a bare path.
pub(crate) fn paths_in_value(value: &str) -> Vec<PathBuf> {
    value
        .split([',', ';', '=', ' '])
        .flat_map(|part| {
            let part = part
                .strip_prefix("unix://")
                .or_else(|| part.strip_prefix("unix:"))
                .unwrap_or(part);
            // GnuPG's `path:pid:1`; a path with a colon in it is rare.
            [
                part.to_owned(),
                part.split(':').next().unwrap_or("").to_owned(),
            ]
        })
        .filter(|p| p.starts_with('/'))
        .map(PathBuf::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn socket_variables_name_their_paths() {
        let want = |v: &str, p: &str| {
            assert!(
                paths_in_value(v).contains(&PathBuf::from(p)),
                "{v}: {:?}",
                paths_in_value(v)
            );
        };
        want(
            "unix:path=/run/user/1000/bus,guid=abc",
            "/run/user/1000/bus",
        );
        want("unix:///var/run/docker.sock", "/var/run/docker.sock");
        want("/tmp/tmux-1000/default,1234,0", "/tmp/tmux-1000/default");
        want(
            "/run/user/1000/gnupg/S.gpg-agent:0:1",
            "/run/user/1000/gnupg/S.gpg-agent",
        );
        want("unix:/tmp/kitty-123", "/tmp/kitty-123");
        want("/tmp/ssh-XXXX/agent.1", "/tmp/ssh-XXXX/agent.1");
        assert!(paths_in_value("tcp://127.0.0.1:2375").is_empty());
        assert!(paths_in_value("wayland-0").is_empty());
    }

    #[test]
    fn sockets_are_found_outside_the_kept_roots_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let ws = root.join("ws");
        let svc = root.join("run/svc");
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(&svc).unwrap();
        let _a = std::os::unix::net::UnixListener::bind(svc.join("d.sock")).unwrap();
        let _b = std::os::unix::net::UnixListener::bind(ws.join("own.sock")).unwrap();
        std::fs::write(svc.join("plain"), "").unwrap();
        let mut out = Vec::new();
        find_sockets(
            vec![root.clone()],
            4,
            100,
            &[],
            std::slice::from_ref(&ws),
            &mut out,
        );
        assert_eq!(out, vec![svc.join("d.sock")]);
        let mut shallow = Vec::new();
        find_sockets(vec![root.clone()], 1, 100, &[], &[], &mut shallow);
        assert_eq!(shallow, Vec::<PathBuf>::new(), "depth bounds the search");
    }
}
