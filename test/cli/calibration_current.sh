#!/usr/bin/env bash
# The shipped collective calibration file is exactly what `trnsim calibrate-collectives`
# produces from the shipped data (no hand-tuned constants).
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$trnsim" calibrate-collectives --out "$tmp/c.yaml"
if ! diff -u "$src/hw/configs/calibration/collectives.yaml" "$tmp/c.yaml"; then
  echo "hw/configs/calibration/collectives.yaml is stale: run build/trnsim calibrate-collectives --out hw/configs/calibration/collectives.yaml"
  exit 1
fi
echo "calibration file is current"
