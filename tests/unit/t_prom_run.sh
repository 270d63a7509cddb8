#!/bin/sh
# SPDX-License-Identifier: MIT
# --prom as an SRE wires it (issue 32 item 1, issue 34 item 7), through a test binary:
# - a run that fails after it opened its outputs (here: -d names no device) replaces the
#   previous run's PASS with a file that says it failed (gdr_run_success 0, the exit code,
#   a timestamp, the reason: its error line), written through a rename (no .tmp left), and promtool
#   (Debian package prometheus) accepts it;
# - a target that cannot be written is refused at once in one line, before any device or
#   network step, and the old file is left alone: a folder (DIR/ or DIR), a folder that
#   does not exist (the line names Debian's node-exporter folder);
# - a file another run is writing (its .lock held) is refused, naming that run's pid.
# The run's success file needs a device and a peer: tests/e2e (prom_* cases) covers it.
set -u
dir=tests/unit/t_prom_run.$$
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
fails=0
bin=./gdr_write_bw
no() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v promtool >/dev/null 2>&1 || {
	echo "SKIP: no promtool (apt-get install prometheus)"
	exit 77
}
closed="--connect_timeout=1 -p 1 127.0.0.1"
stale='gdr_run_success{host="x",device="mlx5_0",gpu="none",test="write_bw"} 1'

# 1. a failed run replaces a stale PASS
f=$dir/node.prom
echo "$stale" >"$f"
# shellcheck disable=SC2086
timeout 20 $bin -d nosuch_dev0 --prom="$f" $closed >"$dir/out" 2>"$dir/err"
rc=$?
[ $rc = 2 ] || no "failed run: exit $rc, want 2 (could not run): $(cat "$dir/err")"
grep -q '^gdr_run_success{host="[^"]*",device="nosuch_dev0",gpu="none",test="write_bw"} 0$' "$f" ||
	no "failed run: no gdr_run_success 0 in $f: $(cat "$f")"
grep -q '^gdr_run_exit_code{.*} 2$' "$f" || no "failed run: no exit code 2"
grep -q '^gdr_run_interrupted{.*} 0$' "$f" || no "failed run: no interruption marker"
grep -q '^gdr_run_timestamp_seconds{.*} 1[0-9]\{9\}' "$f" || no "failed run: no timestamp"
why=$(sed -n 's/^gdr_write_bw: error: //p' "$dir/err" | sed 's/["\\]/\\&/g')
[ -n "$why" ] && grep -qF "status=\"error\",reason=\"$why\"} 1" "$f" ||
	no "failed run: the reason is not the error line '$why': $(grep gdr_run_info "$f")"
grep -q 'test="write_bw"} 1$' "$f" && grep -q "^$stale" "$f" && no "failed run: the stale PASS is kept"
promtool check metrics <"$f" >"$dir/promtool.out" 2>&1 ||
	no "promtool refuses the failed run's file: $(cat "$dir/promtool.out")"
ls "$dir" | grep -q 'tmp\|lock' && no "a temporary or lock file was left: $(ls "$dir")"

# 2. targets that cannot be written: one line, exit 2, nothing written, before the device
mkdir -p "$dir/textfile"
for t in "$dir/textfile/" "$dir/textfile" "$dir/missing/x.prom"; do
	# shellcheck disable=SC2086
	timeout 20 $bin -d nosuch_dev0 --prom="$t" $closed >"$dir/out" 2>"$dir/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && grep -q -- "--prom=$t: " "$dir/err" ||
		no "--prom=$t: exit $rc, want 2 and one line before the device: $(cat "$dir/err")"
done
[ -z "$(ls "$dir/textfile")" ] || no "--prom=DIR/ wrote into DIR: $(ls "$dir/textfile")"
# shellcheck disable=SC2086
timeout 20 $bin -d nosuch_dev0 --prom="$dir/textfile/" $closed 2>&1 |
	grep -q "names a folder; give a file in it, e.g. $dir/textfile/gdrperf.prom" ||
	no "--prom=DIR/: the line does not say what to give"
# shellcheck disable=SC2086
timeout 20 $bin -d nosuch_dev0 --prom="$dir/missing/x.prom" $closed 2>&1 |
	grep -q "the folder $dir/missing does not exist (Debian's node exporter reads /var/lib/prometheus/node-exporter)" ||
	no "--prom in a missing folder: the line does not name the folder and Debian's"

# 3. another run holds the file: refused with its pid, the file left alone
echo "$stale" >"$f"
echo 4242 >"$f.lock"
flock "$f.lock" sleep 10 &
holder=$!
sleep 1
# shellcheck disable=SC2086
timeout 20 $bin -d nosuch_dev0 --prom="$f" $closed >"$dir/out" 2>"$dir/err"
rc=$?
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] &&
	grep -q "another run (pid 4242) is writing this file" "$dir/err" ||
	no "a locked file: exit $rc, want 2 and one line naming pid 4242: $(cat "$dir/err")"
[ "$(cat "$f")" = "$stale" ] || no "a locked file was overwritten"

echo "t_prom_run: $fails failure(s)"
[ "$fails" = 0 ]
