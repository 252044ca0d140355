#!/usr/bin/env python3
"""Turn bench/run.sh results (hyperfine exports + peak RSS, three sizes) into
BENCHMARKS.md (stdout)."""
import datetime, json, os, platform, statistics, subprocess, sys

results = sys.argv[1]
SIZES = ["size4", "size2", "size1"]  # ¼, ½, all of the largest

# name, what, floor, aim (ratio ours/floor unless said)
CASES = [
    ("replay", "ToriiDB replay of the db1 log (rows root)", "`wc -l` on the same file", "≤ 6×, linear"),
    ("sessions-list", "`sessions list`, repeat run (many root)", "in-process stat of every session file (`bench/floors/stat.rs`)", "≤ 3×"),
    ("compact", "`compact` of one big history.json", "typed-struct serde read + pretty write + fsync (`bench/floors/typed_json.rs`)", "≤ 2×"),
    ("undo-compact", "`undo` of that `compact` (big root)", "the `compact` itself, on the same fresh copy", "≤ 3×"),
    ("undo-compact-mirrors", "the same `undo` in a store with ToriiDB's mirror files (one per key, as Agenvoy's)", "the `compact` itself, which unlinks them, on the same fresh copy", "≤ 3×"),
    ("import", "`import` of the big session's exported bundle into an empty root", "`tar xf` of the same bundle as a tar (no fsync)", "≤ 5×"),
    ("reset", "`reset --mode all --purge` (rows root)", "`sqlite3` DELETE txn + one read of the log", "≤ 1.0×"),
    ("reset-part", "`reset --mode all --purge` of a session holding ¼ of the archive (rows4 root)", "`sqlite3` DELETE txn + one read of the log", "≤ 1.0×"),
    ("reset-trash", "`reset --mode all` to the trash (rows root)", "`sqlite3` JSON export of the rows + fsync + DELETE txn + one read of the log", "≤ 1.0×"),
    ("check", "`check` of the whole root (rows root: one session, its history and archive)", "db1 replay alone", "peak RSS ≤ 1.5× log"),
    ("search-keyword", "`search --by keyword` (rows root), 8 words", "`sqlite3` CLI, same MATCH", "≤ 3×"),
    ("errors-list", "`errors list --json` (errs root)", "db2 replay alone", "≤ 1.5×"),
    ("tokens", "exact o200k count of the big history.json", "heuristic count, same file", "≥ 50 MB/s"),
    ("all-scaling", "`compact --all` with work in every session (work root), 2 threads", "same, 1 thread (`RAYON_NUM_THREADS`)", "≥ 1.7× faster"),
    ("summarize-all", "`summarize --all`, repeat run on an up-to-date root (many root)", "in-process stat of every session file (`bench/floors/stat.rs`)", "≤ 1×, no writes"),
    ("inc-sessions-list", "`sessions list` after `APPEND_BYTES` (1 MB) were appended to db1 since the last read (many root)", "in-process stat of every session file + `wc -l` of the appended bytes, twice", "≤ 1×"),
    ("inc-errors-list", "`errors list --json` after `APPEND_BYTES` (1 MB) were appended to db2 since the last read (errs root)", "the same read with nothing appended since + `wc -l` of the appended bytes, twice", "≤ 1×"),
    ("inc-search-keyword", "`search --by keyword` after `APPEND_BYTES` (1 MB) were appended to db1 since the last read (rows root), 8 words", "`sqlite3` CLI, same MATCH + `wc -l` of the appended bytes, twice", "≤ 1×"),
    ("first-sessions-list", "`sessions list`, first run: writes the index (many root)", "the build before the index (`BASELINE`), same first run", "≤ 1×"),
    ("first-rows-list", "`sessions list`, first run: writes the index of every db1 key (rows root; 1M keys at full)", "the build before the index (`BASELINE`), same first run", "≤ 1×"),
    ("first-errors-list", "`errors list --json`, first run: writes the index (errs root)", "the build before the index (`BASELINE`), same first run", "≤ 1×"),
]

# cases whose peak RSS is compared with the ToriiDB log they read (≤ 1.5×)
LOG_CASES = {"replay", "check", "reset", "reset-part", "reset-trash", "search-keyword", "errors-list",
             "inc-errors-list", "inc-search-keyword", "first-rows-list", "first-errors-list"}

def load(size, name):
    path = os.path.join(results, size, name + ".json")
    if not os.path.exists(path):
        return None
    return json.load(open(path))["results"]

def read(size, name):
    path = os.path.join(results, size, name)
    return open(path).read().strip() if os.path.exists(path) else None

def fmt(s):
    return f"{s*1000:.0f} ms" if s < 1 else f"{s:.2f} s"

def mib(kib):
    return f"{int(kib) / 1024:.0f} MiB"

def is_ours(command):
    return command.startswith("ours") or "/sessionctl " in command

def times(rs, which):
    out = []
    for r in rs:
        if is_ours(r["command"]) == (which == "ours"):
            out += r["times"]
    return out

def cpu_secs(rs, which):
    """Mean user+sys seconds of ours or the floor (hyperfine measures both)."""
    xs = [r["user"] + r["system"] for r in rs if is_ours(r["command"]) == (which == "ours")]
    return statistics.mean(xs) if xs else None

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]

cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
load_avg = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
print("# Benchmarks\n")
print(f"Run: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}. "
      f"Machine: {cpu or platform.processor()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
      f"load average at the end {' '.join(load_avg)}.\n")
for size, label in zip(SIZES, ["¼", "½", "full"]):
    sizes = read(size, "sizes")
    if sizes:
        extra = []
        if read(size, "log-bytes"):
            extra.append(f"db1 log {int(read(size, 'log-bytes')) / 1e6:.0f} MB")
        if read(size, "history-bytes"):
            extra.append(f"big history.json {int(read(size, 'history-bytes')) / 1e6:.0f} MB")
        if read(size, "mirror-files"):
            extra.append(f"{int(read(size, 'mirror-files'))} mirror files")
        if read(size, "bundle-bytes"):
            extra.append(f"its bundle {int(read(size, 'bundle-bytes')) / 1e6:.0f} MB")
        print(f"- {label}: `{sizes}` ({', '.join(extra)})")
print()
print("Data generated by `examples/gen.rs`, seed 7. Reproduce: `bench/run.sh` (needs `hyperfine`, "
      "`sqlite3`, `/usr/bin/time`; regenerates this file). Each cell is one hyperfine run of ours "
      "interleaved with its floor (median of the runs); peak RSS is one more run of ours under "
      "`/usr/bin/time`. Growth: ours at full size ÷ ours at ¼, over 4 (1.0 = linear). "
      "CPU is user+sys (hyperfine's mean): on a shared machine it moves less than wall time, "
      "so the CPU ratio is the one to compare with the aim.\n")
print("| case | size | ours | floor | ratio | CPU ours / floor | CPU ratio | peak RSS | aim |")
print("|---|---|---|---|---|---|---|---|---|")
for name, what, floor, aim in CASES:
    first = None
    for size, label in zip(SIZES, ["¼", "½", "full"]):
        rs = load(size, name)
        if not rs:
            continue
        ours, base = times(rs, "ours"), times(rs, "floor")
        mo, mf = statistics.median(ours), statistics.median(base)
        co, cf = cpu_secs(rs, "ours"), cpu_secs(rs, "floor")
        cpu_txt = f"{fmt(co)} / {fmt(cf)}" if co is not None and cf is not None else "-"
        cpu_ratio = f"{co / cf:.2f}×" if co and cf and name not in ("all-scaling", "tokens") else "-"
        if name == "all-scaling":
            ratio = f"{mf / mo:.2f}× faster"
        elif name == "tokens":
            hb = read(size, "history-bytes")
            ratio = f"{int(hb) / 1e6 / mo:.0f} MB/s exact" if hb else "-"
        else:
            ratio = f"{mo / mf:.2f}×"
        extra = ""
        if name in ("search-keyword", "inc-search-keyword"):
            extra = f" (p50 {fmt(pct(ours, 50))}, p95 {fmt(pct(ours, 95))})"
        rss = read(size, name + ".rss")
        rss_txt = mib(rss) if rss and rss.isdigit() else "-"
        # the log each case reads: peak RSS is held against its size
        log = {"errors-list": "errs-log-bytes", "inc-errors-list": "errs-log-bytes",
               "first-errors-list": "errs-log-bytes", "reset-part": "rows4-log-bytes"}.get(name, "log-bytes")
        if name in LOG_CASES and rss and rss.isdigit() and read(size, log):
            rss_txt += f" ({int(rss) * 1024 / int(read(size, log)):.2f}× log)"
        growth = ""
        if first is None:
            first = mo
        elif size == "size1":
            growth = f"; growth {mo / first / 4:.2f}"
        if name == "summarize-all" and read(size, "summarize-all.wrote"):
            ratio += " **(the repeat run wrote files)**"
        print(f"| {what if first == mo else ''} | {label} | {fmt(mo)}{extra} | {fmt(mf)} | {ratio}{growth} | {cpu_txt} | {cpu_ratio} | {rss_txt} | {aim if first == mo else ''} |")

print("\nFloors: " + "; ".join(f"**{w}**: {f}" for _, w, f, _ in CASES))

notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "NOTES.md")
if os.path.exists(notes):
    print()
    print(open(notes).read().rstrip())
