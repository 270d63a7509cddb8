#!/bin/sh
# SPDX-License-Identifier: MIT
# The verbs API (infiniband/*.h, rdma/rdma_*.h, rdma/ib_user_*.h) belongs to
# the verbs transport (src/transport/verbs) and the doctor (src/doctor): no
# other .c of src/ may see one of its headers, directly or through a header of
# ours. Each file's full dependency list comes from the compiler ($CC -M -MG,
# every folder of src/ and the build folder on the include path), so an
# include three headers deep is caught like a direct one. One line per file
# that sees one, naming the headers; exit 1 then, 0 when none does.
# Usage: scripts/ci/verbs-headers.sh [SRCDIR [BUILDDIR]]   (BUILDDIR: config.h's, default .)
set -u
src=${1:-$(dirname "$0")/../../src}
bld=${2:-.}
cc=${CC:-cc}
[ -d "$src" ] || { echo "verbs-headers: $src: no such folder" >&2; exit 1; }
export LC_ALL=C
inc=$(find "$src" -type d | sort | sed 's/^/-I/' | tr '\n' ' ')
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
find "$src" -name '*.c' ! -path "$src/transport/verbs/*" ! -path "$src/doctor/*" | sort >"$tmp/files"
[ -s "$tmp/files" ] || { echo "verbs-headers: $src: no .c files" >&2; exit 1; }
# one file: "FILE HEADER..." for each verbs header its dependency list names, or "FILE !"
# when the compiler cannot list them (a file that does not preprocess is a failure too)
# shellcheck disable=SC2016
xargs -P 2 -n 1 sh -c '
	d=$("$0" -M -MG -I"$1" $2 "$3" 2>&1) || { echo "$3 ! $(echo "$d" | head -n 1)"; exit 0; }
	h=$(echo "$d" | tr " \\\\" "\n\n" | grep -E "(^|/)(infiniband/|rdma/rdma_|rdma/ib_user_)" |
		sed -E "s@.*/((infiniband|rdma)/)@\1@" | sort -u)
	[ -n "$h" ] || exit 0
	# name the front doors (verbs.h, rdma_cma.h) where listed, not every header they pull in
	top=$(echo "$h" | grep -E "^(infiniband/(verbs|mlx5dv)|rdma/rdma_(cma|verbs))\.h$")
	h=$(echo "${top:-$h}" | tr "\n" " ")
	echo "$3 $h"
' "$cc" "$bld" "$inc" <"$tmp/files" >"$tmp/seen"
n=$(wc -l <"$tmp/files")
if [ -s "$tmp/seen" ]; then
	sort "$tmp/seen" | while read -r f h; do
		case $h in
		'!'*) echo "verbs-headers: ${f#"$src"/}: the compiler cannot list its headers: ${h#! }" ;;
		*) echo "verbs-headers: ${f#"$src"/} sees the verbs API ($h): only src/transport/verbs and src/doctor may" ;;
		esac
	done
	echo "verbs-headers: $(wc -l <"$tmp/seen") of $n files outside src/transport/verbs and src/doctor see a verbs header" >&2
	exit 1
fi
echo "verbs-headers: none of $n files outside src/transport/verbs and src/doctor sees a verbs header"
