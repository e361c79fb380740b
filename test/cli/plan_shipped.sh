#!/usr/bin/env bash
# `trnsim plan` finds a layout at least as fast as the shipped one (issue 13): Qwen3-32B on
# one trn2.48xlarge with the seed's batch (16 sequences x 4,096 tokens), the whole model and
# the whole default search space. The plan's best step time is at most the simulated step
# of workloads/scenarios/qwen3-32b-trn2.yaml (TP 4 x FSDP 16, full checkpointing), run
# with `trnsim run`. No restriction is needed to keep this test small: with the schedule
# bound (docs/plan.md section 2, rule 6) the plan simulates 4 of its 76 layouts that fit in
# memory (about 15 s on two shared cores; the whole search took 6.5 minutes with the FLOP
# bound alone).
source "$(dirname "$0")/lib.bash"

expect_ok "plan qwen3-32b on one trn2.48xlarge, 16 x 4096" -- plan --model qwen3-32b --tokens 1e9 \
  --systems trn2.48xlarge --max-chips 16 --global-batch 16 --seq-len 4096 --json "$WORK/plan.json" -j 2
expect_ok "run the shipped layout" -- run qwen3-32b-trn2 --json "$WORK/run.json"
check "the plan's best is at least as fast as the shipped layout" \
  python3 - "$WORK/plan.json" "$WORK/run.json" "$SRC/workloads/scenarios/qwen3-32b-trn2.yaml" <<'PY'
import json, sys
plan, run = (json.load(open(p)) for p in sys.argv[1:3])
shipped = open(sys.argv[3]).read()
# The scenario is the seed's: TP 4 x FSDP 16, full checkpointing, 16 x 4096 (else this test
# compares something else).
for line in ("tp: 4", "fsdp: 16", "global_batch: 16", "seq_len: 4096", "checkpointing: full"):
    assert line in shipped, f"the shipped scenario changed: no '{line}'"
best = plan["candidates"][0]
step = run["steady"]["step_time_s"]
print(f"plan best {best['layout']['text']}: {best['step_time_s']:.4f} s; shipped layout {step:.4f} s")
assert best["global_batch"] == 16 and best["seq_len"] == 4096 and best["chips"] == 16, best
assert best["step_time_s"] <= step, (best["step_time_s"], step)
PY
finish
