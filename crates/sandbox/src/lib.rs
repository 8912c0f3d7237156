//! wright-sandbox (in progress).
