#!/usr/bin/env python3
"""Writes the hand-made Chakra execution trace of test/data/chakra/hand (docs/interop.md).

Four ranks. Each rank: a matmul-like compute node of 1e12 FLOPs, then an all-reduce of 64 MiB over
the four ranks (communicator group "0"), then a second compute node of 1e12 FLOPs; rank 0 then
sends 1 MiB to rank 1 (tag 0), which receives it; rank 2 loads 16 MiB from memory. Node ids count
down from 100 and dependencies point at them, so a reader must order the nodes itself. Written with
python3-protobuf from trnsim's schema (sim/app/commands/chakra_et.proto, the part of Chakra's
et_def.proto trnsim reads and writes).

Usage: tools/make_chakra_example.py OUT_DIR   (test/data/chakra/hand is its output, committed)
"""
import json, os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "test", "data", "chakra", "hand")
gen = tempfile.mkdtemp()
subprocess.run(["protoc", "--python_out=" + gen, "-I", os.path.join(root, "sim", "app", "commands"), "chakra_et.proto"],
               check=True)
sys.path.insert(0, gen)
import chakra_et_pb2 as pb  # noqa: E402
from google.protobuf.internal.encoder import _VarintBytes  # noqa: E402


def node(nid, name, kind, deps=(), **attrs):
    n = pb.Node(id=nid, name=name, type=kind)
    n.data_deps.extend(deps)
    for k, v in attrs.items():
        a = n.attr.add(name=k)
        if isinstance(v, bool):
            a.bool_val = v
        elif isinstance(v, str):
            a.string_val = v
        elif k in ("tensor_size",):
            a.uint64_val = v
        elif k in ("comm_src", "comm_dst", "comm_tag"):
            a.int32_val = v
        else:
            a.int64_val = v
    return n


os.makedirs(out, exist_ok=True)
for rank in range(4):
    nodes = [node(100, "matmul_a", pb.COMP_NODE, num_ops=10**12, is_cpu_op=False),
             node(99, "grad_all_reduce", pb.COMM_COLL_NODE, [100], comm_type=pb.ALL_REDUCE, comm_size=64 << 20,
                  pg_name="0", is_cpu_op=False),
             node(98, "matmul_b", pb.COMP_NODE, [99], num_ops=10**12, is_cpu_op=False)]
    if rank == 0:
        nodes.append(node(97, "send_to_1", pb.COMM_SEND_NODE, [98], comm_src=0, comm_dst=1, comm_tag=0,
                          comm_size=1 << 20))
    if rank == 1:
        nodes.append(node(97, "recv_from_0", pb.COMM_RECV_NODE, [98], comm_src=0, comm_dst=1, comm_tag=0,
                          comm_size=1 << 20))
    if rank == 2:
        nodes.append(node(97, "load_weights", pb.MEM_LOAD_NODE, [98], tensor_size=16 << 20, is_cpu_op=False))
    with open(os.path.join(out, f"hand.{rank}.et"), "wb") as f:
        for m in [pb.GlobalMetadata(version="1.0.0")] + nodes:
            data = m.SerializeToString()
            f.write(_VarintBytes(len(data)) + data)
with open(os.path.join(out, "hand.comm_groups.json"), "w") as f:
    f.write(json.dumps({"0": [0, 1, 2, 3]}) + "\n")
print(f"wrote {out}/hand.{{0,1,2,3}}.et and hand.comm_groups.json")
