#!/usr/bin/env bash
# The representative-rank reduction (docs/workloads.md, section 1.6) against the full
# simulation on 64 chips: `run` simulates tp x pp ranks, `run --all-ranks` all 256, and the
# step times must agree. Two 64-chip systems: the trn2 UltraServer (DP over the torus Z
# links) and 4 x trn2.48xlarge (DP over EFA). Qwen3-32B cut to 2 layers keeps the full
# simulation to seconds; every layer has the same op sequence, so the reduction's error per
# layer does not depend on the depth.
#
# Tolerance 0.2% of the step. The full simulation also runs the collectives of groups
# without a simulated rank and the DMA traffic of the unsimulated ranks; in these cases that
# traffic shares only the DMA engines of the collectives' members with the simulated flows
# (the DP rings of other FSDP indices use disjoint torus columns or their own EFA NICs),
# and the measured difference is 0.05-0.07% (docs/workloads.md).
set -euo pipefail
trnsim=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d' + sys.argv[2]))" "$1" "$2"; }
compare() {
  local name=$1; shift
  "$trnsim" run qwen3-32b-trn2 --set model.num_layers=2 --set parallel.dp=4 --set batch.global_batch=64 "$@" \
    --json "$tmp/$name-rep.json" > /dev/null
  "$trnsim" run qwen3-32b-trn2 --set model.num_layers=2 --set parallel.dp=4 --set batch.global_batch=64 "$@" \
    --all-ranks --json "$tmp/$name-all.json" > /dev/null
  local rep all nrep nall
  rep=$(field "$tmp/$name-rep.json" "['steady']['step_time_s']")
  all=$(field "$tmp/$name-all.json" "['steady']['step_time_s']")
  nrep=$(field "$tmp/$name-rep.json" "['sim']['simulated_ranks']")
  nall=$(field "$tmp/$name-all.json" "['sim']['simulated_ranks']")
  if python3 -c "import sys; r, a = map(float, sys.argv[1:3]); print('%+.3f%%' % (100 * (r - a) / a)); sys.exit(0 if abs(r - a) <= 2e-3 * a else 1)" "$rep" "$all" > "$tmp/diff"; then
    echo "ok - $name: $nrep simulated ranks ${rep} s, $nall simulated ranks ${all} s, difference $(cat "$tmp/diff")"
  else
    echo "FAIL - $name: $nrep simulated ranks ${rep} s, $nall simulated ranks ${all} s, difference $(cat "$tmp/diff") (over 0.2%)"
    fails=$((fails + 1))
  fi
  if [ "$nrep" != 4 ] || [ "$nall" != 256 ]; then
    echo "FAIL - $name: expected 4 and 256 simulated ranks, got $nrep and $nall"
    fails=$((fails + 1))
  fi
}
compare ultraserver --set system=trn2-ultraserver
compare efa-4x16 --set system.instances=4
exit $fails
