#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_copier_batch on the CUDA driver double: the batch copier's single copies and
# block lists with the driver's CUDA 13 form of cuMemcpyBatchAsync, then the 12.8 form
# (failIdx; GDR_DOUBLE_VERSION=12080), each list ONE batched call of its blocks (the double's
# GDR_DOUBLE_BATCHES log: two lines, one per list, the form asked of that driver); then a
# CUDA 12.4 driver, which lacks the call: open refuses naming the version, and no call is made.
# A skip (77) is a failure here: with the double built every check must run.
. "${srcdir:-.}/tests/cuda/double-env.sh"
log=$(mktemp) || exit 99
trap 'rm -f "$log"' EXIT
fail=0
for v in 13000:13.0 12080:12.8 12040:absent:12.4; do
	ver=${v%%:*} form=${v#*:}
	: >"$log"
	out=$(GDR_DOUBLE_VERSION=$ver GDR_DOUBLE_BATCHES=$log tests/cuda/t_copier_batch "$form" 2>&1)
	rc=$?
	echo "== driver $ver, form $form: exit $rc"
	echo "$out"
	[ $rc -eq 0 ] || { echo "FAIL: t_copier_batch $form exit $rc"; fail=1; }
	case $form in
	absent:*) want= ;;
	*) want=$(printf 'cuMemcpyBatchAsync form %s count 6\n' "$form" "$form") ;;
	esac
	got=$(sed 's/ pid [0-9]*$//' "$log")
	if [ "$got" != "$want" ]; then
		printf 'FAIL: batched calls: want\n%s\ngot\n%s\n' "$want" "$got"
		fail=1
	else
		echo "batched calls: $(grep -c . "$log") (one per list), as wanted"
	fi
done
exit $fail
