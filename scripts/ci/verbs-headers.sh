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
# the files' dependency rules ("x.o: FILE HEADER... \\"), 25 files a compiler, two at once,
# each batch into its own file; a batch that fails is run again file by file, and a file
# that does not preprocess is named with its first error ("FILE ! ERROR" in bad.*)
# shellcheck disable=SC2016,SC2086
xargs -P 2 -n 25 sh -c '
	cc=$1 bld=$2 inc=$3 tmp=$4
	shift 4
	"$cc" -M -MG -I"$bld" $inc "$@" >"$tmp/d.$$" 2>/dev/null && exit 0
	: >"$tmp/d.$$"
	for f in "$@"; do
		"$cc" -M -MG -I"$bld" $inc "$f" >>"$tmp/d.$$" 2>"$tmp/e.$$" ||
			echo "$f ! $(grep -m 1 error "$tmp/e.$$")" >>"$tmp/bad.$$"
	done
' sh "$cc" "$bld" "$inc" "$tmp" <"$tmp/files"
# one rule a line; "FILE HEADER..." for each file whose rule names a verbs header: the
# front doors (verbs.h, mlx5dv.h, rdma_cma.h, rdma_verbs.h) where listed, else them all
cat "$tmp"/d.* | sed -e :a -e '/\\$/N' -e 's/\\\n//' -e ta | awk '
BEGIN { ndoor = split("infiniband/verbs.h infiniband/mlx5dv.h rdma/rdma_cma.h rdma/rdma_verbs.h", door) }
{
	all = ""; top = ""; split("", seen)
	for (i = 3; i <= NF; i++) {
		if ($i !~ /(^|\/)(infiniband\/|rdma\/rdma_|rdma\/ib_user_)/)
			continue
		match($i, /(infiniband|rdma)\/[^\/]*$/)
		h = substr($i, RSTART)
		if (h in seen)
			continue
		seen[h] = 1
		all = all " " h
	}
	for (k = 1; k <= ndoor; k++)
		if (door[k] in seen)
			top = top " " door[k]
	if (all != "")
		print $2 (top != "" ? top : all)
}' >"$tmp/seen"
cat "$tmp"/bad.* >>"$tmp/seen" 2>/dev/null
n=$(wc -l <"$tmp/files")
if [ -s "$tmp/seen" ]; then
	sort -u "$tmp/seen" | while read -r f h; do
		case $h in
		'!'*) echo "verbs-headers: ${f#"$src"/}: the compiler cannot list its headers: ${h#! }" ;;
		*) echo "verbs-headers: ${f#"$src"/} sees the verbs API ($h): only src/transport/verbs and src/doctor may" ;;
		esac
	done
	echo "verbs-headers: $(cut -d " " -f 1 "$tmp/seen" | sort -u | wc -l) of $n files outside src/transport/verbs and src/doctor see a verbs header" >&2
	exit 1
fi
echo "verbs-headers: none of $n files outside src/transport/verbs and src/doctor sees a verbs header"
