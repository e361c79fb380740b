#!/usr/bin/env python3
"""trnsim beside ASTRA-sim's analytical backend on the same work (docs/performance.md, "Beside
ASTRA-sim"; docs/interop.md). Run by tools/run_benchmarks.sh (`make bench`) when ASTRA-sim is built.

Usage: tools/astra_sim_compare.py BUILD_DIR [--astra BIN] [--out FILE]

BIN defaults to BUILD_DIR/astra-sim/bin/AstraSim_Analytical_Congestion_Unaware, which
tools/build_astra_sim.sh makes. Without it the script says how to build it and exits 0, leaving
bench/results/astra_sim.json as it was.

The cases, each run once by each simulator as a whole process (wall time and peak RSS from GNU
time), one process at a time:
- a lone 1 GiB all-reduce on 256, 1,024 and 4,096 ranks (1, 4 and 16 trn2 UltraServers, LNC 2):
  `trnsim bench collective`, and for ASTRA-sim one COMM_COLL_NODE per rank, written here with
  python3-protobuf from trnsim's Chakra schema (sim/app/commands/chakra_et.proto);
- one Qwen3-32B training step on a trn2.48xlarge (qwen3-32b-trn2, 64 ranks): `trnsim run`, and for
  ASTRA-sim the step `trnsim export chakra` writes (compute nodes with trnsim's simulated
  durations, collectives with their sizes and groups).

ASTRA-sim's network is derived from trnsim's hardware files, not fitted: one dimension for the
ranks of a chip (FullyConnected, at the DMA rate of one logical core: its physical cores' DMA
engines), one Ring per torus dimension (the link's bandwidth shared by the chip's ranks, the link
latency), and, with more than one instance, a Switch for EFA (the instance's NICs shared by its
ranks, the EFA latency); ring collectives on the chip and torus dimensions, halving-doubling over
EFA. ASTRA-sim's simulated times are printed beside trnsim's for the record; they are not a
validation of either (the two model different things: ASTRA-sim gives each rank its own link per
dimension and runs a rank's compute nodes one at a time).
"""
import json, os, platform, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = os.path.abspath(args[0] if args else "build")


def opt(name, default):
    a = sys.argv[1:]
    return a[a.index(name) + 1] if name in a and a.index(name) + 1 < len(a) else default


astra = opt("--astra", os.path.join(build, "astra-sim", "bin", "AstraSim_Analytical_Congestion_Unaware"))
out_file = opt("--out", os.path.join(root, "bench", "results", "astra_sim.json"))
trnsim = os.path.join(build, "trnsim")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # Debian's protobuf

UNITS = {"B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12, "Gbps": 1e9 / 8, "Tbps": 1e12 / 8,
         "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}


def qty(text):
    m = re.match(r"^\s*([0-9.eE+-]+)\s*(\S+)\s*$", str(text))
    return float(m.group(1)) * UNITS[m.group(2)]


def load_yaml(path):
    sys.path.insert(0, "/usr/lib/python3/dist-packages")
    import yaml  # Debian's python3-yaml
    return yaml.safe_load(open(path))


def network(system, instances, lnc):
    """ASTRA-sim's network and system files for `instances` of `system` at `lnc` physical cores per rank."""
    sysf = load_yaml(os.path.join(root, "hw", "configs", "systems", system + ".yaml"))
    chip = load_yaml(os.path.join(root, "hw", "configs", "chips", sysf["chip"] + ".yaml"))
    ranks_per_chip = chip["cores"]["physical"] // lnc if isinstance(chip["cores"], dict) else None
    dma = chip["dma"]
    engines = dma.get("engines_per_core", 16)
    core_dma = qty(dma["engine_bandwidth"]) * engines * lnc  # one logical core's DMA engines
    topo, npus, bw, lat, algo = ["FullyConnected"], [ranks_per_chip], [core_dma / 1e9], [500.0], ["ring"]
    for d in sysf["topology"]["dims"]:
        topo.append("Ring")
        npus.append(d["size"])
        bw.append(qty(d["link_bandwidth"]) / ranks_per_chip / 1e9)
        lat.append(qty(sysf["topology"]["link_latency"]) * 1e9)
        algo.append("ring")
    if instances > 1:
        efa = sysf["efa"]
        topo.append("Switch")
        npus.append(instances)
        bw.append(efa["nics"] * qty(efa["bandwidth_per_nic"]) / (sysf["chips"] * ranks_per_chip) / 1e9)
        lat.append(qty(efa["latency"]) * 1e9)
        algo.append("halvingDoubling")
    net = "topology: [ %s ]\nnpus_count: [ %s ]\nbandwidth: [ %s ]  # GB/s per rank\nlatency: [ %s ]  # ns\n" % (
        ", ".join(topo), ", ".join(map(str, npus)), ", ".join("%.4g" % b for b in bw), ", ".join("%.4g" % l for l in lat))
    sysj = {"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
            "preferred-dataset-splits": 4, "all-reduce-implementation": algo, "all-gather-implementation": algo,
            "reduce-scatter-implementation": algo, "all-to-all-implementation": algo,
            "collective-optimization": "localBWAware", "local-mem-bw": 1600, "boost-mode": 0,
            "roofline-enabled": 0, "peak-perf": 900}
    n = 1
    for x in npus:
        n *= x
    return net, json.dumps(sysj, indent=1), n


def timed(cmd, tmp):
    tf = os.path.join(tmp, "time.txt")
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf] + cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("astra_sim_compare: failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-2000:]))
    wall, rss = open(tf).read().split()[-2:]
    return float(wall), int(rss) / 1024.0, p.stdout


def run_astra(workload, groups, net, sysj, tmp):
    for name, text in (("net.yml", net), ("sys.json", sysj), ("mem.json", '{"memory-type": "NO_MEMORY_EXPANSION"}')):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    wall, rss, log = timed([astra, "--workload-configuration=" + workload, "--comm-group-configuration=" + groups,
                            "--system-configuration=" + os.path.join(tmp, "sys.json"),
                            "--remote-memory-configuration=" + os.path.join(tmp, "mem.json"),
                            "--network-configuration=" + os.path.join(tmp, "net.yml")], tmp)
    cycles = [int(m) for m in re.findall(r"sys\[\d+\] finished, (\d+) cycles", log)]
    if not cycles:
        sys.exit("astra_sim_compare: ASTRA-sim printed no finish time:\n" + log[-2000:])
    return wall, rss, max(cycles) * 1e-9  # the analytical backend counts nanoseconds


def chakra_python(tmp):
    """The directory of chakra_et_pb2.py, compiled once from trnsim's schema."""
    gen = os.path.join(tmp, "pb")
    os.makedirs(gen)
    subprocess.run(["protoc", "--python_out=" + gen, "-I", os.path.join(root, "sim", "app", "commands"),
                    "chakra_et.proto"], check=True)
    return gen


def write_allreduce(gen, n, size, out):
    code = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
import chakra_et_pb2 as pb
from google.protobuf.internal.encoder import _VarintBytes
n, size, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def put(f, m):
    b = m.SerializeToString(); f.write(_VarintBytes(len(b))); f.write(b)
for r in range(n):
    with open(os.path.join(out, "all_reduce.%d.et" % r), "wb") as f:
        put(f, pb.GlobalMetadata(version="1.0.0"))
        node = pb.Node(id=0, name="all_reduce", type=pb.COMM_COLL_NODE)
        node.attr.add(name="is_cpu_op", bool_val=False)
        node.attr.add(name="comm_type", int64_val=pb.ALL_REDUCE)
        node.attr.add(name="comm_size", int64_val=size)
        put(f, node)
"""
    subprocess.run([PY, "-c", code, gen, str(n), str(size), out], check=True)
    return os.path.join(out, "all_reduce")


def main():
    if not os.path.exists(astra):
        print("astra_sim_compare: %s is not built; tools/build_astra_sim.sh %s builds it (bench/results/astra_sim.json "
              "kept as it was)" % (astra, os.path.join(build, "astra-sim")))
        return 0
    tmp = tempfile.mkdtemp()
    rows = []
    try:
        gen = chakra_python(tmp)
        for inst in (1, 4, 16):
            net, sysj, n = network("trn2-ultraserver", inst, 2)
            d = os.path.join(tmp, "ar%d" % n)
            os.makedirs(d)
            tw, tr, _ = timed([trnsim, "bench", "collective", "--system", "trn2-ultraserver", "--instances", str(inst),
                               "--sizes", "1GiB", "--json", os.path.join(d, "t.json")], tmp)
            ts = json.load(open(os.path.join(d, "t.json")))["rows"][-1]["time_s"]
            aw, ar, asim = run_astra(write_allreduce(gen, n, 1 << 30, d), "empty", net, sysj, tmp)
            rows.append({"label": "1 GiB all-reduce, %s ranks (%d trn2 UltraServer%s)" % (format(n, ","), inst,
                                                                                        "s" if inst > 1 else ""),
                         "ranks": n, "trnsim": {"wall_s": tw, "rss_mib": tr, "simulated_s": ts},
                         "astra": {"wall_s": aw, "rss_mib": ar, "simulated_s": asim}, "network": net})
            print("%s: trnsim %.2f s, ASTRA-sim %.2f s" % (rows[-1]["label"], tw, aw), file=sys.stderr)
        d = os.path.join(tmp, "qwen")
        tw, tr, _ = timed([trnsim, "run", "qwen3-32b-trn2", "--no-intervals", "--json", os.path.join(tmp, "q.json")],
                          tmp)
        ts = json.load(open(os.path.join(tmp, "q.json")))["steady"]["step_time_s"]
        subprocess.run([trnsim, "export", "chakra", "qwen3-32b-trn2", "--out", d], check=True, capture_output=True)
        net, sysj, n = network("trn2.48xlarge", 1, 2)
        aw, ar, asim = run_astra(os.path.join(d, "qwen3-32b-trn2"), os.path.join(d, "qwen3-32b-trn2.comm_groups.json"),
                                 net, sysj, tmp)
        rows.append({"label": "Qwen3-32B step, 64 ranks (qwen3-32b-trn2; ASTRA-sim: its exported Chakra traces)",
                     "ranks": n, "trnsim": {"wall_s": tw, "rss_mib": tr, "simulated_s": ts},
                     "astra": {"wall_s": aw, "rss_mib": ar, "simulated_s": asim}, "network": net})
        print("%s: trnsim %.2f s, ASTRA-sim %.2f s" % (rows[-1]["label"], tw, aw), file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    src = os.path.join(os.path.dirname(os.path.dirname(astra)), "sources.txt")
    result = {"machine": {"machine": platform.machine(), "cpus": os.cpu_count()},
              "astra_sim_sources": open(src).read().split("\n")[:-1] if os.path.exists(src) else [],
              "rows": rows}
    with open(out_file, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print("wrote " + os.path.relpath(out_file, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
