#!/usr/bin/env bash
# `run --trace-format perfetto` (issue 32, item 3): the eager Qwen3-32B step's timeline as
# Perfetto's protobuf trace decodes with Perfetto's schema (protoc + python3-protobuf, from
# sim/app/trace/perfetto_trace.proto), in under a quarter of the JSON's bytes, with as many slices
# and counter samples as the JSON has spans and samples. On a 2-layer cut, event by event, it
# holds what the Chrome JSON of the same run holds: the same tracks by name, one slice (a BEGIN and
# its END on the same track) per JSON span with the same name, category, arguments, start and
# duration (to the nanosecond), one COUNTER event per counter sample. Then the file name choosing
# the format, determinism and bad input.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3  # Debian's python3-protobuf (a pyenv python3 may lack it)
protoc --python_out="$D" -I "$SRC/sim/app/trace" perfetto_trace.proto

# The whole eager step: sizes and counts.
run_trnsim run qwen3-32b-trn2 --mode eager --no-intervals --trace "$D/full.json"
[ "$RC" -eq 0 ] || fail "JSON trace" "exit $RC: $(head -c 300 "$ERR")"
run_trnsim run qwen3-32b-trn2 --mode eager --no-intervals --trace "$D/full.bin" --trace-format perfetto
[ "$RC" -eq 0 ] || fail "Perfetto trace" "exit $RC: $(head -c 300 "$ERR")"
verdict=$(PYTHONPATH="$D" "$PY" - "$D/full.json" "$D/full.bin" <<'PY'
import os, sys
import perfetto_trace_pb2 as pb
js, pf = sys.argv[1], sys.argv[2]
text = open(js, 'rb').read()
trace = pb.Trace()
trace.ParseFromString(open(pf, 'rb').read())
kinds = [p.track_event.type for p in trace.packet if p.HasField('track_event')]
want = (text.count(b'"ph":"X"'), text.count(b'"ph":"X"'), text.count(b'"ph":"C"'))
got = tuple(kinds.count(k) for k in (pb.TrackEvent.TYPE_SLICE_BEGIN, pb.TrackEvent.TYPE_SLICE_END,
                                      pb.TrackEvent.TYPE_COUNTER))
ratio = os.path.getsize(pf) / len(text)
msgs = []
if ratio >= 0.25:
    msgs.append('the Perfetto trace is %.1f %% of the JSON' % (100 * ratio))
if got != want:
    msgs.append('begin/end/counter events %s, the JSON has %s' % (got, want))
print('; '.join(msgs) if msgs else 'ok %d slices, %d counter samples in %.1f %% of the JSON (%d of %d bytes)'
      % (got[0], got[2], 100 * ratio, os.path.getsize(pf), len(text)))
PY
)
case $verdict in
  ok*) pass "the eager Qwen3-32B step's Perfetto trace: ${verdict#ok }" ;;
  *) fail "the eager Qwen3-32B step's Perfetto trace" "$verdict" ;;
esac

# A 2-layer cut, event by event.
run_trnsim run qwen3-32b-trn2 --set model.num_layers=2 --mode eager --no-intervals --trace "$D/t.json"
[ "$RC" -eq 0 ] || fail "JSON trace" "exit $RC: $(head -c 300 "$ERR")"
run_trnsim run qwen3-32b-trn2 --set model.num_layers=2 --mode eager --no-intervals --trace "$D/t.bin" --trace-format perfetto
[ "$RC" -eq 0 ] || fail "Perfetto trace" "exit $RC: $(head -c 300 "$ERR")"
verdict=$(PYTHONPATH="$D" "$PY" - "$D/t.json" "$D/t.bin" <<'PY'
import collections, json, os, sys
import perfetto_trace_pb2 as pb

js, pf = sys.argv[1], sys.argv[2]
msgs = []
events = json.load(open(js))['traceEvents']
trace = pb.Trace()
trace.ParseFromString(open(pf, 'rb').read())

# Tracks: uuid -> (pid, tid or None, name); interned names on the one sequence.
tracks, names, cats, keys = {}, {}, {}, {}
slices, counters, open_by_track = [], collections.Counter(), collections.defaultdict(list)
for i, p in enumerate(trace.packet):
    if p.trusted_packet_sequence_id != 1:
        msgs.append('packet %d: sequence %d' % (i, p.trusted_packet_sequence_id))
        break
    if i == 0 and not p.sequence_flags & pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED:
        msgs.append('the first packet does not clear the incremental state')
    for e in p.interned_data.event_names: names[e.iid] = e.name
    for e in p.interned_data.event_categories: cats[e.iid] = e.name
    for e in p.interned_data.debug_annotation_names: keys[e.iid] = e.name
    if p.HasField('track_descriptor'):
        t = p.track_descriptor
        if t.HasField('thread'):
            tracks[t.uuid] = (t.thread.pid, t.thread.tid, t.thread.thread_name)
        elif t.HasField('process'):
            tracks[t.uuid] = (t.process.pid, None, t.process.process_name)
        else:
            tracks[t.uuid] = (tracks[t.parent_uuid][0], 'counter', t.name)
    if not p.HasField('track_event'):
        continue
    e = p.track_event
    if e.track_uuid not in tracks:
        msgs.append('packet %d: event on an undeclared track %d' % (i, e.track_uuid))
        break
    pid, tid, _ = tracks[e.track_uuid]
    if e.type == pb.TrackEvent.TYPE_SLICE_BEGIN:
        args = {keys[a.name_iid]: v for a in e.debug_annotations for f, v in a.ListFields() if f.name != 'name_iid'}
        open_by_track[e.track_uuid].append((p.timestamp, names[e.name_iid], cats[e.category_iids[0]], args))
    elif e.type == pb.TrackEvent.TYPE_SLICE_END:
        ts, name, cat, args = open_by_track[e.track_uuid].pop(0)
        slices.append((pid, tid, name, cat, ts, p.timestamp - ts, tuple(sorted(args.items()))))
    elif e.type == pb.TrackEvent.TYPE_COUNTER:
        v = e.double_counter_value if e.HasField('double_counter_value') else e.counter_value
        counters[(pid, tracks[e.track_uuid][2], p.timestamp, round(v, 6))] += 1

# The same spans, counters and track names as the JSON (times in ns from the JSON's us).
want_slices = sorted((e['pid'], e['tid'], e['name'], e['cat'], round(e['ts'] * 1e3), round(e['dur'] * 1e3),
                      tuple(sorted(e.get('args', {}).items()))) for e in events if e['ph'] == 'X')
got = sorted(slices)
if len(got) != len(want_slices):
    msgs.append('%d slices, the JSON has %d spans' % (len(got), len(want_slices)))
else:
    off = [(a, b) for a, b in zip(got, want_slices) if a[:4] != b[:4] or a[6] != b[6] or abs(a[4] - b[4]) > 1 or abs(a[5] - b[5]) > 2]
    if off:
        msgs.append('%d slices differ from the JSON, e.g. %s against %s' % (len(off), off[0][0], off[0][1]))
want_counters = collections.Counter((e['pid'], e['name'], round(e['ts'] * 1e3), round(e['args']['value'], 6))
                                    for e in events if e['ph'] == 'C')
if sum(counters.values()) != sum(want_counters.values()):
    msgs.append('%d counter samples, the JSON has %d' % (sum(counters.values()), sum(want_counters.values())))
want_threads = {(e['pid'], e['tid'], e['args']['name']) for e in events if e['ph'] == 'M' and e['name'] == 'thread_name'}
got_threads = {t for t in tracks.values() if isinstance(t[1], int) and t[2]}
if want_threads != got_threads:
    msgs.append('thread tracks differ: %s' % sorted(want_threads ^ got_threads)[:3])
if any(open_by_track.values()):
    msgs.append('slices never ended on %d tracks' % sum(1 for v in open_by_track.values() if v))
print('; '.join(msgs) if msgs else 'ok %d slices, %d counter samples, %d tracks' % (len(got), sum(counters.values()),
                                                                                 len(tracks)))
PY
)
case $verdict in
  ok*) pass "a 2-layer cut, event by event against its JSON: ${verdict#ok }" ;;
  *) fail "a 2-layer cut against its JSON" "$verdict" ;;
esac

# The file name chooses the format; two runs write the same bytes.
run_trnsim run qwen3-32b-trn2 --set model.num_layers=2 --no-intervals --trace "$D/a.pftrace"
run_trnsim run qwen3-32b-trn2 --set model.num_layers=2 --no-intervals --trace "$D/b.pftrace"
if [ "$(head -c 1 "$D/a.pftrace" | od -An -tx1 | tr -d ' ')" = 0a ] && cmp -s "$D/a.pftrace" "$D/b.pftrace"; then
  pass "a .pftrace file is Perfetto's protobuf trace, byte-identical across runs"
else
  fail ".pftrace" "not a protobuf Trace, or two runs differ"
fi

expect_error "--trace-format without --trace" "needs --trace FILE" -- run qwen3-32b-trn2 --trace-format perfetto
expect_error "an unknown --trace-format" "--trace-format" -- run qwen3-32b-trn2 --trace "$D/x" --trace-format xml
[ ! -e "$D/x" ] && pass "no file written for a refused format" || fail "refused format" "$D/x written"
finish
