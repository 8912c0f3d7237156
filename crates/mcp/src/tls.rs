//! The TLS provider every HTTP client of this crate needs: ring, as in the
//! rest of wright (no C build of aws-lc).

/// Makes ring the process's rustls provider unless one is set (rmcp's OAuth
/// client builds its own reqwest clients, which need it too).
pub(crate) fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
