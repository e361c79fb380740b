#!/usr/bin/env bash
# A ring over many symmetric instances, built by images, runs its kept rank's steps in at most
# PlanOptions::max_chain_segments transfers (Transfer::repeat; docs/workloads.md 1.6.1): checked
# against --exact (every transfer of every instance) on a small instance (2 trn1 chips, 4 ranks)
# so that the exact run stays cheap, at 40 instances (78 steps: segments of 2) and 100 instances
# (198 steps: segments of 4), for the all-reduce sizes whose phase over the instances is the ring.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
cat > "$D/mini.yaml" <<'YAML'
name: trn1-pair
chip: trn1
chips: 2
hosts: 1
topology:
  impl: torus
  dims:
    - {size: 2, link_bandwidth: "96 GB/s"}
  link_latency: "1.5 us"
efa:
  nics: 1
  bandwidth_per_nic: "100 Gbps"
  latency: "15 us"
host:
  vcpus: 16
  memory: "64 GiB"
YAML
for n in 40 100; do
  run_trnsim bench collective --system "$D/mini.yaml" --instances $n --sizes 4MiB,64MiB --json "$D/seg.json"
  [ "$RC" -eq 0 ] || { fail "segments, $n instances" "exited $RC: $(head -c 300 "$ERR")"; continue; }
  run_trnsim bench collective --system "$D/mini.yaml" --instances $n --sizes 4MiB,64MiB --exact --json "$D/exact.json"
  [ "$RC" -eq 0 ] || { fail "exact, $n instances" "exited $RC: $(head -c 300 "$ERR")"; continue; }
  verdict=$(python3 - "$D/seg.json" "$D/exact.json" <<'PY'
import json, sys
s, e = (json.load(open(p)) for p in sys.argv[1:3])
out = []
for a, b in zip(s["rows"], e["rows"]):
    err = a["time_s"] / b["time_s"] - 1
    ring = "inter-ar:ring" in a["algorithm"]
    out.append("%s %.0f B: %s, %.6f vs %.6f ms exact (%+.3f%%)" % ("ok" if abs(err) < 5e-3 and ring else "FAIL",
               a["size_bytes"], a["algorithm"], 1e3 * a["time_s"], 1e3 * b["time_s"], 100 * err))
print("\n".join(out))
PY
)
  while read -r line; do
    case "$line" in ok*) pass "$n instances: ${line#ok }" ;; *) fail "$n instances" "$line" ;; esac
  done <<< "$verdict"
done
finish
