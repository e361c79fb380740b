#!/usr/bin/env bash
# `trnsim sweep` and `trnsim merge`: every point of the product gets one row (result JSON or
# the reason it is infeasible); a second run skips finished points; shards run under GNU
# parallel and merged give the same rows as a single-process run.
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
"$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/full.sqlite" -j 2 > "$tmp/out1" 2>/dev/null
grep -q "4 points, 4 run now" "$tmp/out1"
"$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/full.sqlite" -j 2 > "$tmp/out2" 2>/dev/null
grep -q "4 points, 0 run now" "$tmp/out2" || { echo "FAIL: resume re-ran points"; cat "$tmp/out2"; exit 1; }
parallel -j 2 "$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/shard{}.sqlite" --shard {}/2 ::: 1 2 > /dev/null 2>&1
"$trnsim" merge "$tmp/merged.sqlite" "$tmp/shard1.sqlite" "$tmp/shard2.sqlite" > /dev/null
python3 - "$tmp/full.sqlite" "$tmp/merged.sqlite" <<'PY'
import json, sqlite3, sys
def rows(path):
    out = {}
    for id_, status, result, reason in sqlite3.connect(path).execute("select id, status, result, reason from points"):
        r = json.loads(result) if result else None
        if r: r["sim"].pop("wall_s")
        out[id_] = (status, r, reason)
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert a == b, "merged shards differ from the single run"
st = sorted(v[0] for v in a.values())
assert st == ["infeasible", "infeasible", "ok", "ok"], st
assert all("tp 3 does not divide" in v[2] for v in a.values() if v[0] == "infeasible")
print("sweep ok:", len(a), "points; shards merged equal the single run")
PY
# Bad sweep files and options: exit 2, one line, no database.
printf 'name: x\nscenario: qwen3-32b-trn2\naxes:\n  - key: mode\n    valuez: [eager]\n' > "$tmp/bad.yaml"
for args in "$tmp/bad.yaml --db $tmp/bad.sqlite" "$tmp/sweep.yaml --db $tmp/bad.sqlite --shard 3/2"; do
  set +e; "$trnsim" sweep $args > /dev/null 2> "$tmp/err"; rc=$?; set -e
  [ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] || { echo "FAIL: sweep $args -> $rc"; cat "$tmp/err"; exit 1; }
done
[ ! -e "$tmp/bad.sqlite" ] || { echo "FAIL: a database was created for bad input"; exit 1; }
echo ok
