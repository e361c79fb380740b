#!/usr/bin/env bash
# Determinism: the same command run twice gives byte-identical stdout and JSON (stderr
# carries wall-clock time and is not compared).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK

twice() {  # DESC ARGS... (each run gets its own --json)
  local desc=$1
  shift
  local i
  for i in 1 2; do
    run_trnsim "$@" --json "$D/run$i.json"
    if [ "$RC" -ne 0 ]; then
      fail "$desc" "trnsim $* exited with $RC" "stderr: $(head -c 400 "$ERR")"
      return
    fi
    cp "$OUT" "$D/run$i.out"
  done
  if ! cmp -s "$D/run1.out" "$D/run2.out"; then
    fail "$desc" "stdout differs between two runs of: trnsim $*"
  elif ! cmp -s "$D/run1.json" "$D/run2.json"; then
    fail "$desc" "JSON differs between two runs of: trnsim $*"
  elif [ ! -s "$D/run1.out" ]; then
    fail "$desc" "no stdout from: trnsim $*"
  else
    pass "$desc"
  fi
}

twice "collective all-reduce, trn2.48xlarge, auto algorithm" bench collective --ranks 16 --sizes 1KiB,1MiB,64MiB
twice "collective all-gather, ring, LNC=1" bench collective --op all-gather --algorithm ring --lnc 1 --ranks 32 --sizes 4MiB
twice "collective reduce-scatter, two instances over EFA" bench collective --system trn3-gen2-ultraserver --instances 2 \
  --ranks 64 --op reduce-scatter --sizes 1KiB,1MiB
twice "collective all-to-all, trn1" bench collective --system trn1.32xlarge --op all-to-all --ranks 8 --sizes 256KiB
twice "matmul bf16" bench matmul --m 2048 --n 2048 --k 2048
twice "matmul fp8 on trn3" bench matmul --chip trn3 --dtype fp8 --m 1024 --n 1024 --k 4096
twice "hbm, 8 cores" bench hbm --cores 8 --bytes 256MiB

finish
