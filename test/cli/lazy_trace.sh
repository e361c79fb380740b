#!/usr/bin/env bash
# Lazy-tensor tracing (runtime.lazy_trace, docs/model.md section 11): with the xla frontend in
# compiled mode the host traces every graph op of every micro-batch before it runs, and tracing
# overlaps the device. Closed form: when tracing is much slower than the device, the step is the
# host's time, ops x lazy_trace plus the compiled launches (plus the device's tail: the last
# micro-batch, the gradient reduction and the optimizer update). With
# the torchneuron frontend, or in eager mode, the parameter is not read.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$src/workloads/scenarios/validation/e2-bert-large-ph2-16n.yaml
cut=(--no-intervals --set parallel.microbatches=16 --set batch.global_batch=16384 --set "runtime.compiled_launch=100 us"
     --set "runtime.lazy_trace_tensor=0 us" --quiet)
"$trnsim" run "$S" "${cut[@]}" --set "runtime.lazy_trace=0 us" --json "$tmp/none.json" > /dev/null
"$trnsim" run "$S" "${cut[@]}" --set "runtime.lazy_trace=5 ms" --json "$tmp/slow.json" > /dev/null
for f in torchneuron:compiled xla:eager; do
  fe=${f%:*}; mode=${f#*:}
  "$trnsim" run "$S" "${cut[@]}" --set compile.frontend=$fe --mode $mode --set "runtime.lazy_trace=0 us" --json "$tmp/$fe-0.json" > /dev/null
  "$trnsim" run "$S" "${cut[@]}" --set compile.frontend=$fe --mode $mode --set "runtime.lazy_trace=5 ms" --json "$tmp/$fe-5.json" > /dev/null
done
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
def load(n): return json.load(open(f"{t}/{n}.json"))
none, slow = load("none"), load("slow")
ops = slow["sim"]["ops"]
step, base = slow["steady"]["step_time_s"], none["steady"]["step_time_s"]
graphs = 16  # AWS's BERT script: one graph per micro-batch (compile.graph_cut: microbatch)
# Host ops: a trace per graph and one for the optimizer's graph, the launches, and before each
# micro-batch's launch but the first a wait for the previous graph (torch-xla runs one graph at a
# time; zero host time).
launches = slow["steady"]["engine_ops"]["host"] - (graphs + 1) - (graphs - 1)
host = ops * 5e-3 + launches * 100e-6  # every traced op, and the compiled launches (100 us each)
print(f"traced ops {ops}, host {host:.3f} s, step {step:.3f} s (device-bound step {base:.3f} s)")
# After the host's last trace, the device still runs the last micro-batch, the gradient reduction
# (after the whole backward, docs/model.md 11.2) and the optimizer update: less than the whole
# device-bound step.
assert host <= step <= host + base, ("host-bound step is the host's time", step, host, base)
assert slow["steady"]["breakdown"]["host_dispatch"] > 0.9 * (step - base), slow["steady"]["breakdown"]
for fe in ("torchneuron", "xla"):
    a, b = load(f"{fe}-0")["steady"]["step_time_s"], load(f"{fe}-5")["steady"]["step_time_s"]
    assert a == b, (fe, "lazy_trace must not act here", a, b)
print("lazy_trace acts only on compiled runs of the xla frontend")
PY
