#!/usr/bin/env bash
# Benchmarks: each command next to its floor, interleaved in one hyperfine
# run, at three sizes per case (¼, ½ and all of the largest), with the
# peak RSS of one more run of each. Regenerates BENCHMARKS.md.
#
#   bench/run.sh            largest: 10,000 sessions, a 260k-record (~92 MB) history,
#                           1,000,000 archive rows + db1 keys (~250 MB log), 100k errors.
#                           Needs hyperfine and sqlite3 (Debian).
#   bench/run.sh --smoke    tiny sizes, a few seconds; what CI runs to keep this working.
#
# Data is generated once per size into $BENCH_DIR (default /tmp/sessionctl-bench) and
# reused; every destructive case works on a fresh copy (hyperfine --prepare).
# Delete $BENCH_DIR when done: the largest size takes ~2 GB.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=0
[ "${1:-}" = "--smoke" ] && SMOKE=1
if [ $SMOKE = 1 ]; then
  SESSIONS=40 BIG=3000 ROWS=20000 ERRORS=2000 RUNS=2 WARMUP=0
else
  SESSIONS=${SESSIONS:-10000} BIG=${BIG:-260000} ROWS=${ROWS:-1000000} ERRORS=${ERRORS:-100000}
  RUNS=${RUNS:-3} WARMUP=1
fi
BENCH_DIR=${BENCH_DIR:-/tmp/sessionctl-bench}
RESULTS=$BENCH_DIR/results-$SESSIONS-$BIG-$ROWS-$ERRORS
WORK=$BENCH_DIR/work
rm -rf "$RESULTS"
mkdir -p "$RESULTS" "$WORK"

for tool in hyperfine sqlite3; do
  command -v $tool >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 69; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 69; }

# The smoke run only keeps the harness working: it reuses the debug build
# `cargo test` made (CI runs it right after), rather than paying for a
# release build of every dependency. Measurements need --release.
if [ $SMOKE = 1 ]; then PROFILE=debug; else PROFILE=release; fi
cargo build $([ $PROFILE = release ] && echo --release) --quiet --bin sessionctl --examples
BIN=$PWD/target/$PROFILE/sessionctl
EX=$PWD/target/$PROFILE/examples
S="$BIN --offline"

gen() { # dir name args…
  local dir=$1 name=$2; shift 2
  if [ ! -f "$dir/$name/.done" ]; then
    rm -rf "${dir:?}/$name"
    echo "bench: generating $dir/$name ($*)" >&2
    "$EX/gen" --out "$dir/$name" --seed 7 "$@" 2>/dev/null
    touch "$dir/$name/.done"
  fi
}

bench() { # case-name hyperfine-args…
  local name=$1; shift
  echo "bench: $name" >&2
  hyperfine -N --runs "$RUNS" --warmup "$WARMUP" --style none --export-json "$OUT/$name.json" "$@" >/dev/null
}

rss() { # case-name command… : peak RSS (KiB) of one run
  local name=$1; shift
  /usr/bin/time -f %M -o "$OUT/$name.rss" "$@" >/dev/null 2>&1 || true
}

# sync: the copy's dirty pages are written back before the measured run,
# not during it (fsync-bound cases otherwise time the prepare step's writeback)
fresh() { echo "rm -rf $WORK/$1 && cp -r $DATA/$1 $WORK/$1 && sync"; }

# A checksum of every file's bytes and every path of a root, outside
# .sessionctl/ (our own caches may change on a read-only run).
tree_sum() {
  (cd "$1" && find . -path ./.sessionctl -prune -o -print0 | LC_ALL=C sort -z \
    | xargs -0 sh -c 'for p; do printf "%s\n" "$p"; [ -f "$p" ] && [ ! -L "$p" ] && cat "$p"; done; true' sh \
    | sha256sum)
}

# Floors in SQL files, so no shell quoting gets in the way.
cat > "$RESULTS/reset.sql" <<'SQL'
PRAGMA synchronous=FULL;
BEGIN;
DELETE FROM messages WHERE session_id = 's00000';
DELETE FROM session_meta WHERE session_id = 's00000';
COMMIT;
SQL
# reset without --purge keeps what it deletes: the floor exports the rows too
cat > "$RESULTS/reset-export.sql" <<SQL
.mode json
.output $WORK/reset-export.json
SELECT id, session_id, send_at, role, content, sender FROM messages WHERE session_id = 's00000';
.output stdout
SQL
cat "$RESULTS/reset.sql" >> "$RESULTS/reset-export.sql"
WORDS=logrotate,database,timeout,permission,deploy,session,budget,cache
for w in ${WORDS//,/ }; do
  cat > "$RESULTS/search-$w.sql" <<SQL
SELECT m.session_id, m.send_at, m.role, m.content, snippet(messages_fts5, 1, '[', ']', '…', 16)
FROM messages_fts5 JOIN messages m ON m.id = messages_fts5.rowid
WHERE messages_fts5 MATCH 'content : "$w"' ORDER BY bm25(messages_fts5) LIMIT 20;
SQL
done

for part in 4 2 1; do
  s=$((SESSIONS / part)) b=$((BIG / part)) r=$((ROWS / part)) e=$((ERRORS / part))
  DATA=$BENCH_DIR/data-$s-$b-$r-$e
  OUT=$RESULTS/size$part
  mkdir -p "$DATA" "$OUT"
  echo "sessions=$s big-records=$b rows=$r errors=$e" > "$OUT/sizes"
  gen "$DATA" many --sessions "$s" --records 20 --errors 0
  gen "$DATA" big --sessions 1 --records "$b" --errors 0
  gen "$DATA" rows --sessions 1 --records "$r" --words 12 --errors 0
  gen "$DATA" errs --sessions 1 --records 2 --errors "$e"
  # the same number of rows in 4 sessions: a reset of one deletes a quarter
  # of the archive, row by row through the FTS trigger (the rows root's one
  # session is all of it, which the archive deletes by rebuilding the index)
  gen "$DATA" rows4 --sessions 4 --records $((r / 4)) --words 12 --errors 0
  # compact --all with work in every session: 1/40 of the sessions, each
  # 200 records, compacted to a budget they all exceed (each session's
  # apply is fsync-bound, so more sessions only make the case slower)
  gen "$DATA" work --sessions $((s / 40 > 4 ? s / 40 : 4)) --records 200 --errors 0
  stat -c %s "$DATA/rows/.store/db_1/record.aof" > "$OUT/log-bytes"
  stat -c %s "$DATA/big/sessions/s00000/history.json" > "$OUT/history-bytes"
  stat -c %s "$DATA/errs/.store/db_2/record.aof" > "$OUT/errs-log-bytes"
  stat -c %s "$DATA/rows4/.store/db_1/record.aof" > "$OUT/rows4-log-bytes"

  bench replay \
    -n ours "$EX/replay $DATA/rows/.store 1" \
    -n floor "wc -l $DATA/rows/.store/db_1/record.aof"
  rss replay "$EX/replay" "$DATA/rows/.store" 1

  # a first run writes the row cache; the measured runs are repeat runs
  $S --root "$DATA/many" sessions list --json >/dev/null
  bench sessions-list \
    -n ours "$S --root $DATA/many sessions list --json" \
    -n floor "$EX/floor_stat $DATA/many"
  rss sessions-list $S --root "$DATA/many" sessions list --json

  bench compact \
    --prepare "bash -c '$(fresh big)'" \
    -n ours "$S --root $WORK/big compact s00000 --yes --json" \
    -n floor "$EX/floor_typed_json $WORK/big/sessions/s00000/history.json"
  bash -c "$(fresh big)"
  rss compact $S --root "$WORK/big" compact s00000 --yes --json

  bench reset \
    --prepare "bash -c '$(fresh rows)'" \
    -n ours "$S --root $WORK/rows reset s00000 --mode all --purge --yes --json" \
    -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"
  bash -c "$(fresh rows)"
  rss reset $S --root "$WORK/rows" reset s00000 --mode all --purge --yes --json

  bench reset-part \
    --prepare "bash -c '$(fresh rows4)'" \
    -n ours "$S --root $WORK/rows4 reset s00000 --mode all --purge --yes --json" \
    -n floor "bash -c 'sqlite3 $WORK/rows4/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows4/.store/db_1/record.aof > /dev/null'"
  bash -c "$(fresh rows4)"
  rss reset-part $S --root "$WORK/rows4" reset s00000 --mode all --purge --yes --json
  rm -rf "${WORK:?}/rows4"

  bench reset-trash \
    --prepare "bash -c '$(fresh rows)'" \
    -n ours "$S --root $WORK/rows reset s00000 --mode all --yes --json" \
    -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset-export.sql\" && sync $WORK/reset-export.json && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"
  bash -c "$(fresh rows)"
  rss reset-trash $S --root "$WORK/rows" reset s00000 --mode all --yes --json
  rm -f "$WORK/reset-export.json"
  rm -rf "${WORK:?}/rows" "${WORK:?}/big"

  bench search-keyword \
    -L word "$WORDS" \
    "$S --root $DATA/rows search {word} --by keyword --limit 20 --json" \
    "sqlite3 $DATA/rows/.store/history.db '.read $RESULTS/search-{word}.sql'"
  rss search-keyword $S --root "$DATA/rows" search logrotate --by keyword --limit 20 --json

  bench errors-list \
    -n ours "$S --root $DATA/errs errors list --json" \
    -n floor "$EX/replay $DATA/errs/.store 2"
  rss errors-list $S --root "$DATA/errs" errors list --json

  bench tokens \
    -n ours "$EX/tokens $DATA/big/sessions/s00000/history.json o200k" \
    -n floor "$EX/tokens $DATA/big/sessions/s00000/history.json heuristic"
  rss tokens "$EX/tokens" "$DATA/big/sessions/s00000/history.json" o200k

  bench all-scaling \
    --prepare "bash -c '$(fresh work)'" \
    -n "ours 2 threads" "env RAYON_NUM_THREADS=2 $S --root $WORK/work compact --all --budget 3000 --yes --json" \
    -n "floor 1 thread" "env RAYON_NUM_THREADS=1 $S --root $WORK/work compact --all --budget 3000 --yes --json"
  bash -c "$(fresh work)"
  rss all-scaling $S --root "$WORK/work" compact --all --budget 3000 --yes --json
  rm -rf "${WORK:?}/work"

  # summarize --all on an up-to-date root: a first run brings every summary
  # up to date (on a copy: the many root stays as generated); the measured
  # runs are repeats, which must write nothing outside .sessionctl/
  bash -c "$(fresh many)"
  $S --root "$WORK/many" summarize --all --yes --json >/dev/null
  before=$(tree_sum "$WORK/many")
  bench summarize-all \
    -n ours "$S --root $WORK/many summarize --all --yes --json" \
    -n floor "$EX/floor_stat $WORK/many"
  rss summarize-all $S --root "$WORK/many" summarize --all --yes --json
  if [ "$(tree_sum "$WORK/many")" != "$before" ]; then
    echo "bench: summarize --all on an up-to-date root changed files" >&2
    echo changed > "$OUT/summarize-all.wrote"
  fi
  rm -rf "${WORK:?}/many"
done

if [ $SMOKE = 1 ]; then
  python3 bench/report.py "$RESULTS" > "$RESULTS/BENCHMARKS.md"
  echo "bench: smoke run ok ($(ls "$RESULTS"/size*/*.json | wc -l) cases)"
else
  python3 bench/report.py "$RESULTS" > BENCHMARKS.md
  echo "bench: wrote BENCHMARKS.md"
fi
