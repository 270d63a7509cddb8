#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/src-state.sh SRC [OWN_DIR]: the checkout's state for a results README, one line:
# "commit <short hash>", plus " (with uncommitted changes)" when a tracked file differs or an
# untracked, not ignored file exists anywhere but under OWN_DIR (the results folder the
# caller is writing: on a fresh clone it is the only change and is not a change of the code).
# "commit unknown" outside a git checkout. Exit 0.
src=${1:?usage: src-state.sh SRC [OWN_DIR]}
own=${2:-}
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null) || { echo "commit unknown"; exit 0; }
set -- .
if [ -n "$own" ] && [ -d "$own" ]; then
	top=$(git -C "$src" rev-parse --show-toplevel)
	own=$(cd "$own" && pwd -P)
	top=$(cd "$top" && pwd -P)
	case $own/ in
	"$top"/*) set -- . ":(exclude,top)${own#"$top"/}" ;;
	esac
fi
if git -C "$src" status --porcelain -- "$@" 2>/dev/null | grep -q .; then
	echo "commit $commit (with uncommitted changes)"
else
	echo "commit $commit"
fi
