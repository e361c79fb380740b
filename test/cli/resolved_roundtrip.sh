#!/usr/bin/env bash
# --resolved round trip: the resolved configuration written by a run, fed back as the
# system (or chip), reproduces the run's JSON byte for byte and resolves to itself.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK

same() { cmp -s "$1" "$2"; }

# ---- bench collective ----
COLL=(bench collective --ranks 16 --sizes 1MiB,512MiB)
expect_ok "collective run with --resolved" -- "${COLL[@]}" --system trn2.48xlarge --json "$D/a.json" --resolved "$D/r.yaml"
cp "$OUT" "$D/a.out"
expect_ok "collective run from the resolved file" -- "${COLL[@]}" --system "$D/r.yaml" --json "$D/b.json" --resolved "$D/r2.yaml"
cp "$OUT" "$D/b.out"
check "collective JSON identical from the resolved file" same "$D/a.json" "$D/b.json"
check "collective stdout identical from the resolved file" same "$D/a.out" "$D/b.out"
check "resolved file resolves to itself (system)" same "$D/r.yaml" "$D/r2.yaml"
check "resolved system inlines the chip" grep -q '^  hbm:$' "$D/r.yaml"

# The resolved file is self-contained: it works from another directory by a relative path.
mkdir -p "$D/elsewhere" && cp "$D/r.yaml" "$D/elsewhere/run.yaml"
(cd "$D/elsewhere" && "$TRNSIM" "${COLL[@]}" --system run.yaml --json c.json >/dev/null 2>&1)
check "resolved file works when moved" same "$D/a.json" "$D/elsewhere/c.json"

# Overrides end up in the resolved file: rerunning it without --set gives the same results.
SETS=(--set chip.hbm.bandwidth="3 TB/s" --set chip.collectives.launch_overhead="40 us" --set efa.latency="12 us")
expect_ok "collective run with --set and --resolved" -- "${COLL[@]}" --system trn2.48xlarge "${SETS[@]}" --json "$D/s.json" --resolved "$D/s.yaml"
expect_ok "collective run from the resolved file without --set" -- "${COLL[@]}" --system "$D/s.yaml" --json "$D/s2.json"
check "--set values are recorded in the resolved file" same "$D/s.json" "$D/s2.json"
check "--set changed the results" bash -c "! cmp -s '$D/a.json' '$D/s.json'"
check "--set value appears in the resolved file" grep -q 'launch_overhead: "40 us"' "$D/s.yaml"

# ---- bench matmul ----
MM=(bench matmul --m 1024 --n 2048 --k 512)
expect_ok "matmul run with --resolved" -- "${MM[@]}" --chip trn2 --json "$D/m1.json" --resolved "$D/c.yaml"
expect_ok "matmul run from the resolved chip" -- "${MM[@]}" --chip "$D/c.yaml" --json "$D/m2.json" --resolved "$D/c2.yaml"
check "matmul JSON identical from the resolved chip" same "$D/m1.json" "$D/m2.json"
check "resolved file resolves to itself (chip)" same "$D/c.yaml" "$D/c2.yaml"

# ---- bench hbm ----
expect_ok "hbm run with --resolved" -- bench hbm --chip trn3 --cores 2 --bytes 64MiB --json "$D/h1.json" --resolved "$D/h.yaml"
expect_ok "hbm run from the resolved chip" -- bench hbm --chip "$D/h.yaml" --cores 2 --bytes 64MiB --json "$D/h2.json" --resolved "$D/h2.yaml"
check "hbm JSON identical from the resolved chip" same "$D/h1.json" "$D/h2.json"
check "resolved chip from hbm resolves to itself" same "$D/h.yaml" "$D/h2.yaml"

# ---- every shipped system and chip resolves to a file that resolves to itself ----
for f in "$HW"/systems/*.yaml; do
  n=$(basename "$f" .yaml)
  "$TRNSIM" show system "$n" >"$D/show1.yaml" 2>"$ERR" &&
    "$TRNSIM" show system "$D/show1.yaml" >"$D/show2.yaml" 2>>"$ERR" &&
    same "$D/show1.yaml" "$D/show2.yaml" && pass "show system $n round trip" ||
    fail "show system $n round trip" "stderr: $(head -c 400 "$ERR")"
done
for f in "$HW"/chips/*.yaml; do
  n=$(basename "$f" .yaml)
  "$TRNSIM" show chip "$n" >"$D/show1.yaml" 2>"$ERR" &&
    "$TRNSIM" show chip "$D/show1.yaml" >"$D/show2.yaml" 2>>"$ERR" &&
    same "$D/show1.yaml" "$D/show2.yaml" && pass "show chip $n round trip" ||
    fail "show chip $n round trip" "stderr: $(head -c 400 "$ERR")"
done

finish
