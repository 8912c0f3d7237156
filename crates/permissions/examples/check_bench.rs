//! Micro-benchmark: nanoseconds per `Engine::check` for typical calls.
//! Run with `cargo run --release -p wright-permissions --example check_bench`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use wright_permissions::{CallInfo, CanAsk, Engine, Mode, PolicyInput, RuleSet};
use wright_protocol::Touches;

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
        ("Read", Touches::read("src/lib.rs")),
        ("Edit", Touches::write("src/lib.rs")),
        ("Bash", Touches::command("git status")),
        (
            "Bash",
            Touches::command("cargo test -p wright-permissions -- --nocapture"),
        ),
        (
            "Bash",
            Touches::command("cd src && grep -rn 'fn main' . | head -20 > /tmp/out.txt"),
        ),
        (
            "Bash",
            Touches::command("bash -c \"npm run test && echo $(git rev-parse HEAD)\""),
        ),
    ];
    const N: u32 = 20_000;
    for (tool, touches) in &cases {
        let call = CallInfo {
            tool,
            touches,
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
        println!("{ns:>8} ns/check  {tool} {touches:?}");
    }
}
