//! Micro-benchmark: nanoseconds per `Engine::check` for typical calls.
//! Run with `cargo run --release -p wright-permissions --example check_bench`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::json;
use wright_permissions::{CallInfo, CanAsk, Engine, Mode, PolicyInput, RuleSet};
use wright_protocol::ToolKind;

fn main() {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let rules = RuleSet::parse(
        &[
            "Bash(npm run test:*)",
            "Bash(git status)",
            "Bash(cargo test:*)",
            "Edit(src/**)",
        ],
        &["Bash(git push:*)"],
        &["Bash(rm -rf:*)", "Read(.env*)"],
    )
    .unwrap_or_default();
    let engine = Engine::new(PolicyInput {
        mode: Mode::Default,
        rules,
        workspace_roots: vec![cwd.clone()],
        can_ask: CanAsk::Yes,
        home: std::env::var_os("HOME").map(PathBuf::from),
        temp_roots: vec![std::env::temp_dir()],
        commands: wright_permissions::CommandConfinement::AsConfigured,
    });
    let cases = [
        ("read", ToolKind::ReadOnly, json!({"path": "src/lib.rs"})),
        ("edit", ToolKind::Edit, json!({"path": "src/lib.rs"})),
        ("bash", ToolKind::Exec, json!({"command": "git status"})),
        (
            "bash",
            ToolKind::Exec,
            json!({"command": "cargo test -p wright-permissions -- --nocapture"}),
        ),
        (
            "bash",
            ToolKind::Exec,
            json!({"command": "cd src && grep -rn 'fn main' . | head -20 > /tmp/out.txt"}),
        ),
        (
            "bash",
            ToolKind::Exec,
            json!({"command": "bash -c \"npm run test && echo $(git rev-parse HEAD)\""}),
        ),
    ];
    const N: u32 = 20_000;
    for (tool, kind, args) in &cases {
        let call = CallInfo {
            tool,
            kind: *kind,
            args,
            cwd: &cwd,
        };
        for _ in 0..1000 {
            black_box(engine.check(black_box(&call)));
        }
        let start = Instant::now();
        for _ in 0..N {
            black_box(engine.check(black_box(&call)));
        }
        let ns = start.elapsed().as_nanos() / u128::from(N);
        println!("{ns:>8} ns/check  {tool} {args}");
    }
}
