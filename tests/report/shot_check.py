# SPDX-License-Identifier: MIT
"""Does a screenshot of a report.py page show a heatmap? The heatmaps are found by their
colours (no frame is drawn around them): the box of the rows and columns dense in the
viridis palette, and inside it want a drawing (not mostly white), enough viridis cells, and
each --want colour; and no magenta (#ff00ff) frame anywhere.

Usage: shot_check.py SHOT.png [--want RRGGBB ...]      exit 0 shown, 1 not shown
       shot_check.py --selftest SHOT.png [--want ...]  the check passes on SHOT and fails
                                                       on SHOT with the heatmaps' box
                                                       blanked, and on an empty page"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts", "tools"))
import clustercsv  # noqa: E402
if clustercsv.pyplot_or_reexec(__file__, sys.argv[1:]) is None:
    print("shot_check: error: no python3 with matplotlib", file=sys.stderr)
    sys.exit(1)
import numpy as np  # noqa: E402

FRAME = (255, 0, 255)


def rgb(hexs):
    return tuple(int(hexs[i:i + 2], 16) for i in (0, 2, 4))


def near(img, colour, tol=24):
    return (np.abs(img - np.array(colour)).max(axis=2) <= tol)


def viridis(img):
    import matplotlib
    palette = (np.array(matplotlib.colormaps["viridis"](np.linspace(0, 1, 32)))[:, :3] * 255)
    vir = np.zeros(img.shape[:2], bool)
    for c in palette:
        vir |= near(img, c, 12)
    return vir


def heat_box(img):
    """The box (top, bottom, left, right) of the rows and columns that hold 20 or more
    viridis pixels (a heatmap's cells or colour bar, not a stray glyph), or None."""
    vir = viridis(img)
    rows = np.nonzero(vir.sum(axis=1) >= 20)[0]
    cols = np.nonzero(vir.sum(axis=0) >= 20)[0]
    if not len(rows) or not len(cols):
        return None
    return rows.min(), rows.max(), cols.min(), cols.max()


def check(img, want):
    """Empty list when a heatmap is shown, else why not."""
    why = []
    frame = near(img, FRAME, 8).sum()
    if frame >= 50:
        why.append("%d px of a magenta frame" % frame)
    box = heat_box(img)
    if box is None:
        return why + ["no heatmap (viridis) colours in the screenshot"]
    t, b, l, r = box
    if b - t < 150 or r - l < 150:
        return why + ["the heatmap is only %dx%d px" % (r - l, b - t)]
    inner = img[t:b + 1, l:r + 1]
    white = near(inner, (255, 255, 255), 10).mean()
    if white > 0.85:
        why.append("the heatmaps' box is %.0f%% white" % (100 * white))
    vir = viridis(inner).mean()
    if vir < 0.03:
        why.append("only %.1f%% of the heatmaps' box has viridis colours" % (100 * vir))
    for w in want:
        if near(inner, rgb(w), 12).mean() < 0.002:
            why.append("no #%s cells in the heatmap" % w)
    return why


def load(path):
    import matplotlib.image
    img = matplotlib.image.imread(path)
    if img.dtype != np.uint8:
        img = img * 255
    return img[:, :, :3].astype(int)


def main(argv):
    self_test = "--selftest" in argv
    argv = [a for a in argv if a != "--selftest"]
    want = [a for i, a in enumerate(argv) if i and argv[i - 1] == "--want"]
    shots = [a for i, a in enumerate(argv) if a != "--want" and (not i or argv[i - 1] != "--want")]
    if len(shots) != 1:
        print("usage: shot_check.py [--selftest] SHOT.png [--want RRGGBB ...]", file=sys.stderr)
        return 2
    try:
        img = load(shots[0])
    except (OSError, ValueError) as e:
        print("shot_check: error: cannot read %s: %s" % (shots[0], e), file=sys.stderr)
        return 1
    why = check(img, want)
    print("shot_check: %s: %s" % (shots[0], "; ".join(why) or "heatmap shown"))
    if not self_test:
        return 1 if why else 0
    box = heat_box(img)
    fails = bool(why)
    if box:
        blank = img.copy()  # the page without its heatmaps
        blank[box[0]:box[1] + 1, box[2]:box[3] + 1] = 255
        no = check(blank, want)
        print("shot_check: blanked heatmaps: %s" % ("; ".join(no) or "PASSED (wrong)"))
        fails |= not no
    framed = img.copy()  # the page with a frame around its heatmaps, as before
    if box:
        framed[box[0]:box[0] + 4, box[2]:box[3] + 1] = FRAME
        framed[box[1] - 3:box[1] + 1, box[2]:box[3] + 1] = FRAME
        no = check(framed, want)
        print("shot_check: framed heatmaps: %s" % ("; ".join(no) or "PASSED (wrong)"))
        fails |= not no
    no = check(np.full_like(img, 255), want)
    print("shot_check: empty page: %s" % ("; ".join(no) or "PASSED (wrong)"))
    fails |= not no
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
