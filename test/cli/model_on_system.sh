#!/usr/bin/env bash
# "This model on that system" (issue 28, item 5; docs/plan.md section 7): `trnsim run --model M
# --system S [--chips N]` and `trnsim startup` without a scenario choose the layout,
# checkpointing and batch by the planner's quick search and say which; the header names the
# model. With a scenario, --model says which of the scenario's settings it kept.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

expect_ok "run --model qwen3-8b --system trn2.48xlarge" -- run --model qwen3-8b --system trn2.48xlarge \
  --json "$WORK/r.json"
check "the header names the model and the system" \
  grep -qx "qwen3-8b-trn2.48xlarge: qwen3-8b on 1 x trn2.48xlarge (16 chips), compiled mode" "$OUT"
check "the layout chosen and why" \
  grep -qE "^  chosen       tp=[0-9]+ pp=[0-9]+ \(microbatches [0-9]+\) dp=[0-9]+ fsdp=[0-9]+ ep=1, checkpointing [a-z_]+, 16 sequences x 4096 tokens: the smallest step bound \([0-9.]+ s\) of the [0-9]+ of [0-9]+ layouts that fit with 5% HBM headroom \(planner's quick search, docs/plan.md 8\)$" "$OUT"
chosen=$(sed -n 's/^  chosen       tp=\([0-9]*\) pp=\([0-9]*\) (microbatches \([0-9]*\)) dp=\([0-9]*\) fsdp=\([0-9]*\).*/tp=\1 pp=\2 (microbatches \3) dp=\4 fsdp=\5/p' "$OUT")
check "the run simulates the layout it names ($chosen)" grep -q "^  layout       $chosen" "$OUT"

# The same choice for a Hugging Face model directory (MyModel/ stands for MyModel/config.json),
# on two instances, and for startup.
mkdir -p "$WORK/MyModel"
sed 's/"num_hidden_layers": 32/"num_hidden_layers": 4/' "$SRC/test/data/hf/llama-3.1-8b.json" >"$WORK/MyModel/config.json"
expect_ok "run --model MyModel/ --system trn1.32xlarge --chips 32" -- run --model "$WORK/MyModel/" \
  --system trn1.32xlarge --chips 32
check "two instances, the directory's name as the model's" \
  grep -qx "MyModel-trn1.32xlarge-x2: MyModel on 2 x trn1.32xlarge (32 chips), compiled mode" "$OUT"
check "32 sequences, one per chip" grep -q "32 sequences x 4096 tokens: the smallest step bound" "$OUT"
expect_ok "startup --model qwen3-8b --system trn2.48xlarge" -- startup --model qwen3-8b --system trn2.48xlarge \
  --set model.num_layers=2
check "startup's header names the model, then the choice" \
  bash -c "head -2 '$OUT' | grep -q '^qwen3-8b-trn2.48xlarge: first training step, qwen3-8b on 1 x trn2.48xlarge' &&
           sed -n 2p '$OUT' | grep -q '^  chosen       tp='"
expect_ok "the choice is deterministic" -- run --model qwen3-8b --system trn2.48xlarge --json "$WORK/r2.json"
check "same inputs, same JSON (wall time aside)" python3 -c "
import json
a, b = (json.load(open(f)) for f in ('$WORK/r.json', '$WORK/r2.json'))
for d in (a, b): d['sim'].pop('wall_s')
assert a == b"

# One chip (trn1.2xlarge): a small model gets a layout on its two NeuronCores and a first step on
# its 8-vCPU host; a 7B model does not fit, and the message says so.
expect_ok "startup --model gpt2 --system trn1.2xlarge" -- startup --model gpt2 --system trn1.2xlarge --no-intervals
check "gpt2 on one trn1 chip: a layout of its two NeuronCores" \
  grep -qE "^  chosen       tp=[12] pp=1 \(microbatches [0-9]+\) dp=[12] fsdp=1 " "$OUT"
check "gpt2 on one trn1 chip: one compile worker on 8 vCPUs" grep -qE "^  compile workers +1 +1$" "$OUT"
expect_error "llama2-7b does not fit one trn1 chip" "no layout on 1 chips of trn1.2xlarge that fits in HBM" -- \
  run --model llama2-7b --system trn1.2xlarge

# A scenario with another model: which of its settings were kept.
expect_ok "run a scenario with --model" -- run qwen3-32b-trn2 --model qwen3-8b --set model.num_layers=2
check "the settings the scenario kept" grep -qx "  --model      qwen3-8b replaces the scenario's model; kept from qwen3-32b-trn2: layout tp=4 pp=1 dp=1 fsdp=16 ep=1, batch 16 x 4096, checkpointing full, precision bf16, compiled mode (--model M --system S without a scenario chooses them for M)" "$OUT"
finish
