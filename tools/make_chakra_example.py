#!/usr/bin/env python3
"""Writes the hand-made Chakra execution trace of test/data/chakra/hand (docs/interop.md).

Four ranks. Each rank: a matmul-like compute node of 1e12 FLOPs, then an all-reduce of 64 MiB over
the four ranks (communicator group "0"), then a second compute node of 1e12 FLOPs; rank 0 then
sends 1 MiB to rank 1 (tag 0), which receives it; rank 2 loads 16 MiB from memory. Rank 1 then runs
five PyTorch operators with their operands, as Chakra's PyTorch converter writes them (the node's
name, and IOInfo texts of shapes, types and values): a linear layer, causal flash attention, an add,
a layer norm and a SiLU, which trnsim times with its NeuronCore model. Node ids count down from 100
and dependencies point at them, so a reader must order the nodes itself. Written with
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


def node(nid, name, kind, deps=(), operands=None, **attrs):
    n = pb.Node(id=nid, name=name, type=kind)
    n.data_deps.extend(deps)
    if operands:  # [(shape, type, value)], each field the Python text of its list (IOInfo)
        n.inputs.shapes = str([o[0] for o in operands])
        n.inputs.types = str([o[1] for o in operands])
        n.inputs.values = str([o[2] for o in operands])
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
    if rank == 1:  # a transformer block's operators on 4,096 tokens (hidden 5,120, 40 heads, 8 KV heads)
        bf16, uid = "Tensor(c10::BFloat16)", [1]

        def t(*shape):  # a tensor operand; its value as PyTorch's execution trace records it
            uid[0] += 1
            numel = 1
            for d in shape:
                numel *= d
            return (list(shape), bf16, [uid[0], uid[0], 0, numel, 2, "cpu"])
        nodes += [
            node(96, "aten::linear", pb.COMP_NODE, [97], [t(1, 4096, 5120), t(5120, 5120)], is_cpu_op=False),
            node(95, "aten::_scaled_dot_product_flash_attention", pb.COMP_NODE, [96],
                 [t(1, 40, 4096, 128), t(1, 8, 4096, 128), t(1, 8, 4096, 128), ([], "Double", 0.0),
                  ([], "Bool", True), ([], "Bool", False)], is_cpu_op=False),
            node(94, "aten::add", pb.COMP_NODE, [95], [t(4096, 5120), t(4096, 5120)], is_cpu_op=False),
            node(93, "aten::native_layer_norm", pb.COMP_NODE, [94],
                 [t(4096, 5120), ([5120], "GenericList[Int]", [5120]), t(5120), t(5120), ([], "Double", 1e-5)],
                 is_cpu_op=False),
            node(92, "aten::silu", pb.COMP_NODE, [93], [t(4096, 13824)], is_cpu_op=False)]
    if rank == 2:
        nodes.append(node(97, "load_weights", pb.MEM_LOAD_NODE, [98], tensor_size=16 << 20, is_cpu_op=False))
    with open(os.path.join(out, f"hand.{rank}.et"), "wb") as f:
        for m in [pb.GlobalMetadata(version="1.0.0")] + nodes:
            data = m.SerializeToString()
            f.write(_VarintBytes(len(data)) + data)
with open(os.path.join(out, "hand.comm_groups.json"), "w") as f:
    f.write(json.dumps({"0": [0, 1, 2, 3]}) + "\n")
print(f"wrote {out}/hand.{{0,1,2,3}}.et and hand.comm_groups.json")
