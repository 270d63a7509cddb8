#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/pkg-check.sh NAME ROOT [PREFIX] - check an installed gdrperf tree: ROOT is the root
# of an unpacked package (dpkg-deb -x, rpm2cpio | cpio) or a make install DESTDIR, PREFIX the
# installation prefix inside it (default /usr). It checks that the tree holds every gdr_*
# program (no libcuda link, --help runs) and its man page, the user tools and the module they
# import, the docs (README, the docs/ pages, CSV columns), and that the tools work from where
# they are installed, on real CSVs of the source tree:
#   plot.py    tests/golden/report.csv -> bw_vs_size, lat_write_lat_host, compare_write_bw PNGs
#   plot.py    tests/report/vm-bw.csv (a cluster run) -> one cluster_*.png heatmap
#   report.py  tests/report/vm-bw.csv -> an HTML page that names the run
#   sweep.sh   --dry-run against the installed programs -> a gdr_write_bw command line
# and, unless PKG_MPI=no, that cluster mode is built in: the programs link libmpi and
# `gdr_write_bw --cluster` outside mpirun says it needs 2 ranks (exit 2), not "no MPI".
# PKG_CUDA=no: a build without GPU support (else --help must offer --use_cuda).
# Prints one line per defect and a summary; exit 0 complete, 1 defects.
set -uo pipefail
name=${1:?usage: pkg-check.sh NAME ROOT [PREFIX]}
root=${2:?usage: pkg-check.sh NAME ROOT [PREFIX]}
prefix=${3:-/usr}
src=$(cd "$(dirname "$0")/../.." && pwd)
d=$root$prefix
share=$d/share/gdrperf
doc=$d/share/doc/gdrperf
t=$(mktemp -d "${TMPDIR:-/tmp}/pkg-check.XXXXXX") || { echo "$name: cannot make a temp dir"; exit 1; }
trap 'rm -rf "$t"' EXIT
export MPLCONFIGDIR=$t/mpl
fail=0
bad() { echo "$name: $*"; fail=1; }

for p in "$src"/man/gdr_*.1; do
	p=$(basename "$p" .1)
	[[ -x $d/bin/$p ]] || { bad "$prefix/bin/$p missing"; continue; }
	ls "$d/share/man/man1/$p.1"* >/dev/null 2>&1 || bad "man page of $p missing"
	[[ $(objdump -p "$d/bin/$p" | grep NEEDED) == *libcuda* ]] && bad "$p links libcuda (it must dlopen it)"
	[[ $(objdump -p "$d/bin/$p" | grep NEEDED) == *libamdhip64* ]] && bad "$p links libamdhip64 (it must dlopen it)"
	"$d/bin/$p" --help >/dev/null 2>&1 || bad "$p --help failed"
done
for m in plot.py report.py sweep.sh; do
	[[ -x $share/$m ]] || bad "$prefix/share/gdrperf/$m missing or not executable"
done
[[ -f $share/clustercsv.py ]] || bad "$prefix/share/gdrperf/clustercsv.py (imported by plot.py, report.py) missing"
[[ -f $share/clusterfab.py ]] || bad "$prefix/share/gdrperf/clusterfab.py (imported by report.py) missing"
for f in README.md options.md running.md measurement.md gpu.md acceptance.md cluster.md \
	compare.md install.md status.md testing.md csv-columns.md rocm.md; do
	ls "$doc/$f"* >/dev/null 2>&1 || bad "$prefix/share/doc/gdrperf/$f missing"
done

if [[ ${PKG_CUDA:-yes} != no ]]; then
	"$d/bin/gdr_write_bw" --help 2>&1 | grep -q -- --use_cuda || bad "no --use_cuda in --help"
fi

# cluster mode: linked with MPI, and one clear line outside an MPI launcher
w=$d/bin/gdr_write_bw
if [[ ${PKG_MPI:-yes} != no && -x $w ]]; then
	[[ $(objdump -p "$w" | grep NEEDED) == *libmpi* ]] || bad "gdr_write_bw does not link libmpi: no cluster mode"
	msg=$(cd "$t" && timeout 60 "$w" --cluster -s 64K 2>&1 </dev/null)
	rc=$?
	[[ $rc == 2 && $msg == *"--cluster needs at least 2 ranks"* ]] ||
		bad "gdr_write_bw --cluster without mpirun: exit $rc, '$msg' (want exit 2, 'needs at least 2 ranks')"
fi

# the tools, run from where they are installed (their shebang, their own directory), on real CSVs
if [[ -x $share/plot.py ]]; then
	if "$share/plot.py" "$src/tests/golden/report.csv" -o "$t/p" >"$t/plot.log" 2>&1; then
		for f in bw_vs_size.png lat_write_lat_host.png compare_write_bw.png; do
			[[ $(head -c 4 "$t/p/$f" 2>/dev/null | od -An -tx1 | tr -d ' \n') == 89504e47 ]] ||
				bad "plot.py tests/golden/report.csv wrote no PNG $f"
		done
	else
		bad "plot.py tests/golden/report.csv failed: $(tail -n 1 "$t/plot.log")"
	fi
	if "$share/plot.py" "$src/tests/report/vm-bw.csv" -o "$t/c" >"$t/plotc.log" 2>&1; then
		ls "$t"/c/cluster_*.png >/dev/null 2>&1 || bad "plot.py on a cluster CSV wrote no cluster_*.png"
	else
		bad "plot.py tests/report/vm-bw.csv failed: $(tail -n 1 "$t/plotc.log")"
	fi
fi
if [[ -x $share/report.py ]]; then
	run_id=$(sed -n '2s/,.*//p' "$src/tests/report/vm-bw.csv")
	if "$share/report.py" "$src/tests/report/vm-bw.csv" -o "$t/r.html" >"$t/report.log" 2>&1; then
		grep -q "$run_id" "$t/r.html" 2>/dev/null || bad "report.py wrote no page naming run $run_id"
	else
		bad "report.py tests/report/vm-bw.csv failed: $(tail -n 1 "$t/report.log")"
	fi
fi
if [[ -x $share/sweep.sh ]]; then
	"$share/sweep.sh" --local-server --csv "$t/s.csv" --bindir "$d/bin" --dry-run >"$t/sweep.log" 2>&1 &&
		grep -q "$d/bin/gdr_write_bw" "$t/sweep.log" ||
		bad "sweep.sh --dry-run gave no gdr_write_bw command: $(tail -n 1 "$t/sweep.log")"
fi

[[ $fail == 0 ]] && echo "$name: $(find "$root" -type f | wc -l) files; programs, man pages, tools, docs present;" \
	"no libcuda link; --help runs;$([[ ${PKG_MPI:-yes} != no ]] && echo " cluster mode (libmpi) in;")" \
	"plot.py, report.py, sweep.sh run from the package on real CSVs"
exit $fail
