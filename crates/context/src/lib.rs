//! wright-context (in progress).
