#!/usr/bin/env bash
# FP32 models (docs/model.md 11.11): for the same scenario an FP32 step is never shorter than a
# BF16 one, and without the compiler's auto-cast (compile.auto_cast: none) never shorter than
# with it; an FP32 model doubles the weights and gradients in HBM and keeps no master copy; the
# held-out FP32 BERT scenario runs; a bad auto_cast value is a config error.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
BERT=$SRC/workloads/scenarios/validation/h9-bert-large-ph1-fp32-16n.yaml
# Cuts that keep each run to a fraction of a second: 8 of BERT's 256 micro-batches, 2 layers of
# the decoders (1 per stage with 4 micro-batches for the pipeline).
declare -A CASE=(
  [bert]="$BERT --set parallel.microbatches=8 --set batch.global_batch=32768"
  [qwen3]="qwen3-32b-trn2 --set model.num_layers=2"
  [qwen3-eager]="qwen3-32b-trn2 --mode eager --set model.num_layers=2"
  [mixtral]="mixtral-8x7b-trn2 --set model.num_layers=2"
  [llama-pp]="llama2-70b-trn1-pp --set model.num_layers=4 --set parallel.microbatches=4 --set batch.global_batch=16"
)
for c in "${!CASE[@]}"; do
  read -r -a args <<<"${CASE[$c]}"
  expect_ok "$c bf16" -- run "${args[@]}" --quiet --set precision.compute=bf16 --json "$D/$c-bf16.json"
  expect_ok "$c fp32" -- run "${args[@]}" --quiet --set precision.compute=fp32 --json "$D/$c-fp32.json"
  expect_ok "$c fp32 without auto-cast" -- run "${args[@]}" --quiet --set precision.compute=fp32 \
    --set compile.auto_cast=none --json "$D/$c-none.json"
done
results=$(python3 - "$D" "${!CASE[@]}" 2>&1 <<'PY'
import json, sys
d, cases = sys.argv[1], sys.argv[2:]
def ok(desc, cond):
    print(("ok " if cond else "FAIL ") + desc)
for c in sorted(cases):
    r = {k: json.load(open(f"{d}/{c}-{k}.json")) for k in ("bf16", "fp32", "none")}
    t = {k: v["steady"]["step_time_s"] for k, v in r.items()}
    m = {k: v["memory"]["categories"] for k, v in r.items()}
    print("%s: step time (s) bf16 %.4f, fp32 %.4f (%.2fx), fp32 without auto-cast %.4f (%.2fx)"
          % (c, t["bf16"], t["fp32"], t["fp32"] / t["bf16"], t["none"], t["none"] / t["bf16"]))
    ok(f"{c}: fp32 is not faster than bf16", t["fp32"] >= t["bf16"] * (1 - 1e-9))
    ok(f"{c}: fp32 without auto-cast is not faster than with it", t["none"] >= t["fp32"] * (1 - 1e-9))
    ok(f"{c}: same model FLOPs", r["fp32"]["steady"]["model_flops"] == r["bf16"]["steady"]["model_flops"])
    ok(f"{c}: precision in the JSON", r["fp32"]["precision"]["compute"] == "fp32")
    ok(f"{c}: weights and gradients double",
       all(abs(m["fp32"][k] - 2 * m["bf16"][k]) <= 1e-9 * m["fp32"][k] for k in ("weights", "gradients")))
    sc = {k: v["steady"]["engine_busy_s"]["scalar"] for k, v in r.items()}
    # (ScalarE ops that stream FP32 bytes can also last longer when memory bound, e.g. in eager mode.)
    ok(f"{c}: the auto-cast takes ScalarE time", sc["fp32"] > sc["bf16"] * 1.001 and sc["fp32"] > sc["none"] * 1.001)
PY
)
record_results "$results"
expect_ok "FP32 BERT resolves" -- run "$BERT" --quiet --set parallel.microbatches=8 --set batch.global_batch=32768 \
  --resolved "$D/bert.yaml"
check "resolved: precision fp32" grep -q "compute: fp32" "$D/bert.yaml"
check "resolved: auto_cast" grep -q "auto_cast: matmult" "$D/bert.yaml"
expect_error "unknown auto_cast lists the accepted values" "compile.auto_cast" "expected one of matmult, none" \
  -- run qwen3-32b-trn2 --set compile.auto_cast=all
expect_error "mxfp8 on trn1 names the chip and offers fp32" "precision.compute" "chip trn1 publishes no dense MXFP8" \
  "accepted on this chip: bf16, fp16, fp32, fp8" -- run "$BERT" --set precision.compute=mxfp8
finish
