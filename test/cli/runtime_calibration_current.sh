#!/usr/bin/env bash
# The shipped runtime calibration is current: re-simulating every observation of
# workloads/calibration/runtime_observations.yaml (the Qwen3-32B seed and AWS's trn1 rows) at the
# shipped parameters gives exactly the throughputs recorded in runtime_residuals.json (from which
# runtime.yaml's residual lines and docs/validation.md are written), the seed still holds within
# 5 % (eager 11,099, compiled 14,156 tokens/s), every fitted parameter has a prior and a
# provenance line, and no parameter acts on one table row only.
# (The fit itself, `trnsim calibrate-runtime`, takes about 15 minutes: docs/validation.md, Runtime calibration.)
set -euo pipefail
trnsim=$1; src=$2
"$trnsim" calibrate-runtime --check "$src/workloads/calibration/runtime_residuals.json"
python3 - "$src" <<'PY'
import json, re, sys
src = sys.argv[1]
doc = json.load(open(f"{src}/workloads/calibration/runtime_residuals.json"))
seed = {r["id"]: r for r in doc["rows"] if r["group"] == "seed"}
for k, pub in (("qwen3-32b-eager", 11099), ("qwen3-32b-compiled", 14156)):
    s = seed[k]["simulated_tokens_per_s"]
    print(f"{k}: {s:.0f} tokens/s simulated, {pub} published")
    assert abs(s / pub - 1) <= 0.05, (k, s, pub)
y = open(f"{src}/workloads/calibration/runtime.yaml").read()
for p in doc["parameters"]:
    assert p["prior"] > 0 and p["prior_log_sigma"] > 0 and p["provenance"] and p["applies"], p
    assert re.search(r"^  %s: .*# fitted; prior .*sigma" % p["name"], y, re.M), ("no prior line", p["name"])
# Each parameter moves more than one table row (fold), or none: nothing is fitted to one row.
loo = [r for r in doc["rows"] if "loo_parameters" in r]
for p in doc["parameters"]:
    moved = {r["id"] for r in loo if abs(r["loo_parameters"][p["name"]] / p["value"] - 1) > 1e-3}
    assert len(moved) != 1, (p["name"], "is determined by one row only", moved)
print("runtime calibration is current; %d parameters with priors" % len(doc["parameters"]))
PY
