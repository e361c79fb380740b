#!/usr/bin/env bash
# Lazy-tensor tracing (runtime.lazy_trace, docs/model.md section 11): with the xla frontend in
# compiled mode the host traces every graph op of every micro-batch before it runs, and tracing
# overlaps the device. Closed form: when tracing is much slower than the device, the step is the
# host's time, ops x lazy_trace plus the compiled launches (plus the device's tail: the last
# backward and the optimizer update). With
# the torchneuron frontend, or in eager mode, the parameter is not read.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S=$src/workloads/scenarios/validation/e2-bert-large-ph2-16n.yaml
cut=(--set parallel.microbatches=16 --set batch.global_batch=16384 --set "runtime.compiled_launch=100 us" --quiet)
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
segments = 2 * 16  # a forward and a backward trace per micro-batch
launches = slow["steady"]["engine_ops"]["host"] - segments
host = ops * 5e-3 + launches * 100e-6  # every traced op, and the compiled launches (100 us each)
per_micro = base / 16
print(f"traced ops {ops}, host {host:.3f} s, step {step:.3f} s (device-bound step {base:.3f} s)")
# After the host's last trace, the device still runs the last backward and the optimizer update
# (less than two micro-batches of device time).
assert host <= step <= host + 2 * per_micro, ("host-bound step is the host's time", step, host, per_micro)
assert slow["steady"]["breakdown"]["host_dispatch"] > 0.9 * (step - base), slow["steady"]["breakdown"]
for fe in ("torchneuron", "xla"):
    a, b = load(f"{fe}-0")["steady"]["step_time_s"], load(f"{fe}-5")["steady"]["step_time_s"]
    assert a == b, (fe, "lazy_trace must not act here", a, b)
print("lazy_trace acts only on compiled runs of the xla frontend")
PY
