#![no_main]
//! Fuzz target `config_toml`: the body is `wright_fuzzing::config_toml`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::config_toml(data));
