#![no_main]
//! Fuzz target `chat_decode`: the body is `wright_fuzzing::chat_decode`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::chat_decode(data));
