#!/usr/bin/env python3
"""The compile-latency fit against every public start-up figure it covers (docs/startup.md
section 3): runs `trnsim calibrate workloads/calibration/compile_observations.yaml` (in-sample,
leave-one-out and held-out errors, graph counts, what determines each parameter), checks that the
shipped workloads/calibration/compile.yaml is what it produces, and writes the block between the
COMPILE markers of docs/validation.md ("First step and compile time").

Usage: tools/validate_compile.py BUILD_DIR [--check]   (run by `make validate`)
--check: write nothing; exit 1 when compile.yaml or the docs block is not current."""
import json, math, os, statistics, subprocess, sys, tempfile

import yaml  # Debian's python3-yaml

build = sys.argv[1] if len(sys.argv) > 1 else "build"
check = "--check" in sys.argv[2:]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
trnsim = os.path.join(build, "trnsim")
obs_file = os.path.join(root, "workloads/calibration/compile_observations.yaml")
shipped = os.path.join(root, "workloads/calibration/compile.yaml")
BEGIN, END = "<!-- COMPILE BEGIN", "<!-- COMPILE END -->"

with tempfile.TemporaryDirectory() as d:
    out, res = os.path.join(d, "compile.yaml"), os.path.join(d, "residuals.json")
    subprocess.run([trnsim, "calibrate", obs_file, "--out", out, "--residuals", res], check=True,
                   stdout=subprocess.DEVNULL)
    fitted_yaml = open(out).read()
    fit = json.load(open(res))
stale = fitted_yaml != open(shipped).read()


def pct(model, measured):
    return "%+.1f%%" % (100 * (model / measured - 1))


def secs(x):
    return "{:,.1f}".format(x)


def summary(name, s):
    return "| %s | %d | %.1f %% | %.1f %% | %.1f %% |" % (name, s["n"], 100 * s["median"], 100 * s["p90"], 100 * s["max"])


KIND = {"first_step": "first step", "compile": "compile", "precompile": "precompile job", "inference_compile": "NxDI compile",
        "weight_load": "weight load", "cache_hit": "cache hit"}
obs = fit["observations"]
timed = len(obs)
held = [o for o in obs if o["held_out"]]
s = fit["summary"]
lines = [BEGIN + " (tools/validate_compile.py, make validate) -->",
         "### The compile fit: in sample, leave-one-out, held out", "",
         "`build/trnsim calibrate workloads/calibration/compile_observations.yaml --residuals F` fits the compile-latency "
         "parameters (docs/startup.md section 3) to %d timed public figures at once: the seed's five (Qwen3-32B first "
         "steps, the gpt-oss-20B and BERT-Large compiles), later training compiles (GPT-3 6.7B with the Megatron-LM "
         "reference, C18; NxD and NeMo-Megatron jobs at SDK 2.15-2.21, C19; BERT-Large on two nodes and three "
         "Hugging Face Trainer fine-tuning jobs on one trn1.2xlarge, C21; %d of them time the whole "
         "neuron_parallel_compile job, its trial run included, C20), %d compile times of NxD Inference's "
         "contributed models on trn1.32xlarge (C14) and a weight-load rate (C7), with the FlexAttention outcome as 96 "
         "pass/fail bounds and %d graph counts of AWS's training logs as checks. %d of them, chosen before they "
         "could be fitted by the rule in the file (every fifth NxD Inference row from the third, and every figure "
         "found after a shipped fit), are held out: never fitted. Every other figure is predicted once by a refit "
         "without it (leave-one-out)."
         % (timed, sum(1 for o in obs if o["kind"] == "precompile"),
            sum(1 for o in obs if o["kind"] == "inference_compile"), len(fit["graph_counts"]),
            len(held)), "",
         "| errors (model / published - 1) | figures | median | 90th percentile | maximum |",
         "|---|---:|---:|---:|---:|",
         summary("in sample (fitted figures)", s["in_sample"]),
         summary("leave-one-out (fitted figures)", s["leave_one_out"]),
         summary("held out (never fitted)", s["held_out"]), ""]
loo = s["leave_one_out"]
met = loo["median"] <= 0.20 and loo["p90"] <= 0.50
lines += ["The target for the leave-one-out errors is a median of at most 20 %% and a 90th percentile of at most "
          "50 %%: %s (%.1f %% and %.1f %%). How far the published figures themselves scatter, and which figures the "
          "model misses, is in docs/startup.md section 3.4." % ("met" if met else "**not met**",
                                                               100 * loo["median"], 100 * loo["p90"]), "",
          "| figure | kind | published (s) | in sample (s) | error | leave-one-out (s) | error |",
          "|---|---|---:|---:|---:|---:|---:|"]
for o in obs:
    m = o["measured_s"]
    if o["held_out"]:
        lines.append("| %s | %s | %s | held out | | %s | %s |" % (o["name"], KIND[o["kind"]], secs(m),
                                                                  secs(o["loo_s"]), pct(o["loo_s"], m)))
    else:
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (o["name"], KIND[o["kind"]], secs(m),
                                                             secs(o["in_sample_s"]), pct(o["in_sample_s"], m),
                                                             secs(o["loo_s"]), pct(o["loo_s"], m)))
lines += ["", "Graph counts (checked, not fitted; docs/startup.md 1.2):", "",
          "| job | published | model | error |", "|---|---:|---:|---:|"]
for c in fit["graph_counts"]:
    lines.append("| %s | %d | %d | %s |" % (c["name"], c["published"], c["modelled"], pct(c["modelled"], c["published"])))
tr = fit["tkg_traffic"]
dense = fit["tkg_traffic_summary"]["dense"]
lines += ["", "Token-generation HBM reads (checked, not fitted; docs/startup.md 3.2): each contributed model's README also "
          "gives the bytes its token-generation NEFF reads per step (neuron-profile's HBM Read). The graph the model "
          "builds reads its rank's weights, the KV cache and the embedding rows of its tokens; over the %d dense "
          "models the median error is %.1f %%, the largest %.1f %%. The MoE models read a part of their experts, the "
          "model all of them:" % (dense["n"], 100 * dense["median"], 100 * dense["max"]), "",
          "| MoE model | published (GB) | model, every expert (GB) | model / published |", "|---|---:|---:|---:|"]
for t in tr:
    if t["moe"]:
        lines.append("| %s | %.2f | %.2f | %.2f |" % (t["name"], t["measured_bytes"] / 1e9, t["modelled_bytes"] / 1e9,
                                                   t["modelled_bytes"] / t["measured_bytes"]))


def solve(a, b):  # Gauss-Jordan with partial pivoting: a x = b
    n = len(b)
    a, b = [row[:] for row in a], b[:]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(a[r][i]))
        a[i], a[piv], b[i], b[piv] = a[piv], a[i], b[piv], b[i]
        for r in range(n):
            if r != i:
                f = a[r][i] / a[i][i]
                a[r] = [x - f * y for x, y in zip(a[r], a[i])]
                b[r] -= f * b[i]
    return [b[i] / a[i][i] for i in range(n)]


def least_squares(xs, ys):
    n = len(xs[0])
    ata = [[sum(x[i] * x[j] for x in xs) for j in range(n)] for i in range(n)]
    return solve(ata, [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(n)])


def p90(v):
    v = sorted(v)
    at = 0.9 * (len(v) - 1)
    lo = int(at)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (at - lo)


# An unconstrained regression of ln(published time) on what the model knows of each fitted dense
# NxD Inference row, left out one row at a time like the model: how far these inputs can explain
# the figures at all (docs/startup.md 3.4).
spec = yaml.safe_load(open(obs_file))
archs = {m["name"]: m for m in yaml.safe_load(open(os.path.join(root, "workloads/calibration",
                                                                spec["models"])))["models"]}
row_of = {o["name"]: o for o in spec["observations"]}
read_of = {t["name"]: t["modelled_bytes"] for t in tr}
reg, model_loo = [], []
for o in obs:
    r = row_of[o["name"]]
    if o["kind"] != "inference_compile" or o["held_out"] or archs[r["model"]].get("num_experts", 0):
        continue
    a = archs[r["model"]]
    reg.append(([1.0, math.log(read_of[o["name"]]), math.log(a["num_layers"]), math.log(r["tp"]),
                 math.log(r["seq"]), 1.0 if r.get("compiler_args_override") else 0.0], math.log(o["measured_s"])))
    model_loo.append(abs(o["loo_s"] / o["measured_s"] - 1))
reg_loo = []
for i, (x, y) in enumerate(reg):
    rest = reg[:i] + reg[i + 1:]
    beta = least_squares([r[0] for r in rest], [r[1] for r in rest])
    reg_loo.append(abs(math.exp(sum(b * v for b, v in zip(beta, x)) - y) - 1))
beta = least_squares([r[0] for r in reg], [r[1] for r in reg])
lines += ["", "An empirical check of the %d fitted dense NxD Inference rows: ln(published time) regressed on ln(bytes "
          "read by token generation), ln(layers), ln(TP), ln(sequence) and the model's own compiler arguments, "
          "with free coefficients (%s), left out one row at a time, has a median error of %.1f %% and a 90th "
          "percentile of %.1f %%; the model's leave-one-out errors on the same rows are %.1f %% and %.1f %%."
          % (len(reg), ", ".join("%+.2f" % b for b in beta[1:]), 100 * statistics.median(reg_loo), 100 * p90(reg_loo),
             100 * statistics.median(model_loo), 100 * p90(model_loo))]
fl = fit["flexattention"]
lines += ["", "FlexAttention (fitted as bounds): %d of 96 cases agree with the published outcome, %d fail (published: 7)."
          % (fl["agree"], fl["fail"]), "",
          "What determines each fitted parameter: the observations' share of the fit's information on it (under 50 % "
          "the parameter rests on its prior and is an assumption), and the figures that carry most of it:", "",
          "| parameter | data share | rests on |", "|---|---:|---|"]
for p in fit["parameters"]:
    by = "; ".join(p["determined_by"]) if p["determined_by"] else "none"
    lines.append("| `%s` | %.0f %% | %s |" % (p["name"], 100 * p["data_share"],
                                            ("ASSUMPTION (prior); " if p["assumption"] else "") + by))
lines.append(END)
block = "\n".join(lines)

doc_path = os.path.join(root, "docs/validation.md")
doc = open(doc_path).read()
if BEGIN not in doc:
    sys.exit("docs/validation.md has no %s ... %s block" % (BEGIN, END))
new_doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END):]
print(block)
if stale:
    print("\n**Stale:** workloads/calibration/compile.yaml is not what `trnsim calibrate` produces; rerun "
          "`build/trnsim calibrate workloads/calibration/compile_observations.yaml --out workloads/calibration/compile.yaml`.")
if check:
    if new_doc != doc:
        print("\ndocs/validation.md's compile block is not current: run `make validate`.")
    sys.exit(1 if stale or new_doc != doc else 0)
open(doc_path, "w").write(new_doc)
sys.exit(1 if stale else 0)
