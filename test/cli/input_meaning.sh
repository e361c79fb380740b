#!/usr/bin/env bash
# Input that meant something else (issue 28, items 3 and 6), each now the expected behaviour or
# a warning (the exit-2 errors are rows of bad_input_catalogue.sh):
#   - `--set chip.X` on run and startup is `system.chip.X`, as --help shows it;
#   - plan --deadline takes days and weeks (30d = 720h = "30 days", 2w = 14d: the same plans);
#   - plan --budget still works as --max-cost, with one warning line;
#   - a scenario's relative path is read beside the scenario; one that exists only from the
#     working directory is read from there with one warning line;
#   - a warning line is never a sweep row's reason;
#   - JSON counts and byte sizes are integers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
TINY=(--set model.num_layers=2)

expect_ok "run --set chip.hbm.bandwidth" -- run qwen3-32b-trn2 "${TINY[@]}" --set 'chip.hbm.bandwidth=3.0 TB/s' \
  --resolved "$WORK/chip.yaml" --json "$WORK/chip.json"
expect_ok "run --set system.chip.hbm.bandwidth" -- run qwen3-32b-trn2 "${TINY[@]}" \
  --set 'system.chip.hbm.bandwidth=3.0 TB/s' --resolved "$WORK/system.chip.yaml"
check "chip.X is system.chip.X: the same resolved scenario" cmp -s "$WORK/chip.yaml" "$WORK/system.chip.yaml"
check "and not the shipped bandwidth" grep -q 'bandwidth: "3 TB/s"' "$WORK/chip.yaml"
expect_ok "startup --set chip.hbm.bandwidth" -- startup qwen3-32b-trn2 "${TINY[@]}" --set 'chip.hbm.bandwidth=3.0 TB/s'

PLAN=(plan --model llama3.1-8b --tokens 1e9 --systems trn2.48xlarge --max-chips 16 --global-batch 16 "${TINY[@]}"
      --tp 8 --pp 1 --max-fsdp 2 --microbatch-sequences 1 --checkpointing none)
for d in 30d 720h "30 days" 2w 14d; do
  expect_ok "plan --deadline $d" -- "${PLAN[@]}" --deadline "$d" --json "$WORK/deadline-${d// /}.json"
done
check "30d, 720h and 30 days are one plan, 2w and 14d another" bash -c "cd '$WORK' &&
  cmp -s deadline-30d.json deadline-720h.json && cmp -s deadline-30d.json deadline-30days.json &&
  cmp -s deadline-2w.json deadline-14d.json && ! cmp -s deadline-2w.json deadline-30d.json"
expect_ok "plan --budget (old spelling)" -- "${PLAN[@]}" --budget 5e6 --json "$WORK/budget.json"
check "one warning line names --max-cost" \
  grep -qx "trnsim: warning: plan --budget is the old spelling of --max-cost (USD); --budget of startup and flexattention is a compile time" "$ERR"
check "exactly one warning" test "$(grep -c 'trnsim: warning' "$ERR")" = 1
expect_ok "plan --max-cost" -- "${PLAN[@]}" --max-cost 5e6 --json "$WORK/max-cost.json"
check "--budget and --max-cost give one plan" cmp -s "$WORK/budget.json" "$WORK/max-cost.json"
check "no warning with --max-cost" bash -c "! grep -q warning '$ERR'"

# Paths in a scenario: beside it; an old scenario's cwd-relative path still loads, with a warning.
mkdir -p "$WORK/jobs/models" "$WORK/cwd/jobs-old"
sed 's/^num_layers: .*/num_layers: 2/' "$SRC/workloads/models/qwen3-8b.yaml" >"$WORK/jobs/models/small.yaml"
sed 's#^model: qwen3-32b$#model: models/small.yaml#' "$SRC/workloads/scenarios/qwen3-32b-trn2.yaml" >"$WORK/jobs/s.yaml"
(cd / && "$TRNSIM" run "$WORK/jobs/s.yaml" >"$OUT" 2>"$ERR") && pass "a scenario's relative model path, run from /" ||
  fail "a scenario's relative model path, run from /" "$(head -2 "$ERR")"
check "no warning for a path beside the scenario" bash -c "! grep -q warning '$ERR'"
sed 's#^model: qwen3-32b$#model: jobs/models/small.yaml#' "$SRC/workloads/scenarios/qwen3-32b-trn2.yaml" \
  >"$WORK/cwd/jobs-old/s.yaml"
(cd "$WORK" && "$TRNSIM" run cwd/jobs-old/s.yaml >"$OUT" 2>"$ERR") && pass "a path only the working directory has" ||
  fail "a path only the working directory has" "$(head -2 "$ERR")"
check "one warning: read from the working directory" \
  grep -qE "^trnsim: warning: cwd/jobs-old/s\.yaml:[0-9]+:[0-9]+: model: 'jobs/models/small\.yaml' is not beside cwd/jobs-old/s\.yaml; read from the working directory instead \(a path in a file is relative to the file's directory\)$" "$ERR"

# A sweep point whose worker warns: the warning is not the row's reason.
cat >"$WORK/cwd/sweep.yaml" <<YAML
name: warn
command: run
scenario: jobs-old/s.yaml
axes:
  - key: parallel.tp
    values: [3]
YAML
(cd "$WORK" && "$TRNSIM" sweep cwd/sweep.yaml --db "$WORK/warn.sqlite" >"$OUT" 2>"$ERR") && pass "sweep of a warning scenario" ||
  fail "sweep of a warning scenario" "$(head -3 "$ERR")"
check "the infeasible row's reason is the error, not the warning" \
  bash -c "sqlite3 '$WORK/warn.sqlite' 'select reason from points' | grep -q '^trnsim: error: .*parallel.tp: tp 3 does not divide'"

# JSON: counts and byte sizes are integers.
expect_ok "startup --json" -- startup qwen3-32b-trn2 "${TINY[@]}" --json "$WORK/startup.json"
check "run and startup counts and byte sizes are JSON integers" python3 - "$WORK/chip.json" "$WORK/startup.json" <<'PY'
import json, sys
run, st = (json.load(open(p)) for p in sys.argv[1:3])
counts = [run["model"]["parameters"], run["model"]["active_parameters"], run["memory"]["per_rank_bytes"],
          run["memory"]["hbm_capacity_bytes"], st["model"]["parameters"], st["tokens_per_step"]]
counts += list(run["memory"]["categories"].values()) + [p["hbm_bytes"] for p in run["roofline"]["points"]]
if st["break_even"]["steps"] is not None:
    counts += [st["break_even"]["steps"], st["break_even"]["tokens"]]
bad = [c for c in counts if not isinstance(c, int)]
assert not bad, bad
PY
finish
