#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench-stats.py RAW.TSV [CALLGRIND.TSV]: the tables of scripts/bench/bench-perftest.sh.

RAW.TSV lines: tool test size run figure1 figure2 (tool: ours or perftest; bw tests:
BW average MiB/s and MsgRate Mpps; latency tests: ours t_median / perftest t_typical
and t_avg, usec). For each point: the median of each tool's runs, their ratio
(ours / perftest) and a bootstrap 95% interval of that ratio (each tool's runs
resampled with replacement, 4000 times, seeded: the same input gives the same output).
A point is flagged only when its interval lies wholly on the wrong side of 1.0:
below it for bandwidth, above it for latency.

CALLGRIND.TSV lines: tool test iters total_Ir post_Ir - (post: ours only, inclusive Ir
of gdr_bw_post, the posting path with the provider's post_send; '-' when unknown:
perftest's binary is stripped, its posting code is inlined in its loop anyway).
"""
import random
import statistics
import sys
from collections import defaultdict

B = 4000
SEED = 20261123


def boot_ci(ours, theirs, rng):
    rs = []
    for _ in range(B):
        a = statistics.median(rng.choices(ours, k=len(ours)))
        b = statistics.median(rng.choices(theirs, k=len(theirs)))
        if b > 0:
            rs.append(a / b)
    rs.sort()
    if not rs:
        return None, None
    return rs[int(0.025 * (len(rs) - 1))], rs[int(0.975 * (len(rs) - 1))]


def fmt(x, p=2):
    return "-" if x is None else "%.*f" % (p, x)


def main():
    d = defaultdict(list)
    for ln in open(sys.argv[1]):
        f = ln.split()
        if len(f) != 6:
            continue
        d[(f[0], f[1], int(f[2]))].append((float(f[4]), float(f[5])))
    rng = random.Random(SEED)
    points = sorted({(t, s) for (_, t, s) in d}, key=lambda p: (p[0].endswith("lat"), p[0], p[1]))
    flagged = []
    for kind in ("bw", "lat"):
        rows = [p for p in points if p[0].endswith(kind)]
        if not rows:
            continue
        if kind == "bw":
            print("| test | size (B) | ours BW avg MiB/s | perftest | ratio | 95% interval | ours Mpps | perftest Mpps | runs | flag |")
        else:
            print("| test | size (B) | ours t_median us | perftest t_typical us | ratio | 95% interval | ours t_avg | perftest t_avg | runs | flag |")
        print("|---|---:|---:|---:|---:|---|---:|---:|---|---|")
        for test, size in rows:
            o = d.get(("ours", test, size), [])
            t = d.get(("perftest", test, size), [])
            o1 = [x[0] for x in o]
            t1 = [x[0] for x in t]
            mo = statistics.median(o1) if o1 else None
            mt = statistics.median(t1) if t1 else None
            mo2 = statistics.median([x[1] for x in o]) if o else None
            mt2 = statistics.median([x[1] for x in t]) if t else None
            ratio = mo / mt if mo is not None and mt else None
            lo = hi = None
            if len(o1) >= 2 and len(t1) >= 2:
                lo, hi = boot_ci(o1, t1, rng)
            flag = ""
            if lo is not None:
                if kind == "bw" and hi < 1.0:
                    flag = "SLOWER"
                elif kind == "lat" and lo > 1.0:
                    flag = "SLOWER"
                elif kind == "bw" and lo > 1.0 or kind == "lat" and hi < 1.0:
                    flag = "faster"
            if flag == "SLOWER":
                flagged.append("%s %d B" % (test, size))
            ci = "-" if lo is None else "[%.2f, %.2f]" % (lo, hi)
            p2 = 3 if kind == "bw" else 2
            print("| %s | %d | %s | %s | %s | %s | %s | %s | %d/%d | %s |" % (
                test, size, fmt(mo), fmt(mt), fmt(ratio), ci, fmt(mo2, p2 + 3 if kind == "bw" else 2),
                fmt(mt2, p2 + 3 if kind == "bw" else 2), len(o1), len(t1), flag))
        print()
    print("Flagged (interval wholly on the wrong side of 1.0): %s" % (", ".join(flagged) or "none"))
    print()
    if len(sys.argv) > 2:
        callgrind(sys.argv[2])


def cg_calls(path, pattern):
    """Calls of every function whose name holds pattern, in a callgrind profile."""
    names, callee, n = {}, None, 0
    for ln in open(path, errors="replace"):
        if ln.startswith("cfn="):
            ref = ln[4:].strip()
            if ref.startswith("(") and ")" in ref:
                key, _, name = ref.partition(")")
                if name.strip():
                    names[key] = name.strip()
                callee = names.get(key, "")
            else:
                callee = ref
        elif ln.startswith("fn="):
            ref = ln[3:].strip()
            if ref.startswith("(") and ")" in ref:
                key, _, name = ref.partition(")")
                if name.strip():
                    names[key] = name.strip()
        elif ln.startswith("calls=") and callee is not None:
            if pattern in callee:
                n += int(ln[6:].split()[0])
            callee = None
    return n


def cg_provider(path, objpart="rdmav"):
    """Ir and calls of every call arc from outside the verbs provider into it (the provider's
    post and poll functions under both tools: the provider library carries no symbols, so its
    entries are counted by object, from the callers' side, with their inclusive cost)."""
    names, ob, cob, into, ir, calls = {}, "", None, False, 0, 0

    def name_of(ref):
        if ref.startswith("(") and ")" in ref:
            key, _, nm = ref.partition(")")
            if nm.strip():
                names[key] = nm.strip()
            return names.get(key, "")
        return ref

    for ln in open(path, errors="replace"):
        if into:
            f = ln.split()
            if len(f) >= 2:
                ir += int(f[1])
            into = False
            continue
        if ln.startswith("ob="):
            ob, cob = name_of(ln[3:].strip()), None
        elif ln.startswith("cob="):
            cob = name_of(ln[4:].strip())
        elif ln.startswith("fl=") or ln.startswith("fn="):
            cob = None
        elif ln.startswith("calls="):
            callee = cob if cob is not None else ob
            if objpart in callee and objpart not in ob:
                calls += int(ln[6:].split()[0])
                into = True
            cob = None
    return ir, calls


def callgrind(path):
    runs = defaultdict(list)
    for ln in open(path):
        f = ln.split()
        if len(f) == 6:
            f += ["-", "-", "-"]
        if len(f) != 9:
            continue
        runs[(f[0], f[1])].append((int(f[2]), f[3], f[4], f[6], f[7], f[8]))
    if not runs:
        return
    print("User-space instructions per message (callgrind, client side, difference of two")
    print("iteration counts so setup cancels; provider and libibverbs code included):")
    print()
    print("| test | tool | Ir/msg total | Ir/msg posting path | Ir/msg the rest (polling, loop) |"
          " Ir/msg in the provider's post + poll | Ir/msg in our post + poll functions only |"
          " provider calls/msg |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for test in sorted({t for (_, t) in runs}):
        for tool in ("ours", "perftest"):
            r = sorted(runs.get((tool, test), []))
            if len(r) < 2:
                continue
            (n1, a1, p1, q1, o1, c1), (n2, a2, p2, q2, o2, c2) = r[0], r[-1]

            def per(x1, x2):
                if x1 == "-" or x2 == "-" or n2 == n1:
                    return None
                return (int(x2) - int(x1)) / (n2 - n1)
            tot, post = per(a1, a2), per(p1, p2)
            rest = tot - post if tot is not None and post is not None else None
            pp, own, calls = per(q1, q2), per(o1, o2), per(c1, c2)
            print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                test, tool, fmt(tot, 0), fmt(post, 0), fmt(rest, 0), fmt(pp, 0), fmt(own, 0),
                fmt(calls, 2)))
    print()
    print("The provider's post and poll functions are the same library code under both tools (the")
    print("provider has no symbols: its entries are counted by object, each call with its inclusive")
    print("cost); their instructions per message differ by how often each tool posts, signals and")
    print("polls, empty polls included. Ours' own posting and completion functions (gdr_bw_post,")
    print("gdr_bw_poll_send, their provider calls included) with callgrind collecting only inside")
    print("them (--toggle-collect); perftest's are inline in its loop (run_iter_bw): none to isolate.")
    print()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--calls":
        print(cg_calls(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--provider":
        print("%d %d" % cg_provider(sys.argv[2]))
    else:
        main()
