#![no_main]
//! Fuzz target `tool_args`: the body is `wright_fuzzing::tool_args`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::tool_args(data));
