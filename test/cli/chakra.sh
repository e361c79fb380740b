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

# Bad input: a file as --out, an unknown scenario: exit 2, one error line, nothing written.
: > "$D/afile"
expect_error "--out naming a file" "expected a directory" -- export chakra qwen3-32b-trn2 --set model.num_layers=2 \
  --out "$D/afile"
expect_error "an unknown scenario" "no-such-scenario" -- export chakra no-such-scenario --out "$OUTDIR/none"
finish
