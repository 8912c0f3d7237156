//! `wright-sandbox`: the sandbox helper as a binary of its own, installed
//! beside `wright`. Each shell command starts it (`wright-sandbox
//! __sandbox-exec <policy-json> -- bash -c …`); it confines itself and
//! `exec`s the command. It is `wright`'s own helper code
//! ([`wright_sandbox::helper_main`]) without the rest of `wright`, so it
//! loads and starts in a fraction of the time a re-executed `wright` takes.

fn main() {
    wright_sandbox::helper_main()
}
