//! Installing wright: `--version`'s stamp and the npm package packed,
//! installed from its tarballs (offline) and run.

use std::process::Command;

/// `wright --version` names the version, the commit and the build date.
#[test]
fn version_names_commit_and_build_date() {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wright"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.trim();
    let prefix = format!("wright {} (", env!("CARGO_PKG_VERSION"));
    assert!(line.starts_with(&prefix), "{line}");
    let inner = line[prefix.len()..].trim_end_matches(')');
    let (commit, date) = inner.split_once(' ').unwrap();
    assert!(
        commit == "unknown" || commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{line}"
    );
    let parts: Vec<&str> = date.split('-').collect();
    assert_eq!(parts.len(), 3, "{line}");
    assert!(parts.iter().all(|p| p.parse::<u32>().is_ok()), "{line}");
}

/// `npm/pack-local.sh` packs the launcher and this platform's package,
/// installs both from the tarballs into a temporary prefix with no network,
/// and runs `wright --version` through the launcher.
#[test]
fn npm_package_installs_from_its_tarballs() {
    let has = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !has("npm") || !has("node") {
        eprintln!("skipped: npm not found");
        return;
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../npm/pack-local.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_wright"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with(&format!("wright {} (", env!("CARGO_PKG_VERSION"))),
        "{stdout}"
    );
}
