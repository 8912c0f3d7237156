//! The system's root certificates, read from one source (the CA bundle
//! file) once per process. The platform verifier's own loader reads the
//! bundle and then every certificate file of the certificate directory,
//! which holds the same roots again: each root was parsed twice on every
//! start.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where distributions put the PEM bundle of trusted roots (the list
/// OpenSSL's probing uses), checked in order after `SSL_CERT_FILE`.
const BUNDLES: [&str; 8] = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/ssl/ca-bundle.pem",
    "/etc/ssl/cert.pem",
    "/etc/pki/tls/cacert.pem",
    "/usr/local/share/certs/ca-root-nss.crt",
    "/etc/openssl/certs/ca-certificates.crt",
];

/// The roots of the system's CA bundle, parsed once; `None` when there is
/// no readable bundle with at least one certificate (the caller then lets
/// the platform verifier look further, e.g. in `SSL_CERT_DIR`).
pub(crate) fn system_roots() -> Option<&'static [reqwest::Certificate]> {
    static ROOTS: OnceLock<Option<Vec<reqwest::Certificate>>> = OnceLock::new();
    ROOTS
        .get_or_init(|| {
            let from_env = std::env::var_os("SSL_CERT_FILE").map(PathBuf::from);
            let file = from_env.or_else(|| {
                BUNDLES
                    .iter()
                    .map(Path::new)
                    .find(|p| p.is_file())
                    .map(Path::to_path_buf)
            })?;
            let pem = std::fs::read(file).ok()?;
            reqwest::Certificate::from_pem_bundle(&pem)
                .ok()
                .filter(|certs| !certs.is_empty())
        })
        .as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_loaded_once() {
        let first = system_roots().map(<[_]>::as_ptr);
        let second = system_roots().map(<[_]>::as_ptr);
        assert_eq!(first, second);
    }
}
