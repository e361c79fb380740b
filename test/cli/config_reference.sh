#!/usr/bin/env bash
# docs/config-reference.md is exactly what `trnsim config-reference` generates from the spec
# field lists (so the reference cannot drift from the code).
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$trnsim" config-reference --out "$tmp/ref.md"
diff -u "$src/docs/config-reference.md" "$tmp/ref.md" || {
  echo "docs/config-reference.md is stale: run build/trnsim config-reference --out docs/config-reference.md"; exit 1; }
echo "config reference is current"
