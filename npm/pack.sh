#!/usr/bin/env bash
# Packs wright's npm packages into OUT_DIR:
#   npm/pack.sh main OUT_DIR                      -> wright-cli-<version>.tgz (the launcher)
#   npm/pack.sh platform OUT_DIR BINARY [PLATFORM] -> wright-cli-<platform>-<version>.tgz
#     (with the `wright-sandbox` helper beside BINARY, if there is one)
# PLATFORM is node's `<os>-<cpu>` (linux-x64, linux-arm64, darwin-x64,
# darwin-arm64, win32-x64); by default this machine's. The version is the
# launcher's (npm/wright-cli/package.json), which the release sets from the tag.
# Prints the path of the tarball it made.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kind="${1:?usage: pack.sh main|platform OUT_DIR [BINARY [PLATFORM]]}"
out="$(mkdir -p "${2:?OUT_DIR missing}" && cd "$2" && pwd)"
version="$(node -p "require('$here/wright-cli/package.json').version")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

case "$kind" in
main)
    cp -R "$here/wright-cli/." "$work/"
    ;;
platform)
    binary="${3:?BINARY missing}"
    platform="${4:-$(node -p 'process.platform + "-" + process.arch')}"
    os="${platform%%-*}"
    cpu="${platform#*-}"
    exe=wright
    [ "$os" = win32 ] && exe=wright.exe
    mkdir -p "$work/bin"
    cp "$binary" "$work/bin/$exe"
    chmod 755 "$work/bin/$exe"
    # The sandbox helper beside it, when it was built: wright starts it for
    # every command (and falls back to itself without it).
    helper="$(dirname "$binary")/wright-sandbox${exe#wright}"
    if [ -f "$helper" ]; then
        cp "$helper" "$work/bin/wright-sandbox${exe#wright}"
        chmod 755 "$work/bin/wright-sandbox${exe#wright}"
    fi
    sed -e "s/@PLATFORM@/$platform/g" -e "s/@VERSION@/$version/g" \
        -e "s/@OS@/$os/g" -e "s/@CPU@/$cpu/g" \
        "$here/platform/package.json.in" > "$work/package.json"
    printf '# wright-cli-%s\n\nThe `wright` binary for %s, installed by `wright-cli`.\n' \
        "$platform" "$platform" > "$work/README.md"
    ;;
*)
    echo "pack.sh: unknown kind '$kind' (main or platform)" >&2
    exit 2
    ;;
esac

(cd "$work" && npm pack --silent --pack-destination "$out" >/dev/null)
name="$(node -p "const p = require('$work/package.json'); p.name + '-' + p.version + '.tgz'")"
echo "$out/$name"
