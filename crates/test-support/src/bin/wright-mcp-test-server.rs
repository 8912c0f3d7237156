//! `wright-mcp-test-server`: the MCP test server on stdio.
//!
//! Modes for failure tests: `--hang` never answers initialize;
//! `--exit-early CODE` writes a line to stderr and exits before answering.
//! `--many N` adds N catalogue tools `tool_0..tool_{N-1}`; `--tools-only`
//! advertises no resources, prompts or instructions. `--env-dump FILE`
//! writes the server's whole environment there (`NAME=VALUE`, NUL
//! separated) before serving, for tests of what a server is given.

use std::process::ExitCode;

const USAGE: &str = "usage: wright-mcp-test-server [--hang | --exit-early CODE | --many N | --tools-only | --env-dump FILE]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut many = 0;
    let mut tools_only = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--hang" => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            "--exit-early" => {
                eprintln!("test server: refusing to start");
                let code = rest.next().and_then(|c| c.parse().ok()).unwrap_or(1);
                return ExitCode::from(code);
            }
            "--many" => match rest.next().and_then(|n| n.parse().ok()) {
                Some(n) => many = n,
                None => {
                    eprintln!("{USAGE} (--many needs a count)");
                    return ExitCode::from(2);
                }
            },
            "--tools-only" => tools_only = true,
            "--env-dump" => {
                let Some(file) = rest.next() else {
                    eprintln!("{USAGE} (--env-dump needs a file)");
                    return ExitCode::from(2);
                };
                let mut dump = Vec::new();
                for (name, value) in std::env::vars_os() {
                    use std::os::unix::ffi::OsStrExt;
                    dump.extend_from_slice(name.as_bytes());
                    dump.push(b'=');
                    dump.extend_from_slice(value.as_bytes());
                    dump.push(0);
                }
                if let Err(e) = std::fs::write(file, dump) {
                    eprintln!("test server: cannot write {file}: {e}");
                    return ExitCode::FAILURE;
                }
            }
            other => {
                eprintln!("{USAGE} (got {other})");
                return ExitCode::from(2);
            }
        }
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
    use wright_test_support::mcp_server::{TestServer, serve_stdio};
    let mut server = TestServer::with_many(many);
    if tools_only {
        server = server.tools_only();
    }
    match runtime.block_on(serve_stdio(server)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("test server: {e}");
            ExitCode::FAILURE
        }
    }
}
