#![no_main]
//! Fuzz target `config_env`: the body is `wright_fuzzing::config_env`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::config_env(data));
