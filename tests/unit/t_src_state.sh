#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/src-state.sh (the "commit ..." line of main-job.sh's results README): a fresh clone
# whose only change is the results folder being written is clean; any other change (an
# untracked file elsewhere, an edited tracked file) is "with uncommitted changes", also when
# the results folder is given relative to another directory.
command -v git >/dev/null 2>&1 || { echo "SKIP: no git"; exit 77; }
srcdir=${srcdir:-.}
st=$(cd "$srcdir" && pwd)/scripts/ci/src-state.sh
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir t t_src_state
fail=0
r=$t/clone
git init -q "$r" && echo a >"$r/a" && git -C "$r" add a &&
	git -C "$r" -c user.email=t@t -c user.name=t commit -qm a || { echo "FAIL: git setup"; exit 1; }
c=$(git -C "$r" rev-parse --short HEAD)
# expect WANT SRC [OWN]
expect() {
	got=$(sh "$st" "$2" ${3:+"$3"})
	[ "$got" = "$1" ] || { echo "FAIL: src-state.sh $2 $3: '$got', want '$1'"; fail=1; }
}
dirty="commit $c (with uncommitted changes)"
mkdir -p "$r/results/2026-11-24-host" && echo x >"$r/results/2026-11-24-host/README.md"
expect "commit $c" "$r" "$r/results/2026-11-24-host"
expect "$dirty" "$r"
(cd "$r/results" && sh "$st" .. 2026-11-24-host) | grep -qx "commit $c" ||
	{ echo "FAIL: OWN relative to the current directory"; fail=1; }
echo b >"$r/b"
expect "$dirty" "$r" "$r/results/2026-11-24-host"
rm "$r/b" && echo more >>"$r/a"
expect "$dirty" "$r" "$r/results/2026-11-24-host"
expect "commit unknown" "$t/none"
[ $fail = 0 ] && echo "ok: own results folder excluded; other changes reported; no checkout: unknown"
exit $fail
