//! The fuzz smoke test: every target over every file of its seed corpus
//! (`fuzz/corpus/<target>/`), on stable and without libFuzzer, so CI
//! runs each target's body on every push. Crashing inputs found by the
//! long runs are added to the corpora, which makes this their regression
//! test too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn every_target_survives_its_corpus() {
    for (name, body) in wright_fuzzing::TARGETS {
        let dir = corpus_dir(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{name}: empty corpus");
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{name} panicked on {}", file.display());
        }
        // The empty input too.
        body(&[]);
    }
    wright_fuzzing::remove_scratch();
}

#[test]
fn every_target_has_a_fuzz_target_file() {
    let targets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/fuzz_targets");
    for (name, _) in wright_fuzzing::TARGETS {
        assert!(targets.join(format!("{name}.rs")).is_file(), "{name}");
    }
}
