#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Render a cluster run's CSV (gdr_* --cluster --csv=RUN.csv) into one self-contained HTML
page: summary, suspects, a node x node heatmap per size and path, the pair table; with
--topology the blame, the links flagged pairs cross and a picture of the fabric.

Usage: scripts/tools/report.py RUN.csv [-o page.html] [--max-rows N]

The page has no external reference (inline CSS, heatmaps as base64 PNG): attach it to a
ticket as is. Statuses are the CSV's own (the verdicts rank 0 applied at the end of the
run); suspects follow the rules of the run's summary (docs/cluster.md, Output)."""
import argparse
import base64
import html
import io
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clustercsv as cc  # noqa: E402
import clusterfab  # noqa: E402

CSS = """
body{font-family:sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:18px 0 6px}
table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#eee}
.kv td:first-child{font-weight:bold}
.verdict0{color:#1a7f37;font-weight:bold}.verdict1{color:#c00;font-weight:bold}
.OK{background:#e6f4ea}.SLOW{background:#fff3bf}.FAIL{background:#f8c9c9}
.TIMEOUT{background:#ffd8a8}.SKIP{background:#e9ecef}
figure.heatmap,figure.fabric{display:inline-block;margin:0 12px 12px 0}
figure.heatmap img{display:block}
figcaption{font-size:12px}
.sw{display:inline-block;width:12px;height:12px;border:1px solid #888;margin:0 3px}
.err{max-width:60em;word-break:break-word}
"""


def esc(s):
    return html.escape(str(s), quote=True)


def table(head, rows, cls=None):
    out = ["<table%s>" % (' class="%s"' % cls if cls else "")]
    if head:
        out.append("<tr>%s</tr>" % "".join("<th>%s</th>" % esc(h) for h in head))
    for r in rows:
        out.append("<tr>%s</tr>" % "".join("<td>%s</td>" % esc(c) for c in r))
    return "".join(out) + "</table>"


def first(rows, col):
    """The first non-empty cell of a column (the command is on the file's first row)."""
    return next((r[col] for r in rows if r[col]), "")


def slow_text(rule):
    """The SLOW rule of the run (slow_rule column, "slow-pct=90 expect-bw=100") in words."""
    if not rule:
        return "not recorded in this CSV (written before gdrperf recorded it)"
    kv = dict(w.split("=", 1) for w in rule.split() if "=" in w)
    out = []
    pct = cc.num(kv.get("slow-pct"))
    if pct:
        out.append("bandwidth under %g%% of the median of the OK rows of its rail, size and "
                   "path (latency: over the median / %g); pairs sharing a NIC in their "
                   "round left out" % (pct, pct / 100))
    else:
        out.append("no relative rule (slow-pct=0)")
    if kv.get("expect-bw"):
        out.append("bandwidth under %s Gb/s" % kv["expect-bw"])
    if kv.get("expect-lat"):
        out.append("median latency over %s us" % kv["expect-lat"])
    return "%s: %s" % (rule, "; or ".join(out))


def summary(rows, prs, path):
    st = Counter(r["status"] for r in rows)
    nbad = sum(1 for bad, _r in prs.values() if bad)
    ends = {cc.end_a(r) for r in rows} | {cc.end_b(r) for r in rows if r["host_b"]}
    hosts = {e[0] for e in ends}

    def uniq(col):
        return ", ".join(sorted({r[col] for r in rows}))
    kv = [("CSV", os.path.basename(path)), ("run id", uniq("run_id")),
          ("command", first(rows, "command") or "not recorded in this CSV"),
          ("gdrperf version", first(rows, "tool_version") or "not recorded in this CSV"),
          ("started (UTC)", first(rows, "started") or "not recorded in this CSV"),
          ("SLOW when", slow_text(first(rows, "slow_rule"))),
          ("pattern", uniq("pattern")), ("test", uniq("test")),
          ("sizes", ", ".join(cc.size_name(s) for s in cc.sizes(rows)) or "-"),
          ("paths", ", ".join(cc.paths(rows)) or "-"),
          ("rounds", len({r["round"] for r in rows})),
          ("nodes, rails (ranks)", "%d, %d" % (len(hosts), len(ends))),
          ("rows by status", ", ".join("%s %d" % (s, st[s]) for s in cc.STATUSES)),
          ("pairs", "%d tested, %d flagged, %d rows skipped" % (len(prs), nbad, st["SKIP"]))]
    code = 1 if nbad else 0
    verdict = ('<p class="verdict%d" id="verdict">exit %d: %s</p>' %
               (code, code, "something flagged (SLOW, FAIL or TIMEOUT)" if code
                else "every pair OK"))
    return "<h2>Summary</h2>" + table(None, kv, "kv") + verdict


def suspects(prs):
    nodes, rails, links = cc.suspects(prs)
    if not (nodes or rails or links):
        return "<h2>Suspects</h2><p id=\"suspects\">none: no pair flagged</p>"
    out = ["<h2>Suspects</h2><p>a node or rail is suspect when at least half of its pairs "
           "are flagged; a flagged pair between two rails that are not is a link</p>"]
    if nodes:
        out.append(table(("suspect node", "flagged pair ends", "pair ends"), nodes))
    if rails:
        out.append(table(("suspect rail: node", "rail", "NIC", "GPU", "flagged pairs", "pairs"),
                         rails))
    if links:
        out.append(table(("flagged link: a", "rail", "b", "rail", "round"),
                         [(a[0], a[1], b[0], b[1], rd) for a, b, rd in links]))
    return "".join(out)


def counters(rows, prs):
    """-W: the counters that moved around each flagged pair (its rows share one cell)."""
    worst = {}
    for r in rows:
        k = (r["round"], cc.end_a(r), cc.end_b(r))
        if r["status"] in cc.FLAGGED and cc.RANK[r["status"]] > cc.RANK[worst.get(k, "OK")]:
            worst[k] = r["status"]
    cells = {}
    for r in rows:
        k = (r["round"], cc.end_a(r), cc.end_b(r))
        if r["counters"] and k in worst:
            cells.setdefault(k, r["counters"])
    out = [(rd, a[0], a[1], b[0], b[1], worst[(rd, a, b)], cells[(rd, a, b)])
           for (rd, a, b), (bad, _r) in prs.items() if bad and (rd, a, b) in cells]
    if not out:
        return ""
    return ("<h2 id=\"counters\">Counters of flagged pairs</h2><p>the port, hw and PCIe AER "
            "counters that moved on each end's device while the pair ran (-W)</p>" +
            table(("round", "a", "rail", "b", "rail", "status", "counters"), out))


def blame(rows):
    """--topology: the verdicts of the blame column, each with the flagged pairs it names;
    the rows of the run's retest round (pattern topology-retest) counted apart."""
    named, again = {}, {}
    for r in rows:
        if r["status"] in cc.FLAGGED and r["blame"]:
            into = again if r["pattern"] == "topology-retest" else named
            into.setdefault(r["blame"], set()).add((r["round"], cc.end_a(r), cc.end_b(r)))
            named.setdefault(r["blame"], set())
    if not named:
        return ""
    return ("<h2 id=\"blame\">Blame</h2><p>--topology: the part of the fabric the flagged "
            "pairs point at (a NIC, a host, a cable, a switch, or unexplained with the cable "
            "most of them cross as a lead), with its evidence; the pairs of the retest round "
            "over suspect cables that failed again are counted apart</p>" +
            table(("verdict and evidence", "flagged pairs", "flagged again in the retest round"),
                  sorted(((k, len(v), len(again.get(k, ()))) for k, v in named.items()),
                         key=lambda x: -x[1])))


def links(fab):
    """--topology: the cables of the flagged pairs' routes (route column), each with the
    pairs and flagged pairs crossing it, its NIC's trouble counters (-W) and the verdicts
    naming it."""
    rows = fab.links()
    if not rows:
        return ""
    return ("<h2 id=\"links\">Links</h2><p>--topology: each cable that a flagged pair's route "
            "crosses (the route column: the routing model's, not the switches' own), those a "
            "verdict names first: the pairs (a pair a round) whose data crosses it, the flagged "
            "ones, the counters of trouble that moved on its NIC's port around flagged pairs "
            "between two hosts (-W), and the verdicts that name it</p>" +
            table(("cable", "pairs", "flagged pairs", "counters", "verdict"), rows))


def fabric(plt, fab):
    """--topology: a picture of the fabric from the routes, the blamed parts marked."""
    if not fab.cables:
        return ""
    pic = fab.picture()
    return ('<h2 id="fabric">Fabric</h2><figure class="fabric"><img alt="fabric" '
            'src="data:image/png;base64,%s"><figcaption id="fabric-caption">%s</figcaption>'
            '</figure>' % (png_b64(plt, clusterfab.draw(plt, pic)), esc(pic.caption)))


def png_b64(plt, fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def figure(plt, m, top):
    name = "%s, path %s" % (cc.size_name(m.size), m.path)
    return ('<figure class="heatmap"><img alt="heatmap %s" src="data:image/png;base64,%s">'
            '<figcaption>%s</figcaption></figure>' %
            (esc(name), png_b64(plt, cc.draw(plt, m, top=top)), esc(name)))


def heatmaps(plt, rows):
    key = " ".join('<span class="sw" style="background:%s"></span>%s %s' %
                   (cc.COLOURS[s], cc.LETTER[s], s) for s in ("FAIL", "TIMEOUT", "SKIP"))
    ms = cc.matrices(rows)
    top = cc.scale_top(ms)
    where = ("row: the server (a), column: the client (b), since some pair ran both ways"
             if ms and ms[0].directed else "each pair once, above the diagonal")
    out = ["<h2>Heatmaps</h2><p>a cell is the pair's worst row (the lowest bandwidth or the "
           "highest latency of its rails, and its worst status): %s, <b>!</b> SLOW, "
           "white: no pair; %s. <span id=\"scale\">One colour scale for every heatmap: "
           "0 to %s %s%s</span>.</p>" % (key, where, cc.fmt(top), esc(ms[0].unit() if ms else ""),
                                         "; pairs on one host are left out of it (drawn in "
                                         "its top colour)" if any(m.same_host for m in ms)
                                         else "")]
    out += [figure(plt, m, top) for m in ms]
    return "".join(out)


def ratios(rows):
    """Per size, the matrix of direct/staged (latency: staged/direct) of the pairs that ran
    both paths (--compare), with its sorted values; [] when the CSV has not both paths."""
    lat = cc.is_latency(rows)
    ms = {(m.size, m.path): m for m in cc.matrices(rows)}
    unit = ("staged / direct median latency (x): over 1, direct is faster" if lat else
            "direct / staged bandwidth (x): over 1, direct is faster")
    out = []
    for (size, path), d in ms.items():
        st = ms.get((size, "staged"))
        if path != "direct" or not st:
            continue
        m = cc.Matrix(size, "direct vs staged", False, d.labels, d.directed, unit)
        m.same_host = set(d.same_host)
        for k, (s1, v1) in d.cells.items():
            s2, v2 = st.cells.get(k, ("SKIP", None))
            if s1 in ("OK", "SLOW") and s2 in ("OK", "SLOW") and v1 and v2:
                m.cells[k] = ("OK", v2 / v1 if lat else v1 / v2)
        if m.cells:
            out.append((m, sorted(v for _s, v in m.cells.values())))
    return out


def compare(plt, rows):
    rs = ratios(rows)
    if not rs:
        return ""
    out = ["<h2 id=\"compare\">Staged vs direct</h2><p>the pairs that ran both paths "
           "(--compare): per pair %s; one colour scale for every size</p>" % esc(rs[0][0].unit()),
           table(("size", "cells with both paths", "lowest", "median", "highest"),
                 [(cc.size_name(m.size), len(v), cc.fmt(v[0]), cc.fmt(v[len(v) // 2]),
                   cc.fmt(v[-1])) for m, v in rs])]
    top = cc.scale_top([m for m, _v in rs])
    out += [figure(plt, m, top) for m, _v in rs]
    return "".join(out)


def pair_table(rows, max_rows):
    order = sorted(rows, key=lambda r: (r["status"] == "OK", r["status"] == "SKIP"))
    cols = ("round", "bytes", "path", "host_a", "rail_a", "nic_a", "gpu_a", "host_b",
            "rail_b", "nic_b", "gpu_b", "status", "bw_gbps", "lat_median_us", "lat_p99_us",
            "iterations", "seconds", "error", "counters", "blame", "route")
    out = ["<h2>Pairs</h2><p>flagged rows first; a = server, b = client; Gb/s, us, s</p>",
           "<table><tr>%s</tr>" % "".join("<th>%s</th>" % c for c in cols)]
    for r in order[:max_rows]:
        out.append('<tr class="%s">%s</tr>' % (esc(r["status"]), "".join(
            '<td%s>%s</td>' % (' class="err"' if c in ("error", "counters", "blame", "route")
                               else "", esc(r[c]))
            for c in cols)))
    out.append("</table>")
    if len(order) > max_rows:
        out.append("<p>%d more rows in the CSV (--max-rows)</p>" % (len(order) - max_rows))
    return "".join(out)


def page(plt, rows, path, max_rows):
    title = "gdrperf cluster run %s" % ", ".join(sorted({r["run_id"] for r in rows}))
    prs = cc.pairs(rows)
    fab = clusterfab.Fabric(rows)
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head><body><h1>%s</h1>%s%s%s%s%s%s%s%s%s</body></html>\n" %
            (esc(title), CSS, esc(title), summary(rows, prs, path), suspects(prs),
             blame(rows), links(fab), fabric(plt, fab), counters(rows, prs),
             heatmaps(plt, rows), compare(plt, rows), pair_table(rows, max_rows)))


def main(argv):
    ap = argparse.ArgumentParser(description="Render a gdrperf cluster CSV into one "
                                 "self-contained HTML page.")
    ap.add_argument("csv", help="CSV written by gdr_* --cluster (--csv=FILE)")
    ap.add_argument("-o", "--output", help="HTML page to write (default: CSV name .html)")
    ap.add_argument("--max-rows", type=int, default=2000,
                    help="rows of the pair table, flagged first (default 2000)")
    a = ap.parse_args(argv)
    if a.max_rows < 0:
        ap.error("--max-rows must be 0 or more")
    try:
        rows = cc.load(a.csv)
    except cc.CsvError as e:
        print("report.py: error: %s" % e, file=sys.stderr)
        return 1
    plt = cc.pyplot_or_reexec(__file__, argv)
    if plt is None:
        print("report.py: error: matplotlib is missing: install it (Debian/Ubuntu: "
              "apt-get install python3-matplotlib)", file=sys.stderr)
        return 1
    out = a.output or os.path.splitext(a.csv)[0] + ".html"
    text = page(plt, rows, a.csv, a.max_rows)
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        print("report.py: error: cannot write %s: %s" % (out, e.strerror or e), file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
