#!/usr/bin/env bash
# `make bench`: simulator speed (Google Benchmark, events per second) and the wall time of
# each command, and the scaling with chip count; records them in bench/results/benchmarks.json,
# then tools/scale_benchmarks.sh records bench/results/scale.json, tools/astra_sim_compare.py
# bench/results/astra_sim.json (when ASTRA-sim is built: tools/build_astra_sim.sh), and
# tools/make_performance_doc.py writes docs/performance.md from both (test docs_fresh checks
# the file is that output). Usage: tools/run_benchmarks.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$build/trnsim_bench" --benchmark_format=console --benchmark_out="$out/gbench.json" --benchmark_out_format=json
cmds=(
  "bench collective --system trn2.48xlarge --ranks 16 --sizes 8KiB,1MiB,32MiB,512MiB"
  "bench collective --system trn1.32xlarge --ranks 2 --sizes 1KiB,1MiB,16MiB,1GiB"
  "bench collective --system trn1.32xlarge --instances 2 --ranks 64 --sizes 8B,1MiB,64MiB,1GiB"
  "bench collective --system trn2-ultraserver --ranks 256 --sizes 256MiB"
  "bench collective --system trn3-gen2-ultraserver --ranks 144 --sizes 64MiB --op all-gather"
  "bench matmul --chip trn2 --m 4096 --n 4096 --k 4096 --dtype bf16"
  "bench hbm --chip trn2 --cores 8 --bytes 1GiB"
  "calibrate-collectives"
  "run qwen3-32b-trn2"
  "run qwen3-32b-trn2 --no-intervals"
  "run qwen3-32b-trn2 --mode eager"
  "run llama2-70b-trn1-pp|a 128-rank pipeline step and its interval's re-simulation, 17 s of CPU; test/cli/run_scenarios.sh runs the same step"
  "run qwen3-32b-trn3-gen2|a 144-chip Trn3 Gen2 UltraServer step, about a minute on 2 CPUs"
  "startup qwen3-32b-trn2"
  "startup qwen3-32b-trn2 --no-intervals"
)
# A command's "|WHY" marks it slow in the table, so test/cli/doc_examples.sh runs it only with
# --slow; so is any command that takes 20 s or more.
: > "$out/cli.tsv"
for entry in "${cmds[@]}"; do
  c=${entry%%|*}; why=""; [ "$c" = "$entry" ] || why=${entry#*|}
  TIMEFORMAT=%3R
  # shellcheck disable=SC2086
  t=$( { time "$build/trnsim" $c > /dev/null 2> "$out/err.txt"; } 2>&1 )
  printf '%s\t%s\t%s\n' "$c" "$t" "$why" >> "$out/cli.tsv"
done
# Scaling with chip count: one steady Qwen3-32B step (tp 4 x fsdp 16 per 16 chips, dp grows
# with the chips, 16 sequences of 4096 tokens per 16 chips), from one trn2.48xlarge to 16
# UltraServers over EFA (1,024 chips). Representative ranks (the default), then every rank on
# a 2-layer cut (--all-ranks). Wall time, peak memory (GNU time) and events from the JSON.
scale=(
  "16 1 trn2.48xlarge 1" "32 2 trn2.48xlarge 2" "64 1 trn2-ultraserver 4" "128 2 trn2-ultraserver 8"
  "256 4 trn2-ultraserver 16" "512 8 trn2-ultraserver 32" "1024 16 trn2-ultraserver 64"
)
: > "$out/scale.tsv"
for row in "${scale[@]}"; do
  read -r chips inst sys dp <<< "$row"
  for mode in reduced full; do
    extra=()
    if [ "$mode" = full ]; then
      [ "$chips" -le 64 ] || continue
      extra=(--all-ranks --set model.num_layers=2)
    fi
    /usr/bin/time -f "%e %M" -o "$out/time.txt" "$build/trnsim" run qwen3-32b-trn2 --set system="$sys" \
      --set system.instances="$inst" --set parallel.dp="$dp" --set batch.global_batch=$((16 * chips / 16)) \
      "${extra[@]}" --json "$out/scale.json" > /dev/null 2> "$out/err.txt"
    read -r wall rss < "$out/time.txt"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], d['sim']['events'], d['sim']['simulated_ranks'], d['sim']['wall_s'], sep='\t')" \
      "$out/scale.json" "$mode" "$chips" "$wall" "$rss" >> "$out/scale.tsv"
  done
done
python3 - "$out/gbench.json" "$out/cli.tsv" "$out/scale.tsv" "$root/bench/results/benchmarks.json" <<'PY'
import json, sys, platform
g = json.load(open(sys.argv[1]))
ctx = g.get("context", {})
b = {"machine": {"cpus": ctx.get("num_cpus", "?"), "mhz": ctx.get("mhz_per_cpu", "?"),
                 "system": platform.system(), "machine": platform.machine()},
     "gbench": [], "commands": [], "scaling": []}
for x in g["benchmarks"]:
    b["gbench"].append({"name": x["name"].split("/")[0].replace("BM_", ""), "real_time_ms": x["real_time"],
                        "flow_events": x["flow_events"], "queue_events": x["queue_events"],
                        "events_per_s": x["events_per_s"], "simulated_s": x["simulated_s"]})
for line in open(sys.argv[2]):
    c, t, why = line.rstrip("\n").split("\t")
    b["commands"].append(dict({"command": c, "wall_s": float(t)}, **({"slow": why} if why else {})))
for line in open(sys.argv[3]):
    mode, chips, wall, rss, ev, ranks, simwall = line.split()
    b["scaling"].append({"chips": int(chips), "mode": mode, "ranks": int(ranks), "events": int(ev),
                         "wall_s": float(wall), "rss_kib": int(rss), "sim_wall_s": float(simwall)})
with open(sys.argv[4], "w") as f:
    json.dump(b, f, indent=1)
    f.write("\n")
PY
echo "recorded bench/results/benchmarks.json"
"$root/tools/scale_benchmarks.sh" "$build"
python3 "$root/tools/astra_sim_compare.py" "$build"  # only when tools/build_astra_sim.sh has built ASTRA-sim
python3 "$root/tools/make_performance_doc.py"
python3 "$root/tools/make_validation_doc.py" "$build"
