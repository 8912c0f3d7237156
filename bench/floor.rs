//! The physical floor of scenario A, for the benchmarks in `bench/`: the
//! least a client can do for the same task. It posts the same two request
//! bodies wright sent (captured with `wright-mock --dump`) to the mock,
//! reading each streamed answer to its end, and runs the same `bash -c`
//! between them. Plain blocking std I/O, no TLS, no async runtime.
//!
//! Build: `rustc -O --edition 2021 bench/floor.rs -o target/release/floor`
//! usage: floor URL PATH BODY1 BODY2 [HEADER:VALUE ...]
//! e.g.   floor http://127.0.0.1:4000 /v1/messages request-1.json request-2.json anthropic-version:2023-06-01

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, ExitCode};

const COMMAND: &str = "echo hello > out.txt && cat out.txt";

fn post(addr: &str, path: &str, body: &[u8], headers: &[String]) -> std::io::Result<usize> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_nodelay(true)?;
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         accept: text/event-stream\r\ncontent-length: {}\r\n",
        body.len()
    );
    for h in headers {
        if let Some((name, value)) = h.split_once(':') {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    head.push_str("\r\n");
    let mut request = head.into_bytes();
    request.extend_from_slice(body);
    stream.write_all(&request)?;
    // The mock closes the connection after each answer.
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    Ok(answer.len())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, path, first, second, headers @ ..] = args.as_slice() else {
        eprintln!("usage: floor URL PATH BODY1 BODY2 [HEADER:VALUE ...]");
        return ExitCode::from(2);
    };
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let run = || -> std::io::Result<()> {
        let first = std::fs::read(first)?;
        let second = std::fs::read(second)?;
        post(addr, path, &first, headers)?;
        let out = Command::new("bash").args(["-c", COMMAND]).output()?;
        std::io::stdout().write_all(&out.stdout)?;
        post(addr, path, &second, headers)?;
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("floor: {e}");
            ExitCode::FAILURE
        }
    }
}
