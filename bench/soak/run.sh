#!/usr/bin/env bash
# Soak bench: release build, then bench/soak/soak.py (SOAK_TURNS, default 1000).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -p wright --quiet
exec python3 bench/soak/soak.py "$@"
