#!/usr/bin/env bash
# Checks that the Grep and Glob tools find exactly what rg and fd find in
# TREE (queries under the tools' result caps): exits non-zero on a difference.
# usage: bench/compare_search.sh SEARCH_BINARY TREE
set -euo pipefail
search=$(realpath "$1"); cd "$2"
fd=$(command -v fd || command -v fdfind)
check() { # name, tool output, baseline output
    if diff <(sort <<< "$2") <(sort <<< "$3") > /dev/null; then
        echo "$1: identical ($(wc -l <<< "$2") paths)"
    else
        echo "$1: DIFFERENT"; diff <(sort <<< "$2") <(sort <<< "$3") | head; exit 1
    fi
}
check "grep quasar_flux vs rg -l" "$("$search" grep quasar_flux)" "$(rg -l quasar_flux | sed 's|^\./||')"
check "grep 'quasar_flux = compute' vs rg -l" "$("$search" grep 'quasar_flux = compute' )" "$(rg -l 'quasar_flux = compute')"
check "glob 'file01*.rs' vs fd -g" "$("$search" glob 'file01*.rs')" "$("$fd" -g 'file01*.rs' | sed 's|^\./||')"
