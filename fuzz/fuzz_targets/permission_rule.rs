#![no_main]
//! Fuzz target `permission_rule`: the body is `wright_fuzzing::permission_rule`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::permission_rule(data));
