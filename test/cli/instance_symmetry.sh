#!/usr/bin/env bash
# The instance symmetry of a job is held in compact form (hw::InstanceSymmetry::image; docs/
# workloads.md 1.6.1), and every run on a system this small checks it against the shifts of the
# data-parallel index on the layout (check_compact in step_simulation.cpp; an internal error
# otherwise). One layout per branch of job_symmetry: replicas per instance, a step widened by
# expert parallelism (each shift moves an instance by 2), a replica spanning 2 instances, and
# pipeline stages in blocks of instances; the widened step is also run against --exact.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
step_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steady"]["step_time_s"])' "$1"; }
check() {
  local what=$1; shift
  run_trnsim run "$@" --set model.num_layers=2 --no-intervals --json "$D/red.json"
  if [ "$RC" -eq 0 ]; then pass "$what"; else fail "$what" "exited $RC: $(head -c 300 "$ERR")"; fi
}
check "4 replicas per instance (4 x trn2.48xlarge, TP4 FSDP4 DP16)" qwen3-32b-trn2 --set system.instances=4 \
  --set parallel.fsdp=4 --set parallel.dp=16 --set batch.global_batch=64
EP="gpt-oss-20b-trn2 --set system.instances=4 --set parallel.fsdp=4 --set parallel.dp=16 --set parallel.ep=32 --set batch.global_batch=64"
check "EP 32 over FSDP 4: shifts of 2 instances" $EP
if [ "$RC" -eq 0 ]; then
  red=$(step_of "$D/red.json")
  run_trnsim run $EP --set model.num_layers=2 --no-intervals --exact --json "$D/exact.json"
  if [ "$RC" -eq 0 ]; then
    exact=$(step_of "$D/exact.json")
    if python3 -c "import sys; sys.exit(abs($red / $exact - 1) > 1e-3)"; then
      pass "EP 32 over FSDP 4: $red s against $exact s exact"
    else
      fail "EP 32 over FSDP 4 against --exact" "$red s against $exact s"
    fi
  else
    fail "EP 32 over FSDP 4, --exact" "exited $RC: $(head -c 300 "$ERR")"
  fi
fi
check "a replica over 2 trn2 UltraServers (TP4 FSDP128 DP2)" qwen3-32b-trn2 --set system=trn2-ultraserver \
  --set system.instances=4 --set parallel.fsdp=128 --set parallel.dp=2 --set batch.global_batch=256
check "2 pipeline stages of 2 instances, EP 16 (TP4 PP2 FSDP4 DP8)" gpt-oss-20b-trn2 --set system.instances=4 \
  --set parallel.pp=2 --set parallel.fsdp=4 --set parallel.dp=8 --set parallel.ep=16 --set parallel.microbatches=2 \
  --set batch.global_batch=64
finish
