#!/usr/bin/env python3
"""`make validate`: simulate every row of AWS's published trn1 training tables
(workloads/validation/trn1-training.yaml) with the shipped runtime calibration and compare.

The runtime parameters are fitted jointly to the seed and to these rows
(`trnsim calibrate-runtime`, workloads/calibration/runtime_observations.yaml), so the errors
simulated here are in-sample; the leave-one-out errors (each row left out of the fit) come from
the calibration's residuals file, workloads/calibration/runtime_residuals.json, whose in-sample
figures this script checks against its own simulations. Writes the section between the TRN1
markers of docs/validation.md, prints the table, and writes an HTML report with the plot of
simulated against published throughput (BUILD_DIR/validation.html).
Usage: tools/validate.py BUILD_DIR [-j N]
"""
import concurrent.futures, json, os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else "build"
jobs = int(sys.argv[sys.argv.index("-j") + 1]) if "-j" in sys.argv else 1
trnsim = os.path.join(build, "trnsim")


def load_rows(path):
    """The rows of the published-figures file (a small YAML subset: a list of flat maps)."""
    rows, cur = [], None
    for line in open(path):
        if line.lstrip().startswith("#") or not line.strip():
            continue
        m = re.match(r"\s*-\s+(\w+):\s*(.*)$", line) or re.match(r"\s+(\w+):\s*(.*)$", line)
        if not m:
            continue
        if line.lstrip().startswith("- "):
            cur = {}
            rows.append(cur)
        if cur is not None:
            v = m.group(2).strip().strip('"')
            cur[m.group(1)] = v
    return rows


def simulate(row, sdk=None):
    """The row's scenario, or with sdk set, the same job on that SDK release's runtime."""
    extra = ["--set", "system.chip.collectives.sdk=" + sdk] if sdk else []
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = subprocess.run([trnsim, "run", os.path.join(root, row["scenario"]), "--quiet", "--json", out] + extra,
                           capture_output=True, text=True)
        if p.returncode != 0:
            return row, None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"
        return row, json.load(open(out)), None


rows = load_rows(os.path.join(root, "workloads/validation/trn1-training.yaml"))
holdout_rows = load_rows(os.path.join(root, "workloads/validation/trn1-holdout.yaml"))
# The same jobs at other SDK releases: each row names the calibration or held-out row whose job
# (and scenario) it repeats, so it needs no simulation of its own.
release_rows = load_rows(os.path.join(root, "workloads/validation/trn1-releases.yaml"))
results, holdout = [], []
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
    for row, js, err in ex.map(simulate, rows + holdout_rows):
        (results if len(results) < len(rows) else holdout).append((row, js, err))
sims = {row["id"]: (row, js) for row, js, err in results + holdout if js is not None}


def sdk_key(v):
    return tuple(int(x) for x in v.split(".")[:2]) if v else (99, 0)


# A release row of an older SDK than 2.21 (or of a job whose own row is) can run on another
# runtime all-reduce (docs/model.md 8.7): such rows get their own simulation at their release.
def own_release(r):
    base = sims.get(r["of"], (None, None))[0]
    return (base is not None and r.get("sdk") and r.get("sdk") != base.get("sdk")
            and min(sdk_key(r["sdk"]), sdk_key(base.get("sdk", ""))) < (2, 21))


release_sims, release_failed = {}, {}
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
    older = [r for r in release_rows if own_release(r)]
    for r, (_, js, err) in zip(older, ex.map(lambda r: simulate(sims[r["of"]][0], r["sdk"]), older)):
        if js is None:
            release_failed[r["id"]] = err
        else:
            release_sims[r["id"]] = js


def release_js(r):
    """The simulation a release row is compared with: its own (own_release), or its job's."""
    return release_sims[r["id"]] if own_release(r) else sims[r["of"]][1]


def simulated_seq_per_s(row, js):
    """The simulated throughput in the row's unit (sequences/s): tokens/s over the row's tokens per
    sequence (its published tokens/s over its published figure)."""
    return js["steady"]["tokens_per_s"] / (float(row["tokens_per_s"]) / float(row["value"]))

residuals_path = os.path.join(root, "workloads/calibration/runtime_residuals.json")
fit = json.load(open(residuals_path))
fit_rows = {r["id"]: r for r in fit["rows"]}
def us_or(p, v):
    return ("%.2f us" % (v * 1e6)) if p["name"] in ("eager_dispatch", "lazy_trace", "lazy_trace_tensor") else "%.4g" % v


determined = {"kernel_efficiency": "the Qwen3-32B seed (compiled and eager)",
              "xla_kernel_efficiency": "every trn1 decoder row",
              "eager_dispatch": "the Qwen3-32B eager figure",
              "lazy_trace": "the two BERT rows (E1, E2), where the host paces the step",
              "lazy_trace_tensor": "the rows where one rank holds the whole model for a short step: T7, T8 "
                                   "(Megatron-LM, PP 1) and E1, E2 (BERT)"}
S = fit["summary"]
P = {p["name"]: p for p in fit["parameters"]}
lines = ["<!-- TRN1 BEGIN (tools/validate.py, make validate) -->",
         "## Runtime calibration: one joint fit, leave-one-out errors", "",
         "`trnsim calibrate-runtime` (sim/app/calibration/calibrate_runtime.cpp) fits %d runtime parameters at once to the two "
         "Qwen3-32B seed figures and the %d rows of AWS's published trn1 tables "
         "(`workloads/calibration/runtime_observations.yaml` lists the data, each parameter's prior and what it acts "
         "on):" % (len(fit["parameters"]), sum(1 for r in fit["rows"] if r["group"] == "table")), "",
         "| parameter | acts on | prior (median, sigma of ln) | fitted | fit sigma of ln | determined by |",
         "|---|---|---|---:|---:|---|"]
for p in fit["parameters"]:
    lines.append("| `%s` | %s | %s, %.1f | %s | %.3f | %s |" % (p["name"], p["applies"], us_or(p, p["prior"]),
                 p["prior_log_sigma"], us_or(p, p["value"]), p["fit_log_sigma"], determined.get(p["name"], "")))
ke, kx = P.get("kernel_efficiency"), P.get("xla_kernel_efficiency")
lines += ["", "`compiled_launch` (100 us), `lazy_trace_tensor` (1 ms: the host's trace of one parameter tensor's "
          "optimizer step; fitted, it was set by T8 alone and spoiled the held-out H6, docs/model.md 11.9) and "
          "`workspace` (2 GiB) are assumptions, not fitted. " +
          ("The two efficiencies are independent parameters with the same prior, and the data put them %.0f %% apart "
           "(%.3f for TorchNeuron on Trainium2, %.3f for neuronx-cc on Trainium1): one tensor-engine efficiency "
           "describes both compiler paths, some evidence that it is a property of the generated kernels rather than "
           "a per-row correction. " % (100 * abs(kx["value"] / ke["value"] - 1), ke["value"], kx["value"])
           if ke and kx else "") +
          "What each mechanism does, with its sources, is in docs/model.md section 11.", "",
          "**Method.** MAP estimate: Levenberg-Marquardt on the residuals ln(simulated / published) / sigma of every "
          "row (sigma 0.02 for the two seed figures, measured on one system; 0.10 for the table rows, the size of "
          "AWS's own release-to-release spread, e.g. T1 against T1') plus the prior terms (ln p - ln prior) / prior "
          "sigma, started from the priors and from the previously shipped values (the lower cost wins: the simulated "
          "throughput has kinks, e.g. a host that paces a step only above some lazy_trace, where one start can stall), "
          "with a forward-difference Jacobian in ln p (a parameter's column is zero on rows it "
          "does not act on). Every evaluation is a full `trnsim run` of the row's scenario with the default "
          "reductions, in a forked child, two at a time. Duplicate releases of one configuration (T1', T3') share "
          "their original's simulation.", "",
          "**Leave-one-out.** For each table row (with its duplicate release: leaving T1 out also leaves T1' out), "
          "the fit is redone without it on the problem linearised at the full fit (one Gauss-Newton solve over the "
          "remaining rows and the priors), and the row is then *simulated* at those parameters; that figure against "
          "the published one is the row's leave-one-out error. The linearisation is accurate because leaving one row "
          "out moves a parameter by a few per cent at most (the residuals file records each fold's parameters).", "",
          "**Commands.** `build/trnsim calibrate-runtime --out workloads/calibration/runtime.yaml --residuals "
          "workloads/calibration/runtime_residuals.json` fits (10 to 25 minutes on the 2-CPU development machine, "
          "160 to 240 simulations, most of them full steps of the 70B rows); `build/trnsim calibrate-runtime --check workloads/calibration/runtime_residuals.json` "
          "<!-- slow: a minute: every validation row simulated again --> "
          "re-simulates every row at the shipped parameters and compares (what "
          "`test/cli/runtime_calibration_current.sh` runs, about a minute); `make validate` writes this section and "
          "`build/validation.html` (simulated against published, in sample and left out).", "",
          "**Result against issue 11's bar** (leave-one-out over the %d rows that are not duplicate releases: median "
          "at most 8 %%, maximum at most 15 %%): median %.2f %% (%s), maximum %.1f %% (%s)." %
          (S["rows"], 100 * S["loo_median"], "met" if S["loo_median"] <= 0.08 else "not met",
           100 * S["loo_max"], "met" if S["loo_max"] <= 0.15 else "not met")]
def sim_seq(rid):
    """The simulated figure of a row (calibration or held-out) in its own unit, or None."""
    return simulated_seq_per_s(*sims[rid]) if rid in sims else None


def per_node(rid):
    return sim_seq(rid) / float(sims[rid][1]["system"]["instances"])


def published(rid, sdks=None):
    """AWS's figures (seq/s) for row rid's job: the row's own and its other releases
    (trn1-releases.yaml), optionally only at the given SDK releases."""
    vals = [(sims[rid][0].get("sdk"), float(sims[rid][0]["value"]))] if rid in sims else []
    vals += [(r.get("sdk"), float(r["value"])) for r in release_rows if r["of"] == rid]
    return [v for sdk, v in vals if sdks is None or sdk in sdks]


def err_of(rid):
    return 100 * (sim_seq(rid) / float(sims[rid][0]["value"]) - 1) if rid in sims else float("nan")


notes = {
    "T8": "GPT3-6.7B on one node, SDK 2.6 (December 2022), the oldest figure of the set. Its runtime ran every "
          "all-reduce as the ring: the all-to-all all-reduce, \"expected to improve All-Reduce performance by 3-7x "
          "in most cases\", came with SDK 2.11 (S34), and the model runs that ring at a third of the collective DMA "
          "rate, the note's lower end (docs/model.md 8.7); the job's TP 8 all-reduces of 16.8 MB (four per layer and "
          "micro-batch, no sequence parallelism) are most of its communication. Before the seventh round, with the "
          "current runtime's rdh for them, T8 was the row furthest from AWS's figure (+37.3 %% leave-one-out). AWS's "
          "figure for the job at 2.5 is 15 %% below 2.6's; both releases have the same all-reduce in the model." ,
    "T7": "T8's per-rank job (TP 8, 16 micro-batches per replica) on 16 nodes with the Megatron-LM reference, SDK "
          "2.12 (July 2023). Runtime 2.15.11 (SDK 2.12) enabled the all-to-all all-reduce \"for 16 ranks ... within "
          "the instance\" and 2.11's came first for the whole instance (S34); no release note gives 8-rank groups "
          "the new all-reduce before 2.21, so the model runs T7's TP all-reduces as T8's (docs/model.md 8.7). AWS's "
          "figures for this job rose from 110.00 seq/s at 2.5 through 127.00 at 2.10 to 141.57 at 2.12 and 143.75 "
          "at 2.13 (the release table below); the simulation, %.2f seq/s, has one runtime for all four and lies "
          "inside their range, %+.1f %% against 2.10 and %+.1f %% against 2.12, its own row. What the software gained "
          "from 2.10 to 2.13 is not in the release notes as a mechanism of this job." %
          ((sim_seq("T7"), 100 * (sim_seq("T7") / 127.0 - 1), err_of("T7")) if "T7" in sims
           else (float("nan"), float("nan"), float("nan"))),
    "T5": "GPT3-23B with NeMo-Megatron, TP 8 x PP 4, selective checkpointing, SDK 2.18. AWS's figures for the job "
          "at 2.14, 2.16, 2.17 and 2.18 lie within 5 %% of each other (103.00 to 107.18 seq/s) and the simulation, "
          "%.2f, is above all four. Its layers are T6's, which the model puts %.1f %% below AWS: T6's step over T5's is "
          "2.50 in the model and 2.22 in AWS's figures, the structural error of full recomputation (the model "
          "recomputes a whole forward as NeMo's code says, docs/model.md 11.4; docs/tutorial.md, exercise 7). The "
          "efficiency the eleven rows share splits that error between the two rows, and T5 now shows more of it." %
          ((sim_seq("T5"), 100 * (1 - sim_seq("T6") / float(sims["T6"][0]["value"]))) if "T5" in sims and "T6" in sims
           else (float("nan"), float("nan"))),
    "T6": "GPT3-46B with NeMo-Megatron, TP 8 x PP 8, the only calibration row with full activation checkpointing "
          "(gpt_46b.sh). Its layers are T5's (GPT3-23B, TP 8, 7 layers per stage in both), so AWS's two figures fix "
          "what full recomputation costs on this stack: T6's step is 2.22 x T5's where 1F1B with textbook full "
          "recomputation predicts about 2.6 x (2.03 x from the micro-batch counts alone), i.e. the published "
          "recomputation costs about a third of a forward. The model recomputes a whole forward, since the code says "
          "so: NeMo's Neuron fork cuts the graph between every micro-batch's forward and backward precisely so that "
          "the compiler cannot merge the recomputation with the original forward, and torch-xla's all-reduce token "
          "keeps the dead last matmul of the recomputation alive (docs/model.md 11.4, F30, F31). So T6's simulated "
          "step over T5's is still too large (docs/tutorial.md, exercise 7, runs both), though the "
          "refit leaves T6's own figure %.1f-%.1f %% below AWS's four releases (45.9 to 48.24 seq/s at SDK 2.14-2.18, "
          "the release table below), close to their spread, without removing that structural error. One lead for "
          "it: the fork's layers wrap "
          "their weights in a torch-neuronx custom call (TransferWithStaticRing) only when the granularity is full "
          "(transformer.py: transfer_with_static_ring = activations_checkpoint_granularity == 'full'); what it "
          "changes is not documented, so it is not modelled." %
          ((100 * (1 - sim_seq("T6") / min(published("T6"))), 100 * (1 - sim_seq("T6") / max(published("T6"))))
           if "T6" in sims else (float("nan"), float("nan"))),
    "T4": "Llama-2-70B NxD at PP 4 (SDK 2.18) is 24 %% faster than the same job at PP 8 (T3, SDK 2.21) in AWS's "
          "tables, where textbook 1F1B makes them nearly equal (bubbles of 2.3 %% and 2.7 %% at 128 and 256 "
          "micro-batches), and so does the model. AWS's own figures for T4's job at SDK 2.16 and 2.17, 15.34 and "
          "15.60 seq/s (the release table below), are within %.1f %% of the simulation's %.2f; the 2.18 figure of "
          "the table is 14.5 %% above the 2.17 one." %
          ((100 * max(abs(sim_seq("T4") / v - 1) for v in published("T4", ("2.16", "2.17"))), sim_seq("T4"))
           if "T4" in sims else (float("nan"), float("nan"))),
    "X1": "Llama-3-70B example log of NxD Training (AWS calls it illustrative; SDK not stated), sequence 8,192. "
          "NxD Training's config recomputes the MLP block as well as core attention "
          "(activations_checkpoint_recompute_mlp: True, F37), and so does NxD's tutorial script behind the held-out "
          "H2 at 8,192 tokens (F36): both scenarios use `checkpointing: selective_mlp` since the sixth round "
          "(docs/model.md 11.4), which took X1 from +17.2 %% to its figure here and H2 from -8.7 %% to %+.1f %%. "
          "H2 is the same per-rank job (TP 32 x PP 8, sequence 8,192) on twice the nodes, and AWS's figure for it is "
          "24 %% faster per node than X1's; the model puts the two within %.1f %% of each other per node." %
          ((err_of("H2"), 100 * abs(per_node("H2") / per_node("X1") - 1)) if "H2" in sims and "X1" in sims
           else (float("nan"), float("nan"))),
}
worst = sorted((r for r in fit["rows"] if "loo_error" in r and not r["duplicate_release"]),
               key=lambda r: -abs(r["loo_error"]))[:4]
lines += ["", "The rows with the largest leave-one-out errors:", ""]
for r in worst:
    lines.append("- **%s** (%+.1f %%): %s" % (r["id"], 100 * r["loo_error"], notes.get(r["id"], "")))
lines += ["", "History of this fit (leave-one-out median / maximum): 4.7 % / 18.8 % with lazy-tensor tracing and the "
          "per-path efficiency alone; 8.05 % / 22.8 % after the corrections of docs/model.md 11.1-11.3 and 11.6 (TP "
          "reductions beside the wgrad, ZeRO-1 reduce-scatter, pipeline messages of 1/tp with sequence parallelism, "
          "the gradient send after its backward, the PV matmul's own shape); 4.67 % / 20.5 % with unfused attention "
          "for Megatron-LM and HF BERT (T7, T8, E1, E2; docs/model.md 11.6); 6.79 % / 20.3 % after the second round "
          "(whole-graph list scheduling of xla segments with one launch per graph, recomputation one layer ahead, SP "
          "gathers that wait for their operand, unfused core attention for NeMo-Megatron as its Neuron fork runs it: "
          "T5 and T6 lose about 5 % from the attention alone); 6.22 % / 19.9 % after the third round (the SP "
          "all-gather that NxD's and the NeMo fork's linear layers repeat in the backward for the weight gradient, "
          "docs/model.md 11.1, F33: most rows move by less than 1 %, the TP 32 rows by 1-2 %; held out, H1 improves "
          "from +5.8 % to +3.2 % and H3 worsens from -16.9 % to -18.8 %); the figures above after the "
          "fourth round (docs/model.md 11.2 and 11.9, F34, F35): the xla frameworks reduce the data-parallel gradients in "
          "a graph after the whole backward, not overlapped with it (NeMo's allreduce_gradients and the Megatron-LM "
          "reference's local DDP between mark_steps, torch-xla's ZeRO-1 step); torch-xla runs one graph at a time (its "
          "device lock), so the host traces at most one graph ahead; scripts that loop over an MpDeviceLoader (the "
          "Megatron-LM reference, AWS's BERT script, NxD's tp_zero1 script) run a micro-batch's forward and backward as "
          "one graph (compile.graph_cut: microbatch); and the optimizer's per-tensor trace (an assumed 1 ms per "
          "parameter tensor). T8 moves from +17.2 % to +14.4 % and T7 from +5.5 % to +1.2 % (leave-one-out); X1 goes "
          "from +15.8 % to +17.2 % as the efficiency, no longer pulled down by T7 and T8, rises from 0.484 to 0.493; "
          "held out, H6 (BERT, one node) moves from -6.1 % to -9.7 % and H4 from -6.6 % to -7.8 %. Fitted jointly, the "
          "per-tensor trace came out at 2.47 ms, which put T8 at +11.2 % but H6 at -16.2 %: set almost alone by T8, it "
          "did not carry to the held-out row, so it is an assumption at its a-priori value instead; 6.38 % / 19.3 % "
          "after the fifth round (no new mechanism); 4.22 % / 37.3 % after the sixth round (docs/model.md 11.4 and "
          "11.6, F36, F37), which read the launch scripts of the NxD rows again: NxD's Llama-2 scripts (T1-T4, and the "
          "held-out H4) do not pass --use_flash_attention, whose default is 0, so they run unfused core attention "
          "(T1, T2 -13.8 %, T3, T4 -8.2 % at the same parameters), and the Llama-3-70B jobs at 8,192 tokens (X1, "
          "held-out H2) recompute the whole MLP block (+16.6 % on X1's step). The tensor-engine efficiency of the "
          "xla path rose from 0.493 to 0.555 in the refit (leave-one-out median / maximum 7.67 % / 21.8 %: X1 +8.9 %, "
          "T6 -9.9 %, T8 +21.8 %; held out, H4 -16.6 %, H2 -14.6 %, H3 -15.0 %); and rdh took the shape S22 "
          "describes, an on-chip stage and then recursive halving or doubling between torus neighbours (docs/model.md "
          "8.2), where it had sent the first halving step two hops through shared links and was slower than the ring "
          "over most of the band the runtime chooses it in. The TP 8 rows' collectives and H3's are rdh's: in the "
          "refit the efficiency went back to 0.509; leave-one-out, T6 ended at -11.6 %, T5 at +2.2 %, T1 at -4.2 %, "
          "X1 at +1.6 %, and the rows without sequence parallelism rose, T7 to +19.9 % and T8 to +37.3 %; held out, "
          "H3 went to +9.9 %, H4 to -14.7 %, H2 to -19.7 %; and the figures above after the seventh round (docs/model.md "
          "8.7, S34, S35), which gave each scenario its SDK release and the runtime's all-reduce of that release: "
          "before SDK 2.11 every all-reduce inside an instance was the ring, and until 2.21 all but the 16- and "
          "32-rank groups kept it, at a third of the collective DMA rate (the release note's 3-7x, not fitted). It "
          "moves T7 and T8, the only rows whose TP collectives are all-reduces, and no NxD or NeMo row; in the refit "
          "the xla path's efficiency, no longer pulled down by them, rose from 0.509 to 0.547: leave-one-out T8 "
          "went from +37.3 % to -1.0 %, T7 from +19.9 % to -11.5 %, T4 from -18.5 % to -14.8 %, T6 from -11.6 % to "
          "-5.3 %, T5 from +2.2 % to +8.8 %, X1 from +1.6 % to +7.6 %; held out, H2 from -19.7 % to -15.5 %, H4 "
          "from -14.7 % to -10.1 %, H3 from +9.9 % to +15.9 %. The corrections were kept although several made the "
          "figures worse: each fixes a modelling error that a framework's source or paper shows, and a mechanism kept "
          "because it happens to offset other errors on these 11 rows would not carry to published rows outside them "
          "(the held-out table below is that test).", "",
          "What is left near the bar. Three pairs of AWS's own figures describe the same per-rank job and disagree "
          "by more than any job parameter allows, and AWS's other releases of the same jobs (the release table "
          "below) show them to be release changes or structural errors. T4 against T3 (PP 4 against PP 8) is 24 % "
          "apart across releases (2.18 against 2.21), while T4's job at 2.16 and 2.17 is within 1.5 % of the "
          "simulation (the T4 note above). T7's job rose 13 % from 2.10 to 2.13 on what the release notes give as "
          "one all-reduce for its groups; the simulation sits inside that range. X1 against held-out H2 (Llama-3-70B "
          "at TP 32 x PP 8, DP 2 against DP 4) is 24 % apart per node, the other way from the bubble; X1 is an "
          "illustrative log without an SDK release. The model's structural error that AWS's figures show at every "
          "release is T6's full recomputation against T5 (the T5 note), which now shows on T5's side. Held out, H3 "
          "(GPT3-175B, NeMo, TP 32 x PP 8, +15.9 %) is the row furthest off.", "",
          "### AWS's published trn1 tables, row by row", "",
          "`make validate` simulates every row of `workloads/validation/trn1-training.yaml` (one scenario each under "
          "`workloads/scenarios/validation/`) with the shipped calibration: the *in-sample* column is the fit, the "
          "*leave-one-out* column the prediction (from the residuals file). Sequences per second are the cluster's; "
          "*host* is the share of the step the device waits for the host (lazy-tensor tracing).", "",
          "| row | scenario | SDK | published (seq/s) | simulated (seq/s) | in-sample error | leave-one-out error | step (s) | MFU | exposed comm. | host | wall (s) |",
          "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
errs, loo_errs, stale = [], [], []
for row, js, err in results:
    name = os.path.basename(row["scenario"]).replace(".yaml", "")
    pub = float(row["value"])
    if js is None:
        lines.append("| %s | %s | %s | %.2f | failed: %s | | | | | | | |" % (row["id"], name, row.get("sdk", ""), pub, err))
        continue
    st = js["steady"]
    sim = simulated_seq_per_s(row, js)
    e = sim / pub - 1
    fr = fit_rows.get(row["id"], {})
    if abs(fr.get("simulated_tokens_per_s", -1) / st["tokens_per_s"] - 1) > 1e-6:
        stale.append(row["id"])
    le = fr.get("loo_error")
    if row.get("duplicate_release") != "true":
        errs.append(abs(e))
        if le is not None:
            loo_errs.append(abs(le))
    b = st["breakdown"]
    lines.append("| %s | %s | %s | %.2f | %.2f | %+.1f%% | %s | %.3f | %.1f%% | %.0f%% | %.0f%% | %.1f |" %
                 (row["id"], name, row.get("sdk") or "n/a", pub, sim, 100 * e,
                  "%+.1f%%" % (100 * le) if le is not None else "n/a", st["step_time_s"], 100 * st["mfu"],
                  100 * b["exposed_communication"] / st["step_time_s"], 100 * b["host_dispatch"] / st["step_time_s"],
                  js["sim"]["wall_s"]))


def med(v):
    v = sorted(v)
    return 0 if not v else (v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2]))


if errs:
    lines += ["", "Over the %d rows that are not duplicate releases: in-sample median %.2f %%, maximum %.1f %%; "
              "leave-one-out median %.2f %%, maximum %.1f %%." %
              (len(errs), 100 * med(errs), 100 * max(errs), 100 * med(loo_errs), 100 * max(loo_errs or [0]))]
seed = [r for r in fit["rows"] if r["group"] == "seed"]
if seed:
    lines += ["", "Seed rows (fitted, no leave-one-out): " + "; ".join(
        "%s %.0f tokens/s published, %.0f simulated (%+.1f %%)" %
        (r["id"], r["published_tokens_per_s"], r["simulated_tokens_per_s"], 100 * r["in_sample_error"]) for r in seed) + "."]
def release_section():
    """The jobs AWS published at several SDK releases: every release's figure against the one
    simulation of the job, and each job's spread."""
    jobs = {}
    # The duplicate releases of the calibration set (T1', T3') and the rows of trn1-releases.yaml.
    for r in [row for row, _, _ in results if row.get("duplicate_of")] + release_rows:
        if r["id"] in release_failed:
            continue  # reported at the end
        of = r.get("duplicate_of") or r["of"]
        if of in sims:
            jobs.setdefault(of, []).append(r)
    if not jobs:
        return []
    out = ["", "### The same jobs at other SDK releases", "",
           "AWS republished some rows of its tables at later SDK releases with new figures for the same job (same "
           "model, nodes, layout, batch and sequence). `workloads/validation/trn1-releases.yaml` lists the releases "
           "found for the jobs above; each is compared with the job's simulation (the same scenario; a release "
           "before SDK 2.21, whose runtime may run the job's all-reduces as the legacy ring of docs/model.md 8.7, "
           "is simulated again at its release, and those figures follow the job's own in the simulated column). "
           "Nothing here is fitted. The rows of the tables above are marked *; *spread* "
           "is the largest published figure of the job over its smallest, and *vs median* the simulated figure "
           "against the median of the job's published figures.", "",
           "| job | model and layout | SDK releases: published seq/s (error of the simulation) | spread | simulated (seq/s) | vs median |",
           "|---|---|---|---:|---:|---:|"]
    med_errs, all_vals, sim_of = [], {}, {}
    for jid in sorted(jobs, key=lambda j: (j[0], int(re.sub(r"\D", "", j) or 0), j)):
        base, js = sims[jid]
        sim = simulated_seq_per_s(base, js)
        # (sdk, published, a row of the tables above, simulated at that release)
        entries = [(base.get("sdk") or "n/a", float(base["value"]), True, sim)]
        entries += [(r.get("sdk") or "n/a", float(r["value"]), bool(r.get("duplicate_of")),
                     simulated_seq_per_s(base, release_js(r)) if "of" in r else sim) for r in jobs[jid]]
        entries.sort(key=lambda t: [int(x) if x.isdigit() else 0 for x in t[0].split(".")])
        vals = [v for _, v, _, _ in entries]
        all_vals[jid], sim_of[jid] = vals, sim
        m = med(vals)
        med_errs.append((abs(sim / m - 1), jid))
        own_sims = ["%s: %.2f" % (sdk, s_) for sdk, _, _, s_ in entries if s_ != sim]
        out.append("| %s | %s | %s | %.1f%% | %.2f%s | %+.1f%% |" % (
            jid, os.path.basename(base["scenario"]).replace(".yaml", ""),
            ", ".join("%s%s: %.2f (%+.1f%%)" % (sdk, "*" if own else "", v, 100 * (s_ / v - 1))
                      for sdk, v, own, s_ in entries),
            100 * (max(vals) / min(vals) - 1), sim, " (" + ", ".join(own_sims) + ")" if own_sims else "",
            100 * (sim / m - 1)))
    spreads = sorted(((max(v) / min(v) - 1, j) for j, v in all_vals.items()), reverse=True)
    inside = [j for j in jobs if min(all_vals[j]) <= sim_of[j] <= max(all_vals[j])]
    out += ["", "Over these %d jobs: the published figures of one job differ by up to %.1f %% (%s); the simulated "
            "figure lies within the range of AWS's published figures for %d of them (%s); against each job's median "
            "published figure the simulation's error has median %.2f %% and maximum %.1f %% (%s)." %
            (len(jobs), 100 * spreads[0][0], spreads[0][1], len(inside), ", ".join(sorted(inside)),
             100 * med([e for e, _ in med_errs]), 100 * max(med_errs)[0], max(med_errs)[1])]
    return out


lines += ["", "### Held-out rows: predicted, not fitted", "",
          "`workloads/validation/trn1-holdout.yaml` lists further rows of the same AWS tables (other models, layouts "
          "and SDK releases). The runtime calibration never sees them (its observations list only "
          "`trn1-training.yaml`), so the error below is a prediction at the shipped parameters. *Consistent* is no "
          "where the published row contradicts itself (its TP x DP x PP does not match its node count): the "
          "scenario follows the node count and the global batch, and the row is left out of the summary.", "",
          "The *80 % interval* is the one `trnsim run` prints for the row's job (docs/model.md section 12), in the "
          "row's unit; *inside* says whether the published figure falls in it.", "",
          "| row | scenario | framework | SDK | published (seq/s) | simulated (seq/s) | 80 % interval | inside | error | consistent | step (s) | MFU | exposed comm. | host |",
          "|---|---|---|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|"]
h_errs, h_inside = [], []
for row, js, err in holdout:
    name = os.path.basename(row["scenario"]).replace(".yaml", "")
    pub = float(row["value"])
    if js is None:
        lines.append("| %s | %s | %s | %s | %.2f | failed: %s | | | | | | | | |" % (row["id"], name, row["framework"], row.get("sdk", ""), pub, err))
        continue
    st = js["steady"]
    sim = simulated_seq_per_s(row, js)
    e = sim / pub - 1
    ok = row.get("consistent", "true") == "true"
    iv = st.get("tokens_per_s_interval")
    lo, hi = (sim * iv["low"] / st["tokens_per_s"], sim * iv["high"] / st["tokens_per_s"]) if iv else (None, None)
    inside = iv is not None and lo <= pub <= hi
    if ok:
        h_errs.append(abs(e))
        if iv is not None:
            h_inside.append(inside)
    b = st["breakdown"]
    lines.append("| %s | %s | %s | %s | %.2f | %.2f | %s | %s | %+.1f%% | %s | %.3f | %.1f%% | %.0f%% | %.0f%% |" %
                 (row["id"], name, row["framework"], row.get("sdk") or "n/a", pub, sim,
                  "%.2f-%.2f" % (lo, hi) if iv else "n/a", ("yes" if inside else "no") if iv else "n/a",
                  100 * e, "yes" if ok else "no",
                  st["step_time_s"], 100 * st["mfu"], 100 * b["exposed_communication"] / st["step_time_s"],
                  100 * b["host_dispatch"] / st["step_time_s"]))
if h_errs:
    lines += ["", "Over the %d consistent held-out rows: median error %.2f %%, maximum %.1f %%." %
              (len(h_errs), 100 * med(h_errs), 100 * max(h_errs))]
if h_inside:
    lines += ["", "Coverage of the 80 %% intervals over the same rows: %d of %d inside (%.0f %%)." %
              (sum(h_inside), len(h_inside), 100 * sum(h_inside) / len(h_inside))]

def interval_coverage():
    """(name -> (inside, rows)) of workloads/calibration/intervals.yaml (trnsim calibrate-intervals)."""
    text = open(os.path.join(root, "workloads/calibration/intervals.yaml")).read()
    return {m.group(1): (int(m.group(3)), int(m.group(2))) for m in
            re.finditer(r"name: (.+)\n +rows: (\d+)\n +inside: (\d+)", text)}


cov = interval_coverage()
if h_inside and {"runtime leave-one-out", "compile leave-one-out", "compile held out"} <= cov.keys():
    # Issue 30's measure: per fit, every published figure predicted out of sample (left out of
    # the fit, or never in it) against its 80 % interval.
    fits = {"runtime": [cov["runtime leave-one-out"], (sum(h_inside), len(h_inside))],
            "compile": [cov["compile leave-one-out"], cov["compile held out"]]}
    parts = []
    for fit_name, ((li, ln), (hi_, hn)) in fits.items():
        parts.append("the %s fit %d of %d (%.0f %%: %d of %d leave-one-out, %d of %d held out)" %
                     (fit_name, li + hi_, ln + hn, 100 * (li + hi_) / (ln + hn), li, ln, hi_, hn))
    lines += ["", "Coverage per fit, over every figure it predicts out of sample (leave-one-out and held "
              "out together): " + "; ".join(parts) + "."]
lines += release_section()
if release_failed:
    lines += ["", "**Failed:** the simulations at their own release of %s (%s)." %
              (", ".join(sorted(release_failed)), "; ".join(sorted(set(release_failed.values()))))]
if stale:
    lines += ["", "**Stale:** the residuals file does not match these simulations for %s; rerun "
              "`build/trnsim calibrate-runtime`." % ", ".join(stale)]
lines.append("<!-- TRN1 END -->")
text = "\n".join(lines)
print(text)
doc_path = os.path.join(root, "docs/validation.md")
doc = open(doc_path).read()
b, e = "<!-- TRN1 BEGIN", "<!-- TRN1 END -->"
if b in doc:
    doc = doc[:doc.index(b)] + text + doc[doc.index(e) + len(e):]
else:
    doc = doc.rstrip("\n") + "\n\n" + text + "\n"
open(doc_path, "w").write(doc)

# The report's input: the residuals plus AWS's other releases of the same jobs, each against the
# job's one simulation (tokens/s).
report_doc = dict(fit)
report_doc["releases"] = [
    {"id": r["id"], "of": r["of"], "published_tokens_per_s": float(r["tokens_per_s"]),
     "simulated_tokens_per_s": release_js(r)["steady"]["tokens_per_s"]}
    for r in release_rows if r["of"] in sims and r["of"] in fit_rows and r["id"] not in release_failed]
report_input = os.path.join(build, "validation_report.json")
with open(report_input, "w") as f:
    json.dump(report_doc, f, indent=1)
html = os.path.join(build, "validation.html")
p = subprocess.run([trnsim, "report", report_input, "--html", html], capture_output=True, text=True)
print(p.stdout.strip() if p.returncode == 0 else "report failed: " + p.stderr.strip())
sys.exit(1 if stale or release_failed else 0)
