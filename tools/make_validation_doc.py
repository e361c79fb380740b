#!/usr/bin/env python3
"""Writes docs/validation.md: trnsim against every nccom-test example row of
shared/reference/measurements.md section 4 and the matmul / HBM checks.
Usage: tools/make_validation_doc.py BUILD_DIR  (run by `make bench`)."""
import json, os, subprocess, sys, tempfile

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
       "`build/trnsim`; measured numbers are the nccom-test user-guide examples in "
       "`shared/reference/measurements.md` section 4 (all-reduce, fp32; AWS marks them as examples, not benchmarks). "
       "Rows with a tolerance are asserted by `test/systemc/collective_validation_test.cpp`; the others are shown "
       "for honesty and are not asserted.\n",
       "## Collectives\n",
       "Placements are assumptions (the examples do not name the instance): 2 ranks on the two NeuronCores of one trn1 "
       "chip; 16 ranks = logical cores 0-15 of a trn2.48xlarge at LNC=2 (chips 0-3, one torus row; KangaRing in the "
       "example implies Trn2); 64 ranks = two trn1.32xlarge (32 NeuronCores each). "
       "Only two parameters are fitted, on the 2-rank rows (`hw/configs/calibration/collectives.yaml`).\n"]
for label, system, inst, ranks, rows in cases:
    res = run(["bench", "collective", "--system", system, "--instances", str(inst), "--ranks", str(ranks),
               "--sizes", ",".join(size_arg(b) for b, *_ in rows)])
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
out.append("- Mid-size messages (128 KiB to 32 MiB on 16 ranks, 1 to 16 MiB on 64 ranks) run 2-4x faster in the "
           "simulation than in the examples. The examples imply tens of microseconds of synchronisation per algorithm "
           "step (e.g. 32 MiB KangaRing: 2,754 us against ~580 us of data movement at the large-message rate), far "
           "above the 1-2 us hop latency documented (S22). The model charges per transfer only the DMA start, descriptor "
           "and handshake costs; a per-step synchronisation term is not published and is not invented here.\n"
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
open(os.path.join(root, "docs", "validation.md"), "w").write("\n".join(out) + "\n")
print("wrote docs/validation.md")
