#!/usr/bin/env bash
# Inputs decide reuse (issue 28, item 1): a sweep or plan row is reused only when the inputs it
# was computed from are unchanged (its inputs_hash and trnsim_version). Every kind of input file
# is edited between two runs: a Hugging Face config.json (the issue's reproduction: a scenario's
# model whose num_hidden_layers changes), a zoo model, a chip, the collectives calibration it
# includes, a system and the runtime calibration. Each edit re-simulates exactly the points
# that read the file, the summary says how many rows were stale, and the new rows hold the new
# figures. An unchanged rerun reuses everything. Small models (2 to 4 layers) keep each run to
# a second or two.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# An editable data tree: chips, systems, calibrations and the zoo are copies.
H=$WORK/home
mkdir -p "$H/hw" "$H/workloads"
cp -r "$SRC/hw/configs" "$H/hw/configs"
for d in models calibration; do cp -r "$SRC/workloads/$d" "$H/workloads/$d"; done
for d in scenarios sweeps plan; do ln -s "$SRC/workloads/$d" "$H/workloads/$d"; done
export TRNSIM_HOME=$H

mkdir -p "$WORK/jobs/MyModel"
sed 's/"num_hidden_layers": 32/"num_hidden_layers": 4/' "$SRC/test/data/hf/llama-3.1-8b.json" >"$WORK/jobs/MyModel/config.json"
# The scenario names its model by a path relative to itself, and the sweep its scenario.
sed 's#^model: qwen3-32b$#model: MyModel/config.json#' "$SRC/workloads/scenarios/qwen3-32b-trn2.yaml" \
  >"$WORK/jobs/hf-trn2.yaml"
grep -q '^model: MyModel/config.json$' "$WORK/jobs/hf-trn2.yaml" || { echo "test bug: scenario not rewritten"; exit 1; }
cat >"$WORK/jobs/sweep.yaml" <<'YAML'
name: stale
command: run
scenario: hf-trn2.yaml
axes:
  - values:
      - {checkpointing: none}
      - {model: llama3.1-8b, model.num_layers: 2, checkpointing: none}
YAML
cd "$WORK"  # paths in the sweep and the scenario are relative to their files, not to here
DB=$WORK/stale.sqlite

sweep() {  # sweep DESC RUN STALE: runs the sweep; RUN points run now, STALE of them stale
  expect_ok "$1" -- sweep jobs/sweep.yaml --db "$DB"
  local want="2 points, $2 run now"
  [ "$3" = 0 ] || want+=", $3 of them stale (inputs changed since their rows were stored)"
  check "$1: '$want'" grep -qF "stale: $want (shard 1/1)" "$OUT"
  check "$1: both points ok" grep -qx "  2 done, 0 infeasible, 0 failed" "$OUT"
}
# figure SQL: one value of the database.
figure() { sqlite3 "$DB" "select $1 from points where sets $2"; }

sweep "first run" 2 0
sweep "unchanged rerun reuses both rows" 0 0
before=$(figure "json_extract(result, '$.model.parameters')" "not like '%llama3.1-8b%'")
edit_copy "$WORK/jobs/MyModel/config.json" "$WORK/cfg" 's/"num_hidden_layers": 4/"num_hidden_layers": 2/'
mv "$WORK/cfg" "$WORK/jobs/MyModel/config.json"
sweep "config.json edited (num_hidden_layers 4 -> 2): its point only" 1 1
after=$(figure "json_extract(result, '$.model.parameters')" "not like '%llama3.1-8b%'")
check "the re-simulated row has the edited model's parameters ($before -> $after)" test "$after" -lt "$before"

edit_one() {  # edit_one DESC FILE SED RUN STALE
  edit_copy "$2" "$WORK/edited" "$3"
  mv "$WORK/edited" "$2"
  sweep "$1" "$4" "$5"
}
edit_one "zoo model edited (intermediate_size): its point only" "$H/workloads/models/llama3.1-8b.yaml" \
  's/^intermediate_size: 14336/intermediate_size: 12288/' 1 1
edit_one "chip edited (HBM bandwidth): both points" "$H/hw/configs/chips/trn2.yaml" \
  's/^  bandwidth: "2.9 TB\/s"/  bandwidth: "3.1 TB\/s"/' 2 2
edit_one "collectives calibration edited (launch overhead): both points" "$H/hw/configs/calibration/collectives.yaml" \
  's/^\(  *launch_overhead: "\)\([0-9.]*\) us"/\1\21 us"/' 2 2
edit_one "system edited (host vCPUs): both points" "$H/hw/configs/systems/trn2.48xlarge.yaml" \
  's/^  vcpus: 192/  vcpus: 96/' 2 2
edit_one "runtime calibration edited (workspace): both points" "$H/workloads/calibration/runtime.yaml" \
  's/^  workspace: "2 GiB"/  workspace: "3 GiB"/' 2 2
sweep "unchanged rerun after the edits reuses both rows" 0 0
check "every row is stamped with the inputs_hash of its point" \
  test "$(sqlite3 "$DB" "select count(*) from points where length(json_extract(result, '$.inputs_hash')) = 16")" = 2

# plan --db: the same rule for the plan's points.
plan=(plan --model jobs/MyModel/config.json --tokens 1e9 --systems trn2.48xlarge --max-chips 16 --global-batch 16
      --tp 4 --pp 1 --max-fsdp 4 --microbatch-sequences 1 --checkpointing none --db "$WORK/plan.sqlite")
expect_ok "plan, first run" -- "${plan[@]}" --json "$WORK/p1.json"
expect_ok "plan again" -- "${plan[@]}" --json "$WORK/p2.json"
check "plan again: every point reused, none stale" python3 -c "
import json, sys
s = json.load(open('$WORK/p2.json'))['search']
sys.exit(not (s['reused'] == s['evaluated'] > 0 and s['simulated_now'] == 0 and s['stale'] == 0))"
edit_one "config.json edited for the plan" "$WORK/jobs/MyModel/config.json" 's/"intermediate_size": 14336/"intermediate_size": 12288/' 1 1
expect_ok "plan after the edit" -- "${plan[@]}" --json "$WORK/p3.json"
check "plan after the edit: every stored point stale and simulated again" python3 -c "
import json, sys
s = json.load(open('$WORK/p3.json'))['search']
sys.exit(not (s['stale'] == s['evaluated'] == s['simulated_now'] > 0 and s['reused'] == 0))"
check "the plan's text says so" grep -q "stored with other inputs simulated again" "$OUT"
finish
