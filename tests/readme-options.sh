#!/bin/sh
# Docs follow the option tables: every long option in `gdr_write_bw --help`
# appears in man/gdrperf.1 and in docs/options.md's options block, every one of
# gdr_stage_bw and gdr_doctor in its man page, and no page documents an
# option that its program's --help lacks.
set -u
srcdir=${srcdir:-.}
bin=${top_builddir:-.}/gdr_write_bw
man=$srcdir/man/gdrperf.1
readme=$srcdir/docs/options.md
fail=0

[ -x "$bin" ] || { echo "FAIL: $bin not built" >&2; exit 1; }
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir tmp readme-options

longs() { grep -o -- '--[a-z][a-z_-]*' | sort -u; }
# the option heading lines (.TP items: .B/.BR/.BI) of a man page's OPTIONS section
manlongs() {
	awk '/^\.SH/ { on = ($2 == "OPTIONS") } on' "$1" | grep '^\.B[RI]\? ' | sed 's/\\-/-/g' | longs
}
# $1 = help file, $2 = documented file, $3 = its name
agree() {
	missing=$(comm -23 "$1" "$2")
	extra=$(comm -13 "$1" "$2")
	if [ -n "$missing" ]; then
		echo "FAIL: $3 lacks:" $missing >&2
		fail=1
	fi
	if [ -n "$extra" ]; then
		echo "FAIL: $3 documents options --help lacks:" $extra >&2
		fail=1
	fi
}

"$bin" --help >"$tmp/help" || { echo "FAIL: $bin --help exited $?" >&2; exit 1; }
longs <"$tmp/help" >"$tmp/h"
n=$(wc -l <"$tmp/h")
[ "$n" -ge 30 ] || { echo "FAIL: only $n long options in --help" >&2; exit 1; }

manlongs "$man" >"$tmp/m"
sed -n '/^<!-- options:begin -->$/,/^<!-- options:end -->$/p' "$readme" | longs >"$tmp/r"
agree "$tmp/h" "$tmp/m" man/gdrperf.1
agree "$tmp/h" "$tmp/r" docs/options.md

for prog in gdr_stage_bw gdr_doctor gdr_proxy_bw; do
	p=${top_builddir:-.}/$prog
	[ -x "$p" ] || { echo "FAIL: $p not built" >&2; exit 1; }
	"$p" --help | longs >"$tmp/$prog.h"
	[ -s "$tmp/$prog.h" ] || { echo "FAIL: $prog --help lists no option" >&2; fail=1; }
	manlongs "$srcdir/man/$prog.1" >"$tmp/$prog.m"
	agree "$tmp/$prog.h" "$tmp/$prog.m" "man/$prog.1"
done
[ $fail = 0 ] && echo "PASS: $n long options in --help, man page and docs/options.md agree; so do gdr_stage_bw's, gdr_doctor's and gdr_proxy_bw's --help and man pages"
exit $fail
