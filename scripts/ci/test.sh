#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/test.sh - the whole gdrperf test run (what CI runs: .ci/run).
#
#   deps        install missing Debian packages (scripts/ci/deps.sh; nothing when all present)
#   autogen     ./autogen.sh when configure is missing or older than configure.ac
#   build       configure --enable-werror in BUILD/werror, make
#   check       make check there (unit tests)
#   sanitizers  configure --enable-sanitizers in BUILD/san, make check (ASan + UBSan)
#   valgrind    the unit-test programs (check_PROGRAMS) of BUILD/werror under valgrind, the
#               transport tests with arguments of their own (vg_xport below)
#   fuzz        tests/fuzz/run.sh (short libFuzzer run), when present
#   report      tests/report/browser.sh: a cluster report page (scripts/tools/report.py) in headless
#               Chromium, the screenshot must show its heatmap
#   static      scripts/ci/static.sh: cppcheck and gcc -fanalyzer on src/ (BUILD/analyzer)
#   arm64       tests/cross/check.sh: aarch64 cross build in BUILD/arm64 (--enable-werror, CUDA
#               on; packages: scripts/ci/deps.sh arm64), its make check under qemu-aarch64-static
#   distcheck   make distcheck in BUILD/werror
#   package     scripts/ci/pkg-build.sh: the .deb (dpkg-buildpackage, lintian) and the .rpm (rpmbuild)
#               from make dist's tarball, in BUILD/pkg, each unpacked and run (scripts/ci/pkg-check.sh:
#               the tools on real CSVs, cluster mode linked)
#   deploy      tests/deploy/check.sh: Kubernetes manifests against tests/deploy/k8s-schema.json,
#               every gdr_* command line in them against the built program, the Containerfile
#   e2e         tests/e2e/run.sh with the BUILD/werror binaries: cases.tab, gpu.tab (GPU memory with
#               the CUDA driver double) and the peer faults, E2E_JOBS table cases at once, on this
#               host when ibv_devices lists a device, else in one boot of the Soft-RoCE VM
#               (scripts/ci/rxe-vm.sh)
#   cluster     tests/cluster/vm1.sh (--cluster under mpirun and a single-host Slurm, 4
#               ranks; 12 ranks over an emulated leaf-spine fabric, tests/cluster/fabemu.sh)
#               and tests/cluster/vm2.sh (two VMs as two Slurm nodes), likewise
#   hostile     tests/hostile/run.sh: hostile peers against the BUILD/san (sanitizer)
#               binaries, likewise in its own boot
#
# Prints one line per step and a summary; exits 1 when any step failed.
# Environment:
#   GDR_BUILD_ROOT  folder for the build folders and logs (default: <repo>/build)
#   TEST_SKIP       steps to leave out, e.g. "distcheck e2e" (reported as SKIPPED)
#   TEST_JOBS       make -j (default: number of CPUs)
#   FUZZ_SECONDS    fuzz run length (20)
#   E2E_FILTER      regex selecting e2e cases (all)
#   E2E_JOBS        e2e table cases run at once (1; with more, those that check a figure still run alone)
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
root=${GDR_BUILD_ROOT:-$src/build}
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
logs=$root/logs
mkdir -p "$logs" || exit 1
root=$(cd "$root" && pwd)
declare -a names=() results=() secs=()
failed=0
t_all=$SECONDS

# step NAME CMD...: run CMD with its output in logs/NAME.log; record the outcome.
step()
{
	local name=$1 t0=$SECONDS rc
	shift
	if [[ " ${TEST_SKIP:-} " == *" $name "* ]]; then
		record "$name" SKIPPED 0
		return 0
	fi
	echo "== $name: $*"
	"$@" >"$logs/$name.log" 2>&1
	rc=$?
	if [[ $rc -eq 0 ]]; then
		record "$name" ok $((SECONDS - t0))
	else
		echo "-- $name failed (exit $rc); last lines of $logs/$name.log:"
		tail -n 40 "$logs/$name.log" | sed 's/^/   | /'
		record "$name" FAILED $((SECONDS - t0))
		failed=1
	fi
	return $rc
}
record()
{
	names+=("$1")
	results+=("$2")
	secs+=("$3")
	printf '== %-11s %-7s %4ss\n' "$1" "$2" "$3"
}
# blocked NAME WHY: a step that cannot run because an earlier one failed
blocked()
{
	names+=("$1")
	results+=("NOT RUN")
	secs+=(0)
	echo "== $1 not run: $2"
	failed=1
}

do_autogen()
{
	cd "$src" || return 1
	if [[ ! -x configure || configure.ac -nt configure ]]; then
		./autogen.sh
	else
		echo "configure is up to date; autogen.sh not needed"
	fi
}
do_configure()
{
	local dir=$1
	shift
	mkdir -p "$dir" && cd "$dir" && "$src/configure" "$@"
}
do_make()
{
	cd "$1" && shift && make -j"$jobs" "$@"
}
# The transport tests run with arguments of their own (docs/testing.md, "valgrind"): t_ofi over
# tcp;ofi_rxm only (shm runs the same src/transport/ofi code and waits on libfabric under
# valgrind), t_xport over loop (the harness; its ofi rows are t_ofi's code again).
vg_xport=("tests/xport/t_ofi tcp;ofi_rxm" "tests/xport/t_xport loop")
do_valgrind()
{
	local b=$1 progs rc x
	local vg=(--quiet --error-exitcode=99 --leak-check=full '--show-leak-kinds=definite,indirect'
		'--errors-for-leak-kinds=definite,indirect' --track-origins=yes)
	cd "$b" || return 1
	# programs that are tests (helpers such as a reference copier are left out), less
	# those of vg_xport
	progs=$(make -s print-check-programs | awk 'NR == 1 { for (i = 1; i <= NF; i++) p[$i] = 1 }
		NR == 2 { for (i = 1; i <= NF; i++) if ($i in p && $i != "tests/xport/t_ofi") printf "%s ", $i }') || return 1
	[[ -n $progs ]] || {
		echo "no check_PROGRAMS to run"
		return 1
	}
	echo "programs: $progs"
	make -j"$jobs" check TESTS="$progs" TEST_SUITE_LOG=valgrind-suite.log \
		LOG_COMPILER=valgrind LOG_FLAGS="${vg[*]}"
	rc=$?
	[[ $rc -ne 0 ]] && cat valgrind-suite.log
	for x in "${vg_xport[@]}"; do
		set -- "${x%% *}" "${x#* }" # a program and its one argument
		if [[ ! -x $1 ]]; then
			echo "SKIP: $x (valgrind): $1 not built"
			continue
		fi
		valgrind "${vg[@]}" "$@" >"valgrind-${1##*/}.log" 2>&1
		case $? in
		0) echo "PASS: $x (valgrind)" ;;
		77) echo "SKIP: $x (valgrind): $(tail -1 "valgrind-${1##*/}.log")" ;;
		*)
			echo "FAIL: $x (valgrind)"
			cat "valgrind-${1##*/}.log"
			rc=1
			;;
		esac
	done
	return $rc
}
do_arm64()
{
	gdr_deps arm64 && bash "$src/tests/cross/check.sh" "$root/arm64" "$jobs"
}
do_fuzz()
{
	mkdir -p "$root/fuzz" && cd "$root/fuzz" && bash "$src/tests/fuzz/run.sh" "${FUZZ_SECONDS:-20}"
}
# do_e2e BUILD OUTNAME TABS FAULTS: the cases of TABS (tests/e2e/*.tab), and the peer-fault
# cases when FAULTS is 1, in one boot of the VM (or on this host's device)
do_e2e()
{
	local b=$1 o=$root/$2 dev
	export E2E_TABS=$3 E2E_FAULTS=$4 E2E_JOBS=${E2E_JOBS:-1}
	dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
	if [[ -n $dev ]]; then
		local nd addr=${E2E_ADDR:-}
		if [[ -z $addr ]]; then
			nd=$(rdma link show 2>/dev/null | awk -v d="$dev" '$2 ~ "^"d"/" { for (i = 1; i < NF; i++) if ($i == "netdev") { print $(i + 1); exit } }')
			addr=$(ip -4 -o addr show dev "${nd:-none}" 2>/dev/null | awk '{ sub("/.*", "", $4); print $4; exit }')
		fi
		[[ -n $addr ]] || {
			echo "RDMA device $dev here but no IPv4 address found for it: set E2E_ADDR (and E2E_DEV)"
			return 1
		}
		echo "RDMA device $dev ($addr) on this host: running the suite here"
		E2E_BIN=$b E2E_DEV=${E2E_DEV:-$dev} E2E_ADDR=$addr E2E_OUT=$o \
			bash "$src/tests/e2e/run.sh" "${E2E_FILTER:-.}"
	else
		echo "no RDMA device on this host: running the suite in the Soft-RoCE VM"
		rm -rf "$o"
		E2E_BIN=$b E2E_FILTER=${E2E_FILTER:-.} \
			RXE_VM_ENV="E2E_BIN E2E_FILTER E2E_TABS E2E_FAULTS E2E_JOBS" \
			RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-3600} \
			bash "$src/scripts/ci/rxe-vm.sh" "$src/tests/e2e/run.sh" "$o"
	fi
}

# Cluster mode (--cluster): 4 ranks on one device under mpirun, here when there is one.
# Else in the Soft-RoCE VM: one boot for mpirun, the emulated leaf-spine fabric (its slowed
# cable named) and a single-host Slurm (tests/cluster/vm1.sh), then two VMs joined as two
# Slurm nodes (tests/cluster/vm2.sh).
do_cluster()
{
	local b=$1 dev rc=0
	dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
	rm -rf "$root/cluster-out"
	if [[ -n $dev ]]; then
		CL_BIN=$b CL_DEV=${CL_DEV:-$dev} CL_OUT=$root/cluster-out bash "$src/tests/cluster/vm-mpi.sh"
		return
	fi
	CL_BIN=$b RXE_VM_ENV="CL_BIN FE_SEED" RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-2700} \
		bash "$src/scripts/ci/rxe-vm.sh" "$src/tests/cluster/vm1.sh" "$root/cluster-out" || rc=1
	CL_BIN=$b bash "$src/tests/cluster/vm2.sh" "$root/cluster-out" || rc=1
	return $rc
}

# Hostile peers (tests/hostile/peer.py) against the sanitizer build: on this host's
# device when there is one (E2E_DEV and E2E_ADDR name it), else in its own boot of the VM.
do_hostile()
{
	local b=$1 o=$root/hostile-out dev
	dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
	rm -rf "$o"
	if [[ -n $dev ]]; then
		HOSTILE_BIN=$b HOSTILE_DEV=${E2E_DEV:-$dev} HOSTILE_ADDR=${E2E_ADDR:?set E2E_ADDR: the address of $dev} \
			HOSTILE_OUT=$o bash "$src/tests/hostile/run.sh"
	else
		HOSTILE_BIN=$b RXE_VM_ENV="HOSTILE_BIN HOSTILE_FILTER" RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-900} \
			bash "$src/scripts/ci/rxe-vm.sh" "$src/tests/hostile/run.sh" "$o"
	fi
}

echo "gdrperf test run: source $src, builds in $root, make -j$jobs, $(date -u +%FT%TZ), $(uname -n)"
# shellcheck source=scripts/ci/deps.sh
source "$src/scripts/ci/deps.sh"
step deps gdr_deps build check vm cluster report pkg
step autogen do_autogen
W=$root/werror
S=$root/san
built=0
san_built=0
step configure do_configure "$W" --enable-werror && step build do_make "$W" && built=1
if [[ $built == 1 ]]; then step check do_make "$W" check; else blocked check "the build failed"; fi
if step san-configure do_configure "$S" --enable-sanitizers; then
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
		LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$src/scripts/ci/lsan-mpi.supp} \
		UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		step sanitizers do_make "$S" check && san_built=1
else
	blocked sanitizers "configure failed"
fi
if [[ $built == 1 ]]; then step valgrind do_valgrind "$W"; else blocked valgrind "the build failed"; fi
if [[ -f $src/tests/fuzz/run.sh ]]; then
	step fuzz do_fuzz
else
	record fuzz "ABSENT" 0 # tests/fuzz/run.sh not in this tree
fi
step report bash "$src/tests/report/browser.sh" "$root/report-browser"
step static "$src/scripts/ci/static.sh" "$root/analyzer"
step arm64 do_arm64
if [[ $built == 1 ]]; then
	step distcheck do_make "$W" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror
	step package bash "$src/scripts/ci/pkg-build.sh" "$W" "$root/pkg"
	step deploy bash "$src/tests/deploy/check.sh" "$W"
	step e2e do_e2e "$W" e2e-out "cases.tab gpu.tab" 1
	step cluster do_cluster "$W"
else
	blocked distcheck "the build failed"
	blocked package "the build failed"
	blocked deploy "the build failed"
	blocked e2e "the build failed"
	blocked cluster "the build failed"
fi
if [[ $san_built == 1 ]]; then
	step hostile do_hostile "$S"
else
	blocked hostile "the sanitizer build or its unit tests failed"
fi

echo
echo "== summary ($((SECONDS - t_all)) s; logs in $logs)"
for i in "${!names[@]}"; do
	printf '   %-13s %-8s %4ss\n' "${names[$i]}" "${results[$i]}" "${secs[$i]}"
done
if [[ $failed -ne 0 ]]; then
	echo "== FAILED"
	exit 1
fi
echo "== all steps passed"
