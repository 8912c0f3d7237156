//! Where the kernel will not make the namespaces, the helper still confines
//! the command, with Landlock and seccomp alone, and says so.

use std::process::Command;

use wright_sandbox::{HELPER_ARG, REPORT_ENV, REPORT_PREFIX, SandboxPolicy};

use super::{HELPER, dirs, supported};

/// Inside a user namespace that maps no id (`unshare --user`), creating
/// another one is refused: the helper's `clone` into new namespaces fails
/// and nothing has changed, so it goes on without them.
#[test]
fn without_namespaces_the_command_still_runs_confined() {
    if !supported("without_namespaces") {
        return;
    }
    let Some(d) = dirs() else { return };
    let unmapped = Command::new("unshare").args(["--user", "true"]).output();
    if !unmapped.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED without_namespaces: `unshare --user` is not available here");
        return;
    }
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()])
        .to_json()
        .unwrap();
    let script = format!(
        "touch inside && touch '{}/outside'; echo done",
        d.sibling.display()
    );
    let out = Command::new("unshare")
        .arg("--user")
        .arg(HELPER)
        .args([HELPER_ARG, &policy, "--", "sh", "-c", &script])
        .env(REPORT_ENV, "1")
        .current_dir(&d.ws)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "done\n", "{stderr}");
    assert!(d.ws.join("inside").exists(), "{stderr}");
    assert!(!d.sibling.join("outside").exists(), "{stderr}");
    assert_confined_without_namespaces(&stderr);
}

/// The helper's report in `output` says Landlock and seccomp, and no
/// namespaces.
fn assert_confined_without_namespaces(output: &str) {
    let report = output
        .lines()
        .find_map(|l| l.strip_prefix(REPORT_PREFIX))
        .unwrap_or_else(|| panic!("no report: {output}"));
    let report: serde_json::Value = serde_json::from_str(report).unwrap();
    assert_eq!(report["namespaces"], serde_json::Value::Null, "{report}");
    assert_eq!(report["landlock"], true, "{report}");
    assert_eq!(report["seccomp"], true, "{report}");
}

/// Inside a confined command, with the variable that marks it removed, a
/// nested helper's `clone` into new namespaces succeeds but Landlock keeps
/// init from writing its id maps: init says so, and the nested helper goes
/// on without namespaces, still inside the outer sandbox.
#[test]
fn a_nested_helper_refused_its_id_maps_goes_on_without_namespaces() {
    if !supported("nested_without_maps") {
        return;
    }
    let Some(d) = dirs() else { return };
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    std::fs::write(d.ws.join("policy.json"), policy.to_json().unwrap()).unwrap();
    let script = format!(
        "env -u WRIGHT_SANDBOXED {REPORT_ENV}=1 {HELPER} {HELPER_ARG} \"$(cat policy.json)\" -- \
         sh -c 'touch inner; echo inner done'",
    );
    let (code, out) = super::run(&policy, &script, &d.ws);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("inner done"), "{out}");
    assert!(d.ws.join("inner").exists(), "{out}");
    assert_confined_without_namespaces(&out);
}
