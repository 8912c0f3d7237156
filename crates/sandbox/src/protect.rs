//! Keeps wright's own secrets out of reach of the commands it runs: its
//! model keys ([`crate::OWN_KEYS`]) are taken out of the environment and
//! their bytes wiped from the process's original environment block (which
//! `/proc/<pid>/environ` shows to any process of the same user), and the
//! process is made non-dumpable so its memory and environment cannot be
//! read through `/proc` or ptrace by an unprivileged process. Call both
//! first thing in `main`, while the process has one thread. Which other
//! variables children are denied is `env_policy`'s business.

/// Takes the values of `names` (empty values count as unset) and, on Linux,
/// overwrites their bytes in the environment block itself, leaving `NAME=`
/// with an empty value. Elsewhere the environment is left as it is.
pub fn take_secret_env(names: &[&str]) -> Vec<(String, Option<String>)> {
    let values: Vec<(String, Option<String>)> = names
        .iter()
        .map(|n| {
            let v = std::env::var(n).ok().filter(|v| !v.trim().is_empty());
            ((*n).to_owned(), v)
        })
        .collect();
    #[cfg(target_os = "linux")]
    wipe_in_place(names);
    values
}

#[cfg(target_os = "linux")]
unsafe extern "C" {
    static mut environ: *mut *mut libc::c_char;
}

/// Zeroes the value of each `NAME=value` entry of `names` where it lies,
/// leaving `NAME=` (an empty value, which wright treats as unset).
#[cfg(target_os = "linux")]
fn wipe_in_place(names: &[&str]) {
    // SAFETY: called while the process is single-threaded (documented), so
    // nothing reads or changes the environment concurrently; each entry is
    // a NUL-terminated string that we only overwrite within its length.
    unsafe {
        let mut entry = environ;
        if entry.is_null() {
            return;
        }
        while !(*entry).is_null() {
            let s = *entry;
            let bytes = std::ffi::CStr::from_ptr(s).to_bytes();
            if let Some(eq) = bytes.iter().position(|&b| b == b'=')
                && names.iter().any(|n| n.as_bytes() == &bytes[..eq])
            {
                let value_len = bytes.len() - eq - 1;
                std::ptr::write_bytes(s.add(eq + 1), 0, value_len);
            }
            entry = entry.add(1);
        }
    }
}

/// Makes this process non-dumpable: only a privileged process can then read
/// its memory or `/proc/<pid>/environ`. Commands are unaffected (`exec`
/// resets the flag for them).
pub fn protect_process() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with integer arguments only changes a process flag.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_and_empty_names_read_as_unset() {
        let got = take_secret_env(&["WRIGHT_TEST_SURELY_UNSET_VARIABLE"]);
        assert_eq!(
            got,
            vec![("WRIGHT_TEST_SURELY_UNSET_VARIABLE".to_owned(), None)]
        );
    }
}
