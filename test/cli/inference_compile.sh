#!/usr/bin/env bash
# `trnsim inference-compile` (docs/startup.md 6.5) is the compile fit's own closed form: for
# every inference_compile observation of workloads/calibration/compile_observations.yaml, the
# command at the row's model, TP, batch, sequence, release and compiler arguments prints the
# in-sample figure of `trnsim calibrate` (to 1e-9). Its parts add up, its interval holds the
# figure, a longer sequence or bucketing never takes less time, a model too large for a
# NeuronCore at its TP says so, and bad input gets one clear error line and no output file.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK

expect_ok "calibrate --residuals (the fit's in-sample figures)" -- \
  calibrate "$SRC/workloads/calibration/compile_observations.yaml" --out "$D/c.yaml" --residuals "$D/r.json"

# One command per inference_compile row, as the row states its job.
python3 - "$SRC/workloads/calibration/compile_observations.yaml" >"$D/rows.txt" <<'PY'
import sys, yaml
for o in yaml.safe_load(open(sys.argv[1]))["observations"]:
    if o.get("kind") != "inference_compile":
        continue
    args = ["--model", o["model"], "--tp", str(o["tp"]), "--batch", str(o["batch"]), "--seq", str(o["seq"]),
            "--sdk", str(o["sdk"]), "--system", o.get("system", "trn1.32xlarge"), "--no-intervals"]
    if o.get("compiler_args_override"):
        args.append("--own-compiler-args")
    if o.get("buckets"):
        args.append("--buckets")
    print(o["name"] + "\t" + " ".join(args))
PY
rows=0
while IFS=$'\t' read -r name args; do
  rows=$((rows + 1))
  # shellcheck disable=SC2086
  run_trnsim inference-compile $args --json "$D/row$rows.json"
  [ "$RC" -eq 0 ] || { fail "inference-compile for '$name'" "exit status $RC: $(head -c 300 "$ERR")"; continue; }
  printf '%s\t%s\n' "$name" "$D/row$rows.json" >>"$D/outputs.txt"
done <"$D/rows.txt"
check "the observations hold inference_compile rows ($rows)" test "$rows" -ge 30
record_results --strict "$(python3 - "$D/r.json" "$D/outputs.txt" <<'PY'
import json, sys
fit = {o["name"]: o for o in json.load(open(sys.argv[1]))["observations"]}
for line in open(sys.argv[2]):
    name, path = line.rstrip("\n").split("\t")
    d = json.load(open(path))
    want = fit[name]["in_sample_s"]
    ok = abs(d["compile_s"] / want - 1) < 1e-9
    print(("ok" if ok else "FAIL") + f" inference-compile equals calibrate's in-sample figure for '{name}'"
          + ("" if ok else f": {d['compile_s']} against {want}"))
    parts = d["tracing_s"] + d["priority_s"] + d["rest_s"]
    ok = abs(parts / d["compile_s"] - 1) < 1e-12 and d["graphs"][0]["compile_s"] == d["priority_s"]
    print(("ok" if ok else "FAIL") + f" '{name}': tracing + priority graph + the rest = the compile time")
PY
)"

# The Llama-2-7B row in text, with its interval.
expect_ok "inference-compile nxdi-llama-2-7b-hf (text, interval)" -- \
  inference-compile --model nxdi-llama-2-7b-hf --tp 2 --seq 512 --sdk 2.28
cp "$OUT" "$D/llama.txt"
check "the text names both graphs" grep -q "token_generation_512.*priority" "$D/llama.txt"
# The figure is the fit's in-sample one for the row (compile.yaml's header, one decimal).
want="$(grep -E '^#   NxDI Llama-2-7b-hf compile ' "$SRC/workloads/calibration/compile.yaml" | awk '{print $(NF-4)}')"
check "the text gives the compile time with its 80 % interval" grep -qE "^compile time +${want//./\\.} s \(80 %: " "$D/llama.txt"

# Invariants on a zoo model: a longer sequence, or bucketing, never compiles faster; the interval
# holds the figure.
ic_json() { run_trnsim inference-compile --model llama3.1-8b --tp 8 "$@" --json "$D/inv.json" && cat "$D/inv.json"; }
record_results --strict "$(
  for s in 128 512 2048; do ic_json --seq $s >"$D/seq$s.json"; done
  ic_json --seq 2048 --buckets >"$D/buckets.json"
  python3 - "$D" <<'PY'
import json, sys
d = sys.argv[1]
t = [json.load(open(f"{d}/seq{s}.json")) for s in (128, 512, 2048)]
b = json.load(open(f"{d}/buckets.json"))
ok = t[0]["compile_s"] <= t[1]["compile_s"] <= t[2]["compile_s"]
print(("ok" if ok else "FAIL") + " a longer sequence never compiles faster: " + ", ".join(f"{x['compile_s']:.1f}" for x in t))
ok = len(b["graphs"]) == 10 and b["compile_s"] >= t[2]["compile_s"]
print(("ok" if ok else "FAIL") + f" bucketing to 2,048 compiles 10 graphs in no less time ({b['compile_s']:.1f} s)")
iv = t[1]["interval"]
ok = iv["low"] < t[1]["compile_s"] < iv["high"] and iv["level"] == 0.8
print(("ok" if ok else "FAIL") + f" the 80 % interval holds the figure ({iv['low']:.1f}-{iv['high']:.1f})")
PY
)"

# A model whose weights and KV cache do not fit a NeuronCore at its TP compiles, and the text says
# it cannot load.
expect_ok "inference-compile llama3.1-70b at TP 2" -- inference-compile --model llama3.1-70b --tp 2 --seq 512 --no-intervals
check "too large for a NeuronCore: said in words" grep -q "compiles but cannot load at TP 2" "$OUT"
# Weights that fit with a KV cache that does not: 64 sequences of 4,096 tokens of Llama-2-7B at TP 8
# hold 16 GiB of keys and values per rank (32 layers x 2 x 4 heads x 128 x 4,096 x 64 x 2 bytes)
# beside 1.57 GiB of weights, more than a trn1 NeuronCore's 16 GiB.
expect_ok "inference-compile llama2-7b, 64 sequences of 4,096 at TP 8" -- \
  inference-compile --model llama2-7b --tp 8 --batch 64 --seq 4096 --no-intervals
check "a KV cache too large for a NeuronCore: said in words" \
  grep -q "1.57 GiB of 16-bit weights and a 16.00 GiB KV cache, .* cannot load at TP 8" "$OUT"

# A chip the compile fit has no observation on widens the interval, with the reason.
expect_ok "inference-compile on a Trn3 Gen1 host" -- \
  inference-compile --model qwen3-8b --tp 4 --seq 1024 --system trn3-gen1-ultraserver
check "the Trn3 interval names its distance from the data" grep -q "wider: chip trn3" "$OUT"
# Trainium2 hosts compiled training figures of the fit but no NxD Inference one: the inference
# interval is wider on trn2, with its own reason, and not on trn1, where every inference row was taken.
expect_ok "inference-compile on a trn2.48xlarge host" -- \
  inference-compile --model qwen3-8b --tp 4 --seq 1024 --system trn2.48xlarge
check "the trn2 interval names the missing inference figures" \
  grep -q "wider: chip trn2: the compile fit has no NxD Inference compile with it (trn1)" "$OUT"
check "the trn1 interval is not widened" bash -c '! grep -q "wider:" "$1"' _ "$D/llama.txt"

# Every Hugging Face family the import reads compiles from its config.json (docs/workloads.md 1.1).
for f in gemma-2b gemma-2-9b phi-3-mini-4k-instruct pythia-2.8b starcoder2-3b gpt2 gpt-j-6b opt-1.3b phi-1_5 \
  olmo-2-1124-7b granite-3.2-8b-instruct; do
  expect_ok "inference-compile of test/data/hf/$f.json" -- \
    inference-compile --model "$SRC/test/data/hf/$f.json" --tp 2 --seq 512 --no-intervals
  check "$f: a compile time and a traffic line" bash -c \
    'grep -qE "^compile time +[0-9.]+ s$" "$1" && grep -q "token generation reads" "$1"' _ "$OUT"
done

# Two descriptions of one model agree: where a contributed model's hand-typed architecture
# (compile_models.yaml) is its Hugging Face config, the import compiles in the same time.
while read -r f n args; do
  rm -f "$D/hf.json" "$D/row.json"
  # shellcheck disable=SC2086
  run_trnsim inference-compile --model "$SRC/test/data/hf/$f.json" $args --sdk 2.28 --no-intervals --json "$D/hf.json"
  # shellcheck disable=SC2086
  run_trnsim inference-compile --model "$n" $args --sdk 2.28 --no-intervals --json "$D/row.json"
  check "$f.json compiles as $n ($args)" python3 -c '
import json, sys
a, b = (json.load(open(p))["compile_s"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)' "$D/hf.json" "$D/row.json"
done <<'PAIRS'
gemma-2b nxdi-gemma-2b-it --tp 1 --seq 512 --own-compiler-args
pythia-2.8b nxdi-pythia-2-8b --tp 2 --seq 128
gpt2 nxdi-gpt2 --tp 2 --seq 128
opt-1.3b nxdi-opt-1-3b --tp 1 --seq 128
phi-1_5 nxdi-phi-1-5 --tp 2 --seq 128 --own-compiler-args
olmo-2-1124-7b nxdi-olmo-2-1124-7b --tp 8 --seq 128
PAIRS

# Explicit buckets: NxD Inference's default ones, listed, give what --buckets gives; another
# context-encoding bucket never takes less time; bad lists are refused at their option.
run_trnsim inference-compile --model qwen3-8b --tp 8 --seq 4096 --buckets --no-intervals --json "$D/pow2.json"
run_trnsim inference-compile --model qwen3-8b --tp 8 --seq 4096 --no-intervals --json "$D/listed.json" \
  --cte-buckets 128,256,512,1024,2048,4096 --tkg-buckets 128,256,512,1024,2048,4096
check "listing the powers of two equals --buckets" python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a["compile_s"] == b["compile_s"] and a["cte_buckets"] == b["cte_buckets"] else 1)' "$D/pow2.json" "$D/listed.json"
expect_ok "inference-compile with NxD Inference's bucket lists" -- \
  inference-compile --model qwen3-8b --tp 4 --seq 4096 --cte-buckets 512,1024,2048,4096 --tkg-buckets 4096 \
  --no-intervals --json "$D/lists.json"
check "the text names both lists" \
  grep -q "context-encoding buckets 512, 1024, 2048, 4096, token-generation buckets 4096" "$OUT"
check "the JSON has both lists" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["cte_buckets"] == [512, 1024, 2048, 4096] and d["tkg_buckets"] == [4096] else 1)' "$D/lists.json"
run_trnsim inference-compile --model qwen3-8b --tp 4 --seq 4096 --cte-buckets 4096 --no-intervals --json "$D/one.json"
run_trnsim inference-compile --model qwen3-8b --tp 4 --seq 4096 --cte-buckets 2048,4096 --no-intervals --json "$D/two.json"
check "another context-encoding bucket never takes less time" python3 -c '
import json, sys
a, b = (json.load(open(p))["compile_s"] for p in sys.argv[1:3])
sys.exit(0 if b >= a else 1)' "$D/one.json" "$D/two.json"
expect_error "inference-compile: decreasing buckets" "--cte-buckets" "increasing lengths" -- \
  inference-compile --model qwen3-8b --seq 4096 --cte-buckets 1024,512
expect_error "inference-compile: a bucket above --seq" "--tkg-buckets" "to --seq (4096)" -- \
  inference-compile --model qwen3-8b --seq 4096 --tkg-buckets 8192

expect_error "inference-compile without --model" "--model" "missing" -- inference-compile --tp 2 --seq 512
expect_error "inference-compile without --seq" "--seq" "sequence length" -- inference-compile --model qwen3-8b
expect_error "inference-compile: TP above the heads" "--tp" "32 attention heads" -- \
  inference-compile --model llama3.1-8b --tp 64 --seq 512
expect_error "inference-compile: sequence above the positions" "--seq" "positions" -- \
  inference-compile --model nxdi-gpt2 --tp 2 --seq 4096
expect_error "inference-compile: a bad release" "--sdk" "2.28" -- inference-compile --model qwen3-8b --seq 512 --sdk two
expect_error "inference-compile: an unknown contributed model, with a hint" "nxdi-llama-2-7b" "did you mean 'nxdi-llama-2-7b-hf'" -- \
  inference-compile --model nxdi-llama-2-7b --tp 2 --seq 512
expect_error "inference-compile: --set on a contributed model" "--set" -- \
  inference-compile --model nxdi-gpt2 --seq 128 --set num_layers=2
expect_error "inference-compile: an unknown system" "--system" -- \
  inference-compile --model qwen3-8b --seq 512 --system trn9 --json "$OUTDIR/x.json"
expect_error "inference-compile: --tp 0" "--tp" -- inference-compile --model qwen3-8b --seq 512 --tp 0

finish
