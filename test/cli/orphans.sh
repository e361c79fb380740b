#!/usr/bin/env bash
# Children die with their parent (issue 28, item 2): SIGTERM, SIGINT or SIGKILL of a running
# `trnsim plan` (whose forked children simulate its points), of a running `trnsim sweep` (whose
# workers exec `trnsim run`) and of a Python process in the middle of trnsim.run() or
# trnsim.sweep() leaves no process behind: every descendant recorded with ps while the parent
# ran is gone afterwards (sim/base/fork_pool: PR_SET_PDEATHSIG in each child, the parent's
# handler forwarding SIGTERM and SIGINT; the Python module stops its child on KeyboardInterrupt).
# A sweep stopped by SIGTERM or SIGINT also removes its work directory from TMPDIR.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
BUILD=$(dirname "$TRNSIM")

# descendants PID: every trnsim process below PID (forked simulations, exec'd workers; not a
# passing helper such as the uname that Python's import may start), one per line.
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1"); do
    ps -o args= -p "$c" | grep -q trnsim && echo "$c"
    descendants "$c"
  done
}
# alive PID...: those of PID... that still run (a zombie waiting for its reaper has ended).
alive() {
  local p s
  for p in "$@"; do
    s=$(ps -o stat= -p "$p" 2>/dev/null | tr -d ' ')
    [ -n "$s" ] && [[ $s != Z* ]] && echo "$p"
  done
  return 0
}
# kill_case DESC SIGNAL MIN COMMAND...: starts COMMAND in the background, waits until it has at
# least MIN descendants (its simulation children), records them, sends SIGNAL to COMMAND alone,
# and checks that none of the recorded processes is left.
kill_case() {
  local desc=$1 sig=$2 min=$3 pid kids=() left=() i
  shift 3
  "$@" >"$WORK/case.out" 2>&1 &
  pid=$!
  for i in $(seq 600); do
    mapfile -t kids < <(alive $(descendants "$pid"))
    [ ${#kids[@]} -ge "$min" ] && break
    sleep 0.1
  done
  if [ ${#kids[@]} -lt "$min" ]; then
    fail "$desc" "never had $min child processes" "$(tail -3 "$WORK/case.out")"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return
  fi
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null
  # The children end within milliseconds of their parent (the parent-death signal is sent as it
  # exits; SIGTERM and SIGINT are forwarded before it exits). The points last seconds more, so an
  # orphan would still be running after this one-second grace.
  for i in $(seq 10); do
    mapfile -t left < <(alive "${kids[@]}")
    [ ${#left[@]} -eq 0 ] && break
    sleep 0.1
  done
  if [ ${#left[@]} -eq 0 ]; then
    pass "$desc: its ${#kids[@]} child processes (${kids[*]}) are gone"
  else
    fail "$desc" "left behind: $(ps -o pid=,ppid=,args= -p "$(IFS=,; echo "${left[*]}")")"
    kill -KILL "${left[@]}" 2>/dev/null
  fi
}

# A plan whose points take about 8 s each (Qwen3-32B on one trn2.48xlarge, 64 sequences per
# step), two at a time; a sweep whose points take about 9 s each (Llama-2-70B on trn1).
plan=("$TRNSIM" plan --model qwen3-32b --tokens 1e9 --systems trn2.48xlarge --max-chips 16 --global-batch 64 -j 2)
cat >"$WORK/sweep.yaml" <<'YAML'
name: orphans
command: run
scenario: llama2-70b-trn1-pp
axes:
  - key: mode
    values: [eager, compiled]
YAML
sweep=("$TRNSIM" sweep "$WORK/sweep.yaml" --db "$WORK/orphans.sqlite" -j 2)
mkdir -p "$WORK/tmp"
for sig in TERM INT KILL; do
  kill_case "SIG$sig to a running plan" "$sig" 1 "${plan[@]}"
  rm -f "$WORK/orphans.sqlite"
  TMPDIR=$WORK/tmp kill_case "SIG$sig to a running sweep" "$sig" 2 "${sweep[@]}"
  # Its work directory (the workers' logs) goes with it, but after SIGKILL, which no handler sees.
  if [ "$sig" != KILL ]; then
    check "SIG$sig to a running sweep: no work directory left in TMPDIR" \
      bash -c "[ -z \"\$(ls -A '$WORK/tmp')\" ]"
  fi
  rm -rf "${WORK:?}/tmp/"*
done

# The Python module: a call interrupted by SIGINT raises KeyboardInterrupt after stopping its
# child; SIGTERM and SIGKILL end the interpreter, and its children with it.
export PYTHONPATH=$BUILD/python
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3  # the interpreter the module is built for
py_run=("$PY" -c "
import signal, trnsim
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job starts with SIGINT ignored
try:
    trnsim.run('llama2-70b-trn1-pp')
except KeyboardInterrupt:
    print('KeyboardInterrupt')
")
py_sweep=("$PY" -c "
import signal, trnsim
signal.signal(signal.SIGINT, signal.default_int_handler)
trnsim.sweep('$WORK/sweep.yaml', db='$WORK/py.sqlite', jobs=2)
")
kill_case "SIGINT to Python in trnsim.run()" INT 1 "${py_run[@]}"
check "the interrupted call raised KeyboardInterrupt" grep -qx KeyboardInterrupt "$WORK/case.out"
for sig in TERM KILL; do
  kill_case "SIG$sig to Python in trnsim.run()" "$sig" 1 "${py_run[@]}"
done
for sig in INT TERM KILL; do
  rm -f "$WORK/py.sqlite"
  kill_case "SIG$sig to Python in trnsim.sweep()" "$sig" 3 "${py_sweep[@]}"
done
finish
