#!/usr/bin/env bash
# `trnsim startup` in both modes on every shipped scenario and every validation scenario, and
# `run --mode eager` on every pipeline-parallel one (issue 27: eager + pipeline deadlocked).
# Each startup must exit 0 with both first steps, each longer than its steady step, and a
# break-even that is consistent with the two; `--mode eager` and `--mode compiled` must give the
# sections of `--mode both`. To stay cheap, runs are cut (the cut is printed): as many
# micro-batches as stages (or two), two layers a stage for the validation scenarios, fewer layers
# and a smaller vocabulary for the UltraServer ones; every graph kind and part of the first step stays.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK

# The --set cut of a scenario file: stages' worth of micro-batches for pipelines (per-rank
# memory unchanged, as test/cli/validation_scenarios.sh argues), fewer layers for the slowest.
cut_of() {
  python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def num(key):
    m = re.search(r"\b%s: *(\d+)" % key, t)
    return int(m.group(1)) if m else None
name = sys.argv[1].rsplit("/", 1)[-1]
cut = []
pp, dp, mb, gbs = num("pp") or 1, num("dp") or 1, num("microbatches") or 1, num("global_batch")
validation = "/validation/" in sys.argv[1]
if pp > 1 and mb > pp and gbs:
    cut += ["parallel.microbatches=%d" % pp, "batch.global_batch=%d" % (gbs // mb * pp)]
elif mb > 1 and gbs:  # gradient accumulation alone: two micro-batches keep its graphs
    cut += ["parallel.microbatches=2", "batch.global_batch=%d" % (gbs // mb * 2)]
if validation:  # two layers a stage: every graph kind of the first step, a fraction of the steady step
    cut += ["model.num_layers=%d" % (2 * pp)]
elif "trn3" in name or "ultraserver" in name:
    # the UltraServers' FSDP and embedding collectives dominate: 4 layers, a 16,384-token vocabulary
    cut += ["model.num_layers=4", "model.vocab_size=16384"]
print(" ".join("--set " + c for c in cut))
PY
}

check_startup() {  # DESC JSON
  python3 - "$2" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
e, c = d["eager"], d["compiled"]
msgs = []
for name, m in (("eager", e), ("compiled", c)):
    f, st = m["first_step"]["total_s"], m["steady"]["step_time_s"]
    if not (f > st > 0): msgs.append("%s first step %.3g s not above its steady step %.3g s" % (name, f, st))
    if abs(sum(m["first_step"]["parts"].values()) - f) > 1e-6 * f: msgs.append("%s parts do not sum" % name)
    if m["compile"]["graphs"] < 1: msgs.append("%s compiles no graph" % name)
be = d["break_even"]["steps"]
ste, stc = e["steady"]["step_time_s"], c["steady"]["step_time_s"]
if (be is None) != (stc >= ste): msgs.append("break-even %s with steady steps %.4g / %.4g" % (be, ste, stc))
if be is not None:
    gap = c["first_step"]["total_s"] - e["first_step"]["total_s"]
    want = max(1.0, math.ceil(1 + gap / (ste - stc)))
    if be != want: msgs.append("break-even %s, expected %s" % (be, want))
print("FAIL " + "; ".join(msgs) if msgs else "ok eager %.1f s, compiled %.1f s, break-even %s" %
      (e["first_step"]["total_s"], c["first_step"]["total_s"], be))
PY
}

for f in "$SRC"/workloads/scenarios/*.yaml "$SRC"/workloads/scenarios/validation/*.yaml; do
  rel=${f#"$SRC"/}
  read -r -a cut <<<"$(cut_of "$f")"
  run_trnsim startup "$f" "${cut[@]+"${cut[@]}"}" --no-intervals --json "$D/s.json"
  if [ "$RC" -ne 0 ]; then
    fail "startup $rel ${cut[*]+${cut[*]}}" "exit $RC: $(head -c 400 "$ERR")"
    continue
  fi
  verdict=$(check_startup "startup $rel" "$D/s.json")
  case $verdict in
    ok*) pass "startup $rel ${cut[*]+${cut[*]} }(${verdict#ok })" ;;
    *) fail "startup $rel" "${verdict#FAIL }" ;;
  esac
  # Eager mode on every pipeline-parallel scenario, alone.
  if grep -qE '\bpp: *([2-9]|[1-9][0-9])' "$f"; then
    run_trnsim run "$f" "${cut[@]+"${cut[@]}"}" --mode eager --no-intervals --json "$D/r.json"
    check "run --mode eager $rel (pipeline)" test "$RC" -eq 0
  fi
done

# One mode alone gives the same section as both modes together (a pipeline scenario).
P="$SRC/workloads/scenarios/validation/t2-llama2-13b-nxd-32n-tp8-pp4.yaml --set parallel.microbatches=4 --set batch.global_batch=128"
# shellcheck disable=SC2086
run_trnsim startup $P --json "$D/both.json"
for mode in eager compiled; do
  # shellcheck disable=SC2086
  run_trnsim startup $P --mode $mode --json "$D/$mode.json"
  check "startup --mode $mode: the $mode section of --mode both, alone" python3 - "$D/both.json" "$D/$mode.json" "$mode" <<'PY'
import json, sys
both, one, mode = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
other = "compiled" if mode == "eager" else "eager"
assert one[mode] == both[mode], (one[mode], both[mode])
assert other not in one and "break_even" not in one, sorted(one)
assert one["cost"]["instance_hours"] == {mode: both["cost"]["instance_hours"][mode]}
PY
done
expect_error "startup --mode lukewarm" "--mode" -- startup qwen3-32b-trn2 --mode lukewarm
finish
