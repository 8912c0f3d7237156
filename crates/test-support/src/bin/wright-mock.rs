//! `wright-mock`: serves one canned scenario on loopback for benchmarks and
//! manual testing. Prints its URL as the first stdout line, then serves
//! until killed.

use std::io::Write;
use std::process::ExitCode;

use wright_test_support::{MockServer, Provider, ScriptMode, scenario};

struct Args {
    provider: Provider,
    scenario: String,
    mode: ScriptMode,
    port: u16,
    timestamps: bool,
    /// Where to write each request's body (`request-<n>.json`).
    dump: Option<std::path::PathBuf>,
}

fn usage() -> String {
    format!(
        "usage: wright-mock --provider anthropic|openai-chat|openai-responses --scenario NAME [--loop] [--port N] [--timestamps] [--dump DIR]\n\
         scenarios: {}\n\
         Prints http://127.0.0.1:PORT on the first line of stdout, then serves until killed.\n\
         Anthropic clients use that URL as the base; OpenAI clients append /v1.\n\
         --dump DIR writes each request body to DIR/request-<n>.json (for a benchmark's floor client).",
        [
            scenario::NAMES,
            &[
                "two-explorers (anthropic, routed)",
                "file:PATH (anthropic, a JSON script)"
            ]
        ]
        .concat()
        .join(", ")
    )
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut provider = None;
    let mut scenario_name = None;
    let mut mode = ScriptMode::Once;
    let mut port = 0u16;
    let mut timestamps = false;
    let mut dump = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--provider" => {
                let v = value("--provider")?;
                provider =
                    Some(Provider::parse(&v).ok_or_else(|| format!("unknown provider {v:?}"))?);
            }
            "--scenario" => scenario_name = Some(value("--scenario")?),
            "--port" => {
                let v = value("--port")?;
                port = v.parse().map_err(|_| format!("bad port {v:?}"))?;
            }
            "--loop" => mode = ScriptMode::Loop,
            "--timestamps" => timestamps = true,
            "--dump" => dump = Some(value("--dump")?.into()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Args {
        provider: provider.ok_or("--provider is required")?,
        scenario: scenario_name.ok_or("--scenario is required")?,
        mode,
        port,
        timestamps,
        dump,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let args = match parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("wright-mock: {e}\n{}", usage());
            return ExitCode::from(2);
        }
    };
    if args.scenario == "two-explorers" {
        return serve_routed(&args);
    }
    let script = match args.scenario.strip_prefix("file:") {
        Some(path) => match script_file(args.provider, path) {
            Ok(script) => Some(script),
            Err(e) => {
                eprintln!("wright-mock: {path}: {e}");
                return ExitCode::from(2);
            }
        },
        None => scenario::script(args.provider, &args.scenario),
    };
    let Some(script) = script else {
        eprintln!(
            "wright-mock: unknown scenario {:?}\n{}",
            args.scenario,
            usage()
        );
        return ExitCode::from(2);
    };
    let server = match MockServer::start_with(args.port, script, args.mode) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wright-mock: cannot bind 127.0.0.1:{}: {e}", args.port);
            return ExitCode::from(1);
        }
    };
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{}", server.url())
        .and_then(|()| out.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    drop(out);
    if args.timestamps || args.dump.is_some() {
        watch_requests(&server, args.timestamps, args.dump.as_deref());
    }
    server.join();
    ExitCode::SUCCESS
}

/// A script written by hand (Anthropic only), for trying wright by hand:
/// a JSON array whose items are `{"text": "..."}`, `{"calls": [[id, name,
/// input], ...]}` or `{"stall": true}` (a response that never finishes).
fn script_file(
    provider: Provider,
    path: &str,
) -> Result<Vec<wright_test_support::MockResponse>, String> {
    use wright_test_support::{MockResponse, anthropic};
    if provider != Provider::Anthropic {
        return Err("script files speak only --provider anthropic".to_owned());
    }
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let items: Vec<serde_json::Value> = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    items
        .iter()
        .map(|item| {
            if let Some(text) = item["text"].as_str() {
                return Ok(MockResponse::sse(anthropic::text(text)));
            }
            if item["stall"] == true {
                return Ok(MockResponse::sse(anthropic::text("..."))
                    .drop_after(100)
                    .stall());
            }
            let calls = item["calls"]
                .as_array()
                .ok_or_else(|| format!("each item needs text, calls or stall: {item}"))?;
            let calls: Vec<(&str, &str, serde_json::Value)> = calls
                .iter()
                .map(|c| {
                    (
                        c[0].as_str().unwrap_or("call"),
                        c[1].as_str().unwrap_or("Read"),
                        c[2].clone(),
                    )
                })
                .collect();
            Ok(MockResponse::sse(anthropic::tool_calls(&calls)))
        })
        .collect()
}

/// The routed `two-explorers` scenario (Anthropic only): a parent whose
/// two `explore` subagents must run at the same time.
fn serve_routed(args: &Args) -> ExitCode {
    if args.provider != Provider::Anthropic {
        eprintln!("wright-mock: two-explorers speaks only --provider anthropic");
        return ExitCode::from(2);
    }
    let server = match MockServer::start_routed(wright_test_support::subagents::two_explorers()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wright-mock: cannot bind 127.0.0.1: {e}");
            return ExitCode::from(1);
        }
    };
    println!("{}", server.url());
    server.join();
    ExitCode::SUCCESS
}

/// Prints `request <n> <unix nanoseconds>` for each request as it arrives
/// (with `timestamps`), so a benchmark can measure time from process start
/// to first request, and writes each body into `dump`. Polls: this is a
/// benchmark aid, and a 200 µs poll is well below what it measures.
fn watch_requests(server: &MockServer, timestamps: bool, dump: Option<&std::path::Path>) {
    let mut seen = 0;
    loop {
        if server.request_count() == seen {
            std::thread::sleep(std::time::Duration::from_micros(200));
            continue;
        }
        let requests = server.requests();
        for (n, r) in requests.iter().enumerate().skip(seen) {
            if let Some(dir) = dump {
                let file = dir.join(format!("request-{}.json", n + 1));
                if let Err(e) = std::fs::write(&file, &r.body) {
                    eprintln!("wright-mock: cannot write {}: {e}", file.display());
                }
            }
            if !timestamps {
                continue;
            }
            let ns = r
                .received_at
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let mut out = std::io::stdout().lock();
            if writeln!(out, "request {} {ns}", n + 1)
                .and_then(|()| out.flush())
                .is_err()
            {
                return;
            }
        }
        seen = requests.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_all_flags() {
        let a = parse(&strings(&[
            "--provider",
            "openai-chat",
            "--scenario",
            "text",
            "--loop",
            "--port",
            "4321",
        ]))
        .unwrap();
        assert_eq!(a.provider, Provider::OpenAiChat);
        assert_eq!(a.scenario, "text");
        assert_eq!(a.mode, ScriptMode::Loop);
        assert_eq!(a.port, 4321);
        let a = parse(&strings(&[
            "--provider",
            "openai-responses",
            "--scenario",
            "text",
        ]))
        .unwrap();
        assert_eq!(a.provider, Provider::OpenAiResponses);
    }

    #[test]
    fn rejects_bad_flags() {
        assert!(parse(&strings(&["--provider", "x", "--scenario", "text"])).is_err());
        assert!(parse(&strings(&["--scenario", "text"])).is_err());
        assert!(parse(&strings(&["--provider", "anthropic", "--scenario"])).is_err());
        assert!(
            parse(&strings(&[
                "--provider",
                "anthropic",
                "--scenario",
                "t",
                "--bogus"
            ]))
            .is_err()
        );
        assert!(
            parse(&strings(&[
                "--provider",
                "anthropic",
                "--scenario",
                "t",
                "--port",
                "x"
            ]))
            .is_err()
        );
    }
}
