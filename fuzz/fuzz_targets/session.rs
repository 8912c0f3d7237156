#![no_main]
//! Fuzz target `session`: the body is `wright_fuzzing::session`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::session(data));
