#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/tools/plot.py's block x batch heatmaps of KV rows (issue 46.3, docs/kv.md): the grids
# built from tests/plot/kv.csv (write_bw direct: 4K and 16K blocks x batches 1, 8, 64, the 16K x
# 64 cell absent; write_bw staged: one cell in two rows, their median; read_bw direct: a cell
# without kv_efficiency; one row that is not a KV row), checked figure by figure; then, with
# matplotlib, the PNGs: one per test and path, the cells written into their Comment chunk, and
# the non-KV row still on the line plot.
srcdir=${srcdir:-.}
py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
fail=0
"$py" - "$srcdir/scripts/tools" "$srcdir/tests/plot/kv.csv" <<'EOF' || fail=1
import sys
sys.path.insert(0, sys.argv[1])
import plot

rows = plot.read_rows([sys.argv[2]])


def same(got, want):
    if want is None or got is None:
        return got is want
    if isinstance(want, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return abs(got - want) <= 1e-9 * abs(want)


def expect(grids, key, blocks, batches, eff, rate):
    got = grids.get(key)
    assert got is not None, "no grid for %s: %s" % (key, sorted(grids))
    assert got[0] == blocks and got[1] == batches, "%s axes %s x %s" % (key, got[0], got[1])
    assert same(got[2], eff), "%s kv_efficiency %s, want %s" % (key, got[2], eff)
    assert same(got[3], rate), "%s rate %s, want %s" % (key, got[3], rate)


g = plot.kv_grids(rows, False)
assert sorted(g) == [("read_bw", "direct"), ("write_bw", "direct"), ("write_bw", "staged")], \
    "grids %s (the non-KV 64K row must be in none)" % sorted(g)
expect(g, ("write_bw", "direct"), [4096, 16384], [1, 8, 64],
       [[0.95, 0.8, 0.5], [1.02, 0.9, None]], [[1.0, 1.5, 2.0], [2.5, 3.0, None]])
expect(g, ("write_bw", "staged"), [4096], [8], [[0.7]], [[0.625]])
expect(g, ("read_bw", "direct"), [4096], [8], [[None]], [[2.0]])
g = plot.kv_grids(rows, True)  # --gbits: the bandwidth in Gb/s
expect(g, ("write_bw", "direct"), [4096, 16384], [1, 8, 64],
       [[0.95, 0.8, 0.5], [1.02, 0.9, None]], [[8, 12, 16], [20, 24, None]])
# a CSV without the Gb/s column: from MiB/s
for r in rows:
    del r["bw_avg_Gbps"]
expect(plot.kv_grids(rows, False), ("write_bw", "staged"), [4096], [8], [[0.7]], [[0.625]])
assert [plot.block_name(b) for b in (4096, 16384, 1 << 20, 36864, 1000)] == \
    ["4K", "16K", "1M", "36K", "1000"]
EOF
[ $fail = 0 ] || { echo "FAIL: kv_grids"; exit 1; }
mpy=$(sh "$srcdir/scripts/ci/python-with.sh" matplotlib) ||
	{ echo "ok: kv grids (no python3 with matplotlib: PNGs not drawn)"; exit 0; }
out=t_plot_kv.tmp.d
rm -rf "$out"
MPLCONFIGDIR=$out/mpl "$mpy" "$srcdir/scripts/tools/plot.py" "$srcdir/tests/plot/kv.csv" \
	-o "$out" >/dev/null || { echo "FAIL: plot.py kv.csv exited $?"; exit 1; }
[ "$(cd "$out" && ls ./*.png | tr '\n' ' ')" = "./bw_vs_size.png ./kv_read_bw_direct.png ./kv_write_bw_direct.png ./kv_write_bw_staged.png " ] ||
	{ echo "FAIL: not a heatmap per test and path, and the non-KV row's line: $(ls "$out")"; fail=1; }
comment=$("$mpy" -c 'import sys
from PIL import Image
print(Image.open(sys.argv[1]).text.get("Comment", ""))' "$out/kv_write_bw_direct.png")
want="cells: kv_efficiency 4K x 1 0.95, 4K x 8 0.8, 4K x 64 0.5, 16K x 1 1.02, 16K x 8 0.9, 16K x 64 -; average 4K x 1 1, 4K x 8 1.5, 4K x 64 2, 16K x 1 2.5, 16K x 8 3, 16K x 64 -"
[ "$comment" = "$want" ] || { echo "FAIL: kv_write_bw_direct.png cells: $comment"; fail=1; }
[ $fail = 0 ] && rm -rf "$out" && echo "ok: KV block x batch grids (efficiency, GB/s, Gb/s, medians, gaps); a heatmap per test and path"
exit $fail
