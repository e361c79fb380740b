#!/usr/bin/env bash
# Invariants of the simulated step: doubling chips with data parallelism never lowers
# tokens/s; more pipeline micro-batches shrink the bubble; more recomputation never takes less
# time; a job that does not fit in HBM stops with a per-category table (exit 2, no output
# files) unless --allow-oom; a Hugging Face config.json can replace the model; the same inputs
# give the same JSON.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tok() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['steady']['tokens_per_s'])" "$1"; }
bubble() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['steady']; print(d['breakdown']['pipeline_bubble']/d['step_time_s'])" "$1"; }
ge() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) * (1 - 1e-9) else 1)" "$1" "$2"; }

# Data parallelism: one trn2.48xlarge vs two (dp=2, same per-replica batch).
base=(run qwen3-32b-trn2 --model llama3.1-8b --set checkpointing=selective)
"$trnsim" "${base[@]}" --json "$tmp/one.json" > /dev/null 2>&1
"$trnsim" "${base[@]}" --set system.instances=2 --set parallel.dp=2 --set batch.global_batch=32 --json "$tmp/two.json" > /dev/null 2>&1
t1=$(tok "$tmp/one.json"); t2=$(tok "$tmp/two.json")
echo "dp: 16 chips $t1 tokens/s, 32 chips $t2 tokens/s"
ge "$t2" "$t1" || { echo "FAIL: doubling chips with DP lowered tokens/s"; exit 1; }

# Pipeline bubble: 4 vs 8 micro-batches (llama2-7b, tp=8 x pp=4 on one trn1.32xlarge).
pp=(run llama2-70b-trn1-pp --model llama2-7b --set system.instances=1 --set parallel.fsdp=1 --set batch.global_batch=16)
"$trnsim" "${pp[@]}" --set parallel.microbatches=4 --json "$tmp/m4.json" > /dev/null 2>&1
"$trnsim" "${pp[@]}" --set parallel.microbatches=8 --json "$tmp/m8.json" > /dev/null 2>&1
b4=$(bubble "$tmp/m4.json"); b8=$(bubble "$tmp/m8.json")
echo "pp bubble: 4 micro-batches $b4, 8 micro-batches $b8 of the step"
ge "$b4" "$b8" || { echo "FAIL: more micro-batches did not shrink the bubble"; exit 1; }

# Recomputation only adds work: selective <= selective_mlp <= full in step time (same pipeline).
step() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['steady']['step_time_s'])" "$1"; }
for c in selective selective_mlp full; do
  "$trnsim" "${pp[@]}" --set batch.global_batch=4 --set parallel.microbatches=4 --set checkpointing=$c \
    --json "$tmp/ck-$c.json" > /dev/null 2>&1
done
s1=$(step "$tmp/ck-selective.json"); s2=$(step "$tmp/ck-selective_mlp.json"); s3=$(step "$tmp/ck-full.json")
echo "checkpointing: selective $s1 s, selective_mlp $s2 s, full $s3 s"
ge "$s2" "$s1" && ge "$s3" "$s2" || { echo "FAIL: more recomputation took less time"; exit 1; }

# Out of memory: full table on stderr, exit 2, no files; --allow-oom simulates.
set +e
"$trnsim" run qwen3-32b-trn2 --set checkpointing=none --json "$tmp/oom.json" > "$tmp/oom.out" 2> "$tmp/oom.err"
rc=$?
set -e
[ $rc = 2 ] || { echo "FAIL: OOM exit $rc"; exit 1; }
grep -q "does not fit in HBM" "$tmp/oom.err"
grep -q "activations" "$tmp/oom.err"
[ ! -e "$tmp/oom.json" ] || { echo "FAIL: OOM left a JSON file"; exit 1; }
"$trnsim" run qwen3-32b-trn2 --set checkpointing=none --allow-oom --json "$tmp/oom.json" > /dev/null 2>&1
[ -s "$tmp/oom.json" ]

# Hugging Face config instead of the zoo model: same architecture, same step.
"$trnsim" run qwen3-32b-trn2 --json "$tmp/zoo.json" > /dev/null 2>&1
"$trnsim" run qwen3-32b-trn2 --model "$src/test/data/hf/qwen3-32b.json" --json "$tmp/hf.json" > /dev/null 2>&1
python3 - "$tmp/zoo.json" "$tmp/hf.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b): d["sim"].pop("wall_s")
assert a["steady"] == b["steady"], "HF import differs from the zoo model"
PY

# Determinism (wall time aside).
"$trnsim" run qwen3-32b-trn2 --json "$tmp/zoo2.json" > /dev/null 2>&1
python3 - "$tmp/zoo.json" "$tmp/zoo2.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b): d["sim"].pop("wall_s")
assert a == b, "two runs differ"
PY
echo "run invariants hold"
