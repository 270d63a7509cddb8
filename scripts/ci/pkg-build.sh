#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/pkg-build.sh BUILD OUT - build gdrperf's packages from the release tarball of the
# configured build folder BUILD (make dist), in OUT (emptied first), and check them:
#   deb   dpkg-buildpackage -us -uc -b in the unpacked tarball (debian/), then lintian,
#         failing on errors and warnings (overrides say why in debian/*lintian-overrides)
#   rpm   rpmbuild -tb of the same tarball (rpm/gdrperf.spec; --nodeps: Debian has no rpm
#         database of the build dependencies, which the deb build has just proven present)
#   both  unpacked (dpkg-deb -x, rpm2cpio), checked by scripts/ci/pkg-check.sh: every gdr_*
#         program, man page, tool and doc is there; the programs link no CUDA library, link
#         MPI (cluster mode) and start; plot.py, report.py and sweep.sh run from the unpacked
#         package on real CSVs (tests/golden, tests/report)
# DEB_BUILD_PROFILES: pkg.gdrperf.nocuda (no GPU support; also when cuda.h is absent),
# pkg.gdrperf.nompi (no cluster mode); the rpm gets --without cuda / --without mpi to match.
# The package versions must equal AC_INIT's. PKG_SKIP="rpm" leaves the rpm out.
# make check is not repeated inside the package builds (nocheck / --without check).
set -uo pipefail
b=${1:?usage: pkg-build.sh BUILD OUT}
out=${2:?usage: pkg-build.sh BUILD OUT}
src=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
die() { echo "pkg-build: error: $*" >&2; exit 1; }
t() { echo "pkg-build: $1 took $((SECONDS - $2)) s"; }

ver=$(sed -n 's/^AC_INIT(\[gdrperf\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[[ -n $ver ]] || die "no version in configure.ac's AC_INIT"
dver=$(sed -n '1s/^gdrperf (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[[ $dver == "$ver" ]] || die "debian/changelog is at $dver, configure.ac at $ver: add a changelog entry (dch -v $ver)"
rver=$(awk '$1 == "Version:" { print $2 }' "$src/rpm/gdrperf.spec")
[[ $rver == "$ver" ]] || die "rpm/gdrperf.spec Version is $rver, configure.ac's $ver"

# GPU support needs cuda.h (debian/README.source); like configure, build without it when absent
if [[ ! -f ${CUDA_H_PATH:-/usr/local/cuda/include/cuda.h} && " ${DEB_BUILD_PROFILES:-} " != *" pkg.gdrperf.nocuda "* ]]; then
	echo "pkg-build: no ${CUDA_H_PATH:-/usr/local/cuda/include/cuda.h}: packages WITHOUT GPU support (profile pkg.gdrperf.nocuda)"
	export DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES:-} pkg.gdrperf.nocuda"
fi

# cluster mode (MPI, Debian's default MPI) is built in unless the profile pkg.gdrperf.nompi
cuda_on=yes mpi_on=yes
[[ " ${DEB_BUILD_PROFILES:-} " == *" pkg.gdrperf.nocuda "* ]] && cuda_on=no
[[ " ${DEB_BUILD_PROFILES:-} " == *" pkg.gdrperf.nompi "* ]] && mpi_on=no

t0=$SECONDS
rm -rf "$out" && mkdir -p "$out" || die "cannot make $out"
out=$(cd "$out" && pwd)
make -C "$b" -s dist-gzip >/dev/null || die "make dist failed in $b"
tarball=$b/gdrperf-$ver.tar.gz
[[ -f $tarball ]] || die "$tarball not made"
cp "$tarball" "$out/" && tar -C "$out" -xzf "$tarball" || die "cannot unpack $tarball"
t "make dist" "$t0"

# check_tree NAME DIR: the unpacked package DIR holds what it must, and its programs and tools
# run from there (scripts/ci/pkg-check.sh: plot.py, report.py, sweep.sh on the tree's real CSVs)
check_tree() {
	PKG_CUDA=$cuda_on PKG_MPI=$mpi_on bash "$src/scripts/ci/pkg-check.sh" "$1" "$2" /usr
}

t0=$SECONDS
(cd "$out/gdrperf-$ver" && DEB_BUILD_OPTIONS="nocheck parallel=$jobs ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$out/deb-build.log" 2>&1 || {
	tail -n 30 "$out/deb-build.log"
	die "dpkg-buildpackage failed (log: $out/deb-build.log)"
}
t "dpkg-buildpackage" "$t0"
changes=$(ls "$out"/gdrperf_"$ver"_*.changes 2>/dev/null | head -n 1)
deb=$(ls "$out"/gdrperf_"$ver"_*.deb 2>/dev/null | head -n 1)
[[ -f $changes && -f $deb ]] || die "no .changes/.deb in $out"
t0=$SECONDS
lintian --fail-on error,warning --display-level '>=info' "$changes" || die "lintian: errors or warnings above"
t "lintian" "$t0"
rm -rf "$out/deb-root" && dpkg-deb -x "$deb" "$out/deb-root" || die "cannot unpack $deb"
dpkg-deb -f "$deb" Depends | grep -qi cuda && die "$deb depends on a CUDA package"
check_tree deb "$out/deb-root" || die "the .deb is incomplete (above)"
echo "pkg-build: $(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"

[[ " ${PKG_SKIP:-} " == *" rpm "* ]] && { echo "pkg-build: rpm left out (PKG_SKIP)"; exit 0; }
t0=$SECONDS
cuda=(--define "cuda_h ${CUDA_H_PATH:-/usr/local/cuda/include/cuda.h}")
[[ $cuda_on == no ]] && cuda=(--without cuda)
mpi=()
[[ $mpi_on == no ]] && mpi=(--without mpi)
rpmbuild -tb --nodeps --without check "${cuda[@]}" "${mpi[@]}" --define "_topdir $out/rpm" \
	--define "_smp_mflags -j$jobs" "$out/gdrperf-$ver.tar.gz" >"$out/rpm-build.log" 2>&1 || {
	tail -n 30 "$out/rpm-build.log"
	die "rpmbuild failed (log: $out/rpm-build.log)"
}
t "rpmbuild" "$t0"
rpmf=
for f in "$out"/rpm/RPMS/*/gdrperf-"$ver"-*.rpm; do [[ $f == *debug* ]] || rpmf=$f; done
[[ -f $rpmf ]] || die "no binary rpm under $out/rpm/RPMS"
rm -rf "$out/rpm-root" && mkdir -p "$out/rpm-root" &&
	(cd "$out/rpm-root" && rpm2cpio "$rpmf" | cpio -idm --quiet) || die "cannot unpack $rpmf"
check_tree rpm "$out/rpm-root" || die "the .rpm is incomplete (above)"
echo "pkg-build: $(basename "$rpmf"): Requires: $(rpm -qp --requires "$rpmf" 2>/dev/null | grep -v '^rpmlib' | tr '\n' ' ')"
