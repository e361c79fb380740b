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
python3 - "$out/gbench.json" "$out/cli.tsv" "$root/docs/performance.md" <<'PY'
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
    o.append(f"| `trnsim {c}` | {float(t):.3f} |")
o.append("\n`trnsim run qwen3-32b-trn2` simulates one steady step of the 64-rank, 64-layer Qwen3-32B job "
         "(forward, backward and optimizer; 4 representative ranks simulated, see docs/workloads.md); "
         "the issue 3 target is under 5 s of wall time on this 2-core machine.\n")
o.append("\n## Notes\n")
o.append("- Event granularity is the flow (a chunk of a collective step, a DMA transfer) and the op, never the clock cycle: "
         "a 4096^3 matmul is ~300 ops; a 64-rank 512 MiB all-reduce is a few thousand transfers.\n"
         "- Cost grows with concurrent flows: every start or end re-solves max-min fairness over the active flows "
         "(O(active flows x hops) per pass). The 256-rank UltraServer all-reduce, with thousands of flows in flight, "
         "is the slowest case above; issue 6 (fast at scale) targets it.\n")
open(sys.argv[3], "w").write("\n".join(o) + "\n")
PY
echo "wrote docs/performance.md"
python3 "$root/tools/make_validation_doc.py" "$build"
