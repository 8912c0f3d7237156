//! Every fuzz body under proptest: arbitrary bytes, and arbitrary text
//! (which reaches further into the text parsers), never make one panic.
//! Case counts stay small: the long runs are libFuzzer's job.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_target_panics_on_bytes(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        for (_, body) in wright_fuzzing::TARGETS {
            body(&data);
        }
    }

    #[test]
    fn no_target_panics_on_text(selector in any::<u8>(), text in "\\PC{0,200}") {
        let mut data = vec![selector];
        data.extend_from_slice(text.as_bytes());
        for (_, body) in wright_fuzzing::TARGETS {
            body(&data);
        }
    }
}
