#!/usr/bin/env bash
# --help: exits 0 for the program and every bench command, and each option shows its
# default and, where it takes a quantity or a count, the unit it is in.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# Joins CLI11's option entries (a line starting "  -", plus indented continuation lines)
# into one line each.
option_entries() {
  awk '/^  -/ { if (e != "") print e; e = $0; next }
       /^                    / && e != "" { sub(/^ +/, " "); e = e $0; next }
       { if (e != "") print e; e = "" }
       END { if (e != "") print e }' "$1"
}

# unit_word OPTION: the word its help text must contain ("" when none is needed).
unit_word() {
  case $1 in
    --instances | --ranks | --cores) echo count ;;
    --lnc) echo cores ;;
    --m | --n | --k) echo elements ;;
    --sizes) echo bytes ;;
    --bytes) echo unit ;;
    --set) echo units ;;
    *) echo "" ;;
  esac
}

expect_ok "trnsim --help" -- --help
check "trnsim --help lists bench and show" grep -qE '^  bench +.*' "$OUT"
check "trnsim --help shows usage" grep -q 'Usage:' "$OUT"

for cmd in collective matmul hbm; do
  expect_ok "bench $cmd --help" -- bench "$cmd" --help
  cp "$OUT" "$WORK/help_$cmd"
  entries=$(option_entries "$WORK/help_$cmd")
  count=0
  while IFS= read -r e; do
    [[ $e =~ ^\ +(-[a-z],)?(--[a-z-]+) ]] || { fail "bench $cmd option entry parses" "help line: $e"; continue; }
    opt=${BASH_REMATCH[2]}
    case $opt in --help | --version) continue ;; esac
    count=$((count + 1))
    # A default is shown as TYPE=VALUE (CLI11) or "default: ..." in the description.
    if [[ $e =~ ^\ +--[a-z-]+\ [A-Z]+= ]] || [[ $e == *"default: "* ]]; then
      pass "bench $cmd $opt shows a default"
    else
      fail "bench $cmd $opt shows a default" "help line: $e"
    fi
    w=$(unit_word "$opt")
    if [ -z "$w" ]; then
      # Every numeric option must say what it counts.
      if [[ $e =~ ^\ +--[a-z-]+\ (INT|UINT|FLOAT) ]]; then
        fail "bench $cmd $opt names its unit" "numeric option without a unit word in the test's table: $e"
      fi
    elif [[ $e == *"$w"* ]]; then
      pass "bench $cmd $opt names its unit ($w)"
    else
      fail "bench $cmd $opt names its unit ($w)" "help line: $e"
    fi
  done <<<"$entries"
  if [ "$count" -ge 4 ]; then pass "bench $cmd --help lists its options"; else fail "bench $cmd --help lists its options" "found $count"; fi
done

# Specific defaults.
check "collective default system" grep -q -- '--system TEXT=trn2.48xlarge' "$WORK/help_collective"
check "collective default sizes carry units" grep -q -- '--sizes TEXT=1KiB,1MiB,64MiB,512MiB' "$WORK/help_collective"
check "matmul default chip" grep -q -- '--chip TEXT=trn2' "$WORK/help_matmul"
check "hbm default bytes carry a unit" grep -q -- '--bytes TEXT=1GiB' "$WORK/help_hbm"

finish
