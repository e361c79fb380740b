#!/usr/bin/env bash
# `trnsim report`: a small sweep database with run and startup rows (and infeasible points),
# a run JSON and a startup JSON give self-contained, deterministic HTML; every figure has
# data when the input allows it and says so in words when not; the run JSON carries the
# roofline section; bad input exits 2 with one line and no file. Headless Chromium opens the
# reports (no JS errors, every plot has data) and keeps a screenshot in the build tree.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
BUILD=$(dirname "$TRNSIM")

cat >"$D/run.yaml" <<'YAML'
name: report-run
command: run
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model: llama3.1-8b, batch.global_batch: 16}
      - {model: llama3.1-8b, system.instances: 2, parallel.dp: 2, batch.global_batch: 32}
      - {model: llama3.1-8b, parallel.tp: 3}
  - key: mode
    values: [eager, compiled]
YAML
cat >"$D/startup.yaml" <<'YAML'
name: report-startup
command: startup
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model: llama3.1-8b}
  - key: compile.cache
    values: [cold, warm]
YAML
expect_ok "sweep (run rows, two chip counts, one infeasible layout)" -- sweep "$D/run.yaml" --db "$D/r.sqlite" -j 2
expect_ok "sweep (startup rows) into the same database" -- sweep "$D/startup.yaml" --db "$D/r.sqlite" -j 2
expect_ok "run --json" -- run qwen3-32b-trn2 --mode eager --set model=llama3.1-8b --set batch.global_batch=16 --json "$D/run.json"

# The run JSON: system and roofline sections; the same point from the sweep is identical
# (but for the wall clock). Also extracts a startup result from the database.
results=$(python3 - "$D" 2>&1 <<'EOF'
import json, math, os, sqlite3, sys
d = sys.argv[1]
def check(desc, fn):
    try:
        fn(); print("ok " + desc)
    except Exception as e:
        print("FAIL %s: %s: %s" % (desc, type(e).__name__, e))
run = json.load(open(os.path.join(d, "run.json")))
def system():
    s = run["system"]
    assert s == {"name": "trn2.48xlarge", "chip": "trn2", "instances": 1, "chips": 16, "world": 64}, s
def roofline():
    r = run["roofline"]
    assert list(r) == ["scope", "peak_bf16_flop_per_s", "hbm_bandwidth_B_per_s", "points"], list(r)
    assert r["peak_bf16_flop_per_s"] > 0 and r["hbm_bandwidth_B_per_s"] > 0
    pts = r["points"]
    assert 1 <= len(pts) <= 30, len(pts)
    keys = ["name", "engine", "ops", "flops", "hbm_bytes", "busy_s", "intensity_flop_per_B", "achieved_flop_per_s"]
    for p in pts:
        assert list(p) == keys, list(p)
        assert p["flops"] > 0 and p["busy_s"] > 0 and p["ops"] >= 1, p
        assert not any(ch.isdigit() for ch in p["name"]), "layer index left in " + p["name"]
        if p["hbm_bytes"] > 0:
            assert math.isclose(p["intensity_flop_per_B"], p["flops"] / p["hbm_bytes"], rel_tol=1e-9)
        assert math.isclose(p["achieved_flop_per_s"], p["flops"] / p["busy_s"], rel_tol=1e-9)
        assert p["achieved_flop_per_s"] <= r["peak_bf16_flop_per_s"] * 1.0001, "above the peak: %r" % p
    busy = [p["busy_s"] for p in pts]
    assert busy == sorted(busy, reverse=True), "points not ordered by busy time"
    assert len({(p["name"], p["engine"]) for p in pts}) == len(pts), "duplicate groups"
db = sqlite3.connect(os.path.join(d, "r.sqlite"))
def same_as_sweep():
    (res,) = db.execute("select result from points where id = ?",
                        ("report-run:model=llama3.1-8b;batch.global_batch=16;mode=eager",)).fetchone()
    a, b = json.loads(res), dict(run)
    a["sim"].pop("wall_s"); b["sim"] = dict(b["sim"]); b["sim"].pop("wall_s")
    assert a == b, "run --json differs from the same point run by the sweep"
def startup():
    (res,) = db.execute("select result from points where id = ?",
                        ("report-startup:model=llama3.1-8b;compile.cache=cold",)).fetchone()
    s = json.loads(res)
    assert s["tokens_per_step"] > 0 and math.isclose(s["eager"]["steady"]["tokens_per_s"],
                                                     s["tokens_per_step"] / s["eager"]["steady"]["step_time_s"])
    open(os.path.join(d, "startup.json"), "w").write(res)
check("run JSON: system section (chips, world)", system)
check("run JSON: roofline section (peaks, at most 30 op groups, consistent numbers)", roofline)
check("run JSON: identical to the same point of the sweep (but wall_s)", same_as_sweep)
check("startup JSON: tokens_per_step and steady tokens_per_s", startup)
EOF
)
record_results --strict "$results"

expect_ok "report --db" -- report --db "$D/r.sqlite" --html "$D/db.html"
check "report --db prints what it read" grep -q "4 steady-step results, 2 first-step results, 2 points without a result" "$OUT"
expect_ok "report --db again" -- report --db "$D/r.sqlite" --html "$D/db2.html"
check "report is deterministic (byte-identical HTML)" cmp -s "$D/db.html" "$D/db2.html"
expect_ok "report RUN.json" -- report "$D/run.json" --html "$D/run.html"
expect_ok "report STARTUP.json" -- report "$D/startup.json" --html "$D/startup.html"
expect_ok "report RUN.json STARTUP.json" -- report "$D/run.json" "$D/startup.json" --html "$D/both.html"

nodata() { grep -o 'class="nodata"' "$1" | wc -l; }
plots() { grep -o '<svg class="plot"' "$1" | wc -l; }
check "db report: every figure has a plot (no 'no data')" test "$(nodata "$D/db.html")" -eq 0
check "db report: 2 waterfalls + 2 cumulative + 4 others" test "$(plots "$D/db.html")" -eq 8
check "db report: infeasible points listed with their reason" grep -q "tp 3 does not divide" "$D/db.html"
check "run report: waterfall and cumulative say there is no data" test "$(nodata "$D/run.html")" -eq 2
check "startup report: throughput, MFU, breakdown and roofline say there is no data" test "$(nodata "$D/startup.html")" -eq 4
check "run + startup report: every figure has a plot" test "$(nodata "$D/both.html")" -eq 0
# Error bars (issue 30): throughput, MFU and step breakdown of the run (3), and of the startup the
# two first-step totals in the waterfall and the two first-step ends of the cumulative plot (4).
check "run + startup report: an 80 % error bar on each of the 7 predicted figures drawn" \
  test "$(grep -o 'class="errbar"' "$D/both.html" | wc -l)" -eq 7
check "throughput tip carries its interval" grep -q 'tokens/s (80 %: ' "$D/both.html"
# Tick labels (issue 32, item 4): no two labels on one axis read the same.
distinct_ticks() {  # every <svg> of FILE: no two tick labels on one axis read the same
  python3 - "$1" <<'PY'
import re, sys
html = open(sys.argv[1]).read()
bad = []
for svg in re.findall(r"<svg class=\"plot\".*?</svg>", html, re.S):
    for anchor in ("middle", "end"):  # x axis ticks, y axis ticks
        labels = re.findall(r'<text class="tick"[^>]*text-anchor="%s">([^<]*)</text>' % anchor, svg)
        if len(labels) != len(set(labels)):
            bad.append(labels)
print(bad if bad else "")
sys.exit(1 if bad else 0)
PY
}
check "tick labels distinct on every axis of the sweep report" distinct_ticks "$D/db.html"
check "every figure has a caption" test "$(grep -o 'class="caption"' "$D/db.html" | wc -l)" -eq 6
self_contained() { ! grep -qiE '<link|src=|href=|@import|url\(|https?://[^"]*"' <(sed 's#xmlns="http://www.w3.org/2000/svg"##g' "$1"); }
check "report is self-contained (no links, sources or URLs)" self_contained "$D/db.html"

# Bad input: exit 2, one line, no output file.
head -c 300 "$D/run.json" >"$D/truncated.json"
echo '{"hello": 1}' >"$D/other.json"
echo 'not a database' >"$D/text.sqlite"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t (a)'); c.commit()" "$D/other.sqlite"
H=$OUTDIR/r.html
expect_error "missing JSON" "missing.json" "does not exist" -- report "$D/missing.json" --html "$H"
expect_error "truncated JSON" "truncated.json" "not valid JSON" -- report "$D/truncated.json" --html "$H"
expect_error "JSON that is not a trnsim result" "other.json" "neither" -- report "$D/other.json" --html "$H"
expect_error "missing database" "--db" "does not exist" -- report --db "$D/missing.sqlite" --html "$H"
expect_error "database that is not SQLite" "not a trnsim sweep database" -- report --db "$D/text.sqlite" --html "$H"
expect_error "SQLite database that is not a sweep" "not a trnsim sweep database" "points" -- report --db "$D/other.sqlite" --html "$H"
expect_error "sweep database given as a JSON result" "with --db" -- report "$D/r.sqlite" --html "$H"
expect_error "no input" "nothing to report" -- report --html "$H"
expect_error "--html in a missing directory" "--html" "does not exist" -- report "$D/run.json" --html "$OUTDIR/no/r.html"
expect_error "--html is an input" "is also an input" -- report "$D/run.json" --html "$D/run.json"

# The runtime calibration's residuals (make validate): one validation figure with every row drawn
# in sample and left out (15 + 13 marks), a line of agreement and the +-15 % band.
expect_ok "report of the runtime calibration residuals" -- report "$SRC/workloads/calibration/runtime_residuals.json" --html "$D/val.html"
check "validation report: one simulated-against-published plot" grep -q 'id="fig-validation"' "$D/val.html"
check "validation report: 28 data marks (15 rows in sample, 13 left out)" \
  grep -q 'data-points="28"' "$D/val.html"
echo '{"kind": "runtime-calibration", "rows": [{"id": "X"}]}' > "$D/badval.json"
expect_error "residuals row without its figures" "badval.json" "rows[0]" -- report "$D/badval.json" --html "$H"
# With `releases` (tools/validate.py): AWS's other SDK releases of a job, one more mark each.
cat > "$D/rel.json" <<'JSON'
[{"id": "T4@2.16", "of": "T4", "published_tokens_per_s": 62832.64, "simulated_tokens_per_s": 64512.0},
 {"id": "T4@2.17", "of": "T4", "published_tokens_per_s": 63897.6, "simulated_tokens_per_s": 64512.0}]
JSON
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['releases']=json.load(open(sys.argv[2])); json.dump(d,open(sys.argv[3],'w'))" \
  "$SRC/workloads/calibration/runtime_residuals.json" "$D/rel.json" "$D/valrel.json"
expect_ok "report of the residuals with other releases" -- report "$D/valrel.json" --html "$D/valrel.html"
check "validation report: 30 data marks (28 and 2 releases)" grep -q 'data-points="30"' "$D/valrel.html"
check "validation report: the releases' series is named" grep -q 'other SDK releases' "$D/valrel.html"
echo '{"kind": "runtime-calibration", "rows": [], "releases": [{"id": "T4@2.16", "published_tokens_per_s": 1, "simulated_tokens_per_s": 1}]}' > "$D/badrel.json"
expect_error "release without its job" "badrel.json" "releases[0]" "of" -- report "$D/badrel.json" --html "$H"

# Headless Chromium: loads without errors, every plot has data; screenshot kept in the build tree.
if ! command -v chromium >/dev/null 2>&1; then
  skip "the headless Chromium checks: chromium is not installed"
  finish
fi
chrome() {  # chrome ARGS... (stderr carries dbus / GPU warnings: ignored)
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking \
    --no-first-run --hide-scrollbars --user-data-dir="$D/chrome" --virtual-time-budget=5000 "$@" 2>/dev/null
}
body_of() { chrome --dump-dom "file://$1" | grep -o '<body[^>]*>' | head -1; }
for f in db both; do
  body=$(body_of "$D/$f.html")
  if [[ $body == *'data-ready="1"'* && $body == *'data-figures="6"'* && $body == *'data-plots-ok="6"'* &&
        $body == *'data-js-errors="0"'* ]]; then
    pass "chromium: $f report loads without errors and all 6 figures have data"
  else
    fail "chromium: $f report loads without errors and all 6 figures have data" "body: ${body:-<no DOM>}"
  fi
done
body=$(body_of "$D/val.html")
# A sweep at one chip count (over modes): a bar per point, labelled by its axis value, instead of
# two points stacked on one x (issue 32, item 4).
cat >"$D/one.yaml" <<'YAML'
name: report-one-chip-count
command: run
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model: llama3.1-8b, model.num_layers: 4, batch.global_batch: 16}
  - key: mode
    values: [eager, compiled]
YAML
expect_ok "sweep at one chip count" -- sweep "$D/one.yaml" --db "$D/one.sqlite" -j 2
expect_ok "report of a sweep at one chip count" -- report --db "$D/one.sqlite" --html "$D/one.html"
check "one chip count: throughput as a bar per point" grep -q 'Throughput of each point (every point at 16 chips)' "$D/one.html"
check "one chip count: MFU as a bar per point" grep -q 'MFU of each point (every point at 16 chips)' "$D/one.html"
check "one chip count: bars labelled by the axis values" bash -c "grep -q '>mode=eager<' '$D/one.html' && grep -q '>mode=compiled<' '$D/one.html'"
check "two chip counts: still a plot against chip count" grep -q 'Throughput against chip count' "$D/db.html"
check "chromium: validation report loads without errors" test -n "$(grep -o 'data-js-errors="0"' <<<"$body")"
# The check itself catches a script error.
sed 's#</body>#<script>no_such_function();</script></body>#' "$D/db.html" >"$D/broken.html"
body=$(body_of "$D/broken.html")
check "chromium: a script error shows in the DOM" test -n "$(grep -o 'data-js-errors="[1-9]' <<<"$body")"
# A sweep over two axes at one chip count: a heat map (rows checkpointing, columns mode), one
# shaded cell per point, in both the throughput and the MFU figure (issue 32, item 4).
cat >"$D/two.yaml" <<'YAML'
name: report-two-axes
command: run
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model: llama3.1-8b, model.num_layers: 2, batch.global_batch: 16, checkpointing: none}
      - {model: llama3.1-8b, model.num_layers: 2, batch.global_batch: 16, checkpointing: full}
  - key: mode
    values: [eager, compiled]
YAML
expect_ok "sweep over two axes at one chip count" -- sweep "$D/two.yaml" --db "$D/two.sqlite" -j 2
expect_ok "report of a sweep over two axes" -- report --db "$D/two.sqlite" --html "$D/two.html"
check "two axes: a heat map cell per point in each of the two figures" test "$(grep -o 'class="cell"' "$D/two.html" | wc -l)" -eq 8
check "two axes: rows and columns named by the axes" bash -c "grep -q '>checkpointing<' '$D/two.html' && grep -q '>mode<' '$D/two.html'"
# A plan's limits: far from every candidate, named in a note; near them, drawn as dashed lines
# (the fixture's question moved to just past its candidates). Two plans: one figure with both.
P=$SRC/test/data/plan/llama3.1-8b-2-layers.plan.json
python3 - "$P" "$D/near.plan.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = [x for x in d['candidates'] if x['cost_usd'] is not None]
d['plan']['question']['deadline_s'] = 1.1 * max(x['time_to_train_s'] for x in c)
d['plan']['question']['max_cost_usd'] = 1.1 * max(x['cost_usd'] for x in c)
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_ok "report of a plan with its limits near the candidates" -- report "$D/near.plan.json" --html "$D/near.html"
check "plan: the deadline and the cost limit drawn as lines" bash -c "grep -q '>deadline 0.0' '$D/near.html' && grep -q '>cost limit \\$' '$D/near.html'"
expect_ok "report of two plans" -- report "$P" "$D/near.plan.json" --html "$D/plans.html"
check "two plans: one figure with both, each named" bash -c "grep -q 'id=\"pareto-all\"' '$D/plans.html' && grep -q '<li>plan 2: llama3.1-8b on 1e+10 tokens on trn2.48xlarge, trn2-ultraserver' '$D/plans.html'"
# Layout, from the DOM (issue 32, item 4): the sweep pages above, the run and startup page, the
# validation page, and a plan page (test/data/plan: a small plan of two systems, made by the command
# in its JSON) alone and beside another plan.
expect_ok "report of a plan" -- report "$SRC/test/data/plan/llama3.1-8b-2-layers.plan.json" --html "$D/plan.html"
check "plan: limits far from every candidate named in a note" grep -q 'The deadline, 30 days, is far to the right' "$D/plan.html"
# layouts FILE...: the layout check of every page, one line per page in order: its findings, or
# "ok N texts". One Chromium for all: each page is a copy with the check injected at the end of its
# body, in an iframe of 1280 x 4000 pixels (the window size of a page alone), and the top page reads
# each frame's result once all have loaded (a Chromium start is about 2 s; there are 16 pages).
layouts() {
  rm -rf "$D/layouts"
  python3 - "$SRC/test/cli/report_layout.js" "$D/layouts" "$@" <<'PY'
import os, sys
js, d, pages = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3:]
os.makedirs(d)
frames = ""
for i, page in enumerate(pages):
    h = open(page).read()
    k = h.rindex('</body>')
    open(os.path.join(d, "%d.html" % i), "w").write(h[:k] + "<script>\n" + js + "\n</script>" + h[k:])
    frames += '<iframe src="%d.html" style="display:block;border:0;width:1280px;height:4000px"></iframe>' % i
open(os.path.join(d, "all.html"), "w").write(
    '<!DOCTYPE html><html><body style="margin:0">' + frames + """<script>
window.addEventListener("load", function () {
  var out = [];
  document.querySelectorAll("iframe").forEach(function (f) {
    var b = f.contentDocument && f.contentDocument.body;
    out.push(b ? [b.getAttribute("data-layout"), b.getAttribute("data-layout-texts")] : null);
  });
  document.body.setAttribute("data-layouts", JSON.stringify(out));
});
</script></body></html>""")
PY
  chrome --allow-file-access-from-files --window-size=1280,4000 --dump-dom "file://$D/layouts/all.html" |
    grep -o '<body[^>]*>' | head -1 | python3 -c '
import html, json, re, sys
n = int(sys.argv[1])
m = re.search(r"data-layouts=\"([^\"]*)\"", sys.stdin.read())
frames = json.loads(html.unescape(m.group(1))) if m else [None] * n
for f in frames + [None] * (n - len(frames)):
    if not f or f[0] is None or f[1] is None:
        print("no result in the DOM")
        continue
    p = json.loads(f[0])
    print("; ".join(p[:5]) + (" (%d in all)" % len(p) if len(p) > 5 else "") if p else "ok %s texts" % f[1])' "$#"
}
layout_check() {  # DESC VERDICT
  case $2 in
    "ok 0 texts") fail "chromium layout: $1" "no text found" ;;
    ok*) pass "chromium layout: $1: no overlapping, duplicated, clipped or cut-short label (${2#ok })" ;;
    *) fail "chromium layout: $1" "$2" ;;
  esac
}
# The shipped examples' pages: every shipped sweep's report and the plan of docs/tutorial.md step
# 4, from their results kept in test/data/report (tools/make_report_fixtures.sh ran them as the
# docs do; the numbers are that build's, the axes and labels the shipped files', checked first).
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3  # Debian's python3-yaml
F=$SRC/test/data/report
for sweep in "$SRC"/workloads/sweeps/*.yaml; do
  name=$(basename "$sweep" .yaml)
  got=$("$PY" - "$sweep" "$F/$name.sql" "$D/ship-$name.sqlite" <<'PY'
import math, os, sqlite3, sys, yaml
sweep, sql, db = sys.argv[1:4]
if not os.path.exists(sql):
    sys.exit(print("FAIL no fixture %s (tools/make_report_fixtures.sh)" % sql))
s = yaml.safe_load(open(sweep))
if os.path.exists(db):
    os.remove(db)
con = sqlite3.connect(db)
con.executescript(open(sql).read())
rows = con.execute("SELECT sweep, sets FROM points").fetchall()
keys = set()
for a in s["axes"]:
    keys |= {a["key"]} if "key" in a else {k for v in a["values"] for k in v}
want = math.prod(len(a["values"]) for a in s["axes"])
names = {r[0] for r in rows}
got = {k for r in rows for k in (i.split("=", 1)[0] for i in r[1].split(";"))}
ok = len(rows) == want and names == {s["name"]} and got == keys
print(("ok " if ok else "FAIL ") + "%d points of sweep %s over %s" % (len(rows), sorted(names), sorted(got)))
PY
)
  case $got in
    ok*) pass "shipped sweep $name: the fixture holds its points (${got#ok })" ;;
    *) fail "shipped sweep $name: fixture" "${got#FAIL }"; continue ;;
  esac
  expect_ok "report of the shipped sweep $name" -- report --db "$D/ship-$name.sqlite" --html "$D/ship-$name.html"
done
expect_ok "report of the tutorial's plan" -- report "$F/tutorial-plan.plan.json" --html "$D/ship-plan.html"
# The check itself: two labels drawn on top of each other are found.
sed 's#</svg>#<text class="tick" x="40" y="40">overlap</text><text class="tick" x="42" y="41">overlap2</text></svg>#' \
  "$D/val.html" > "$D/bad-layout.html"
names=(db one two both val plan near plans)
pages=()
for f in "${names[@]}"; do pages+=("$D/$f.html"); done
ships=("$D"/ship-*.html)
mapfile -t verdicts < <(layouts "${pages[@]}" "${ships[@]}" "$D/bad-layout.html")
i=0
for f in "${names[@]}"; do layout_check "$f report" "${verdicts[i++]}"; done
for f in "${ships[@]}"; do layout_check "shipped example $(basename "$f")" "${verdicts[i++]}"; done
verdict=${verdicts[i]}
check "chromium layout: two labels on top of each other are found" test -n "$(grep -o "overlaps tick 'overlap'" <<<"$verdict")"
mkdir -p "$BUILD/test-output"
rm -f "$BUILD/test-output/report.png"
chrome --screenshot="$BUILD/test-output/report.png" --window-size=1280,4000 "file://$D/db.html" >/dev/null
png_ok() { [ "$(head -c 4 "$1" | tail -c 3)" = PNG ] && [ "$(stat -c %s "$1")" -gt 50000 ]; }
check "chromium: screenshot $BUILD/test-output/report.png is a non-trivial PNG" png_ok "$BUILD/test-output/report.png"

finish
