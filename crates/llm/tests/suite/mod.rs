//! Integration suites.

mod http;
mod server;
