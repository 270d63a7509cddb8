#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/python-with.sh MODULE...: print the first python3 (PATH's, then the distribution's
# /usr/bin/python3, e.g. when pyenv's comes first) that imports every MODULE; exit 1 if none.
imports=$(printf 'import %s; ' "$@")
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c "$imports" 2>/dev/null; then
		command -v "$p"
		exit 0
	fi
done
exit 1
