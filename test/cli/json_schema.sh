#!/usr/bin/env bash
# JSON output schema of the bench commands (SI units): key names, types and sanity of the
# values, checked with python3's json module (one python3 process for all files).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK

expect_ok "bench collective --json" -- bench collective --ranks 16 --sizes 1KiB,1MiB,64MiB --json "$D/coll.json"
expect_ok "bench collective --json (all-gather, forced ring)" -- bench collective --op all-gather --algorithm ring --ranks 8 --sizes 8MiB --json "$D/ag.json"
expect_ok "bench matmul --json" -- bench matmul --m 1024 --n 1024 --k 1024 --json "$D/mm.json"
expect_ok "bench hbm --json" -- bench hbm --cores 2 --bytes 64MiB --json "$D/hbm.json"

# Prints "ok DESC" or "FAIL DESC: why" per check.
results=$(python3 - "$D" 2>&1 <<'EOF'
import json, math, os, sys

d_dir = sys.argv[1]

def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

def close(a, b):
    return abs(a - b) <= 1e-9 * abs(b)

def coll(d):
    assert isinstance(d, list), "not a list"
    assert len(d) == 3, "expected one row per size, got %d" % len(d)
    for r in d:
        assert isinstance(r, dict), "row is not an object"
        for k in ("size_bytes", "time_s", "algbw_GBps", "busbw_GBps", "algorithm"):
            assert k in r, "missing key " + k
        for k in ("size_bytes", "time_s", "algbw_GBps", "busbw_GBps"):
            assert num(r[k]) and r[k] > 0, "%s = %r is not a positive number" % (k, r[k])
        assert isinstance(r["algorithm"], str) and r["algorithm"], "algorithm is not a string"
        assert close(r["algbw_GBps"], r["size_bytes"] / r["time_s"] / 1e9), "algbw != size/time/1e9"
        assert close(r["busbw_GBps"], r["algbw_GBps"] * 2 * 15 / 16), "all-reduce busbw != algbw x 2(n-1)/n"
    assert [r["size_bytes"] for r in d] == [1024, 1048576, 67108864], "sizes %r" % [r["size_bytes"] for r in d]

def ag(d):
    assert isinstance(d, list) and len(d) == 1, "expected one row"
    assert d[0]["algorithm"] == "ring", "algorithm %r" % d[0]["algorithm"]
    assert close(d[0]["busbw_GBps"], d[0]["algbw_GBps"] * 7 / 8), "all-gather busbw != algbw x (n-1)/n"

def mm(d):
    assert isinstance(d, dict), "not an object"
    for k in ("time_s", "tflops", "utilization"):
        assert k in d, "missing key " + k
        assert num(d[k]) and d[k] > 0, "%s = %r is not a positive number" % (k, d[k])
    assert d["utilization"] <= 1.0, "utilization above 1: %r" % d["utilization"]
    assert close(d["tflops"], 2 * 1024 ** 3 / d["time_s"] / 1e12), "tflops != 2MNK/time/1e12"

def hbm(d):
    assert isinstance(d, dict), "not an object"
    for k in ("time_s", "bandwidth_Bps"):
        assert k in d, "missing key " + k
        assert num(d[k]) and d[k] > 0, "%s = %r is not a positive number" % (k, d[k])
    assert close(d["bandwidth_Bps"], 2 * 64 * 2 ** 20 / d["time_s"]), "bandwidth != bytes/time"
    assert d["bandwidth_Bps"] <= 2.9e12, "above the chip's HBM bandwidth"

for desc, name, check in [
    ("bench collective JSON: list of rows with size_bytes, time_s, algbw_GBps, busbw_GBps, algorithm", "coll.json", coll),
    ("bench collective JSON: forced algorithm and all-gather busbw", "ag.json", ag),
    ("bench matmul JSON: object with time_s, tflops, utilization", "mm.json", mm),
    ("bench hbm JSON: object with time_s, bandwidth_Bps", "hbm.json", hbm),
]:
    try:
        with open(os.path.join(d_dir, name)) as f:
            check(json.load(f))
        print("ok " + desc)
    except Exception as e:  # AssertionError, missing file, bad JSON
        print("FAIL %s: %s: %s" % (desc, type(e).__name__, e))
EOF
)
n=0
while IFS= read -r line; do
  case $line in
    "ok "*) pass "${line#ok }"; n=$((n + 1)) ;;
    "FAIL "*) fail "${line#FAIL }"; n=$((n + 1)) ;;
    *) fail "python3 output: $line" ;;
  esac
done <<<"$results"
[ "$n" -eq 4 ] || fail "all JSON checks ran" "python3 printed $n results"

finish
