#!/usr/bin/env bash
# No function in sim/, models/, hw/ or workloads/ is longer than 80 lines, from the first line of
# its signature to its closing brace (issue 14; tools/check_function_length.py counts braces).
# (sim/ is covered since the plan command was split, issue 14.)
# Usage: bash function_length.sh TRNSIM SRC (TRNSIM is not used: the test only reads files).
set -euo pipefail
src=${2:?usage: bash function_length.sh PATH/TO/trnsim SOURCE_DIR}
cd "$src"
python3 tools/check_function_length.py --max 80 sim models hw workloads
