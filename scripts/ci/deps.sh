#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/deps.sh [GROUP...] - make sure the Debian/Ubuntu packages gdrperf's scripts
# need are installed; installs only the missing ones (apt-get update + install, as
# root), and does nothing when all are present. Sourced or run by scripts/ci/test.sh and
# scripts/ci/main-job.sh.  Groups: build, check, vm, plot, cluster, report, pkg, arm64
# (default: build check vm).  A name NAME:ARCH is a package of another architecture
# (multiarch): that architecture is added (dpkg --add-architecture) before apt-get update.
set -uo pipefail

declare -A grp=(
	[build]="gcc make autoconf automake pkg-config libibverbs-dev librdmacm-dev libnuma-dev"
	[check]="valgrind python3 clang libclang-rt-14-dev cppcheck prometheus libamdhip64-5 libfabric-dev libfabric-bin infiniband-diags ibsim-utils"
	[vm]="qemu-system-x86 linux-image-amd64 busybox-static rdma-core ibverbs-providers ibverbs-utils rdmacm-utils perftest iproute2 kmod cpio xz-utils"
	[plot]="python3 python3-matplotlib"
	[cluster]="openmpi-bin libopenmpi-dev slurm-wlm slurmctld slurmd munge libpmix-dev iproute2 bc"
	[report]="python3 python3-matplotlib chromium"
	[pkg]="debhelper lintian rpm cpio python3 python3-yaml python3-jsonschema python3-matplotlib mpi-default-dev"
	[arm64]="crossbuild-essential-arm64 libibverbs-dev:arm64 librdmacm-dev:arm64 libnuma-dev:arm64 ibverbs-providers:arm64 qemu-user-static"
)

gdr_deps()
{
	local g p want= missing=
	for g in "${@:-build check vm}"; do
		for g2 in $g; do
			[[ -n ${grp[$g2]:-} ]] || {
				echo "deps: error: unknown group '$g2' (build, check, vm, plot, cluster, report, pkg, arm64)" >&2
				return 1
			}
			want="$want ${grp[$g2]}"
		done
	done
	if ! command -v dpkg-query >/dev/null; then
		echo "deps: not a Debian-like system: install by hand:$want" >&2
		return 0
	fi
	for p in $want; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
			missing="$missing $p"
	done
	[[ -z $missing ]] && {
		echo "deps: all present"
		return 0
	}
	if [[ $(id -u) -ne 0 ]]; then
		echo "deps: error: missing packages:$missing; install them as root (apt-get install$missing)" >&2
		return 1
	fi
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086 # a list of names
	gdr_deps_arches $missing || return 1
	apt-get update -q || {
		echo "deps: error: apt-get update failed" >&2
		return 1
	}
	# drop names this release does not have (e.g. libclang-rt-14-dev outside Debian 12)
	local have=
	for p in $missing; do
		if apt-cache show "$p" >/dev/null 2>&1; then have="$have $p"; else echo "deps: warning: no package '$p' here; skipped" >&2; fi
	done
	[[ -z $have ]] && return 0
	apt-get install -y -q --no-install-recommends $have || {
		echo "deps: error: apt-get install failed for:$have" >&2
		return 1
	}
}

# gdr_deps_arches PKG...: add the foreign architectures that names PKG:ARCH need
gdr_deps_arches()
{
	local p a have
	have=" $(dpkg --print-architecture) $(dpkg --print-foreign-architectures | tr '\n' ' ') "
	for p in "$@"; do
		[[ $p == *:* ]] || continue
		a=${p##*:}
		[[ $have == *" $a "* ]] && continue
		echo "deps: adding architecture $a (dpkg --add-architecture $a)"
		dpkg --add-architecture "$a" || {
			echo "deps: error: dpkg --add-architecture $a failed" >&2
			return 1
		}
		have="$have$a "
	done
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	gdr_deps "$@"
fi
