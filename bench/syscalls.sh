#!/usr/bin/env bash
# System calls wright makes before its first request (scenario A's prompt
# and flags), counted with strace against a server that accepts and never
# answers; prints the total and the most frequent calls.
# usage: bench/syscalls.sh [WRIGHT]   (source bench/env.sh first)
set -euo pipefail
wright=${1:-$WRIGHT}
out=$(mktemp -d)
python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
held = [s.accept()[0] for _ in range(4)]' > "$out/port" &
server=$!
until [ -s "$out/port" ]; do sleep 0.05; done
cd "$BENCH/project"
timeout 3 strace -f -o "$out/trace" "$wright" -p "$PROMPT" --provider anthropic --model bench-model \
    --base-url "http://127.0.0.1:$(cat "$out/port")" --permission-mode bypass > /dev/null 2>&1 || true
kill "$server" 2>/dev/null || true
first=$(grep -n 'POST /v1/messages' "$out/trace" | head -1 | cut -d: -f1)
# Lines before the request; a call split by another thread (<unfinished>
# ... <... resumed>) is counted once.
head -n "$first" "$out/trace" | grep -v ' resumed>' > "$out/before"
echo "syscalls before the first request: $(wc -l < "$out/before")"
sed -E 's/^[0-9]+ +([a-z0-9_]+)\(.*/\1/' "$out/before" | sort | uniq -c | sort -rn | head -12
rm -rf "$out"
