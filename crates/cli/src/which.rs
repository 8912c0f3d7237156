//! Finding a program on PATH, for the checks that say whether a tool the
//! user configured can run at all (doctor's bash, the verifier's commands).

/// Where `program` is on PATH, if it is (the first regular file of that
/// name in a PATH directory).
pub(crate) fn which(program: &str) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}
