#!/usr/bin/env python3
"""Writes the generated token samples (base64, hex, minified JSON, long
numbers) into ../token_samples/. Seeded: running it again writes the same
bytes. The hand-written ones (emoji, Korean chat) are not generated.

    python3 tests/data/token_reference/make_samples.py
"""
import base64
import hashlib
import json
import os
import random
import uuid
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "token_samples")
rng = random.Random(20251103)


def rbytes(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def wrap(s, width):
    return "\n".join(s[i : i + width] for i in range(0, len(s), width))


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def base64_sample():
    parts = []
    # a tool result: `base64 screenshot.png` (random-looking: compressed data)
    png = b"\x89PNG\r\n\x1a\n" + zlib.compress(rbytes(900), 9) + rbytes(600)
    parts.append("$ base64 screenshot.png\n" + wrap(base64.b64encode(png).decode(), 76))
    # a data URI inside HTML, one long line
    parts.append(
        '<img alt="chart" src="data:image/png;base64,'
        + base64.b64encode(rbytes(700)).decode()
        + '">'
    )
    # a JWT in an Authorization header
    header = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "kid": "k-2025-11"}).encode())
    claims = b64url(
        json.dumps(
            {
                "sub": "user_8842",
                "iss": "https://auth.example.com/",
                "aud": "agenvoy-api",
                "iat": 1762180000,
                "exp": 1762183600,
                "scope": "sessions:read sessions:write",
            }
        ).encode()
    )
    sig = b64url(rbytes(256))
    parts.append(f"Authorization: Bearer {header}.{claims}.{sig}")
    # a PEM certificate
    parts.append(
        "-----BEGIN CERTIFICATE-----\n"
        + wrap(base64.b64encode(rbytes(880)).decode(), 64)
        + "\n-----END CERTIFICATE-----"
    )
    # a Kubernetes secret: base64 of short text values
    values = {
        "DATABASE_URL": "postgres://app:s3cr3t-pass@db.internal:5432/sessions",
        "REDIS_URL": "redis://cache.internal:6379/2",
        "API_KEY": "sk-live-" + rng.randbytes(18).hex(),
        "SMTP_PASSWORD": "correct horse battery staple",
    }
    secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\ndata:\n"
    for k, v in values.items():
        secret += f"  {k}: {base64.b64encode(v.encode()).decode()}\n"
    parts.append(secret.rstrip())
    # a MIME attachment of text (base64 of English prose)
    prose = (
        "Quarterly report: sessions grew 14% while compaction kept the median "
        "history under 40k tokens. Two incidents, both resolved the same day. "
    ) * 4
    parts.append(
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + wrap(base64.b64encode(prose.encode()).decode(), 76)
    )
    # gzip+base64 blob in JSON
    blob = base64.b64encode(zlib.compress(json.dumps({"k": list(range(300))}).encode())).decode()
    parts.append(json.dumps({"encoding": "gzip+base64", "payload": blob}))
    return "\n\n".join(parts) + "\n"


def hex_sample():
    lines = []
    # sha256sum output
    lines.append("$ sha256sum dist/*")
    for name in ["sessionctl-x86_64.tar.gz", "sessionctl-aarch64.tar.gz", "SHA256SUMS.sig", "install.sh"]:
        lines.append(f"{hashlib.sha256(rbytes(32)).hexdigest()}  dist/{name}")
    # git log --oneline with full ids
    lines.append("\n$ git log --format='%H %s' -6")
    for subj in ["tokens: count base64", "limits: cloud tags", "table: comfy", "fix typo", "merge main", "bump deps"]:
        lines.append(f"{rbytes(20).hex()} {subj}")
    # xxd hexdump
    lines.append("\n$ xxd -l 256 history.json.zst")
    data = rbytes(256)
    for off in range(0, 256, 16):
        chunk = data[off : off + 16]
        hexs = " ".join(chunk[i : i + 2].hex() for i in range(0, 16, 2))
        asc = "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)
        lines.append(f"{off:08x}: {hexs}  {asc}")
    # UUIDs and request ids
    lines.append("\n# request log")
    for _ in range(12):
        u = uuid.UUID(bytes=rbytes(16), version=4)
        lines.append(f"req={u} trace=0x{rbytes(8).hex()} span={rbytes(8).hex()} status=200")
    # a long hex string (a raw key) and memory addresses
    lines.append("\nprivate_key = \"" + rbytes(64).hex() + "\"")
    lines.append("\nthread 'main' panicked at 0x" + rbytes(6).hex() + ":")
    for i in range(8):
        lines.append(f"  {i:2}: 0x{rbytes(6).hex()} - sessionctl::engine::step{i}")
    # uppercase hex (e.g. a MAC list, a Windows GUID, a CRC table)
    lines.append("\nCRC table:")
    for _ in range(6):
        lines.append(", ".join(f"0x{rng.getrandbits(32):08X}" for _ in range(6)))
    lines.append("")
    lines.append("ETag: \"" + rbytes(16).hex() + "\"  Content-MD5: " + rbytes(16).hex().upper())
    return "\n".join(lines) + "\n"


def minified_json_sample():
    def user():
        return {
            "login": rng.choice(["alice", "bob-dev", "carol_ops", "dmitri", "eve"]),
            "id": rng.randint(10000, 99999999),
            "node_id": "U_kgDO" + b64url(rbytes(6)),
            "type": "User",
            "site_admin": False,
        }

    items = []
    for n in range(18):
        items.append(
            {
                "id": rng.randint(10**8, 10**9),
                "number": 1200 + n,
                "title": rng.choice(
                    [
                        "compact loses tool results",
                        "limits show wrong window for qwen-max",
                        "table wraps at 80 columns",
                        "summary.json rewritten on read",
                        "errors show rejects listed id",
                    ]
                ),
                "user": user(),
                "labels": [{"id": rng.randint(10**8, 10**9), "name": l, "color": rbytes(3).hex()} for l in rng.sample(["bug", "ux", "tokens", "limits", "p1"], 2)],
                "state": rng.choice(["open", "closed"]),
                "comments": rng.randint(0, 40),
                "created_at": f"2025-{rng.randint(1,11):02}-{rng.randint(1,28):02}T{rng.randint(0,23):02}:{rng.randint(0,59):02}:{rng.randint(0,59):02}Z",
                "reactions": {"+1": rng.randint(0, 9), "-1": 0, "heart": rng.randint(0, 3), "total_count": rng.randint(0, 12)},
                "score": round(rng.random(), 6),
            }
        )
    doc = {"total_count": 412, "incomplete_results": False, "items": items}
    metrics = {
        "ts": 1762180000123,
        "host": "ip-10-0-3-17",
        "series": [{"name": f"tokens.{k}", "points": [[1762180000 + 60 * i, round(rng.uniform(0, 5000), 2)] for i in range(10)]} for k in ["in", "out", "cache"]],
    }
    return json.dumps(doc, separators=(",", ":")) + "\n" + json.dumps(metrics, separators=(",", ":")) + "\n"


def long_numbers_sample():
    lines = ["# big integers, high-precision floats, ids and timestamps from tool output"]
    lines.append("factorial(60) = " + str(__import__("math").factorial(60)))
    lines.append("2**256 - 189 = " + str(2**256 - 189))
    lines.append("pi ≈ 3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651")
    lines.append("")
    lines.append("send_at_ns,session_id,bytes,balance_wei,lat,lon")
    for _ in range(30):
        lines.append(
            f"{1762180000000000000 + rng.randint(0, 10**15)},"
            f"{rng.randint(10**17, 10**18)},"
            f"{rng.randint(10**6, 10**10)},"
            f"{rng.randint(10**18, 10**22)},"
            f"{rng.uniform(-90, 90):.10f},{rng.uniform(-180, 180):.10f}"
        )
    lines.append("")
    lines.append("phone numbers: " + ", ".join(f"+{rng.randint(1, 99)} {rng.randint(100, 999)} {rng.randint(1000000, 9999999)}" for _ in range(6)))
    lines.append("order ids: " + " ".join(str(rng.randint(10**15, 10**16)) for _ in range(12)))
    lines.append("")
    lines.append("matrix (float64):")
    for _ in range(8):
        lines.append("  [" + ", ".join(f"{rng.gauss(0, 1e3):.15e}" for _ in range(4)) + "]")
    lines.append("")
    lines.append("Snowflake ids: " + ", ".join(str(rng.randint(10**18, 9 * 10**18)) for _ in range(10)))
    return "\n".join(lines) + "\n"


def write(name, text):
    with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


write("base64.txt", base64_sample())
write("hex.txt", hex_sample())
write("json_minified.json", minified_json_sample())
write("long_numbers.txt", long_numbers_sample())
