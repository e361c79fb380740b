#!/usr/bin/env bash
# `trnsim export chakra` (issue 32, item 1; docs/interop.md): the files decode with Chakra's
# schema (protoc + python3-protobuf, from sim/app/commands/chakra_et.proto), one per rank, and
# agree with `trnsim run` on the same job: rank 0's nodes per engine against the run's op counts,
# the latest end against the step time; every dependency points back; the members of every
# communicator group issue the same collectives in the same order; every pipeline send has its
# receive (same size, tag, peer). Then determinism and bad input.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3  # Debian's python3-protobuf (a pyenv python3 may lack it)
protoc --python_out="$D" -I "$SRC/sim/app/commands" chakra_et.proto

# A 2-layer Qwen3-32B step on 16 trn2 chips (TP 4 x FSDP 16: 64 ranks) and a Llama-2-70B cut
# with pipeline parallelism in eager mode (TP 8 x PP 4 x FSDP 4: 128 ranks, pipeline transfers).
check_job() {  # DESC NAME ARGS...
  local desc=$1 name=$2
  shift 2
  run_trnsim export chakra "$@" --out "$D/$name"
  [ "$RC" -eq 0 ] || { fail "$desc: export" "exit $RC: $(head -c 300 "$ERR")"; return; }
  pass "$desc: export exits 0 ($(head -1 "$OUT" | cut -c1-120))"
  run_trnsim run "$@" --no-intervals --all-microbatches --json "$D/$name.run.json"
  [ "$RC" -eq 0 ] || { fail "$desc: run" "exit $RC: $(head -c 300 "$ERR")"; return; }
  local verdict
  verdict=$(PYTHONPATH="$D" "$PY" - "$D/$name" "$D/$name.run.json" <<'PY'
import collections, glob, json, os, sys
from google.protobuf.internal.decoder import _DecodeVarint32
import chakra_et_pb2 as pb

out, run = sys.argv[1], json.load(open(sys.argv[2]))
scen = run['scenario']
msgs = []

def read(path):
    data = open(path, 'rb').read()
    pos, meta, nodes = 0, None, []
    while pos < len(data):
        size, pos = _DecodeVarint32(data, pos)
        m = pb.GlobalMetadata() if meta is None else pb.Node()
        m.ParseFromString(data[pos:pos + size])
        pos += size
        if meta is None:
            meta = m
        else:
            nodes.append(m)
    return meta, nodes

def attrs(n):
    return {a.name: getattr(a, a.WhichOneof('value')) for a in n.attr}

world = run['sim']['world'] if 'world' in run['sim'] else None
files = sorted(glob.glob(os.path.join(out, scen + '.*.et')), key=lambda p: int(p.split('.')[-2]))
groups = json.load(open(os.path.join(out, scen + '.comm_groups.json')))
if sorted(int(k) for k in groups) != list(range(1, len(groups) + 1)):  # "0" is every rank to ASTRA-sim
    msgs.append('communicator groups are not named 1..N: %s' % sorted(groups)[:5])
ranks = {}
for p in files:
    ranks[int(p.split('.')[-2])] = read(p)
if sorted(ranks) != list(range(len(ranks))):
    msgs.append('ranks are not 0..N-1: %s' % sorted(ranks)[:5])
meta0, nodes0 = ranks[0]
if meta0.version != '1.0.0':
    msgs.append('schema version %r' % meta0.version)
step = run['steady']['step_time_s']
mstep = [a.double_val for a in meta0.attr if a.name == 'trn_step_time_s'][0]
if abs(mstep - step) > 1e-12 * step:
    msgs.append('metadata step %.9f vs run %.9f' % (mstep, step))
# Rank 0's nodes per engine are the run's op counts per engine.
per_engine = collections.Counter(attrs(n)['trn_engine'] for n in nodes0)
want = {k: v for k, v in run['steady']['engine_ops'].items() if v}
if dict(per_engine) != want:
    msgs.append('rank 0 nodes per engine %s vs run %s' % (dict(per_engine), want))
# The latest end over every rank is the step.
end = max(n.start_time_micros * 1e-6 + attrs(n)['trn_duration_s'] for _, ns in ranks.values() for n in ns)
if abs(end - step) > 1e-6:
    msgs.append('latest end %.9f s vs step %.9f s' % (end, step))
sends, recvs = {}, {}
coll = collections.defaultdict(dict)  # group -> rank -> [(type, size)]
for r, (_, ns) in ranks.items():
    for n in ns:
        if any(d >= n.id for d in list(n.data_deps) + list(n.ctrl_deps)):
            msgs.append('rank %d node %d depends on a later node' % (r, n.id))
            break
    for n in ns:
        a = attrs(n)
        if n.type == pb.COMM_COLL_NODE:
            g = a['pg_name']
            if r not in groups[g]:
                msgs.append('rank %d is not in its group %s' % (r, g))
            coll[g].setdefault(r, []).append((a['comm_type'], a['comm_size']))
        elif n.type == pb.COMM_SEND_NODE:
            sends[(a['comm_src'], a['comm_dst'], a['comm_tag'])] = a['comm_size']
        elif n.type == pb.COMM_RECV_NODE:
            recvs[(a['comm_src'], a['comm_dst'], a['comm_tag'])] = a['comm_size']
for g, by_rank in coll.items():
    if sorted(by_rank) != sorted(groups[g]) or len({tuple(v) for v in by_rank.values()}) != 1:
        msgs.append('group %s: members disagree on their collectives' % g)
        break
if sends != recvs:
    msgs.append('%d sends and %d receives do not pair' % (len(sends), len(recvs)))
types = collections.Counter(pb.NodeType.Name(n.type) for n in nodes0)
print('FAIL ' + '; '.join(msgs[:4]) if msgs else
      'ok %d ranks, %d groups, %d collectives paired, %d send/receive pairs; rank 0 %s' %
      (len(ranks), len(groups), len(coll), len(sends), dict(sorted(types.items()))))
PY
)
  case $verdict in
    ok*) pass "$desc: ${verdict#ok }" ;;
    *) fail "$desc" "${verdict#FAIL }" ;;
  esac
}

check_job "qwen3-32b-trn2, 2 layers" qwen qwen3-32b-trn2 --set model.num_layers=2
check_job "llama2-70b-trn1-pp, 4 layers, eager" llama llama2-70b-trn1-pp --set model.num_layers=4 \
  --set parallel.microbatches=4 --set batch.global_batch=16 --mode eager

# Deterministic: the same job twice gives the same bytes.
run_trnsim export chakra qwen3-32b-trn2 --set model.num_layers=2 --out "$D/qwen2"
check "the same export twice is byte-identical" diff -r "$D/qwen" "$D/qwen2"

# Chakra in (`run --workload-et DIR --system NAME`). The exports above, run back with their
# recorded durations (--et-durations): collectives and transfers re-simulated on the same
# hardware give the step the export recorded.
roundtrip() {  # DESC DIR SYSTEM
  run_trnsim run --workload-et "$2" --system "$3" --et-durations
  [ "$RC" -eq 0 ] || { fail "$1" "exit $RC: $(head -c 300 "$ERR")"; return; }
  local got
  got=$("$PY" -c "
import re, sys
t = open(sys.argv[1]).read()
fin = float(re.search(r'finish +([0-9.]+) s', t).group(1))
rec = float(re.search(r'recorded step +([0-9.]+) s', t).group(1))
print('ok %.6f s against %.6f s recorded' % (fin, rec) if abs(fin / rec - 1) < 1e-5 else 'FAIL %.6f vs %.6f' % (fin, rec))
" "$OUT")
  case $got in ok*) pass "$1: ${got#ok }" ;; *) fail "$1" "${got#FAIL }" ;; esac
}
roundtrip "round trip, qwen3-32b-trn2 cut on trn2.48xlarge" "$D/qwen" trn2.48xlarge
roundtrip "round trip, eager pipeline cut on 4 x trn1.32xlarge (sends and receives)" "$D/llama" trn1.32xlarge

# Costed instead of replayed: trnsim's exports name each compute node's operator and operands
# (trn_operator, inputs), so the NeuronCore model times them as the original run did, and the
# step read back is the step exported (the same cost models; collectives re-simulated).
costed() {  # DESC DIR SYSTEM
  run_trnsim run --workload-et "$2" --system "$3"
  [ "$RC" -eq 0 ] || { fail "$1" "exit $RC: $(head -c 300 "$ERR")"; return; }
  local got
  got=$("$PY" -c "
import re, sys
t = open(sys.argv[1]).read()
nodes = int(re.search(r'(\d+) nodes on', t).group(1))
line = t.split('timed by:')[1].splitlines()[0]
model = int(re.search(r'NeuronCore model (\d+)', line).group(1))
counts = sum(int(n) for _, n in re.findall(r'([a-z]+) (\d+)', re.sub(r'\(.*\)', '', line)))
fin = float(re.search(r'finish +([0-9.]+) s', t).group(1))
rec = float(re.search(r'recorded step +([0-9.]+) s', t).group(1))
ok = counts == nodes and 'roofline' not in line and 'duration' not in line and abs(fin / rec - 1) < 1e-5
print(('ok ' if ok else 'FAIL ') + '%d of %d nodes by the NeuronCore model; %.6f s against %.6f s recorded' %
      (model, nodes, fin, rec))" "$OUT")
  case $got in ok*) pass "$1: ${got#ok }" ;; *) fail "$1" "${got#FAIL }" ;; esac
}
costed "qwen3-32b-trn2 cut costed by the NeuronCore model" "$D/qwen" trn2.48xlarge
costed "eager pipeline cut costed by the NeuronCore model (sends and receives)" "$D/llama" trn1.32xlarge

# Named operators of PyTorch traces (aten names, IOInfo shapes as Chakra's converter writes them),
# one per rank so that each rank's finish is its node's time: a GEMM against the tiling model's
# closed form at the calibrated kernel efficiency; linear = mm on the flattened rows; twice the K
# is slower; the same FLOPs under an unknown name go to the roofline (the chip's peak), faster;
# flash attention's backward costs more than its forward; an add reads more than a neg.
PYTHONPATH="$D" "$PY" - "$D/ops" <<'PY'
import os, sys
import chakra_et_pb2 as pb
from google.protobuf.internal.encoder import _VarintBytes
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
B = "Tensor(c10::BFloat16)"
def op(name, shapes, extra=(), **attrs):
    n = pb.Node(id=1, name=name, type=pb.COMP_NODE)
    n.inputs.shapes = str(list(shapes) + [[] for _ in extra])
    n.inputs.types = str([B] * len(shapes) + [t for t, _ in extra])
    n.inputs.values = str([[i, i, 0, 1, 2, "cpu"] for i in range(len(shapes))] + [v for _, v in extra])
    for k, v in attrs.items():
        n.attr.add(name=k, int64_val=v)
    return n
q, kv = [1, 40, 4096, 128], [1, 8, 4096, 128]
ranks = [op("aten::mm", [[4096, 5120], [5120, 5120]]),
         op("aten::linear", [[2, 2048, 5120], [5120, 5120]]),
         op("aten::mm", [[4096, 10240], [10240, 5120]]),
         op("my_fused_gemm", [], num_ops=2 * 4096 * 5120 * 5120),
         op("aten::_scaled_dot_product_flash_attention", [q, kv, kv], [("Double", 0.0), ("Bool", True)]),
         op("aten::_scaled_dot_product_flash_attention_backward", [q, q, kv, kv], [("Double", 0.0), ("Bool", True)]),
         op("aten::add", [[4096, 5120], [4096, 5120]]),
         op("aten::neg", [[4096, 5120]])]
for r, n in enumerate(ranks):
    with open(os.path.join(out, "ops.%d.et" % r), "wb") as f:
        for m in (pb.GlobalMetadata(version="1.0.0"), n):
            d = m.SerializeToString()
            f.write(_VarintBytes(len(d)) + d)
PY
run_trnsim run --workload-et "$D/ops" --system trn2.48xlarge --json "$D/ops.json"
cp "$OUT" "$D/ops.out"
run_trnsim bench matmul --chip trn2 --m 2048 --n 5120 --k 5120 --json "$D/mm.json"
check "named operators: timed by the NeuronCore model, except the unknown one" \
  grep -q "NeuronCore model 7 (matmul 3, attention 2, elementwise 2) roofline 1" "$D/ops.out"
check "named operators: mm = tiling model / kernel efficiency (0.5 %); linear = mm; 2K slower; roofline faster; attention backward > forward; add > neg" "$PY" -c "
import json, re, sys
f = json.load(open(sys.argv[1]))['rank_finish_s']
mm = json.load(open(sys.argv[2]))['cost_model_time_s']  # M = 4096 / LNC 2 per physical core
eff = float(re.search(r'kernel_efficiency: ([0-9.]+)', open(sys.argv[3]).read()).group(1))
want = mm / eff
print('mm %.6f s, closed form %.6f s; linear %.6f, 2K %.6f, roofline %.6f, attention %.6f / %.6f, add %.6f, neg %.6f'
      % (f[0], want, f[1], f[2], f[3], f[4], f[5], f[6], f[7]))
ok = abs(f[0] / want - 1) < 5e-3 and f[1] == f[0] and f[2] > 1.9 * f[0] and f[3] < f[0] and f[5] > f[4] and f[6] > f[7]
sys.exit(0 if ok else 1)" "$D/ops.json" "$D/mm.json" "$SRC/workloads/calibration/runtime.yaml"

# The hand-made trace (tools/make_chakra_example.py; ids in reverse, so the reader orders them):
# rank 3 runs 1e12 FLOPs, a 64 MiB all-reduce of the 4 ranks, 1e12 FLOPs: 2e12 FLOPs at the BF16
# peak of a logical core (chip peak / physical cores x LNC) plus the all-reduce alone.
HAND=$SRC/test/data/chakra/hand
run_trnsim run --workload-et "$HAND" --system trn2.48xlarge
cp "$OUT" "$D/hand.out"
run_trnsim bench collective --system trn2.48xlarge --ranks 4 --sizes 64MiB --json "$D/ar.json"
"$TRNSIM" show system trn2.48xlarge > "$D/trn2.yaml"
check "hand trace: earliest finish = 2e12 FLOPs at the BF16 peak + the all-reduce (within 0.5 %)" "$PY" -c "
import json, re, sys
t = open(sys.argv[1]).read()
first = float(re.search(r'the earliest ([0-9.]+) s', t).group(1))
y = open(sys.argv[3]).read()
peak = float(re.search(r'bf16: \"([0-9.]+) TFLOPS', y).group(1)) * 1e12
phys = int(re.search(r'physical: (\d+)', y).group(1)); lnc = int(re.search(r'default_lnc: (\d+)', y).group(1))
ar = json.load(open(sys.argv[2]))['rows'][0]['time_s']
want = 2e12 / (peak / phys * lnc) + ar
print('earliest %.6f s, closed form %.6f s' % (first, want))
sys.exit(0 if abs(first / want - 1) < 5e-3 else 1)" "$D/hand.out" "$D/ar.json" "$D/trn2.yaml"
check "hand trace: 5 named operators, 8 roofline, 4 collective, 2 transfer and 1 memory node" grep -q \
  "NeuronCore model 5 (matmul 1, attention 1, norm 1, elementwise 2) collective 4 memory 1 roofline 8 transfer 2" "$D/hand.out"
# The JSON document (docs/schema/run-trace.schema.json; json_schema.sh validates it) says the same,
# and the same inputs give the same document (wall time aside).
for i in 1 2; do
  run_trnsim run --workload-et "$HAND" --system trn2.48xlarge --json "$D/hand$i.json"
done
check "hand trace --json: rank 3 ends at the earliest finish, the latest rank at the finish; deterministic" "$PY" -c "
import json, re, sys
t = open(sys.argv[1]).read()
a, b = (json.load(open(p)) for p in sys.argv[2:4])
first = float(re.search(r'the earliest ([0-9.]+) s', t).group(1))
last = float(re.search(r'finish +([0-9.]+) s', t).group(1))
ok = abs(a['rank_finish_s'][3] - first) < 1e-6 and abs(a['finish_s'] - last) < 1e-6 and a['finish_s'] == max(a['rank_finish_s'])
for d in (a, b): d['sim'].pop('wall_s')
sys.exit(0 if ok and a == b else 1)" "$D/hand.out" "$D/hand1.json" "$D/hand2.json"

# Bad traces: exit 2, one error line naming the file and what is wrong.
bad_copy() { rm -rf "$D/bad"; cp -r "$HAND" "$D/bad"; }
bad_copy
head -c -5 "$HAND/hand.1.et" > "$D/bad/hand.1.et"
expect_error "a truncated trace" "hand.1.et" "byte" -- run --workload-et "$D/bad" --system trn2.48xlarge
bad_copy
rm "$D/bad/hand.2.et"
expect_error "a missing rank" "rank 2 is missing" -- run --workload-et "$D/bad" --system trn2.48xlarge
bad_copy
PYTHONPATH="$D" "$PY" - "$D/bad/hand.3.et" <<'PY'
import sys
import chakra_et_pb2 as pb
from google.protobuf.internal.encoder import _VarintBytes
n = pb.Node(id=1, name="orphan", type=pb.COMP_NODE)
n.data_deps.append(12345)
with open(sys.argv[1], "ab") as f:
    d = n.SerializeToString(); f.write(_VarintBytes(len(d)) + d)
PY
expect_error "a dependency on a node the file does not have" "hand.3.et" "depends on node 12345" -- \
  run --workload-et "$D/bad" --system trn2.48xlarge
expect_error "--workload-et without --system" "expected --system" -- run --workload-et "$HAND"
expect_error "--workload-et with --trace" "--trace does not apply" -- run --workload-et "$HAND" --system trn2.48xlarge \
  --trace "$OUTDIR/t.json"
expect_error "more ranks than the system holds" "do not fit" -- run --workload-et "$D/llama" --system trn2.48xlarge \
  --chips 16

# Bad input: a file as --out, an unknown scenario: exit 2, one error line, nothing written.
: > "$D/afile"
expect_error "--out naming a file" "expected a directory" -- export chakra qwen3-32b-trn2 --set model.num_layers=2 \
  --out "$D/afile"
expect_error "an unknown scenario" "no-such-scenario" -- export chakra no-such-scenario --out "$OUTDIR/none"
finish
