#!/usr/bin/env bash
# Every measurement of bench/RESULTS.md for this build against BEFORE, in one run:
#   BEFORE=/path/to/old/wright bench/compare_builds.sh
cd "$(dirname "$0")/.."

BEFORE=${BEFORE:?set BEFORE to the wright binary to compare against}
source bench/env.sh > /dev/null 2>&1
echo "== scenario A: after vs floor"
(cd $BENCH/project && farm-bench -n 20 --vs "$FLOOR $MOCK_URL /v1/messages $BENCH/request-1.json $BENCH/request-2.json anthropic-version:2023-06-01" -- $WRIGHT -p "$PROMPT" $FLAGS 2>&1 | grep -E '^(A|B) (cpu|wall|peak)|A/B (cpu|wall)')
echo "== scenario A: after vs before"
(cd $BENCH/project && farm-bench -n 20 --vs "$BEFORE -p '$PROMPT' $FLAGS" -- $WRIGHT -p "$PROMPT" $FLAGS 2>&1 | grep -E '^(A|B) (cpu|wall|peak)|A/B (cpu|wall)')
echo "== perf stat scenario A after / before / floor"
(cd $BENCH/project && for W in $WRIGHT $BEFORE; do perf stat -r 20 -e task-clock,page-faults $W -p "$PROMPT" $FLAGS 2>&1 >/dev/null | grep -E 'task-clock|page-faults'; done; perf stat -r 20 -e task-clock,page-faults $FLOOR $MOCK_URL /v1/messages $BENCH/request-1.json $BENCH/request-2.json anthropic-version:2023-06-01 2>&1 >/dev/null | grep -E 'task-clock|page-faults')
echo "== --version after vs before"
farm-bench -n 30 --vs "$BEFORE --version" -- $WRIGHT --version 2>&1 | grep -E '^(A|B) (cpu|wall)|A/B (cpu|wall)'
for W in $WRIGHT $BEFORE; do perf stat -r 30 -e task-clock,page-faults $W --version 2>&1 >/dev/null | grep -E 'task-clock|page-faults'; done
echo "== continue: resume vs fresh (after)"
farm-bench -n 20 --vs 'bench/continue.sh fresh' -- bench/continue.sh resume 2>&1 | grep -E '^(A|B) (cpu|wall)|A/B (cpu|wall)'
perf stat -r 20 -e task-clock bench/continue.sh resume 2>&1 | grep task-clock
perf stat -r 20 -e task-clock bench/continue.sh fresh 2>&1 | grep task-clock
echo "== continue: resume vs fresh (before)"
WRIGHT=$BEFORE perf stat -r 20 -e task-clock bench/continue.sh resume 2>&1 | grep task-clock
WRIGHT=$BEFORE perf stat -r 20 -e task-clock bench/continue.sh fresh 2>&1 | grep task-clock
echo "== syscalls"
bench/syscalls.sh $WRIGHT | head -1
echo "== sandbox"
(cd $BENCH/project && for m in workspace-write full; do WRIGHT_SANDBOX=$m perf stat -r 20 -e task-clock,page-faults $WRIGHT -p "$PROMPT" $FLAGS 2>&1 >/dev/null | grep -E 'task-clock|page-faults'; done)
echo "== per turn after"
python3 bench/long_session.py $WRIGHT $MOCK_BIN 300
echo "== per turn before"
python3 bench/long_session.py $BEFORE $MOCK_BIN 300
bench_stop
rm -rf "$BENCH"
