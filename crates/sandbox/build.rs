//! Build script: stamps the crate with a hash of everything the sandbox
//! helper's behaviour is built from (this crate's manifest and sources, the
//! workspace's manifest and lock file, the version), exported to the code as
//! `WRIGHT_SANDBOX_STAMP` (`wright_sandbox::BUILD`).
//!
//! `wright` passes its stamp to the small `wright-sandbox` helper beside it;
//! a helper whose own stamp differs was built from other sources (a
//! `cargo run --bin wright` that relinked only `wright`, or a hand-copied
//! file) and hands the command to `wright` itself instead of confining it
//! with other code. A hash of the sources, not a time, so that a build
//! with the same toolchain gives the same stamp.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut hasher = std::hash::DefaultHasher::new();
    hasher.write(
        std::env::var("CARGO_PKG_VERSION")
            .unwrap_or_default()
            .as_bytes(),
    );
    let mut files = vec![dir.join("Cargo.toml"), dir.join("build.rs")];
    list_files(&dir.join("src"), &mut files);
    // In a workspace checkout the lock file pins landlock, seccompiler and
    // the rest; a registry build has none beside it and stamps the rest.
    for shared in ["../../Cargo.lock", "../../Cargo.toml"] {
        let path = dir.join(shared);
        if path.is_file() {
            println!("cargo:rerun-if-changed={}", path.display());
            files.push(path);
        }
    }
    files.sort();
    for file in &files {
        let name = file.strip_prefix(&dir).unwrap_or(file);
        let text = std::fs::read(file).unwrap_or_default();
        // Lengths first, so that no two different file lists hash alike.
        hasher.write_usize(name.as_os_str().len());
        hasher.write(name.to_string_lossy().as_bytes());
        hasher.write_usize(text.len());
        hasher.write(&text);
    }
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    println!(
        "cargo:rustc-env=WRIGHT_SANDBOX_STAMP={:016x}",
        hasher.finish()
    );
}

fn list_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            list_files(&path, out);
        } else {
            out.push(path);
        }
    }
}
