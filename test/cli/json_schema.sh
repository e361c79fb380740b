#!/usr/bin/env bash
# The JSON documents trnsim writes against their schemas (docs/schema/*.schema.json, draft
# 2020-12): real outputs of run, startup, bench collective / matmul / hbm, flexattention,
# inference-compile and the result column of sweep rows (ok, infeasible: invalid-layout and
# oom) must validate, and every required field of each schema must be required indeed (a copy
# with it removed fails).
# Also the stamp (schema_version, trnsim_version, inputs_hash), `--json -` / `--trace -` on
# standard output with the summary on standard error, and the bench figures' sanity (SI units).
# Validation uses Debian's python3-jsonschema, so /usr/bin/python3 (not a pyenv python3).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
SMALL=(--set model.num_layers=2)

expect_ok "bench collective --json" -- bench collective --ranks 16 --sizes 1KiB,1MiB,64MiB --json "$D/coll.json"
expect_ok "bench collective --json (all-gather, forced ring)" -- bench collective --op all-gather --algorithm ring --ranks 8 --sizes 8MiB --json "$D/ag.json"
expect_ok "bench matmul --json" -- bench matmul --m 1024 --n 1024 --k 1024 --json "$D/mm.json"
expect_ok "bench hbm --json" -- bench hbm --cores 2 --bytes 64MiB --json "$D/hbm.json"
expect_ok "run --json FILE (2 layers)" -- run qwen3-32b-trn2 "${SMALL[@]}" --json "$D/run.json"
cp "$OUT" "$D/run.txt"
expect_ok "run --json - (2 layers)" -- run qwen3-32b-trn2 "${SMALL[@]}" --json -
cp "$OUT" "$D/run-stdout.json"
cp "$ERR" "$D/run-stderr.txt"
expect_ok "run --json FILE (2 layers, eager: other inputs)" -- run qwen3-32b-trn2 "${SMALL[@]}" --mode eager --json "$D/run-eager.json"
expect_ok "startup --json (2 layers, --sensitivity, --price-per-hour)" -- \
  startup qwen3-32b-trn2 "${SMALL[@]}" --sensitivity --price-per-hour 40 --json "$D/startup.json"
expect_ok "startup --mode eager --json (2 layers, --sensitivity)" -- \
  startup qwen3-32b-trn2 "${SMALL[@]}" --mode eager --sensitivity --json "$D/startup-eager.json"
expect_ok "flexattention --json" -- flexattention --json "$D/flex.json"
expect_ok "inference-compile --json (with its interval)" -- \
  inference-compile --model nxdi-llama-2-7b-hf --tp 2 --seq 512 --json "$D/inference-compile.json"
expect_ok "run --workload-et --json (the hand-made Chakra trace)" -- run --workload-et "$SRC/test/data/chakra/hand" \
  --system trn2.48xlarge --json "$D/run-trace.json"
cat >"$D/sweep.yaml" <<'YAML'
name: schema-sweep
command: run
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model.num_layers: 2, parallel.tp: 4}
      - {model.num_layers: 2, parallel.tp: 3}
      - {model: llama3.1-70b, parallel.fsdp: 1, parallel.dp: 16}
  - key: mode
    values: [compiled]
YAML
expect_ok "sweep (ok, invalid-layout and oom points)" -- sweep "$D/sweep.yaml" --db "$D/sweep.sqlite" -j 2
cat >"$D/sweep-startup.yaml" <<'YAML'
name: schema-sweep-startup
command: startup
scenario: qwen3-32b-trn2
axes:
  - key: model.num_layers
    values: [2]
YAML
expect_ok "sweep of startup (one point) into the same database" -- sweep "$D/sweep-startup.yaml" --db "$D/sweep.sqlite"
expect_ok "trnsim --version" -- --version
version=$(sed 's/^trnsim //' "$OUT")

check "run --json -: the summary is on standard error" grep -q "step time" "$D/run-stderr.txt"
check "run --json -: standard output holds the JSON alone" python3 -m json.tool "$D/run-stdout.json" /dev/null
check "run --json FILE: the summary is on standard output" grep -q "step time" "$D/run.txt"

# --trace - : the timeline alone on standard output; only one output can be standard output.
expect_ok "run --trace - (2 layers)" -- run qwen3-32b-trn2 "${SMALL[@]}" --trace -
check "run --trace -: standard output is a Perfetto JSON timeline" \
  python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['traceEvents']" "$OUT"
expect_error "--json - and --trace - together" "--trace -: standard output already carries --json" \
  -- run qwen3-32b-trn2 "${SMALL[@]}" --json - --trace -
expect_error "--json - and --resolved - together" "--resolved -: standard output already carries --json" \
  -- bench hbm --bytes 1MiB --json - --resolved -
run_trnsim run qwen3-32b-trn2 --set parallel.tpp=4 --json -
check "--json - of bad input: exit 2 and nothing on standard output" test "$RC" -eq 2 -a ! -s "$OUT"

# Prints "ok DESC" or "FAIL DESC: why" per check.
results=$(/usr/bin/python3 - "$D" "$SRC/docs/schema" "$version" 2>&1 <<'EOF'
import copy, glob, json, math, os, sqlite3, sys
from jsonschema import Draft202012Validator, RefResolver

d_dir, schema_dir, version = sys.argv[1:4]
BASE = "https://trnsim.invalid/schema/"
checks = []

def check(desc):
    def wrap(fn):
        checks.append((desc, fn))
        return fn
    return wrap

store = {}
for path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
    s = json.load(open(path))
    store[s["$id"]] = s

def validator(name):
    s = store[BASE + name + ".schema.json"]
    return Draft202012Validator(s, resolver=RefResolver.from_schema(s, store=store))

def load(name):
    with open(os.path.join(d_dir, name)) as f:
        return json.load(f)

def sweep_results(sweep="schema-sweep"):
    c = sqlite3.connect(os.path.join(d_dir, "sweep.sqlite"))
    q = "select id, status, result from points where sweep = ?"
    return {r[0]: (r[1], json.loads(r[2])) for r in c.execute(q, (sweep,))}

DOCS = [("run", "run.json"), ("run", "run-stdout.json"), ("run", "run-eager.json"), ("startup", "startup.json"),
        ("startup", "startup-eager.json"), ("bench-collective", "coll.json"), ("bench-collective", "ag.json"), ("bench-matmul", "mm.json"),
        ("bench-hbm", "hbm.json"), ("flexattention", "flex.json"), ("run-trace", "run-trace.json"),
        ("inference-compile", "inference-compile.json")]

@check("every schema in docs/schema is a valid draft 2020-12 schema")
def schemas():
    assert len(store) >= 7, sorted(store)
    for s in store.values():
        Draft202012Validator.check_schema(s)

for name, f in DOCS:
    @check("%s validates against docs/schema/%s.schema.json" % (f, name))
    def valid(name=name, f=f):
        validator(name).validate(load(f))

# The paths of the keys a schema requires, through nested objects (not through arrays or $ref).
def required_paths(schema, prefix=()):
    for k in schema.get("required", []):
        yield prefix + (k,)
        sub = schema.get("properties", {}).get(k, {})
        if sub.get("type") == "object":
            yield from required_paths(sub, prefix + (k,))

@check("removing any required field makes each document invalid")
def removal():
    n = 0
    for name, f in DOCS:
        doc, v = load(f), validator(name)
        for path in required_paths(store[BASE + name + ".schema.json"]):
            cut = copy.deepcopy(doc)
            node = cut
            for k in path[:-1]:
                node = node[k]
            if path[-1] not in node:
                continue  # optional parent absent
            del node[path[-1]]
            assert not v.is_valid(cut), "%s without %s still validates as %s" % (f, ".".join(path), name)
            n += 1
    assert n > 100, "only %d required fields checked" % n

@check("startup --mode: one mode's document has that section only; a startup document needs a mode, both need break_even")
def startup_modes():
    one, both, v = load("startup-eager.json"), load("startup.json"), validator("startup")
    assert "eager" in one and "compiled" not in one and "break_even" not in one, sorted(one)
    assert list(one["cost"]["instance_hours"]) == ["eager"], one["cost"]
    assert all("compiled_s" not in r for r in one["sensitivity"]), one["sensitivity"][0]
    cut = copy.deepcopy(one)
    del cut["eager"]
    assert not v.is_valid(cut), "a startup document with no mode validates"
    cut = copy.deepcopy(both)
    del cut["break_even"]
    assert not v.is_valid(cut), "a two-mode startup document without break_even validates"

@check("sweep rows: ok rows hold run documents, infeasible rows an oom or invalid-layout reason; all validate")
def sweep_rows():
    rows, v = sweep_results(), validator("sweep-row")
    kinds = sorted(r.get("infeasible", {}).get("kind", status) for status, r in rows.values())
    assert kinds == ["invalid-layout", "ok", "oom"], kinds
    for id_, (status, r) in rows.items():
        v.validate(r)
        if status == "ok":
            validator("run").validate(r)
        else:
            assert r["infeasible"]["message"], id_

@check("sweep rows: a startup sweep's ok row holds a startup document")
def sweep_startup_row():
    rows = list(sweep_results("schema-sweep-startup").values())
    assert [status for status, _ in rows] == ["ok"], rows
    validator("sweep-row").validate(rows[0][1])
    validator("startup").validate(rows[0][1])

@check("sweep rows: an error row's document (synthetic) validates and loses fields like the others")
def sweep_error_row():
    v = validator("sweep-row")
    doc = {"schema_version": 1, "trnsim_version": version, "inputs_hash": "0123456789abcdef",
           "error": {"exit_code": 3, "message": "trnsim: internal error: x"}}
    v.validate(doc)
    for k in ("inputs_hash", "error"):
        cut = dict(doc)
        del cut[k]
        assert not v.is_valid(cut), k

@check("stamp: trnsim_version is the build's, schema_version 1, inputs_hash 16 hex digits")
def stamp():
    docs = [load(f) for _, f in DOCS] + [r for _, r in sweep_results().values()]
    for doc in docs:
        assert doc["trnsim_version"] == version, (doc["trnsim_version"], version)
        assert doc["schema_version"] == 1, doc["schema_version"]
        assert len(doc["inputs_hash"]) == 16 and int(doc["inputs_hash"], 16) >= 0, doc["inputs_hash"]
        assert list(doc)[:3] == ["schema_version", "trnsim_version", "inputs_hash"], list(doc)[:3]

@check("inputs_hash: identical inputs give identical hashes, other inputs another; --json - equals --json FILE")
def hashes():
    a, b, e = load("run.json"), load("run-stdout.json"), load("run-eager.json")
    assert a["inputs_hash"] == b["inputs_hash"], (a["inputs_hash"], b["inputs_hash"])
    assert a["inputs_hash"] != e["inputs_hash"], "eager and compiled runs have the same inputs_hash"
    a["sim"].pop("wall_s"), b["sim"].pop("wall_s")
    assert a == b, "the --json - document differs from the --json FILE one"
    # The sweep's ok point is this run (2 layers, tp 4, compiled): the same inputs, the same hash.
    ok = [r for status, r in sweep_results().values() if status == "ok"]
    assert ok and ok[0]["inputs_hash"] == a["inputs_hash"], "the sweep's point has another inputs_hash"

def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

def close(a, b):
    return abs(a - b) <= 1e-9 * abs(b)

@check("bench collective JSON: rows with size_bytes, time_s, algbw_GBps, busbw_GBps (all-reduce), sizes in order")
def coll():
    d = load("coll.json")
    assert d["op"] == "all-reduce" and d["ranks"] == 16, (d["op"], d["ranks"])
    rows = d["rows"]
    assert len(rows) == 3, "expected one row per size, got %d" % len(rows)
    for r in rows:
        for k in ("size_bytes", "time_s", "algbw_GBps", "busbw_GBps"):
            assert num(r[k]) and r[k] > 0, "%s = %r is not a positive number" % (k, r[k])
        assert close(r["algbw_GBps"], r["size_bytes"] / r["time_s"] / 1e9), "algbw != size/time/1e9"
        assert close(r["busbw_GBps"], r["algbw_GBps"] * 2 * 15 / 16), "all-reduce busbw != algbw x 2(n-1)/n"
    assert [r["size_bytes"] for r in rows] == [1024, 1048576, 67108864], [r["size_bytes"] for r in rows]

@check("bench collective JSON: forced algorithm and all-gather busbw")
def ag():
    rows = load("ag.json")["rows"]
    assert len(rows) == 1 and rows[0]["algorithm"] == "ring", rows
    assert close(rows[0]["busbw_GBps"], rows[0]["algbw_GBps"] * 7 / 8), "all-gather busbw != algbw x (n-1)/n"

@check("bench matmul JSON: tflops = 2MNK/time/1e12, utilization <= 1")
def mm():
    d = load("mm.json")
    assert (d["m"], d["n"], d["k"], d["dtype"]) == (1024, 1024, 1024, "bf16"), d
    assert d["utilization"] <= 1.0, "utilization above 1: %r" % d["utilization"]
    assert close(d["tflops"], 2 * 1024 ** 3 / d["time_s"] / 1e12), "tflops != 2MNK/time/1e12"

@check("bench hbm JSON: bandwidth = bytes/time, within the chip's HBM")
def hbm():
    d = load("hbm.json")
    assert close(d["bandwidth_Bps"], 2 * 64 * 2 ** 20 / d["time_s"]), "bandwidth != bytes/time"
    assert d["bandwidth_Bps"] <= 2.9e12, "above the chip's HBM bandwidth"

for desc, fn in checks:
    try:
        fn()
        print("ok " + desc)
    except Exception as e:  # AssertionError, ValidationError, missing file, bad JSON
        msg = str(e).splitlines()[0] if str(e) else ""
        print("FAIL %s: %s: %s" % (desc, type(e).__name__, msg[:400]))
print("count %d" % len(checks))
EOF
)
n=0
expected=-1
while IFS= read -r line; do
  case $line in
    "ok "*) pass "${line#ok }"; n=$((n + 1)) ;;
    "FAIL "*) fail "${line#FAIL }"; n=$((n + 1)) ;;
    "count "*) expected=${line#count } ;;
    *) fail "python3 output: $line" ;;
  esac
done <<<"$results"
[ "$n" -eq "$expected" ] || fail "all JSON checks ran" "python3 printed $n results of $expected"

finish
