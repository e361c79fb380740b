#!/usr/bin/env bash
# Streaming lowering (docs/workloads.md 1.6.4): an --exact run lowers each rank's program one
# 1F1B segment at a time as the run needs it and releases ops as they retire, so its peak RSS
# does not grow with the micro-batches. Llama-2-70B cut to 4 layers (one per pipeline stage),
# every rank (128), compiled mode, no FSDP (compiled FSDP gathers run ahead across micro-batches
# without bound, so such runs may hold the whole step): 16 and 64 micro-batches. Before the
# streaming lowering the peak grew about 3x between the two; now the ratio stays under 1.3.
# Peak RSS from GNU time (%M, KiB); no wall time is asserted.
set -euo pipefail
trnsim=$1; src=$2
if [ ! -x /usr/bin/time ]; then echo "skip: /usr/bin/time (GNU time) not installed"; exit 77; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$src/workloads/scenarios/llama2-70b-trn1-pp.yaml
for m in 16 64; do
  /usr/bin/time -f %M -o "$tmp/rss$m" "$trnsim" run "$S" --exact --quiet --no-intervals --mode compiled \
    --set model.num_layers=4 --set parallel.fsdp=1 --set parallel.dp=4 \
    --set parallel.microbatches=$m --set batch.global_batch=$((8 * m)) --json "$tmp/m$m.json" > /dev/null
done
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
rss = {m: int(open(f"{t}/rss{m}").read().split()[-1]) for m in (16, 64)}
ops = {m: json.load(open(f"{t}/m{m}.json"))["sim"]["ops"] for m in (16, 64)}
print(f"peak RSS {rss[16] / 1024:.1f} MiB at 16 micro-batches ({ops[16]} ops), "
      f"{rss[64] / 1024:.1f} MiB at 64 ({ops[64]} ops)")
assert ops[64] > 3.5 * ops[16], ("the step at 64 micro-batches has about 4x the ops", ops)
assert rss[64] < 1.3 * rss[16], ("peak RSS must not grow with the micro-batches", rss)
print("ok - peak RSS of an --exact run does not grow with the micro-batches")
PY
