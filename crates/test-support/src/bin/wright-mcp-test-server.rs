//! `wright-mcp-test-server`: the MCP test server on stdio.
//!
//! Modes for failure tests: `--hang` never answers initialize;
//! `--exit-early CODE` writes a line to stderr and exits before answering.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--hang") => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        Some("--exit-early") => {
            eprintln!("test server: refusing to start");
            let code = args.get(1).and_then(|c| c.parse().ok()).unwrap_or(1);
            return ExitCode::from(code);
        }
        Some(other) => {
            eprintln!("usage: wright-mcp-test-server [--hang | --exit-early CODE] (got {other})");
            return ExitCode::from(2);
        }
        None => {}
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("test server: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(wright_test_support::mcp_server::serve_stdio()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("test server: {e}");
            ExitCode::FAILURE
        }
    }
}
