#!/usr/bin/env bash
# Docs that quote program output are current (issue 14): every `$ build/trnsim ...` block of the
# README, docs/tutorial.md, docs/startup.md, docs/workloads.md and docs/interop.md that quotes output (and the README's `make demo` block) is re-run
# and compared line by line, wall-clock figures aside (tools/check_doc_outputs.py). Commands
# marked `  # slow` (minutes each: the tutorial's plans) are left out here; run
# `tools/check_doc_outputs.py build --slow` to check them too.
# docs/performance.md is generated: it must be exactly tools/make_performance_doc.py's output on
# the figures `make bench` recorded in bench/results/ (its hand-measured CI budget section kept).
set -euo pipefail
trnsim=$1; src=$2
python3 "$src/tools/make_performance_doc.py" --check
python3 "$src/tools/check_doc_outputs.py" "$(dirname "$trnsim")"
