#!/usr/bin/env bash
# `bench collective` on a torus folds the ranks of an instance by the rotations of its ring that
# are automorphisms of the torus (local_collective_symmetry; docs/workloads.md 1.6.1): on a trn2
# UltraServer a quarter turn of the snake, so one rank in four is simulated. Each case is run
# against --exact: the same times (to 1e-9), fewer flows than transfers with the symmetry and as
# many with --exact. Recursive halving-doubling keeps only the half turn (a shift by two layers).
# With a size whose plan the rotations do not map (the mesh of a 1 KiB all-reduce, whose routes
# between distant chips break their ties differently), nothing is folded.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
# flows and transfers from the stderr line "...; F flows for T transfers"
counts() { sed -n 's/.*; \([0-9]*\) flows for \([0-9]*\) transfers$/\1 \2/p' "$ERR"; }
case_of() {
  local what=$1 fold=$2
  shift 2
  run_trnsim bench collective "$@" --json "$D/sym.json"
  [ "$RC" -eq 0 ] || { fail "$what" "exited $RC: $(head -c 300 "$ERR")"; return; }
  read -r f t <<<"$(counts)"
  run_trnsim bench collective "$@" --exact --json "$D/exact.json"
  [ "$RC" -eq 0 ] || { fail "$what, --exact" "exited $RC: $(head -c 300 "$ERR")"; return; }
  read -r fe te <<<"$(counts)"
  local same
  same=$(python3 - "$D/sym.json" "$D/exact.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["rows"] for p in sys.argv[1:3])
print(" ".join("%.6f/%.6f" % (x["time_s"] * 1e6, y["time_s"] * 1e6) for x, y in zip(a, b))
      if len(a) == len(b) and all(abs(x["time_s"] / y["time_s"] - 1) <= 1e-9 for x, y in zip(a, b)) else "")
PY
)
  if [ -z "$same" ]; then
    fail "$what: times differ from --exact" "$(cat "$D/sym.json" | head -c 400)"
  elif [ "$fe" != "$te" ]; then
    fail "$what: --exact ran $fe flows for $te transfers"
  elif [ "$fold" = yes ] && ! [ "$f" -lt "$t" ]; then
    fail "$what: $f flows for $t transfers, expected fewer flows"
  elif [ "$fold" = no ] && [ "$f" != "$t" ]; then
    fail "$what: $f flows for $t transfers, expected as many"
  else
    pass "$what: $f flows for $t transfers (--exact $fe), times (us, folded/exact) $same"
  fi
}
US="--system trn2-ultraserver"
case_of "all-reduce on a trn2 UltraServer, kangaring" yes $US --sizes 64MiB,256MiB
case_of "all-gather on a trn2 UltraServer" yes $US --op all-gather --sizes 64MiB
case_of "reduce-scatter on a trn2 UltraServer" yes $US --op reduce-scatter --sizes 64MiB
case_of "all-reduce on 2 trn2 UltraServers, 4 pipelined pieces" yes $US --instances 2 --sizes 512MiB
case_of "1 GiB all-reduce on 4 trn2 UltraServers (issue 31's 1,024 ranks)" yes $US --instances 4 --sizes 1GiB
case_of "all-reduce on a trn2.48xlarge (4 x 4 torus), all 64 ranks" yes --system trn2.48xlarge --sizes 64MiB
case_of "all-reduce on a trn1.32xlarge, ring" yes --system trn1.32xlarge --sizes 64MiB
case_of "recursive halving-doubling on a trn2 UltraServer (the half turn only)" yes $US --algorithm rdh --sizes 4MiB
case_of "LNC 1 on a trn2 UltraServer (512 ranks)" yes $US --lnc 1 --sizes 64MiB
case_of "LNC 1 on a trn2 UltraServer, all-gather" yes $US --lnc 1 --op all-gather --sizes 96MiB
case_of "with a 1 KiB all-reduce (mesh) among the sizes: nothing folded" no $US --sizes 1KiB,64MiB
case_of "16 of 64 ranks (no whole instance): nothing folded" no --system trn2.48xlarge --ranks 16 --sizes 64MiB
finish
