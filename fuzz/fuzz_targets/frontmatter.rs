#![no_main]
//! Fuzz target `frontmatter`: the body is `wright_fuzzing::frontmatter`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| wright_fuzzing::frontmatter(data));
