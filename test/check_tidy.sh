#!/usr/bin/env bash
# clang-tidy with the project's .clang-tidy (issue 29, item 5) on the .cpp files of sim/,
# models/, hw/, workloads/ and bench/ in the build's compile_commands.json (the tests are left
# out for time: Catch2 makes each a long parse; -Werror and the format check cover them):
# function size (80 lines of body at most) and the curated bugprone and performance checks.
# Fails with the findings when there is any.
# Third-party headers are not checked (HeaderFilterRegex). Files run TIDY_JOBS at a time
# (default 2, one per CPU of the CI machine).
# Usage: bash check_tidy.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=${1:?usage: bash check_tidy.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: bash check_tidy.sh SOURCE_DIR BUILD_DIR}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy) || {
  echo "tidy: clang-tidy not found (make deps installs it)"; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json"; exit 1; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
python3 - "$src" "$build/compile_commands.json" > "$out/files" <<'PY'
import json, os, sys
src = os.path.realpath(sys.argv[1])
dirs = [os.path.join(src, d) + os.sep for d in ("sim", "models", "hw", "workloads", "bench")]
files = {os.path.realpath(os.path.join(e["directory"], e["file"])) for e in json.load(open(sys.argv[2]))}
print("\n".join(sorted(f for f in files if f.endswith(".cpp") and any(f.startswith(d) for d in dirs))))
PY
n=$(wc -l < "$out/files")
start=$SECONDS
# One clang-tidy per file; each writes its findings to its own file (no interleaving). GCC's
# optimisation flags that clang does not know (pybind11's -fno-fat-lto-objects) are ignored.
xargs -a "$out/files" -P "${TIDY_JOBS:-2}" -I{} sh -c \
  '"$1" -p "$2" --quiet --extra-arg=-Wno-ignored-optimization-argument "$3" > "$4/$(echo "$3" | tr / _).log" 2>&1 \
     || echo "$3" >> "$4/failed"' \
  _ "$tidy" "$build" {} "$out"
cat "$out"/*.log > "$out/all" 2>/dev/null
# A finding in a header shows once per file that includes it: each is listed once.
grep -E ': (warning|error): ' "$out/all" | sed "s|$(realpath "$src")/||" | sort -u > "$out/findings"
findings=$(wc -l < "$out/findings")
if [ "$findings" -gt 0 ] || [ -s "$out/failed" ]; then
  cat "$out/findings"
  [ -s "$out/failed" ] && { echo "clang-tidy failed on:"; cat "$out/failed"; }
  echo "tidy: $findings finding(s) in $n files ($((SECONDS - start)) s)"
  exit 1
fi
echo "tidy: ok ($n files, $((SECONDS - start)) s)"
