//! wright-permissions (in progress).
