#!/usr/bin/env bash
# RUSTC_WRAPPER for fuzz builds: compiles third-party regex internals
# without libFuzzer's coverage instrumentation. They are fuzzed upstream
# (OSS-Fuzz); instrumented, their automaton construction took most of the
# tool-argument target's time, so wright's own checks got few executions.
# Every other crate is compiled exactly as cargo-fuzz asks.
rustc=$1
shift
case " $* " in
*" --crate-name regex_automata "* | *" --crate-name regex_syntax "* | *" --crate-name aho_corasick "*)
    args=()
    for a in "$@"; do
        case $a in
        -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage*) ;;
        *) args+=("$a") ;;
        esac
    done
    exec "$rustc" "${args[@]}"
    ;;
esac
exec "$rustc" "$@"
