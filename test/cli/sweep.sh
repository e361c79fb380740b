#!/usr/bin/env bash
# `trnsim sweep` and `trnsim merge`: every point of the product gets one row, with its axis
# values in a column per axis key and JSON in the result column on every row (the result, or
# why the point is infeasible, with a kind); progress names the points and the end prints a
# table and the counts; a second run skips finished points; shards run under GNU parallel and
# merged give the same rows as a single-process run; a database of an older trnsim (no axis
# columns) gets them added; a misspelt axis key or a bad axis value exits 2 before any file is
# created.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/sweep.yaml" <<'YAML'
name: test-sweep
command: run
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model: llama3.1-8b, parallel.tp: 4}
      - {model: llama3.1-8b, parallel.tp: 3}
  - key: mode
    values: [eager, compiled]
YAML
"$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/full.sqlite" -j 2 > "$tmp/out1" 2> "$tmp/err1"
grep -q "4 points, 4 run now" "$tmp/out1"
# Progress names each point by its axis values; the end has the table and the counts.
for p in "model=llama3.1-8b tp=4 mode=eager: ok" "model=llama3.1-8b tp=3 mode=compiled: infeasible (invalid-layout)"; do
  grep -qF "$p" "$tmp/err1" || { echo "FAIL: no progress line naming '$p'"; cat "$tmp/err1"; exit 1; }
done
grep -qE '^  model +tp +mode +step \(s\) +tokens/s +status$' "$tmp/out1" || { echo "FAIL: no table header"; cat "$tmp/out1"; exit 1; }
grep -qE '^  llama3.1-8b +3 +eager +- +- +infeasible \(invalid-layout\)$' "$tmp/out1" || { echo "FAIL: no infeasible table row"; cat "$tmp/out1"; exit 1; }
grep -qE '^  llama3.1-8b +4 +compiled +[0-9.]+ +[0-9]+ +ok$' "$tmp/out1" || { echo "FAIL: no ok table row"; cat "$tmp/out1"; exit 1; }
grep -qx "  2 done, 2 infeasible, 0 failed" "$tmp/out1" || { echo "FAIL: no counts line"; cat "$tmp/out1"; exit 1; }
"$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/full.sqlite" -j 2 > "$tmp/out2" 2>/dev/null
grep -q "4 points, 0 run now" "$tmp/out2" || { echo "FAIL: resume re-ran points"; cat "$tmp/out2"; exit 1; }
grep -qx "  2 done, 2 infeasible, 0 failed" "$tmp/out2" || { echo "FAIL: the resumed run's table lost the finished points"; cat "$tmp/out2"; exit 1; }
parallel -j 2 "$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/shard{}.sqlite" --shard {}/2 ::: 1 2 > /dev/null 2>&1
"$trnsim" merge "$tmp/merged.sqlite" "$tmp/shard1.sqlite" "$tmp/shard2.sqlite" > /dev/null
# A database of an older trnsim: the fixed columns only. The sweep adds its axis columns.
sqlite3 "$tmp/old.sqlite" "CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, status TEXT, result TEXT, reason TEXT)"
"$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/old.sqlite" -j 2 > /dev/null 2>&1
python3 - "$tmp/full.sqlite" "$tmp/merged.sqlite" "$tmp/old.sqlite" <<'PY'
import json, sqlite3, sys
FIXED = ["id", "idx", "sweep", "sets", "status", "result", "reason"]
def rows(path):
    c = sqlite3.connect(path)
    cols = [r[1] for r in c.execute("pragma table_info(points)")]
    assert cols == FIXED + ["model", "parallel.tp", "mode"], (path, cols)
    out = {}
    for row in c.execute("select * from points"):
        r = dict(zip(cols, row))
        doc = json.loads(r.pop("result"))  # JSON on every row
        doc.get("sim", {}).pop("wall_s", None)
        out[r["id"]] = (r, doc)
    # json_extract works on every row (no '' results).
    assert c.execute("select count(json_extract(result, '$.schema_version')) from points").fetchone()[0] == len(out)
    return out
a, b, old = (rows(p) for p in sys.argv[1:4])
assert a == b, "merged shards differ from the single run"
assert a == old, "the sweep into an older database differs"
st = sorted(r["status"] for r, _ in a.values())
assert st == ["infeasible", "infeasible", "ok", "ok"], st
for r, doc in a.values():
    assert r["model"] == "llama3.1-8b" and r["parallel.tp"] in (3, 4) and r["mode"] in ("eager", "compiled"), r
    assert isinstance(r["parallel.tp"], int), "an integer axis value is stored as an integer"
    if r["status"] == "infeasible":
        assert r["parallel.tp"] == 3 and "tp 3 does not divide" in r["reason"], r
        assert doc["infeasible"]["kind"] == "invalid-layout", doc
        assert "tp 3 does not divide" in doc["infeasible"]["message"], doc
    else:
        assert doc["steady"]["tokens_per_s"] > 0 and doc["schema_version"] == 1, doc
print("sweep ok:", len(a), "points; shards merged and an older database equal the single run")
PY
# Bad sweep files and options: exit 2, one line, no database.
printf 'name: x\nscenario: qwen3-32b-trn2\naxes:\n  - key: mode\n    valuez: [eager]\n' > "$tmp/bad.yaml"
printf 'name: x\nscenario: qwen3-32b-trn2\naxes:\n  - key: parallel.tpp\n    values: [4, 8]\n' > "$tmp/typo.yaml"
printf 'name: x\nscenario: qwen3-32b-trn2\naxes:\n  - values:\n      - {parallel.tp: 4, batch.global_batch: 16}\n      - {parallel.tp: 0}\n' > "$tmp/range.yaml"
printf 'name: x\nscenario: qwen3-32b-trn2\naxes:\n  - key: model\n    values: [llama3.1-8b, llama3.1-9b]\n' > "$tmp/name.yaml"
check_bad() {  # ARGS... -- EXPECTED-TEXT
  local args=() want
  while [ "$1" != "--" ]; do args+=("$1"); shift; done
  want=$2
  set +e; "$trnsim" sweep "${args[@]}" > /dev/null 2> "$tmp/err"; rc=$?; set -e
  [ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -qF -- "$want" "$tmp/err" \
    || { echo "FAIL: sweep ${args[*]} -> $rc, expected 2 and '$want'"; cat "$tmp/err"; exit 1; }
}
check_bad "$tmp/bad.yaml" --db "$tmp/bad.sqlite" -- "bad.yaml:5:5: axes[0].valuez: unknown key 'valuez' (did you mean 'values'? expected key, values)"
check_bad "$tmp/sweep.yaml" --db "$tmp/bad.sqlite" --shard 3/2 -- "--shard: expected K/N"
check_bad "$tmp/typo.yaml" --db "$tmp/bad.sqlite" -- "typo.yaml:4:10: parallel.tpp: unknown key 'tpp' (did you mean 'tp'?)"
check_bad "$tmp/range.yaml" --db "$tmp/bad.sqlite" -- "range.yaml:6:23: parallel.tp: value 0 is out of range"
check_bad "$tmp/name.yaml" --db "$tmp/bad.sqlite" -- "name.yaml:5:27: model: unknown model 'llama3.1-9b' (did you mean 'llama3.1-8b'?)"
[ ! -e "$tmp/bad.sqlite" ] || { echo "FAIL: a database was created for bad input"; exit 1; }
# Every shipped sweep passes the axis checks: it stops only at a database that cannot be opened.
for f in "$src"/workloads/sweeps/*.yaml; do
  check_bad "$f" --db /proc/trnsim-sweep-test.sqlite -- "--db /proc/trnsim-sweep-test.sqlite: cannot open"
done
echo ok
