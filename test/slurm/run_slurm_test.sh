#!/usr/bin/env bash
# `make test-slurm`: a shipped sweep run as a real Slurm job array (docs/sweeps.md).
#
# Starts a private single-node Slurm that touches no system service: munged with its own key,
# socket, pid and log files, then slurmctld and slurmd (as root) from one slurm.conf, all under a
# temporary directory, on ports picked free at start. Submits tools/slurm/sweep_array.sbatch as
# an array of N tasks (task K runs `trnsim sweep --shard K/N`), waits for every task, merges the
# shard databases with `trnsim merge`, runs the same sweep in one local process and checks that
# every row (status, settings, reason and result JSON, apart from sim.wall_s) is equal. The
# daemons are always stopped by their pid files and the directory removed, also on failure.
#
# Usage: run_slurm_test.sh TRNSIM [SWEEP.yaml [N]]   (as root; exit 0 only when merged == local)
# SLURM_TEST_TIMEOUT: seconds to wait for the array (default 600); SLURM_TEST_KEEP=1 keeps the
# directory (logs, slurm.conf, databases) after the daemons are stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
trnsim=$(realpath "${1:?usage: run_slurm_test.sh TRNSIM [SWEEP.yaml [N]]}")
sweep=$(realpath "${2:-$src/workloads/sweeps/qwen3-32b-tp-fsdp-trn2.yaml}")
n=${3:-4}
timeout=${SLURM_TEST_TIMEOUT:-600}
sbatch_script=$src/tools/slurm/sweep_array.sbatch

fail() { echo "test-slurm: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "must run as root (slurmd starts the jobs of any user); use sudo"
[ -x "$trnsim" ] || fail "$trnsim is not an executable"
for t in munged slurmctld slurmd sbatch scontrol sinfo scancel sqlite3 python3; do
  command -v "$t" > /dev/null || fail "$t not found (make test-slurm installs SLURM_PKGS)"
done

# docs/sweeps.md quotes the sbatch script (without its comment lines): the quote must be current.
python3 - "$sbatch_script" "$src/docs/sweeps.md" <<'PY' || fail "docs/sweeps.md does not quote $sbatch_script as it is"
import re, sys
script = [l for l in open(sys.argv[1]).read().splitlines() if not l.startswith("# ")]
blocks = [b.splitlines() for b in re.findall(r"```sh\n(.*?)```", open(sys.argv[2]).read(), re.S)]
sys.exit(0 if script in blocks else 1)
PY

start=$SECONDS
tmp=$(mktemp -d /tmp/trnsim-slurm.XXXXXX)
chmod 755 "$tmp"  # munged wants its socket directory searchable by all
jobid=""

# Stop one daemon by its pid file: SIGTERM, up to 20 s to exit, then SIGKILL.
stop_daemon() {
  local name=$1 pidfile=$2 pid i
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2> /dev/null || return 0
  kill -TERM "$pid" 2> /dev/null || true
  for i in $(seq 1 200); do kill -0 "$pid" 2> /dev/null || return 0; sleep 0.1; done
  echo "test-slurm: $name (pid $pid) ignored SIGTERM for 20 s: SIGKILL" >&2
  kill -KILL "$pid" 2> /dev/null || true
}

cleanup() {
  local rc=$? i
  set +e
  if [ -n "$jobid" ] && [ -s "$tmp/slurmctld.pid" ]; then
    # Tasks still queued or running (a failure or a timeout): cancel them before slurmd goes.
    scancel "$jobid" 2> /dev/null
    for i in $(seq 1 100); do
      scontrol -o show job "$jobid" 2> /dev/null | grep -qE 'JobState=(PENDING|RUNNING|COMPLETING|CONFIGURING)' || break
      sleep 0.2
    done
  fi
  stop_daemon slurmd "$tmp/slurmd.pid"
  stop_daemon slurmctld "$tmp/slurmctld.pid"
  stop_daemon munged "$tmp/munged.pid"
  if [ $rc != 0 ]; then
    for log in munged.log slurmctld.log slurmd.log; do
      [ -s "$tmp/$log" ] && { echo "---- last lines of $log" >&2; tail -n 15 "$tmp/$log" >&2; }
    done
    for out in "$tmp"/run/slurm-*.out; do
      [ -s "$out" ] && { echo "---- $(basename "$out")" >&2; tail -n 5 "$out" >&2; }
    done
  fi
  if [ -n "${SLURM_TEST_KEEP:-}" ]; then echo "test-slurm: kept $tmp (SLURM_TEST_KEEP)" >&2; else rm -rf "$tmp"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Wait up to $1 seconds for the command "${@:2}" to succeed.
wait_for() {
  local limit=$1 t0=$SECONDS; shift
  until "$@" > /dev/null 2>&1; do
    [ $((SECONDS - t0)) -lt "$limit" ] || return 1
    sleep 0.2
  done
}

# ---- munged: its own key (1 KiB from /dev/urandom), socket, pid, seed and log files.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --key-file="$tmp/munge.key" --socket="$tmp/munge.socket" --pid-file="$tmp/munged.pid" \
  --seed-file="$tmp/munged.seed" --log-file="$tmp/munged.log" --num-threads=2 \
  || fail "munged did not start"
wait_for 10 test -S "$tmp/munge.socket" || fail "munged socket $tmp/munge.socket did not appear"
wait_for 10 test -s "$tmp/munged.pid" || fail "munged wrote no pid file"
echo test | munge --socket="$tmp/munge.socket" | unmunge --socket="$tmp/munge.socket" > /dev/null \
  || fail "munge round trip through $tmp/munge.socket failed"

# ---- slurm.conf: one node (this host, its CPUs and memory), one partition, free ports.
node=$(hostname -s)
cpus=$(nproc)
mem=$(free -m | awk '/^Mem:/ {print $2}')
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/run"
: > "$tmp/plugstack.conf"
cat > "$tmp/slurm.conf" <<EOF
# Generated by test/slurm/run_slurm_test.sh; everything lives in $tmp.
ClusterName=trnsim-test
SlurmctldHost=$node
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.socket
CredType=cred/munge
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
SlurmctldDebug=${SLURM_TEST_DEBUG:-info}
SlurmdDebug=${SLURM_TEST_DEBUG:-info}
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=trnsim Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf

# ---- slurmctld and slurmd (daemonised; they write their pid files).
slurmctld -i || fail "slurmctld did not start"
wait_for 20 test -s "$tmp/slurmctld.pid" || fail "slurmctld wrote no pid file"
wait_for 30 scontrol ping || fail "slurmctld does not answer on port $ctld_port"
slurmd || fail "slurmd did not start"
wait_for 20 test -s "$tmp/slurmd.pid" || fail "slurmd wrote no pid file"
node_idle() { [ "$(sinfo -h -n "$node" -o %T)" = idle ]; }
wait_for 60 node_idle || fail "node $node is not idle after 60 s: $(sinfo -h -n "$node" -o '%T %E')"
echo "test-slurm: private Slurm up in $((SECONDS - start)) s (node $node, $cpus CPUs, ${mem} MiB," \
  "ports $ctld_port/$slurmd_port, $tmp)"

# ---- the job array: one shard per task.
t_array=$SECONDS
# TRNSIM reaches the tasks through sbatch's default --export=ALL. (A --export list would make
# slurmd load root's login environment first, which takes seconds per task.)
jobid=$(cd "$tmp/run" && TRNSIM=$trnsim sbatch --parsable --array="1-$n" --chdir="$tmp/run" \
  --output="$tmp/run/slurm-%A_%a.out" "$sbatch_script" "$sweep" "$n") || fail "sbatch refused the array"
jobid=${jobid%%;*}
echo "test-slurm: submitted array job $jobid: sbatch --array=1-$n $(realpath --relative-to="$src" "$sbatch_script")" \
  "$(realpath --relative-to="$src" "$sweep") $n"
final_states='^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$'
while :; do
  states=$(scontrol -o show job "$jobid" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2) \
    || fail "scontrol show job $jobid failed"
  if [ "$(grep -cE "$final_states" <<< "$states")" = "$n" ] && [ "$(wc -l <<< "$states")" = "$n" ]; then break; fi
  [ $((SECONDS - t_array)) -lt "$timeout" ] \
    || fail "array job $jobid not finished after ${timeout}s (SLURM_TEST_TIMEOUT); states: $(tr '\n' ' ' <<< "$states")"
  sleep 1
done
bad=$(scontrol -o show job "$jobid" | grep -v 'JobState=COMPLETED' | grep -oE 'ArrayTaskId=[0-9]+ .*JobState=[A-Z_]+' \
  | sed -E 's/ .*JobState=/: /' || true)
[ -z "$bad" ] || fail "array tasks did not complete: $bad"
array_s=$((SECONDS - t_array))
echo "test-slurm: all $n array tasks COMPLETED in $array_s s"

# ---- merge the shards, run the same sweep locally, compare every row.
shards=()
for k in $(seq 1 "$n"); do
  [ -s "$tmp/run/shard$k.sqlite" ] || fail "array task $k wrote no shard$k.sqlite"
  shards+=("$tmp/run/shard$k.sqlite")
done
"$trnsim" merge "$tmp/merged.sqlite" "${shards[@]}" > /dev/null || fail "trnsim merge failed"
t_local=$SECONDS
"$trnsim" sweep "$sweep" --db "$tmp/local.sqlite" -j "$cpus" > /dev/null 2>&1 || fail "the local sweep failed"
local_s=$((SECONDS - t_local))
# Every column of the points table (axis columns such as "parallel.tp" quoted); the result JSON
# without its wall-clock field.
dump() {
  local cols
  cols=$(sqlite3 "$1" "select group_concat('\"' || name || '\"', ', ') from pragma_table_info('points') where name != 'result'")
  sqlite3 -line "$1" "select $cols, case when json_valid(result) then json_remove(result, '\$.sim.wall_s')
    else result end as result from points order by id"
}
dump "$tmp/merged.sqlite" > "$tmp/merged.txt"
dump "$tmp/local.sqlite" > "$tmp/local.txt"
points=$(sqlite3 "$tmp/local.sqlite" "select count(*) from points")
ok=$(sqlite3 "$tmp/local.sqlite" "select count(*) from points where status = 'ok'")
[ "$points" -ge "$n" ] || fail "the local run has $points points, fewer than the $n shards"
[ "$ok" -gt 0 ] || fail "no point of the local run is ok"
diff -u "$tmp/local.txt" "$tmp/merged.txt" > "$tmp/diff.txt" \
  || { head -n 40 "$tmp/diff.txt" >&2; fail "merged shard rows differ from the local run"; }
echo "test-slurm: ok: $(basename "$sweep"), $points points ($ok ok) in $n array tasks; merged rows == local rows;" \
  "array ${array_s} s, local ${local_s} s, total $((SECONDS - start)) s"
