#!/usr/bin/env bash
# Catalogue of bad inputs (docs/robustness.md): one row per case, across every kind of input
# file (chip, system, model, scenario, sweep, the three calibration files, the compile
# observations, Hugging Face config.json) and the command line. Each row writes its input
# into $WORK, runs trnsim with its output options pointing into $OUTDIR, and requires:
#   - exit status 2 and exactly one line on stderr, "trnsim: error: PLACE: ...", where PLACE is
#     FILE:LINE:COL (files), the option (--json, --set #N '...') or the file itself;
#   - the expected text (the place, the dotted key and what was expected);
#   - no stack trace, sanitizer report or "internal error";
#   - no output file, and no file left anywhere in $WORK (temporary files included).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
make_copies
D=$WORK/in
O=$OUTDIR
mkdir -p "$D"

# ---- the checker ----------------------------------------------------------------------
CASES=0
snapshot() { find "$WORK" -mindepth 1 ! -path "$OUT" ! -path "$ERR" | sort; }
# bad DESC EXPECTED... -- ARGS...   (environment assignments go before `bad`)
bad() {
  local desc=$1 before after extra=() line
  shift
  CASES=$((CASES + 1))
  before=$(snapshot)
  expect_error "$desc" "$@"
  after=$(snapshot)
  line=$(head -n 1 "$ERR")
  [ -z "${CATALOGUE_VERBOSE:-}" ] || echo "    $line"
  [[ $line =~ ^trnsim:\ error:\ (--[a-z]|argument\ [A-Z]+:\ |[A-Z_]+:\ |[^\ ]*/[^\ ]*:|[^\ ]+:[0-9]+:[0-9]+:\ ) ]] ||
    extra+=("the line does not start with a place (FILE:LINE:COL, a path, an --option, an argument or a variable): $line")
  if grep -qE 'internal error|terminate called|AddressSanitizer|runtime error:|Assertion|Aborted' "$ERR"; then
    extra+=("crash or internal error on stderr")
  fi
  [ "$before" = "$after" ] || extra+=("files appeared in \$WORK: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')")
  if [ ${#extra[@]} -gt 0 ]; then
    fail "$desc (catalogue)" "${extra[@]}"
    comm -13 <(echo "$before") <(echo "$after") | xargs -r rm -rf
  fi
}
JSON=(--json "$O/out.json")

# Small valid inputs the bad ones are made from.
cat >"$D/tiny.yaml" <<'EOF'
name: tiny
architecture: llama
source: "bad-input catalogue"
hidden_size: 512
num_layers: 2
num_heads: 8
num_kv_heads: 8
head_dim: 64
intermediate_size: 1024
vocab_size: 1000
max_position: 2048
mlp: swiglu
norm: rmsnorm
causal: true
tied_embeddings: false
qk_norm: false
attention_bias: false
num_experts: 0
experts_per_token: 0
moe_intermediate_size: 0
sliding_window: 0
sliding_window_pattern: none
EOF
cat >"$D/scenario.yaml" <<EOF
name: tiny-trn2
system: trn2.48xlarge
model: $D/tiny.yaml
lnc: 2
mode: compiled
parallel:
  tp: 4
  pp: 1
  microbatches: 1
  dp: 1
  fsdp: 16
batch:
  global_batch: 16
  seq_len: 1024
precision:
  compute: bf16
  master_weights: fp32
  optimizer: adamw
checkpointing: none
EOF
S=$D/scenario.yaml
HF=$SRC/test/data/hf/llama-3.1-8b.json
# A data tree for TRNSIM_HOME whose calibration files can be edited: workloads/calibration is
# a copy, everything else links to the source tree.
home_with() {  # home_with NAME FILE SED-SCRIPT: sets H to a tree where FILE (under workloads/calibration) is edited
  H=$WORK/home-$1
  mkdir -p "$H/workloads/calibration"
  ln -s "$SRC/hw" "$H/hw"
  for d in models scenarios sweeps; do ln -s "$SRC/workloads/$d" "$H/workloads/$d"; done
  cp "$SRC"/workloads/calibration/*.yaml "$H/workloads/calibration/"
  edit_copy "$SRC/workloads/calibration/$2" "$H/workloads/calibration/$2" "$3"
}
expect_ok "the tiny model loads in the tiny scenario (so every failure comes from its one edit)" \
  -- run "$S" --mode compiled
expect_ok "the tiny scenario passes startup's checks" -- startup "$S" --price-per-hour 1

# ---- chip files (hw/configs/chips) ------------------------------------------------------
edit_copy "$CHIP" "$D/chip_syntax.yaml" 's/^  stacks: 4\(.*\)/  stacks: [4\1/'
bad "chip: YAML syntax error (unclosed list)" "re:$D/chip_syntax\.yaml:[0-9]+:[0-9]+: YAML syntax error" \
  -- bench matmul --chip "$D/chip_syntax.yaml" --m 128 --n 128 --k 128
edit_copy "$CHIP" "$D/chip_type.yaml" 's/^  physical: 8\(.*\)/  physical: eight\1/'
loc_of "$D/chip_type.yaml" "  physical: eight" eight
bad "chip: wrong type (a word for a count)" "$LOC: cores.physical: expected a number (physical NeuronCores per chip), found 'eight'" \
  -- show chip "$D/chip_type.yaml"
edit_copy "$CHIP" "$D/chip_key.yaml" 's/^  engines_per_core:/  engine_per_core:/'
loc_of "$D/chip_key.yaml" "  engine_per_core:" engine_per_core
bad "chip: unknown (misspelt) key" "$LOC: dma.engine_per_core: unknown key 'engine_per_core' (did you mean 'engines_per_core'?)" \
  -- bench hbm --chip "$D/chip_key.yaml" --bytes 1MiB
edit_copy "$CHIP" "$D/chip_unit.yaml" 's/^  capacity: "96 GiB"/  capacity: 96/'
loc_of "$D/chip_unit.yaml" "  capacity: 96" 96
bad "chip: size without a unit" "$LOC: hbm.capacity: bare number '96' has no unit; expected a size in bytes with a unit" \
  -- bench hbm --chip "$D/chip_unit.yaml" --bytes 1MiB
edit_copy "$CHIP" "$D/chip_huge.yaml" 's/^  capacity: "96 GiB"/  capacity: "1e30 GiB"/'
loc_of "$D/chip_huge.yaml" '  capacity: "1e30' '"1e30'
bad "chip: a size that would overflow byte counters (1e30 GiB)" "$LOC: hbm.capacity: value '1e30 GiB' is too large: expected at most 1024 PiB" \
  -- bench hbm --chip "$D/chip_huge.yaml" --bytes 1MiB
edit_copy "$CHIP" "$D/chip_zero.yaml" 's/^  physical: 8\(.*\)/  physical: 0\1/'
loc_of "$D/chip_zero.yaml" "  physical: 0" 0
bad "chip: zero count" "$LOC: cores.physical: value 0 is out of range: expected >= 1 and <= 64" \
  -- bench matmul --chip "$D/chip_zero.yaml" --m 128 --n 128 --k 128
edit_copy "$CHIP" "$D/chip_lnc.yaml" 's/^  lnc_modes: \[1, 2\]/  lnc_modes: [1, 3]/'
loc_of "$D/chip_lnc.yaml" "  lnc_modes: [1, 3]" "[1"
bad "chip: logical core size that does not divide the cores" "$LOC: cores.lnc_modes: LNC 3 does not divide 8 physical cores" \
  -- show chip "$D/chip_lnc.yaml"

# ---- system files (hw/configs/systems) --------------------------------------------------
edit_copy "$SYS" "$D/sys_missing.yaml" '/^  vcpus:/d'
loc_of "$D/sys_missing.yaml" "  memory:" memory
bad "system: missing key" "$LOC: host.vcpus: missing key 'vcpus' (vCPUs of one host server)" -- show system "$D/sys_missing.yaml"
edit_copy "$SYS" "$D/sys_neg.yaml" 's/^chips: 16\(.*\)/chips: -16\1/'
loc_of "$D/sys_neg.yaml" "chips: -16" -16
bad "system: negative count" "$LOC: chips: value -16 is out of range: expected >= 1 and <= 4096" \
  -- bench collective --system "$D/sys_neg.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/sys_unit.yaml" 's/^  bandwidth_per_nic: "200 Gbps"/  bandwidth_per_nic: "200 GB"/'
loc_of "$D/sys_unit.yaml" '  bandwidth_per_nic: "200 GB"' '"200'
bad "system: wrong unit (bytes for a bandwidth)" "$LOC: efa.bandwidth_per_nic: unit 'GB' is a size in bytes, not a bandwidth" \
  -- bench collective --system "$D/sys_unit.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/sys_torus.yaml" '0,/^    - {size: 4,/s//    - {size: 3,/'
loc_of "$D/sys_torus.yaml" "    - {size: 3" "-"
bad "system: torus that does not multiply to the chip count" "$LOC: topology.dims: torus of 12 chips does not match chips: 16" \
  -- bench collective --system "$D/sys_torus.yaml" --sizes 1KiB
mkdir -p "$D/a_chip_dir"
edit_copy "$SYS" "$D/sys_chipdir.yaml" "s#^chip: .*#chip: $D/a_chip_dir#"
loc_of "$D/sys_chipdir.yaml" "chip: $D" "$D"
bad "system: a directory where the chip file belongs" "$LOC: chip: '$D/a_chip_dir' is a directory, expected a YAML file" \
  -- show system "$D/sys_chipdir.yaml"
ln -s /dev/zero "$D/zero.yaml"
edit_copy "$SYS" "$D/sys_dev.yaml" "s#^chip: .*#chip: $D/zero.yaml#"
loc_of "$D/sys_dev.yaml" "chip: $D" "$D"
bad "system: a device where the chip file belongs (would never end)" "$LOC: chip: " "is not a regular file, expected a YAML file" \
  -- show system "$D/sys_dev.yaml"

# ---- any YAML file: expansion and include limits ---------------------------------------------
{
  echo 'a: &a [x, x, x, x, x, x, x, x, x, x]'
  prev=a
  for n in b c d e f g h i; do
    echo "$n: &$n [*$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev]"
    prev=$n
  done
} >"$D/aliases.yaml"
bad "YAML: nested aliases that expand to 10^9 values" "re:$D/aliases\.yaml:[0-9]+:[0-9]+: the document expands to more than 100,000 values" \
  -- show chip "$D/aliases.yaml"
for i in $(seq 0 11); do printf 'include: [fan%d.yaml, fan%d.yaml]\n' $((i + 1)) $((i + 1)) >"$D/fan$i.yaml"; done
echo "name: leaf" >"$D/fan12.yaml"
bad "YAML: includes that fan out to 4096 files" "include: more than 1000 files included" -- show system "$D/fan0.yaml"
printf 'name: x\nchips: 16\nname: y\n' >"$D/dup.yaml"
bad "YAML: duplicate key" "$D/dup.yaml:3:1: name: duplicate key" -- show system "$D/dup.yaml"

# ---- model files (workloads/models) -------------------------------------------------------
edit_copy "$D/tiny.yaml" "$D/m_hidden.yaml" 's/^hidden_size: 512/hidden_size: 1e12/'
bad "model: hidden_size that would overflow FLOP counters (1e12)" \
  "$D/m_hidden.yaml:4:14: hidden_size: value 1e12 is out of range: expected > 0 and <= 262144" \
  -- run "$S" --model "$D/m_hidden.yaml" "${JSON[@]}"
edit_copy "$D/tiny.yaml" "$D/m_kv.yaml" 's/^num_kv_heads: 8/num_kv_heads: 3/'
bad "model: KV heads that do not divide the query heads" "$D/m_kv.yaml:7:15: num_kv_heads: 3 KV heads do not divide 8 query heads" \
  -- run "$S" --model "$D/m_kv.yaml" "${JSON[@]}"
edit_copy "$D/tiny.yaml" "$D/m_missing.yaml" '/^vocab_size:/d'
bad "model: missing key" "$D/m_missing.yaml:1:1: vocab_size: missing key 'vocab_size' (vocabulary size, tokens)" \
  -- run "$S" --model "$D/m_missing.yaml" "${JSON[@]}"
edit_copy "$D/tiny.yaml" "$D/m_arch.yaml" 's/^architecture: llama/architecture: lama/'
bad "model: unknown architecture" "$D/m_arch.yaml:2:15: architecture: unknown value 'lama'" "(did you mean 'llama'?)" \
  -- run "$S" --model "$D/m_arch.yaml" "${JSON[@]}"
edit_copy "$D/tiny.yaml" "$D/m_string.yaml" 's/^num_layers: 2/num_layers: "2"/'
bad "model: a quoted string where a count belongs" "$D/m_string.yaml:5:13: num_layers: expected a number (transformer blocks), found the string \"2\"" \
  -- run "$S" --model "$D/m_string.yaml" "${JSON[@]}"
edit_copy "$D/tiny.yaml" "$D/m_layers.yaml" 's/^num_layers: 2/num_layers: 2000000000/'
bad "model: a layer count that would explode the graph" "$D/m_layers.yaml:5:13: num_layers: value 2000000000 is out of range: expected >= 1 and <= 4096" \
  -- run "$S" --model "$D/m_layers.yaml" "${JSON[@]}"

# ---- scenario files (workloads/scenarios) -------------------------------------------------
edit_copy "$S" "$D/s_tp.yaml" 's/^  tp: 4/  tp: 3/'
bad "scenario: TP degree that does not divide the heads" "$D/s_tp.yaml:7:7: parallel.tp: tp 3 does not divide the model's 8 attention heads" \
  -- run "$D/s_tp.yaml" "${JSON[@]}" --trace "$O/trace.json"
edit_copy "$S" "$D/s_seq.yaml" 's/^  seq_len: 1024/  seq_len: 4096/'
loc_of "$D/s_seq.yaml" "  seq_len: 4096" 4096
bad "scenario: sequence length over the model's limit" "$LOC: batch.seq_len: sequence length 4096 is over the model's limit of 2048" \
  -- run "$D/s_seq.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_world.yaml" 's/^  fsdp: 16/  fsdp: 8/'
loc_of "$D/s_world.yaml" "  tp: 4" tp
bad "scenario: layout whose ranks do not match the chips" "$LOC: parallel: tp x pp x dp x fsdp = 32 ranks, but 16 chips at LNC=2 have 64" \
  -- run "$D/s_world.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_batch.yaml" 's/^  global_batch: 16/  global_batch: 4611686018427387904/'
loc_of "$D/s_batch.yaml" "  global_batch: 46" 46
bad "scenario: batch of 2^62 sequences" "$LOC: batch.global_batch: value 4611686018427387904 is out of range: expected >= 0 and <= 1e+09" \
  -- run "$D/s_batch.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_divide.yaml" 's/^  global_batch: 16/  global_batch: 24/'
bad "scenario: batch that does not divide among the replicas" "$D/s_divide.yaml:13:3: batch: 24 sequences do not divide into dp x fsdp x microbatches = 16" \
  -- run "$D/s_divide.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_model.yaml" 's#^model: .*#model: qwen3-33b#'
bad "scenario: unknown model name" "$D/s_model.yaml:3:8: model: unknown model 'qwen3-33b' (did you mean 'qwen3-32b'?)" \
  -- run "$D/s_model.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_mode.yaml" 's/^mode: compiled/mode: fast/'
bad "scenario: unknown execution mode" "$D/s_mode.yaml:5:7: mode: unknown value 'fast': expected one of eager, compiled" \
  -- run "$D/s_mode.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_type.yaml" 's/^parallel:$/parallel: 64/; /^  tp: 4/d; /^  pp: 1/d; /^  microbatches: 1/d; /^  dp: 1/d; /^  fsdp: 16/d'
bad "scenario: a number where a section belongs" "$D/s_type.yaml:6:11: parallel: expected a map (parallel layout), found a scalar" \
  -- run "$D/s_type.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_system.yaml" 's/^system: trn2.48xlarge/system: trn2.48xlarg/'
bad "scenario: unknown system name" "$D/s_system.yaml:2:9: system: unknown system 'trn2.48xlarg' (did you mean 'trn2.48xlarge'?)" \
  -- run "$D/s_system.yaml" "${JSON[@]}"
edit_copy "$S" "$D/s_sdk.yaml" 's/^mode: compiled/mode: compiled\nsdk: "two.six"/'
loc_of "$D/s_sdk.yaml" 'sdk: "two.six"' '"two'
bad "scenario: an SDK release that is not one" "$LOC: system.chip.collectives.sdk: expected a Neuron SDK release such as 2.6, 2.18 or 2.15.2 (or empty for the current runtime), got 'two.six'" \
  -- run "$D/s_sdk.yaml" "${JSON[@]}"
bad "bench: --set of a bad SDK release" "--set #1 'chip.collectives.sdk=2.x': chip.collectives.sdk: expected a Neuron SDK release" \
  -- bench collective --system trn1.32xlarge --ranks 8 --sizes 1MiB --set chip.collectives.sdk=2.x "${JSON[@]}"
bad "scenario: --set of an unknown system" "--set #1 'system=trn9': system: unknown system 'trn9'" \
  -- run "$S" --set system=trn9 "${JSON[@]}"
bad "scenario: missing file" "argument SCENARIO: scenario file '$D/nope.yaml' does not exist" -- run "$D/nope.yaml" "${JSON[@]}"
mkdir -p "$D/dir.yaml"
bad "scenario: a directory where the file belongs" "argument SCENARIO: '$D/dir.yaml' is a directory, expected a YAML file" \
  -- startup "$D/dir.yaml" "${JSON[@]}"

# ---- sweep files (workloads/sweeps) -------------------------------------------------------
cat >"$D/sweep_ok.yaml" <<EOF
name: catalogue
command: run
scenario: $S
axes:
  - key: parallel.tp
    values: [2, 4]
EOF
edit_copy "$D/sweep_ok.yaml" "$D/sw_key.yaml" 's/^axes:/axis:/'
bad "sweep: unknown key" "$D/sw_key.yaml:4:1: axis: unknown key 'axis' (did you mean 'axes'? expected name, command, scenario, axes)" \
  -- sweep "$D/sw_key.yaml" --db "$O/out.sqlite"
edit_copy "$D/sweep_ok.yaml" "$D/sw_axis_key.yaml" 's/key: parallel.tp/key: parallel.tpp/'
bad "sweep: misspelt axis key (before the database is created)" \
  "$D/sw_axis_key.yaml:5:10: parallel.tpp: unknown key 'tpp' (did you mean 'tp'?)" -- sweep "$D/sw_axis_key.yaml" --db "$O/out.sqlite"
edit_copy "$D/sweep_ok.yaml" "$D/sw_axis_val.yaml" 's/^    values: \[2, 4\]/    values: [2, four]/'
bad "sweep: axis value of the wrong type" \
  "$D/sw_axis_val.yaml:6:17: parallel.tp: expected a number (tensor-parallel degree), found 'four'" \
  -- sweep "$D/sw_axis_val.yaml" --db "$O/out.sqlite"
edit_copy "$D/sweep_ok.yaml" "$D/sw_scn.yaml" "s#^scenario: .*#scenario: qwen3-32b-trn9#"
bad "sweep: unknown scenario (before the database is created)" "$D/sw_scn.yaml:3:11: scenario: unknown scenario 'qwen3-32b-trn9'" \
  -- sweep "$D/sw_scn.yaml" --db "$O/out.sqlite"
edit_copy "$D/sweep_ok.yaml" "$D/sw_vals.yaml" 's/^    values: \[2, 4\]/    values: []/'
bad "sweep: empty axis" "$D/sw_vals.yaml:5:5: axes[0].values: expected a non-empty list of values" \
  -- sweep "$D/sw_vals.yaml" --db "$O/out.sqlite"
edit_copy "$D/sweep_ok.yaml" "$D/sw_cmd.yaml" 's/^command: run/command: simulate/'
bad "sweep: unknown command" "$D/sw_cmd.yaml:2:10: command: expected run or startup, found 'simulate'" \
  -- sweep "$D/sw_cmd.yaml" --db "$O/out.sqlite"
bad "sweep: database path that cannot be created" "--db /proc/trnsim-catalogue.sqlite: " \
  -- sweep "$D/sweep_ok.yaml" --db /proc/trnsim-catalogue.sqlite
echo "not a database" >"$D/text.sqlite"
bad "merge: an input that is not a sweep database" "$D/text.sqlite: not a sweep database" \
  -- merge "$O/out.sqlite" "$D/text.sqlite"

# ---- calibration files ----------------------------------------------------------------------
# hw/configs/calibration/collectives.yaml (included by every chip file)
edit_copy "$HW/calibration/collectives.yaml" "$D/collectives.yaml" 's/^  launch_overhead: "\(.*\) us"/  launch_overhead: \1/'
edit_copy "$CHIP" "$D/chip_cal.yaml" "s#^include: .*#include: $D/collectives.yaml#"
loc_of "$D/collectives.yaml" "  launch_overhead: 5" "5"
bad "collectives calibration: overhead without a unit" "$LOC: collectives.launch_overhead: bare number" "has no unit; expected a time with a unit" \
  -- bench hbm --chip "$D/chip_cal.yaml" --bytes 1MiB
# workloads/calibration/runtime.yaml (merged under every scenario)
home_with rt runtime.yaml 's/^  kernel_efficiency: [0-9.]*/  kernel_efficiency: 1.5/'
loc_of "$H/workloads/calibration/runtime.yaml" "  kernel_efficiency: 1.5" 1.5
TRNSIM_HOME=$H bad "runtime calibration: efficiency above 1" \
  "$LOC: runtime.kernel_efficiency: value 1.5 is out of range: expected > 0 and <= 1" -- run "$S" "${JSON[@]}"
# workloads/calibration/compile.yaml (startup and flexattention)
home_with cp compile.yaml 's/^  alpha: \([0-9.]*\)/  alpha: "\1 s"/'
loc_of "$H/workloads/calibration/compile.yaml" "  alpha: " '"'
TRNSIM_HOME=$H bad "compile calibration: a time where a number belongs" \
  "$LOC: compile_params.alpha: expected a number" -- startup "$S" "${JSON[@]}"
home_with un compile.yaml 's/^  xla_factor: 0\.[0-9]*$/  xla_factor: wide/'
loc_of "$H/workloads/calibration/compile.yaml" "  xla_factor: wide" wide
TRNSIM_HOME=$H bad "compile calibration: a word for an uncertainty" \
  "$LOC: uncertainty.xla_factor: expected a number >= 0" -- startup "$S" --sensitivity "${JSON[@]}"
home_with ms compile.yaml 's/^compile_params:/compile_parameters:/'
TRNSIM_HOME=$H bad "compile calibration: missing section" "compile.yaml:" "compile_params: missing section 'compile_params'" \
  -- flexattention "${JSON[@]}"
# workloads/calibration/compile_models.yaml (inference-compile's contributed models)
home_with im compile_models.yaml '0,/^    num_layers: 36$/s//    num_layers: many/'
loc_of "$H/workloads/calibration/compile_models.yaml" "    num_layers: many" many
TRNSIM_HOME=$H bad "NxD Inference models file: a word for a count" "$LOC: models[0].num_layers: " \
  -- inference-compile --model nxdi-gpt2 --seq 128 "${JSON[@]}"
# workloads/calibration/compile_observations.yaml (trnsim calibrate)
OBS=$SRC/workloads/calibration/compile_observations.yaml
cp "$SRC/workloads/calibration/compile_models.yaml" "$D/"  # the copies' models file, beside them
edit_copy "$OBS" "$D/obs_unit.yaml" '0,/^    value: "184.6 s"/s//    value: 184.6/'
loc_of "$D/obs_unit.yaml" "    value: 184.6" 184.6
bad "observations: a time without a unit" "$LOC: observations[0].value: bare number '184.6' has no unit" \
  -- calibrate "$D/obs_unit.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_scn.yaml" '0,/^    scenario: qwen3-32b-trn2/s//    scenario: qwen3-32b-trn5/'
loc_of "$D/obs_scn.yaml" "    scenario: qwen3-32b-trn5" qwen3
bad "observations: unknown scenario" "$LOC: observations[0].scenario: unknown scenario 'qwen3-32b-trn5'" \
  -- calibrate "$D/obs_scn.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_sigma.yaml" 's/^  alpha: 0\.\([0-9]*\)\(.*\)$/  alpha: 0.\1x\2/'
loc_of "$D/obs_sigma.yaml" "  alpha: 0." "0."
bad "observations: prior sigma that is not a number" "$LOC: prior_log_sigma.alpha: expected a positive number" \
  -- calibrate "$D/obs_sigma.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_kind.yaml" '0,/^    kind: first_step/s//    kind: first_stp/'
loc_of "$D/obs_kind.yaml" "    kind: first_stp" first_stp
bad "observations: unknown kind" "$LOC: observations[0].kind: unknown value 'first_stp'" "did you mean 'first_step'" \
  -- calibrate "$D/obs_kind.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_trial.yaml" 's/"compile.trial_steps=10", "system.chip.collectives.sdk=2.3"/"compile.trial_steps=0", "system.chip.collectives.sdk=2.3"/'
loc_of "$D/obs_trial.yaml" "    kind: precompile" precompile
bad "observations: a precompile job without a trial run" \
  "$LOC: observations[4].kind: a precompile observation needs mode compiled, compile.parallel_compile and compile.trial_steps > 0" \
  -- calibrate "$D/obs_trial.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_tp.yaml" '0,/^    tp: [0-9]*$/{/^    tp: [0-9]*$/d}'
bad "observations: an inference row without its TP degree" "observations[5].tp: missing key 'tp' (needed by kind inference_compile)" \
  -- calibrate "$D/obs_tp.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_model.yaml" '0,/^    model: nxdi-afm-4-5b-base/s//    model: nxdi-afm-45b/'
loc_of "$D/obs_model.yaml" "    model: nxdi-afm-45b" nxdi
bad "observations: an inference model missing from the models file" "$LOC: observations[5].model: unknown model 'nxdi-afm-45b'" \
  -- calibrate "$D/obs_model.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_sdk.yaml" '0,/^    sdk: "2.28"/s//    sdk: "two"/'
loc_of "$D/obs_sdk.yaml" '    sdk: "two"' '"'
bad "observations: a release that is not major.minor" "$LOC: observations[5].sdk: expected a release such as \"2.28\", found 'two'" \
  -- calibrate "$D/obs_sdk.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_traffic.yaml" '0,/^    tkg_read: "8.60 GB"/s//    tkg_read: "8.60 s"/'
loc_of "$D/obs_traffic.yaml" '    tkg_read: "8.60 s"' '"'
bad "observations: a traffic figure in seconds" "$LOC: observations[5].tkg_read: unit 's' is a time, not a size in bytes" \
  -- calibrate "$D/obs_traffic.yaml" --out "$O/out.yaml"
edit_copy "$OBS" "$D/obs_models.yaml" 's/^models: compile_models.yaml/models: compile_modls.yaml/'
bad "observations: models file missing" "models: " "compile_modls.yaml" -- calibrate "$D/obs_models.yaml" --out "$O/out.yaml"
touch "$D/regular-file"
bad "calibrate: output inside a regular file" "--out $D/regular-file/c.yaml: '$D/regular-file' is not a directory" -- calibrate "$OBS" --out "$D/regular-file/c.yaml"

# ---- Hugging Face config.json ----------------------------------------------------------------
bad "HF: unsupported architecture" "$SRC/test/data/hf/t5-small.json:2:3: architectures: unsupported architecture 'T5ForConditionalGeneration'; supported: LlamaForCausalLM" \
  -- run "$S" --model "$SRC/test/data/hf/t5-small.json" "${JSON[@]}"
bad "HF: truncated JSON" "re:$SRC/test/data/hf/truncated\.json:[0-9]+:[0-9]+: invalid JSON at byte" \
  -- run "$S" --model "$SRC/test/data/hf/truncated.json" "${JSON[@]}"
mkdir -p "$D/overflow"
sed 's/"hidden_size": 4096/"hidden_size": 1e400/' "$HF" >"$D/overflow/config.json"
bad "HF: a number that overflows a double" "$D/overflow/config.json:10:18: invalid JSON: number overflow parsing '1e400'" \
  -- run "$S" --model "$D/overflow/config.json" "${JSON[@]}"
mkdir -p "$D/huge"
sed 's/"hidden_size": 4096/"hidden_size": 1e12/' "$HF" >"$D/huge/config.json"
bad "HF: hidden_size 1e12" "$D/huge/config.json:10:3: hidden_size: value 1000000000000.0 is out of range" \
  -- run "$S" --model "$D/huge/config.json" "${JSON[@]}"
mkdir -p "$D/big"
sed 's/"hidden_size": 4096/"hidden_size": 1000000/' "$HF" >"$D/big/config.json"
bad "HF: hidden_size beyond the zoo's range" "$D/big/config.json:10:3: hidden_size: value 1000000 is out of range: expected > 0 and <= 262144" \
  -- run "$S" --model "$D/big/config.json" "${JSON[@]}"
mkdir -p "$D/type"
sed 's/"num_hidden_layers": 32/"num_hidden_layers": "32"/' "$HF" >"$D/type/config.json"
bad "HF: a string where a count belongs" "$D/type/config.json:17:3: num_hidden_layers: expected a whole number (transformer blocks), found \"32\"" \
  -- run "$S" --model "$D/type/config.json" "${JSON[@]}"
mkdir -p "$D/nested"
sed 's/"vocab_size": 128256/"vocab_size": [[[[[[1]]]]]]/' "$HF" >"$D/nested/config.json"
bad "HF: a nested list where a count belongs" "vocab_size: expected a whole number (vocabulary size), found a list" \
  -- run "$S" --model "$D/nested/config.json" "${JSON[@]}"
mkdir -p "$D/noheads"
grep -v '"num_attention_heads"' "$HF" >"$D/noheads/config.json"
bad "HF: missing key" "$D/noheads/config.json: num_attention_heads: missing key 'num_attention_heads' (query heads)" \
  -- run "$S" --model "$D/noheads/config.json" "${JSON[@]}"
echo '[1, 2, 3]' >"$D/list.json"
bad "HF: JSON that is not an object" "$D/list.json: expected a JSON object (a Hugging Face config.json), found array" \
  -- startup "$S" --model "$D/list.json" "${JSON[@]}"

# ---- the command line ------------------------------------------------------------------------
bad "CLI: --json under /proc" "--json /proc/trnsim-catalogue/out.json: " -- run "$S" --json /proc/trnsim-catalogue/out.json
bad "CLI: --json whose parent is a regular file" "--json $D/regular-file/out.json: '$D/regular-file' is not a directory" -- run "$S" --json "$D/regular-file/out.json"
bad "CLI: --trace in a missing directory" "--trace $D/no-dir/t.json: directory '$D/no-dir' does not exist" \
  -- run "$S" "${JSON[@]}" --trace "$D/no-dir/t.json"
bad "CLI: --resolved is a directory" "--resolved $D/a_chip_dir: is a directory" -- run "$S" "${JSON[@]}" --resolved "$D/a_chip_dir"
bad "CLI: --set unknown key" "--set #1 'parallel.tpp=4': parallel.tpp: unknown key 'tpp' (did you mean 'tp'?)" \
  -- run "$S" --set parallel.tpp=4 "${JSON[@]}"
bad "CLI: --set quantity without a unit" "--set #1 'runtime.workspace=2': runtime.workspace: bare number '2' has no unit" \
  -- run "$S" --set runtime.workspace=2 "${JSON[@]}"
bad "CLI: --set size that would overflow (1e30 GiB)" "runtime.workspace: value '1e30 GiB' is too large" \
  -- run "$S" --set "runtime.workspace=1e30 GiB" "${JSON[@]}"
bad "CLI: --budget without a unit" "--budget: bare number '600' has no unit" -- startup "$S" --budget 600 "${JSON[@]}"
bad "CLI: --model missing file" "--model: model: " "does not exist" -- run "$S" --model "$D/missing/config.json" "${JSON[@]}"
mkdir -p "$D/dir.json"
bad "CLI: --model a directory without a config.json" \
  "--model: model: $D/dir.json: is a directory without a config.json; expected a zoo name, a model YAML file" \
  -- run "$S" --model "$D/dir.json" "${JSON[@]}"
bad "CLI: --mode not a mode" "--mode" -- run "$S" --mode fast "${JSON[@]}"
bad "CLI: --trace-window without units" "--trace-window" -- run "$S" "${JSON[@]}" --trace "$O/t.json" --trace-window 0,5
bad "CLI: --sizes that would overflow" "--sizes: size '1e30GiB' is too large" -- bench collective --sizes 1e30GiB
bad "CLI: --price-per-hour negative" "--price-per-hour: expected a non-negative number, got '-3'" \
  -- startup "$S" --price-per-hour -3 "${JSON[@]}"

# Issue 28: accepted though meaningless, or reported in the wrong place.
bad "CLI: --set parallel.ep on a dense model" \
  "--set #1 'parallel.ep=4': parallel.ep: ep 4 splits experts, but tiny is a dense model (no experts); expected 1" \
  -- run "$S" --set parallel.ep=4 "${JSON[@]}"
bad "CLI: --set compile.parallel_compile with the torchneuron frontend" \
  "--set #1 'compile.parallel_compile=true': compile.parallel_compile: neuron_parallel_compile is torch-xla's" \
  "no effect with compile.frontend torchneuron; expected false, or compile.frontend=xla with it" \
  -- startup "$S" --set compile.parallel_compile=true "${JSON[@]}"
bad "CLI: --model without its minor version finds the versioned model" \
  "--model: model: unknown model 'llama3-70b' (did you mean 'llama3.1-70b'?)" -- run "$S" --model llama3-70b "${JSON[@]}"
bad "CLI: --set numbered by its place on the command line (after a reference)" \
  "--set #2 'parallel.tpp=8': parallel.tpp: unknown key 'tpp' (did you mean 'tp'?)" \
  -- run "$S" --set model=qwen3-8b --set parallel.tpp=8 "${JSON[@]}"
bad "CLI: unknown scenario name, reported at the argument" \
  "argument SCENARIO: unknown scenario 'qwen3-32b-trn9' (did you mean 'qwen3-32b-trn2'?); known: " \
  "(the .yaml files of " -- run qwen3-32b-trn9 "${JSON[@]}"
mkdir -p "$D/adir"
pushd "$D" >/dev/null  # `run adir`: a directory of the working directory
bad "CLI: a directory given as the scenario name" "argument SCENARIO: 'adir' is a directory, expected a scenario name or YAML file" \
  -- run adir "${JSON[@]}"
popd >/dev/null
sed 's#^model: .*#model: beside/tiny.yaml#' "$S" >"$D/relative.yaml"
bad "scenario: a relative path is read beside the scenario file" \
  "re:$D/relative\.yaml:[0-9]+:[0-9]+: model: model file '$D/beside/tiny\.yaml' does not exist" -- run "$D/relative.yaml" "${JSON[@]}"
PLAN=(plan --model "$D/tiny.yaml" --tokens 1e9 --systems trn2.48xlarge --max-chips 16 --global-batch 16)
bad "CLI: plan --budget and --max-cost together" "--budget: give --max-cost alone (--budget is its old spelling)" \
  -- "${PLAN[@]}" --budget 5 --max-cost 5 "${JSON[@]}"
bad "CLI: plan --hbm-headroom out of range" "--hbm-headroom: expected a percentage from 0 to 90, e.g. 5%, got '150'" \
  -- "${PLAN[@]}" --hbm-headroom 150% "${JSON[@]}"
bad "CLI: plan --deadline with an unknown unit" "--deadline: unknown unit 'x'; expected a time with a unit (s, ms" \
  -- "${PLAN[@]}" --deadline 30x "${JSON[@]}"
TRNSIM_HOME=$D/no-such-home bad "TRNSIM_HOME that is not a directory" \
  "TRNSIM_HOME: '$D/no-such-home' is not a directory; expected trnsim's data tree (hw/configs, workloads)" -- run "$S" "${JSON[@]}"
bad "CLI: run --system with a scenario" "--system: chooses a layout for --model without a scenario; with a scenario, use --set system=NAME" \
  -- run "$S" --system trn2.48xlarge "${JSON[@]}"
bad "CLI: run without a scenario or --model and --system" "argument SCENARIO: missing: give a scenario (name or YAML), or --model M --system S" \
  -- run --model qwen3-8b "${JSON[@]}"
bad "CLI: run --chips not a multiple of the system's" "--chips: expected a multiple of 16 (the chips of one trn2.48xlarge), got 24" \
  -- run --model qwen3-8b --system trn2.48xlarge --chips 24 "${JSON[@]}"

echo "$CASES catalogue cases"
[ "$CASES" -ge 40 ] || fail "at least 40 catalogue cases" "only $CASES"
finish
