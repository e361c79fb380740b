#!/usr/bin/env bash
# The reductions of `trnsim run` (docs/workloads.md 1.6-1.7) against the exact simulation
# (`--exact`: every rank, every micro-batch) on cut-down versions of the scale rows:
#   - symmetry: one simulated rank per stage, the sibling groups' collectives on the fabric,
#     and the instance-symmetry quotient (flows and plans of one representative instance) with,
#     on switched fabrics, its local part (the ranks of a chip); on switched fabrics over several
#     instances, one simulated rank per orbit of that symmetry;
#   - steady state: micro-batches, or without them the layers, extrapolated from three shorter runs.
# Each case: step time within 0.5 % and identical op counts per engine on rank 0 (the simulated
# ranks are printed). The runs pass --no-intervals: the interval's re-simulations are the same
# simulation at other parameters (test/cli/intervals.sh checks them), and cost several runs each. Then: determinism with the reductions on, the --max-memory guard (exit 2, no output
# file), and no progress line unless stderr is a terminal.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK

compare() {  # DESC ARGS...
  local desc=$1
  shift
  run_trnsim run "$@" --no-intervals --json "$D/red.json" ${RED_STATS:+--stats "$RED_STATS"}
  [ "$RC" -eq 0 ] || { fail "$desc" "reduced run exited $RC: $(head -c 300 "$ERR")"; return; }
  run_trnsim run "$@" --no-intervals ${RED_REFERENCE:---exact} --json "$D/exact.json"
  [ "$RC" -eq 0 ] || { fail "$desc" "exact run exited $RC: $(head -c 300 "$ERR")"; return; }
  local verdict
  verdict=$(python3 - "$D/red.json" "$D/exact.json" "${RED_LAYERS:-}" <<'PY'
import json, sys
r, e = (json.load(open(p)) for p in sys.argv[1:3])
tr, te = r['steady']['step_time_s'], e['steady']['step_time_s']
err = (tr - te) / te
msgs = []
if abs(err) > 5e-3: msgs.append('step time %.6f s vs exact %.6f s (%+.3f%%, over 0.5%%)' % (tr, te, 100 * err))
if r['steady']['engine_ops'] != e['steady']['engine_ops']:
    msgs.append('op counts per engine differ: %s vs %s' % (r['steady']['engine_ops'], e['steady']['engine_ops']))
red = r['sim']['reductions']
want = sys.argv[3]
if want and str(red['layers_simulated']) != want:
    msgs.append('layers simulated %s, expected %s' % (red['layers_simulated'], want))
print('FAIL ' + '; '.join(msgs) if msgs else
      'ok %d vs %d simulated ranks, micro-batches %s, layers %s, %.6f s vs %.6f s (%+.3f%%)' %
      (r['sim']['simulated_ranks'], e['sim']['simulated_ranks'], red['microbatches_simulated'],
       red['layers_simulated'], tr, te, 100 * err))
PY
)
  case $verdict in
    ok*) pass "$desc: ${verdict#ok }" ;;
    *) fail "$desc" "${verdict#FAIL }" ;;
  esac
}

# trn1 cluster: GPT3-175B shapes, 4 layers, TP 32 (+SP) x PP 2 x DP 2 (ZeRO-1) on 4 x trn1.32xlarge;
# 64 micro-batches (steady state: 8, 16, 24 simulated).
GPT="$SRC/workloads/scenarios/scale/gpt3-175b-trn1-512.yaml --set system.instances=4 --set model.num_layers=4 --set parallel.pp=2 --set parallel.dp=2"
compare "trn1 cluster, TP32 PP2 DP2, 64 micro-batches" $GPT --set parallel.microbatches=64 --set batch.global_batch=128
# The same with PP 4 and TP 8: 8 instances, DP 4 across them.
compare "trn1 cluster, TP8 PP4 DP4, 16 micro-batches" $GPT --set parallel.tp=8 --set parallel.pp=4 --set parallel.dp=4 \
  --set system.instances=4 --set parallel.microbatches=16 --set batch.global_batch=64
# Eager mode with pipeline parallelism (sends are asynchronous, receives block; docs/model.md 4):
# the cut-down case above, and the shipped llama2-70b-trn1-pp scenario whole (issue 27).
compare "eager, trn1 cluster, TP8 PP4 DP4, 16 micro-batches" $GPT --set parallel.tp=8 --set parallel.pp=4 \
  --set parallel.dp=4 --set system.instances=4 --set parallel.microbatches=16 --set batch.global_batch=64 --mode eager
compare "eager, llama2-70b-trn1-pp (TP8 PP4 FSDP4, 8 micro-batches)" llama2-70b-trn1-pp --mode eager
# Llama-3.1-8B shapes with gradient accumulation and no PP: TP 32 x DP 4 on 4 instances.
compare "trn1 cluster, Llama-3.1-8B TP32 DP4, 8 micro-batches" "$SRC/workloads/scenarios/scale/llama3.1-8b-trn1-512.yaml" \
  --set system.instances=4 --set model.num_layers=2 --set parallel.dp=4 --set parallel.microbatches=8 \
  --set batch.global_batch=32 --set batch.seq_len=2048
# trn2 UltraServer (one instance: DP over the torus, sibling groups simulated in full) and
# 4 x trn2.48xlarge over EFA (instance symmetry).
Q="qwen3-32b-trn2 --set model.num_layers=2 --set parallel.dp=4 --set batch.global_batch=64"
compare "trn2 UltraServer, TP4 FSDP16 DP4" $Q --set system=trn2-ultraserver
compare "4 x trn2.48xlarge, TP4 FSDP16 DP4" $Q --set system.instances=4
compare "4 x trn2.48xlarge, TP4 FSDP4 DP16 (4 replicas per instance)" qwen3-32b-trn2 --set model.num_layers=2 \
  --set system.instances=4 --set parallel.fsdp=4 --set parallel.dp=16 --set batch.global_batch=64
compare "trn2 UltraServer, TP4 PP2 FSDP8 DP4, 40 micro-batches" qwen3-32b-trn2 --set system=trn2-ultraserver \
  --set model.num_layers=2 --set parallel.pp=2 --set parallel.fsdp=8 --set parallel.dp=4 --set parallel.microbatches=40 \
  --set batch.global_batch=1280
# The layers' steady state (docs/workloads.md 1.6.5): 50 layers in one micro-batch are
# extrapolated from 8, 16 and 24, against every rank and every layer.
RED_LAYERS="[8, 16, 24]" compare "4 x trn2.48xlarge, Qwen3-32B 50 layers, TP4 FSDP16 DP4 (layers' steady state)" \
  qwen3-32b-trn2 --set model.num_layers=50 --set system.instances=4 --set parallel.dp=4 --set batch.global_batch=64
# When the layers are extrapolated: above 48 layers (3w + 3k), with one pipeline stage and one
# micro-batch, without a trace, without --all-layers.
layers_of() {  # EXPECTED DESC ARGS...
  local want=$1 desc=$2
  shift 2
  run_trnsim run qwen3-32b-trn2 "$@" --no-intervals --json "$D/lay.json"
  check "$desc: layers simulated $want" python3 -c \
    "import json,sys; sys.exit(str(json.load(open(sys.argv[1]))['sim']['reductions']['layers_simulated']) != sys.argv[2])" \
    "$D/lay.json" "$want"
}
layers_of "[48]" "48 layers" --set model.num_layers=48
layers_of "[8, 16, 24]" "50 layers" --set model.num_layers=50
layers_of "[50]" "50 layers, --all-layers" --set model.num_layers=50 --all-layers
layers_of "[50]" "50 layers with a trace" --set model.num_layers=50 --trace "$D/lay.trace.json"
layers_of "[50]" "50 layers in 2 micro-batches" --set model.num_layers=50 --set parallel.microbatches=2 \
  --set batch.global_batch=32
layers_of "[50]" "50 layers in 2 pipeline stages" --set model.num_layers=50 --set parallel.pp=2 --set parallel.fsdp=8 \
  --set parallel.microbatches=2 --set batch.global_batch=32
# Issue 31's Llama-3.1-70B Gen2 job on one UltraServer at 50 layers, against every layer (the
# ranks reduced in both runs; the case below checks them against every rank).
RED_LAYERS="[8, 16, 24]" RED_REFERENCE=--all-layers compare \
  "Trn3 Gen2 UltraServer, Llama-3.1-70B 50 layers, TP4 FSDP16 DP9 (layers' steady state against every layer)" \
  llama3.1-70b-trn2-ultraserver --set system=trn3-gen2-ultraserver --set parallel.dp=9 --set batch.global_batch=288 \
  --set model.num_layers=50
# Trn3 Gen1 UltraServer and two of them over EFA.
RED_STATS=$D/replay.stats compare "Trn3 Gen1 UltraServer, TP4 FSDP16 DP4" qwen3-32b-trn3-gen1 --set model.num_layers=2
# Collectives alone on their resources are replayed (CollectiveEngine::replay_isolated), and
# here one replay meets a later run and is turned into flows: the case above checks both.
check "the Gen1 cut replays collectives" awk '$1 ~ /collectives.replayed$/ && $2 > 0 {ok = 1} END {exit !ok}' \
  "$D/replay.stats"
compare "2 x Trn3 Gen1 UltraServer, TP4 FSDP32 DP4" qwen3-32b-trn3-gen1 --set model.num_layers=2 \
  --set system.instances=2 --set parallel.fsdp=32 --set batch.global_batch=128
# A replica that spans two instances (TP 4 x FSDP 128 on Gen1 UltraServers of 256 ranks; so do
# `trnsim plan`'s 1,024-chip Llama-3.1-70B points, TP 8 x FSDP 64): the instance symmetry also
# shifts the replica's instances onto each other, and one instance is the representative.
compare "4 x Trn3 Gen1 UltraServer, TP4 FSDP128 DP2 (a replica spans two instances)" qwen3-32b-trn3-gen1 \
  --set model.num_layers=2 --set system.instances=4 --set parallel.fsdp=128 --set parallel.dp=2 \
  --set batch.global_batch=256
# With pipeline stages on a switched fabric: the local symmetry keeps every rank in its stage
# (TP 16 spans 4 chips; PP 4 puts a stage on 16 chips).
compare "Trn3 Gen1 UltraServer, TP16 PP4 FSDP4, 8 micro-batches (local symmetry per stage)" qwen3-32b-trn3-gen1 \
  --set model.num_layers=4 --set parallel.tp=16 --set parallel.pp=4 --set parallel.fsdp=4 --set parallel.dp=1 \
  --set parallel.microbatches=8 --set batch.global_batch=32
# Trn3 Gen2 UltraServer (switched): the local symmetry exchanges the 4 ranks of every chip.
# Issue 31's Llama-3.1-70B Gen2 job cut to 2 layers and one UltraServer (TP4 FSDP16 DP9, the
# layout of the shipped qwen3-32b-trn3-gen2): most sibling collectives are apart from the
# simulated rank's traffic and left out (ADR 0005); its --stats show how many.
RED_STATS=$D/apart.stats compare "Trn3 Gen2 UltraServer, Llama-3.1-70B TP4 FSDP16 DP9 (local symmetry, siblings apart left out)" \
  llama3.1-70b-trn2-ultraserver --set system=trn3-gen2-ultraserver --set parallel.dp=9 --set batch.global_batch=288 \
  --set model.num_layers=2
check "the 70B Gen2 cut leaves sibling collectives apart out (so the case above checks them)" \
  awk '$1 ~ /collectives.siblings_apart$/ && $2 > 0 {ok = 1} END {exit !ok}' "$D/apart.stats"
# Two Trn3 Gen2 UltraServers, DP over EFA: the ranks of a stage are not alike (ranks on chips 6
# and 7 of every 8 finish last), so one rank per orbit of the symmetry is simulated (docs/workloads.md
# 1.6.1, "Orbits on switched fabrics"; one rank per stage was -0.8 % off here).
run_trnsim run qwen3-32b-trn3-gen2 --set model.num_layers=1 --set model.vocab_size=16384 --set system.instances=2 \
  --set parallel.dp=18 --set batch.global_batch=576 --no-intervals --json "$D/orbits.json"
check "2 x Trn3 Gen2: one simulated rank per orbit" \
  python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['sim']['reductions']['ranks'] != 'one per orbit')" "$D/orbits.json"
# The local symmetry exchanges the 4 ranks of each chip: 576 / 4 = 144 orbits. It is checked on
# the quotient plans of the representative instance's groups only (local_job_symmetry); a group
# larger or smaller than the chip's would change this count.
check "2 x Trn3 Gen2: the local symmetry folds the 4 ranks of each chip (144 simulated ranks)" \
  python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['sim']['simulated_ranks'] != 144)" "$D/orbits.json"
compare "2 x Trn3 Gen2 UltraServer, TP4 FSDP16 DP18 (one rank per orbit)" qwen3-32b-trn3-gen2 --set model.num_layers=1 \
  --set model.vocab_size=16384 --set system.instances=2 --set parallel.dp=18 --set batch.global_batch=576
# Replicas of 16 chips (TP 16 x FSDP 4): the fifth straddles the two racks, so its collectives
# run between them. Every chip routes to the other rack over its own direct link first
# (docs/model.md 7), and XOR 2 of the chip index maps every route and plan: 288 simulated ranks
# (576 before that routing rule, whose Dijkstra tie-break differed from chip to chip).
run_trnsim run llama3.1-70b-trn2-ultraserver --set system=trn3-gen2-ultraserver --set system.instances=2 \
  --set parallel.tp=16 --set parallel.fsdp=4 --set parallel.dp=18 --set batch.global_batch=72 \
  --set model.num_layers=1 --set model.vocab_size=16384 --no-intervals --json "$D/racks.json"
check "2 x Trn3 Gen2, TP16 FSDP4 DP18: the local symmetry holds across the racks (288 simulated ranks)" \
  python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['sim']['simulated_ranks'] != 288)" "$D/racks.json"
compare "2 x Trn3 Gen2 UltraServer, TP16 FSDP4 DP18 (local symmetry across the racks)" llama3.1-70b-trn2-ultraserver \
  --set system=trn3-gen2-ultraserver --set system.instances=2 --set parallel.tp=16 --set parallel.fsdp=4 \
  --set parallel.dp=18 --set batch.global_batch=72 --set model.num_layers=1 --set model.vocab_size=16384

# A lone collective on whole instances: only instance 0's transfers (instance symmetry) against
# every transfer (--exact); the times must be identical.
for args in "--system trn1.32xlarge --instances 4" "--system trn2-ultraserver --instances 2" \
            "--system trn3-gen2-ultraserver --instances 2"; do
  for op in all-reduce all-gather reduce-scatter all-to-all; do
    # all-to-all on 512 or more ranks is hundreds of thousands of transfers per size: trn1 only
    [ "$op" = all-to-all ] && [ "${args#*trn1}" = "$args" ] && continue
    [ "$op" != all-reduce ] && [ "${args#*trn3}" != "$args" ] && continue
    # shellcheck disable=SC2086
    run_trnsim bench collective $args --op $op --sizes 1KiB,64MiB --json "$D/c-red.json"
    # shellcheck disable=SC2086
    run_trnsim bench collective $args --op $op --sizes 1KiB,64MiB --exact --json "$D/c-exact.json"
    check "bench collective $args --op $op: symmetry gives the exact times" \
      python3 -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:3]); sys.exit(0 if [r['time_s'] for r in a['rows']]==[r['time_s'] for r in b['rows']] else 1)" \
      "$D/c-red.json" "$D/c-exact.json"
  done
done

# Determinism with the reductions on (stdout and JSON less the wall-clock field).
for i in 1 2; do
  run_trnsim run $GPT --set parallel.microbatches=64 --set batch.global_batch=128 --no-intervals --json "$D/det$i.json"
  cp "$OUT" "$D/det$i.out"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['sim'].pop('wall_s'); print(json.dumps(d))" "$D/det$i.json" > "$D/det$i.cmp"
done
check "reduced runs are deterministic (stdout and JSON)" cmp -s "$D/det1.out" "$D/det2.out"
check "reduced runs are deterministic (JSON)" cmp -s "$D/det1.cmp" "$D/det2.cmp"

# The memory guard: estimated before the run; exit 2, one line naming --max-memory, no file.
run_trnsim run $GPT --set parallel.microbatches=64 --set batch.global_batch=128 --exact --max-memory 1MiB --json "$D/guard.json"
if [ "$RC" -eq 2 ] && [ ! -e "$D/guard.json" ] && [ "$(wc -l < "$ERR")" -eq 1 ] && grep -q -- "--max-memory" "$ERR"; then
  pass "--max-memory 1MiB stops the run before it starts (exit 2, no output file)"
else
  fail "--max-memory guard" "exit $RC, stderr: $(head -c 300 "$ERR")"
fi
# With one rank per orbit the simulated ranks are known only in the simulation's process: the
# first check counts one per stage (63 ops held here), the simulation's own check its 144 ranks
# (9,072 ops); the same exit, one line and no file.
run_trnsim run qwen3-32b-trn3-gen2 --set model.num_layers=1 --set model.vocab_size=16384 --set system.instances=2 \
  --set parallel.dp=18 --set batch.global_batch=576 --no-intervals --max-memory 70MiB --json "$D/guard2.json"
if [ "$RC" -eq 2 ] && [ ! -e "$D/guard2.json" ] && [ "$(wc -l < "$ERR")" -eq 1 ] && grep -q "(9072 ops held" "$ERR"; then
  pass "--max-memory counts a per-orbit run's simulated ranks in its own process (exit 2, no output file)"
else
  fail "--max-memory guard, per orbit" "exit $RC, stderr: $(head -c 300 "$ERR")"
fi

# Progress: never when stderr is not a terminal; on a terminal (script(1)) when the run takes
# longer than TRNSIM_PROGRESS_AFTER seconds (0 here), not with --quiet.
TRNSIM_PROGRESS_AFTER=0 "$TRNSIM" run $GPT --set parallel.microbatches=16 --set batch.global_batch=32 > /dev/null 2> "$D/p.err"
check "no progress line when stderr is a file" bash -c "! grep -q ETA '$D/p.err'"
if command -v script > /dev/null; then
  TRNSIM_PROGRESS_AFTER=0 script -qec "'$TRNSIM' run $GPT --set parallel.microbatches=16 --set batch.global_batch=32 > /dev/null" /dev/null > "$D/tty.out" 2>&1
  check "a progress line on a terminal" grep -q ETA "$D/tty.out"
  TRNSIM_PROGRESS_AFTER=0 script -qec "'$TRNSIM' run $GPT --quiet --set parallel.microbatches=16 --set batch.global_batch=32 > /dev/null" /dev/null > "$D/tty2.out" 2>&1
  check "no progress line with --quiet" bash -c "! grep -q ETA '$D/tty2.out'"
else
  skip "the progress line on a terminal: script(1) is not installed"
fi
finish
