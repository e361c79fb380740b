#!/usr/bin/env bash
# clang-tidy with the project's .clang-tidy (issue 29, item 5) on the .cpp files of sim/,
# models/, hw/, workloads/ and bench/ in the build's compile_commands.json (the tests are left
# out for time: Catch2 makes each a long parse; -Werror and the format check cover them):
# function size (80 lines of body at most) and the curated bugprone and performance checks.
# Fails with the findings when there is any.
# Third-party headers are not checked (HeaderFilterRegex). Files run TIDY_JOBS at a time
# (default 2, one per CPU of the CI machine).
#
# Inputs decide reuse, as for sweep rows: a file is checked unless its inputs are those of a
# check that passed, listed in test/tidy_clean.txt. The inputs are the clang-tidy version, the
# .clang-tidy file, the file's compile command (the checkout's and build's paths replaced) and
# the contents of every file the compiler read for it (the build's depfile: the source, our
# headers, the system's headers; for a file of a unity batch, of the whole batch). Any change to
# any of them checks the file again. A run that passes writes the list of every file's inputs to
# BUILD_DIR/tidy_clean.txt; TIDY_UPDATE=1 (or `make tidy-record`) copies it to
# test/tidy_clean.txt. TIDY_ALL=1 ignores the list.
# Usage: bash check_tidy.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=${1:?usage: bash check_tidy.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: bash check_tidy.sh SOURCE_DIR BUILD_DIR}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy) || {
  echo "tidy: clang-tidy not found (make deps installs it)"; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json"; exit 1; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$tidy" --version > "$out/version"
python3 - "$src" "$build" "$out" "${TIDY_ALL:-0}" <<'PY'
import hashlib, json, os, re, sys
src, build, out, check_all = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
dirs = [os.path.join(src, d) + os.sep for d in ("sim", "models", "hw", "workloads", "bench")]
version = open(os.path.join(out, "version")).read()
config = open(os.path.join(src, ".clang-tidy")).read()
record = os.path.join(src, "test", "tidy_clean.txt")
known = set()
if os.path.exists(record) and not check_all:
    known = {l.split()[0] for l in open(record) if l.strip() and not l.startswith("#")}
digests = {}
def is_unity(path):  # a unity build's translation unit (CMakeLists.txt), including .cpp files
    return "/Unity/unity_" in path
def norm(text):
    return text.replace(build, "<build>").replace(src, "<src>")
def digest(path):
    if path not in digests:
        try:
            data = open(path, "rb").read()
            if is_unity(path):  # it names its sources by absolute path
                data = norm(data.decode()).encode()
            digests[path] = hashlib.sha256(data).hexdigest()
        except OSError:
            digests[path] = "missing"
    return digests[path]
entries = {}
for e in json.load(open(os.path.join(build, "compile_commands.json"))):
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    # Each source of a unity file is checked with its command, and keyed by its depfile.
    sources = re.findall(r'^#include "([^"]+)"', open(f).read(), re.M) if is_unity(f) else [f]
    for s in sources:
        s = os.path.realpath(s)
        if s.endswith(".cpp") and any(s.startswith(d) for d in dirs):
            entries[s] = dict(e, file=s, command=e["command"].replace(e["file"], s))
check, keys = [], []
os.makedirs(os.path.join(out, "db"))
json.dump([{k: e[k] for k in ("directory", "file", "command")} for e in entries.values()],
          open(os.path.join(out, "db", "compile_commands.json"), "w"))
for f in sorted(entries):
    e = entries[f]
    m = re.search(r"\s-o\s+(\S+)", e["command"])
    dep = os.path.join(e["directory"], m.group(1) + ".d") if m else ""
    if not os.path.exists(dep):
        check.append(f)  # no depfile: no key, always checked
        continue
    deps = re.split(r"\s+", open(dep).read().replace("\\\n", " ").split(":", 1)[1].strip())
    h = hashlib.sha256()
    for part in (version, config, norm(re.sub(r"\s-o\s+\S+", "", e["command"]))):
        h.update(part.encode() + b"\0")
    for d in deps:
        p = os.path.realpath(os.path.join(e["directory"], d))
        h.update(norm(p).encode() + b"\0" + digest(p).encode() + b"\0")
    key = h.hexdigest()
    keys.append(key + " " + os.path.relpath(f, src))
    if key not in known:
        check.append(f)
open(os.path.join(out, "files"), "w").write("".join(f + "\n" for f in check))
open(os.path.join(out, "keys"), "w").write("".join(k + "\n" for k in keys))
open(os.path.join(out, "total"), "w").write(str(len(entries)))
PY
n=$(cat "$out/total")
m=$(wc -l < "$out/files")
start=$SECONDS
# One clang-tidy per file; each writes its findings to its own file (no interleaving). GCC's
# optimisation flags that clang does not know (pybind11's -fno-fat-lto-objects) are ignored.
touch "$out/all"
if [ "$m" -gt 0 ]; then
  xargs -a "$out/files" -P "${TIDY_JOBS:-2}" -I{} sh -c \
    '"$1" -p "$2" --quiet --extra-arg=-Wno-ignored-optimization-argument "$3" > "$4/$(echo "$3" | tr / _).log" 2>&1 \
       || echo "$3" >> "$4/failed"' \
    _ "$tidy" "$out/db" {} "$out"
  cat "$out"/*.log > "$out/all" 2>/dev/null
fi
# A finding in a header shows once per file that includes it: each is listed once.
grep -E ': (warning|error): ' "$out/all" | sed "s|$(realpath "$src")/||" | sort -u > "$out/findings"
findings=$(wc -l < "$out/findings")
if [ "$findings" -gt 0 ] || [ -s "$out/failed" ]; then
  cat "$out/findings"
  [ -s "$out/failed" ] && { echo "clang-tidy failed on:"; cat "$out/failed"; }
  echo "tidy: $findings finding(s) in $m checked files ($((SECONDS - start)) s)"
  exit 1
fi
{
  echo "# Inputs of the files clang-tidy passed (test/check_tidy.sh): sha256 of the clang-tidy"
  echo "# version, .clang-tidy, the compile command and every file the compiler read; one per file."
  cat "$out/keys"
} > "$build/tidy_clean.txt"
if [ "${TIDY_UPDATE:-0}" = 1 ]; then
  cp "$build/tidy_clean.txt" "$src/test/tidy_clean.txt"
  echo "tidy: wrote test/tidy_clean.txt"
fi
echo "tidy: ok ($n files: $m checked, $((n - m)) passed before with the same inputs (test/tidy_clean.txt); $((SECONDS - start)) s)"
