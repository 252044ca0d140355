#!/usr/bin/env bash
# Benchmarks: each command next to its floor, interleaved in one hyperfine
# run, at three sizes per case (¼, ½ and all of the largest), with the
# peak RSS of one more run of each. Regenerates BENCHMARKS.md.
#
#   bench/run.sh            largest: 10,000 sessions, a 260k-record (~92 MB) history,
#                           1,000,000 archive rows + db1 keys (~250 MB log), 100k errors.
#                           Needs hyperfine and sqlite3 (Debian).
#   bench/run.sh --smoke    tiny sizes, a few seconds; what CI runs to keep this working.
#   ONLY=case,… PARTS="4 2" CLEAN=1 bench/run.sh
#                           some cases, at some sizes, each size's data deleted after it.
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
# ONLY=case,case…: run just those cases (and generate just their data);
# report.py then writes only their rows
want() {
  [ -z "${ONLY:-}" ] && return 0
  local c
  for c in "$@"; do [[ ",$ONLY," == *",$c,"* ]] && return 0; done
  return 1
}
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

# PARTS="4 2": only those sizes (¼, ½; 1 is the largest). CLEAN=1: delete
# each size's data once its cases ran (a shared machine's disk).
for part in ${PARTS:-4 2 1}; do
  s=$((SESSIONS / part)) b=$((BIG / part)) r=$((ROWS / part)) e=$((ERRORS / part))
  DATA=$BENCH_DIR/data-$s-$b-$r-$e
  OUT=$RESULTS/size$part
  mkdir -p "$DATA" "$OUT"
  echo "sessions=$s big-records=$b rows=$r errors=$e" > "$OUT/sizes"
  want replay reset reset-trash check search-keyword && gen "$DATA" rows --sessions 1 --records "$r" --words 12 --errors 0
  want sessions-list summarize-all && gen "$DATA" many --sessions "$s" --records 20 --errors 0
  want compact undo-compact undo-compact-mirrors import tokens && gen "$DATA" big --sessions 1 --records "$b" --errors 0
  want errors-list && gen "$DATA" errs --sessions 1 --records 2 --errors "$e"
  # the same number of rows in 4 sessions: a reset of one deletes a quarter
  # of the archive, row by row through the FTS trigger (the rows root's one
  # session is all of it, which the archive deletes by rebuilding the index)
  want reset-part && gen "$DATA" rows4 --sessions 4 --records $((r / 4)) --words 12 --errors 0
  # compact --all with work in every session: 1/40 of the sessions, each
  # 200 records, compacted to a budget they all exceed (each session's
  # apply is fsync-bound, so more sessions only make the case slower)
  want all-scaling && gen "$DATA" work --sessions $((s / 40 > 4 ? s / 40 : 4)) --records 200 --errors 0
  size_of() { [ -f "$1" ] && stat -c %s "$1" > "$2" || true; }
  size_of "$DATA/rows/.store/db_1/record.aof" "$OUT/log-bytes"
  size_of "$DATA/big/sessions/s00000/history.json" "$OUT/history-bytes"
  size_of "$DATA/errs/.store/db_2/record.aof" "$OUT/errs-log-bytes"
  size_of "$DATA/rows4/.store/db_1/record.aof" "$OUT/rows4-log-bytes"

  if want replay; then
    bench replay \
      -n ours "$EX/replay $DATA/rows/.store 1" \
      -n floor "wc -l $DATA/rows/.store/db_1/record.aof"
    rss replay "$EX/replay" "$DATA/rows/.store" 1
  fi

  if want sessions-list; then
    # a first run writes the row cache; the measured runs are repeat runs
    $S --root "$DATA/many" sessions list --json >/dev/null
    bench sessions-list \
      -n ours "$S --root $DATA/many sessions list --json" \
      -n floor "$EX/floor_stat $DATA/many"
    rss sessions-list $S --root "$DATA/many" sessions list --json
  fi

  if want compact; then
    bench compact \
      --prepare "bash -c '$(fresh big)'" \
      -n ours "$S --root $WORK/big compact s00000 --yes --json" \
      -n floor "$EX/floor_typed_json $WORK/big/sessions/s00000/history.json"
    bash -c "$(fresh big)"
    rss compact $S --root "$WORK/big" compact s00000 --yes --json
  fi

  if want undo-compact; then
    # undo of a compact to a small budget (made in the prepare step, then
    # synced) against that compact itself, each on a fresh copy: putting
    # back is held to the cost of taking away
    bench undo-compact \
      --prepare "bash -c '$(fresh big) && $S --root $WORK/big compact s00000 --budget 3000 --yes --json >/dev/null && sync'" \
      --prepare "bash -c '$(fresh big)'" \
      -n ours "$S --root $WORK/big undo --yes --json" \
      -n floor "$S --root $WORK/big compact s00000 --budget 3000 --yes --json"
    bash -c "$(fresh big)"
    $S --root "$WORK/big" compact s00000 --budget 3000 --yes --json >/dev/null
    rss undo-compact $S --root "$WORK/big" undo --yes --json
  fi

  if want import; then
    # import of the big session's exported bundle into an empty root, against
    # `tar xf` of the same bundle as a tar (which fsyncs nothing)
    if [ ! -f "$DATA/bundle.tar" ]; then
      rm -rf "${DATA:?}/bundle"
      $S --root "$DATA/big" export s00000 -o "$DATA/bundle" >/dev/null
      tar cf "$DATA/bundle.tar" -C "$DATA/bundle" s00000
    fi
    du -sb "$DATA/bundle" | cut -f1 > "$OUT/bundle-bytes"
    bench import \
      --prepare "bash -c 'rm -rf $WORK/imported $WORK/untar && mkdir -p $WORK/imported/sessions $WORK/imported/.store $WORK/untar && sync'" \
      -n ours "$S --root $WORK/imported import $DATA/bundle/s00000 --yes --json" \
      -n floor "tar xf $DATA/bundle.tar -C $WORK/untar"
    rm -rf "${WORK:?}/imported" "${WORK:?}/untar"
    mkdir -p "$WORK/imported/sessions" "$WORK/imported/.store"
    rss import $S --root "$WORK/imported" import "$DATA/bundle/s00000" --yes --json
    rm -rf "${WORK:?}/imported"
  fi

  # the same undo in a store that keeps ToriiDB's mirror files, as
  # Agenvoy's do (one per key, never read back): the compact unlinks them,
  # the undo writes them back into their folders. Made once: a compact and
  # its undo in a copy of the big root given one mirror folder write them.
  if want undo-compact-mirrors; then
    if [ ! -f "$DATA/bigm.done" ]; then
      rm -rf "${DATA:?}/bigm" && cp -r "$DATA/big" "$DATA/bigm"
      mkdir -p "$DATA/bigm/.store/db_1/00"
      $S --root "$DATA/bigm" compact s00000 --budget 3000 --yes --json >/dev/null
      $S --root "$DATA/bigm" undo --yes --json >/dev/null
      rm -rf "${DATA:?}/bigm/.sessionctl"
      touch "$DATA/bigm.done"
    fi
    find "$DATA/bigm/.store/db_1" -name '*.json' | wc -l > "$OUT/mirror-files"
    bench undo-compact-mirrors \
      --prepare "bash -c '$(fresh bigm) && $S --root $WORK/bigm compact s00000 --budget 3000 --yes --json >/dev/null && sync'" \
      --prepare "bash -c '$(fresh bigm)'" \
      -n ours "$S --root $WORK/bigm undo --yes --json" \
      -n floor "$S --root $WORK/bigm compact s00000 --budget 3000 --yes --json"
    bash -c "$(fresh bigm)"
    $S --root "$WORK/bigm" compact s00000 --budget 3000 --yes --json >/dev/null
    rss undo-compact-mirrors $S --root "$WORK/bigm" undo --yes --json
    rm -rf "${WORK:?}/bigm"
  fi

  if want reset; then
    bench reset \
      --prepare "bash -c '$(fresh rows)'" \
      -n ours "$S --root $WORK/rows reset s00000 --mode all --purge --yes --json" \
      -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"
    bash -c "$(fresh rows)"
    rss reset $S --root "$WORK/rows" reset s00000 --mode all --purge --yes --json
  fi

  if want reset-part; then
    bench reset-part \
      --prepare "bash -c '$(fresh rows4)'" \
      -n ours "$S --root $WORK/rows4 reset s00000 --mode all --purge --yes --json" \
      -n floor "bash -c 'sqlite3 $WORK/rows4/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows4/.store/db_1/record.aof > /dev/null'"
    bash -c "$(fresh rows4)"
    rss reset-part $S --root "$WORK/rows4" reset s00000 --mode all --purge --yes --json
    rm -rf "${WORK:?}/rows4"
  fi

  if want reset-trash; then
    bench reset-trash \
      --prepare "bash -c '$(fresh rows)'" \
      -n ours "$S --root $WORK/rows reset s00000 --mode all --yes --json" \
      -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset-export.sql\" && sync $WORK/reset-export.json && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"
    bash -c "$(fresh rows)"
    rss reset-trash $S --root "$WORK/rows" reset s00000 --mode all --yes --json
    rm -f "$WORK/reset-export.json"
  fi
  rm -rf "${WORK:?}/rows" "${WORK:?}/big"

  if want check; then
    # check reads every tier; held to the db1 replay it starts with
    bench check \
      -n ours "$S --root $DATA/rows check --json" \
      -n floor "$EX/replay $DATA/rows/.store 1"
    rss check $S --root "$DATA/rows" check --json
  fi

  if want search-keyword; then
    bench search-keyword \
      -L word "$WORDS" \
      "$S --root $DATA/rows search {word} --by keyword --limit 20 --json" \
      "sqlite3 $DATA/rows/.store/history.db '.read $RESULTS/search-{word}.sql'"
    rss search-keyword $S --root "$DATA/rows" search logrotate --by keyword --limit 20 --json
  fi

  if want errors-list; then
    bench errors-list \
      -n ours "$S --root $DATA/errs errors list --json" \
      -n floor "$EX/replay $DATA/errs/.store 2"
    rss errors-list $S --root "$DATA/errs" errors list --json
  fi

  if want tokens; then
    bench tokens \
      -n ours "$EX/tokens $DATA/big/sessions/s00000/history.json o200k" \
      -n floor "$EX/tokens $DATA/big/sessions/s00000/history.json heuristic"
    rss tokens "$EX/tokens" "$DATA/big/sessions/s00000/history.json" o200k
  fi

  if want all-scaling; then
    bench all-scaling \
      --prepare "bash -c '$(fresh work)'" \
      -n "ours 2 threads" "env RAYON_NUM_THREADS=2 $S --root $WORK/work compact --all --budget 3000 --yes --json" \
      -n "floor 1 thread" "env RAYON_NUM_THREADS=1 $S --root $WORK/work compact --all --budget 3000 --yes --json"
    bash -c "$(fresh work)"
    rss all-scaling $S --root "$WORK/work" compact --all --budget 3000 --yes --json
    rm -rf "${WORK:?}/work"
  fi

  if want summarize-all; then
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
  fi
  if [ "${CLEAN:-0}" = 1 ]; then rm -rf "${DATA:?}" "${WORK:?}"/*; fi
done

if [ $SMOKE = 1 ]; then
  python3 bench/report.py "$RESULTS" > "$RESULTS/BENCHMARKS.md"
  echo "bench: smoke run ok ($(ls "$RESULTS"/size*/*.json | wc -l) cases)"
else
  python3 bench/report.py "$RESULTS" > BENCHMARKS.md
  echo "bench: wrote BENCHMARKS.md"
fi
