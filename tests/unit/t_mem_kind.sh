#!/bin/sh
# SPDX-License-Identifier: MIT
# Memory backends are asked, not named: outside src/memory no C file compares a
# backend's name (ops->kind); the questions are the ops' answers (mem.h:
# device, bar_map, gdr_mem_on_device), so a new backend (ROCm) is one ops struct.
srcdir=${srcdir:-.}
hits=$(grep -rnE 'str(n?case)?cmp\([^;]*ops->kind|ops->kind *[!=]=' "$srcdir/src" \
	--include='*.c' --include='*.h' | grep -v "^$srcdir/src/memory/")
if [ -n "$hits" ]; then
	echo "FAIL: a backend compared by name outside src/memory:"
	echo "$hits"
	exit 1
fi
# The check can fail: the memory folder itself names its backends.
grep -rqE '"cuda"' "$srcdir/src/memory" || { echo "FAIL: the pattern finds nothing at all"; exit 1; }
echo "t_mem_kind: no backend named outside src/memory"
