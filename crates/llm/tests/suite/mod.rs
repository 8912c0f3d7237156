//! Integration suites.

mod hardening;
mod http;
mod resilience;
mod server;
mod stream_secrets;
