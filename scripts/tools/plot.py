#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot gdrperf CSV results (written with --csv=FILE) as PNG charts.

Usage: scripts/tools/plot.py results.csv [more.csv ...] -o outdir [--gbits] [--logy | --linear]

Writes into outdir:
  bw_vs_size.png            bandwidth vs message size, one line per test/path, and the
                            path's ceiling (schema 4's ceiling_Gbps, each row's own) as a
                            thin dashed line of the same colour when the CSV has it, its
                            floor (limit_Gbps: -w or --expect-bw) dotted; a ceiling over 3x
                            the data and floors stays above the axis, named in a note
  lat_<test>_<path>.png     latency median, average and percentiles vs size; the y axis
                            is logarithmic when the plotted values span more than two
                            decades (max > 100 x min), else linear (--logy/--linear force one)
  matrix_<test>_<path>.png  for a --matrix run's CSV (rows of two or more GPU x NIC cells):
                            the GPU x NIC heatmap of the direct and the staged path, each
                            cell's average bandwidth written in it with the cell's PCIe
                            relation under it (schema 5's topology: PIX .. SYS), so a fast
                            far cell or a slow near one shows, the measured pairing's cells
                            (its "pairing" rows) framed in red (docs/matrix.md); a matrix
                            CSV gets these heatmaps only (its cells are one size each: no
                            line over sizes)
  kv_<test>_<path>.png      for KV rows (--block, docs/kv.md: rows with kv_batch set): the
                            block x batch heatmaps of each test (the verb) and path, side by
                            side: kv_efficiency (ratio, scattered over the same bytes
                            contiguous) and the average bandwidth (GB/s, 10^9 B/s; Gb/s with
                            --gbits), each cell's figure written in it, "-" where the CSV has
                            no such cell; KV rows get these heatmaps only (a row's bytes is
                            its block: no line over sizes)
Legends sit beside the plot, never over the data, and name only the lines drawn in it (a
ceiling above the axis is named in the note instead).
  cluster_<size>_<path>.png for a cluster run's CSV (gdr_* --cluster, found by its
                            header): the node x node heatmap of each size and path
                            (scripts/tools/clustercsv.py; scripts/tools/report.py makes the page)
  compare_<test>.png        direct (GPUDirect), host (host memory: the wire reference),
                            staged, gpu-proxy (when the CSV has it) and the staged model
                            min(copy rate, host wire rate)
                            on one chart, direct/staged on a second axis (only when a direct
                            or host path and the staged path are present for a test)
                            (the model line thin, dashed, beneath the measured lines;
                            bandwidth: each path's ceiling thin and dashed in its colour;
                            latency's y axis by the latency plots' rule)
"""
import argparse
import csv
import math
import os
import re
import sys
from collections import defaultdict

# clustercsv.py lies beside this script (scripts/tools/, or /usr/share/gdrperf when installed);
# it never imports this file back
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clustercsv as cc  # noqa: E402


def num(s):
    """A CSV cell as a float; empty (does not apply) -> None."""
    if s is None or s == "":
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def read_rows(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("schema_version") == "schema_version":
                    continue  # a header repeated by concatenated files
                rows.append(r)
    return rows


def series(rows, ycol):
    """Sorted (bytes, y) points; rows without a y value are left out."""
    pts = []
    for r in rows:
        x, y = num(r.get("bytes")), num(r.get(ycol))
        if x is not None and y is not None:
            pts.append((x, y))
    pts.sort()
    return [p[0] for p in pts], [p[1] for p in pts]


def size_axis(ax):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size [bytes]")
    ax.grid(True, which="both", alpha=0.3)


def lat_yscale(values, mode):
    """"log" or "linear" for a latency axis: mode "log"/"linear" as forced, else "log"
    when the positive values span more than two decades (max > 100 x min)."""
    if mode != "auto":
        return mode
    pos = [v for v in values if v > 0]
    return "log" if pos and max(pos) > 100 * min(pos) else "linear"


def line_styles(ax):
    """How each line of ax is drawn, read back from matplotlib's artists: "label: style,
    width, zorder" per line, joined by "; " (for the PNG's Comment chunk)."""
    return "; ".join("%s: %s, %g, %g" % (ln.get_label(), ln.get_linestyle(), ln.get_linewidth(),
                                          ln.get_zorder()) for ln in ax.get_lines())


def shown(line, ylim):
    """Whether a line has a point inside the y range (ylim None: any point)."""
    ys = [y for y in line.get_ydata() if y is not None and math.isfinite(y)]
    return bool(ys) and (ylim is None or any(ylim[0] <= y <= ylim[1] for y in ys))


def legend(ax, ylims, axes=None):
    """A legend beside the plot, right of its axes (never over the data), naming only the
    lines drawn inside the axes (ylims: each of axes' y range; axes default [ax])."""
    axes = axes or [ax]
    handles = [ln for a, yl in zip(axes, ylims) for ln in a.get_lines()
               if not ln.get_label().startswith("_") and shown(ln, yl)]
    if handles:
        ax.legend(handles, [h.get_label() for h in handles], loc="upper left",
                  bbox_to_anchor=(1.15 if len(axes) > 1 else 1.02, 1), fontsize=8,
                  borderaxespad=0)


def legend_facts(fig, ax):
    """ "labels; inside|outside": the legend's labels, and whether its box overlaps the
    axes (for tests: a legend that covers data reads inside)."""
    leg = ax.get_legend()
    if leg is None:
        return "none"
    fig.canvas.draw()
    lb, ab = leg.get_window_extent(), ax.get_window_extent()
    over = lb.x0 < ab.x1 and lb.x1 > ab.x0 and lb.y0 < ab.y1 and lb.y1 > ab.y0
    return "%s; %s" % (" | ".join(t.get_text() for t in leg.get_texts()),
                       "inside" if over else "outside")


def save(fig, out, yscale=None, lines=None, ylim=None, cells=None, ax=None):
    """Write the PNG; the y scale goes into its Description text chunk, the lines' styles
    (or a heatmap's cells) into its Comment chunk, the y range into its YRange chunk and
    ax's legend (legend_facts) into its Legend chunk (for tests)."""
    meta = {}
    if ax is not None:
        meta["Legend"] = legend_facts(fig, ax)
    if yscale:
        meta["Description"] = "y axis: %s" % yscale
    if lines:
        meta["Comment"] = "lines: %s" % lines
    if cells:
        meta["Comment"] = "cells: %s" % cells
    if ylim:
        meta["YRange"] = "%g %g" % ylim
    fig.savefig(out, dpi=100, bbox_inches="tight", metadata=meta or None)


def gbps_rows(rows, col, gbits):
    """Each row's figure in column col (Gb/s: ceiling_Gbps, CSV schema 4; limit_Gbps, -w or
    --expect-bw) as rows in the plotted unit; none in older CSVs, latency rows or rows
    where it is unknown or unset."""
    out = []
    for r in rows:
        c = num(r.get(col))
        if c is not None and c > 0:
            out.append({"bytes": r.get("bytes"), "y": c if gbits else c * 1e9 / 8 / 1048576})
    return out


# the lines drawn beneath a measured line, in its colour: the ceiling thin and dashed, the
# floor (the figure a row must reach) dotted
LIMITS = {
    "ceiling": ("ceiling_Gbps", dict(linestyle="--", linewidth=1, zorder=1)),
    "floor": ("limit_Gbps", dict(linestyle=":", linewidth=1.5, zorder=2)),
}


def draw_limit(ax, line, rows, gbits, name, what):
    """The ceiling or floor (what) of the rows behind a measured line; its y values."""
    col, style = LIMITS[what]
    x, y = series(gbps_rows(rows, col, gbits), "y")
    if x:
        ax.plot(x, y, color=line.get_color(), label="%s %s" % (name, what), **style)
    return y


# a ceiling more than this many times the highest measured figure (or floor) is not
# allowed to set the axis: the data would be a flat line at its bottom (issue 34.11)
CEILING_SPAN = 3.0


def fit_bw_axis(ax, data, ceilings, floors, unit):
    """A linear bandwidth axis from 0 that shows the data readably: up to the highest
    ceiling when it is near the data, else up to the data and floors, with the ceilings
    above named in a note. Returns the (bottom, top) of the axis."""
    top = max(data + floors) if data or floors else 0
    if not top:
        return None
    hi = [c for c in ceilings if c > top]
    if hi and max(hi) <= CEILING_SPAN * top:
        top = max(hi)
        hi = []
    ylim = (0, top * 1.1)
    ax.set_ylim(*ylim)
    if hi:
        ax.text(0.99, 0.98, "ceiling/model %.0f-%.0f %s above the axis (%.0fx the data)" %
                (min(hi), max(hi), unit, max(hi) / max(data or floors)),
                transform=ax.transAxes, ha="right", va="top", fontsize=8, color="0.3")
    return ylim


def plot_bw(plt, groups, outdir, gbits):
    col, unit = ("bw_avg_Gbps", "Gb/s (10^9 bit/s)") if gbits else (
        "bw_avg_MiBps", "MiB/s (2^20 B/s)")
    fig, ax = plt.subplots(figsize=(8, 5))
    drawn = 0
    data, ceilings, floors = [], [], []
    for (test, kind, path), rows in sorted(groups.items()):
        if kind != "bw":
            continue
        x, y = series(rows, col)
        if x:
            name = "%s (%s)" % (test, path)
            ln = ax.plot(x, y, marker="o", label=name)[0]
            ceilings += draw_limit(ax, ln, rows, gbits, name, "ceiling")
            floors += draw_limit(ax, ln, rows, gbits, name, "floor")
            data += y
            drawn += 1
    if not drawn:
        plt.close(fig)
        return None
    size_axis(ax)
    ylim = fit_bw_axis(ax, data, ceilings, floors, "Gb/s" if gbits else "MiB/s")
    ax.set_ylabel("average bandwidth [%s]" % unit)
    ax.set_title("Bandwidth vs message size")
    legend(ax, [ylim])
    out = os.path.join(outdir, "bw_vs_size.png")
    save(fig, out, None, line_styles(ax), ylim, ax=ax)
    plt.close(fig)
    return out


def pct_columns(rows):
    cols = rows[0].keys() if rows else []
    return [c for c in cols if c.startswith("t_p") and c.endswith("_us")]


def plot_lat(plt, groups, outdir, ymode):
    outs = []
    for (test, kind, path), rows in sorted(groups.items()):
        if kind != "lat":
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        ys = []
        for col, label in [("t_median_us", "median"), ("t_avg_us", "average")] + [
                (c, "p" + c[3:-3]) for c in pct_columns(rows)]:
            x, y = series(rows, col)
            if x:
                ax.plot(x, y, marker="o", label=label)
                ys += y
        if not ys:
            plt.close(fig)
            continue
        size_axis(ax)
        yscale = lat_yscale(ys, ymode)
        ax.set_yscale(yscale)
        kinds = {r.get("lat_kind") for r in rows if r.get("lat_kind")}
        ax.set_ylabel("latency [usec]%s" % (
            " (" + ", ".join(sorted(kinds)) + ")" if kinds else ""))
        ax.set_title("%s latency (%s)" % (test, path))
        legend(ax, [None])
        out = os.path.join(outdir, "lat_%s_%s.png" % (test, path))
        save(fig, out, yscale, ax=ax)
        plt.close(fig)
        outs.append(out)
    return outs


def speedups(kind, direct, staged):
    """Per size: the staged rows' direct_over_staged (schema 3; "speedup" in
    schema 2, the same ratio), else computed from both: > 1 means direct is faster."""
    col = "bw_avg_MiBps" if kind == "bw" else "t_median_us"
    d = dict(zip(*series(direct, col)))
    s = dict(zip(*series(staged, col)))
    given = dict(zip(*series(staged, "direct_over_staged")))
    if not given:
        given = dict(zip(*series(staged, "speedup")))
    out = []
    for size in sorted(set(d) & set(s)):
        v = given.get(size)
        if v is None and d[size] > 0 and s[size] > 0:
            v = d[size] / s[size] if kind == "bw" else s[size] / d[size]
        if v is not None:
            out.append((size, v))
    return [p[0] for p in out], [p[1] for p in out]


def model_rows(staged, gbits):
    """The staged rows' model (MiB/s in the CSV) as rows in the plotted unit."""
    out = []
    for r in staged:
        m = num(r.get("model_MiBps"))
        if m is not None:
            out.append({"bytes": r.get("bytes"),
                        "y": m * 1048576 * 8 / 1e9 if gbits else m})
    return out


def plot_compare(plt, groups, outdir, gbits, ymode):
    outs = []
    tests = {(t, k) for (t, k, _p) in groups}
    for test, kind in sorted(tests):
        # the direct path is "direct" on GPU memory and "host" on host memory
        dpath = "direct" if groups.get((test, kind, "direct")) else "host"
        direct, staged = groups.get((test, kind, dpath)), groups.get(
            (test, kind, "staged"))
        if not direct or not staged:
            continue
        host = groups.get((test, kind, "host")) if dpath == "direct" else None
        if kind == "bw":
            col = "bw_avg_Gbps" if gbits else "bw_avg_MiBps"
            ylabel = "average bandwidth [%s]" % ("Gb/s" if gbits else "MiB/s")
            slabel = "direct / staged bandwidth (> 1: direct faster)"
        else:
            col, ylabel = "t_median_us", "median latency [usec]"
            slabel = "staged / direct latency (> 1: direct faster)"
        fig, ax = plt.subplots(figsize=(8, 5))
        dname = "direct (GPUDirect)" if dpath == "direct" else "direct (host memory)"
        lines = [(direct, dname, col), (staged, "staged", col)]
        if host:
            lines.insert(1, (host, "host memory (wire reference)", col))
        proxy = groups.get((test, kind, "gpu-proxy"))
        if proxy:  # GPU-triggered, CPU-posted (docs/compare.md)
            lines.append((proxy, "gpu-proxy (GPU-triggered, CPU-posted)", col))
        if kind == "bw":
            lines.append((model_rows(staged, gbits), "staged model min(copy, wire)", "y"))
        ys, ceilings, floors = [], [], []
        for rows, name, c in lines:
            x, y = series(rows, c)
            if not x:
                continue
            if c == "y":  # the model: thin, dashed, beneath the measured lines it may equal
                ax.plot(x, y, color="0.45", linestyle="--", linewidth=1, zorder=1, label=name)
                ceilings += y  # a bound, as the ceilings: it may not flatten the data
            else:
                ys += y
                ln = ax.plot(x, y, marker="o", linestyle="-", linewidth=2, zorder=3,
                             label=name)[0]
                if kind == "bw":
                    ceilings += draw_limit(ax, ln, rows, gbits, name, "ceiling")
                    floors += draw_limit(ax, ln, rows, gbits, name, "floor")
        size_axis(ax)
        # latency spans decades over a sweep (us at small sizes, ms at large): log then
        yscale = lat_yscale(ys, ymode) if kind == "lat" else "linear"
        ax.set_yscale(yscale)
        ylim = fit_bw_axis(ax, ys, ceilings, floors, "Gb/s" if gbits else "MiB/s") \
            if kind == "bw" else None
        ax.set_ylabel(ylabel)
        ax2 = ax.twinx()
        x, y = speedups(kind, direct, staged)
        if x:  # no ratio line (nor its legend entry) without a size both paths have
            ax2.plot(x, y, color="tab:red", linestyle="--", marker="s", label=slabel)
            ax2.axhline(1.0, color="tab:red", alpha=0.3, linewidth=1, label="_one")
        ax2.set_ylabel(slabel)
        legend(ax, [ylim or ax.get_ylim(), None], [ax, ax2])
        ax.set_title("%s: staged vs direct" % test)
        out = os.path.join(outdir, "compare_%s.png" % test)
        save(fig, out, yscale, line_styles(ax), ylim, ax=ax)
        plt.close(fig)
        outs.append(out)
    return outs


def plot_matrix(plt, rows, outdir, gbits):
    """--matrix: a GPU x NIC heatmap per test, path (direct, staged) and direction (schema 6:
    d2h, h2d; one file each, matrix_TEST_PATH_DIR.png) with two or more cells, the measured
    pairing's cells (rows with path "pairing") framed in each; the rows of --matrix_shared
    (gpu_pci or rdma_dev "all") are left out."""
    # the matrix's own unit (its text and pairing file say GB/s, 10^9 B/s); Gb/s with --gbits
    unit = "Gb/s" if gbits else "GB/s"
    cells, rel, paired = defaultdict(dict), {}, defaultdict(set)
    for r in rows:
        gpu, dev = r.get("gpu_pci") or "", r.get("rdma_dev") or ""
        v = num(r.get("bw_avg_Gbps"))
        if v is None and num(r.get("bw_avg_MiBps")) is not None:  # a CSV without the Gb/s column
            v = num(r.get("bw_avg_MiBps")) * 1048576 * 8 / 1e9
        if v is not None and not gbits:
            v /= 8
        if r.get("path") == "pairing":  # the measured pairing's cells (gdrperf --matrix)
            paired[r.get("test", "?")].add((gpu, "%s:%s" % (dev, r.get("ib_port") or "1")))
            continue
        if r.get("kind") != "bw" or r.get("path") not in ("direct", "staged") or v is None \
                or gpu in ("", "all") or dev in ("", "all"):
            continue
        nic = "%s:%s" % (dev, r.get("ib_port") or "1")
        cells[(r.get("test", "?"), r["path"], r.get("direction") or "")][(gpu, nic)] = v
        if r.get("topology"):  # schema 5: the cell's PCIe relation of GPU and NIC
            rel[(gpu, nic)] = r["topology"]
    outs = []
    for (test, path, way), c in sorted(cells.items()):
        if len(c) < 2:
            continue
        gpus = sorted({g for g, _ in c})
        nics = sorted({n for _, n in c},  # mlx5_2 before mlx5_10
                      key=lambda n: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)])
        grid = [[c.get((g, n), float("nan")) for n in nics] for g in gpus]
        fig, ax = plt.subplots(figsize=(1.6 + 1.4 * len(nics), 1.2 + 0.6 * len(gpus)))
        im = ax.imshow(grid, cmap="viridis", aspect="auto")
        ax.set_xticks(range(len(nics)))
        ax.set_xticklabels(nics, rotation=30, ha="right")
        ax.set_yticks(range(len(gpus)))
        ax.set_yticklabels(gpus)
        said = []
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                text = "-" if math.isnan(v) else "%.3g" % v
                if (gpus[i], nics[j]) in rel:
                    text += "\n" + rel[(gpus[i], nics[j])]
                ax.text(j, i, text, ha="center", va="center", color="white")
                mark = (gpus[i], nics[j]) in paired[test]
                if mark:  # framed: the pair the measured pairing chose
                    ax.add_patch(plt.Rectangle((j - 0.44, i - 0.44), 0.88, 0.88, fill=False,
                                               edgecolor="red", linewidth=3))
                said.append("%s x %s %s%s" % (gpus[i], nics[j], text.replace("\n", " "),
                                               " paired" if mark else ""))
        fig.colorbar(im, ax=ax, label="%s %s" % (path, unit))
        ax.set_title("%s --matrix, %s path%s (%s)%s" % (
            test, path, ", " + way if way else "", unit,
            "; red: the measured pairing" if paired[test] else ""))
        out = os.path.join(outdir, "matrix_%s_%s%s.png" % (test, path, "_" + way if way else ""))
        save(fig, out, cells="; ".join(said))
        plt.close(fig)
        outs.append(out)
    return outs


def is_kv_row(r):
    """A KV-cache-shaped row (--block, CSV schema 7's kv_batch)."""
    return bool(num(r.get("kv_batch")))


def kv_grids(rows, gbits):
    """The KV rows as block x batch grids, one per test (the verb) and path:
    {(test, path): (blocks, batches, eff, rate)}, blocks (bytes) and batches (blocks a batch)
    ascending, the ones present in that test and path; eff[i][j] the kv_efficiency (ratio) and
    rate[i][j] the average bandwidth (GB/s, 10^9 B/s; Gb/s with gbits) of blocks[i] x
    batches[j], None where no row has that cell or its figure is empty. A cell in several rows
    (several CSVs) takes their median."""
    cells = defaultdict(lambda: defaultdict(lambda: ([], [])))
    for r in rows:
        if not is_kv_row(r) or r.get("kind") != "bw" or num(r.get("bytes")) is None:
            continue
        v = num(r.get("bw_avg_Gbps"))
        if v is None and num(r.get("bw_avg_MiBps")) is not None:
            v = num(r["bw_avg_MiBps"]) * 1048576 * 8 / 1e9
        if v is not None and not gbits:
            v /= 8
        eff, rate = cells[(r.get("test", "?"), r.get("path", "?"))][
            (int(num(r["bytes"])), int(num(r["kv_batch"])))]
        if num(r.get("kv_efficiency")) is not None:
            eff.append(num(r["kv_efficiency"]))
        if v is not None:
            rate.append(v)

    def median(xs):
        xs = sorted(xs)
        if not xs:
            return None
        h = len(xs) // 2
        return xs[h] if len(xs) % 2 else (xs[h - 1] + xs[h]) / 2

    out = {}
    for key, c in cells.items():
        blocks = sorted({b for b, _ in c})
        batches = sorted({n for _, n in c})
        grid = [[[median(c[(b, n)][k]) if (b, n) in c else None for n in batches]
                 for b in blocks] for k in (0, 1)]
        out[key] = (blocks, batches, grid[0], grid[1])
    return out


def block_name(b):
    """A block size as the options write it: 16384 -> 16K."""
    for unit, n in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b >= n and b % n == 0:
            return "%d%s" % (b // n, unit)
    return str(b)


def plot_kv(plt, rows, outdir, gbits):
    """The block x batch heatmaps of KV rows (kv_grids): one PNG per test and path, the
    efficiency and the bandwidth side by side; their cells in the PNG's Comment chunk."""
    unit = "Gb/s (10^9 bit/s)" if gbits else "GB/s (10^9 B/s)"
    outs = []
    for (test, path), (blocks, batches, eff, rate) in sorted(kv_grids(rows, gbits).items()):
        fig, axes = plt.subplots(1, 2, figsize=(4 + 2.8 * len(batches), 2.2 + 0.6 * len(blocks)),
                                 constrained_layout=True)
        fig.suptitle("%s, %s path: KV block x batch" % (test, path))
        said = []
        for ax, grid, name, what in (
                (axes[0], eff, "kv_efficiency", "kv_efficiency (ratio)\nscattered / contiguous"),
                (axes[1], rate, "average", "average bandwidth\n%s" % unit)):
            vals = [v for row in grid for v in row if v is not None]
            im = ax.imshow([[float("nan") if v is None else v for v in row] for row in grid],
                           cmap="viridis", aspect="auto", origin="lower")
            ax.set_xticks(range(len(batches)))
            ax.set_xticklabels([str(n) for n in batches])
            ax.set_yticks(range(len(blocks)))
            ax.set_yticklabels([block_name(b) for b in blocks])
            ax.set_xlabel("batch (blocks)")
            ax.set_ylabel("block (bytes)")
            ax.set_title(what, fontsize=10)
            fig.colorbar(im, ax=ax)
            mid = (min(vals) + max(vals)) / 2 if vals else 0
            for i, row in enumerate(grid):
                for j, v in enumerate(row):
                    ax.text(j, i, "-" if v is None else "%.3g" % v, ha="center", va="center",
                            color="black" if v is not None and v > mid else "white")
            said.append(name + " " + ", ".join(
                "%s x %d %s" % (block_name(blocks[i]), batches[j],
                                "-" if v is None else "%.4g" % v)
                for i, row in enumerate(grid) for j, v in enumerate(row)))
        out = os.path.join(outdir, "kv_%s_%s.png" % (test, path))
        save(fig, out, cells="; ".join(said))
        plt.close(fig)
        outs.append(out)
    return outs


def is_cluster_csv(path):
    """True when the file's header is that of a cluster run (--cluster)."""
    try:
        with open(path, newline="") as f:
            return cc.is_cluster_header(next(csv.reader(f), []))
    except (OSError, UnicodeDecodeError, csv.Error):
        return False  # read_rows reports it


def plot_cluster(plt, paths, outdir):
    """One node x node heatmap per size and path of cluster CSVs; 0, or 1 on bad input."""
    rows = []
    try:
        for p in paths:
            rows += cc.load(p)
    except cc.CsvError as e:
        print("plot.py: error: %s" % e, file=sys.stderr)
        return 1
    os.makedirs(outdir, exist_ok=True)
    for m in cc.matrices(rows):
        out = os.path.join(outdir, "cluster_%s_%s.png" % (
            cc.size_name(m.size), m.path if m.path != "-" else "nopath"))
        fig = cc.draw(plt, m)
        fig.savefig(out, dpi=100, bbox_inches="tight")
        plt.close(fig)
        print(out)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(
        description="Plot gdrperf CSV results (--csv=FILE) as PNG charts.")
    ap.add_argument("csv", nargs="+", help="CSV file(s) written by gdrperf --csv")
    ap.add_argument("-o", "--outdir", required=True, help="directory for the PNGs")
    ap.add_argument("--gbits", action="store_true",
                    help="bandwidth in Gb/s (10^9 bit/s) instead of MiB/s")
    ys = ap.add_mutually_exclusive_group()
    ys.add_argument("--logy", dest="ymode", action="store_const", const="log",
                    help="latency plots: logarithmic y axis")
    ys.add_argument("--linear", dest="ymode", action="store_const", const="linear",
                    help="latency plots: linear y axis (default: log when the values "
                    "span more than two decades, else linear)")
    ap.set_defaults(ymode="auto")
    a = ap.parse_args(argv)
    # e.g. pyenv's python3 first in PATH, the distribution's has matplotlib
    plt = cc.pyplot_or_reexec(__file__, argv)
    if plt is None:
        print("plot.py: error: matplotlib is missing: install it "
              "(Debian/Ubuntu: apt-get install python3-matplotlib; pip install matplotlib)",
              file=sys.stderr)
        return 1
    if is_cluster_csv(a.csv[0]):
        return plot_cluster(plt, a.csv, a.outdir)
    try:
        rows = read_rows(a.csv)
    except OSError as e:
        print("plot.py: error: %s" % e, file=sys.stderr)
        return 1
    if not rows or "bytes" not in rows[0]:
        print("plot.py: error: no gdrperf result rows in %s" % ", ".join(a.csv),
              file=sys.stderr)
        return 1
    os.makedirs(a.outdir, exist_ok=True)
    kv = plot_kv(plt, rows, a.outdir, a.gbits)
    rows = [r for r in rows if not is_kv_row(r)]  # a KV row's bytes is its block: heatmaps only
    groups = defaultdict(list)
    for r in rows:
        groups[(r.get("test", "?"), r.get("kind", "?"), r.get("path", "?"))].append(r)
    outs = plot_matrix(plt, rows, a.outdir, a.gbits)
    if not outs:  # a matrix's cells are one size each: its heatmaps alone
        outs = [plot_bw(plt, groups, a.outdir, a.gbits)]
        outs += plot_lat(plt, groups, a.outdir, a.ymode)
        outs += plot_compare(plt, groups, a.outdir, a.gbits, a.ymode)
    outs = kv + [o for o in outs if o]
    for o in outs:
        print(o)
    if not outs:
        print("plot.py: error: nothing to plot", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
