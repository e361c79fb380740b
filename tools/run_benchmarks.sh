#!/usr/bin/env bash
# `make bench`: simulator speed (Google Benchmark, events per second) and the wall time of
# each `trnsim bench` command; writes docs/performance.md. Usage: tools/run_benchmarks.sh BUILD_DIR
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
  "run qwen3-32b-trn2 --mode eager"
  "run llama2-70b-trn1-pp"
  "run qwen3-32b-trn3-gen2"
  "startup qwen3-32b-trn2"
)
: > "$out/cli.tsv"
for c in "${cmds[@]}"; do
  TIMEFORMAT=%3R
  # shellcheck disable=SC2086
  t=$( { time "$build/trnsim" $c > /dev/null 2> "$out/err.txt"; } 2>&1 )
  printf '%s\t%s\n' "$c" "$t" >> "$out/cli.tsv"
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
python3 - "$out/gbench.json" "$out/cli.tsv" "$root/docs/performance.md" "$out/scale.tsv" <<'PY'
import json, sys, platform, datetime, os
g = json.load(open(sys.argv[1]))
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
cpu = g.get("context", {})
o = []
o.append("# Performance of the simulator\n")
o.append("Regenerate with `make bench` (writes this file). Measured on the development machine "
         f"({cpu.get('num_cpus', '?')} CPUs at {cpu.get('mhz_per_cpu', '?')} MHz, {platform.system()} {platform.machine()}); "
         "times are wall-clock and vary by machine, so no test asserts them.\n")
o.append("## Fabric and core simulations (Google Benchmark, `build/trnsim_bench`)\n")
o.append("Each iteration forks a child that elaborates and runs one simulation (SystemC elaborates once per process); "
         "wall time includes elaboration. Events are FlowNetwork wake-ups (flow start/end) plus EventQueue callbacks "
         "(op completions, transfer issues).\n")
o.append("| benchmark | wall time (ms) | flow events | queue events | events/s | simulated time |")
o.append("|---|---:|---:|---:|---:|---:|")
for b in g["benchmarks"]:
    name = b["name"].split("/")[0].replace("BM_", "")
    o.append(f"| {name} | {b['real_time']:.1f} | {b['flow_events']:.0f} | {b['queue_events']:.0f} | "
             f"{b['events_per_s']/1e3:.0f} k | {b['simulated_s']*1e3:.3f} ms |")
o.append("\n## Command wall times (`build/trnsim ...`, whole process)\n")
o.append("| command | wall time (s) |")
o.append("|---|---:|")
for c, t in rows:
    # A command of 20 s or more runs in test/cli/doc_examples.sh only with --slow.
    slow = f" <!-- slow: {float(t):.0f} s when measured -->" if float(t) >= 20 else ""
    o.append(f"| `trnsim {c}`{slow} | {float(t):.3f} |")
o.append("\n`trnsim run qwen3-32b-trn2` simulates one steady step of the 64-rank, 64-layer Qwen3-32B job "
         "(forward, backward and optimizer; one rank per pipeline stage simulated, see docs/workloads.md 1.6); "
         "the issue 3 target is under 5 s of wall time on this 2-core machine.\n")
import math
srows = [l.rstrip("\n").split("\t") for l in open(sys.argv[4]) if l.strip()]
o.append("\n## Scaling with chip count\n")
o.append("One steady Qwen3-32B step, compiled: tp 4 x fsdp 16 on each 16 chips, dp = chips / 16, 16 sequences of "
         "4,096 tokens per 16 chips. 16 and 32 chips are trn2.48xlarge instances over EFA; 64 to 1,024 chips are "
         "1 to 16 trn2 UltraServers over EFA. *reduced* simulates one rank per pipeline stage, with the sibling "
         "groups' collectives and the instance-symmetry quotient (docs/workloads.md, section 1.6), the default; *full* simulates every rank (`--all-ranks`) of a 2-layer cut of "
         "the model. Wall and peak memory are of the whole `trnsim run` process (GNU time); events are FlowNetwork "
         "wake-ups plus EventQueue callbacks; events/s uses the simulation's own wall time (`sim.wall_s`).\n")
o.append("| chips | simulation | simulated ranks | events | wall (s) | peak memory (MiB) | events/s |")
o.append("|---:|---|---:|---:|---:|---:|---:|")
fits = {}
for mode, chips, wall, rss, ev, ranks, simwall in srows:
    o.append(f"| {chips} | {mode} | {ranks} | {int(ev):,} | {float(wall):.2f} | {int(rss)/1024:.0f} | "
             f"{int(ev)/float(simwall)/1e3:.0f} k |")
    fits.setdefault(mode, []).append((math.log(float(chips)), math.log(float(wall))))
def slope(pts):
    n = len(pts); mx = sum(x for x, _ in pts) / n; my = sum(y for _, y in pts) / n
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
o.append("")
for mode, pts in fits.items():
    if len(pts) >= 2:
        nlogn = [(x, x + math.log(x)) for x, _ in pts]  # log(N log N) on the same chip counts
        o.append(f"- Wall time grows as chips^{slope(pts):.2f} for the {mode} simulation "
                 f"(least-squares fit of log wall time on log chips, {len(pts)} points, "
                 f"{math.exp(pts[0][0]):.0f} to {math.exp(pts[-1][0]):.0f} chips); N log N fitted the same way over "
                 f"these chip counts gives chips^{slope(nlogn):.2f}.")
o.append("- Targets (issue 6): 16 chips under 2 s; 1,024 chips under 60 s and 4 GiB.")
o.append("- The full simulation grows faster than N log N: every rank adds its ops and DMA flows, and the connected "
         "components the max-min solver re-solves (the rings of a collective group with every member's DMA traffic) "
         "grow with the ranks per group, so each event costs more. The symmetry reduction is what keeps "
         "large systems cheap; test/cli/reductions.sh checks it against the full simulation (`--exact`).")
o.append("\n## Notes\n")
o.append("- Event granularity is the flow (a chunk of a collective step, a DMA transfer) and the op, never the clock cycle: "
         "a 4096^3 matmul is ~300 ops; a 64-rank 512 MiB all-reduce is a few thousand transfers.\n"
         "- Cost grows with concurrent flows: every flow start or end re-solves max-min fairness, but only over the "
         "flows connected to the changed resources (rates decompose over connected components), with an event-driven "
         "filling (a heap of saturation levels): O(F x hops x log R) for the F flows of the component. A single large "
         "collective is one component, so the 256-rank UltraServer all-reduce remains the slowest case above.\n")
# Hand-written sections from "## CI budget" on (timings of whole builds) are kept as they are.
old = open(sys.argv[3]).read() if os.path.exists(sys.argv[3]) else ""
keep = old[old.find("\n## CI budget"):] if "\n## CI budget" in old else ""
open(sys.argv[3], "w").write("\n".join(o) + "\n" + keep)
PY
echo "wrote docs/performance.md"
"$root/tools/scale_benchmarks.sh" "$build"
python3 "$root/tools/make_validation_doc.py" "$build"
