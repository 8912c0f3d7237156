#![no_main]
//! Fuzz target `anthropic_decode`: the body is `wright_fuzzing::anthropic_decode`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::anthropic_decode(data));
