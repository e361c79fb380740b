#!/usr/bin/env bash
# The statistics tree (issue 29, item 3): `trnsim run --stats FILE` writes the counters the
# fabric, the cores and the runner registered, each with a unit and a description, for every
# simulation of the step. Cross-checks against the run's JSON, which the step analysis builds
# from rank 0's retired ops: rank 0's per-engine busy time and ops, the finish time and the
# step time, the collective siblings; the events summed over the simulations (three for an
# extrapolated pipeline step) are the JSON's. The one-simulation case passes --all-layers: its
# 64 layers would otherwise be extrapolated from three runs (docs/workloads.md 1.6.5). Bad --stats paths are refused in words.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

expect_ok "run --stats, one simulation (every layer)" -- run qwen3-32b-trn2 --all-layers --no-intervals --quiet --stats "$WORK/one.txt" --json "$WORK/one.json"
expect_ok "run --stats, a pipeline step extrapolated from three simulations" -- run llama2-70b-trn1-pp --no-intervals \
  --quiet --set model.num_layers=8 --set parallel.microbatches=64 --set batch.global_batch=256 \
  --stats "$WORK/pp.txt" --json "$WORK/pp.json"

record_results "$(python3 - "$WORK" <<'PY'
import json, re, sys
work = sys.argv[1]

def stats(path):
    vals, sims = {}, 0
    for line in open(path):
        if line.startswith("# sim"):
            sims += 1
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"(\S+)\s+(\S+)\s+(\S+)", line)
        vals[m.group(1)] = float(m.group(2))
        if "[" not in m.group(1) and "#" not in line:
            print("FAIL", m.group(1), "has no description")
    return vals, sims

def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))

for name, n_sims in (("one", 1), ("pp", 3)):
    v, sims = stats(f"{work}/{name}.txt")
    j = json.load(open(f"{work}/{name}.json"))
    print("ok" if sims == n_sims else "FAIL", f"{name}: {sims} simulations (expected {n_sims})")
    events = sum(x for k, x in v.items() if k.endswith(".system.queue_events") or k.endswith(".system.fabric.events"))
    print("ok" if events == j["sim"]["events"] else "FAIL", f"{name}: events summed over simulations {events} = JSON {j['sim']['events']}")
    last = f"sim{n_sims}"
    if n_sims == 1:
        s = j["steady"]
        for e, busy in s["engine_busy_s"].items():
            print("ok" if close(v[f"{last}.runner.rank0.{e}.busy"], busy) else "FAIL", f"{name}: rank0 {e} busy = the step analysis's")
        for e, ops in s["engine_ops"].items():
            print("ok" if v[f"{last}.runner.rank0.{e}.ops"] == ops else "FAIL", f"{name}: rank0 {e} ops = the step analysis's")
        print("ok" if close(v[f"{last}.runner.rank0.finish"], s["step_time_s"]) else "FAIL", f"{name}: rank0 finish = step time")
        print("ok" if v[f"{last}.runner.collectives.siblings"] == j["sim"]["sibling_collectives"] else "FAIL",
              f"{name}: sibling collectives = the JSON's")
    carried = [x for k, x in v.items() if ".fabric.carried[" in k]
    print("ok" if carried and all(x > 0 for x in carried) else "FAIL", f"{name}: per-resource bytes listed, none zero")
PY
)"

expect_error "--stats to standard output" "--stats -" "expected a file path" -- run qwen3-32b-trn2 --stats -
expect_error "--stats into a missing directory" "--stats" -- run qwen3-32b-trn2 --stats "$WORK/no/such/dir/s.txt"
finish
