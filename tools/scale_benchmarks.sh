#!/usr/bin/env bash
# Scale benchmarks (issue 10): wall time, peak RSS, events and events/s of large steps and
# collectives with the default reductions (docs/workloads.md 1.6), and fitted growth exponents
# in chips and in micro-batches. Records them in bench/results/scale.json, from which
# tools/make_performance_doc.py writes the Scale section of docs/performance.md.
# Usage: tools/scale_benchmarks.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
S=$root/workloads/scenarios/scale
: > "$out/rows.tsv"
row() {  # LABEL GROUP X ARGS... (GROUP/X feed the exponent fits)
  local label=$1 group=$2 x=$3
  shift 3
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$build/trnsim" "$@" --json "$out/r.json" > "$out/stdout" 2> "$out/err" || {
    echo "failed: $*" >&2; cat "$out/err" >&2; return 1; }
  read -r wall rss < "$out/time.txt"
  python3 - "$out/r.json" "$label" "$group" "$x" "$wall" "$rss" "$*" >> "$out/rows.tsv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
label, group, x, wall, rss, cmd = sys.argv[2:8]
if 'rows' in d:  # bench collective: one row per size
    ev = ''
    result = '%.2f ms' % (1e3 * d['rows'][-1]['time_s'])
else:
    ev = d['sim']['events']
    result = '%.4f s step' % d['steady']['step_time_s']
print('\t'.join(map(str, [label, group, x, wall, int(rss) / 1024, ev, result, cmd])))
PY
  echo "$label: $wall s" >&2
}
# The issue's rows (512 trn1 chips) and Qwen3-32B on one trn2.48xlarge.
row "GPT3-175B, 512 trn1 chips, TP32+SP PP8 DP4, 256 micro-batches" mb 256 run "$S/gpt3-175b-trn1-512.yaml"
row "Llama-3.1-70B, 512 trn1 chips, TP32+SP PP8 DP4, 256 micro-batches" - - run "$S/llama3.1-70b-trn1-512.yaml"
row "Llama-3.1-8B, 512 trn1 chips, TP32+SP DP32, 32 micro-batches" - - run "$S/llama3.1-8b-trn1-512.yaml"
row "Qwen3-32B, 16 trn2 chips (qwen3-32b-trn2)" chips 16 run qwen3-32b-trn2
# Large models at 1,024 and 4,096 chips: trn1 clusters (DP grows) and trn2 UltraServers.
for chips in 1024 4096; do
  dp=$((chips * 2 / 256)); inst=$((chips / 16))
  row "Llama-3.1-70B, $chips trn1 chips, TP32+SP PP8 DP$dp" - - run "$S/llama3.1-70b-trn1-512.yaml" \
    --set system.instances=$inst --set parallel.dp=$dp --set batch.global_batch=$((dp * 256))
  row "GPT3-175B, $chips trn1 chips, TP32+SP PP8 DP$dp" - - run "$S/gpt3-175b-trn1-512.yaml" \
    --set system.instances=$inst --set parallel.dp=$dp --set batch.global_batch=$((dp * 256))
  us=$((chips / 64))
  for m in "llama3.1-70b 4096" "gpt3-175b 2048"; do
    read -r model seq <<< "$m"
    row "$model, $chips trn2 chips ($us UltraServers), TP4 FSDP64 DP$us, full checkpointing" - - run "$S/gpt3-175b-trn1-512.yaml" \
      --set system=trn2-ultraserver --set system.instances=$us --set model=$model --set lnc=2 --set parallel.tp=4 \
      --set parallel.fsdp=64 --set parallel.pp=1 --set parallel.dp=$us --set parallel.zero=0 \
      --set parallel.sequence_parallel=false --set parallel.microbatches=1 --set batch.global_batch=$((us * 64)) \
      --set batch.seq_len=$seq --set checkpointing=full
  done
done
# Qwen3-32B from 16 to 65,536 chips (16 sequences per 16 chips; TP4 x FSDP16 per instance).
for row_ in "64 1" "256 4" "1024 16" "4096 64" "16384 256" "65536 1024"; do
  read -r chips us <<< "$row_"
  row "Qwen3-32B, $chips trn2 chips ($us UltraServers)" chips $chips run qwen3-32b-trn2 --set system=trn2-ultraserver \
    --set system.instances=$us --set parallel.dp=$((chips / 16)) --set batch.global_batch=$chips
done
# Trn3 Gen2 (switched; the local symmetry folds the ranks of a chip): one UltraServer, and the
# Llama-3.1-70B job of issue 31 on four (TP4 x FSDP16 x DP36, 1,152 sequences).
row "Qwen3-32B, 144 Trn3 Gen2 chips (qwen3-32b-trn3-gen2)" - - run qwen3-32b-trn3-gen2
row "Llama-3.1-70B, 576 Trn3 Gen2 chips (4 UltraServers), TP4 FSDP16 DP36" - - run llama3.1-70b-trn2-ultraserver \
  --set system=trn3-gen2-ultraserver --set system.instances=4 --set parallel.dp=36 --set batch.global_batch=1152
# Micro-batches: GPT3-175B on 512 trn1 chips with 64 to 1,024 micro-batches.
for m in 64 128 512 1024; do
  row "GPT3-175B, 512 trn1 chips, $m micro-batches" mb $m run "$S/gpt3-175b-trn1-512.yaml" \
    --set parallel.microbatches=$m --set batch.global_batch=$((4 * m))
done
# A lone 1 GiB all-reduce on 1,024 and 4,096 ranks (4 and 16 trn2 UltraServers, LNC 2).
row "1 GiB all-reduce, 1,024 ranks (4 trn2 UltraServers)" - - bench collective --system trn2-ultraserver --instances 4 --sizes 1GiB
row "1 GiB all-reduce, 4,096 ranks (16 trn2 UltraServers)" - - bench collective --system trn2-ultraserver --instances 16 --sizes 1GiB
python3 - "$out/rows.tsv" "$root/bench/results/scale.json" <<'PY'
import json, os, platform, sys
rows = []
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    label, group, x, wall, rss, ev, result, cmd = line.rstrip('\n').split('\t')
    r = {"label": label, "wall_s": float(wall), "rss_mib": float(rss)}
    if ev:
        r["events"] = int(ev)
    r["result"] = result
    if group != '-':
        r["group"], r["x"] = group, int(x)
    rows.append(r)
with open(sys.argv[2], "w") as f:
    json.dump({"machine": {"machine": platform.machine(), "cpus": os.cpu_count()}, "rows": rows}, f, indent=1)
    f.write("\n")
PY
echo "recorded bench/results/scale.json"
