#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/report/browser.sh [OUTDIR] - the page of scripts/tools/report.py opened in headless
# Chromium: one screenshot of tests/report/odd.csv's page, and tests/report/shot_check.py
# finds the heatmaps in it by their colours (viridis cells, the FAIL and TIMEOUT colours, and
# no magenta frame); the same check must fail on that screenshot with the heatmaps blanked
# out, with a frame drawn around them, and on an empty page. The page's text (command,
# version, start, SLOW rule, one scale, one cell per pair) is checked by t_report.py. Needs chromium and python3-matplotlib (scripts/ci/deps.sh report). Exit 0 passed,
# 1 failed (a missing browser is a failure: the check did not run).
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$PWD/report-browser}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
py=python3 # report.py and shot_check.py run again under one that has matplotlib
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null && browser=$b && break
done
[[ -n $browser ]] || {
	echo "browser: error: no chromium (scripts/ci/deps.sh report installs it)" >&2
	exit 1
}
export MPLCONFIGDIR=$out/mpl
"$py" "$src/scripts/tools/report.py" "$src/tests/report/odd.csv" -o "$out/odd.html" || exit 1
rm -f "$out/odd.png"
t0=$SECONDS
# --no-sandbox: CI runs as root; its own profile folder, nothing of the user's touched
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	--user-data-dir="$out/profile" --window-size=1280,1700 --screenshot="$out/odd.png" \
	"file://$out/odd.html" >"$out/chromium.log" 2>&1
rc=$?
echo "browser: $browser exit $rc, $((SECONDS - t0)) s"
[[ -s $out/odd.png ]] || {
	echo "browser: error: no screenshot (see $out/chromium.log)" >&2
	tail -n 5 "$out/chromium.log" >&2
	exit 1
}
rm -rf "$out/profile"
# FAIL and TIMEOUT cells (scripts/tools/clustercsv.py COLOURS) must show
"$py" "$src/tests/report/shot_check.py" --selftest "$out/odd.png" --want d62728 --want ff7f0e
