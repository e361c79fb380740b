#!/usr/bin/env bash
# Runs each libFuzzer target built in BUILD (cmake -DTRNSIM_FUZZ=ON, clang) for SECONDS on
# its own corpus in BUILD/fuzz-corpus/TARGET, seeded from the shipped files and
# test/fuzz/regressions/TARGET, and fails when any target finds a crash, a sanitizer report,
# a leak, an input slower than 10 s or over 2 GiB. Called by `make fuzz`:
#   bash test/fuzz/run_fuzzers.sh BUILD SECONDS [TARGET...]
# A failing input is saved in BUILD/fuzz-artifacts/TARGET/; once the loader is fixed, copy it
# to test/fuzz/regressions/TARGET/ so the replay test (ctest -R fuzz) keeps it fixed.
set -uo pipefail
build=${1:?usage: run_fuzzers.sh BUILD SECONDS [TARGET...]}
seconds=${2:-60}
shift 2 || shift $#
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config_yaml scenario hf_import)

seeds_of() {
  case $1 in
    config_yaml) echo "hw/configs workloads/models workloads/calibration workloads/sweeps" ;;
    scenario) echo "workloads/scenarios" ;;
    hf_import) echo "test/data/hf" ;;
  esac
}
dict_of() {
  case $1 in
    hf_import) echo "$src/test/fuzz/hf_import.dict" ;;
    *) echo "$src/test/fuzz/config.dict" ;;
  esac
}

failed=()
for t in "${targets[@]}"; do
  exe=$build/fuzz_$t
  [ -x "$exe" ] || { echo "fuzz: $exe is not built"; exit 1; }
  corpus=$build/fuzz-corpus/$t
  artifacts=$build/fuzz-artifacts/$t
  log=$build/fuzz-$t.log
  mkdir -p "$corpus" "$artifacts"
  # Seeds: flat copies named after their source path, so re-runs add nothing twice.
  for d in $(seeds_of "$t") "test/fuzz/regressions/$t"; do
    while IFS= read -r -d '' f; do
      rel=${f#"$src"/}
      cp -f "$f" "$corpus/seed-${rel//\//_}"
    done < <(find "$src/$d" -type f ! -name '.*' -print0)
  done
  echo "fuzz: $t for ${seconds}s on $(find "$corpus" -type f | wc -l) inputs ..."
  rc=0
  "$exe" "$corpus" -dict="$(dict_of "$t")" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=16384 -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  echo "fuzz: $t: ${execs:-?} executions (${secs:-?}/s), corpus $(find "$corpus" -type f | wc -l) inputs, exit $rc"
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    echo "---- tail of $log"
    tail -n 40 "$log"
    echo "---- failing inputs in $artifacts/:"
    ls -l "$artifacts"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (fix the loader, then add the input to test/fuzz/regressions/TARGET/)"
  exit 1
fi
echo "fuzz: no crashes in ${targets[*]}"
