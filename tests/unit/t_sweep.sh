#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/tools/sweep.sh runs the whole matrix with the right options, against stub
# gdr_* programs that log their arguments and append a CSV row as clients.
srcdir=${srcdir:-.}
sweep=$srcdir/scripts/tools/sweep.sh
d=t_sweep.tmp.d
rm -rf "$d"
mkdir -p "$d/bin" || exit 1
fail=0
for t in write_bw read_lat; do
	cat >"$d/bin/gdr_$t" <<STUB
#!/bin/sh
# stub: last argument not starting with '-' after options = client
echo "gdr_$t \$*" >>"$PWD/$d/calls.log"
case "\$*" in *FAILME*) exit 3 ;; esac
for a; do last=\$a; done
case \$last in
127.0.0.1|peer) for a; do case \$a in --csv=*) echo "row,$t" >>"\${a#--csv=}" ;; esac; done ;;
esac
exit 0
STUB
	chmod +x "$d/bin/gdr_$t"
done

sh "$sweep" --help >/dev/null || { echo "FAIL: --help"; fail=1; }
# matrix with a local server: 2 tests x 3 paths = 6 clients + 6 servers
sh "$sweep" --local-server --bindir "$d/bin" --tests write_bw,read_lat \
	--paths direct,staged,compare --sizes 64:1M:4 --csv "$d/out.csv" -- -n 10 2>"$d/err" ||
	{ echo "FAIL: sweep exited $?"; cat "$d/err"; fail=1; }
clients=$(grep -c ' 127.0.0.1$' "$d/calls.log")
servers=$(grep -c -- '--listen_timeout' "$d/calls.log")
rows=$(wc -l <"$d/out.csv")
[ "$clients" = 6 ] && [ "$servers" = 6 ] && [ "$rows" = 6 ] ||
	{ echo "FAIL: clients=$clients servers=$servers rows=$rows (want 6 6 6)"; fail=1; }
grep -q -- '^gdr_read_lat .*--sizes=64:1M:4 .*--use_cuda=auto --staged -n 10 127.0.0.1$' "$d/calls.log" ||
	{ echo "FAIL: staged read_lat client options"; fail=1; }
grep -q -- '^gdr_write_bw .*--use_cuda=auto --compare -n 10 127.0.0.1$' "$d/calls.log" ||
	{ echo "FAIL: compare client options"; fail=1; }
# a GPU chosen by the user is not overridden
: >"$d/calls.log"
sh "$sweep" --server peer --bindir "$d/bin" --paths direct,host --csv "$d/out2.csv" \
	-- --use_cuda=1 2>/dev/null || { echo "FAIL: remote sweep"; fail=1; }
grep -q 'use_cuda=auto' "$d/calls.log" && { echo "FAIL: --use_cuda=auto added"; fail=1; }
[ "$(grep -c ' peer$' "$d/calls.log")" = 2 ] || { echo "FAIL: remote clients"; fail=1; }
# a failing run stops the sweep with status 1; bad input is a usage error (2)
sh "$sweep" --server peer --bindir "$d/bin" --paths host,staged --csv "$d/o3.csv" -- FAILME \
	2>/dev/null
[ $? = 1 ] || { echo "FAIL: failed run must give 1"; fail=1; }
sh "$sweep" --server peer --bindir "$d/bin" --paths warp --csv "$d/o4.csv" 2>/dev/null
[ $? = 2 ] || { echo "FAIL: unknown path must give 2"; fail=1; }
sh "$sweep" --bindir "$d/bin" --csv "$d/o4.csv" 2>/dev/null
[ $? = 2 ] || { echo "FAIL: missing --server must give 2"; fail=1; }
[ $fail = 0 ] && rm -rf "$d" && echo "ok: sweep matrix, options and exit statuses"
exit $fail
