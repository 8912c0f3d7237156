#![allow(clippy::unwrap_used, clippy::expect_used)]
//! End-to-end: commands run through the real helper binary under
//! namespaces, Landlock and seccomp. Skipped, with a visible message, where
//! the kernel lacks support.

// Linux only: elsewhere there is no helper confinement to test.
#[cfg(target_os = "linux")]
mod suite;
