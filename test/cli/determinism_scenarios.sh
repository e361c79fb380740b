#!/usr/bin/env bash
# Determinism of whole scenarios: every shipped scenario, run twice, gives byte-identical
# stdout, JSON (once the wall-clock field sim.wall_s is removed) and Perfetto trace; the same
# for `startup` (stdout, JSON and host trace) on the default scenario. Long scenarios are
# cut to 4 layers and a 16,384-token vocabulary (--set model.num_layers=4 --set
# model.vocab_size=16384) to keep the test short: the code paths are the same at any depth and
# vocabulary size (the full vocabulary's embedding collectives were 35 of the 40 s of the Trn3
# Gen2 scenario's 4-layer run).
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
strip() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d.get('sim', {}).pop('wall_s', None); print(json.dumps(d, sort_keys=True))" "$1"; }
twice() {  # NAME ARGS...
  local name=$1; shift
  local i
  for i in 1 2; do
    "$trnsim" "$@" --json "$tmp/$i.json" --trace "$tmp/$i.trace.json" > "$tmp/$i.out" 2> /dev/null \
      || { echo "FAIL - $name: trnsim $* exited with $?"; fails=$((fails + 1)); return; }
  done
  if ! cmp -s "$tmp/1.out" "$tmp/2.out"; then echo "FAIL - $name: stdout differs"; fails=$((fails + 1))
  elif [ "$(strip "$tmp/1.json")" != "$(strip "$tmp/2.json")" ]; then echo "FAIL - $name: JSON differs"; fails=$((fails + 1))
  elif ! cmp -s "$tmp/1.trace.json" "$tmp/2.trace.json"; then echo "FAIL - $name: trace differs"; fails=$((fails + 1))
  else echo "ok - $name: stdout, JSON and trace ($(stat -c %s "$tmp/1.trace.json") bytes) identical"
  fi
}
for f in "$src"/workloads/scenarios/*.yaml; do
  s=$(basename "$f" .yaml)
  case $s in
    qwen3-32b-trn2|bert-large-trn1) twice "run $s" run "$s" --allow-oom ;;
    *) twice "run $s (4 layers, 16,384-token vocabulary)" run "$s" --allow-oom --no-intervals --set model.num_layers=4 \
         --set model.vocab_size=16384 ;;
  esac
done
twice "startup qwen3-32b-trn2" startup qwen3-32b-trn2
exit $fails
