#!/usr/bin/env bash
# `trnsim plan` (docs/plan.md): the pruning never drops the winner, and a rerun reuses.
# 1. A small search with and without --exhaustive ranks the same winner with the same
#    figures; every evaluated point's FLOP bound and schedule bound (rules 5 and 6) is at most
#    its simulated step; the pruned run did prune (by the bound and by checkpointing
#    dominance) and simulated fewer points. The search: Llama-3.1-8B cut to 2 layers (every
#    point simulates in a second or two), trn1.32xlarge and trn2.48xlarge at 1 and 2
#    instances, TP 8, PP 1 or 2, FSDP up to 2, one sequence per micro-batch, no or full
#    checkpointing: the pruning rules act on it as on a full search.
# 2. The pruned search again with the same --db and -j 1: nothing simulated, every point
#    reused, and the same JSON but for those two counts (so -j does not change it either).
# 3. Bad options of the search space exit 2 with one error line, before any simulation.
source "$(dirname "$0")/lib.bash"

search=(plan --model llama3.1-8b --tokens 1e9 --systems trn2.48xlarge,trn1.32xlarge --max-chips 32
        --global-batch 32 --set model.num_layers=2 --tp 8 --pp 1,2 --max-fsdp 2 --microbatch-sequences 1
        --checkpointing none,full)

expect_ok "exhaustive search" -- "${search[@]}" --exhaustive --db "$WORK/exh.sqlite" --json "$WORK/exh.json" -j 2
expect_ok "pruned search" -- "${search[@]}" --db "$WORK/pruned.sqlite" --json "$WORK/pruned.json" -j 2
cp "$OUT" "$WORK/pruned.txt"
expect_ok "pruned search again, same --db, -j 1" -- "${search[@]}" --db "$WORK/pruned.sqlite" --json "$WORK/rerun.json" -j 1
cp "$OUT" "$WORK/rerun.txt"

check "same winner, same figures; bounds at most the simulated step; pruning happened" \
  python3 - "$WORK/exh.json" "$WORK/pruned.json" <<'PY'
import json, sys
exh, pruned = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["system", "chips", "layout", "global_batch", "step_time_s", "step_bounds_s", "time_to_train_s", "cost_usd",
        "goodput", "memory", "startup_s"]
w1, w2 = ({k: d["candidates"][0][k] for k in keys} for d in (exh, pruned))
assert w1 == w2, f"winners differ:\n exhaustive {w1}\n pruned     {w2}"
for d, name in ((exh, "exhaustive"), (pruned, "pruned")):
    for c in d["candidates"]:
        b = c["step_bounds_s"]
        assert b["schedule"] is not None, (name, c["layout"]["text"], "no schedule bound")
        assert b["flops"] <= c["step_time_s"] and b["schedule"] <= c["step_time_s"], (name, c["system"], c["layout"]["text"], b, c["step_time_s"])
se, sp = exh["search"], pruned["search"]
assert se["evaluated"] == se["simulated_now"] == len(exh["candidates"]), se
assert se["pruned_bound"] == 0 and se["pruned_checkpointing"] == 0, se
assert sp["pruned_bound"] > 0 and sp["pruned_checkpointing"] > 0, sp
assert sp["simulated_now"] < se["simulated_now"], (sp, se)
print(f"winner {w1['system']} x{w1['chips']} {w1['layout']['text']}: step {w1['step_time_s']:.4f} s; "
      f"exhaustive simulated {se['simulated_now']}, pruned {sp['simulated_now']} ({sp['pruned_bound']} by the bound)")
PY

check "the rerun simulated nothing and reused every point" \
  python3 - "$WORK/pruned.json" "$WORK/rerun.json" <<'PY'
import json, sys
first, again = (json.load(open(p)) for p in sys.argv[1:3])
s1, s2 = first["search"], again["search"]
assert s1["simulated_now"] == s1["evaluated"] > 0 and s1["reused"] == 0, s1
assert s2["simulated_now"] == 0 and s2["reused"] == s1["evaluated"], s2
for d in (first, again):
    del d["search"]["simulated_now"], d["search"]["reused"]
assert json.dumps(first) == json.dumps(again), "the rerun (-j 1, reused) wrote a different plan"
PY
check "the text says how many were simulated and reused" \
  grep -qE "^  evaluated +[0-9]+ points \(0 simulated now, [0-9]+ reused from the database\)$" "$WORK/rerun.txt"
check "the text counts the schedule bounds" grep -qE "^  bounds +[0-9]+ schedule bounds computed$" "$WORK/pruned.txt"

# 144 chips (576 ranks): the data-parallel degree keeps the factor 9 that powers-of-two TP, PP
# and FSDP leave, so no layout divides 1,024 sequences; the plan says so and names a batch that fits.
expect_ok "a system size with no layout" -- plan --model llama3.1-70b --tokens 1e12 --systems trn3-gen2-ultraserver \
  --price trn3-gen2-ultraserver=300 --max-chips 144 --batch-tolerance 0 --json "$WORK/nolayout.json"
check "the text names the system size without a layout and the next batch with one" grep -qE \
  "^  no layout +trn3-gen2-ultraserver x1 \(144 chips, 576 ranks\) at 1024 sequences per step: .*--global-batch 1026\)$" "$OUT"
check "the JSON lists it" python3 -c "
import json
z = json.load(open('$WORK/nolayout.json'))['search']['no_layouts']
assert z == [{'system': 'trn3-gen2-ultraserver', 'instances': 1, 'chips': 144, 'ranks': 576, 'global_batch': 1024,
              'next_global_batch': 1026}], z
"

# --batch-tolerance: 3 instances (192 ranks, 48 replicas with TP 4) have no layout at 50
# sequences per step; 48 is the nearest batch with one, within 10 %: used, and said, and the
# steps follow it (ceil(1e9 / (48 x 4096)) = 5087). With 0 the old "no layout" line.
tol=(plan --model llama3.1-8b --tokens 1e9 --systems trn2.48xlarge --counts all --min-chips 48 --max-chips 48
     --global-batch 50 --set model.num_layers=2 --tp 4 --pp 1 --max-fsdp 1 --microbatch-sequences 1
     --checkpointing none --no-intervals)
expect_ok "batch tolerance" -- "${tol[@]}" --batch-tolerance 10% --json "$WORK/tol.json"
check "the text says which batch was used" grep -qE \
  "^  batch +trn2.48xlarge x3: 48 sequences per step instead of 50, the nearest with a layout \(--batch-tolerance 10%\)$" "$OUT"
check "the winner line says it too" grep -qE "^  winner: .*, 48 sequences x 4096 tokens per step \(50 asked for" "$OUT"
check "the JSON says it" python3 -c "
import json
d = json.load(open('$WORK/tol.json'))
assert d['search']['batches_used'] == [{'system': 'trn2.48xlarge', 'instances': 3, 'chips': 48, 'global_batch_asked': 50,
                                        'global_batch_used': 48}], d['search']
c = d['candidates'][0]
assert (c['global_batch'], c['global_batch_asked'], c['steps']) == (48, 50, 5087), c
"
expect_ok "batch tolerance 0" -- "${tol[@]}" --batch-tolerance 0
check "no tolerance: no layout, and the next batch with one" grep -qE \
  "^  no layout +trn2.48xlarge x3 \(48 chips, 192 ranks\) at 50 sequences per step: .*--global-batch 96\)$" "$OUT"

small=(plan --model llama3.1-8b --tokens 1e9 --systems trn2.48xlarge --max-chips 16)
expect_error "--batch-tolerance 200%" "--batch-tolerance" "expected a percentage from 0 to 100" -- "${small[@]}" --batch-tolerance 200%
expect_error "--counts some" "--counts" "expected all or pow2, got 'some'" -- "${small[@]}" --counts some
expect_error "--tp 0" "--tp" "expected a number >= 1" -- "${small[@]}" --tp 0
expect_error "--pp two" "--pp" "expected a number >= 1, got 'two'" -- "${small[@]}" --pp two
expect_error "--checkpointing some" "--checkpointing" "expected none, selective, selective_mlp or full" -- "${small[@]}" --checkpointing some
expect_error "--max-fsdp 0" "--max-fsdp" "expected 1 to 65536" -- "${small[@]}" --max-fsdp 0
expect_error "--db in a missing directory" "--db $WORK/missing/p.db" "cannot open" -- "${small[@]}" --db "$WORK/missing/p.db"
echo "not a database" >"$WORK/junk.db"
expect_error "--db that is not a database" "--db $WORK/junk.db" "cannot use as a sweep database" \
  -- "${small[@]}" --db "$WORK/junk.db"
expect_error "--microbatch-sequences 1.5" "--microbatch-sequences" "expected whole numbers" -- "${small[@]}" --microbatch-sequences 1.5
finish
