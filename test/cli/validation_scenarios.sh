#!/usr/bin/env bash
# Every scenario under workloads/scenarios/validation/ loads, passes the layout checks and fits
# in HBM at full size, and is listed once in workloads/validation/trn1-training.yaml (a
# "Validation row") or workloads/validation/trn1-holdout.yaml (a "Held-out row"), and every
# listed scenario exists. To stay cheap, each run keeps the model and layout but cuts the
# micro-batches per step to pp (global batch dp x pp x mbs): per-rank memory is unchanged
# (1F1B keeps min(pp, micro-batches) in flight, and the sequences per micro-batch are the same).
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$src"/workloads/scenarios/validation/*.yaml; do
  rel=${f#"$src"/}
  read -r id pp dp mbs < <(python3 - "$f" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def num(key):
    m = re.search(r"\b%s: *(\d+)" % key, t)
    assert m, (sys.argv[1], key)
    return int(m.group(1))
row = re.search(r"^# (Validation|Held-out) row (\S+) ", t, re.M)
assert row and re.search(r"^# Published: .*seq/s", t, re.M) and re.search(r"^# Source: ", t, re.M), \
    (sys.argv[1], "header needs 'Validation row ID' (or 'Held-out row ID'), 'Published: ... seq/s' and 'Source:' lines")
pp, dp, mb, gbs = num("pp"), num("dp"), num("microbatches"), num("global_batch")
assert gbs % (dp * mb) == 0, (sys.argv[1], "global_batch != dp x microbatches x mbs")
print(row.group(2) + ("/holdout" if row.group(1) == "Held-out" else ""), pp, dp, gbs // (dp * mb))
PY
)
  table=$src/workloads/validation/trn1-training.yaml
  case $id in */holdout) id=${id%/holdout}; table=$src/workloads/validation/trn1-holdout.yaml ;; esac
  grep -q "^  - id: \"$id\"$" "$table" || { echo "FAIL: $rel: row $id is not in ${table#"$src"/}"; exit 1; }
  grep -q "^    scenario: $rel$" "$table" || { echo "FAIL: $rel is not listed in ${table#"$src"/}"; exit 1; }
  name=$(basename "$f" .yaml)
  "$trnsim" run "$f" --no-intervals --set parallel.microbatches="$pp" --set batch.global_batch=$((dp * pp * mbs)) \
    --json "$tmp/$name.json" > "$tmp/$name.txt" 2> "$tmp/$name.err" || {
    echo "FAIL: $rel ($id)"; cat "$tmp/$name.err"; exit 1; }
  python3 - "$tmp/$name.json" "$rel" "$id" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["memory"]
assert d["steady"]["step_time_s"] > 0, sys.argv[2]
assert m["per_rank_bytes"] <= m["hbm_capacity_bytes"], sys.argv[2]
print(f"ok - {sys.argv[3]:4s} {sys.argv[2]}: {m['per_rank_bytes'] / 2**30:5.2f} of {m['hbm_capacity_bytes'] / 2**30:.0f} GiB per rank")
PY
  n=$((n + 1))
done
# Every listed scenario exists.
listed=0
for table in "$src"/workloads/validation/trn1-training.yaml "$src"/workloads/validation/trn1-holdout.yaml; do
  for rel in $(sed -n 's/^    scenario: //p' "$table"); do
    [ -f "$src/$rel" ] || { echo "FAIL: ${table#"$src"/} lists missing $rel"; exit 1; }
  done
  listed=$((listed + $(grep -c '^  - id: ' "$table")))
done
[ "$listed" = "$n" ] || { echo "FAIL: $listed rows listed, $n scenarios"; exit 1; }
echo "$n validation scenarios load and fit"
