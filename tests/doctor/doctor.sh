#!/bin/sh
# gdr_doctor over fixture trees (mkfix.sh): verdict of each check and exit status.
src=${srcdir:-.}
doc=./gdr_doctor
dir=tests/doctor/fix-doctor.$$
trap 'rm -rf "$dir"' EXIT
fails=0
runs=0

# run SCENARIO WANT-EXIT CHECK:STATUS...: every CHECK must have a line with STATUS,
# "!CHECK:STATUS" must have none.
run() {
	s=$1 want=$2
	shift 2
	runs=$((runs + 1))
	if ! sh "$src/tests/doctor/mkfix.sh" "$dir/$s" "$s"; then
		echo "FAIL $s: fixture not built"
		fails=$((fails + 1))
		return
	fi
	# shellcheck disable=SC2086 # DOC_ARGS: extra options, split on blanks
	$doc --json --sysfs-root="$dir/$s" --proc-root="$dir/$s" ${DOC_ARGS-} >"$dir/$s.json" 2>"$dir/$s.err"
	got=$?
	# shellcheck disable=SC2086
	$doc --sysfs-root="$dir/$s" --proc-root="$dir/$s" ${DOC_ARGS-} >"$dir/$s.txt" 2>&1
	gott=$?
	if [ "$got" != "$want" ] || [ "$gott" != "$want" ]; then
		echo "FAIL $s: exit $got (json) / $gott (text), want $want"
		fails=$((fails + 1))
		cat "$dir/$s.txt"
	fi
	for c in "$@"; do
		neg=
		case $c in !*) neg=1 c=${c#!} ;; esac
		name=${c%%:*} st=${c#*:}
		if grep -q "\"check\": \"$name\", \"status\": \"$st\"" "$dir/$s.json"; then
			found=1
		else
			found=
		fi
		if [ "$found" = "$neg" ]; then
			echo "FAIL $s: check $name ${neg:+not }expected $st"
			grep "\"$name\"" "$dir/$s.json"
			fails=$((fails + 1))
		fi
	done
	# The text report names the verdict of the exit status.
	case $want in
	0) grep -Eq '^  (OK|WARN) +GPUDirect RDMA should work' "$dir/$s.txt" ;;
	*) grep -q '^  FAIL  GPUDirect RDMA is not ready' "$dir/$s.txt" ;;
	esac || {
		echo "FAIL $s: text verdict line does not match exit $want"
		fails=$((fails + 1))
	}
	# The JSON is well formed, where python3 can tell.
	if command -v python3 >/dev/null 2>&1 &&
		! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/$s.json"; then
		echo "FAIL $s: invalid JSON"
		fails=$((fails + 1))
	fi
}

mkdir -p "$dir"
run good 0 !rdma.present:FAIL rdma.device:OK rdma.port:OK gpu.driver:OK gpu.device:OK \
	peermem.module:OK topo.gpu:OK acs.bridge:OK iommu.mode:OK '!acs.bridge:FAIL'
grep -q 'mlx5_0 PIX' "$dir/good.txt" || { echo "FAIL good: no PIX pair"; fails=$((fails + 1)); }
grep -q 'RoCEv2 IPv4 GID index 3 (10.0.0.1 on eth0)' "$dir/good.txt" ||
	{ echo "FAIL good: RoCE v2 GID not found"; fails=$((fails + 1)); }
grep -q '"gpu_pci": "0000:03:00.0", "rdma_dev": "mlx5_0", "relation": "PIX"' "$dir/good.json" ||
	{ echo "FAIL good: JSON pair missing"; fails=$((fails + 1)); }
[ "$(grep -c '"check": "gpu.device"' "$dir/good.json")" = 1 ] ||
	{ echo "FAIL good: the GPU's audio function counted as a GPU"; fails=$((fails + 1)); }
run good 0 pcie.link:OK pcie.bar1:OK '!pcie.link:WARN'
grep -q 'GPU 0 (0000:03:00.0): Gen4 x16, its maximum' "$dir/good.txt" ||
	{ echo "FAIL good: GPU link not reported"; fails=$((fails + 1)); }
run pcie_narrow 0 pcie.link:WARN pcie.bar1:WARN
grep -q 'trained at x8 of x16' "$dir/pcie_narrow.txt" &&
	grep -q 'mlx5_0 (0000:04:00.0): runs at Gen3 (8 GT/s) of Gen4' "$dir/pcie_narrow.txt" &&
	grep -q 'BAR1 is 256 MiB' "$dir/pcie_narrow.txt" ||
	{ echo "FAIL pcie_narrow: width, speed or BAR1 not reported"; fails=$((fails + 1)); }
run gpu_idle 0 pcie.link:INFO '!pcie.link:WARN'
run gpu_idle_gen4_slot 0 pcie.link:INFO '!pcie.link:WARN'
grep -q "GPU 0 (0000:03:00.0): x16, Gen1 now of Gen4 (its slot's maximum; the device can do Gen5" \
	"$dir/gpu_idle_gen4_slot.txt" || { echo "FAIL gpu_idle_gen4_slot: slot not named"; fails=$((fails + 1)); }
run gpu_gen4_slot 0 pcie.link:OK '!pcie.link:WARN' '!pcie.link:INFO'
grep -q "GPU 0 (0000:03:00.0): Gen4 x16, its slot's maximum; the device can do Gen5" \
	"$dir/gpu_gen4_slot.txt" || { echo "FAIL gpu_gen4_slot: slot not named"; fails=$((fails + 1)); }
run gpu_stuck 0 pcie.link:WARN
grep -q 'GPU 0 (0000:03:00.0): runs at Gen4 (16 GT/s) of Gen5 (32 GT/s, its maximum), x16: not the idle Gen1' \
	"$dir/gpu_stuck.txt" || { echo "FAIL gpu_stuck: loaded GPU below its link not warned"; fails=$((fails + 1)); }
run good 0 kmsg.oops:OK kmsg.xid:OK
run kmsg_bad 0 kmsg.oops:WARN kmsg.xid:WARN
grep -q 'last Xid 79 (GPU has fallen off the bus' "$dir/kmsg_bad.txt" &&
	grep -q '2 Oops/BUG reports since boot; last: Oops: 0000' "$dir/kmsg_bad.txt" ||
	{ echo "FAIL kmsg_bad: Xid or Oops not reported"; fails=$((fails + 1)); }
run kmsg_none 0 kmsg.read:INFO '!kmsg.oops:OK'
run good 0 '!rdma.pci:WARN'
run nic_unbound 0 rdma.pci:WARN
grep -q 'NIC PCI function 0000:04:00.1 has no kernel driver bound' "$dir/nic_unbound.txt" &&
	grep -q 'NIC PCI function 0000:04:00.2 is bound to mlx5_core but has no RDMA device' \
		"$dir/nic_unbound.txt" ||
	{ echo "FAIL nic_unbound: unbound or RDMA-less function not reported"; fails=$((fails + 1)); }
run acs_on 1 acs.bridge:FAIL topo.gpu:OK
grep -q 'bridge 0000:02:10.0 .*ACS SrcValid ReqRedir CmpltRedir' "$dir/acs_on.txt" ||
	{ echo "FAIL acs_on: flags not named"; fails=$((fails + 1)); }
run acs_unreadable 0 acs.unreadable:WARN '!acs.bridge:FAIL'
run pxb_acs_on 1 acs.bridge:FAIL topo.gpu:OK
grep -q 'bridge 0000:06:00.0 .*ACS ReqRedir:' "$dir/pxb_acs_on.txt" &&
	grep -q 'mlx5_0 PXB' "$dir/pxb_acs_on.txt" ||
	{ echo "FAIL pxb_acs_on: PXB or ACS bridge 06:00.0 not reported"; fails=$((fails + 1)); }
run phb 0 topo.gpu:OK acs.bridges:INFO '!acs.bridge:FAIL'
grep -q 'mlx5_1 PHB' "$dir/phb.txt" || { echo "FAIL phb: no PHB"; fails=$((fails + 1)); }
run node 0 topo.gpu:WARN
grep -q 'mlx5_1 NODE' "$dir/node.txt" || { echo "FAIL node: no NODE"; fails=$((fails + 1)); }
run sys 0 topo.gpu:WARN
grep -q 'mlx5_1 SYS' "$dir/sys.txt" || { echo "FAIL sys: no SYS"; fails=$((fails + 1)); }
run iommu_dma 1 iommu.mode:FAIL
run iommu_pt 0 iommu.mode:OK
run iommu_cmdline_on 1 iommu.mode:FAIL
run iommu_cmdline_pt 0 iommu.mode:OK
run no_peermem 1 peermem.module:FAIL
run nv_peer_mem 0 peermem.module:OK
run nv_mem_peer_client 0 peermem.module:OK
grep -q 'nv_peer_mem is loaded' "$dir/nv_mem_peer_client.txt" ||
	{ echo "FAIL nv_mem_peer_client: nv_peer_mem not named"; fails=$((fails + 1)); }
grep -q 'legacy nv_peer_mem' "$dir/no_peermem.txt" ||
	{ echo "FAIL no_peermem: legacy nv_peer_mem not named"; fails=$((fails + 1)); }
run no_rdma 1 rdma.present:FAIL gpu.device:OK topo.pairs:INFO
run no_gpu 1 gpu.present:FAIL rdma.port:OK topo.pairs:INFO acs.bridges:INFO
grep -q 'INFO  GPU-NIC pairs skipped: no NVIDIA GPU on the PCI bus (1 hardware RDMA device(s) found): no bridge to check' "$dir/no_gpu.txt" &&
	! grep -q 'shares a PCIe switch' "$dir/no_gpu.txt" ||
	{ echo "FAIL no_gpu: the ACS check does not say what it checked"; fails=$((fails + 1)); }

# Eight GPUs, one NIC each below its own switch (PIX), four per NUMA node: every GPU with
# its PCIe path, the GPU-GPU matrix in nvidia-smi words from sysfs (no CUDA with a fixture).
run hgx8 0 topo.gpulinks:INFO topo.gpu:OK !topo.gpu:WARN !topo.gpupeers:OK
[ "$(grep -c 'OK    GPU [0-7]: .*NUMA node [01], PCIe path root 0000:[0-9a-f]* > ' "$dir/hgx8.txt")" = 8 ] ||
	{ echo "FAIL hgx8: not every GPU with its NUMA node and PCIe path"; fails=$((fails + 1)); }
grep -q '^  INFO  GPU0   X     NODE  NODE  NODE  SYS   SYS   SYS   SYS$' "$dir/hgx8.txt" &&
	grep -q '^  INFO  GPU7   SYS   SYS   SYS   SYS   NODE  NODE  NODE  X$' "$dir/hgx8.txt" &&
	grep -q 'NV = NVLink (not known: CUDA was not asked)' "$dir/hgx8.txt" ||
	{ echo "FAIL hgx8: GPU-GPU matrix"; fails=$((fails + 1)); }
[ "$(grep -c '"link": "SYS"' "$dir/hgx8.json")" = 32 ] && [ "$(grep -c '"link": "NODE"' "$dir/hgx8.json")" = 24 ] ||
	{ echo "FAIL hgx8: JSON gpu_links"; fails=$((fails + 1)); }
[ "$(grep -c 'PIX, good' "$dir/hgx8.txt")" = 8 ] || { echo "FAIL hgx8: GPU-NIC pairs"; fails=$((fails + 1)); }
# no NIC: the GPUs and their links, no GPU-NIC pair and no word about a shared switch
run hgx8_nonic 1 topo.gpulinks:INFO topo.pairs:INFO !topo.gpu:OK
grep -q 'INFO  GPU-NIC pairs skipped: 8 GPU(s) but no hardware RDMA device$' "$dir/hgx8_nonic.txt" &&
	! grep -q 'shares a PCIe switch' "$dir/hgx8_nonic.txt" ||
	{ echo "FAIL hgx8_nonic: what was checked"; fails=$((fails + 1)); }
grep -q 'NVIDIA driver 580.159.04 loaded' "$dir/good.txt" ||
	{ echo "FAIL good: driver version"; fails=$((fails + 1)); }
run open_driver 0 gpu.driver:OK
grep -q 'NVIDIA driver 580.159.04 (open kernel module) loaded' "$dir/open_driver.txt" ||
	{ echo "FAIL open_driver: version not parsed"; fails=$((fails + 1)); }
run no_driver 1 gpu.driver:FAIL
run gpu_vfio 1 gpu.device:FAIL
run port_down 1 rdma.port:FAIL rdma.usable:FAIL
run ib_init 1 rdma.port:FAIL rdma.usable:FAIL
grep -q 'subnet manager' "$dir/ib_init.txt" || { echo "FAIL ib_init: no SM hint"; fails=$((fails + 1)); }
run no_ipv4_gid 0 rdma.port:WARN
run rxe_only 1 rdma.device:WARN rdma.usable:FAIL

# A dead rail on an 8-NIC node is a FAIL for acceptance (exit 1), with the option that
# declares a port unused; declared (option or environment), the node passes and the
# ports are listed as not judged; a declared device that does not exist is a WARN.
run hgx8_port_down 1 rdma.port:FAIL '!rdma.usable:FAIL'
grep -q 'FAIL  mlx5_3 port 1: DOWN' "$dir/hgx8_port_down.txt" &&
	grep -q 'FAIL  mlx5_0 port 2: DOWN' "$dir/hgx8_port_down.txt" &&
	grep -q -- '--ignore-port=mlx5_3:1' "$dir/hgx8_port_down.txt" ||
	{ echo "FAIL hgx8_port_down: dead rails not named with the way out"; fails=$((fails + 1)); }
DOC_ARGS="--ignore-port=mlx5_3:1,mlx5_0:2" run hgx8_port_down 0 rdma.port:INFO '!rdma.port:FAIL'
grep -q 'INFO  mlx5_3 port 1: DOWN, .*declared unused (--ignore-port): not judged' \
	"$dir/hgx8_port_down.txt" ||
	{ echo "FAIL hgx8_port_down: ignored port not listed"; fails=$((fails + 1)); }
GDR_DOCTOR_IGNORE_PORTS=mlx5_3 DOC_ARGS="--ignore-port=mlx5_0:2" run hgx8_port_down 0 \
	'!rdma.port:FAIL'
DOC_ARGS="--ignore-port=mlx5_3:1" run hgx8_port_down 1 rdma.port:FAIL
DOC_ARGS="--ignore-port=mlx5_33:1,mlx5_0:2,mlx5_3:1" run hgx8_port_down 0 rdma.ignore:WARN
grep -q 'ignore-port: mlx5_33:1 names no RDMA device' "$dir/hgx8_port_down.txt" ||
	{ echo "FAIL hgx8_port_down: unknown device not warned"; fails=$((fails + 1)); }

# AMD nodes (issue 38): eight MI300X with a NIC each below one switch, found by PCI vendor
# 0x1002 and class without ROCm; amdgpu, /dev/kfd, amdgpu_peermem or dma-buf, large BAR.
amd() { # SCENARIO PATTERN WHAT: a line of the text report
	grep -q "$2" "$dir/$1.txt" || { echo "FAIL $1: $3"; fails=$((fails + 1)); }
}
run mi300x 0 gpu.driver:OK gpu.kfd:OK gpu.device:OK peermem.module:OK peermem.dmabuf:OK \
	topo.gpu:OK pcie.bar:OK iommu.mode:OK acs.bridge:OK '!gpu.present:FAIL' '!topo.gpu:WARN' \
	'!pcie.bar1:OK'
[ "$(grep -c 'OK    GPU [0-7]: AMD Instinct MI300X (0x74a1) at PCI .*driver amdgpu, NUMA node [01], PCIe path root ' "$dir/mi300x.txt")" = 8 ] ||
	{ echo "FAIL mi300x: not every MI300X with its PCIe path"; fails=$((fails + 1)); }
for pr in '0 0c mlx5_0' '3 5c mlx5_3' '4 9f mlx5_4' '7 df mlx5_7'; do
	set -- $pr
	amd mi300x "GPU $1 (0000:$2:00.0): .*best $3 PIX" "GPU $1 not paired with $3 PIX"
done
amd mi300x 'amdgpu 6.10.5 loaded' 'amdgpu version'
amd mi300x 'large BAR: BAR0 262144 MiB covers all 196608 MiB of VRAM' 'large BAR'
amd mi300x 'amdgpu_peermem is loaded' 'amdgpu_peermem'
amd mi300x 'best pair: GPU 0 (0000:0c:00.0) with mlx5_0 (PIX): e.g. gdr_write_bw -d mlx5_0 --use_rocm=0000:0c:00.0$' 'best pair'
[ "$(grep -c '"gpu_pci": "0000:[0-9a-f]*:00.0", "rdma_dev": "mlx5_[0-7]", "relation": "PIX"' "$dir/mi300x.json")" = 8 ] ||
	{ echo "FAIL mi300x: JSON PIX pairs"; fails=$((fails + 1)); }
run mi300x_bnxt 0 topo.gpu:OK '!topo.gpu:WARN' rdma.device:OK
amd mi300x_bnxt 'GPU 5 (0000:af:00.0): .*best bnxt_re5 PIX' 'Thor2 NIC not paired'
amd mi300x_bnxt 'bnxt_re5: PCI 0000:b0:00.0, driver bnxt_en' 'Thor2 NIC driver'
run mi300x_ionic 0 topo.gpu:OK '!topo.gpu:WARN' rdma.device:OK
amd mi300x_ionic 'GPU 2 (0000:38:00.0): .*best ionic_2 PIX' 'Pollara NIC not paired'
run mi300x_nokfd 1 gpu.driver:FAIL gpu.kfd:FAIL
amd mi300x_nokfd 'amdgpu not loaded' 'no driver'
run mi300x_smallbar 1 pcie.bar:FAIL pcie.bar:OK
amd mi300x_smallbar 'GPU 2 (0000:38:00.0): small BAR: BAR0 256 MiB of 196608 MiB VRAM' 'small BAR'
run mi300x_dmabuf_only 0 peermem.module:WARN peermem.dmabuf:OK gpu.driver:OK
amd mi300x_dmabuf_only 'amdgpu loaded (the kernel.s own' 'in-tree amdgpu'
amd mi300x_dmabuf_only 'ibv_reg_mr on VRAM fails with EINVAL; dma-buf can register it' 'dma-buf fallback'
run mi300x_nopeer 1 peermem.module:FAIL peermem.dmabuf:WARN
amd mi300x_nopeer 'built without CONFIG_DMABUF_MOVE_NOTIFY' 'kernel config named'
# The kernel config where perftest and the distributions leave it, then /proc/kallsyms
run mi300x_modconf 0 peermem.dmabuf:OK
amd mi300x_modconf 'CONFIG_DMABUF_MOVE_NOTIFY (/lib/modules/6.8.0-45-generic/config)' 'config in /lib/modules'
if command -v gzip >/dev/null; then
	run mi300x_configgz 0 peermem.dmabuf:OK
	amd mi300x_configgz 'CONFIG_DMABUF_MOVE_NOTIFY (/proc/config.gz)' '/proc/config.gz'
else
	echo "SKIP: /proc/config.gz: no gzip"
fi
run mi300x_container 0 peermem.dmabuf:INFO peermem.module:WARN '!peermem.dmabuf:WARN'
amd mi300x_container 'dma-buf registration of VRAM is likely: Linux 6.8.0-45-generic with CONFIG_PCI_P2PDMA (/proc/kallsyms has pci_p2pdma_distance_many)' 'kallsyms in a container'
amd mi300x_container 'dma-buf is likely to register VRAM' 'module line in a container'
run mi300x_container_nop2p 1 peermem.dmabuf:WARN peermem.module:FAIL
amd mi300x_container_nop2p 'built without CONFIG_PCI_P2PDMA (/proc/kallsyms has no pci_p2pdma_distance_many)' 'kallsyms without P2PDMA'
run mi300x_vfio 1 gpu.device:FAIL
amd mi300x_vfio 'FAIL  GPU 3: .*driver vfio-pci' 'GPU on vfio-pci'
run mi300x_iommu_dma 1 iommu.mode:FAIL
# The HIP runtime asked (GDR_LIBHIP): the double with HIP's order not PCI's, then one GPU
# hidden; the real runtime of this host, where there is no AMD GPU (skipped without it).
export GDR_LIBHIP=$PWD/tests/hip_double/libamdhip64.so.6 GDR_HIP_DOUBLE_DEVICES=8 \
	GDR_HIP_DOUBLE_FIXTURE=$src/tests/hip_double/mi300x-swapped.fixture
run mi300x 0 gpu.rocm:OK '!gpu.rocm:WARN'
amd mi300x 'OK    HIP 6.4 sees all 8 AMD GPU(s); GPU numbers below are HIP.s' 'HIP asked'
amd mi300x 'OK    GPU 0: AMD Instinct MI300X (0x74a1) at PCI 0000:9f:00.0' 'HIP index 0'
amd mi300x 'OK    GPU 7: AMD Instinct MI300X (0x74a1) at PCI 0000:5c:00.0' 'HIP index 7'
amd mi300x 'best pair: GPU 4 (0000:0c:00.0) with mlx5_0 (PIX): .*--use_rocm=0000:0c:00.0$' 'best pair in HIP numbers'
export GDR_HIP_DOUBLE_DEVICES=7
run mi300x 0 gpu.rocm:WARN
amd mi300x 'HIP 6.4 sees 7 of the 8 AMD GPU(s) on the PCI bus' 'GPUs hidden from ROCm'
amd mi300x 'GPU 3 (hidden from ROCm): AMD Instinct MI300X (0x74a1) at PCI 0000:5c:00.0' 'the hidden GPU (its PCI-order number, as for CUDA)'
# (the library of this build's architecture: an aarch64 build under qemu cannot load x86-64's)
if [ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 ] &&
	! GDR_LIBHIP=libamdhip64.so.5 ./tests/hip/hip_load 2>&1 | grep -q 'not found'; then
	export GDR_LIBHIP=libamdhip64.so.5
	run mi300x 0 gpu.rocm:WARN
	amd mi300x 'ROCm checks not possible: libamdhip64.so.5 (HIP [0-9][0-9.]*): hipGetDeviceCount: hipErrorNoDevice (100' 'the real runtime, no device'
else
	echo "SKIP: the real HIP runtime check: no libamdhip64.so.5 (apt-get install libamdhip64-5)"
fi
unset GDR_LIBHIP GDR_HIP_DOUBLE_DEVICES GDR_HIP_DOUBLE_FIXTURE
run mi300x 0 gpu.rocm:INFO
run mi300x_nore 1 rdma.pci:WARN rdma.present:FAIL
[ "$(grep -c 'NIC PCI function 0000:[0-9a-f]*:00.0 is bound to bnxt_en but has no RDMA device (bnxt_re not loaded?)' "$dir/mi300x_nore.txt")" = 8 ] &&
	grep -q 'modprobe bnxt_re' "$dir/mi300x_nore.txt" && ! grep -q 'c1:00.0' "$dir/mi300x_nore.txt" ||
	{ echo "FAIL mi300x_nore: Thor2 functions without bnxt_re (and not the tg3 port)"; fails=$((fails + 1)); }
run mi300x_ionic_nordma 0 rdma.pci:WARN
amd mi300x_ionic_nordma 'NIC PCI function 0000:c0:00.0 is bound to ionic but has no RDMA device (ionic_rdma not loaded' 'Pollara without ionic_rdma'

# Usage errors exit 3 (base/exitcode.h) with one line on stderr and nothing on stdout, as
# every program's.
usage() {
	want=$1
	shift
	$doc "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
	[ $rc = 3 ] && [ "$(wc -l <"$dir/err")" = 1 ] && [ ! -s "$dir/out" ] &&
		grep -q "^gdr_doctor: error: .*$want" "$dir/err" ||
		{ echo "FAIL: gdr_doctor $*: exit $rc, '$(cat "$dir/err")'"; fails=$((fails + 1)); }
}
# C2C pairing: a GB200 tray pairs each GPU with its NUMA node's NIC of the same rail order,
# without calling NODE/SYS slow; the same PCIe layout on another CPU keeps the warning; an
# HGX H100 node (PIX pairs) never takes the C2C rule
run gb200 0 topo.rule:INFO topo.gpu:OK '!topo.gpu:WARN'
for pr in '0 0008:01:00.0 mlx5_0 NODE' '1 0009:01:00.0 mlx5_1 NODE' '2 0018:01:00.0 mlx5_2 NODE' \
	'3 0019:01:00.0 mlx5_3 NODE'; do
	set -- $pr
	grep -q "GPU $1 ($2): .*paired with $3 ($4) by NUMA node" "$dir/gb200.txt" ||
		{ echo "FAIL gb200: GPU $1 not paired with $3"; fails=$((fails + 1)); }
done
grep -q 'best pair: GPU 0 (0008:01:00.0) with mlx5_0' "$dir/gb200.txt" ||
	{ echo "FAIL gb200: best pair"; fails=$((fails + 1)); }
run gb200_x86 0 topo.gpu:WARN '!topo.rule:INFO'
run hgx8 0 topo.gpu:OK '!topo.rule:INFO' '!topo.gpu:WARN'
grep -q 'GPU 1 (0000:2a:00.0): .*best mlx5_1 PIX' "$dir/hgx8.txt" ||
	{ echo "FAIL hgx8: GPU 1 not paired with mlx5_1 PIX"; fails=$((fails + 1)); }

usage "--sysfs-root=$dir/missing: not a directory" --sysfs-root="$dir/missing"
usage "unknown option '--bogus'" --bogus
usage "unexpected argument 'extra'" extra
usage "--ignore-port: 'mlx5_0:x' is not DEV or DEV:PORT" --ignore-port=mlx5_0:x
usage "--ignore-port: 'mlx5_0:' is not DEV or DEV:PORT" --ignore-port=mlx5_0:
usage "--ignore-port: 'mlx5_0,' ends with a comma" --ignore-port=mlx5_0,
GDR_DOCTOR_IGNORE_PORTS=a:0 usage "GDR_DOCTOR_IGNORE_PORTS: 'a:0' is not DEV"
# an output file that cannot be written: exit 2 (could not run), one line, no report
$doc --prom="$dir/missing/x.prom" >"$dir/out" 2>"$dir/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && [ ! -s "$dir/out" ] &&
	grep -q "^gdr_doctor: error: --prom=$dir/missing/x.prom: cannot write there" "$dir/err" ||
	{ echo "FAIL: gdr_doctor --prom=missing/x.prom: exit $rc, '$(cat "$dir/err")'"; fails=$((fails + 1)); }
$doc --help | grep -q -- '--sysfs-root' || { echo "FAIL: --help"; fails=$((fails + 1)); }
# --help names the AMD node's checks too (issue 43)
for w in 'On an AMD node' amdgpu_peermem dma-buf CONFIG_PCI_P2PDMA 'large BAR'; do
	$doc --help | grep -q -- "$w" || { echo "FAIL: --help does not name '$w'"; fails=$((fails + 1)); }
done
$doc -V | grep -q '^gdr_doctor' || { echo "FAIL: -V"; fails=$((fails + 1)); }

# libfabric: the host's, never a fixture's, so only when GDR_LIBFABRIC names the library
run good 0 '!ofi.library:INFO' '!ofi.providers:OK'
if grep -q '^#define HAVE_LIBFABRIC 1' config.h 2>/dev/null; then
	export GDR_LIBFABRIC=$dir/none/libfabric.so.1
	run good 0 ofi.library:INFO
	grep -q 'libfabric.so.1 not found' "$dir/good.txt" ||
		{ echo "FAIL good: a missing libfabric is not named"; fails=$((fails + 1)); }
	export GDR_LIBFABRIC=libfabric.so.1
	run good 0 '!ofi.providers:WARN'
	if grep -q '"check": "ofi.providers", "status": "OK"' "$dir/good.json"; then
		grep -q 'libfabric [0-9]*\.[0-9]*: providers with RMA: .*tcp;ofi_rxm' "$dir/good.txt" ||
			{ echo "FAIL good: tcp;ofi_rxm not among libfabric's providers"; fails=$((fails + 1)); }
	else
		echo "skip: libfabric.so.1 not here: providers not listed"
	fi
else
	# built without libfabric's headers (config.h): the group says so and how to get it
	export GDR_LIBFABRIC=libfabric.so.1
	run good 0 ofi.build:INFO
	grep -q 'built without libfabric' "$dir/good.txt" ||
		{ echo "FAIL good: a build without libfabric does not say so"; fails=$((fails + 1)); }
fi
unset GDR_LIBFABRIC

if [ $fails -ne 0 ]; then
	echo "doctor.sh: $fails failure(s) in $runs scenarios"
	exit 1
fi
echo "doctor.sh: $runs scenarios passed"
exit 0
