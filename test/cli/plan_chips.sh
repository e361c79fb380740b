#!/usr/bin/env bash
# `plan --rank-by chips` (issue 31, item 3): the fewest chips that train within --deadline,
# among those the shortest time to train. The pruned search gives the same winner as
# --exhaustive (the bound on a survivor is its chip count, then its bound on the time to
# train, so pruning is exact); every listed candidate meets the deadline and none has fewer
# chips than the winner; a deadline the smallest job misses moves the answer to more chips.
# Without --deadline, or with a quantile, the ranking is refused in words. With --counts all,
# a count that is not a power of two wins when it is the fewest chips within the deadline.
# Ranking by chips needs no price: a system without one has an unknown cost.
# The plan's status line (item 3's progress): on a terminal (script(1) gives one) stderr shows
# the enumeration and the bounds from the start, redrawn in place; not on a terminal, no status.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

base=(plan --model llama3.1-8b --tokens 1e10 --systems trn2.48xlarge --max-chips 64 --global-batch 64
      --set model.num_layers=2 --tp 4 --pp 1 --max-fsdp 2 --microbatch-sequences 1 --checkpointing none
      --rank-by chips --no-intervals -j 2)
expect_ok "chips, loose deadline" -- "${base[@]}" --deadline 10d --json "$WORK/loose.json"
expect_ok "chips, tight deadline" -- "${base[@]}" --deadline 0.1d --json "$WORK/tight.json"
expect_ok "chips, tight deadline, exhaustive" -- "${base[@]}" --deadline 0.1d --exhaustive --json "$WORK/exh.json"
expect_ok "chips, loose deadline, exhaustive" -- "${base[@]}" --deadline 10d --exhaustive --json "$WORK/exh_loose.json"

record_results "$(python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
loose, tight, exh, exh_loose = (json.load(open(f"{w}/{n}.json")) for n in ("loose", "tight", "exh", "exh_loose"))
def check(ok, what):
    print("ok" if ok else "FAIL", what)
for name, p, deadline in (("loose", loose, 10 * 86400), ("tight", tight, 0.1 * 86400)):
    c = p["candidates"]
    check(p["plan"]["rank_by"] == "chips", f"{name}: ranked by chips")
    check(all(x["time_to_train_s"] <= deadline for x in c), f"{name}: every candidate meets the deadline")
    check(all(x["chips"] >= c[0]["chips"] for x in c), f"{name}: no candidate has fewer chips than the winner")
    same = [x for x in c if x["chips"] == c[0]["chips"]]
    check(all(x["time_to_train_s"] >= c[0]["time_to_train_s"] for x in same),
          f"{name}: the winner is the fastest of its chip count")
check(loose["candidates"][0]["chips"] == 16, "loose: one instance (16 chips) is enough")
check(tight["candidates"][0]["chips"] > 16, f"tight: more chips ({tight['candidates'][0]['chips']})")
check((tight["candidates"][0]["chips"], tight["candidates"][0]["layout"]) ==
      (exh["candidates"][0]["chips"], exh["candidates"][0]["layout"]), "tight: the pruned search's winner is --exhaustive's")
check((loose["candidates"][0]["chips"], loose["candidates"][0]["layout"]) ==
      (exh_loose["candidates"][0]["chips"], exh_loose["candidates"][0]["layout"]),
      "loose: the pruned search's winner is --exhaustive's")
PY
)"

# Every instance count (--counts all): at a global batch of 192 (which 1 to 4 instances all
# divide) and a deadline of 0.08 d, 2 instances miss and 3 (48 chips) meet it; the powers of two
# (the default) jump to 4. The pruned search's winner is --exhaustive's.
every=(plan --model llama3.1-8b --tokens 1e10 --systems trn2.48xlarge --max-chips 64 --global-batch 192
       --set model.num_layers=2 --tp 4 --pp 1 --max-fsdp 2 --microbatch-sequences 1 --checkpointing none
       --rank-by chips --deadline 0.08d --no-intervals -j 2)
expect_ok "chips, every count" -- "${every[@]}" --counts all --json "$WORK/all.json"
expect_ok "chips, every count, exhaustive" -- "${every[@]}" --counts all --exhaustive --json "$WORK/all_exh.json"
expect_ok "chips, powers of two" -- "${every[@]}" --json "$WORK/pow2.json"
record_results "$(python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
a, e, p = (json.load(open(f"{w}/{n}.json")) for n in ("all", "all_exh", "pow2"))
def check(ok, what):
    print("ok" if ok else "FAIL", what)
check((a["candidates"][0]["instances"], a["candidates"][0]["chips"]) == (3, 48), "every count: 3 instances (48 chips)")
check((a["candidates"][0]["chips"], a["candidates"][0]["layout"]) == (e["candidates"][0]["chips"], e["candidates"][0]["layout"]),
      "every count: the pruned search's winner is --exhaustive's")
check(all(c["instances"] != 2 for c in e["candidates"]), "every count: 2 instances miss the deadline")
check(p["candidates"][0]["chips"] == 64, "powers of two: 4 instances (64 chips)")
check(a["search"]["sizes"]["considered"] == 4 and p["search"]["sizes"]["considered"] == 3, "sizes considered: 4 and 3")
check(a["plan"]["counts"] == "all" and p["plan"]["counts"] == "pow2", "the JSON says which counts")
PY
)"

# Points whose simulation fails (here all of them: --max-memory 1MiB refuses each one before
# it runs) are listed with their bounds; one whose bound is not above the winner's figure, or
# any when nothing won, may have been the answer, and the plan says so. A plan where nothing
# failed lists none.
expect_ok "chips, every point refused by --max-memory" -- "${every[@]}" --counts all --max-memory 1MiB \
  --json "$WORK/failed.json"
check "the text counts the failed points and says the answer may be wrong" grep -qE \
  "^  failed       8 points could not be simulated; 8 have bounds not above any feasible figure \(there is no winner\): the answer may be wrong" "$OUT"
check "the text shows a failed point, its bound and why" grep -qE \
  "^               trn2.48xlarge x3 tp4 .*: step bound [0-9.]+ s: .*over --max-memory" "$OUT"
check "the JSON lists every failed point as one that could have won" python3 -c "
import json
d = json.load(open('$WORK/failed.json'))
f = d['search']['failed_points']
assert len(f) == 8 == d['search']['failed'], d['search']
assert all(x['could_win'] and x['step_bound_s'] > 0 and 'max-memory' in x['message'] for x in f), f[0]
assert d['candidates'] == [] and '--max-memory' in d['plan']['command'], d['plan']['command']
"
check "no failed point when every point ran" python3 -c \
  "import json; assert json.load(open('$WORK/all.json'))['search']['failed_points'] == []"

# No price needed to rank by chips (or time): Trn3 has no public price; the cost is unknown
# (text '-', JSON null) and the report draws no cost plot. Ranking by cost or a cost limit
# still asks for the price.
noprice=(plan --model llama3.1-8b --tokens 1e9 --systems trn3-gen1-ultraserver --max-chips 64 --global-batch 256
         --set model.num_layers=2 --tp 4 --pp 1 --max-fsdp 1 --microbatch-sequences 1 --checkpointing none
         --no-intervals -j 2)
expect_ok "chips without a price" -- "${noprice[@]}" --rank-by chips --deadline 10d --json "$WORK/noprice.json"
check "the text says the price is unknown and how to give one" grep -qE \
  "^  price +trn3-gen1-ultraserver: unknown, so its costs print as - \(give one with --price trn3-gen1-ultraserver=USD_PER_HOUR\)$" "$OUT"
check "the cost column prints -" grep -qE "^  1 +trn3-gen1-ultraserver +64 .* - +[0-9.]+% *$" "$OUT"
check "the JSON's costs are null" python3 -c "
import json
d = json.load(open('$WORK/noprice.json'))
assert d['plan']['prices_usd_per_instance_hour'] == {'trn3-gen1-ultraserver': {'usd': None, 'source': 'unknown'}}, d['plan']
c = d['candidates'][0]
assert c['cost_usd'] is None and c['cost_no_failures_usd'] is None and c['price_usd_per_instance_hour'] is None, c
"
expect_ok "report of a plan without prices" -- report "$WORK/noprice.json" --html "$WORK/noprice.html"
check "the report says no cost is known" grep -q "No candidate has a known cost" "$WORK/noprice.html"
expect_error "cost ranking without a price" "--systems" "no public price is known for trn3-gen1-ultraserver" \
  "--rank-by cost needs" -- "${noprice[@]}" --rank-by cost
expect_error "a cost limit without a price" "--systems" "--max-cost needs" -- "${noprice[@]}" --max-cost 1e6

expect_error "chips without a deadline" "--rank-by chips" "needs --deadline" -- plan --model llama3.1-8b --tokens 1e10 \
  --systems trn2.48xlarge --rank-by chips
expect_error "chips with a quantile" "--rank-by" "not chips" -- plan --model llama3.1-8b --tokens 1e10 \
  --systems trn2.48xlarge --rank-by chips@0.9 --deadline 30d
if command -v script > /dev/null; then
  TERM=xterm script -qec "'$TRNSIM' ${base[*]} --deadline 10d > /dev/null" /dev/null > "$WORK/tty.out" 2>&1 || true
  check "status line on a terminal: the enumeration first" grep -q $'^\rplan: enumerating trn2.48xlarge x1: 0 layouts' "$WORK/tty.out"
  check "status line on a terminal: the bounds" grep -q 'plan: bounds [0-9]*/[0-9]*, evaluated' "$WORK/tty.out"
  "$TRNSIM" "${base[@]}" --deadline 10d > /dev/null 2> "$WORK/notty.err"
  check "no status line when stderr is a file" bash -c "! grep -q \$'\\r' '$WORK/notty.err'"
else
  skip "the status line (no script(1))"
fi
finish
