#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile peer: speaks gdrperf's exchange framing and lies, against a real server
and a real client (one Python process drives every scenario: a process start is
dear in the emulated VM).

  peer.py BINDIR [OUTDIR]      (env: HOSTILE_DEV rxe0, HOSTILE_ADDR 10.9.0.1,
                                HOSTILE_PORT 19700, HOSTILE_FILTER regex of names)

Server side: a --persistent gdr_write_bw server faces every scenario (fields of
every message type at and beyond their limits, truncated and stalled frames,
silent floods, a session abandoned at every step, foreign QPINFO, absurd
RESULTs, a replayed real session with mutated bytes, --compare's MEM_GPU word with
the gpu-proxy bit where it cannot hold and bits beyond it); after each the server must
still be serving (checked by connecting, and by a real client after every group)
and must drop a stalled peer within its timeouts. Single-shot servers facing a
session abandoned mid-way must exit 0/2 with one error line. Client side: the
peer plays the server for real clients. Everywhere: no sanitizer report, no
crash, no hang, and the server's memory bounded (HOSTILE_RSS_MB, 64).
Exit 0 when every scenario passed, 1 otherwise; one line per scenario.
"""
import os
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gdrp import (ACCEPT, BYE, HELLO, QPINFO, REJECT, RESULT, SYNC,  # noqa: E402
                  VERSION, frame, hello, pad)

BIN = sys.argv[1] if len(sys.argv) > 1 else "."
OUT = sys.argv[2] if len(sys.argv) > 2 else "."
DEV = os.environ.get("HOSTILE_DEV", "rxe0")
ADDR = os.environ.get("HOSTILE_ADDR", "10.9.0.1")
PORT = int(os.environ.get("HOSTILE_PORT", "19700"))
FILTER = re.compile(os.environ.get("HOSTILE_FILTER", "."))
RSS_MB = int(os.environ.get("HOSTILE_RSS_MB", "64"))
TIMEOUT = 3  # --timeout of the gdr processes (peer silence)
HELLO_S = 3  # a new connection's HELLO deadline: min(--timeout, 5 s)
SLACK = 4    # seconds allowed above a deadline (the emulated VM is slow)
random.seed(17)

READY, GO, MEM_GPU = 1, 2, 6
COMPARE = 1 << 3  # HELLO flag: --compare
MAX_QPS, MAX_SIZES, MAX_MSG = 64, 64, 1 << 30
SAN = re.compile(rb"Sanitizer|runtime error:|SUMMARY:")

# ---- the framing (src/oob/xchg.c) ----


# frame(), pad(), hello(), the message types and VERSION (the build's, read from
# src/oob/xchg.h): tests/gdrp.py, shared with tests/e2e/run.sh


def qpinfo(nqp=1, rkey=0x1234, addr=0x10000, length=8192, mtu=1024,
           qpn=0x11, gid=bytes(16), host=b"hostile", kind=b"host", qps=None, rd_atomic=16,
           alen=None):
    """QPINFO: per QP a verbs address blob (qpn, psn, lid, gid: 26 bytes) in a 128-byte
    field; alen lies about the blob's length (another transport's)."""
    p = struct.pack("<IQQQII", nqp, rkey, addr, length, mtu, rd_atomic)
    p += pad(host, 64) + pad(kind, 16)
    for i in range(nqp if qps is None else qps):
        blob = struct.pack("<IIH", (qpn + i) & 0xffffffff, 0x100 + i, 0) + gid
        p += struct.pack("<H", len(blob) if alen is None else alen) + pad(blob, 128)
    return frame(QPINFO, p)


def qpinfo_head(p):
    """nqp, key, addr, length, mtu of a QPINFO payload, and its first QP's GID."""
    nqp, key, addr, length, mtu = struct.unpack("<IQQQI", p[:32])
    return nqp, key, addr, length, mtu, p[118 + 10:118 + 26]


def sync(step, value):
    return frame(SYNC, struct.pack("<IQ", step, value))


def result(status=0, nbytes=20 * 4096, iters=20, dur=0.01, peak=1e7, avg=1e7,
           rate=1e3, note=b""):
    return frame(RESULT, struct.pack("<IQQdddd", status, nbytes, iters, dur, peak,
                                     avg, rate) + pad(note, 128))


def reject(reason=b"no", raw=None):
    return frame(REJECT, raw if raw is not None else pad(reason, 256))


def simple(t):
    return frame(t, b"")


def recv_exact(s, n, until):
    b = b""
    while len(b) < n:
        left = until - time.monotonic()
        if left <= 0:
            raise TimeoutError
        s.settimeout(left)
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b


def read_msg(s, secs=TIMEOUT + SLACK):
    """(type, payload) of the next frame; EOFError when closed, TimeoutError."""
    until = time.monotonic() + secs
    h = recv_exact(s, 12, until)
    _, t, n = struct.unpack("<HHI", h[4:])
    return t, recv_exact(s, n, until)


def closed_within(s, secs):
    """Seconds until the peer closed s (frames it sent meanwhile are read), or None."""
    t0 = time.monotonic()
    s.settimeout(secs)
    try:
        while time.monotonic() - t0 < secs:
            s.settimeout(max(0.01, secs - (time.monotonic() - t0)))
            if not s.recv(65536):
                return time.monotonic() - t0
    except (ConnectionResetError, BrokenPipeError):
        return time.monotonic() - t0
    except (socket.timeout, TimeoutError):
        pass
    return None


def connect(port, secs=10):
    t0 = time.monotonic()
    while True:
        try:
            return socket.create_connection((ADDR, port), timeout=secs)
        except OSError:
            if time.monotonic() - t0 > secs:
                raise
            time.sleep(0.1)


def send(s, b):
    try:
        s.sendall(b)
        return True
    except OSError:
        return False  # the other side may rightly have closed already

def send_peek(s, b, secs):
    """Send b, then take what the peer says for secs; False once it has closed."""
    if not send(s, b):
        return False
    s.settimeout(secs)
    try:
        return bool(s.recv(65536))
    except (socket.timeout, TimeoutError):
        return True
    except OSError:
        return False

# ---- processes ----


class Proc:
    def __init__(self, name, args, env=None):
        self.name = name
        self.path = os.path.join(OUT, name + ".out")
        self.f = open(self.path, "wb")
        self.p = subprocess.Popen(args, stdout=self.f, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, env=env)

    def alive(self):
        return self.p.poll() is None

    def wait(self, secs):
        try:
            return self.p.wait(secs)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None

    def text(self):
        self.f.flush()
        with open(self.path, "rb") as f:
            return f.read()

    def rss_kb(self):
        try:
            with open("/proc/%d/status" % self.p.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0


def gdr(test, *args):
    return [os.path.join(BIN, "gdr_" + test), "-d", DEV, "--timeout", str(TIMEOUT), *args]


def sanitizer_free(p):
    out = p.text()
    return None if not SAN.search(out) else "sanitizer report in %s" % p.path


def ended_cleanly(p, secs, want_error=True):
    """A process that must end by itself within secs: exit 0, or 2 (could not run,
    src/base/exitcode.h) with one error line."""
    rc = p.wait(secs)
    if rc is None:
        return "%s still running after %d s (killed)" % (p.name, secs)
    bad = sanitizer_free(p)
    if bad:
        return bad
    if rc not in (0, 2):
        return "%s exit %s (want 0, or 2: could not run)" % (p.name, rc)
    errs = [l for l in p.text().splitlines() if b": error: " in l]
    if rc == 2 and want_error and len(errs) != 1:
        return "%s exit 2 with %d error lines (want 1)" % (p.name, len(errs))
    return None

# ---- bookkeeping ----


counts = {}
failures = []
lock = threading.Lock()
ports = iter(range(PORT + 100, PORT + 400))  # hostile servers' ports, one each


def scenario(group, name, fn, *args):
    full = "%s.%s" % (group, name)
    if not FILTER.search(full):
        return
    t0 = time.monotonic()
    try:
        why = fn(*args)
    except Exception as e:  # a peer-side surprise is a failure, never a skip
        why = "peer: %s: %s" % (type(e).__name__, e)
    secs = time.monotonic() - t0
    ok = why is None
    with lock:
        counts.setdefault(group, [0, 0])[0 if ok else 1] += 1
        if not ok:
            failures.append(full)
        print("%s %-44s %5.1fs%s" % ("PASS" if ok else "FAIL", full, secs,
                                     "" if ok else "  " + why), flush=True)


def side_by_side(group, items, width=4):
    """Scenarios that mostly wait (for a deadline) run side by side, width at a time:
    items are (name, fn, *args)."""
    with ThreadPoolExecutor(width) as ex:
        for f in [ex.submit(scenario, group, *it) for it in items]:
            f.result()

# ---- server side: one persistent server faces everything ----


class Target:
    """The --persistent server under attack, restarted if a scenario ended it."""

    def __init__(self, port):
        self.port = port
        self.n = 0
        self.proc = None
        self.rss0 = 0

    def start(self):
        self.n += 1
        self.proc = Proc("server-%d" % self.n, gdr("write_bw", "-p", str(self.port),
                                                   "--persistent", "--listen_timeout", "300",
                                                   "--max_mem=64M"))
        time.sleep(0.5)

    def check(self):
        """None when the server is still serving (it takes a connection)."""
        if not self.proc.alive():
            why = ended_cleanly(self.proc, 1) or "exited %s" % self.proc.p.returncode
            self.start()
            return "server ended: " + why
        bad = sanitizer_free(self.proc)
        if bad:
            return bad
        try:
            s = connect(self.port, 5)
            s.close()
        except OSError as e:
            return "server takes no connection: %s" % e
        return None


T = Target(PORT)


def real_client(port=None, test="write_bw", extra=()):
    """A real client succeeds (again while the server is still busy winding down)."""
    for _ in range(10):
        c = Proc("client-real", gdr(test, "-p", str(port or T.port), "-s", "4096", "-n", "20",
                                    *extra, ADDR))
        rc = c.wait(60)
        bad = sanitizer_free(c)
        if rc == 0 or bad or b"server busy" not in c.text():
            break
        time.sleep(0.5)
    if rc != 0 or bad:
        return bad or "real client exit %s: %s" % (rc, c.text().splitlines()[-1:])
    return None


def attack(send_bytes, expect="closed", within=HELLO_S + SLACK):
    """Send bytes on a new connection; the server must close it (after a REJECT or
    not) within `within` s, then still be serving."""
    s = connect(T.port)
    send(s, send_bytes)  # b"" and "sent": a connection closed at once
    if expect == "closed":
        if closed_within(s, within) is None:
            s.close()
            return "connection not closed within %d s" % within
    s.close()
    return T.check()


def stall(prefix):
    """A frame that stops half-way (slowloris): dropped within the HELLO deadline."""
    return attack(prefix, within=HELLO_S + SLACK)


def dribble():
    """A valid HELLO one byte every 0.5 s: must not outlive the deadline."""
    s = connect(T.port)
    t0 = time.monotonic()
    for b in hello():
        if not send_peek(s, bytes([b]), 0.5):
            break
        if time.monotonic() - t0 > HELLO_S + SLACK + 5:
            s.close()
            return "a dribbling HELLO kept its connection for %d s" % (time.monotonic() - t0)
    s.close()
    return T.check()


def flood(n):
    """n silent connections, then a real client is served."""
    socks = [connect(T.port) for _ in range(n)]
    why = real_client()
    for s in socks:
        s.close()
    return why or T.check()


def hello_exchange(h, port=None):
    """Send HELLO h on a new connection, again while the server answers "busy" (it
    is still winding down the session before); (socket, type, payload), type None
    when the server closed without a word."""
    t0 = time.monotonic()
    while True:
        s = connect(port or T.port)
        send(s, h)
        try:
            t, p = read_msg(s, HELLO_S + SLACK)
        except EOFError:
            return s, None, b""
        if t != REJECT or b"busy" not in p or time.monotonic() - t0 > 30:
            return s, t, p
        s.close()
        time.sleep(0.2)


def answered_hello(h, want):
    """A HELLO; want = 'reject' (REJECT or close) or 'any' (ACCEPT allowed, then we close)."""
    try:
        s, t, p = hello_exchange(h)
    except (TimeoutError, socket.timeout):
        return "no answer to the HELLO within %d s" % (HELLO_S + SLACK)
    s.close()
    if want == "reject" and t == ACCEPT:
        return "the server accepted it"
    if t not in (None, ACCEPT, REJECT):
        return "answered with message type %s" % t
    if t == REJECT and b"busy" in p:
        return "the server stayed busy for 30 s"
    return T.check()


def refused_saying(h, says):
    """A HELLO (or a frame in its place) answered by a REJECT whose reason matches says."""
    try:
        s, t, p = hello_exchange(h)
    except (TimeoutError, socket.timeout):
        return "no answer to the HELLO within %d s" % (HELLO_S + SLACK)
    s.close()
    reason = p.split(b"\0")[0].decode(errors="replace")
    if t != REJECT or not re.search(says, reason):
        return "expected a REJECT saying /%s/, got type %s: %s" % (says, t, reason[:120])
    return T.check()


def session(steps, port=None):
    """Drive a write_bw session as far as steps says, lying where asked: steps[0]
    is the HELLO (bytes), the others callables (s, ctx) -> None or a failure."""
    s, t, p = hello_exchange(steps[0], port)
    ctx = {}
    try:
        if len(steps) > 1 and t != ACCEPT:
            return "HELLO not accepted: type %s %s" % (t, p.rstrip(b"\0")[:80])
        for st in steps[1:]:
            why = st(s, ctx)
            if why:
                return why
    finally:
        s.close()
    return None if port else T.check()


def st_get_qpinfo(s, ctx):
    t, p = read_msg(s)
    if t != QPINFO:
        return "expected QPINFO, got %d" % t
    nqp, rkey, addr, length, mtu, gid = qpinfo_head(p)
    ctx.update(nqp=nqp, length=length, gid=gid, rkey=rkey, addr=addr)
    return None


def st_send_qpinfo(**kw):
    def f(s, ctx):
        a = dict(nqp=ctx["nqp"], length=ctx["length"], gid=ctx["gid"])
        a.update(kw)
        send(s, qpinfo(**a))
    return f


def st_expect(t_want, value=None):
    def f(s, ctx):
        t, p = read_msg(s)
        if t != t_want:
            return "expected type %d, got %d" % (t_want, t)
        ctx["last"] = p
    return f


def st_send(b):
    return lambda s, ctx: (send(s, b), None)[1]


def st_dropped(within=TIMEOUT + SLACK):
    def f(s, ctx):
        if closed_within(s, within) is None:
            return "server kept a silent/lying peer for over %d s" % within
    return f


def st_stall_half(b):
    return lambda s, ctx: (send(s, b[:len(b) // 2]), None)[1]


def to_ready():
    return [hello(), st_get_qpinfo, st_send_qpinfo(), st_expect(SYNC)]


def to_result():
    return to_ready() + [st_send(sync(GO, 4096))]


def gpu_word(h, word, want):
    """--compare: HELLO h, then `word` as this client's MEM_GPU SYNC (bit 0: GPU memory,
    bit 1: a gpu-proxy kernel runs here). want: a regex the server's REJECT must match,
    or None: the word is taken, and the server must then drop us, silent, in time."""
    s, t, p = hello_exchange(h)
    try:
        if t != ACCEPT:
            return "HELLO not accepted: type %s %s" % (t, p.rstrip(b"\0")[:80])
        t, p = read_msg(s)
        if t != SYNC or struct.unpack("<I", p[:4])[0] != MEM_GPU:
            return "expected SYNC MEM_GPU, got type %d" % t
        send(s, sync(MEM_GPU, word))
        if want is None:
            if closed_within(s, TIMEOUT + SLACK) is None:
                return "server kept a silent gpu-proxy claimant for over %d s" % (TIMEOUT + SLACK)
        else:
            try:
                t, p = read_msg(s)
            except EOFError:
                return "closed without a REJECT (want /%s/)" % want
            if t != REJECT or not re.search(want.encode(), p):
                return "want a REJECT matching /%s/, got type %d %s" % (
                    want, t, p.rstrip(b"\0")[:120])
    finally:
        s.close()
    return T.check()


def gpu_word_scenarios():
    """The gpu-proxy bit of --compare's MEM_GPU word, and the GPU's MPS bit and identity
    beyond it (issues 37, 43): those only with GPU memory."""
    g = "gpuword"
    h = hello(flags=COMPARE)
    scenario(g, "proxy_then_silent", gpu_word, h, 3, None)
    scenario(g, "id_without_gpu", gpu_word, h, 0x4 | (1 << 40),
             r"GPU word 0x10000000004 names a GPU .* without GPU memory")
    scenario(g, "proxy_without_gpu", gpu_word, h, 2, r"gpu-proxy kernel .* without GPU memory")
    for name, kw in (("proxy_bidir", dict(flags=COMPARE | 1)),  # -b
                     ("proxy_write_imm", dict(verb=4, flags=COMPARE)),  # not a gpu-proxy verb
                     ("proxy_infinitely", dict(flags=COMPARE | 1 << 9))):  # --run_infinitely
        scenario(g, name, gpu_word, hello(**kw), 3, r"options where the gpu-proxy row does not run")
    scenario(g, "real_client_after", real_client)


def server_scenarios():
    g = "gate"
    H = hello()
    scenario(g, "close_at_once", attack, b"", "sent")
    side_by_side(g, [("silent", attack, b""), ("dribble", dribble)] +
                 [("stall_at_%d" % cut, stall, H[:cut]) for cut in (1, 4, 11, 12, 60, len(H) - 1)],
                 8)
    scenario(g, "garbage", attack, bytes(random.randrange(256) for _ in range(300)))
    scenario(g, "http", attack, b"GET / HTTP/1.0\r\n\r\n")
    scenario(g, "version_1", attack, H[:4] + b"\1\0" + H[6:])
    scenario(g, "version_2", attack, H[:4] + b"\2\0" + H[6:])  # QPINFO without rd_atomic
    scenario(g, "version_3", attack, H[:4] + b"\3\0" + H[6:])  # no STAGE_COPY step
    scenario(g, "version_4", attack, H[:4] + b"\4\0" + H[6:])  # no run token in HELLO
    scenario(g, "version_5", attack, H[:4] + b"\5\0" + H[6:])  # no repeat in HELLO
    # 6: verbs' QPN/PSN/LID/GID and a 32-bit rkey in QPINFO: refused naming both versions
    scenario(g, "version_6", refused_saying, H[:4] + b"\6\0" + H[6:],
             r"protocol version %d, got version 6" % VERSION)
    scenario(g, "version_ffff", attack, H[:4] + b"\xff\xff" + H[6:])
    for t in (0, 8, 0xffff):
        scenario(g, "type_%d" % t, attack, frame(t, b"x" * 16))
    for n in (12289, 0x7fffffff, 0xffffffff):  # beyond GDR_MAX_PAYLOAD
        scenario(g, "length_%d" % n, attack, frame(HELLO, b"", plen=n))
    scenario(g, "truncated_close", attack, H[:len(H) // 2], "sent")
    scenario(g, "two_frames", attack, H + H)
    for t, b in ((ACCEPT, simple(ACCEPT)), (REJECT, reject()), (QPINFO, qpinfo()),
                 (SYNC, sync(GO, 1)), (RESULT, result()), (BYE, simple(BYE))):
        scenario(g, "first_is_type_%d" % t, attack, b)
    scenario(g, "flood_100_silent", flood, 100)
    scenario(g, "real_client_after", real_client)

    g = "hello"
    limits = [  # (name, kwargs, want): at the limit 'any', just beyond 'reject'
        ("verb_4", dict(verb=4), "any"), ("verb_5", dict(verb=5), "reject"),  # 4: write_imm
        ("kind_1", dict(kind=1), "any"), ("kind_2", dict(kind=2), "reject"),
        ("flags_all", dict(flags=0x3fff & ~0x104), "any"), ("flags_beyond", dict(flags=0x4000), "reject"),
        ("qps_0", dict(qps=0), "reject"), ("qps_64", dict(qps=64), "any"), ("qps_65", dict(qps=65), "reject"),
        ("qps_max_u32", dict(qps=0xffffffff), "reject"),
        ("tx_0", dict(tx=0), "reject"), ("tx_16384", dict(tx=16384), "any"), ("tx_16385", dict(tx=16385), "reject"),
        ("rx_0", dict(rx=0), "reject"), ("rx_16384", dict(rx=16384), "any"), ("rx_16385", dict(rx=16385), "reject"),
        ("cqmod_0", dict(cqmod=0), "reject"), ("cqmod_16385", dict(cqmod=16385), "reject"),
        ("inline_1024", dict(inl=1024), "any"), ("inline_1025", dict(inl=1025), "reject"),
        ("mtu_4096", dict(mtu=4096), "any"), ("mtu_3000", dict(mtu=3000), "reject"),
        ("iters_0", dict(iters=0), "reject"), ("iters_1e9", dict(iters=10**9), "any"),
        ("iters_1e9p1", dict(iters=10**9 + 1), "reject"), ("iters_u64", dict(iters=2**64 - 1), "reject"),
        ("warmup_1e9p1", dict(warmup=10**9 + 1), "reject"),
        ("duration_3600", dict(duration=3600.0), "any"), ("duration_3601", dict(duration=3601.0), "reject"),
        ("duration_nan", dict(duration=float("nan")), "reject"),
        ("duration_inf", dict(duration=float("inf")), "reject"),
        ("duration_neg", dict(duration=-1.0), "reject"),
        ("nsizes_0", dict(sizes=(), nsizes=0), "reject"),
        ("nsizes_64", dict(sizes=tuple(range(1, 65))), "any"),
        ("nsizes_65", dict(sizes=tuple(range(1, 66))), "reject"),
        ("nsizes_lies", dict(sizes=(4096,), nsizes=2), "reject"),
        ("size_0", dict(sizes=(0,)), "reject"), ("size_1", dict(sizes=(1,)), "any"),
        ("size_1G", dict(sizes=(MAX_MSG,)), "reject"),  # over --max_mem=64M
        ("size_1Gp1", dict(sizes=(MAX_MSG + 1,)), "reject"),
        ("size_u64", dict(sizes=(2**64 - 1,)), "reject"),
        ("chunk_4095", dict(chunk=4095), "reject"), ("chunk_4096", dict(chunk=4096), "any"),
        ("chunk_1Gp1", dict(chunk=MAX_MSG + 1), "reject"),
        ("host_63", dict(host=b"h" * 63), "any"),
        ("host_unterminated", dict(raw_host=b"h" * 64), "reject"),
        ("host_binary", dict(raw_host=bytes(range(1, 64)) + b"\0"), "any"),
        ("token_other_run", dict(token=b"other.run"), "reject"),  # the server has none
        ("token_unterminated", dict(raw_token=b"t" * 32), "reject"),
        ("xport_empty", dict(xport=b""), "reject"),
        ("xport_upper", dict(xport=b"VERBS"), "reject"),
        ("xport_unterminated", dict(raw_xport=b"v" * 16), "reject"),
        ("qps_x_depth", dict(qps=64, tx=16384, rx=16384), "reject"),
        # the KV shape (protocol 8): fields that do not fit, a pool over the server's memory
        ("kv_stride0", dict(kv=(1, (4,), 1 << 20, 0, 0, 1)), "reject"),
        ("kv_pool_below_batch", dict(kv=(1, (4,), 4096, 0, 1, 1)), "reject"),
        ("kv_batch_past_count", dict(kv=(1, (4, 8), 1 << 20, 0, 1, 1)), "reject"),
        ("kv_pool_64G", dict(kv=(1, (4,), 64 << 30, 0, 1, 1)), "reject"),
        # the pool's regions (protocol 9): none, over 1024, one splitting a slot, not a KV run
        ("kv_regions0", dict(kv=(1, (4,), 1 << 20, 0, 1, 1), regions=0), "reject"),
        ("kv_regions_1025", dict(kv=(1, (4,), 1 << 20, 0, 1, 1), regions=1025), "reject"),
        ("kv_regions_split_slot", dict(kv=(1, (4,), 1 << 20, 0, 1, 1), regions=3), "reject"),
        ("kv_regions_not_kv", dict(regions=4), "reject"),
        # blocks a work request (protocol 10): none, over 32, not dividing the batch, a run
        # straddling two regions (256 slots in 16 regions of 16, runs of 32), not a KV run
        ("kv_sge0", dict(kv=(1, (4,), 1 << 20, 0, 1, 1), sge=0), "reject"),
        ("kv_sge_33", dict(kv=(1, (4,), 1 << 20, 0, 1, 1), sge=33), "reject"),
        ("kv_sge_past_batch", dict(kv=(1, (4,), 1 << 20, 0, 1, 1), sge=8), "reject"),
        ("kv_sge_straddles", dict(kv=(1, (32,), 1 << 20, 0, 1, 1), regions=16, sge=32),
         "reject"),
        ("kv_sge_not_kv", dict(sge=4), "reject"),
    ]
    for name, kw, want in limits:
        scenario(g, name, answered_hello, hello(**kw), want)
    # a client of another transport: refused in one line before any QP exists
    scenario(g, "xport_ofi", refused_saying, hello(xport=b"ofi"),
             r"mismatched transports: the client \(.*\) uses --transport=ofi, this server "
             r"--transport=verbs")
    scenario(g, "real_client_after", real_client)

    g = "steps"  # a session given up, or lied in, at every step
    scenario(g, "close_after_hello", attack, hello(), "sent")
    scenario(g, "silent_after_accept", session, [hello(), st_dropped()])
    scenario(g, "close_after_accept", session, [hello()])
    scenario(g, "silent_after_qpinfo", session, [hello(), st_get_qpinfo, st_dropped()])
    scenario(g, "close_before_qpinfo", session, [hello(), st_get_qpinfo])
    scenario(g, "stall_in_qpinfo", session, [hello(), st_get_qpinfo,
                                            st_stall_half(qpinfo()), st_dropped()])
    scenario(g, "qpinfo_nqp_mismatch", session, [hello(), st_get_qpinfo,
                                                st_send_qpinfo(nqp=2), st_dropped()])
    scenario(g, "qpinfo_len_mismatch", session, [hello(), st_get_qpinfo,
                                                st_send_qpinfo(length=1), st_dropped()])
    scenario(g, "qpinfo_qpn_25bit", session, [hello(), st_get_qpinfo,
                                             st_send_qpinfo(qpn=0x1000000), st_dropped()])
    # another transport's address (its length) or key (beyond verbs' 32 bits)
    scenario(g, "qpinfo_blob_40", session, [hello(), st_get_qpinfo,
                                           st_send_qpinfo(alen=40), st_dropped()])
    scenario(g, "qpinfo_key_64bit", session, [hello(), st_get_qpinfo,
                                             st_send_qpinfo(rkey=1 << 40), st_dropped()])
    for v in (0, 256):
        scenario(g, "qpinfo_rd_atomic_%d" % v, session,
                 [hello(), st_get_qpinfo, st_send_qpinfo(rd_atomic=v), st_dropped()])
    scenario(g, "qpinfo_unterminated", session, [hello(), st_get_qpinfo,
                                                st_send_qpinfo(kind=b"k" * 16), st_dropped()])
    scenario(g, "qpinfo_foreign_then_close", session, to_ready())
    scenario(g, "silent_at_ready", session, to_ready() + [st_dropped()])
    scenario(g, "go_wrong_step", session, to_ready() + [st_send(sync(7, 4096)), st_dropped()])
    scenario(g, "go_wrong_size", session, to_ready() + [st_send(sync(GO, 1 << 40)), st_dropped()])
    scenario(g, "close_mid_run", session, to_result())
    scenario(g, "silent_mid_run", session, to_result() + [st_dropped()])
    for name, r in (("nan", result(dur=float("nan"))), ("neg", result(avg=-1.0)),
                    ("inf", result(peak=float("inf"))),
                    ("huge", result(nbytes=2**64 - 1, iters=2**64 - 1, dur=1e308, peak=1e308,
                                    avg=1e308, rate=1e308)),
                    ("zero", result(nbytes=0, iters=0, dur=0, peak=0, avg=0, rate=0)),
                    ("status_note", result(status=0xffffffff, note=b"%s%n%s" * 20)),
                    ("note_unterminated", frame(RESULT, bytes(52) + b"n" * 128))):
        scenario(g, "result_" + name, session,
                 to_result() + [st_send(r), st_dropped(TIMEOUT + SLACK + 5)])
    scenario(g, "close_before_bye", session, to_result() + [st_send(result()), st_expect(RESULT)])
    scenario(g, "garbage_for_bye", session, to_result() + [st_send(result()), st_expect(RESULT),
                                                           st_send(b"\xff" * 64), st_dropped()])
    scenario(g, "bidir_foreign_qp", session,
             [hello(flags=1), st_get_qpinfo, st_send_qpinfo(qpn=0xabcde, rkey=0xdead),
              st_expect(SYNC), st_send(sync(GO, 4096)), st_dropped(TIMEOUT + SLACK + 30)])
    scenario(g, "real_client_after", real_client)

    gpu_word_scenarios()
    scenario("replay", "mutated", replay)
    scenario("replay", "real_client_after", real_client)
    scenario("memory", "bounded", memory_bounded)


def memory_bounded():
    grew = (T.proc.rss_kb() - T.rss0) // 1024
    if grew > RSS_MB:
        return "server RSS grew by %d MiB over the scenarios (bound %d)" % (grew, RSS_MB)
    print("     server RSS %d -> %d KiB" % (T.rss0, T.proc.rss_kb()))
    return None

# ---- replay: record a real session through a relay, then send it back mutated ----


def record(lport):
    """Relay one real write_bw client to the target; return the client's bytes, frame by frame."""
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((ADDR, lport))
    ls.listen(1)
    c = Proc("client-recorded", gdr("write_bw", "-p", str(lport), "-s", "4096", "-n", "20", ADDR))
    ls.settimeout(30)
    a, _ = ls.accept()
    ls.close()
    b = connect(T.port)
    frames = []
    a.settimeout(0.05)
    b.settimeout(0.05)
    buf = {a: b"", b: b""}
    t0 = time.monotonic()
    while time.monotonic() - t0 < 60:
        done = False
        for src, dst in ((a, b), (b, a)):
            try:
                d = src.recv(65536)
            except (socket.timeout, TimeoutError):
                continue
            if not d:
                done = True
                break
            dst.sendall(d)
            if src is a:
                buf[a] += d
                while len(buf[a]) >= 12:
                    n = 12 + struct.unpack("<I", buf[a][8:12])[0]
                    if len(buf[a]) < n:
                        break
                    frames.append(buf[a][:n])
                    buf[a] = buf[a][n:]
        if done:
            break
    a.close()
    b.close()
    c.wait(30)
    return frames


def replay():
    frames = record(PORT + 50)
    if len(frames) < 4:
        return "recorded only %d client frames" % len(frames)
    for i in range(24):
        s = connect(T.port)
        for f in frames:
            f = bytearray(f)
            for _ in range(random.randint(1, 3)):  # flip bytes, never all of them
                f[random.randrange(len(f))] ^= 1 << random.randrange(8)
            if not send_peek(s, bytes(f), 0.3):
                break
        if closed_within(s, TIMEOUT + SLACK + 5) is None:
            s.close()
            return "mutant %d: server kept the connection" % i
        s.close()
        why = T.check()
        if why:
            return "mutant %d: %s" % (i, why)
    return None

# ---- single-shot servers: a session abandoned mid-way ends them with one line, except
# one abandoned during the setup, after which the server serves the next client ----


def single_shot(steps, serves_next=False):
    """A single-shot server facing steps. serves_next: the session ends during the setup,
    which does not end the server (issue 23): it says so, serves the next real client,
    and ends with that run."""
    port = PORT + 60
    p = Proc("single", gdr("write_bw", "-p", str(port), "--listen_timeout", "30"))
    time.sleep(0.5)
    try:
        why = session(steps, port)
    except (EOFError, TimeoutError, socket.timeout, OSError) as e:
        why = "session: %s" % type(e).__name__
    if serves_next and not why:
        why = real_client(port)
    end = ended_cleanly(p, TIMEOUT + SLACK + 10, want_error=not serves_next)  # always: no process left
    if serves_next and not end and b"still waiting for a client" not in p.text():
        end = "the server did not say that it waits for the next client"
    return why or end


def single_scenarios():
    g = "single"
    scenario(g, "close_after_accept", lambda steps: single_shot(steps, serves_next=True), [hello()])
    scenario(g, "close_after_qpinfo", single_shot, [hello(), st_get_qpinfo, st_send_qpinfo()])
    scenario(g, "close_mid_run", single_shot, to_result())
    scenario(g, "result_nan", single_shot, to_result() + [st_send(result(dur=float("nan")))])
    scenario(g, "close_before_bye", single_shot, to_result() + [st_send(result()), st_expect(RESULT)])

# ---- the client facing a hostile server ----


def hostile_server(script, test="write_bw", within=TIMEOUT + SLACK + 10, extra=(), says=None):
    """Listen, start a real client, play `script` (a callable on the accepted socket);
    says: a regex the client's output must match."""
    with lock:
        port = next(ports)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((ADDR, port))
    ls.listen(4)
    c = Proc("client-h%d" % port, gdr(test, "-p", str(port), "-s", "4096", "-n", "20",
                             "--connect_timeout", "10", *extra, ADDR))
    ls.settimeout(30)
    try:
        a, _ = ls.accept()
    except (socket.timeout, TimeoutError):
        c.wait(5)
        return "the client never connected"
    finally:
        ls.close()
    early = None
    try:
        script(a)
    except (EOFError, TimeoutError, socket.timeout, OSError) as e:
        # the client may rightly give up first, except where the lie comes at the end
        if getattr(script, "strict", False):
            early = "the client stopped before the lie (%s): %s" % (
                type(e).__name__, c.text().splitlines()[-1:])
    why = ended_cleanly(c, within)
    a.close()
    if not why and says and not re.search(says.encode(), c.text()):
        why = "the client did not say /%s/: %s" % (says, c.text().splitlines()[-1:])
    return why or early


def hs_read_hello(a):
    t, p = read_msg(a)
    return p


def hs_play(a, acts):
    for x in acts:  # bytes are sent, callables called
        if callable(x):
            x(a)
        else:
            a.sendall(x)


def hs(*acts):
    def f(a):
        hs_read_hello(a)
        hs_play(a, acts)
    return f


def hs_close(a):
    a.close()


def hs_wait_close(a):
    closed_within(a, TIMEOUT + SLACK)


def hs_qp_to_ready(*after, mirror=False):
    """ACCEPT, then a QPINFO: a foreign QP and rkey, or (mirror) the client's own, so
    that its QP talks to itself and the run really happens; then `after`."""
    def f(a):
        hs_read_hello(a)
        a.sendall(simple(ACCEPT))
        t, p = read_msg(a)  # the client's QPINFO
        nqp, rkey, addr, length, mtu, gid = qpinfo_head(p)
        if mirror:
            a.sendall(frame(QPINFO, p))
        else:
            a.sendall(qpinfo(nqp=nqp, length=length, gid=gid, qpn=0xabcde, rkey=0xdead))
        hs_play(a, after)
    f.strict = mirror
    return f


def hs_read(a):
    read_msg(a, 60)


def client_scenarios():
    slow = TIMEOUT + SLACK + 30
    items = [
        ("close_at_once", hostile_server, hs_close),
        ("silent", hostile_server, hs(hs_wait_close)),
        ("garbage", hostile_server, hs(b"\xff" * 100, hs_wait_close)),
        ("version_1", hostile_server, hs(frame(ACCEPT, b"", ver=1), hs_wait_close)),
        ("version_6", hostile_server, hs(frame(ACCEPT, b"", ver=6), hs_wait_close), "write_bw",
         TIMEOUT + SLACK + 10, (), r"speaks protocol version 6, this is version %d" % VERSION),
        ("length_huge", hostile_server, hs(frame(ACCEPT, b"", plen=0xffffffff), hs_wait_close)),
        ("stall_half_header", hostile_server, hs(simple(ACCEPT)[:6], hs_wait_close)),
        ("reject_unterminated", hostile_server, hs(reject(raw=b"r" * 256), hs_wait_close)),
        ("reject_format", hostile_server, hs(reject(b"%s%s%n%x" * 8), hs_wait_close)),
        ("accept_then_close", hostile_server, hs(simple(ACCEPT), hs_close)),
        ("accept_then_silent", hostile_server, hs(simple(ACCEPT), hs_wait_close)),
        ("hello_back", hostile_server, hs(hello(), hs_wait_close)),
        ("qpinfo_nqp_64", hostile_server, hs(simple(ACCEPT), hs_read, qpinfo(nqp=64), hs_wait_close)),
        ("qpinfo_len_0", hostile_server, hs(simple(ACCEPT), hs_read, qpinfo(length=0), hs_wait_close)),
        ("foreign_qp_silent", hostile_server, hs_qp_to_ready(hs_wait_close)),
        ("ready_wrong_size", hostile_server, hs_qp_to_ready(sync(READY, 1 << 40), hs_wait_close)),
        ("ready_then_close", hostile_server, hs_qp_to_ready(sync(READY, 4096), hs_close)),
        ("foreign_rkey_write", hostile_server,
         hs_qp_to_ready(sync(READY, 4096), hs_wait_close), "write_bw", slow),
        ("mirror_close_before_result", hostile_server,
         hs_qp_to_ready(sync(READY, 4096), hs_read, hs_read, hs_close, mirror=True), "write_bw",
         slow),
    ]
    for name, r in (("nan", result(dur=float("nan"))), ("neg", result(avg=-5.0)),
                    ("huge", result(nbytes=2**64 - 1, dur=1e308, peak=1e308, avg=1e308, rate=1e308)),
                    ("status", result(status=7, note=b"%n%s" * 30))):
        # the client's own run really happens (its QP talks to itself); then our RESULT
        items.append(("result_" + name, hostile_server,
                      hs_qp_to_ready(sync(READY, 4096), hs_read, hs_read, r, hs_wait_close,
                                     mirror=True), "write_bw", slow))
    # --compare: a server that claims the client's gpu-proxy bit, or a GPU without GPU memory
    for name, word, say in (("gpuword_proxy", 2, r"server claims a gpu-proxy kernel"),
                            ("gpuword_id", 1 << 40, r"GPU word 0x10000000000 names a GPU")):
        items.append((name, hostile_server, hs(simple(ACCEPT), sync(MEM_GPU, word), hs_wait_close),
                      "write_bw", TIMEOUT + SLACK + 10, ("--compare",), say))
    side_by_side("client", items)


def main():
    os.makedirs(OUT, exist_ok=True)
    t0 = time.monotonic()
    T.start()
    why = real_client()  # also warms the server up before its memory is taken
    if why:
        print("FAIL setup: the server does not serve a real client: " + why)
        return 1
    T.rss0 = T.proc.rss_kb()
    server_scenarios()
    T.proc.p.send_signal(2)
    if T.proc.wait(20) is None or sanitizer_free(T.proc):
        counts.setdefault("memory", [0, 0])[1] += 1
        failures.append("server end: " + (sanitizer_free(T.proc) or "no exit on SIGINT"))
    single_scenarios()
    client_scenarios()
    total = [sum(v[i] for v in counts.values()) for i in (0, 1)]
    print("hostile: %d scenarios passed, %d failed in %.0f s (%s)" % (
        total[0], total[1], time.monotonic() - t0,
        ", ".join("%s %d" % (k, sum(v)) for k, v in counts.items())))
    for f in failures:
        print("  failed: " + f)
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
