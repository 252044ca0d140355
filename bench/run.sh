#!/usr/bin/env bash
# Benchmarks: each command next to its floor, interleaved in one hyperfine
# run, at three sizes per case (¼, ½ and all of the largest), with the
# peak RSS of one more run of each. Regenerates BENCHMARKS.md.
#
#   bench/run.sh            largest: 10,000 sessions, a 260k-record (~92 MB) history,
#                           1,000,000 archive rows + db1 keys (~250 MB log), 100k errors.
#                           Needs hyperfine and sqlite3 (Debian).
#   bench/run.sh --smoke    tiny sizes, a few seconds; what CI runs to keep this working.
#   ONLY="case …"           only these cases (a partial report goes beside the results).
#   BASELINE=path           an older sessionctl: the first-* cases compare first runs with it.
#   APPEND_BYTES=n          what the inc-* cases append to a log after its index was kept.
#   PARTS="4 2" CLEAN=1     only some sizes (4 = a quarter); each size's data deleted after it.
#
# Data is generated once per size into $BENCH_DIR (default /tmp/sessionctl-bench) and
# reused; every destructive case works on a fresh copy (hyperfine --prepare).
# Delete $BENCH_DIR when done: the largest size takes ~2 GB.
set -euo pipefail
cd "$(dirname "$0")/.."

SMOKE=0
[ "${1:-}" = "--smoke" ] && SMOKE=1
if [ $SMOKE = 1 ]; then
  SESSIONS=16 BIG=800 ROWS=4000 ERRORS=400 RUNS=2 WARMUP=0 APPEND_BYTES=8000
else
  SESSIONS=${SESSIONS:-10000} BIG=${BIG:-260000} ROWS=${ROWS:-1000000} ERRORS=${ERRORS:-100000}
  RUNS=${RUNS:-3} WARMUP=1
fi
BENCH_DIR=${BENCH_DIR:-/tmp/sessionctl-bench}
# What the ToriiDB index cases append to a log after the index was kept.
APPEND_BYTES=${APPEND_BYTES:-1000000}
# The first-run cases compare with this older sessionctl binary when given
# (the same first run, interleaved); without it they are skipped.
BASELINE=${BASELINE:-}
# Run only these cases (names separated by spaces); empty: all. A partial
# run writes its report beside the results, not over BENCHMARKS.md.
ONLY=${ONLY:-}
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

wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
any_wanted() { local c; for c; do wanted "$c" && return 0; done; return 1; }

bench() { # case-name hyperfine-args…
  local name=$1; shift
  wanted "$name" || return 0
  echo "bench: $name" >&2
  hyperfine -N --runs "$RUNS" --warmup "$WARMUP" --style none --export-json "$OUT/$name.json" "$@" >/dev/null
}

rss() { # case-name command… : peak RSS (KiB) of one run
  local name=$1; shift
  wanted "$name" || return 0
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
# The smoke run keeps the harness working at one size; growth needs all three.
[ $SMOKE = 1 ] && PARTS=${PARTS:-1}
for part in ${PARTS:-4 2 1}; do
  s=$((SESSIONS / part)) b=$((BIG / part)) r=$((ROWS / part)) e=$((ERRORS / part))
  DATA=$BENCH_DIR/data-$s-$b-$r-$e
  OUT=$RESULTS/size$part
  mkdir -p "$DATA" "$OUT"
  echo "sessions=$s big-records=$b rows=$r errors=$e" > "$OUT/sizes"
  if any_wanted sessions-list summarize-all inc-sessions-list first-sessions-list; then
    gen "$DATA" many --sessions "$s" --records 20 --errors 0
  fi
  if any_wanted compact undo-compact undo-compact-mirrors import tokens; then
    gen "$DATA" big --sessions 1 --records "$b" --errors 0
    stat -c %s "$DATA/big/sessions/s00000/history.json" > "$OUT/history-bytes"
  fi
  if any_wanted replay reset reset-trash check search-keyword inc-search-keyword first-rows-list; then
    gen "$DATA" rows --sessions 1 --records "$r" --words 12 --errors 0
    stat -c %s "$DATA/rows/.store/db_1/record.aof" > "$OUT/log-bytes"
  fi
  if any_wanted errors-list inc-errors-list first-errors-list; then
    gen "$DATA" errs --sessions 1 --records 2 --errors "$e"
    stat -c %s "$DATA/errs/.store/db_2/record.aof" > "$OUT/errs-log-bytes"
  fi
  # the same number of rows in 4 sessions: a reset of one deletes a quarter
  # of the archive, row by row through the FTS trigger (the rows root's one
  # session is all of it, which the archive deletes by rebuilding the index)
  if any_wanted reset-part; then
    gen "$DATA" rows4 --sessions 4 --records $((r / 4)) --words 12 --errors 0
    stat -c %s "$DATA/rows4/.store/db_1/record.aof" > "$OUT/rows4-log-bytes"
  fi
  # compact --all with work in every session: 1/40 of the sessions, each
  # 200 records, compacted to a budget they all exceed (each session's
  # apply is fsync-bound, so more sessions only make the case slower)
  if any_wanted all-scaling; then
    gen "$DATA" work --sessions $((s / 40 > 4 ? s / 40 : 4)) --records 200 --errors 0
  fi

  bench replay \
    -n ours "$EX/replay $DATA/rows/.store 1" \
    -n floor "wc -l $DATA/rows/.store/db_1/record.aof"
  rss replay "$EX/replay" "$DATA/rows/.store" 1

  if wanted sessions-list; then
    # a first run writes the row cache; the measured runs are repeat runs
    $S --root "$DATA/many" sessions list --json >/dev/null
    bench sessions-list \
      -n ours "$S --root $DATA/many sessions list --json" \
      -n floor "$EX/floor_stat $DATA/many"
    rss sessions-list $S --root "$DATA/many" sessions list --json
  fi

  if wanted compact; then
    bench compact \
      --prepare "bash -c '$(fresh big)'" \
      -n ours "$S --root $WORK/big compact s00000 --yes --json" \
      -n floor "$EX/floor_typed_json $WORK/big/sessions/s00000/history.json"
    bash -c "$(fresh big)"
    rss compact $S --root "$WORK/big" compact s00000 --yes --json
  fi

  if wanted undo-compact; then
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

  if wanted import; then
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
  if wanted undo-compact-mirrors; then
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

  if wanted reset; then
    bench reset \
      --prepare "bash -c '$(fresh rows)'" \
      -n ours "$S --root $WORK/rows reset s00000 --mode all --purge --yes --json" \
      -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"
    bash -c "$(fresh rows)"
    rss reset $S --root "$WORK/rows" reset s00000 --mode all --purge --yes --json
  fi

  if wanted reset-part; then
    bench reset-part \
      --prepare "bash -c '$(fresh rows4)'" \
      -n ours "$S --root $WORK/rows4 reset s00000 --mode all --purge --yes --json" \
      -n floor "bash -c 'sqlite3 $WORK/rows4/.store/history.db \".read $RESULTS/reset.sql\" && cat $WORK/rows4/.store/db_1/record.aof > /dev/null'"
    bash -c "$(fresh rows4)"
    rss reset-part $S --root "$WORK/rows4" reset s00000 --mode all --purge --yes --json
    rm -rf "${WORK:?}/rows4"
  fi

  if wanted reset-trash; then
    bench reset-trash \
      --prepare "bash -c '$(fresh rows)'" \
      -n ours "$S --root $WORK/rows reset s00000 --mode all --yes --json" \
      -n floor "bash -c 'sqlite3 $WORK/rows/.store/history.db \".read $RESULTS/reset-export.sql\" && sync $WORK/reset-export.json && cat $WORK/rows/.store/db_1/record.aof > /dev/null'"
    bash -c "$(fresh rows)"
    rss reset-trash $S --root "$WORK/rows" reset s00000 --mode all --yes --json
    rm -f "$WORK/reset-export.json"
  fi
  rm -rf "${WORK:?}/rows" "${WORK:?}/big"

  if wanted check; then
    # check reads every tier; held to the db1 replay it starts with
    bench check \
      -n ours "$S --root $DATA/rows check --json" \
      -n floor "$EX/replay $DATA/rows/.store 1"
    rss check $S --root "$DATA/rows" check --json
  fi

  if wanted search-keyword; then
    bench search-keyword \
      -L word "$WORDS" \
      "$S --root $DATA/rows search {word} --by keyword --limit 20 --json" \
      "sqlite3 $DATA/rows/.store/history.db '.read $RESULTS/search-{word}.sql'"
    rss search-keyword $S --root "$DATA/rows" search logrotate --by keyword --limit 20 --json
  fi

  if wanted errors-list; then
    # a first run each time: no index of db2 kept yet (see the index cases)
    bench errors-list \
      --prepare "rm -rf $DATA/errs/.sessionctl" \
      -n ours "$S --root $DATA/errs errors list --json" \
      -n floor "$EX/replay $DATA/errs/.store 2"
    rm -rf "$DATA/errs/.sessionctl"
    rss errors-list $S --root "$DATA/errs" errors list --json
    rm -rf "$DATA/errs/.sessionctl"
  fi

  bench tokens \
    -n ours "$EX/tokens $DATA/big/sessions/s00000/history.json o200k" \
    -n floor "$EX/tokens $DATA/big/sessions/s00000/history.json heuristic"
  rss tokens "$EX/tokens" "$DATA/big/sessions/s00000/history.json" o200k

  if wanted all-scaling; then
    bench all-scaling \
      --prepare "bash -c '$(fresh work)'" \
      -n "ours 2 threads" "env RAYON_NUM_THREADS=2 $S --root $WORK/work compact --all --budget 3000 --yes --json" \
      -n "floor 1 thread" "env RAYON_NUM_THREADS=1 $S --root $WORK/work compact --all --budget 3000 --yes --json"
    bash -c "$(fresh work)"
    rss all-scaling $S --root "$WORK/work" compact --all --budget 3000 --yes --json
    rm -rf "${WORK:?}/work"
  fi

  # The ToriiDB index kept in .sessionctl/: a read after APPEND_BYTES were
  # appended to the log since an earlier read kept the index (each run gets
  # back the caches as they were before the append), and first runs, which
  # write the index, against the previous build ($BASELINE).
  inc_root() { # root db command… : $WORK/inc-<root>, indexed, then appended to
    local name=$1 db=$2; shift 2
    rm -rf "${WORK:?}/inc-$name" "$WORK/inc-$name.saved"
    cp -a "$DATA/$name" "$WORK/inc-$name"
    rm -rf "$WORK/inc-$name/.sessionctl"
    sleep 3 # the copy's change times are new: only a settled log is indexed
    $S --root "$WORK/inc-$name" "$@" >/dev/null
    mkdir -p "$WORK/inc-$name/.sessionctl"
    cp -a "$WORK/inc-$name/.sessionctl" "$WORK/inc-$name.saved"
    python3 bench/append.py "$WORK/inc-$name/.store/db_$db/record.aof" "$APPEND_BYTES" "$WORK/inc-$name.appended"
    stat -c %s "$WORK/inc-$name.appended" > "$OUT/inc-$name-appended-bytes"
  }
  restore() { echo "rm -rf $WORK/inc-$1/.sessionctl && cp -a $WORK/inc-$1.saved $WORK/inc-$1/.sessionctl"; }
  twice_wc() { echo "wc -l $WORK/inc-$1.appended > /dev/null && wc -l $WORK/inc-$1.appended > /dev/null"; }

  if wanted inc-sessions-list; then
    inc_root many 1 sessions list --json
    bench inc-sessions-list \
      --prepare "bash -c '$(restore many)'" \
      -n ours "$S --root $WORK/inc-many sessions list --json" \
      -n floor "sh -c '$EX/floor_stat $WORK/inc-many > /dev/null && $(twice_wc many)'"
    bash -c "$(restore many)"
    rss inc-sessions-list $S --root "$WORK/inc-many" sessions list --json
    rm -rf "${WORK:?}/inc-many" "$WORK/inc-many.saved"
  fi

  if wanted inc-errors-list; then
    # the floor: the same read with nothing appended since the index
    rm -rf "${WORK:?}/errs-indexed"
    cp -a "$DATA/errs" "$WORK/errs-indexed"
    rm -rf "$WORK/errs-indexed/.sessionctl"
    inc_root errs 2 errors list --json
    $S --root "$WORK/errs-indexed" errors list --json >/dev/null
    bench inc-errors-list \
      --prepare "bash -c '$(restore errs)'" \
      -n ours "$S --root $WORK/inc-errs errors list --json" \
      -n floor "sh -c '$S --root $WORK/errs-indexed errors list --json > /dev/null && $(twice_wc errs)'"
    bash -c "$(restore errs)"
    rss inc-errors-list $S --root "$WORK/inc-errs" errors list --json
    rm -rf "${WORK:?}/inc-errs" "$WORK/inc-errs.saved" "$WORK/errs-indexed"
  fi

  if wanted inc-search-keyword; then
    # a search without an index scans the log and keeps none: a listing
    # keeps it
    inc_root rows 1 sessions list --json
    bench inc-search-keyword \
      -L word "$WORDS" \
      --prepare "bash -c '$(restore rows)'" \
      "$S --root $WORK/inc-rows search {word} --by keyword --limit 20 --json" \
      "sh -c 'sqlite3 $WORK/inc-rows/.store/history.db \".read $RESULTS/search-{word}.sql\" > /dev/null && $(twice_wc rows)'"
    bash -c "$(restore rows)"
    rss inc-search-keyword $S --root "$WORK/inc-rows" search logrotate --by keyword --limit 20 --json
    rm -rf "${WORK:?}/inc-rows" "$WORK/inc-rows.saved"
  fi

  if [ -n "$BASELINE" ]; then
    # first runs: nothing under .sessionctl/ yet (ours writes the index)
    for c in "first-sessions-list many sessions list --json" \
             "first-rows-list rows sessions list --json" \
             "first-errors-list errs errors list --json"; do
      set -- $c
      name=$1 root=$2; shift 2
      wanted "$name" || continue
      rm -rf "${WORK:?}/first-$root"
      cp -a "$DATA/$root" "$WORK/first-$root"
      rm -rf "$WORK/first-$root/.sessionctl"
      sleep 3
      bench "$name" \
        --prepare "rm -rf $WORK/first-$root/.sessionctl" \
        -n ours "$S --root $WORK/first-$root $*" \
        -n floor "$BASELINE --offline --root $WORK/first-$root $*"
      rm -rf "$WORK/first-$root/.sessionctl"
      rss "$name" $S --root "$WORK/first-$root" "$@"
      rm -rf "${WORK:?}/first-$root"
    done
  fi

  if wanted summarize-all; then
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

if [ $SMOKE = 1 ] || [ -n "$ONLY" ]; then
  python3 bench/report.py "$RESULTS" > "$RESULTS/BENCHMARKS.md"
  echo "bench: $([ $SMOKE = 1 ] && echo smoke run ok || echo partial run) ($(ls "$RESULTS"/size*/*.json | wc -l) cases): $RESULTS/BENCHMARKS.md"
else
  python3 bench/report.py "$RESULTS" > BENCHMARKS.md
  echo "bench: wrote BENCHMARKS.md"
fi
