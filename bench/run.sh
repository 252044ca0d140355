#!/usr/bin/env bash
# Benchmarks: each command next to its floor, in one run, on generated data.
#
#   bench/run.sh            full sizes (10,000 sessions, ~100 MB history, 1,000,000 rows);
#                           writes BENCHMARKS.md. Needs hyperfine and sqlite3 (Debian).
#   bench/run.sh --smoke    tiny sizes, a few seconds; what CI runs to keep this working.
#
# Data is generated once per size into $BENCH_DIR (default /tmp/sessionctl-bench) and
# reused; every destructive case works on a fresh copy (hyperfine --prepare).
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=0
[ "${1:-}" = "--smoke" ] && SMOKE=1
if [ $SMOKE = 1 ]; then
  SESSIONS=40 BIG=3000 ROWS=20000 ERRORS=2000 RUNS=2 WARMUP=0
else
  SESSIONS=10000 BIG=260000 ROWS=1000000 ERRORS=100000 RUNS=5 WARMUP=1
fi
BENCH_DIR=${BENCH_DIR:-/tmp/sessionctl-bench}
DATA=$BENCH_DIR/data-$SESSIONS-$BIG-$ROWS-$ERRORS
RESULTS=$BENCH_DIR/results-$SESSIONS-$BIG-$ROWS-$ERRORS
WORK=$BENCH_DIR/work
mkdir -p "$DATA" "$RESULTS" "$WORK"

for tool in hyperfine sqlite3; do
  command -v $tool >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 69; }
done

cargo build --release --quiet --bin sessionctl --examples
BIN=$PWD/target/release/sessionctl
EX=$PWD/target/release/examples
S="$BIN --offline"

gen() { # name args…
  local name=$1; shift
  if [ ! -f "$DATA/$name/.done" ]; then
    rm -rf "${DATA:?}/$name"
    echo "bench: generating $name ($*)" >&2
    "$EX/gen" --out "$DATA/$name" --seed 7 "$@" 2>/dev/null
    touch "$DATA/$name/.done"
  fi
}
gen many --sessions "$SESSIONS" --records 20 --errors 0
gen big --sessions 1 --records "$BIG" --errors 0
gen rows --sessions 1 --records "$ROWS" --words 12 --errors 0
gen errs --sessions 1 --records 2 --errors "$ERRORS"

fresh() { echo "rm -rf $WORK/$1 && cp -r $DATA/$1 $WORK/$1"; }
bench() { # case-name hyperfine-args…
  local name=$1; shift
  echo "bench: $name" >&2
  hyperfine -N --runs "$RUNS" --warmup "$WARMUP" --style none --export-json "$RESULTS/$name.json" "$@" >/dev/null
}

bench sessions-list \
  -n ours "$S --root $DATA/many sessions list --json" \
  -n floor "find $DATA/many/sessions -name history.json -exec stat --format=%s {} +"

bench compact-all-nowork \
  -n ours "$S --root $DATA/many compact --all --json" \
  -n floor "$S --root $DATA/many sessions list --json"

bench compact \
  --prepare "bash -c '$(fresh big)'" \
  -n ours "$S --root $WORK/big compact s00000 --yes --json" \
  -n floor "$EX/floor_json $WORK/big/sessions/s00000/history.json"

# Floors in SQL files, so no shell quoting gets in the way.
cat > "$RESULTS/reset.sql" <<'SQL'
PRAGMA synchronous=FULL;
BEGIN;
DELETE FROM messages WHERE session_id = 's00000';
DELETE FROM session_meta WHERE session_id = 's00000';
COMMIT;
SQL
bench reset \
  --prepare "bash -c '$(fresh rows)'" \
  -n ours "$S --root $WORK/rows reset s00000 --mode all --purge --yes --json" \
  -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"

bench replay \
  -n ours "$EX/replay $DATA/rows/.store 1" \
  -n floor "wc -l $DATA/rows/.store/db_1/record.aof"

bench tokens \
  -n ours "$EX/tokens $DATA/big/sessions/s00000/history.json heuristic" \
  -n floor "$EX/tokens $DATA/big/sessions/s00000/history.json o200k"

bench errors-list \
  -n ours "$S --root $DATA/errs errors list --json" \
  -n floor "$EX/replay $DATA/errs/.store 2"

WORDS=logrotate,database,timeout,permission,deploy,session,budget,cache
for w in ${WORDS//,/ }; do
  cat > "$RESULTS/search-$w.sql" <<SQL
SELECT m.session_id, m.send_at, m.role, m.content, snippet(messages_fts5, 1, '[', ']', '…', 16)
FROM messages_fts5 JOIN messages m ON m.id = messages_fts5.rowid
WHERE messages_fts5 MATCH 'content : "$w"' ORDER BY bm25(messages_fts5) LIMIT 20;
SQL
done
bench search-keyword \
  -L word "$WORDS" \
  "$S --root $DATA/rows search {word} --by keyword --limit 20 --json" \
  "sqlite3 $DATA/rows/.store/history.db '.read $RESULTS/search-{word}.sql'"

bench all-scaling \
  -n "ours 2 threads" "env RAYON_NUM_THREADS=2 $S --root $DATA/many sessions list --json" \
  -n "floor 1 thread" "env RAYON_NUM_THREADS=1 $S --root $DATA/many sessions list --json"

sizes="sessions=$SESSIONS big-records=$BIG rows=$ROWS errors=$ERRORS"
if [ $SMOKE = 1 ]; then
  python3 bench/report.py "$RESULTS" "$sizes" > "$RESULTS/BENCHMARKS.md"
  echo "bench: smoke run ok ($(ls "$RESULTS"/*.json | wc -l) cases)"
else
  python3 bench/report.py "$RESULTS" "$sizes" > BENCHMARKS.md
  echo "bench: wrote BENCHMARKS.md"
fi
