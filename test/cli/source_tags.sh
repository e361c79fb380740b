#!/usr/bin/env bash
# Every source key cited in the repository resolves to a row of docs/sources.md, and nothing
# points outside the repository. The citation convention is at the top of docs/sources.md
# ("How keys are cited"); this test implements it:
#   - keys: S<n>, T<n>, F<n>, C<n>, P<n> and nki_faq, as whole words, in every file under hw/,
#     models/, sim/, workloads/, tools/, test/, docs/ and README.md; text between backticks
#     (inline code) is not a citation;
#   - a key is defined by a table row of docs/sources.md whose first cell is the key;
#   - T<n>' (primed), and every T<n> in the files about the trn1 training table (ROW_FILES
#     below), is a row id of workloads/validation/trn1-training.yaml, not a source key;
#   - no file of the repository (this test aside) names a path into the old shared notes
#     beside the repository.
# Fails naming file:line and the offending key or path. Usage: bash source_tags.sh TRNSIM SRC
# (TRNSIM is not used: the test only reads files).
set -euo pipefail
src=${2:?usage: bash source_tags.sh PATH/TO/trnsim SOURCE_DIR}
cd "$src"
exec python3 - <<'PY'
import os, re, subprocess, sys

SELF = "test/cli/source_tags.sh"
SCOPE_DIRS = ("hw/", "models/", "sim/", "workloads/", "tools/", "test/", "docs/")
SCOPE_FILES = ("README.md",)
# Files about the rows of AWS's trn1 training tables: there T<n> is a row id (docs/sources.md).
ROW_FILES = ("workloads/validation/", "workloads/scenarios/validation/", "workloads/calibration/runtime",
             "tools/validate.py", "docs/validation.md", "docs/workloads.md", "docs/model.md")
# Paths into the reference and design notes that used to sit beside the repository.
OUTSIDE = re.compile(r"\.\./shared\b|\bshared/(?:reference|design)\b|/work/shared\b")
KEY = re.compile(r"(?<![A-Za-z0-9_])(?:[STFCPI][0-9]+|nki_faq)(?![A-Za-z0-9_])")
KEY_CELL = re.compile(r"^\|\s*((?:[STFCPI][0-9]+|nki_faq))\s*\|")
ROW_ID = re.compile(r"^\s*-\s*id:\s*\"([^\"]+)\"")
PRIME = re.compile(r"'(?![A-Za-z])")
CODE_SPAN = re.compile(r"`+[^`]*`+")


def repo_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             check=True, capture_output=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        files = []
        for d, dirs, names in os.walk("."):
            dirs[:] = [x for x in dirs if x not in (".git", "__pycache__") and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n)) for n in names]
    return sorted(f for f in set(files) if os.path.isfile(f) and f != SELF and not f.startswith(".git/"))


def read_lines(path):
    data = open(path, "rb").read()
    if b"\0" in data:
        return None  # binary
    return data.decode("utf-8", errors="replace").splitlines()


def defined_keys(errors):
    keys = {}
    for n, line in enumerate(read_lines("docs/sources.md"), 1):
        m = KEY_CELL.match(line)
        if m:
            if m.group(1) in keys:
                errors.append(f"docs/sources.md:{n}: key {m.group(1)} defined twice (first at line {keys[m.group(1)]})")
            keys.setdefault(m.group(1), n)
    return keys


def row_ids():
    return {m.group(1) for line in read_lines("workloads/validation/trn1-training.yaml")
            for m in [ROW_ID.match(line)] if m}


def citations(lines):
    """(line number, key, primed) for every key written outside inline code."""
    for n, line in enumerate(lines, 1):
        text = CODE_SPAN.sub(" ", line)
        for m in KEY.finditer(text):  # T1' is primed; T8's is a possessive
            yield n, m.group(0), PRIME.match(text, m.end()) is not None


errors = []
keys = defined_keys(errors)
rows = row_ids()
files = repo_files()
cited, where, used = 0, set(), set()
for f in files:
    lines = read_lines(f)
    if lines is None:
        continue
    for n, line in enumerate(lines, 1):
        for m in OUTSIDE.finditer(line):
            errors.append(f"{f}:{n}: points outside the repository ({m.group(0)}); cite a docs/sources.md key")
    if not (f.startswith(SCOPE_DIRS) or f in SCOPE_FILES):
        continue
    row_file = f.startswith(ROW_FILES)
    for n, key, primed in citations(lines):
        if f == "docs/sources.md" and keys.get(key) == n:
            continue  # the definition itself
        if key.startswith("T") and (primed or row_file):
            rid = key + ("'" if primed else "")
            if rid not in rows:
                why = "a primed T<n>' is a row id" if primed else "in this file T<n> is a row id"
                errors.append(f"{f}:{n}: {rid} is not a row of workloads/validation/trn1-training.yaml "
                              f"({why}; docs/sources.md, How keys are cited)")
            continue
        cited += 1
        where.add(f)
        used.add(key)
        if key not in keys:
            errors.append(f"{f}:{n}: source key {key} is not defined in docs/sources.md")

if errors:
    print("\n".join(errors))
    print(f"source tags: {len(errors)} problem(s)")
    sys.exit(1)
print(f"source tags: {cited} citations of {len(used)} keys in {len(where)} files all resolve in "
      f"docs/sources.md ({len(keys)} keys defined); no path points outside the repository")
PY
