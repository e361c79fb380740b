#!/usr/bin/env bash
# The optimizer's per-tensor trace (runtime.lazy_trace_tensor, docs/model.md 11.9): with the xla
# frontend in compiled mode the host traces the optimizer step tensor by tensor every step,
# after launching the last backward. Closed form: a trace far longer than the device's step
# lengthens the step by the whole trace, parameter tensors x lazy_trace_tensor, less the part the
# last backward's execution hides (at most the step at zero cost). The torchneuron frontend and
# eager runs do not read the parameter; and one more layer adds its tensors' trace.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$src/workloads/scenarios/validation/t8-gpt3-6.7b-megatron-1n-tp8.yaml
cut=(--set parallel.microbatches=4 --set batch.global_batch=16 --quiet)
run() { "$trnsim" run "$S" "${cut[@]}" --no-intervals "$@"; }
for L in 2 3; do
  run --set model.num_layers=$L --set "runtime.lazy_trace_tensor=0 us" --json "$tmp/l$L-0.json" > /dev/null
  run --set model.num_layers=$L --set "runtime.lazy_trace_tensor=50 ms" --json "$tmp/l$L-50.json" > /dev/null
done
for f in torchneuron:compiled xla:eager; do
  fe=${f%:*}; mode=${f#*:}
  run --set model.num_layers=2 --set compile.frontend=$fe --mode $mode --set "runtime.lazy_trace_tensor=0 us" --json "$tmp/$fe-0.json" > /dev/null
  run --set model.num_layers=2 --set compile.frontend=$fe --mode $mode --set "runtime.lazy_trace_tensor=50 ms" --json "$tmp/$fe-50.json" > /dev/null
done
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
def step(n): return json.load(open(f"{t}/{n}.json"))["steady"]["step_time_s"]
# GPT3-6.7B per rank at PP 1: 12 tensors a layer (two LayerNorms, fused QKV, output, two MLP
# matrices, each with its bias), the token and position tables and the final LayerNorm.
for L in (2, 3):
    tensors = 12 * L + 2 + 2
    trace = tensors * 50e-3
    base, slow = step(f"l{L}-0"), step(f"l{L}-50")
    print(f"{L} layers: {tensors} tensors, trace {trace:.3f} s, step {base:.3f} -> {slow:.3f} s")
    assert trace - base <= slow - base <= trace + 1e-9, ("the exposed trace", L, base, slow, trace)
assert step("l3-50") - step("l2-50") > 12 * 50e-3 - (step("l3-0") - step("l2-0")) - 1e-9
for fe in ("torchneuron", "xla"):
    a, b = step(f"{fe}-0"), step(f"{fe}-50")
    assert a == b, (fe, "lazy_trace_tensor must not act here", a, b)
print("lazy_trace_tensor acts only on compiled runs of the xla frontend, by the stage's tensor count")
PY
