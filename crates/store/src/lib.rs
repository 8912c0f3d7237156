//! wright-store (in progress).
