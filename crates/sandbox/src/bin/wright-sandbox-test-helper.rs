//! A stand-in for the `wright` binary in tests: it dispatches
//! `__sandbox-exec` exactly as `wright`'s `main` does, and otherwise exits 2.

fn main() {
    wright_sandbox::maybe_exec_helper();
    eprintln!("usage: wright-sandbox-test-helper __sandbox-exec <policy-json> -- <command…>");
    std::process::exit(2);
}
