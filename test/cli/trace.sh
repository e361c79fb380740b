#!/usr/bin/env bash
# `trnsim run --trace`: the streamed Chrome/Perfetto JSON parses, every event is well formed,
# spans on one track never overlap, every track and process is named, and the category and
# time-window filters keep large traces small; no temporary file is left behind. The fabric
# process has a busy-span track per link that carried traffic (category links), and each
# simulated rank an SBUF occupancy counter within its capacity.
# `trnsim report TRACE --html` (issue 32, item 3) draws the trace offline: the page's busy time
# of rank 0's tensor track is the run's own tensor busy time, every track of the trace is in its
# table, the same trace gives the same bytes, and a trace mixed with other inputs is refused.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$trnsim" run qwen3-32b-trn2 --model llama3.1-8b --trace "$tmp/all.json" > /dev/null 2>&1
"$trnsim" run qwen3-32b-trn2 --model llama3.1-8b --trace "$tmp/some.json" --trace-categories tensor,collective \
  --trace-window 0s,200ms > /dev/null 2>&1
"$trnsim" run qwen3-32b-trn2 --model llama3.1-8b --trace "$tmp/links.json" --trace-categories links > /dev/null 2>&1
python3 - "$tmp/all.json" "$tmp/some.json" "$tmp/links.json" <<'PY'
import json, sys, collections
def check(path):
    d = json.load(open(path))["traceEvents"]
    named_threads = {(e["pid"], e["tid"]) for e in d if e["ph"] == "M" and e["name"] == "thread_name"}
    named_procs = {e["pid"] for e in d if e["ph"] == "M" and e["name"] == "process_name"}
    tracks = collections.defaultdict(list)
    for e in d:
        assert e["ph"] in ("M", "X", "C"), e
        if e["ph"] == "X":
            for k in ("name", "cat", "pid", "tid", "ts", "dur"):
                assert k in e, (k, e)
            assert e["dur"] >= 0 and e["ts"] >= 0
            assert (e["pid"], e["tid"]) in named_threads, e
            tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
        if e["ph"] in ("X", "C"):
            assert e["pid"] in named_procs, e
        if e["ph"] == "C":
            assert "value" in e["args"]
    for key, spans in tracks.items():
        spans.sort()
        for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
            assert b0 >= a1 - 1e-3, ("overlap on track", key, (a0, a1), (b0, b1))
    return d
a = check(sys.argv[1]); b = check(sys.argv[2])
cats = {e["cat"] for e in b if e["ph"] != "M"}
assert cats <= {"tensor", "collective"}, cats
assert all(e["ts"] <= 200e3 for e in b if e["ph"] == "X")
assert len(b) < len(a)
# Links: a named track per link that carried traffic, busy spans with {flows, bytes}.
threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in a if e["ph"] == "M" and e["name"] == "thread_name"}
link_spans = [e for e in a if e["ph"] == "X" and e["cat"] == "links"]
link_tracks = {(e["pid"], e["tid"]) for e in link_spans}
assert link_tracks, "no link spans"
assert all(threads[t].startswith("link.") for t in link_tracks), [threads[t] for t in link_tracks]
for e in link_spans:
    assert e["name"] == "busy" and e["args"]["flows"] >= 1 and e["args"]["bytes"] > 0, e
# SBUF occupancy: one counter per simulated rank, samples within [0, capacity].
import re
sbuf = collections.defaultdict(list)
for e in a:
    if e["ph"] == "C" and "SBUF occupancy" in e["name"]:
        sbuf[e["name"]].append(e["args"]["value"])
assert sbuf, "no SBUF occupancy counter"
for name, vals in sbuf.items():
    cap = float(re.search(r"capacity ([0-9.e+]+) MiB", name).group(1))
    assert cap > 0 and all(0 <= v <= cap for v in vals), (name, min(vals), max(vals))
    assert max(vals) > 0, name
c = check(sys.argv[3])
assert {e["cat"] for e in c if e["ph"] != "M"} == {"links"}
assert len([e for e in c if e["ph"] == "X"]) == len(link_spans)
print(f"trace ok: {len(a)} events (all), {len(b)} (tensor+collective, first 200 ms), "
      f"{len(link_spans)} link spans on {len(link_tracks)} link tracks, SBUF counters {sorted(sbuf)} "
      f"max {max(max(v) for v in sbuf.values()):.6g} MiB")
PY
# The start-up timeline: host processes with the first-step parts and compile workers.
"$trnsim" startup bert-large-trn1 --set compile.parallel_compile=true --trace "$tmp/st.json" > /dev/null 2>&1
python3 - "$tmp/st.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["args"]["name"] for e in d if e["ph"] == "M" and e["name"] == "process_name"}
assert procs == {"host (eager)", "host (compiled)"}, procs
names = {e["name"] for e in d if e["ph"] == "X"}
assert {"process_start", "compile", "neff_load", "first_execution", "microbatch_first", "optimizer_first"} <= names, names
# neuron_parallel_compile's trial run: a span of the compiled host only, before its compile
trial = [e for e in d if e["ph"] == "X" and e["name"] == "trial_run"]
comp = [e for e in d if e["ph"] == "X" and e["name"] == "compile" and e["pid"] == trial[0]["pid"]]
assert len(trial) == 1 and trial[0]["dur"] > 0 and trial[0]["ts"] + trial[0]["dur"] <= comp[0]["ts"] + 1, (trial, comp)
threads = {e["args"]["name"] for e in d if e["ph"] == "M" and e["name"] == "thread_name"}
assert any(t.startswith("compile worker") for t in threads), threads
print("startup trace ok")
PY
"$trnsim" run qwen3-32b-trn2 --model llama3.1-8b --no-intervals --json "$tmp/run.json" > /dev/null 2>&1
"$trnsim" report "$tmp/all.json" --html "$tmp/t1.html" > "$tmp/rep.out"
"$trnsim" report "$tmp/all.json" --html "$tmp/t2.html" > /dev/null
cmp -s "$tmp/t1.html" "$tmp/t2.html" || { echo "FAIL: the trace page differs between two renders"; exit 1; }
grep -q '^report: a trace of [0-9]* ops on [0-9]* tracks' "$tmp/rep.out" || { echo "FAIL: report text"; cat "$tmp/rep.out"; exit 1; }
python3 - "$tmp/all.json" "$tmp/t1.html" "$tmp/run.json" <<'PY'
import html, json, re, sys
trace, page, run = json.load(open(sys.argv[1]))["traceEvents"], open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in trace if e["ph"] == "M" and e["name"] == "thread_name"}
spans = {(e["pid"], e["tid"]) for e in trace if e["ph"] == "X"}
for key in spans:
    assert "<tr><td>" + html.escape(threads[key]) + "</td>" in page, ("track missing from the table", threads[key])
row = re.search(r"<tr><td>rank 0 tensor</td><td>tensor</td><td>([0-9.]+) (s|ms)</td>", page)
busy = float(row.group(1)) * (1 if row.group(2) == "s" else 1e-3)
want = run["steady"]["engine_busy_s"]["tensor"]
assert abs(busy / want - 1) < 1e-3, ("tensor busy", busy, want)
assert page.count('<svg id="timeline"') == 1 and "http" not in page.split("<body>")[1], "timeline, offline"
print("trace report ok: tensor busy", busy, "s; run", want, "s;", len(spans), "tracks")
PY
set +e; "$trnsim" report "$tmp/all.json" "$tmp/run.json" --html "$tmp/mix.html" > /dev/null 2> "$tmp/err"; rc=$?; set -e
[ $rc = 2 ] && grep -q "is a trace: give it alone" "$tmp/err" && [ ! -e "$tmp/mix.html" ] || { echo "FAIL: mixed inputs"; cat "$tmp/err"; exit 1; }
ls "$tmp" | grep -q '\.tmp\.' && { echo "FAIL: temporary trace file left"; exit 1; }
# Bad filters: exit 2, one line, no file.
for bad in "--trace-categories tensor,bogus" "--trace-window 5s,1s" "--trace-window 1"; do
  set +e; "$trnsim" run qwen3-32b-trn2 --trace "$tmp/bad.json" $bad > /dev/null 2> "$tmp/err"; rc=$?; set -e
  [ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && [ ! -e "$tmp/bad.json" ] || { echo "FAIL: $bad"; cat "$tmp/err"; exit 1; }
done
echo ok
