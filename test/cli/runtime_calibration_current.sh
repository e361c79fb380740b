#!/usr/bin/env bash
# The shipped runtime calibration (workloads/calibration/runtime.yaml) is exactly what
# `trnsim calibrate-runtime` produces, and with it the Qwen3-32B scenario reproduces the
# published throughputs within 5% (measurements.md section 1): eager 11,099, compiled 14,156.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$trnsim" calibrate-runtime --out "$tmp/r.yaml"
if ! diff -u "$src/workloads/calibration/runtime.yaml" "$tmp/r.yaml"; then
  echo "workloads/calibration/runtime.yaml is stale: run build/trnsim calibrate-runtime --out workloads/calibration/runtime.yaml"
  exit 1
fi
for mode in eager compiled; do
  "$trnsim" run qwen3-32b-trn2 --mode $mode --json "$tmp/$mode.json" > /dev/null 2>&1
done
python3 - "$tmp/eager.json" "$tmp/compiled.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["steady"]["tokens_per_s"]
c = json.load(open(sys.argv[2]))["steady"]["tokens_per_s"]
ok = abs(e / 11099 - 1) <= 0.05 and abs(c / 14156 - 1) <= 0.05
print(f"eager {e:.0f} tokens/s (11,099 published), compiled {c:.0f} tokens/s (14,156 published)")
sys.exit(0 if ok else 1)
PY
