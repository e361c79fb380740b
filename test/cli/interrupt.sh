#!/usr/bin/env bash
# SIGINT or SIGTERM in the middle of a run leaves no output file, finished or partial: the
# streamed trace's temporary file is removed and the JSON is never written.
set -euo pipefail
trnsim=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for sig in INT TERM; do
  "$trnsim" run llama2-70b-trn1-pp --json "$tmp/r.json" --trace "$tmp/t.json" > /dev/null 2>&1 &
  pid=$!
  # Wait until the trace has started streaming (the temporary file exists), then interrupt.
  for _ in $(seq 1 200); do ls "$tmp" | grep -q '\.tmp\.' && break; sleep 0.05; done
  ls "$tmp" | grep -q '\.tmp\.' || { echo "FAIL: the run never started its trace"; kill -9 $pid; exit 1; }
  kill -$sig $pid
  set +e; wait $pid; rc=$?; set -e
  [ $rc -ne 0 ] || { echo "FAIL: SIG$sig did not stop the run"; exit 1; }
  left=$(ls -A "$tmp")
  [ -z "$left" ] || { echo "FAIL: SIG$sig left files: $left"; exit 1; }
  echo "SIG$sig: exit $rc, no files left"
done
