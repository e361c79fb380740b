#!/usr/bin/env bash
# A sweep killed at any moment loses nothing: SIGKILL (or SIGTERM) of `trnsim sweep` right
# after its first point commits leaves a consistent database holding only finished points,
# no worker outlives the sweep, and running the sweep again completes the rest; the rows
# then equal an uninterrupted run (wall-clock fields aside).
set -euo pipefail
trnsim=$1
tmp=$(mktemp -d); trap 'pkill -KILL -f "$tmp/trnsim-sweep" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
cat > "$tmp/sweep.yaml" <<'YAML'
name: kill-test
command: run
scenario: qwen3-32b-trn2
axes:
  - key: model
    values: [llama3.1-8b, llama2-7b, qwen3-8b]
  - key: mode
    values: [eager, compiled]
YAML
rows() { python3 - "$1" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("pragma integrity_check").fetchone()[0] == "ok", "database damaged"
out = {}
for id_, status, result, reason in c.execute("select id, status, result, reason from points"):
    r = json.loads(result)   # a committed row holds a whole JSON document
    r.get("sim", {}).pop("wall_s", None)
    out[id_] = (status, r, reason)
print(json.dumps(out, sort_keys=True))
PY
}
count() { [ -s "$1" ] || { echo 0; return; }; python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from points').fetchone()[0])" "$1" 2>/dev/null || echo 0; }

"$trnsim" sweep "$tmp/sweep.yaml" --db "$tmp/ref.sqlite" -j 2 > /dev/null 2>&1
total=$(count "$tmp/ref.sqlite")
[ "$total" = 6 ] || { echo "FAIL: reference sweep has $total rows, expected 6"; exit 1; }

for sig in KILL TERM; do
  db=$tmp/$sig.sqlite
  "$trnsim" sweep "$tmp/sweep.yaml" --db "$db" -j 2 > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do [ "$(count "$db")" -ge 1 ] && break; sleep 0.1; done
  kill -"$sig" "$pid"
  wait "$pid" || true
  n=$(count "$db")
  [ "$n" -ge 1 ] && [ "$n" -lt 6 ] || { echo "FAIL: SIG$sig: $n rows after the kill (the sweep was not interrupted mid-way)"; exit 1; }
  # Workers die with the sweep (PR_SET_PDEATHSIG).
  for _ in $(seq 100); do pgrep -f "$tmp/trnsim-sweep" > /dev/null || break; sleep 0.1; done
  if pgrep -f "$tmp/trnsim-sweep" > /dev/null; then echo "FAIL: SIG$sig: a worker outlived the sweep"; exit 1; fi
  rows "$db" > /dev/null  # integrity_check and whole JSON rows
  out=$("$trnsim" sweep "$tmp/sweep.yaml" --db "$db" -j 2 2>/dev/null)
  [[ $out == *"6 points, $((6 - n)) run now"* ]] || { echo "FAIL: SIG$sig: resume did not run exactly the $((6 - n)) missing points: $out"; exit 1; }
  [ "$(rows "$db")" = "$(rows "$tmp/ref.sqlite")" ] || { echo "FAIL: SIG$sig: resumed rows differ from an uninterrupted run"; exit 1; }
  echo "ok - SIG$sig after $n of 6 points: database consistent, no orphan workers, resume ran $((6 - n)), rows equal an uninterrupted run"
done
