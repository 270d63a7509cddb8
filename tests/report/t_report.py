# SPDX-License-Identifier: MIT
"""scripts/tools/report.py and plot.py on cluster CSVs: the fixtures of tests/report/ render into
self-contained pages whose summary, suspects and heatmaps are right; bad input fails in one
line. Usage: python3 t_report.py SRCDIR WORKDIR (run by t_report.sh)."""
import contextlib
import io
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

src, work = sys.argv[1], sys.argv[2]
here = os.path.join(src, "tests", "report")
sys.path.insert(0, os.path.join(src, "scripts", "tools"))
import clustercsv  # noqa: E402
if clustercsv.pyplot_or_reexec(__file__, sys.argv[1:]) is None:
    print("SKIP: no python3 with matplotlib")
    sys.exit(77)
import report as report_py  # noqa: E402  (rendering in this process: matplotlib loads once)
fails = 0


def check(ok, what):
    global fails
    if not ok:
        fails += 1
        print("FAIL: %s" % what)


class Page(HTMLParser):
    """The tables (rows of cell texts), figures and external references of a page."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.figures, self.external, self.cell = [], 0, [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if a.get(k) and not a[k].startswith("data:"):
                self.external.append(a[k])
        if tag in ("script", "link", "iframe", "object"):
            self.external.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ""
        elif tag == "figure" and a.get("class") == "heatmap":
            self.figures += 1
        elif tag == "img" and a.get("src", "").startswith("data:image/png;base64,"):
            self.pngs = getattr(self, "pngs", 0) + 1

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def report(csv_name, *extra):
    out = os.path.join(work, csv_name.replace(".csv", ".html"))
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = report_py.main([os.path.join(here, csv_name), "-o", out] + list(extra))
    check(rc == 0, "%s: report.py returned %d: %s" % (csv_name, rc, err.getvalue()))
    text = open(out, encoding="utf-8").read() if rc == 0 else ""
    return text, Page(text)


def summary(page):
    return {r[0]: r[1] for r in page.tables[0] if len(r) == 2}


def rows_of(page, head):
    for t in page.tables:
        if t and t[0] and t[0][0] == head:
            return t[1:]
    return []


# a 5-node run (odd n: a bye each round), node5 with one rail (SKIP rows), --compare paths,
# a FAIL and a TIMEOUT before any path ran, SLOW pairs
text, p = report("odd.csv")
s = summary(p)
check(s.get("rows by status") == "OK 26, SLOW 2, FAIL 1, TIMEOUT 1, SKIP 4",
      "odd: rows by status %r" % s.get("rows by status"))
check(s.get("pairs") == "16 tested, 4 flagged, 4 rows skipped", "odd: pairs %r" % s.get("pairs"))
check(s.get("nodes, rails (ranks)") == "5, 9", "odd: nodes %r" % s.get("nodes, rails (ranks)"))
check(s.get("paths") == "direct, staged" and s.get("sizes") == "1M", "odd: sizes/paths")
check('id="verdict">exit 1:' in text, "odd: verdict is not exit 1")
check(rows_of(p, "suspect rail: node") == [["node4", "1", "mlx5_1:1", "1", "2", "3"]] and
      not rows_of(p, "suspect node"), "odd: suspects %r" % rows_of(p, "suspect rail: node"))
check(sorted(rows_of(p, "flagged link: a")) == [["node1", "0", "node2", "0", "5"],
                                                ["node3", "0", "node5", "0", "3"]],
      "odd: flagged links %r" % rows_of(p, "flagged link: a"))
check(p.figures == 3 and getattr(p, "pngs", 0) == 3,
      "odd: %d heatmaps, want 3 (two paths, and direct vs staged)" % p.figures)
check(not p.external, "odd: external references %r" % p.external)
# the run's facts from the CSV's columns (command on its first row only)
check(s.get("command", "").startswith("gdr_write_bw --cluster --rails=mlx5_0,mlx5_1") and
      s.get("gdrperf version") == "1.0.0" and s.get("started (UTC)") == "2026-11-23T18:00:00Z"
      and s.get("SLOW when", "").startswith("slow-pct=90: bandwidth under 90% of the median"),
      "odd: command, version, start or SLOW rule missing: %r" % s)
check("ff00ff" not in text.lower() and "border:4px" not in text, "odd: heatmaps framed")
# one cell per pair: never both (i, j) and (j, i), as many cells as host pairs ran
ms = clustercsv.matrices(clustercsv.load(os.path.join(here, "odd.csv")))
ran = {frozenset((r["host_a"], r["host_b"])) for r in clustercsv.load(os.path.join(here, "odd.csv"))
       if r["host_b"]}
for m in ms:
    check(not m.directed and all(i < j for (i, j) in m.cells) and len(m.cells) == len(ran),
          "odd %s: %d cells for %d pairs, directed %s" % (m.path, len(m.cells), len(ran),
                                                          m.directed))
# one colour scale: every heatmap drawn with the same top, the highest value of them all
tops = []
real_draw = clustercsv.draw
clustercsv.draw = lambda plt, m, max_labels=40, top=None: (tops.append((m.path, top)),
                                                          real_draw(plt, m, max_labels, top))[1]
report("odd.csv")
clustercsv.draw = real_draw
want_top = max(v for m in ms for (st, v) in m.cells.values() if v is not None and st in
               ("OK", "SLOW"))
check([t for pth, t in tops if pth != "direct vs staged"] == [want_top, want_top],
      "odd: heatmap scales %r, want %g for both" % (tops, want_top))
check('id="scale">One colour scale for every heatmap: 0 to 377 bandwidth' in text,
      "odd: the common scale is not stated")
# staged vs direct: --compare's two paths give a ratio per host pair
check('id="compare"' in text and "direct / staged bandwidth (x)" in text and
      [t for pth, t in tops if pth == "direct vs staged"],
      "odd: no staged-vs-direct view")
pairs = rows_of(p, "round")
check(len(pairs) == 34 and [r[11] for r in pairs[:4]].count("OK") == 0,
      "odd: pair table has %d rows or does not start with the flagged ones" % len(pairs))
_t, p = report("odd.csv", "--max-rows", "3")
check(len(rows_of(p, "round")) == 3, "odd: --max-rows 3 ignored")

# a real VM run (4 ranks on rxe0, one on a missing device): the same suspects as the C
# summary that the run printed (vm-badrail.summary)
text, p = report("vm-badrail.csv")
want = open(os.path.join(here, "vm-badrail.summary")).read()
m = re.search(r"(\d+) pairs tested, (\d+) flagged, (\d+) rows skipped", want)
check(summary(p).get("pairs") == "%s tested, %s flagged, %s rows skipped" % m.groups(),
      "vm-badrail: pairs %r vs the run's %r" % (summary(p).get("pairs"), m.group(0)))
node = re.search(r"suspect node: (\S+) \((\d+) of (\d+)", want)
check([tuple(r) for r in rows_of(p, "suspect node")] == ([node.groups()] if node else []),
      "vm-badrail: suspect nodes differ from the run's %r" % (node,))
# one host: no suspect node (nothing to stand out from)
check(not rows_of(p, "suspect node"), "vm-badrail: a suspect node on a one-host run")
check(summary(p).get("command", "").endswith("--rails rxe0,nosuch0,rxe0,rxe0 -s 4K -n 50 "
                                             "--slow-pct 0") and
      summary(p).get("SLOW when") == "slow-pct=0: no relative rule (slow-pct=0)",
      "vm-badrail: the run's command or SLOW rule %r" % summary(p))
rail = re.search(r"suspect rail: (\S+) rail (\d+) NIC (\S+) GPU (\S+) \((\d+) of (\d+)",
                 want).groups()
check([tuple(r) for r in rows_of(p, "suspect rail: node")] == [rail],
      "vm-badrail: suspect rails differ from the run's %r" % (rail,))
check(p.figures == 1 and "F" in text, "vm-badrail: one heatmap with its FAIL cells")

text, p = report("vm-bw.csv")
check('id="verdict">exit 0:' in text and 'id="suspects">none' in text, "vm-bw: not all OK")
check('id="compare"' not in text and summary(p).get("command") == "not recorded in this CSV",
      "vm-bw: one path and an older CSV: no compare view, no command")
# a pair that ran both ways: cells become directed (row the server, column the client)
rows = clustercsv.load(os.path.join(here, "vm-bw.csv"))
with open(os.path.join(work, "both.csv"), "w") as f:
    f.write(",".join(clustercsv.COLUMNS) + "\n")
    for r in rows:
        f.write(",".join(r[c] for c in clustercsv.COLUMNS) + "\n")
    r = rows[0]  # and its pair again, the other way round
    swap = dict(zip(clustercsv.COLUMNS, [r[c] for c in clustercsv.COLUMNS]))
    for c in ("host", "rail", "nic", "gpu"):
        swap[c + "_a"], swap[c + "_b"] = r[c + "_b"], r[c + "_a"]
    swap["round"] = "4"
    f.write(",".join(swap[c] for c in clustercsv.COLUMNS) + "\n")
m = clustercsv.matrices(clustercsv.load(os.path.join(work, "both.csv")))[0]
check(m.directed and len(m.cells) == 7, "both ways: directed %s, %d cells (want 7)" %
      (m.directed, len(m.cells)))
text, p = report("vm-lat.csv")
check(p.figures == 1 and "path host" in text, "vm-lat: one heatmap for 64 B, path host")

# -W: the counters column; a flagged pair's cell in "Counters of flagged pairs" with its
# worst status, an OK pair's only in the pair table; a CSV without the column has no section
check('id="counters"' not in report("odd.csv")[0], "odd: a counters section without counters")
import csv  # noqa: E402
with open(os.path.join(here, "vm-badrail.csv"), newline="") as f:
    rd = list(csv.reader(f))
head, body = rd[0] + ["counters"], rd[1:]
ok = next(i for i, r in enumerate(body) if r[14] == "OK")
for i, r in enumerate(body):
    r += [""] * (len(head) - len(r))
    if r[14] == "FAIL":
        r[-1] = "rxe0: retry_exceeded_err +%d, sent_pkts +12" % (i + 1)
body[ok][-1] = "rxe0: rcvd_pkts +4096, sent_pkts +4096"
with open(os.path.join(work, "cnt.csv"), "w", newline="") as f:
    csv.writer(f).writerows([head] + body)
err = io.StringIO()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
    rc = report_py.main([os.path.join(work, "cnt.csv"), "-o", os.path.join(work, "cnt.html")])
check(rc == 0, "cnt.csv: report.py returned %d: %s" % (rc, err.getvalue()))
text = open(os.path.join(work, "cnt.html"), encoding="utf-8").read() if rc == 0 else ""
p = Page(text)
fails_csv = [r for r in body if r[14] == "FAIL"]
got = rows_of(p, "round")  # the first table headed "round": the counters of flagged pairs
check('id="counters"' in text and len(got) == len(fails_csv) and
      all(r[5] == "FAIL" and r[6].startswith("rxe0: retry_exceeded_err +") for r in got) and
      sorted(r[6] for r in got) == sorted(r[-1] for r in fails_csv),
      "cnt: flagged pairs' counters %r" % got)
pair_rows = [t for t in p.tables if t and t[0] and "counters" in t[0] and
             t[0][0] == "round" and len(t[0]) > 7]
at = pair_rows[0][0].index("counters") if pair_rows else 0
check(pair_rows and any(r[at] == "rxe0: rcvd_pkts +4096, sent_pkts +4096"
                        for r in pair_rows[0][1:]) and
      "rcvd_pkts" not in "".join(c for r in got for c in r),
      "cnt: the OK pair's counters are not in the pair table alone")

# --topology: the blame column; each verdict once in "Blame" with the flagged pairs it names,
# every row's cell in the pair table; a CSV without the column (odd.csv) has no such section
check('id="blame"' not in report("odd.csv")[0], "odd: a blame section without blame")
head, body = rd[0][:25] + ["counters", "blame"], [r[:25] + ["", ""] for r in rd[1:]]
lead = "unexplained, lead cable leaf0[3] - spine[1]: %d bad pairs no rule explains"
fails_csv = [r for r in body if r[14] == "FAIL"]
for r in fails_csv:
    r[-1] = lead % len(fails_csv)
with open(os.path.join(work, "blame.csv"), "w", newline="") as f:
    csv.writer(f).writerows([head] + body)
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    rc = report_py.main([os.path.join(work, "blame.csv"), "-o", os.path.join(work, "blame.html")])
text = open(os.path.join(work, "blame.html"), encoding="utf-8").read() if rc == 0 else ""
p = Page(text)
got = rows_of(p, "verdict and evidence")
npairs = len({(r[1], r[6], r[7], r[10], r[11]) for r in fails_csv})
check(rc == 0 and 'id="blame"' in text and got == [[lead % len(fails_csv), str(npairs), "0"]],
      "blame: the Blame table %r (want one verdict, %d flagged pairs)" % (got, npairs))
# a retest round's flagged row (pattern topology-retest) with the same verdict: apart
retest_row = list(fails_csv[0])
retest_row[1], retest_row[2] = "99", "topology-retest"
with open(os.path.join(work, "blame2.csv"), "w", newline="") as f:
    csv.writer(f).writerows([head] + body + [retest_row])
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    rc = report_py.main([os.path.join(work, "blame2.csv"), "-o", os.path.join(work, "blame2.html")])
text = open(os.path.join(work, "blame2.html"), encoding="utf-8").read() if rc == 0 else ""
got = rows_of(Page(text), "verdict and evidence")
check(rc == 0 and got == [[lead % len(fails_csv), str(npairs), "1"]],
      "blame: the retest round's flagged pair counted apart %r" % got)
pair_rows = [t for t in p.tables if t and t[0] and "blame" in t[0] and t[0][0] == "round"]
at = pair_rows[0][0].index("blame") if pair_rows else 0
check(pair_rows and sum(r[at] == lead % len(fails_csv) for r in pair_rows[0][1:]) ==
      min(len(fails_csv), 2000), "blame: the pair table's blame column")
check('id="links"' not in text and 'id="fabric"' not in text,
      "blame: a Links table or a fabric picture without a route column")

# --topology's route column (issue 47.3): topo.csv is t_cblame's write over the LLDP fixture
# (T_CBLAME_CSV=tests/report/topo.csv tests/cluster/t_cblame), the cable rail0[31] - spine[1]
# slow: the SLOW pairs' verdict "unexplained" leads to it. The Links table lists the cables of
# the flagged pairs' routes, the named one first; the picture's data (what report.py hands to
# clusterfab.draw) marks that cable red, the flagged pairs' other cables orange, the rest grey
import clusterfab  # noqa: E402
pics = []
real_fdraw = clusterfab.draw
clusterfab.draw = lambda plt, pic: (pics.append(pic), real_fdraw(plt, pic))[1]
text, p = report("topo.csv")
clusterfab.draw = real_fdraw
SLOWC = "rail0[31] - spine[1]"
got = rows_of(p, "cable")
check([r[0] for r in got] == [SLOWC, "rail1[31] - spine[3]", "h0:eth0[1] - rail0[1]",
                              "h0:eth1[1] - rail1[1]", "h2:eth0[1] - rail0[3]",
                              "h2:eth1[1] - rail1[3]"] and
      got[0][1:4] == ["4", "4", ""] and got[0][4].startswith("unexplained, lead cable " + SLOWC)
      and all(r[1:] == ["2", "2", "", ""] for r in got[2:]),
      "topo: the Links table %r" % got)
pic = pics[0] if len(pics) == 1 else None
colours = {c: v[2] for c, v in pic.cables.items()} if pic else {}
check(len(colours) == 12 and colours[SLOWC] == clusterfab.RED and
      sorted(c for c, v in colours.items() if v == clusterfab.ORANGE) == sorted(r[0] for r in
                                                                               got[1:]) and
      sum(v == clusterfab.GREY for v in colours.values()) == 6,
      "topo: the picture's cables %r" % colours)
check(pic and pic.nodes["spine"][1] == 2 and pic.nodes["rail1"][1] == 1 and
      pic.nodes["h3:eth1"][1] == 0 and pic.nodes["h0:eth0"][0] < pic.nodes["h0:eth1"][0] and
      all(v[2] == clusterfab.DARK for v in pic.nodes.values()),
      "topo: the picture's nodes (tiers, NICs under their leaf, none named) %r" %
      (pic.nodes if pic else None))
check('id="fabric-caption">The fabric as the routes of the CSV show it: all 12 cables.' in text
      and p.pngs == p.figures + 1, "topo: the picture (one PNG beside the heatmaps), its caption")


def synth(path, nleaf, per, nspine, bad, blame=None, counters=None):
    """A 2-tier CSV (nleaf leaves of per one-NIC hosts n0.., nspine spines): host i served
    by host (i + per) %% n (a write: data from the client), one row each; pairs in bad SLOW,
    with blame and counters(i) cells."""
    n = nleaf * per

    def acc(h):
        return "n%d:eth0[1] - leaf%d[%d]" % (h, h // per, h % per + 1)

    def up(h, s):
        return "leaf%d[%d] - spine%d[%d]" % (h // per, 100 + s, s, h // per + 1)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(clustercsv.COLUMNS + list(clustercsv.META))
        for i in range(n):
            a, b = i, (i + per) % n
            s = a % nspine
            route = " > ".join((acc(b), up(b, s), up(a, s), acc(a)))
            st = "SLOW" if i in bad else "OK"
            cell = dict(run_id="r1", round="1", pattern="topology", test="write_bw",
                        bytes="4096", path="host", host_a="n%d" % a, rail_a="0",
                        nic_a="mlx5_0:1", gpu_a="host", host_b="n%d" % b, rail_b="0",
                        nic_b="mlx5_0:1", gpu_b="host", status=st,
                        bw_gbps="9.5" if st == "SLOW" else "95", iterations="10",
                        seconds="1", blame=blame if st == "SLOW" and blame else "",
                        counters=counters(i) if counters else "", route=route)
            w.writerow([cell.get(c, "") for c in clustercsv.COLUMNS + list(clustercsv.META)])


# a NIC's cable named with its port's counters (-W), a switch named: in the Links table the
# cable's trouble counters (not its traffic) and the verdict; in the picture the cable and
# the switch red
sus = "cable (suspect) n5:eth0[1] - leaf1[2]: symbol errors +7, FEC uncorrectable +0"
sw = "switch spine1: transmit wait and discards: 90% of the fabric's on its ports"
synth(os.path.join(work, "fab16.csv"), 4, 4, 2, {1, 5}, sus + "; " + sw,
      lambda i: "n%d eth0: symbol_error +7, rcvd_pkts +100; n%d eth0: none moved" %
      (i, (i + 4) % 16) if i in (1, 5) else "")
pics = []
clusterfab.draw = lambda plt, pic: (pics.append(pic), real_fdraw(plt, pic))[1]
text, p = report(os.path.abspath(os.path.join(work, "fab16.csv")))
clusterfab.draw = real_fdraw
got = {r[0]: r[1:] for r in rows_of(p, "cable")}
check(got.get("n5:eth0[1] - leaf1[2]") == ["2", "2", "n5 eth0: symbol_error +7", sus] and
      got.get("n1:eth0[1] - leaf0[2]", [""] * 4)[2] == "n1 eth0: symbol_error +7" and
      rows_of(p, "cable")[0][0] == "n5:eth0[1] - leaf1[2]",
      "fab16: the Links rows %r" % got)
pic = pics[0] if pics else None
check(pic and pic.cables["n5:eth0[1] - leaf1[2]"][2] == clusterfab.RED and
      pic.nodes["spine1"][2] == clusterfab.RED and pic.nodes["spine0"][2] == clusterfab.DARK and
      pic.cables["n1:eth0[1] - leaf0[2]"][2] == clusterfab.ORANGE and len(pic.cables) == 24,
      "fab16: the picture marks %r" % (pic and {c: v[2] for c, v in pic.cables.items()}))

# 240 cables (20 leaves of 8, 4 spines), over the picture's 120: only the part flagged pairs
# cross, said in the caption; smaller limits: the switch tiers of it, then the named first
synth(os.path.join(work, "fab160.csv"), 20, 8, 4, {3}, "unexplained, lead cable "
      "leaf1[103] - spine3[2]: 1 bad pairs no rule explains; 1 of them cross this cable")
pics = []
clusterfab.draw = lambda plt, pic: (pics.append(pic), real_fdraw(plt, pic))[1]
text, p = report(os.path.abspath(os.path.join(work, "fab160.csv")))
clusterfab.draw = real_fdraw
fab = clusterfab.Fabric(clustercsv.load(os.path.join(work, "fab160.csv")))
check(len(fab.cables) == 240 and pics and sorted(pics[0].cables) == sorted(
      ["n11:eth0[1] - leaf1[4]", "leaf1[103] - spine3[2]", "leaf0[103] - spine3[1]",
       "n3:eth0[1] - leaf0[4]"]) and "the 4 cables that flagged pairs cross or a verdict "
      "names, of 240 (over 120 cables: the rest left out)" in text,
      "fab160: the picture's part %r" % (pics and list(pics[0].cables)))
small = fab.picture(limit=3)
tiny = fab.picture(limit=1)
check(sorted(small.cables) == ["leaf0[103] - spine3[1]", "leaf1[103] - spine3[2]"] and
      "NICs and the rest left out" in small.caption and
      list(tiny.cables) == ["leaf1[103] - spine3[2]"] and "those verdicts name first" in
      tiny.caption, "fab160: limits 3 and 1: %r %r" % (list(small.cables), list(tiny.cables)))

# bad input: one line on stderr, exit 1, no page
bad = os.path.join(work, "bad")
os.makedirs(bad, exist_ok=True)
open(os.path.join(bad, "empty.csv"), "w").close()
with open(os.path.join(bad, "header.csv"), "w") as f:
    f.write(open(os.path.join(here, "odd.csv")).readline())
with open(os.path.join(bad, "status.csv"), "w") as f:
    f.write("".join(open(os.path.join(here, "odd.csv")).readlines()[:2]).replace(",OK,", ",MEH,"))
for name in (os.path.join(bad, "missing.csv"), os.path.join(bad, "empty.csv"),
             os.path.join(bad, "header.csv"), os.path.join(bad, "status.csv"),
             os.path.join(src, "tests", "golden", "report.csv")):
    out = os.path.join(bad, "page.html")
    r = subprocess.run([sys.executable, os.path.join(src, "scripts", "tools", "report.py"), name, "-o",
                        out], capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1 and len(lines) == 1 and lines[0].startswith("report.py: error: ")
          and not os.path.exists(out),
          "%s: exit %d, stderr %r" % (os.path.basename(name), r.returncode, r.stderr))

# issue 34.11: one same-host pair (loopback at memory speed, 158000 Gb/s here) must not
# set the colour scale, or every healthy cross-node pair looks dead; and no cell label in
# scientific notation ("1.58e+05!")
with open(os.path.join(here, "odd.csv"), newline="") as f:
    rd = list(csv.reader(f))
hd = rd[0]
loop = dict(zip(hd, rd[1]))
loop.update(host_b=loop["host_a"], rail_b="1", nic_b="mlx5_1:1", status="SLOW",
            bw_gbps="158000.000", command="", round="9")
with open(os.path.join(work, "samehost.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerows(rd)
    w.writerow([loop[c] for c in hd])
rows = clustercsv.load(os.path.join(work, "samehost.csv"))
ms = clustercsv.matrices(rows)
check(clustercsv.scale_top(ms) == 377.4,
      "same host: scale top %r, want the fabric's 377.4" % clustercsv.scale_top(ms))
import matplotlib.pyplot as pyplot  # noqa: E402
for m in ms:
    if m.path != "direct":
        continue
    fig = clustercsv.draw(pyplot, m, top=clustercsv.scale_top(ms))
    labels = [t.get_text() for t in fig.axes[0].texts]
    pyplot.close(fig)
    check("158000!" in labels and not any("e+" in t or "e-" in t for t in labels),
          "cell labels: %r" % labels)
text, p = report(os.path.abspath(os.path.join(work, "samehost.csv")))
check("0 to 377 bandwidth [Gb/s]; pairs on one host are left out of it" in text,
      "same host: the page's scale line")
check(clustercsv.fmt(158000) == "158000" and clustercsv.fmt(0.5) == "0.50" and
      clustercsv.fmt(12.34) == "12.3" and clustercsv.fmt(0.0001) == "<0.01",
      "fmt: %r" % [clustercsv.fmt(v) for v in (158000, 0.5, 12.34, 0.0001)])

# plot.py: a cluster CSV gives one heatmap PNG per size and path
pd = os.path.join(work, "plots")
import plot  # noqa: E402
with contextlib.redirect_stdout(io.StringIO()):
    rc = plot.main([os.path.join(here, "odd.csv"), "-o", pd])
got = sorted(os.listdir(pd)) if os.path.isdir(pd) else []
check(rc == 0 and got == ["cluster_1M_direct.png", "cluster_1M_staged.png"],
      "plot.py odd.csv: returned %d, %r" % (rc, got))
for g in got:
    with open(os.path.join(pd, g), "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "%s is not a PNG" % g)

print("t_report: %d failure(s)" % fails)
sys.exit(1 if fails else 0)
