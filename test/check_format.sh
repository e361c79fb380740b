#!/usr/bin/env bash
# Every C++ file of the project is formatted as .clang-format says (issue 29, item 5): fails
# with the files and a diff of the first when `clang-format` would change any of them.
# clang-format 14 (Debian's clang-format, in the Makefile's DEB_PKGS). Fix with
#   clang-format -i FILE...
# Usage: bash check_format.sh SOURCE_DIR
set -uo pipefail
root=${1:?usage: bash check_format.sh SOURCE_DIR}
cd "$root" || exit 2
fmt=$(command -v clang-format-14 || command -v clang-format) || {
  echo "format: clang-format not found (make deps installs it)"; exit 1; }
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.cc')
else
  mapfile -t files < <(find bench hw models sim test workloads \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' -o -name '*.cc' \) | sort)
fi
out=$("$fmt" --style=file --dry-run --Werror "${files[@]}" 2>&1); rc=$?
if [ $rc -ne 0 ]; then
  bad=$(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' <<< "$out" | cut -d: -f1 | sort -u)
  echo "format: $(wc -l <<< "$bad") of ${#files[@]} files differ from clang-format (clang-format -i FILE fixes them):"
  sed 's/^/  /' <<< "$bad"
  head -30 <<< "$out"
  exit 1
fi
echo "format: ok (${#files[@]} files)"
