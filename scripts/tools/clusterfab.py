# SPDX-License-Identifier: MIT
"""The fabric of a --topology cluster run as its CSV shows it (scripts/tools/report.py draws
it): the cables of each pair's route column (src/cluster/ccsv.c: the cables its data crosses,
in that order, " > " between two), the pairs and the flagged pairs crossing each, what the
blame column's verdicts name, the -W counters of a NIC's own cable, and the picture's data:
switches by tier, NICs at the bottom, each cable's colour. No drawing here but draw()."""
import re
from collections import OrderedDict

import clustercsv as cc

# the picture draws at most this many cables; beyond it, the part flagged pairs cross
LIMIT = 120
RED, ORANGE, GREY, DARK = "#d62728", "#ff7f0e", "#b0b0b0", "#404040"
CABLE = re.compile(r"^(.+?)\[(\d+)\] - (.+)\[(\d+)\]$")
# a blame cell holds one verdict, or two split by "; " (evidence has "; " too, never
# followed by a verdict's first word)
VERDICT_SPLIT = re.compile(r"; (?=(?:cable|switch|NIC|host|unexplained)\b)")
# counters of traffic (ccount.c), not of trouble: left out of a cable's evidence
TRAFFIC = re.compile(r"(_data|_packets|_pkts)$|^rx_.*_requests$")


def ends(cable):
    """The two node names of a cable's name ("rail0[31] - spine[1]"), or None."""
    m = CABLE.match(cable)
    return (m.group(1), m.group(3)) if m else None


def legs(route):
    """A route cell as its legs (lists of cables): one, or two for a test whose data flows
    both ways (there and back: the server's cable twice in a row where the data turns)."""
    cables = [c for c in route.split(cc.ROUTE_SEP) if c] if route else []
    out = [[]]
    for c in cables:
        if out[-1] and out[-1][-1] == c:
            out.append([])
        out[-1].append(c)
    return [leg for leg in out if leg]


def nodes_of(leg):
    """The nodes a leg's data passes, in order: NIC, switches, NIC (None: not a chain)."""
    e = [ends(c) for c in leg]
    if not e or None in e:
        return None
    if len(e) == 1:
        return list(e[0])
    seq = [next((n for n in e[0] if n not in e[1]), e[0][0])]
    for i, pair in enumerate(e):
        nxt = pair[1] if pair[0] == seq[-1] else pair[0]
        if i + 1 < len(e) and nxt not in e[i + 1]:
            return None
        seq.append(nxt)
    return seq


def verdicts(cell):
    return [v for v in VERDICT_SPLIT.split(cell) if v] if cell else []


def names_cable(v, cable):
    return any(v.startswith(p + cable + ":") for p in ("cable ", "cable (suspect) ",
                                                        "unexplained, lead cable "))


def trouble(side):
    """A counters side ("h1 mlx5_0: symbol_error +7, rcvd_pkts +9") with its counters of
    trouble only, or None when none moved."""
    head, _, tail = side.partition(": ")
    bad = [c for c in tail.split(", ") if c.split(" +")[0] and " +" in c and
           not TRAFFIC.search(c.split(" +")[0])]
    return "%s: %s" % (head, ", ".join(bad)) if bad else None


class Fabric:
    """The cables of the routes in rows (cc.load), in first-seen order, with per cable the
    pairs (cc.pairs keys) crossing it, the flagged ones, the verdicts naming it and the
    trouble counters of its NIC end; node tiers (0: a NIC, 1: a leaf, ...)."""

    def __init__(self, rows):
        self.cables = OrderedDict()  # name -> (node, node)
        self.pairs, self.flagged = {}, {}
        self.tier, self.nics = {}, set()
        self.named, self.counters = {}, {}
        self.nodes_named = {}  # switch or NIC -> verdicts naming it
        prs = cc.pairs(rows)
        route, cnt = {}, {}
        for r in rows:
            k = (r["round"], cc.end_a(r), cc.end_b(r))
            if r["route"] and k not in route:
                route[k] = r["route"]
            if r["counters"] and k not in cnt:
                cnt[k] = r["counters"]
        cells = {r["blame"] for r in rows if r["blame"] and r["status"] in cc.FLAGGED}
        for k, (bad, _r) in prs.items():
            for leg in legs(route.get(k, "")):
                self._leg(leg, k, bad, cnt.get(k, ""))
        for v in sorted({v for c in cells for v in verdicts(c)}):
            for c in self.cables:
                if names_cable(v, c):
                    self.named.setdefault(c, []).append(v)
            for n in self.tier:
                if (v.startswith("switch %s:" % n) and n not in self.nics) or \
                   (n in self.nics and (v.startswith("NIC %s:" % n) or
                                        v.startswith("host %s:" % n.split(":")[0]))):
                    self.nodes_named.setdefault(n, []).append(v)

    def _leg(self, leg, k, bad, counters):
        seq = nodes_of(leg)
        if seq is None:
            return
        last = len(seq) - 1
        self.nics.update((seq[0], seq[-1]))
        for i, n in enumerate(seq):
            self.tier[n] = max(self.tier.get(n, 0), min(i, last - i))
        for c in leg:
            self.cables.setdefault(c, ends(c))
            self.pairs.setdefault(c, set()).add(k)
            if bad:
                self.flagged.setdefault(c, set()).add(k)
        for c, nic in ((leg[0], seq[0]), (leg[-1], seq[-1])):
            host = nic.split(":")[0]
            for side in counters.split("; ") if bad and k[1][0] != k[2][0] else ():
                t = trouble(side) if side.startswith(host + " ") else None
                if t:
                    self.counters.setdefault(c, OrderedDict())[t] = True

    def colour(self, cable):
        return RED if cable in self.named else ORANGE if cable in self.flagged else GREY

    def links(self):
        """The Links table: per cable that a flagged pair crosses or a verdict names, named
        ones first, then by flagged pairs: (cable, pairs, flagged pairs, counters, verdict)."""
        rows = []
        for c in self.cables:
            if c not in self.flagged and c not in self.named:
                continue
            ev = list(self.counters.get(c, ()))
            rows.append((c, len(self.pairs.get(c, ())), len(self.flagged.get(c, ())),
                         "; ".join(ev[:3]) + ("; (%d more)" % (len(ev) - 3) if len(ev) > 3
                                              else ""),
                         "; ".join(self.named.get(c, ()))))
        return sorted(rows, key=lambda r: (not r[4], -r[2]))

    def picture(self, limit=LIMIT):
        """What the picture draws: a Picture of at most limit cables (all of them; else the
        ones flagged pairs cross or verdicts name; else those between switches)."""
        every = list(self.cables)
        keep, part = every, "all %d cables" % len(every)
        if len(keep) > limit:
            keep = [c for c in every if c in self.flagged or c in self.named]
            part = ("the %d cables that flagged pairs cross or a verdict names, of %d (over "
                    "%d cables: the rest left out)" % (len(keep), len(every), limit))
        if len(keep) > limit:
            keep = [c for c in keep if not set(self.cables[c]) & self.nics]
            part = ("the %d cables between switches that flagged pairs cross or a verdict "
                    "names, of %d (over %d cables: NICs and the rest left out)" %
                    (len(keep), len(every), limit))
        if len(keep) > limit:
            keep = [c for c in keep if c in self.named] + \
                   [c for c in keep if c not in self.named][:max(0, limit - len(self.named))]
            part = ("%d cables between switches, those verdicts name first, of %d (over %d "
                    "cables: the rest left out)" % (len(keep), len(every), limit))
        return Picture(self, keep, part)


class Picture:
    """The data drawn: nodes name -> (x, y, colour), cables name -> (node, node, colour),
    the caption. y is the tier (NICs 0); x spreads each tier's nodes evenly, NICs under
    their leaf."""

    def __init__(self, fab, keep, part):
        self.cables = OrderedDict((c, fab.cables[c] + (fab.colour(c),)) for c in keep)
        used = {n for c in keep for n in fab.cables[c]}
        by_tier = {}
        for n in used:
            by_tier.setdefault(fab.tier.get(n, 0), []).append(n)
        self.nodes, self.tiers = {}, max(by_tier) if by_tier else 0
        self.width = max((len(v) for v in by_tier.values()), default=1)
        for t in sorted(by_tier, reverse=True):
            names = sorted(by_tier[t], key=cc._natural)
            if t == 0:  # a NIC under its leaf
                up = {n: self.nodes[o][0] for c in keep for n, o in
                      (fab.cables[c], fab.cables[c][::-1]) if n in fab.nics and o in self.nodes}
                names.sort(key=lambda n: (up.get(n, 0), cc._natural(n)))
            for i, n in enumerate(names):
                red = n in fab.nodes_named
                self.nodes[n] = ((i + 0.5) / len(names), t, RED if red else DARK)
        self.caption = ("The fabric as the routes of the CSV show it: %s. Switches by tier, "
                        "the hosts' NICs at the bottom; red: a cable, switch or NIC a verdict "
                        "of the blame names; orange: a cable flagged pairs cross that no "
                        "verdict names; grey: a cable only OK pairs cross." % part)


def draw(plt, pic):
    """The picture as a matplotlib figure: cables as lines, switches as squares, NICs as
    dots, a legend; names shown where a tier has at most 40 nodes."""
    from matplotlib.lines import Line2D
    w = min(max(6.0, 0.25 * pic.width + 2), 24)
    fig, ax = plt.subplots(figsize=(w, 1.4 * (pic.tiers + 1) + 1))
    shift, seen = {}, {}  # parallel cables side by side
    for name, (a, b, _c) in pic.cables.items():
        seen.setdefault(frozenset((a, b)), []).append(name)
    for group in seen.values():
        for j, name in enumerate(group):
            shift[name] = (j - (len(group) - 1) / 2) * 0.3 / max(pic.width, 1)
    for colour, width, z in ((GREY, 0.8, 1), (ORANGE, 1.6, 2), (RED, 2.4, 3)):
        for name, (a, b, c) in pic.cables.items():
            if c == colour:
                ax.plot([pic.nodes[a][0] + shift[name], pic.nodes[b][0] + shift[name]],
                        [pic.nodes[a][1], pic.nodes[b][1]], color=c, linewidth=width, zorder=z)
    counts = {}
    for n, (x, y, _c) in pic.nodes.items():
        counts[y] = counts.get(y, 0) + 1
    for n, (x, y, c) in pic.nodes.items():
        ax.scatter([x], [y], s=60 if y else 18, marker="s" if y else "o", color=c, zorder=4)
        if counts[y] <= 40:
            ax.annotate(n, (x, y), textcoords="offset points", xytext=(0, 7 if y else -12),
                        ha="center", fontsize=7, rotation=0 if y else 30)
    ax.set_yticks(range(pic.tiers + 1))
    ax.set_yticklabels(["NICs"] + ["tier %d" % t for t in range(1, pic.tiers + 1)])
    ax.set_xticks([])
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.6, pic.tiers + 0.6)
    ax.legend(handles=[Line2D([], [], color=RED, linewidth=2.4, label="named by a verdict"),
                       Line2D([], [], color=ORANGE, linewidth=1.6,
                              label="crossed by flagged pairs"),
                       Line2D([], [], color=GREY, linewidth=0.8, label="crossed by OK pairs only")],
              loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=3, fontsize=7)
    return fig
