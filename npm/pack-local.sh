#!/usr/bin/env bash
# Packs the launcher and this machine's platform package around BINARY,
# installs both from the tarballs into a temporary prefix without touching
# the network (`npm i -g --offline`), and runs `wright --version` from
# there. Prints that output; exits non-zero if any step fails.
#   npm/pack-local.sh target/release/wright
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
binary="$(cd "$(dirname "${1:?usage: pack-local.sh BINARY}")" && pwd)/$(basename "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

main="$("$here/pack.sh" main "$tmp/tarballs")"
platform="$("$here/pack.sh" platform "$tmp/tarballs" "$binary")"

# A private cache and no registry: the other platforms' optional packages
# cannot be fetched, which npm skips; nothing leaves the machine.
export npm_config_cache="$tmp/cache" npm_config_update_notifier=false \
    npm_config_fund=false npm_config_audit=false npm_config_registry=http://127.0.0.1:9/
npm install --global --offline --no-progress --loglevel=error \
    --prefix "$tmp/prefix" "$platform" "$main" >&2

bin_dir="$tmp/prefix/bin"
[ -d "$bin_dir" ] || bin_dir="$tmp/prefix"   # Windows puts shims in the prefix
"$bin_dir/wright" --version
