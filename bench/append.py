#!/usr/bin/env python3
"""Append about BYTES of new records to a ToriiDB log, as Agenvoy would:
the log's own first lines, each under a new key (same session or tool, a
time no record has). The appended bytes also go to OUT (the floor's input).

  bench/append.py LOG BYTES OUT
"""
import json, sys

log, want, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = []
size = 0
with open(log, "rb") as f:
    for i, raw in enumerate(f):
        if not raw.endswith(b"\n"):
            break
        rec = json.loads(raw)
        prefix = rec["key"].rsplit(":", 1)[0]
        rec["key"] = f"{prefix}:{1900000000000000000 + i}"
        line = json.dumps(rec, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        lines.append(line)
        size += len(line)
        if size >= want:
            break
data = b"".join(lines)
with open(log, "ab") as f:
    f.write(data)
with open(out, "wb") as f:
    f.write(data)
print(f"appended {len(data)} bytes, {len(lines)} lines", file=sys.stderr)
