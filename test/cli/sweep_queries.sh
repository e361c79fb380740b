#!/usr/bin/env bash
# The SQL queries docs/sweeps.md shows (every `sqlite3 results.sqlite "..."` line of its sh
# blocks) run on a real sweep database with ok and infeasible rows: exit 0, nothing on stderr
# (no "malformed JSON"), at least one row each; and json_extract works on every row.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
cat >"$D/sweep.yaml" <<'YAML'
name: queries
command: run
scenario: qwen3-32b-trn2
axes:
  - values:
      - {model: llama3.1-8b, parallel.tp: 4}
      - {model: llama3.1-8b, parallel.tp: 3}
  - key: mode
    values: [compiled]
YAML
expect_ok "sweep with an ok and an infeasible point" -- sweep "$D/sweep.yaml" --db "$D/results.sqlite" -j 2

mapfile -t queries < <(awk '/^```sh$/ { inblock = 1; next } /^```/ { inblock = 0 } inblock && /^sqlite3 results.sqlite "/' \
  "$SRC/docs/sweeps.md")
if [ ${#queries[@]} -ge 3 ]; then pass "docs/sweeps.md shows ${#queries[@]} queries"; else fail "docs/sweeps.md shows queries" "found ${#queries[@]}"; fi
for q in "${queries[@]}"; do
  out=$(cd "$D" && bash -c "$q" 2>"$D/q.err") && rc=0 || rc=$?
  if [ "$rc" -eq 0 ] && [ ! -s "$D/q.err" ] && [ -n "$out" ]; then
    pass "query works: $q"
  else
    fail "query works: $q" "exit $rc, stderr: $(head -c 300 "$D/q.err")" "output: ${out:0:300}"
  fi
done

n=$(sqlite3 "$D/results.sqlite" "select count(*) from points")
m=$(sqlite3 "$D/results.sqlite" "select count(*) from points where json_valid(result) and json_extract(result, '$.schema_version') = 1")
check "json_extract works on every row ($m of $n)" test "$n" -eq 2 -a "$m" -eq "$n"
kind=$(sqlite3 "$D/results.sqlite" "select json_extract(result, '$.infeasible.kind') from points where status = 'infeasible'")
check "the infeasible row's kind is invalid-layout (got '$kind')" test "$kind" = invalid-layout
finish
