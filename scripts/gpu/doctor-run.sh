#!/bin/bash
# How results/h100-doctor-*.txt were made: run on the H100 machine from the
# repository root, with the librdmacm-dev .deb in .carry/ and $OUT a folder.
# Builds gdr_doctor (by hand if the whole tree does not build), runs its tests
# and gdr_doctor itself (text and --json), next to nvidia-smi's own view.
set -u
src=$PWD b=/tmp/b-h4 o=${OUT:-/tmp/out} d=$(date -u +%F)
mkdir -p "$o" "$b"
R=$o/h100-doctor-$d.txt
hdr() {
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs; user $(id -un)"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# command: $1"
}
. scripts/gpu/env.sh
{
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h | tail -7
	make -j16 gdr_doctor tests/doctor/t_topo tests/doctor/t_acs >make.out 2>&1
	st=$?
	grep -E 'warning|error' make.out | head -20
	if [ $st -ne 0 ]; then
		echo "make gdr_doctor failed (others' files); building gdr_doctor by hand"
		[ -f config.h ] || printf '%s\n' '#define PACKAGE_NAME "gdrperf"' \
			'#define PACKAGE_VERSION "0.1.0"' '#define HAVE_CUDA 1' \
			'#define HAVE_IBV_REG_DMABUF_MR 1' >config.h
		gcc -std=gnu11 -Wall -Wextra -Wno-unused-parameter -DHAVE_CONFIG_H -I. \
			-I"$src/src/base" -I"$src/src/sysinfo" -I"$src/src/memory" -I/usr/local/cuda/include -I/tmp/rdmacm/usr/include \
			-o gdr_doctor "$src"/src/doctor/*.c "$src"/src/sysinfo/*.c "$src/src/base/log.c" "$src/src/base/dlib.c" \
			"$src/src/memory/cuda_api.c" "$src/src/memory/peermem.c" \
			"$src/src/memory/dmabuf.c" -libverbs -lrdmacm -ldl -lpthread &&
			mkdir -p tests/doctor &&
			gcc -std=gnu11 -o tests/doctor/t_topo "$src/tests/doctor/t_topo.c" \
				"$src/src/sysinfo/topo.c" "$src/src/sysinfo/sysfs.c" &&
			gcc -std=gnu11 -o tests/doctor/t_acs "$src/tests/doctor/t_acs.c" \
				"$src/src/sysinfo/acs.c"
	fi
	ls -l gdr_doctor
} >"$o/h100-doctor-build.log" 2>&1
cd "$b" || exit 1
{
	hdr "gdr_doctor"
	echo
	./gdr_doctor
	echo "# exit status: $?"
	echo
	echo "# command: gdr_doctor --json"
	./gdr_doctor --json
	echo "# exit status: $?"
	echo
	echo "# for comparison: nvidia-smi topo -m; ls /sys/class/infiniband; lsmod | grep -e nvidia -e ib_"
	nvidia-smi topo -m 2>&1
	ls /sys/class/infiniband 2>&1
	lsmod 2>/dev/null | grep -e nvidia -e '^ib_' -e rdma
	echo "# GPU sysfs path:"
	for g in $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader); do
		g=$(echo "$g" | tr A-Z a-z | sed 's/^0000//')
		readlink -f "/sys/bus/pci/devices/$g"
	done
	echo "# unit and fixture tests: t_acs; topo.sh; doctor.sh"
	./tests/doctor/t_acs; echo "exit $?"
	srcdir=$src sh "$src/tests/doctor/topo.sh"; echo "exit $?"
	srcdir=$src sh "$src/tests/doctor/doctor.sh"; echo "exit $?"
} >"$R" 2>&1
cat "$R"
