#![no_main]
//! Fuzz target `command`: the body is `wright_fuzzing::command`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::command(data));
