#!/usr/bin/env bash
# Benchmarks (not tests): start-up cost of `wright --version` and the
# shell-command scenario against the loopback mock, both providers.
# Reports wall time, peak RSS and time from process start to first request.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p wright -p wright-test-support --bins --quiet
exec python3 bench/measure.py "${@}"
