#!/usr/bin/env bash
# `plan --rank-by chips` (issue 31, item 3): the fewest chips that train within --deadline,
# among those the shortest time to train. The pruned search gives the same winner as
# --exhaustive (the bound on a survivor is its chip count, then its bound on the time to
# train, so pruning is exact); every listed candidate meets the deadline and none has fewer
# chips than the winner; a deadline the smallest job misses moves the answer to more chips.
# Without --deadline, or with a quantile, the ranking is refused in words.
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
