#!/usr/bin/env python3
"""Writes docs/validation.md: trnsim against every nccom-test example row (S24 in
docs/sources.md), the matmul / HBM checks, the Qwen3-32B training throughput (P1), and the
first-step / compile-time figures (P1, P2, P5) with the FlexAttention suite (P3).
Usage: tools/make_validation_doc.py BUILD_DIR  (run by `make bench`)."""
import json, math, os, subprocess, sys, tempfile

build = sys.argv[1] if len(sys.argv) > 1 else "build"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
trnsim = os.path.join(build, "trnsim")
KiB, MiB, GiB = 1024, 1024**2, 1024**3

def run(args):
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        subprocess.run([trnsim] + args + ["--json", j], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.load(open(j))

def size_arg(b):
    for u, f in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if b >= f and b % f == 0:
            return f"{b // f}{u}"
    return f"{b}B"

# (label, system, instances, ranks, [(bytes, measured_us, tolerance or None, used in fit)])
cases = [
    ("2 ranks, one trn1 chip (LNC=1)", "trn1.32xlarge", 1, 2,
     [(1*KiB, 58, "fit", True), (256*KiB, 60, None, False), (1*MiB, 68, None, False), (4*MiB, 107, None, False),
      (16*MiB, 332, None, False), (64*MiB, 1214, None, False), (256*MiB, 4750, None, False), (1*GiB, 18930, "15% (fit)", True)]),
    ("16 ranks, trn2.48xlarge chips 0-3 (LNC=2)", "trn2.48xlarge", 1, 16,
     [(8*KiB, 300, "x2", False), (128*KiB, 574, None, False), (2*MiB, 686, None, False), (32*MiB, 2754, None, False),
      (512*MiB, 9689.5, "20%", False)]),
    ("64 ranks, 2 x trn1.32xlarge over EFA", "trn1.32xlarge", 2, 64,
     [(8, 520, "x2", False), (1*KiB, 840, None, False), (64*KiB, 1315, None, False), (1*MiB, 1328, None, False),
      (4*MiB, 1378, None, False), (16*MiB, 2138, None, False), (64*MiB, 3963, None, False), (256*MiB, 11954, None, False),
      (512*MiB, 21803, None, False), (1*GiB, 41806, "20%", False)]),
]

out = ["# Validation\n",
       "Regenerate with `make bench` (runs `tools/make_validation_doc.py`). Every simulated number below is printed by "
       "`build/trnsim`. Sections: collectives and NeuronCore/HBM (hardware model), training throughput (workload "
       "model), first step and compile time (compile-latency model, docs/startup.md).\n",
       "## Collectives\n",
       "Measured numbers are the nccom-test user-guide examples in "
       "S24 (docs/sources.md; all-reduce, fp32; AWS marks them as examples, not benchmarks). "
       "Rows with a tolerance are asserted by `test/systemc/collective_validation_test.cpp`; the others are shown "
       "for honesty and are not asserted.\n",
       "Placements are assumptions (the examples do not name the instance): 2 ranks on the two NeuronCores of one trn1 "
       "chip; 16 ranks = logical cores 0-15 of a trn2.48xlarge at LNC=2 (chips 0-3, one torus row; KangaRing in the "
       "example implies Trn2); 64 ranks = two trn1.32xlarge (32 NeuronCores each). "
       "Only two parameters are fitted, on the 2-rank rows (`hw/configs/calibration/collectives.yaml`).\n"]
for label, system, inst, ranks, rows in cases:
    res = run(["bench", "collective", "--system", system, "--instances", str(inst), "--ranks", str(ranks),
               "--sizes", ",".join(size_arg(b) for b, *_ in rows)])["rows"]
    out.append(f"### {label}\n")
    out.append(f"`trnsim bench collective --system {system} --instances {inst} --ranks {ranks} --sizes ...`\n")
    out.append("| size | measured (us) | simulated (us) | error | tolerance | algorithm |")
    out.append("|---:|---:|---:|---:|---|---|")
    for (b, meas, tol, fit), r in zip(rows, res):
        sim_us = r["time_s"] * 1e6
        err = (sim_us / meas - 1) * 100
        out.append(f"| {size_arg(b)} | {meas:,.1f} | {sim_us:,.1f} | {err:+.1f}% | {tol or '-'} | {r['algorithm']} |")
    out.append("")
out.append("### Where the model is off, and why\n")
out.append("- Mid-size messages (128 KiB to 32 MiB on 16 ranks, 1 to 16 MiB on 64 ranks) run 2-5x faster in the "
           "simulation than in the examples. The 32 MiB rdh example takes 2,754 us where data movement at the "
           "large-message rate takes about 580 us, so the examples imply hundreds of microseconds per algorithm step, "
           "far above the 1-2 us hop latency documented (S22). The model charges per transfer only the DMA start, "
           "descriptor and handshake costs; a per-step synchronisation term is not published and is not invented "
           "here. Since issue 11's sixth round rdh runs as S22 describes it (an on-chip stage, then one torus hop a "
           "step; docs/model.md 8.2), which made the simulated mid-size rows faster still (16 ranks, 32 MiB: 1,512 to "
           "673 us) and consistent with the runtime's own choice of rdh below 56 MB. The examples are old (AWS: not "
           "up to date) but not older than SDK 2.21: the 16-rank one shows KangaRing, a Trainium2 algorithm, so the "
           "legacy all-reduce of older runtimes (docs/model.md 8.7), which made the 2022-2023 rows T7 and T8 slower, "
           "does not explain them.\n"
           "- With the runtime's fixed size bands (mesh below 1 MB, RDH to 56 MB) the simulated time is not monotone "
           "across a band edge (e.g. 64 ranks: 8 B mesh slower than 1 MiB RDH). For a fixed algorithm it is monotone; "
           "`test/systemc/collective_invariants_test.cpp` asserts that.\n"
           "- The all-gather examples (8 ranks, 1 KiB in 10 us) are far below the all-reduce floors and come from another "
           "SDK era; the 54 us launch overhead fitted on all-reduce would over-predict them.\n")

mm = run(["bench", "matmul", "--chip", "trn2", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "bf16"])
h1 = run(["bench", "hbm", "--chip", "trn2", "--cores", "1", "--bytes", "1GiB"])
h8 = run(["bench", "hbm", "--chip", "trn2", "--cores", "8", "--bytes", "1GiB"])
out.append("## NeuronCore and HBM\n")
out.append("| check | expectation | simulated |")
out.append("|---|---|---|")
out.append(f"| 4096^3 BF16 matmul, one trn2 NeuronCore | 70-95% of 79 TFLOPS (issue) | {mm['tflops']:.1f} TFLOPS = {mm['utilization']*100:.1f}% |")
out.append(f"| one trn2 core streams 1 GiB from HBM | DMA-limited: 16 x 27.2 GB/s = 435 GB/s (S13) | {h1['bandwidth_Bps']/1e9:.1f} GB/s |")
out.append(f"| eight trn2 cores stream 1 GiB each | near the chip's 2.9 TB/s (S1), not 8x one core | {h8['bandwidth_Bps']/1e12:.3f} TB/s |")
out.append("\nThe matmul cycle count is explained in docs/model.md.\n")


def err(sim, meas):
    return (sim / meas - 1) * 100


def verdict(sim, meas, tol):
    return "within" if abs(sim / meas - 1) <= tol else "OUTSIDE"


# ---- Training throughput: Qwen3-32B on 16 Trainium2 chips (P1 in docs/sources.md) ----
TOKENS_PER_STEP = 65536  # the scenario's assumption (workloads/scenarios/qwen3-32b-trn2.yaml)
published_tps = {"eager": 11099, "compiled": 14156}
runs = {m: run(["run", "qwen3-32b-trn2", "--mode", m]) for m in ("eager", "compiled")}
out.append("## Training throughput\n")
out.append("Qwen3-32B training on 16 Trainium2 chips with TorchNeuron, as published by SemiAnalysis "
           "(P1 in docs/sources.md; reported, not independently verified). The run's configuration was not "
           "published; the scenario `workloads/scenarios/qwen3-32b-trn2.yaml` assumes 65,536 tokens per step "
           "(16 x 4,096), TP=4 x FSDP=16 at LNC=2 (64 ranks), full activation checkpointing, BF16 with FP32 master "
           "weights and AdamW. Asserted (5%) by `test/cli/runtime_calibration_current.sh`.\n")
out.append("`trnsim run qwen3-32b-trn2 --mode eager --json F` and `--mode compiled`\n")
out.append("| mode | published (tokens/s) | simulated (tokens/s) | error | tolerance | steady step (s): published at 65,536 tokens / simulated |")
out.append("|---|---:|---:|---:|---|---|")
for m in ("eager", "compiled"):
    st = runs[m]["steady"]
    tps = st["tokens_per_s"]
    out.append(f"| {m} | {published_tps[m]:,} | {tps:,.0f} | {err(tps, published_tps[m]):+.2f}% | 5% "
               f"({verdict(tps, published_tps[m], 0.05)}) | {TOKENS_PER_STEP / published_tps[m]:.3f} / {st['step_time_s']:.3f} |")
out.append("")
out.append("These two numbers are **fitted**: they are two of the observations of the joint runtime calibration "
           "(section Runtime calibration below), and they alone determine `kernel_efficiency` and `eager_dispatch` "
           "(the only fitted parameters that act on TorchNeuron runs). This table checks that the shipped calibration "
           "is current, not that the model predicts throughput; the leave-one-out column of the trn1 table is the "
           "prediction.\n")

# ---- First step and compile time (compile-latency model, docs/startup.md) ----
q = run(["startup", "qwen3-32b-trn2"])
g = run(["startup", "gpt-oss-20b-trn2"])
b_seq = run(["startup", "bert-large-trn1", "--set", "system.chip.collectives.sdk=2.3"])
b_par = run(["startup", "bert-large-trn1", "--set", "compile.parallel_compile=true", "--set",
             "compile.trial_steps=10", "--set", "system.chip.collectives.sdk=2.3"])
b_eks = run(["startup", "bert-large-trn1", "--set", "system.instances=2", "--set", "parallel.dp=64", "--set",
             "batch.global_batch=32768", "--set", "compile.parallel_compile=true", "--set", "compile.trial_steps=10",
             "--set", "system.chip.collectives.sdk=2.6", "--mode", "compiled", "--no-intervals"])
fl = run(["flexattention"])
t7 = run(["startup", "workloads/scenarios/validation/t7-gpt3-6.7b-megatron-16n-tp8.yaml", "--set",
          "compile.parallel_compile=true", "--set", "compile.trial_steps=325", "--set",
          "system.chip.collectives.sdk=2.10", "--mode", "compiled", "--no-intervals"])


def precompile(r):
    """A neuron_parallel_compile job: its trial run and the compile (docs/startup.md 1.10)."""
    parts = r["compiled"]["first_step"]["parts"]
    return parts["trial_run"] + parts["compile"]
out.append("## First step and compile time\n")
out.append("The compile-latency model (docs/startup.md) against the published first-step and compile-time figures. "
           "The seed's figures below (Qwen3-32B, gpt-oss-20B, BERT-Large, the FlexAttention outcome) are rows of "
           "one fit to every public start-up figure the model covers; the last subsection, written by `make "
           "validate`, gives each figure's in-sample, leave-one-out and held-out error. "
           "Asserted by `test/cli/startup.sh` (Qwen3-32B) and `test/unit/compile_model_test.cpp` (the others).\n")
out.append("### Qwen3-32B first step (16 Trainium2 chips)\n")
out.append("`trnsim startup qwen3-32b-trn2 --json F` (cold cache). Published: 184.6 s eager, 255.7 s compiled, and "
           "\"first step 30-55x the average step\" (P1, REPORTED-UNVERIFIED).\n")
out.append("| quantity | published | simulated | error | tolerance |")
out.append("|---|---:|---:|---:|---|")
published_first = {"eager": 184.6, "compiled": 255.7}
for m in ("eager", "compiled"):
    t = q[m]["first_step"]["total_s"]
    out.append(f"| first step, {m} (s) | {published_first[m]:.1f} | {t:.1f} | {err(t, published_first[m]):+.1f}% | "
               f"10% ({verdict(t, published_first[m], 0.10)}) |")
for m in ("eager", "compiled"):
    r = q[m]["first_step"]["ratio_to_steady"]
    implied = published_first[m] / (TOKENS_PER_STEP / published_tps[m])
    inside = "inside" if 30 <= r <= 55 else "OUTSIDE"
    out.append(f"| first / steady step, {m} | 30-55x (the published pair gives {implied:.1f}x at 65,536 tokens) | "
               f"{r:.1f}x | - | 30-55x ({inside}) |")
out.append("")
be = q["break_even"]["steps"]
steady_pub = {m: TOKENS_PER_STEP / published_tps[m] for m in published_tps}
be_pub = math.ceil(1 + (published_first["compiled"] - published_first["eager"]) /
                   (steady_pub["eager"] - steady_pub["compiled"]))
out.append(f"Break-even of compiled mode (the first step n at which n compiled steps take no longer than n eager "
           f"steps, ceil(1 + extra first-step time / steady-step saving)): {be_pub} steps from the published pair at "
           f"65,536 tokens, {be:.0f} steps simulated. "
           f"`test/cli/startup.sh` accepts first/steady ratios of 27-60.5x: the published 30-55x widened by the "
           f"first step's own 10 % tolerance (the published figures themselves imply 55.2x for compiled mode under "
           f"the 65,536-token assumption).\n")
out.append("| part of the first step (s) | eager | compiled |")
out.append("|---|---:|---:|")
for k in q["eager"]["first_step"]["parts"]:
    out.append(f"| {k} | {q['eager']['first_step']['parts'][k]:.1f} | {q['compiled']['first_step']['parts'][k]:.1f} |")
out.append(f"| **first step** | **{q['eager']['first_step']['total_s']:.1f}** | **{q['compiled']['first_step']['total_s']:.1f}** |")
out.append("")
out.append("### Compile times\n")
out.append("| figure | source | command | published | simulated | error | tolerance |")
out.append("|---|---|---|---:|---:|---:|---|")
rows = [
    ("gpt-oss-20B recipe compile", "SemiAnalysis, 27 min 17 s (P2, REPORTED-UNVERIFIED)",
     "`trnsim startup gpt-oss-20b-trn2 --json F`, compiled `parts.compile`", 1637.0,
     g["compiled"]["first_step"]["parts"]["compile"], 0.15),
    ("BERT-Large step, sequential JIT", "AWS BERT tutorial, ~40 min (P5)",
     "`trnsim startup bert-large-trn1 --set system.chip.collectives.sdk=2.3 --json F`, compiled `parts.compile`",
     40 * 60.0, b_seq["compiled"]["first_step"]["parts"]["compile"], 0.30),
    ("BERT-Large neuron_parallel_compile job", "AWS BERT tutorial, ~13 min (P5)",
     "`trnsim startup bert-large-trn1 --set compile.parallel_compile=true --set compile.trial_steps=10 --set "
     "system.chip.collectives.sdk=2.3 --json F`, compiled `parts.trial_run` + `parts.compile`", 13 * 60.0,
     precompile(b_par), 0.30),
    ("BERT-Large neuron_parallel_compile job on two nodes", "AWS EKS sample, ~15 min on 2 trn1.32xlarge (C21)",
     "`trnsim startup bert-large-trn1 --set system.instances=2 --set parallel.dp=64 --set batch.global_batch=32768 "
     "--set compile.parallel_compile=true --set compile.trial_steps=10 --set system.chip.collectives.sdk=2.6 --mode "
     "compiled --json F`, `parts.trial_run` + `parts.compile`", 15 * 60.0, precompile(b_eks), 0.30),
    ("GPT-3 6.7B with the Megatron-LM reference, neuron_parallel_compile job",
     "AWS ParallelCluster guide, about 30 min on 16 trn1.32xlarge (C18)",
     "`trnsim startup workloads/scenarios/validation/t7-gpt3-6.7b-megatron-16n-tp8.yaml --set "
     "compile.parallel_compile=true --set compile.trial_steps=325 --set system.chip.collectives.sdk=2.10 --mode "
     "compiled --json F`, `parts.trial_run` + `parts.compile`", 30 * 60.0, precompile(t7), 0.30),
]
for name, src, cmd, meas, sim, tol in rows:
    out.append(f"| {name} | {src} | {cmd} | {meas:,.0f} s | {sim:,.1f} s | {err(sim, meas):+.1f}% | "
               f"{tol * 100:.0f}% ({verdict(sim, meas, tol)}) |")
out.append("")
out.append(f"Configurations are assumptions (docs/startup.md): gpt-oss-20B as regional torch.compile on one "
           f"trn2.48xlarge, TP=4 x FSDP=16, experts replicated so each block graph emits all 32 experts "
           f"({g['compiled']['compile']['graphs']} compile jobs: 2 block types x forward/backward plus eager remainder "
           f"kernels, compiled one after another); BERT-Large as torch-neuronx XLA on one trn1.32xlarge, 32 "
           f"data-parallel workers, 32 gradient-accumulation micro-steps ({b_seq['compiled']['compile']['graphs']} "
           f"graphs of the xla inventory, docs/startup.md section 1; "
           f"{b_par['compiled']['compile']['workers']} parallel workers with neuron_parallel_compile), at the "
           f"tutorial's release, SDK 2.3. GPT-3 6.7B is the validation scenario of row T7 (the Megatron-LM reference's own "
           f"script: TP 8, DP 64, GBS 1024), {t7['compiled']['compile']['graphs']} graphs on "
           f"{t7['compiled']['compile']['workers']} workers per node, every node compiling into its own cache. The "
           f"neuron_parallel_compile rows time the whole job: the trial run of the script's steps (10; 325 for GPT-3 "
           f"6.7B; C20) and the compile. BERT-Large's two-node job (AWS's EKS sample, SDK 2.6) compiles the one-node "
           f"job's graphs on every node, so the model gives both the same time.\n")
out.append("### Trainium3 FlexAttention suite\n")
out.append("`trnsim flexattention --json F` (budget 600 s, an assumption). Published (SemiAnalysis, P3, "
           "REPORTED-UNVERIFIED): 89 of 96 tests pass; all 7 failures exceeded the compile-time budget, all at batch 4, "
           "sequence 8,192. The 96-case grid (8 variants x batch {1, 2, 4} x sequence {1k, 2k, 4k, 8k}) is a "
           "reconstruction, not the published suite (docs/startup.md).\n")
cases = fl["cases"]
fails = [c for c in cases if not c["pass"]]
all_b4_s8k = all(c["batch"] == 4 and c["seq_len"] == 8192 for c in fails)
base = fl["scenarios"][0]
out.append("| quantity | published | simulated |")
out.append("|---|---|---|")
out.append(f"| failing tests | 7 of 96 | {len(fails)} of {len(cases)} |")
out.append(f"| all failures at batch 4, sequence 8,192 | yes | {'yes' if all_b4_s8k else 'no'} "
           f"({', '.join(sorted(c['variant'] for c in fails))}) |")
out.append(f"| cases agreeing with the assumed pattern (fail exactly at batch 4, seq 8,192, every variant but "
           f"`none`) | 96 of 96 | {base['agree_with_published']} of 96 |")
for sc in fl["scenarios"][1:]:
    out.append(f"| what-if: {sc['label']} (budget {sc['budget_s']:.0f} s, speed-up {sc['speedup']:g}) | - | "
               f"{sc['failures']} of 96 fail |")
tight = min(fails, key=lambda c: c["compile_s"]) if fails else None
slack = max((c for c in cases if c["pass"]), key=lambda c: c["compile_s"])
out.append("")
if tight:
    out.append(f"The margins are thin: the cheapest failing case ({tight['variant']}, batch 4, seq 8,192) compiles in "
               f"{tight['compile_s']:.0f} s against the 600 s budget, and the dearest passing case "
               f"({slack['variant']}, batch {slack['batch']}, seq {slack['seq_len']:,}) in {slack['compile_s']:.0f} s. "
               f"The FlexAttention bounds are part of the fit, so this reproduces the published outcome rather than "
               f"predicting it.\n")
# The compile fit's block and the runtime calibration and trn1 section are written by
# tools/validate_compile.py and tools/validate.py (`make validate`): keep them.
doc_path = os.path.join(root, "docs", "validation.md")
kept = ""
compile_block = "<!-- COMPILE BEGIN (tools/validate_compile.py, make validate) -->\n<!-- COMPILE END -->"
if os.path.exists(doc_path):
    old = open(doc_path).read()
    if "<!-- TRN1 BEGIN" in old:
        kept = old[old.index("<!-- TRN1 BEGIN"):].rstrip("\n") + "\n"
    if "<!-- COMPILE BEGIN" in old:
        e = "<!-- COMPILE END -->"
        end = old.index(e) + len(e)
        compile_block = old[old.index("<!-- COMPILE BEGIN"):end]
        # Hand-written sections between the two generated blocks (the intervals' coverage) stay.
        between = old[end:old.index("<!-- TRN1 BEGIN")] if "<!-- TRN1 BEGIN" in old else ""
        if between.strip():
            compile_block += "\n\n" + between.strip("\n")
out.append(compile_block + "\n")
open(doc_path, "w").write("\n".join(out) + "\n" + ("\n" + kept if kept else ""))
print("wrote docs/validation.md")
