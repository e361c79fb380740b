#!/usr/bin/env bash
# Every shipped scenario runs end to end (trn2 instance, trn1 cluster with pipeline
# parallelism over EFA, Trn2 UltraServer, Trn3 UltraServers, MoE with expert parallelism)
# and its JSON has the stable keys.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in "$src"/workloads/scenarios/*.yaml; do
  name=$(basename "$f" .yaml)
  "$trnsim" run "$name" --no-intervals --json "$tmp/$name.json" > "$tmp/$name.txt" 2> "$tmp/$name.err" || {
    echo "FAIL: $name"; cat "$tmp/$name.err"; exit 1; }
  grep -q "verdict:" "$tmp/$name.txt"
done
python3 - "$tmp" <<'PY'
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    d = json.load(open(f))
    for path in ("steady.step_time_s", "steady.tokens_per_s", "steady.mfu", "steady.breakdown",
                 "memory.per_rank_bytes", "memory.hbm_capacity_bytes", "sim.events", "sim.wall_s"):
        x = d
        for k in path.split("."):
            x = x[k]
    s = d["steady"]
    assert s["step_time_s"] > 0 and 0 < s["mfu"] < 1, f
    total = sum(s["breakdown"].values())
    assert abs(total - s["step_time_s"]) < 1e-6 * s["step_time_s"] + 1e-9, (f, total, s["step_time_s"])
    print(f"{f.split('/')[-1]:40s} {s['tokens_per_s']:10.0f} tokens/s  MFU {100*s['mfu']:5.1f}%")
PY
