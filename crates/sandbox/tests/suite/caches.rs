//! Caches whose contents run later outside any sandbox (npx's packages, uv's
//! tool environments, pre-commit's hooks) are read-only to commands, while
//! the content-addressed stores beside them stay writable. Judged by effect:
//! the planted file is unchanged, the store's new entry exists.

use std::path::Path;

use wright_sandbox::SandboxPolicy;
use wright_sandbox::policy::writable_caches;

use super::{dirs, run, supported};

#[test]
fn caches_that_run_later_cannot_be_planted() {
    if !supported("caches") {
        return;
    }
    let Some(d) = dirs() else { return };
    let home = d.sibling.join("home");
    let cache = home.join(".cache");
    let runs_later = [
        ".npm/_npx/abc/node_modules/srv/index.js",
        ".cache/pre-commit/repoX/hook.py",
        ".cache/uv/archive-v0/h1/pkg/__init__.py",
        ".cache/uv/environments-v2/e/bin/python",
        ".local/share/uv/tools/ruff/bin/ruff",
        ".cache/go-build/00/abc-d",
    ];
    for f in runs_later {
        let p = home.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "keep").unwrap();
    }
    for store in [".npm/_cacache", ".cache/uv/wheels-v5", ".cache/pip/http-v2"] {
        std::fs::create_dir_all(home.join(store)).unwrap();
    }
    let mut roots = vec![d.ws.clone()];
    roots.extend(writable_caches(&home, &home.join(".cargo"), &cache));
    let policy = SandboxPolicy {
        workspace_roots: vec![d.ws.clone()],
        ..SandboxPolicy::workspace_write(roots)
    };
    let writers = [
        "echo bad > {f}",
        "echo bad >> {f}",
        "rm -f {f} && echo bad > {f}",
        "mv {f} {f}.old; echo bad > {f}",
        "cd $(dirname {f}) && echo bad > $(basename {f})",
        "echo bad > {f}.new && mv {f}.new {f}",
        "python3 -c \"open('{f}','w').write('bad')\"",
        "rm -rf $(dirname {f}) && mkdir -p $(dirname {f}) && echo bad > {f}",
    ];
    let mut tried = 0;
    for f in runs_later {
        let p = home.join(f);
        for w in writers {
            let script = w.replace("{f}", &p.display().to_string());
            run(&policy, &script, &d.ws);
            tried += 1;
            let now = std::fs::read_to_string(&p).unwrap_or_default();
            assert_eq!(now, "keep", "planted: {script}");
        }
    }
    assert!(tried >= 48);
    // The content-addressed stores stay writable.
    for store in [".npm/_cacache", ".cache/uv/wheels-v5", ".cache/pip/http-v2"] {
        let p = home.join(store).join("entry");
        let (code, out) = run(&policy, &format!("echo ok > {}", p.display()), &d.ws);
        assert_eq!(code, Some(0), "{store}: {out}");
        assert!(Path::new(&p).exists(), "{store}");
    }
    // Control: unconfined, the first plant lands.
    let p = home.join(runs_later[0]);
    run(
        &SandboxPolicy::full(),
        &writers[0].replace("{f}", &p.display().to_string()),
        &d.ws,
    );
    assert_ne!(std::fs::read_to_string(&p).unwrap(), "keep", "control");
}
