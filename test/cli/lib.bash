# Shared helpers for the CLI tests in this directory (sourced, not a test itself: CMake
# registers only *.sh). Each test runs as `bash TEST.sh PATH/TO/trnsim SOURCE_DIR`.
#
#   expect_error DESC [PATTERN...] -- ARGS...
#       runs `trnsim ARGS...` and checks the contract for bad input: exit status 2, exactly
#       one line on stderr starting "trnsim: error: " and containing every PATTERN (fixed
#       strings; "re:REGEX" for an extended regex). `bench` commands get --json and
#       --resolved paths (those they do not set themselves) in a fresh directory, which
#       must still be empty afterwards.
#   expect_ok DESC -- ARGS...      runs trnsim, expects exit status 0 (stdout in $OUT).
#   check DESC COMMAND...          records COMMAND's success or failure.
#   record_results [--strict] TEXT records each line "ok DESC" of TEXT as a pass and "FAIL DESC"
#                                  as a failure (checks written by a script); prints TEXT unless
#                                  --strict, which instead counts any other line as a failure.
#   skip WHAT                      records that the checks of WHAT did not run (a missing tool).
#   finish                         prints a summary and exits 1 on any failure, else 77 (ctest's
#                                  SKIP_RETURN_CODE: the test shows as skipped, not passed)
#                                  when something was skipped, else 0.
set -u

TRNSIM=${1:?usage: bash TEST.sh PATH/TO/trnsim SOURCE_DIR}
SRC=${2:?usage: bash TEST.sh PATH/TO/trnsim SOURCE_DIR}
TRNSIM=$(cd "$(dirname "$TRNSIM")" && pwd)/$(basename "$TRNSIM")
SRC=$(cd "$SRC" && pwd)
HW=$SRC/hw/configs
[ -x "$TRNSIM" ] || { echo "not executable: $TRNSIM" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/trnsim-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT=$WORK/stdout
ERR=$WORK/stderr
RC=0
FAILS=0
CHECKS=0
SKIPS=0

pass() { CHECKS=$((CHECKS + 1)); echo "ok - $1"; }
fail() {
  CHECKS=$((CHECKS + 1))
  FAILS=$((FAILS + 1))
  echo "FAIL - $1"
  shift
  local line
  for line in "$@"; do echo "    $line"; done
}

run_trnsim() {
  RC=0
  "$TRNSIM" "$@" >"$OUT" 2>"$ERR" || RC=$?
}

# matches TEXT PATTERN: fixed-string containment, or an extended regex for "re:REGEX".
matches() {
  if [ "${2#re:}" != "$2" ]; then
    local re=${2#re:}
    [[ $1 =~ $re ]]
  else
    [[ $1 == *"$2"* ]]
  fi
}

# Output files of the failing runs go here; it must stay empty.
OUTDIR=$WORK/outputs
mkdir "$OUTDIR"
shopt -s nullglob dotglob

expect_error() {
  local desc=$1
  shift
  local patterns=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    patterns+=("$1")
    shift
  done
  [ $# -gt 0 ] || { fail "$desc" "test bug: missing -- before the command"; return; }
  shift
  local outdir=$OUTDIR
  local args=("$@")
  if [ "${1:-}" = bench ]; then
    [[ " $* " == *" --json "* ]] || args+=(--json "$outdir/result.json")
    [[ " $* " == *" --resolved "* ]] || args+=(--resolved "$outdir/resolved.yaml")
  fi
  run_trnsim "${args[@]+"${args[@]}"}"
  local lines=() problems=() p left=()
  mapfile -t lines <"$ERR"
  [ "$RC" -eq 2 ] || problems+=("exit status $RC, expected 2")
  [ ${#lines[@]} -eq 1 ] || problems+=("${#lines[@]} lines on stderr, expected 1")
  [[ ${lines[0]:-} == "trnsim: error: "* ]] || problems+=("stderr does not start with 'trnsim: error: '")
  for p in "${patterns[@]+"${patterns[@]}"}"; do
    matches "${lines[0]:-}" "$p" || problems+=("stderr does not contain '$p'")
  done
  left=("$outdir"/*)
  [ ${#left[@]} -eq 0 ] || problems+=("left files behind: ${left[*]}")
  if [ ${#problems[@]} -eq 0 ]; then
    pass "$desc"
  else
    fail "$desc" "trnsim ${args[*]-}" "${problems[@]}" "stderr: ${lines[*]:0:3}"
    [ ${#left[@]} -eq 0 ] || rm -rf "${left[@]}"
  fi
}

expect_ok() {
  local desc=$1
  shift
  [ "${1:-}" = "--" ] && shift
  run_trnsim "$@"
  if [ "$RC" -eq 0 ]; then
    pass "$desc"
  else
    fail "$desc" "trnsim $*" "exit status $RC" "stderr: $(head -c 600 "$ERR")"
  fi
}

check() {
  local desc=$1
  shift
  if "$@"; then pass "$desc"; else fail "$desc" "failed: $*"; fi
}

record_results() {
  local strict=0 line
  [ "$1" = --strict ] && { strict=1; shift; }
  [ $strict -eq 1 ] || echo "$1"
  while IFS= read -r line; do
    case $line in
      "ok "*) pass "${line#ok }" ;;
      "FAIL "*) fail "${line#FAIL }" ;;
      *) [ $strict -eq 0 ] || fail "script output: $line" ;;
    esac
  done <<<"$1"
}

# loc_of FILE FIXED-STRING [TEXT]: sets LOC to "FILE:LINE:COL" of TEXT (default: the
# string itself) on the first line containing FIXED-STRING, as trnsim prints locations.
loc_of() {
  local text=${3:-$2} n=0 line head
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    if [[ $line == *"$2"* ]]; then
      head=${line%%"$text"*}
      LOC="$1:$n:$((${#head} + 1))"
      return
    fi
  done <"$1"
  echo "test bug: '$2' not found in $1" >&2
  exit 1
}

# Editable copies of the shipped trn2 chip and trn2.48xlarge system in $WORK: the chip's
# include is made absolute and the system points at the copied chip by absolute path.
make_copies() {
  CHIP=$WORK/chip.yaml
  SYS=$WORK/system.yaml
  sed "s#^include: ../calibration/collectives.yaml#include: $HW/calibration/collectives.yaml#" \
    "$HW/chips/trn2.yaml" >"$CHIP"
  sed "s#^chip: trn2\$#chip: $CHIP#" "$HW/systems/trn2.48xlarge.yaml" >"$SYS"
  grep -q "^include: $HW/calibration/collectives.yaml" "$CHIP" || { echo "could not rewrite the chip include" >&2; exit 1; }
  grep -q "^chip: $CHIP" "$SYS" || { echo "could not rewrite the system's chip" >&2; exit 1; }
}

# edit_copy SRC DEST SED-SCRIPT: DEST = SRC with the sed script applied; fails the test (exit)
# when the script changed nothing, so a drifting config file cannot silently void a case.
edit_copy() {
  sed "$3" "$1" >"$2"
  local before after
  mapfile -t before <"$1"
  mapfile -t after <"$2"
  if [ "${before[*]}" = "${after[*]}" ]; then
    echo "test bug: sed '$3' did not change $1" >&2
    exit 1
  fi
}

skip() { SKIPS=$((SKIPS + 1)); echo "skip - $1"; }
finish() {
  echo "$CHECKS checks, $FAILS failed, $SKIPS skipped"
  [ "$FAILS" -eq 0 ] || exit 1
  [ "$SKIPS" -eq 0 ] || exit 77
  exit 0
}
