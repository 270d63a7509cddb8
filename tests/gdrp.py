#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gdrperf's exchange framing (src/oob/xchg.c) for the test peers that speak it raw:
tests/hostile/peer.py imports it; tests/e2e/run.sh runs it as a one-shot client.

  gdrp.py ADDR PORT [FIELD=VALUE ...]

sends one HELLO (hello()'s fields; host and xport are strings, the others numbers),
reads the reply's header and prints one line: "REJECT <reason>", "reply type N" or
"no reply". Exit 0 when a reply came, 1 when none (the server closed), 2 on bad usage.
The protocol version is the build's: GDR_PROTO_VERSION of src/oob/xchg.h.
"""
import os
import re
import socket
import struct
import sys

HELLO, ACCEPT, REJECT, QPINFO, SYNC, RESULT, BYE = range(1, 8)


def proto_version():
    """GDR_PROTO_VERSION of the tree this file belongs to (tests/../src/oob/xchg.h)."""
    h = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "oob", "xchg.h")
    m = re.search(r"^#define GDR_PROTO_VERSION (\d+)", open(h).read(), re.M)
    if not m:
        raise SystemExit("gdrp: no GDR_PROTO_VERSION in " + h)
    return int(m.group(1))


VERSION = proto_version()


def frame(t, payload, ver=VERSION, plen=None, magic=b"GDRP"):
    n = len(payload) if plen is None else plen
    return magic + struct.pack("<HHI", ver, t, n) + payload


def pad(s, n):
    return s.ljust(n, b"\0")[:n]


def hello(verb=0, kind=0, flags=0, qps=1, tx=128, rx=512, cqmod=100, inl=0,
          mtu=0, iters=20, warmup=0, duration=0.0, host=b"hostile",
          sizes=(4096,), chunk=0, nsizes=None, raw_host=None, token=b"", raw_token=None,
          repeat=1, xport=b"verbs", raw_xport=None, kv=(0, (), 0, 0, 0, 0), regions=None, sge=None,
          ver=VERSION):
    p = struct.pack("<BBIIIIIIIQQd", verb, kind, flags, qps, tx, rx, cqmod, inl,
                    mtu, iters, warmup, duration)
    p += raw_host if raw_host is not None else pad(host, 64)
    p += struct.pack("<I", len(sizes) if nsizes is None else nsizes)
    p += b"".join(struct.pack("<Q", s) for s in sizes) + struct.pack("<Q", chunk)
    p += raw_token if raw_token is not None else pad(token, 32)  # --run_token
    p += struct.pack("<I", repeat)  # --repeat
    p += raw_xport if raw_xport is not None else pad(xport, 16)  # --transport
    nbatch, batches, pool, place, stride, seed = kv  # version 8: the KV shape, last
    p += struct.pack("<I", nbatch) + b"".join(
        struct.pack("<I", b) for b in (list(batches) + [0] * 8)[:8])
    p += struct.pack("<QBQQ", pool, place, stride, seed)
    # version 9: the pool's regions (--regions), 0 when not a KV run, else 1 unless given
    p += struct.pack("<I", (1 if nbatch else 0) if regions is None else regions)
    # version 10: blocks a work request (--sge), 0 when not a KV run, else 1 unless given
    p += struct.pack("<I", (1 if nbatch else 0) if sge is None else sge)
    return frame(HELLO, p, ver)


def main(argv):
    if len(argv) < 3 or not argv[2].isdigit():
        print("usage: gdrp.py ADDR PORT [FIELD=VALUE ...]", file=sys.stderr)
        return 2
    kw = {}
    for a in argv[3:]:
        k, _, v = a.partition("=")
        kw[k] = v.encode() if k in ("host", "xport") else (float(v) if k == "duration" else int(v))
    s = socket.create_connection((argv[1], int(argv[2])), timeout=20)
    s.sendall(hello(**kw))
    hdr = b""
    while len(hdr) < 12:
        b = s.recv(12 - len(hdr))
        if not b:
            break
        hdr += b
    if len(hdr) < 12:
        print("no reply")
        return 1
    t = struct.unpack("<H", hdr[6:8])[0]
    if t == REJECT:
        print("REJECT " + s.recv(300).split(b"\0")[0].decode(errors="replace"))
    else:
        print("reply type %d" % t)
    s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
