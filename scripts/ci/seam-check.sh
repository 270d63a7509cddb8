#!/bin/sh
# SPDX-License-Identifier: MIT
# The transport seam holds (src/transport/xport.h): the engine and staging post
# and poll only through the transport's ops (c->xp), so no verbs identifier
# (ibv_..., IBV_...) is used in src/engine or src/staging. An #include line is
# not a use (none is left above src/transport/verbs: scripts/ci/verbs-headers.sh).
# One grep over the folders' sources; each use is named FILE:LINE: TEXT.
# Usage: scripts/ci/seam-check.sh [SRCDIR]   (exit 0 clean, 1 on a use or no folder)
set -u
src=${1:-$(dirname "$0")/../../src}
for d in engine staging; do
	[ -d "$src/$d" ] || { echo "seam-check: $src/$d: no such folder" >&2; exit 1; }
done
hits=$(grep -nE '(^|[^A-Za-z0-9_])(ibv|IBV)_' "$src"/engine/*.[ch] "$src"/staging/*.[ch] \
	"$src"/staging/*.cu 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#[[:space:]]*include')
if [ -n "$hits" ]; then
	echo "$hits" | sed "s|^$src/||; s|^|seam-check: |"
	echo "seam-check: src/engine and src/staging use verbs directly: post and poll through c->xp (src/transport/xport.h)" >&2
	exit 1
fi
echo "seam-check: src/engine and src/staging use no verbs identifier"
