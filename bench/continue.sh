#!/usr/bin/env bash
# One `--continue`-style load of the 600-entry session made by env.sh, or
# the same fresh start without it; for farm-bench (source bench/env.sh first):
#   farm-bench -n 20 --vs 'bench/continue.sh fresh' -- bench/continue.sh resume
# Both put the fixture back first, so every run loads the same 600 messages
# (a run appends its own turn) and both pay the same copy. `--resume ID`
# rather than `--continue`: the fresh runs start sessions in the same project,
# which would become the latest one.
set -e
cp "$LONG_FIXTURE" "$LONG_FILE"
cd "$BENCH/long/project"
export HOME=$BENCH/long XDG_CONFIG_HOME=$BENCH/long/.config XDG_DATA_HOME=$BENCH/long/.local/share
case "$1" in
    resume) exec "$WRIGHT" -p hi $TEXT_FLAGS --resume "$LONG_ID" > /dev/null 2>&1 ;;
    *) exec "$WRIGHT" -p hi $TEXT_FLAGS > /dev/null 2>&1 ;;
esac
