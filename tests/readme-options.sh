#!/bin/sh
# Docs follow the option table: every long option in `gdr_write_bw --help`
# appears in man/gdrperf.1 and in README.md's options block, and neither
# documents an option that --help lacks.
set -u
srcdir=${srcdir:-.}
bin=${top_builddir:-.}/gdr_write_bw
man=$srcdir/man/gdrperf.1
readme=$srcdir/README.md
fail=0

[ -x "$bin" ] || { echo "FAIL: $bin not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" --help >"$tmp/help" || { echo "FAIL: $bin --help exited $?" >&2; exit 1; }
longs() { grep -o -- '--[a-z][a-z_-]*' | sort -u; }
longs <"$tmp/help" >"$tmp/h"
n=$(wc -l <"$tmp/h")
[ "$n" -ge 30 ] || { echo "FAIL: only $n long options in --help" >&2; exit 1; }

# man: "\-\-name" in the source; only option heading lines (.TP items: .B/.BR)
sed -n '/^\.SH OPTIONS/,/^\.SH EXIT/p' "$man" | grep '^\.BR\? ' | sed 's/\\-/-/g' | longs >"$tmp/m"
sed -n '/^<!-- options:begin -->$/,/^<!-- options:end -->$/p' "$readme" | longs >"$tmp/r"

for what in m:man/gdrperf.1 r:README.md; do
	f=$tmp/${what%%:*}
	name=${what#*:}
	missing=$(comm -23 "$tmp/h" "$f")
	extra=$(comm -13 "$tmp/h" "$f")
	if [ -n "$missing" ]; then
		echo "FAIL: $name lacks:" $missing >&2
		fail=1
	fi
	if [ -n "$extra" ]; then
		echo "FAIL: $name documents options --help lacks:" $extra >&2
		fail=1
	fi
done
[ $fail = 0 ] && echo "PASS: $n long options in --help, man page and README agree"
exit $fail
