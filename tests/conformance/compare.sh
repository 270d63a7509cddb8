#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/conformance/compare.sh PROG EXPECT [SAVE]: run one conformance case (c_*.c) on the
# libcuda.so.1 that GDR_LIBCUDA names (the real driver when unset) and hold its `RULE` lines
# to EXPECT's, in order. EXPECT: the RULE lines the real driver gives, `#` comments, and
#   #env VAR=VALUE ...   set for the run (the double's switches that make it play the GPU
#                        machine; the real driver ignores them)
#   #gap NAME why        the double does not keep rule NAME yet: its line may differ (said,
#                        not failed); when it agrees that is said too (the #gap line is then
#                        due to go: a timed rule may agree by chance on a busy host)
# Prints "agree", or "DISAGREE" and a diff (expected, then observed), and the case's `# info`
# lines. Exit 0 agree, 1 disagree (or the case failed), 77 the case skipped (no driver).
# SAVE: a file that gets the observed RULE lines.
prog=$1 exp=$2 save=${3:-}
name=$(basename "$prog")
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
envs=$(sed -n 's/^#env //p' "$exp" | tr '\n' ' ')
# shellcheck disable=SC2086
# every case is bounded (CONF_TIMEOUT seconds, default 120): a hang is a DISAGREE, never a wait
timeout -k 5 "${CONF_TIMEOUT:-120}" env $envs "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "$name: DISAGREE: the case did not end within ${CONF_TIMEOUT:-120} s; its last lines:"
	tail -n 5 "$tmp/out" "$tmp/err"
	exit 1
fi
if [ $rc -eq 77 ]; then
	echo "$name: skipped: $(grep -m1 '^skip' "$tmp/out")"
	exit 77
fi
grep '^RULE ' "$tmp/out" >"$tmp/got"
grep '^RULE ' "$exp" >"$tmp/want"
[ -z "$save" ] || cp "$tmp/got" "$save"
if [ $rc -ne 0 ]; then
	echo "$name: DISAGREE: the case exited $rc"
	cat "$tmp/out" "$tmp/err"
	exit 1
fi
bad=0
gaps=$(sed -n 's/^#gap \([^ ]*\).*/\1/p' "$exp")
for g in $gaps; do
	w=$(grep "^RULE $g " "$tmp/want")
	o=$(grep "^RULE $g " "$tmp/got")
	if [ "$w" = "$o" ]; then
		echo "$name: rule $g agrees though marked #gap in $(basename "$exp"): once the double keeps it, remove the #gap line"
	else
		echo "$name: known gap, rule $g: $(sed -n "s/^#gap $g //p" "$exp")"
		echo "    expected: $w"
		echo "    observed: $o"
	fi
	grep -v "^RULE $g " "$tmp/want" >"$tmp/w2"
	mv "$tmp/w2" "$tmp/want"
	grep -v "^RULE $g " "$tmp/got" >"$tmp/g2"
	mv "$tmp/g2" "$tmp/got"
done
if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	echo "$name: DISAGREE with $(basename "$exp")${GDR_LIBCUDA:+ (GDR_LIBCUDA=$GDR_LIBCUDA)}"
	sed 1,2d "$tmp/diff"
	bad=1
else
	echo "$name: agree"
fi
grep '^# info' "$tmp/out" | sed 's/^/    /'
[ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err"
exit $bad
