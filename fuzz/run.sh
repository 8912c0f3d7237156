#!/usr/bin/env bash
# Runs every fuzz target (or those named after SECONDS) for SECONDS each
# with libFuzzer, on the stable toolchain (RUSTC_BOOTSTRAP, no sanitizer),
# and prints executions, exec/s and crashes per target.
#
#   fuzz/run.sh 60                 # every target, one minute each
#   fuzz/run.sh 600 sse command    # two targets
#
# New inputs go to a work corpus under the target dir, not to the seed
# corpora in fuzz/corpus; crashing inputs go to fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
export RUSTC_BOOTSTRAP=1
# Regex internals are built without coverage instrumentation (see the script).
export RUSTC_WRAPPER=${RUSTC_WRAPPER:-$PWD/uninstrumented-deps.sh}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
# The session and config targets write a scratch file per input; on a disk
# file system the truncate-and-close writeback makes them 40x slower.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    export TMPDIR=/dev/shm
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list)
fi
work=$CARGO_TARGET_DIR/fuzz-work
mkdir -p "$work"
cargo fuzz build -s none "${targets[@]/#/}" >/dev/null 2>&1 || cargo fuzz build -s none
printf '%-18s %12s %10s %8s\n' target executions exec/s crashes
for t in "${targets[@]}"; do
    mkdir -p "$work/corpus/$t" "artifacts/$t"
    log=$work/$t.log
    before=$(find "artifacts/$t" -type f | wc -l)
    cargo fuzz run -s none "$t" "$work/corpus/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1 || true
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    after=$(find "artifacts/$t" -type f | wc -l)
    printf '%-18s %12s %10s %8s\n' "$t" "${runs:-?}" "${rate:-?}" "$((after - before))"
done
rm -rf "${TMPDIR:-/tmp}/wright-fuzz"
