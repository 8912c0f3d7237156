//! Writes to disk devices: any program but a known reader given a block
//! device (`/dev/sd*`, `/dev/nvme*`, `/dev/loop*`, `/dev/mapper/*`, …, also
//! as `of=`-style values and through a link the line creates), any
//! redirection onto one, and the programs that format a file system
//! whatever they are given. A device path the guard cannot spell out
//! (`/dev/$D`, `/dev/sd?`) counts as a disk.

use super::*;

/// Names under `/dev/` that are block devices (or their directories).
const DISK_PREFIXES: &[&str] = &[
    "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop",
    "nbd", "sr", "sg", "ram", "zram", "rbd", "mtd", "dasd", "ubd", "block/", "bsg/", "nvm",
];

/// Programs that only read what they are given: a disk device among their
/// arguments is not written (`lsblk /dev/sda`, `cat /dev/sda > img`).
const READERS: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "od",
    "xxd",
    "hexdump",
    "hd",
    "strings",
    "file",
    "stat",
    "ls",
    "lsblk",
    "blkid",
    "wc",
    "cmp",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "echo",
    "printf",
    "test",
    "[",
    "readlink",
    "realpath",
    "udevadm",
    "findmnt",
    "df",
    "du",
    "dd",
];

/// Programs that make a file system or swap area on what they are given.
pub(super) fn formats(name: &str) -> bool {
    name == "mkfs"
        || name.starts_with("mkfs.")
        || matches!(
            name,
            "mke2fs" | "mke4fs" | "mkswap" | "mkdosfs" | "mkntfs" | "mkexfatfs" | "mformat"
        )
}

/// Whether `path` may be a disk device: spelled as one after lexical
/// normalization, or computed or globbed under `/dev/`.
pub(super) fn is_disk_device(path: &str) -> bool {
    if !path.starts_with('/') {
        return false;
    }
    let n = normalize(path);
    let [dev, rest @ ..] = n.comps.as_slice() else {
        return false;
    };
    if dev != "dev" || rest.is_empty() {
        return false;
    }
    let name = rest.join("/");
    DISK_PREFIXES.iter().any(|p| name.starts_with(p))
        || name.contains(['$', '*', '?', '['])
        || has_marker(&name)
}

impl Guard {
    /// A disk device, as `word` itself or the value of `key=word`, also
    /// through a link to one that the line creates.
    pub(super) fn is_device(&self, word: &str) -> bool {
        let value = word.split_once('=').map(|(_, v)| v);
        [Some(word), value].into_iter().flatten().any(|w| {
            is_disk_device(w)
                || self
                    .device_links
                    .iter()
                    .any(|l| *l == normalize(w) && !w.is_empty())
        })
    }

    /// Refuses redirections onto a disk device and any program but a
    /// reader given one (the first of `words` that is not a wrapper).
    pub(super) fn check_devices(&self, words: &[String], io: Io<'_>) -> Result<(), String> {
        if let Some(dev) = io.redirects.iter().find(|r| self.is_device(r)) {
            return Err(format!("redirecting output onto disk device {dev}"));
        }
        let run = unwrap(words).0;
        let Some(name) = run.first().map(|w| base_name(w)) else {
            return Ok(());
        };
        if READERS.contains(&name) {
            return Ok(());
        }
        match words.iter().find(|w| self.is_device(w)) {
            Some(dev) => Err(format!("{name} writing to disk device {dev}")),
            None => Ok(()),
        }
    }
}
