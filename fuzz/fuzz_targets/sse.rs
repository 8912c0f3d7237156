#![no_main]
//! Fuzz target `sse`: the body is `wright_fuzzing::sse`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::sse(data));
