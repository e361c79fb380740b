#!/usr/bin/env bash
# Data that travels with the binary (issue 28, item 4): a copied tree and an installed tree each
# read their own chips, systems, calibrations, zoo and scenarios (sim/base/paths.h), not the
# source tree the binary was built from.
#   - A copy of the checkout's data with the built binary in its build/ (what a teacher copies
#     for a class), and `cmake --install BUILD --prefix P` (make install PREFIX=P: P/bin/trnsim,
#     P/share/trnsim, the Python package), each with its zoo's qwen3-8b cut to 2 layers: each
#     answers for 2 layers while the original build still answers for the shipped model, and the
#     installed Python module reads the installed data and runs the installed trnsim.
#   - An unknown name says which directory was searched; TRNSIM_HOME still comes first.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
BUILD=$(dirname "$TRNSIM")
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

cut_zoo() {  # cut_zoo DATA_ROOT: its qwen3-8b gets 2 layers
  edit_copy "$1/workloads/models/qwen3-8b.yaml" "$WORK/cut.yaml" 's/^num_layers: 36 /num_layers: 2 /'
  mv "$WORK/cut.yaml" "$1/workloads/models/qwen3-8b.yaml"
}
# parameters TRNSIM [DIR]: qwen3-8b's parameter count as TRNSIM reads it (run from DIR, default here).
parameters() {
  (cd "${2:-.}" && "$1" run qwen3-32b-trn2 --model qwen3-8b --json - 2>/dev/null) |
    python3 -c "import json, sys; print(json.load(sys.stdin)['model']['parameters'])"
}

# The copied tree: data and the binary, nothing else.
C=$WORK/class
mkdir -p "$C/build"
cp -r "$SRC/hw" "$C/hw"
cp -r "$SRC/workloads" "$C/workloads"
cp "$TRNSIM" "$C/build/trnsim"
cut_zoo "$C"
original=$(parameters "$TRNSIM")
copied=$(parameters "$C/build/trnsim" /)
check "the copy reads its own zoo (2 layers: $copied parameters) and the original its own ($original)" \
  test "$copied" -lt "$original"
"$C/build/trnsim" run no-such-scenario >"$OUT" 2>"$ERR" || true
check "an unknown name names the copy's directory" grep -qF "(the .yaml files of $C/workloads/scenarios)" "$ERR"

# make install: cmake --install of this build into a prefix.
P=$WORK/prefix
if cmake --install "$BUILD" --prefix "$P" >"$WORK/install.log" 2>&1; then
  pass "cmake --install into a prefix"
else
  fail "cmake --install into a prefix" "$(tail -5 "$WORK/install.log")"
  finish
fi
check "the binary in PREFIX/bin" test -x "$P/bin/trnsim"
check "the data in PREFIX/share/trnsim" test -f "$P/share/trnsim/hw/configs/systems/trn2.48xlarge.yaml" \
  -a -f "$P/share/trnsim/workloads/scenarios/qwen3-32b-trn2.yaml" -a -f "$P/share/trnsim/workloads/plan/base.yaml" \
  -a -f "$P/share/trnsim/workloads/calibration/runtime.yaml" -a -f "$P/share/trnsim/hw/configs/calibration/collectives.yaml"
check "no sources in PREFIX/share/trnsim" test -z "$(find "$P/share/trnsim" -name '*.cpp' -o -name '*.h')"
cut_zoo "$P/share/trnsim"
installed=$(parameters "$P/bin/trnsim" /)
check "the installed binary reads PREFIX/share/trnsim ($installed parameters)" test "$installed" = "$copied"
again=$(parameters "$TRNSIM")
check "the original still reads its own data ($again)" test "$again" = "$original"
TRNSIM_HOME=$SRC "$P/bin/trnsim" run qwen3-32b-trn2 --model qwen3-8b --json "$WORK/home.json" >/dev/null 2>&1
check "TRNSIM_HOME comes first" python3 -c "
import json, sys
sys.exit(json.load(open('$WORK/home.json'))['model']['parameters'] != $original)"

site=$(find "$P/lib" -type d -name site-packages | head -1)
if [ -n "$site" ] && [ -f "$site/trnsim/__init__.py" ]; then
  pass "the Python package in PREFIX/lib/pythonX.Y/site-packages"
  check "the installed module reads the installed data and runs the installed trnsim" \
    env PYTHONPATH="$site" "$PY" -c "
import sys, trnsim
assert trnsim.executable == '$P/bin/trnsim', trnsim.executable
r = trnsim.run('qwen3-32b-trn2', model='qwen3-8b')
assert r['model']['parameters'] == $installed, r['model']['parameters']"
else
  fail "the Python package in PREFIX/lib/pythonX.Y/site-packages" "$(ls -R "$P/lib" 2>&1 | head -5)"
fi
finish
