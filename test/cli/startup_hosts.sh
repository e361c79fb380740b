#!/usr/bin/env bash
# Host-bound start-up parts scale with the ranks of one host server, not of the whole system:
# the same per-rank bytes (Qwen3-32B, TP=4 x FSDP=16, LNC=2) take about as long to load on a
# Trn2 UltraServer (4 hosts of 16 chips) or a Trn3 Gen1 UltraServer (4 hosts of 16 chips) as
# on one trn2.48xlarge (1 host), and a quarter of that on a Trn3 Gen2 UltraServer (36 hosts of
# 4 chips). A host count that does not divide the chips is rejected.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Cut to 4 layers and a 16,384-token vocabulary: weight_init scales with the per-rank bytes the
# same way on every system, so the ratios below do not depend on the depth or the vocabulary
# (checked: 64 and 8 layers give the same ratios). The full vocabulary's embedding collectives
# are most of the Trn3 Gen2 run's simulation time (35 of 40 s for the 4-layer step).
L=(--set model.num_layers=4 --set model.vocab_size=16384 --no-intervals)  # intervals: intervals.sh
"$trnsim" startup qwen3-32b-trn2 "${L[@]}" --json "$tmp/one.json" > /dev/null
"$trnsim" startup qwen3-32b-trn2 "${L[@]}" --set system=trn2-ultraserver --set parallel.dp=4 \
  --set batch.global_batch=64 --json "$tmp/us.json" > /dev/null
"$trnsim" startup qwen3-32b-trn3-gen1 "${L[@]}" --json "$tmp/g1.json" > /dev/null
"$trnsim" startup qwen3-32b-trn3-gen2 "${L[@]}" --json "$tmp/g2.json" > /dev/null
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
w = {k: json.load(open(f"{t}/{k}.json"))["compiled"]["first_step"]["parts"]["weight_init"]
     for k in ("one", "us", "g1", "g2")}
print("weight_init (s): trn2.48xlarge %.1f, trn2-ultraserver %.1f, trn3-gen1 %.1f, trn3-gen2 %.1f"
      % (w["one"], w["us"], w["g1"], w["g2"]))
assert abs(w["us"] / w["one"] - 1) <= 0.10, ("trn2-ultraserver weight_init", w)
assert abs(w["g1"] / w["one"] - 1) <= 0.10, ("trn3-gen1 weight_init", w)
assert abs(w["g2"] / (w["one"] / 4) - 1) <= 0.10, ("trn3-gen2: 16 ranks per host, not 64", w)
PY
set +e
out=$("$trnsim" show system trn2-ultraserver --set hosts=3 2>&1); rc=$?
set -e
[ $rc = 2 ] && [[ $out == *"hosts"*"do not divide"* ]] || { echo "FAIL: hosts=3 on 64 chips: rc=$rc $out"; exit 1; }
echo ok
