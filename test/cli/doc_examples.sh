#!/usr/bin/env bash
# Every trnsim command example of the --help texts, README.md and docs/*.md runs (issue 28,
# item 3): tools/check_doc_examples.py extracts them from their sources each time (never a copy
# here), runs each in a scratch copy of the data and checks its exit status (and the error line
# a doc quotes). The quoted outputs of README.md, tutorial.md, startup.md, workloads.md and interop.md are
# re-run and compared by docs_fresh.sh; commands marked `# slow: WHY` run with --slow only
# (`tools/check_doc_examples.py build --slow`).
set -euo pipefail
trnsim=$1; src=$2
python3 "$src/tools/check_doc_examples.py" "$(dirname "$trnsim")"
