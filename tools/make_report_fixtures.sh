#!/usr/bin/env bash
# Writes test/data/report/: the results of the shipped examples whose reports the Chromium layout
# check of test/cli/report.sh loads (issue 32, item 4), so that the test draws the pages a user
# gets from them without spending CI minutes re-running them:
#   - every shipped sweep, workloads/sweeps/NAME.yaml, run as the docs run it
#     (`trnsim sweep FILE --db NAME.sqlite -j 2`), kept as the SQL text of its database
#     (NAME.sql; test/cli/report.sh loads it back with python3's sqlite3);
#   - the plan of docs/tutorial.md step 4 (`--json plan.json`), as tutorial-plan.plan.json.
# The layout depends on the sweep's axes and the figures' ranges, not on the build that made the
# numbers; test/cli/report.sh checks that each fixture holds the points of its shipped sweep.
# Regenerate after changing a shipped sweep or the tutorial's plan: about 10 minutes on 2 CPUs.
#
# Usage: tools/make_report_fixtures.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=$root/test/data/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
cd "$root"
for f in workloads/sweeps/*.yaml; do
  name=$(basename "$f" .yaml)
  echo "sweep $f"
  "$build/trnsim" sweep "$f" --db "$tmp/$name.sqlite" -j 2 >/dev/null
  "$PY" -c '
import sqlite3, sys
with open(sys.argv[2], "w") as f:
    for line in sqlite3.connect(sys.argv[1]).iterdump():
        f.write(line + "\n")' "$tmp/$name.sqlite" "$out/$name.sql"
done
echo "plan (docs/tutorial.md step 4)"
"$build/trnsim" plan --model llama3.1-70b --tokens 1e12 --systems trn2.48xlarge,trn2-ultraserver --max-chips 1024 \
  --hbm-headroom 0 -j 2 --json "$out/tutorial-plan.plan.json" >/dev/null
echo "wrote $out"
