# Prepares the benchmarks; source it from the repository root:
#   source bench/env.sh
# Starts wright-mock (echo-hello and text scenarios, looping), captures the
# two request bodies wright sends in scenario A for the floor client, builds
# a 600-entry session for --continue and generates the search tree. Exports
# the variables bench/README.md uses; `bench_stop` ends the mocks.
R=${CARGO_TARGET_DIR:-$(pwd)/target}/release
export WRIGHT=${WRIGHT:-$R/wright} MOCK_BIN=${MOCK_BIN:-$R/wright-mock} FLOOR=${FLOOR:-$R/floor} SEARCH=${SEARCH:-$R/examples/search}
export BENCH=$(mktemp -d /tmp/wright-bench.XXXXXX)
export PROMPT='run `echo hello > out.txt && cat out.txt` and tell me what the file says'
mkdir -p "$BENCH/home" "$BENCH/project" "$BENCH/dump"
export HOME=$BENCH/home XDG_CONFIG_HOME=$BENCH/home/.config XDG_DATA_HOME=$BENCH/home/.local/share \
    NO_COLOR=1 ANTHROPIC_API_KEY=bench

start_mock() { # scenario [extra args] -> URL on stdout; pid appended to $BENCH/pids
    "$MOCK_BIN" --provider anthropic --scenario "$1" --loop "${@:2}" > "$BENCH/mock-$1.out" &
    echo $! >> "$BENCH/pids"
    until [ -s "$BENCH/mock-$1.out" ]; do sleep 0.05; done
    head -1 "$BENCH/mock-$1.out"
}
bench_stop() { while read -r pid; do kill "$pid" 2>/dev/null; done < "$BENCH/pids"; }

# The floor client sends the very bodies wright sent.
CAPTURE_URL=$("$MOCK_BIN" --provider anthropic --scenario echo-hello --dump "$BENCH/dump" > "$BENCH/capture.out" & echo $! >> "$BENCH/pids"; until [ -s "$BENCH/capture.out" ]; do sleep 0.05; done; head -1 "$BENCH/capture.out")
(cd "$BENCH/project" && "$WRIGHT" -p "$PROMPT" --provider anthropic --model bench-model \
    --base-url "$CAPTURE_URL" --permission-mode bypass > /dev/null)
cp "$BENCH/dump/request-1.json" "$BENCH/dump/request-2.json" "$BENCH/"

export MOCK_URL=$(start_mock echo-hello)
export FLAGS="--provider anthropic --model bench-model --base-url $MOCK_URL --permission-mode bypass"
export TEXT_URL=$(start_mock text)
export TEXT_FLAGS="--provider anthropic --model bench-model --base-url $TEXT_URL --permission-mode bypass"

# 150 turns of four messages: a 600-entry session to continue.
mkdir -p "$BENCH/long"
BENCH_HOME=$BENCH/long python3 bench/long_session.py "$WRIGHT" "$MOCK_BIN" 150 > "$BENCH/long.txt"
# The session as a fixture (bench/continue.sh puts it back before each run).
export LONG_FILE=$(ls "$BENCH"/long/.local/share/wright/sessions/*/*.jsonl | head -1)
export LONG_ID=$(basename "$LONG_FILE" .jsonl) LONG_FIXTURE=$BENCH/long-fixture.jsonl
cp "$LONG_FILE" "$LONG_FIXTURE"

export TREE=$BENCH/tree
python3 bench/gen_tree.py "$TREE" > /dev/null
echo "bench ready in $BENCH (mock $MOCK_URL, text $TEXT_URL, tree $TREE)"
