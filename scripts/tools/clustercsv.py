# SPDX-License-Identifier: MIT
"""A cluster run's long-format CSV (gdr_* --cluster, src/cluster/ccsv.c): reading it, the
suspects as src/cluster/verdict.c names them (from the status column), and the node x node
matrices that scripts/tools/plot.py and scripts/tools/report.py draw, and the matplotlib both use
(pyplot_or_reexec). Imports go one way: plot.py and report.py import this module, never
the reverse."""
import csv
import math
import os
import subprocess
import sys
from collections import OrderedDict, defaultdict

COLUMNS = ("run_id,round,pattern,test,bytes,path,host_a,rail_a,nic_a,gpu_a,host_b,rail_b,"
           "nic_b,gpu_b,status,bw_gbps,lat_median_us,lat_p99_us,iterations,seconds,"
           "error").split(",")
# the run's facts after the error text, then the counters that moved around the pair (-W), then
# the blame of a flagged pair and the pair's route (--topology) (older CSVs lack them: read as
# "")
META = ("tool_version", "started", "slow_rule", "command", "counters", "blame", "route")
ROUTE_SEP = " > "  # between two cables of a route cell (no name in a topology holds ">")
STATUSES = ("OK", "SLOW", "FAIL", "TIMEOUT", "SKIP")
FLAGGED = ("SLOW", "FAIL", "TIMEOUT")
# the worst status of a matrix cell wins (several rails, or a "-" row next to a measured one)
RANK = {"SKIP": 0, "OK": 1, "SLOW": 2, "TIMEOUT": 3, "FAIL": 4}
# cell colours of the statuses that have no number (and of no pair at all)
COLOURS = {"FAIL": "#d62728", "TIMEOUT": "#ff7f0e", "SKIP": "#b0b0b0", "none": "#ffffff"}
LETTER = {"FAIL": "F", "TIMEOUT": "T", "SKIP": "S", "SLOW": "!"}


def pyplot_or_reexec(script, argv):
    """matplotlib.pyplot (Agg); without matplotlib, run script again under this host's
    python3 that has it, or None when there is none."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        other = python_with_matplotlib()
        if other:
            os.environ["GDR_PLOT_REEXEC"] = "1"
            os.execv(other, [other, os.path.abspath(script)] + list(argv))
        return None


def python_with_matplotlib():
    """Another python3 on this host that can import matplotlib, or None."""
    if os.environ.get("GDR_PLOT_REEXEC"):
        return None  # already re-executed once: do not loop
    seen = {os.path.realpath(sys.executable)}
    names = ["/usr/bin/python3", "/usr/local/bin/python3"]
    for d in os.environ.get("PATH", "").split(os.pathsep):
        names += [os.path.join(d, n) for n in ("python3",)]
    for cand in names:
        real = os.path.realpath(cand)
        if real in seen or not os.access(real, os.X_OK):
            continue
        seen.add(real)
        if subprocess.run([real, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            return real
    return None


class CsvError(Exception):
    """A CSV that cannot be read as a cluster run: the message is one line."""


def is_cluster_header(fields):
    return list(fields or [])[:len(COLUMNS)] == COLUMNS


def num(s):
    """A cell as a float; empty or not a finite number -> None."""
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


class Row:
    """One CSV row, read by column name (row["status"]); __slots__ and shared strings keep
    a row near 300 B in memory, so millions of them fit (a dict took 2.3 KB)."""
    __slots__ = COLUMNS + list(META)
    UNIQUE = ("bw_gbps", "lat_median_us", "lat_p99_us", "iterations")  # not worth sharing

    def __init__(self, cells, shared):
        cells = cells + [""] * (len(Row.__slots__) - len(cells))
        for k, v in zip(Row.__slots__, cells):
            setattr(self, k, v if k in Row.UNIQUE else shared.setdefault(v, v))

    def __getitem__(self, k):
        return getattr(self, k)

    def get(self, k, default=None):
        return getattr(self, k, default)


def load(path):
    """The rows of a cluster CSV; CsvError for a missing, empty or foreign file."""
    shared = {}
    try:
        with open(path, newline="") as f:
            rd = csv.reader(f)
            head = next(rd, None)
            if head is None:
                raise CsvError("%s is empty" % path)
            if not is_cluster_header(head):
                raise CsvError("%s is not a gdrperf cluster CSV (its header is not "
                               "run_id,round,pattern,...: see docs/cluster.md)" % path)
            rows = [Row(c, shared) for c in rd if c and c[0] != "run_id"]
    except OSError as e:
        raise CsvError("cannot read %s: %s" % (path, e.strerror or e))
    except (csv.Error, UnicodeDecodeError) as e:
        raise CsvError("%s: not a readable CSV: %s" % (path, e))
    if not rows:
        raise CsvError("%s has a header but no rows" % path)
    bad = [r for r in rows if r["status"] not in STATUSES]
    if bad:
        raise CsvError("%s: unknown status %r (want one of %s)" %
                       (path, bad[0]["status"], ", ".join(STATUSES)))
    return rows


def end_a(r):
    return (r["host_a"], r["rail_a"])


def end_b(r):
    return (r["host_b"], r["rail_b"]) if r.get("host_b") else None


def sizes(rows):
    return sorted({int(num(r["bytes"])) for r in rows if num(r["bytes"])})


def paths(rows):
    return sorted({r["path"] for r in rows if r["path"] and r["path"] != "-"})


def pairs(rows):
    """Pairs as verdict.c walks them: (round, a, b) -> [flagged?, first row]; SKIP left out."""
    out = OrderedDict()
    for r in rows:
        k = (r["round"], end_a(r), end_b(r))
        if k not in out:
            out[k] = [False, r]
        out[k][0] |= r["status"] in FLAGGED
    return OrderedDict((k, v) for k, v in out.items()
                       if k[2] is not None and v[1]["status"] != "SKIP")


def _suspect(t):
    return t[1] > 0 and 2 * t[1] >= t[0]


def suspects(prs):
    """Suspect nodes and rails and flagged links of the pairs (pairs()), by the rules of
    verdict.c. Returns (nodes, rails, links): nodes [(host, flagged, pair ends)], rails
    [(host, rail, nic, gpu, flagged, pairs)], links [(a, b, round)] with a, b (host, rail)."""
    rank = defaultdict(lambda: [0, 0])
    info = {}
    for (_rd, a, b), (bad, r) in prs.items():
        for e in (a, b):
            rank[e][0] += 1
            rank[e][1] += bad
        info.setdefault(a, (r["nic_a"], r["gpu_a"]))
        info.setdefault(b, (r["nic_b"], r["gpu_b"]))
    host = OrderedDict()
    for (h, _rail), t in rank.items():
        ht = host.setdefault(h, [0, 0])
        ht[0] += t[0]
        ht[1] += t[1]
    # a suspect node stands out from other nodes: one host has none to compare with
    nodes = [(h, t[1], t[0]) for h, t in host.items() if _suspect(t) and len(host) > 1]
    rails = [(e[0], e[1]) + info[e] + (t[1], t[0])
             for e, t in sorted(rank.items()) if _suspect(t)]
    links = [(a, b, rd) for (rd, a, b), (bad, _r) in prs.items()
             if bad and not _suspect(rank[a]) and not _suspect(rank[b])]
    return nodes, rails, links


def is_latency(rows):
    """A latency test (gdr_*_lat): its cells show the median latency, not bandwidth."""
    return any(r["test"].endswith("_lat") for r in rows)


def by_ranks(rows):
    """Matrix axes are ranks (host:rail) when pairs share a host (--same-host) or there is
    one host; otherwise hosts, a cell holding all rails of the host pair."""
    hosts = {r["host_a"] for r in rows} | {r["host_b"] for r in rows if r["host_b"]}
    return len(hosts) < 2 or any(r["host_a"] == r["host_b"] for r in rows)


def _unit(host, rail, ranks):
    return "%s:%s" % (host, rail) if ranks else host


class Matrix:
    """One size and path: labels, and per (i, j) cell the worst status and the worst value
    (the lowest bandwidth or the highest latency) of its rows. A pair is one cell: row i
    the server, column j the client when directed (some pair ran both ways), else the
    upper triangle (i < j) whichever end served."""

    def __init__(self, size, path, latency, labels, directed=False, unit=None):
        self.size, self.path, self.latency, self.labels = size, path, latency, labels
        self.directed, self.label = directed, unit
        self.cells = {}
        self.same_host = set()  # cells of pairs on one host (loopback: not the fabric)

    def add(self, i, j, status, value, same_host=False):
        if not self.directed and i > j:
            i, j = j, i
        if same_host:
            self.same_host.add((i, j))
        st, v = self.cells.get((i, j), ("SKIP", None))
        if RANK[status] > RANK[st]:
            st = status
        if value is not None:
            worse = max if self.latency else min
            v = value if v is None else worse(v, value)
        self.cells[(i, j)] = (st, v)

    def unit(self):
        if self.label:
            return self.label
        return "median latency [us]" if self.latency else "bandwidth [Gb/s]"


def fmt(v):
    """A cell's figure without scientific notation (158000, not 1.58e+05): whole numbers
    from 100, one decimal from 10, two below (0.001 and less: "<0.01")."""
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 0.01 or v == 0:
        return "%.2f" % v
    return "<0.01"


def scale_top(ms):
    """The top of one colour scale for all matrices ms of a metric: the highest value
    (latency: or twice the median, so one slow pair does not wash out the rest). Pairs on
    one host (loopback, --same-host) are left out when the fabric's pairs are there: one
    such pair at memory speed would make every healthy cross-node cell look dead (issue
    34.11); its cell is drawn in the top colour."""
    def values(skip_same):
        return [v for m in ms for (k, (st, v)) in m.cells.items()
                if st in ("OK", "SLOW") and v is not None and
                not (skip_same and k in m.same_host)]
    vals = values(True) or values(False)
    if not vals:
        return 1.0
    top = max(vals)
    if ms and ms[0].latency:
        top = max(top, 2 * sorted(vals)[len(vals) // 2])
    return top


def matrices(rows):
    """One Matrix per size and path, in size then path order. Rows of path "-" (a pair
    that failed before its paths ran) and without a size count in every path of their size
    (of every size); a size that has no measured path gets a "-" matrix."""
    ranks = by_ranks(rows)
    units = sorted({_unit(r["host_a"], r["rail_a"], ranks) for r in rows} |
                   {_unit(r["host_b"], r["rail_b"], ranks) for r in rows if r["host_b"]},
                   key=_natural)
    index = {u: i for i, u in enumerate(units)}
    latency = is_latency(rows)
    ran = {(index[_unit(r["host_a"], r["rail_a"], ranks)],
            index[_unit(r["host_b"], r["rail_b"], ranks)]) for r in rows if r["host_b"]}
    directed = any((j, i) in ran for (i, j) in ran if i != j)
    keys = OrderedDict()
    all_sizes = sizes(rows) or [0]
    for s in all_sizes:
        for p in paths([r for r in rows if num(r["bytes"]) in (s, None)]) or ["-"]:
            keys[(s, p)] = Matrix(s, p, latency, units, directed)
    for r in rows:
        if not r["host_b"]:
            continue
        i = index[_unit(r["host_a"], r["rail_a"], ranks)]
        j = index[_unit(r["host_b"], r["rail_b"], ranks)]
        v = num(r["lat_median_us"] if latency else r["bw_gbps"])
        same = r["host_a"] == r["host_b"]
        for (s, p), m in keys.items():
            if num(r["bytes"]) in (s, None) and r["path"] in (p, "-", ""):
                m.add(i, j, r["status"], v, same)
    return list(keys.values())


def _natural(s):
    """Sort key: digit runs as numbers (node2 before node10)."""
    out, cur, digit = [], "", False
    for ch in s + "\0":
        if ch.isdigit() != digit or ch == "\0":
            out.append((0, int(cur), "") if digit and cur else (1, 0, cur))
            cur, digit = "", ch.isdigit()
        cur += ch
    return out


def size_name(b):
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b >= div and b % div == 0:
            return "%d%s" % (b // div, unit)
    return str(b)


def draw(plt, m, max_labels=40, top=None):
    """A figure of the matrix: values coloured from 0 to top (None: this matrix's
    scale_top; viridis: yellow is the most bandwidth, or the least latency), FAIL, TIMEOUT
    and SKIP cells in their own colours with a letter, SLOW cells with '!', no pair
    white."""
    import numpy as np
    from matplotlib.colors import ListedColormap, Normalize
    n = len(m.labels)
    # inches at dpi 80 to 100: at least a pixel per cell, so no cell is dropped
    side = max(min(max(4.5, 0.45 * n + 2.5), 14), n / 60 + 3)
    fig, ax = plt.subplots(figsize=(side + 1.5, side))
    vals = np.full((n, n), np.nan)
    for (i, j), (st, v) in m.cells.items():
        if st in ("OK", "SLOW") and v is not None:
            vals[i, j] = v
    if top is None:
        top = scale_top([m])
    norm = Normalize(0, top)
    cmap = plt.get_cmap("viridis_r" if m.latency else "viridis")
    im = ax.imshow(np.ma.masked_invalid(vals), cmap=cmap, norm=norm, interpolation="nearest")
    for st in ("SKIP", "TIMEOUT", "FAIL"):
        mask = np.zeros((n, n))
        for (i, j), (cs, _v) in m.cells.items():
            mask[i, j] = cs == st
        if mask.any():
            ax.imshow(np.ma.masked_equal(mask, 0), cmap=ListedColormap([COLOURS[st]]),
                      interpolation="nearest")
    if n <= 24:
        for (i, j), (st, v) in m.cells.items():
            text, dark = LETTER.get(st, ""), st == "FAIL"
            if st in ("OK", "SLOW") and v is not None:
                text = (fmt(v) if n <= 12 else "") + text
                dark = sum(cmap(norm(v))[:3]) < 1.5
            if text:
                ax.text(j, i, text, ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")
    step = max(1, math.ceil(n / max_labels))
    ticks = list(range(0, n, step))
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_xticklabels([m.labels[t] for t in ticks], rotation=90, fontsize=8)
    ax.set_yticklabels([m.labels[t] for t in ticks], fontsize=8)
    ax.set_xlabel("client (b)" if m.directed else "pair end (each pair once)")
    ax.set_ylabel("server (a)" if m.directed else "pair end")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label=m.unit())
    ax.set_title("%s, path %s: %s (worst of the cell's rows)" %
                 (size_name(m.size), m.path, m.unit()), fontsize=10)
    return fig
