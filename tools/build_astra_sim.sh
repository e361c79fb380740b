#!/usr/bin/env bash
# Builds ASTRA-sim's analytical (congestion-unaware) backend beside trnsim, with Debian's
# packages instead of the copies its CMake fetches, for the comparisons of docs/performance.md
# ("Beside ASTRA-sim") and docs/interop.md. Nothing of ASTRA-sim is copied into this repository.
#
#   tools/build_astra_sim.sh [DEST]          (default build/astra-sim)
#
# The binary ends at DEST/bin/AstraSim_Analytical_Congestion_Unaware.
#
# Sources: the public repositories, cloned from GitHub at the commits below (ASTRA-sim's own
# submodule pins). With ASTRA_SIM_MIRROR=DIR, the clones come from DIR/<owner>+<name>/repo
# instead (a local copy of each repository, for a machine without GitHub access); a pinned
# commit that the copy lacks falls back to the named branch, and the script says so.
#
# What differs from ASTRA-sim's build/astra_analytical/build.sh, and why:
#  - fmt, spdlog and yaml-cpp are Debian's (libfmt-dev, libspdlog-dev, libyaml-cpp-dev), found
#    with find_package, where ASTRA-sim's CMakeLists add its submodules and fetch yaml-cpp from
#    GitHub at configure time; protobuf is Debian's, as ASTRA-sim's docs ask.
#  - When chakra's feeder_v3 declares ETFeeder only inside Chakra::FeederV3 (its `stage`
#    branch), a one-line alias `using FeederV3::ETFeeder;` in namespace Chakra gives the
#    spelling ASTRA-sim's workload code uses (the pinned commit has it).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/build/astra-sim}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
src=$dest/src

# owner/name  pinned commit  fallback branch  path in the tree
repos=(
  "astra-sim/astra-sim 518bd51 main ."
  "astra-sim/chakra 0e3cd40c569f0a4cacb6d961bb56be53407abd2f stage extern/graph_frontend/chakra"
  "astra-sim/astra-network-analytical e8c5119f8d5a690b955e25c37a74359f23ac64cc main extern/network_backend/analytical"
  "astra-sim/astra-memory-analytical 641cce854d256bfd288b1de9607b6757313363f9 main extern/remote_memory_backend/analytical"
)

need=(cmake g++ make protoc git)
for t in "${need[@]}"; do
  command -v "$t" > /dev/null || { echo "build_astra_sim: $t is missing (apt-get install cmake g++ make protobuf-compiler git)" >&2; exit 1; }
done
pkgs=(libfmt-dev libspdlog-dev libyaml-cpp-dev libprotobuf-dev protobuf-compiler)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -q "${missing[@]}" > "$dest/apt.log" 2>&1 || { cat "$dest/apt.log" >&2; exit 1; }
  else
    echo "build_astra_sim: install ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi

rm -rf "$src"
mkdir -p "$src"
for r in "${repos[@]}"; do
  read -r name commit branch path <<< "$r"
  if [ -n "${ASTRA_SIM_MIRROR:-}" ]; then
    url=$ASTRA_SIM_MIRROR/${name/\//+}/repo
  else
    url=https://github.com/$name.git
  fi
  tmp=$dest/clone-${name#*/}
  rm -rf "$tmp"
  git clone -q --no-checkout "$url" "$tmp"
  if git -C "$tmp" cat-file -e "$commit^{commit}" 2> /dev/null; then
    ref=$commit
  else
    ref=$(git -C "$tmp" rev-parse "origin/$branch" 2> /dev/null || git -C "$tmp" rev-parse "$branch")
    echo "build_astra_sim: $name: commit $commit is not in $url; using branch $branch at ${ref:0:12}"
  fi
  mkdir -p "$src/$path"
  # The tree without its submodules' gitlinks and without files absent from a partial copy.
  git -C "$tmp" ls-tree -r "$ref" | awk -F'\t' '{ split($1, a, " "); if (a[2] == "blob") print $2 }' |
    grep -v -E '^(tests|docs|\.github)/' > "$tmp.files" || true
  xargs -d '\n' git -C "$tmp" archive "$ref" < "$tmp.files" | tar x -i -C "$src/$path"
  echo "$name $(git -C "$tmp" rev-parse "$ref")" >> "$dest/sources.txt.new"
  rm -rf "$tmp" "$tmp.files"
done
mv "$dest/sources.txt.new" "$dest/sources.txt"

# Debian's fmt, spdlog and yaml-cpp.
python3 - "$src" << 'EOF'
import re, sys
src = sys.argv[1]
def patch(path, pairs):
    s = open(path).read()
    for old, new in pairs:
        s2 = re.sub(old, new, s, flags=re.S)
        if s2 == s:
            sys.exit("build_astra_sim: %s: pattern not found: %s" % (path, old))
        s = s2
    open(path, "w").write(s)
patch(src + "/CMakeLists.txt", [
    (r'add_subdirectory\("\$\{CMAKE_CURRENT_SOURCE_DIR\}/extern/helper/fmt"\)', 'find_package(fmt REQUIRED)'),
    (r'option\(SPDLOG_FMT_EXTERNAL ON\)[^\n]*\nadd_subdirectory\("\$\{CMAKE_CURRENT_SOURCE_DIR\}/extern/helper/spdlog"\)',
     'find_package(spdlog REQUIRED)'),
    (r'FetchContent_Declare\(\s*yaml-cpp.*?\)\s*FetchContent_MakeAvailable\(yaml-cpp\)', 'find_package(yaml-cpp REQUIRED)'),
])
patch(src + "/extern/network_backend/analytical/CMakeLists.txt", [
    (r'add_subdirectory\(\$\{CMAKE_CURRENT_SOURCE_DIR\}/extern/yaml-cpp yaml-cpp\)', 'find_package(yaml-cpp REQUIRED)'),
])
feeder = src + "/extern/graph_frontend/chakra/src/feeder_v3/et_feeder.h"
s = open(feeder).read()
if "using FeederV3::ETFeeder;" not in s and "namespace Chakra {\nusing" not in s:
    s = s.replace("} // namespace FeederV3\n", "} // namespace FeederV3\nusing FeederV3::ETFeeder;\n", 1)
    open(feeder, "w").write(s)
EOF

proto=$src/extern/graph_frontend/chakra/schema/protobuf
protoc et_def.proto --proto_path="$proto" --cpp_out="$proto"

bdir=$src/build/astra_analytical/build
mkdir -p "$bdir"
cmake -S "$src/build/astra_analytical" -B "$bdir" -DBUILDTARGET=congestion_unaware -DCMAKE_BUILD_TYPE=Release \
  > "$dest/cmake.log" 2>&1 || { tail -30 "$dest/cmake.log" >&2; exit 1; }
cmake --build "$bdir" -j "$(nproc)" > "$dest/build.log" 2>&1 || { grep -m 20 -E 'error' "$dest/build.log" >&2; exit 1; }
mkdir -p "$dest/bin"
cp "$bdir/bin/AstraSim_Analytical_Congestion_Unaware" "$dest/bin/"
echo "built $dest/bin/AstraSim_Analytical_Congestion_Unaware from:"
sed 's/^/  /' "$dest/sources.txt"
