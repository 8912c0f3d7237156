#![no_main]
//! Fuzz target `responses_decode`: the body is `wright_fuzzing::responses_decode`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::responses_decode(data));
