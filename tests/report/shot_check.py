# SPDX-License-Identifier: MIT
"""Does a screenshot of a report.py page show a heatmap? The page frames each heatmap in
#ff00ff (magenta, no colour of the heatmap itself): find the first frame, and inside it
want a drawing (not mostly white), the heatmap's viridis colours, and each --want colour.

Usage: shot_check.py SHOT.png [--want RRGGBB ...]      exit 0 shown, 1 not shown
       shot_check.py --selftest SHOT.png [--want ...]  the check passes on SHOT and fails
                                                       on SHOT with the frame blanked
                                                       inside, and on an empty page"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
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


def frame_box(img):
    """The bounding box (top, bottom, left, right) of the first magenta frame, or None."""
    ys, xs = np.nonzero(near(img, FRAME, 8))
    if len(ys) < 400:
        return None
    top, left = ys.min(), xs.min()
    first = near(img[top:top + 8, :], FRAME, 8).any(axis=0)
    right = left
    while right + 1 < img.shape[1] and first[right + 1]:
        right += 1  # the top edge of the first frame, not of a frame beside it
    col = near(img[:, left:left + 4], FRAME, 8).any(axis=1)
    bottom = top
    while bottom + 1 < img.shape[0] and col[bottom + 1]:
        bottom += 1
    return top, bottom, left, right


def check(img, want):
    """Empty list when a heatmap is shown, else why not."""
    import matplotlib
    box = frame_box(img)
    if box is None:
        return ["no magenta heatmap frame in the screenshot"]
    t, b, l, r = box
    if b - t < 150 or r - l < 150:
        return ["the heatmap frame is only %dx%d px" % (r - l, b - t)]
    inner = img[t + 8:b - 7, l + 8:r - 7]
    why = []
    white = near(inner, (255, 255, 255), 10).mean()
    if white > 0.85:
        why.append("the frame is %.0f%% white inside" % (100 * white))
    palette = (np.array(matplotlib.colormaps["viridis"](np.linspace(0, 1, 32)))[:, :3] * 255)
    vir = np.zeros(inner.shape[:2], bool)
    for c in palette:
        vir |= near(inner, c, 12)
    if vir.mean() < 0.03:
        why.append("only %.1f%% of the frame has heatmap (viridis) colours" % (100 * vir.mean()))
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
    box = frame_box(img)
    fails = bool(why)
    if box:
        blank = img.copy()  # the page without its heatmap: the frame, white inside
        blank[box[0] + 8:box[1] - 7, box[2] + 8:box[3] - 7] = 255
        no = check(blank, want)
        print("shot_check: blanked frame: %s" % ("; ".join(no) or "PASSED (wrong)"))
        fails |= not no
    no = check(np.full_like(img, 255), want)
    print("shot_check: empty page: %s" % ("; ".join(no) or "PASSED (wrong)"))
    fails |= not no
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
