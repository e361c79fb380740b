#!/usr/bin/env python3
"""`make validate`: simulate every row of AWS's published trn1 training tables
(workloads/validation/trn1-training.yaml) with the shipped calibration and compare.

Nothing is fitted to these rows here: the runtime parameters are the ones fitted to the
Qwen3-32B seed (workloads/calibration/runtime.yaml), so every error below is a prediction.
Writes the section between the TRN1 markers of docs/validation.md and prints the table.
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


def simulate(row):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = subprocess.run([trnsim, "run", os.path.join(root, row["scenario"]), "--quiet", "--json", out],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return row, None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"
        return row, json.load(open(out)), None


rows = load_rows(os.path.join(root, "workloads/validation/trn1-training.yaml"))
results = []
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
    for row, js, err in ex.map(simulate, rows):
        results.append((row, js, err))

lines = ["<!-- TRN1 BEGIN (tools/validate.py, make validate) -->",
         "## Training throughput: AWS's published trn1 tables (predicted, not fitted)", "",
         "`make validate` simulates every row of `workloads/validation/trn1-training.yaml` (one scenario each "
         "under `workloads/scenarios/validation/`) with the shipped runtime calibration, which is fitted to the "
         "two Qwen3-32B seed figures only. Every error here is therefore out of sample. No joint calibration or "
         "leave-one-out cross-validation exists yet (issue 11).", "",
         "| row | scenario | published (seq/s) | simulated (seq/s) | error | step (s) | MFU | exposed comm. | wall (s) |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
errs = []
for row, js, err in results:
    name = os.path.basename(row["scenario"]).replace(".yaml", "")
    pub = float(row["value"])
    if js is None:
        lines.append("| %s | %s | %.2f | failed: %s | | | | | |" % (row["id"], name, pub, err))
        continue
    st = js["steady"]
    seqs = js["steady"]["tokens_per_s"] / (js["steady"]["tokens_per_s"] * st["step_time_s"]) if False else None
    # sequences per second = sequences per step / step time
    tokens_step = st["tokens_per_s"] * st["step_time_s"]
    seq_len = float(row["tokens_per_s"]) / pub
    sim = tokens_step / seq_len / st["step_time_s"]
    e = sim / pub - 1
    if row.get("duplicate_release") != "true":
        errs.append(abs(e))
    exposed = st["breakdown"]["exposed_communication"] / st["step_time_s"]
    lines.append("| %s | %s | %.2f | %.2f | %+.1f%% | %.3f | %.1f%% | %.0f%% | %.1f |" %
                 (row["id"], name, pub, sim, 100 * e, st["step_time_s"], 100 * st["mfu"], 100 * exposed,
                  js["sim"]["wall_s"]))
if errs:
    errs.sort()
    med = errs[len(errs) // 2] if len(errs) % 2 else 0.5 * (errs[len(errs) // 2 - 1] + errs[len(errs) // 2])
    lines += ["", "Over the %d rows that are not duplicate releases: median absolute error %.1f %%, maximum %.1f %%." %
              (len(errs), 100 * med, 100 * errs[-1])]
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
