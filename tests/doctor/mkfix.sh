#!/bin/sh
# Build a fake sysfs/procfs tree for gdr_doctor tests: mkfix.sh DIR SCENARIO
# Only the few files gdr_doctor reads are written. PCI paths are symbolic
# links, as in the real /sys/bus/pci/devices, created here at test time.
set -e
[ $# -eq 2 ] || { echo "usage: $0 DIR SCENARIO" >&2; exit 2; }
R=$1
S=$2
rm -rf "$R"
mkdir -p "$R/sys/bus/pci/devices" "$R/sys/class/infiniband" "$R/sys/module" "$R/proc"
R=$(cd "$R" && pwd)

# pcidev PATH VENDOR CLASS DEVICE NUMA [DRIVER]: PATH is pciDDDD:BB/<bdf>/.../<bdf>
pcidev() {
	d="$R/sys/devices/$1"
	bdf=${1##*/}
	mkdir -p "$d"
	echo "$2" >"$d/vendor"
	echo "$3" >"$d/class"
	echo "$4" >"$d/device"
	echo "$5" >"$d/numa_node"
	[ -z "$6" ] || ln -s "../../../../bus/pci/drivers/$6" "$d/driver"
	ln -s "../../../devices/$1" "$R/sys/bus/pci/devices/$bdf"
}
bridge() { pcidev "$1" 0x10b5 0x060400 0xc030 "$2" pcieport; }
gpu() { pcidev "$1" 0x10de 0x030200 0x2330 "$2" "${3-nvidia}"; }

# bytes FILE OFFSET B0 B1 ...: write bytes (decimal) at an offset of a file
bytes() {
	f=$1 off=$2
	shift 2
	for b in "$@"; do
		printf "\\$(printf %o "$b")" | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
		off=$((off + 1))
	done
}

# acs BDF CTRL|none|short: config space with AER at 0x100, then ACS at 0x148
acs() {
	f="$R/sys/bus/pci/devices/$1/config"
	if [ "$2" = short ]; then
		head -c 64 /dev/zero >"$f" # what a non-root reader gets
		return
	fi
	head -c 4096 /dev/zero >"$f"
	if [ "$2" = none ]; then
		bytes "$f" 256 1 0 1 0 # AER, version 1, no next capability
		return
	fi
	bytes "$f" 256 1 0 129 20                       # AER, version 1, next 0x148
	bytes "$f" 328 13 0 1 0 0 0 "$(($2 & 255))" 0 # ACS, version 1, control at +6
}

# mps BDF BYTES|short: config space with a power management capability at 0x40, then
# PCI Express at 0x60 whose Device Control holds that Max Payload Size; "short" is what a
# reader other than root gets (the 64-byte header only)
mps() {
	f="$R/sys/bus/pci/devices/$1/config"
	head -c 64 /dev/zero >"$f"
	bytes "$f" 6 16 0 # Status: a capability list
	bytes "$f" 52 64  # the first capability at 0x40
	[ "$2" != short ] || return 0
	head -c 192 /dev/zero >>"$f"
	bytes "$f" 64 1 96 # power management, next at 0x60
	code=0
	while [ $((128 << code)) -lt "$2" ]; do code=$((code + 1)); done
	bytes "$f" 96 16 0                # PCI Express, the last one
	bytes "$f" 104 $((code << 5)) 0 # Device Control: MPS = 128 << bits 7:5
}

# nic NAME PCIPATH STATE LINKLAYER [IPV4-GID-INDEX]
nic() {
	d="$R/sys/class/infiniband/$1"
	p="$d/ports/1"
	mkdir -p "$p/gids" "$p/gid_attrs/types" "$p/gid_attrs/ndevs"
	[ "$2" = none ] || ln -s "../../../devices/$2" "$d/device"
	echo 22.39.1002 >"$d/fw_ver"
	case $3 in
	ACTIVE) echo "4: ACTIVE" >"$p/state"; echo "5: LinkUp" >"$p/phys_state" ;;
	INIT) echo "2: INIT" >"$p/state"; echo "5: LinkUp" >"$p/phys_state" ;;
	*) echo "1: DOWN" >"$p/state"; echo "3: Disabled" >"$p/phys_state" ;;
	esac
	echo "$4" >"$p/link_layer"
	echo "100 Gb/sec (4X EDR)" >"$p/rate"
	echo fe80:0000:0000:0000:0000:0000:0000:0001 >"$p/gids/0"
	echo "IB/RoCE v1" >"$p/gid_attrs/types/0"
	echo fe80:0000:0000:0000:0000:0000:0000:0001 >"$p/gids/1"
	echo "RoCE v2" >"$p/gid_attrs/types/1"
	echo eth0 >"$p/gid_attrs/ndevs/0"
	echo eth0 >"$p/gid_attrs/ndevs/1"
	if [ -n "$5" ]; then
		echo 0000:0000:0000:0000:0000:ffff:0a00:0001 >"$p/gids/$5"
		echo "RoCE v2" >"$p/gid_attrs/types/$5"
		echo eth0 >"$p/gid_attrs/ndevs/$5"
	fi
}

# pcielink BDF CUR-GT/s MAX-GT/s CUR-WIDTH MAX-WIDTH
pcielink() {
	d="$R/sys/bus/pci/devices/$1"
	echo "$2 GT/s PCIe" >"$d/current_link_speed"
	echo "$3 GT/s PCIe" >"$d/max_link_speed"
	echo "$4" >"$d/current_link_width"
	echo "$5" >"$d/max_link_width"
}
# bar1 BDF SIZE-MIB: a "resource" file with BAR0 (16 MiB) and BAR1 of that size
bar1() {
	printf '0x00000000fa000000 0x00000000faffffff 0x0000000000040200\n' >"$R/sys/bus/pci/devices/$1/resource"
	printf '0x0000380000000000 0x%016x 0x000000000014220c\n' \
		$((0x380000000000 + $2 * 1048576 - 1)) >>"$R/sys/bus/pci/devices/$1/resource"
}

driver() {
	mkdir -p "$R/proc/driver/nvidia" "$R/sys/module/nvidia"
	echo "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Tue Oct 14 2025" \
		>"$R/proc/driver/nvidia/version"
	echo 580.159.04 >"$R/sys/module/nvidia/version"
}
peermem() { mkdir -p "$R/sys/module/nvidia_peermem"; }
cmdline() { echo "BOOT_IMAGE=/vmlinuz-6.1.0 root=/dev/sda1 ro quiet $1" >"$R/proc/cmdline"; }
iommu_units() { mkdir -p "$R/sys/class/iommu/dmar0"; }
# group BDF TYPE: the device's IOMMU group and its domain type
group() {
	n=$(ls "$R/sys/kernel/iommu_groups" 2>/dev/null | wc -l)
	mkdir -p "$R/sys/kernel/iommu_groups/$n"
	echo "$2" >"$R/sys/kernel/iommu_groups/$n/type"
	ln -s "$R/sys/kernel/iommu_groups/$n" "$R/sys/bus/pci/devices/$1/iommu_group"
}

RC0=pci0000:00/0000:00:01.0
SW=$RC0/0000:01:00.0

# A healthy host: GPU and NIC below one switch (PIX), ACS off, IOMMU off, peermem.
good() {
	mkdir -p "$R/sys/class/iommu"
	driver
	peermem
	cmdline ""
	bridge $RC0 0
	bridge $SW 0
	bridge $SW/0000:02:08.0 0
	bridge $SW/0000:02:10.0 0
	gpu $SW/0000:02:08.0/0000:03:00.0 0
	# the GPU's audio function: NVIDIA, but no GPU
	pcidev $SW/0000:02:08.0/0000:03:00.1 0x10de 0x040300 0x22ba 0 snd_hda_intel
	pcidev $SW/0000:02:10.0/0000:04:00.0 0x15b3 0x020000 0x1017 0 mlx5_core
	nic mlx5_0 $SW/0000:02:10.0/0000:04:00.0 ACTIVE Ethernet 3
	mkdir -p "$R/dev"
	printf '6,1,100,-;Linux version 6.1.0\n4,2,200,-;mlx5_core 0000:04:00.0: firmware version: 22.39.1002\n' >"$R/dev/kmsg"
	pcielink 0000:03:00.0 16.0 16.0 16 16
	pcielink 0000:04:00.0 16.0 16.0 16 16
	bar1 0000:03:00.0 131072
	acs 0000:00:01.0 5
	acs 0000:01:00.0 none
	acs 0000:02:08.0 0
	acs 0000:02:10.0 0
}

# switch_pair GB NUMA: one GPU-NIC pair below a PCIe switch on its own root complex: root
# port ($rc = GB - 3), switch (upstream $up = GB - 2, downstream ports $dn = GB - 1, functions
# 00.0 and 01.0), the GPU's place at bus GB below the first ($gpath), the NIC's at $nb = GB + 1
# below the second ($npath). The caller puts the GPU and NIC there (the hgx8 and mi300x nodes).
switch_pair() {
	rc=$(printf %02x $((0x$1 - 3)))
	up=$(printf %02x $((0x$1 - 2)))
	dn=$(printf %02x $((0x$1 - 1)))
	nb=$(printf %02x $((0x$1 + 1)))
	p=pci0000:$rc/0000:$rc:01.0
	bridge $p $2
	bridge $p/0000:$up:00.0 $2
	bridge $p/0000:$up:00.0/0000:$dn:00.0 $2
	bridge $p/0000:$up:00.0/0000:$dn:01.0 $2
	gpath=$p/0000:$up:00.0/0000:$dn:00.0/0000:$1:00.0
	npath=$p/0000:$up:00.0/0000:$dn:01.0/0000:$nb:00.0
}

# An HGX-like node: eight GPUs, each with a NIC below its own PCIe switch on its own root
# complex, four per NUMA node. GPU bus ids as tests/cuda_double/eight-gpus.fixture.
hgx8() {
	mkdir -p "$R/sys/class/iommu"
	driver
	peermem
	cmdline ""
	k=0
	for gb in 18 2a 3a 5d 9a ab ba db; do
		numa=$((k / 4))
		switch_pair $gb $numa
		gpu $gpath $numa
		pcidev $npath 0x15b3 0x020000 0x101d $numa mlx5_core
		nic mlx5_$k $npath ACTIVE InfiniBand
		pcielink 0000:$gb:00.0 32.0 32.0 16 16
		pcielink 0000:$nb:00.0 32.0 32.0 16 16
		k=$((k + 1))
	done
}

# A GB200 compute tray (as NVIDIA documents the NVL72 tray: two Grace CPUs, four Blackwell
# GPUs attached to them over NVLink-C2C, four ConnectX-7 NICs, two of each per Grace, one
# NUMA node per Grace): every GPU and every NIC has its own root complex, so each GPU-NIC
# pair is NODE (same Grace) or SYS, and nothing is PIX/PXB/PHB. PCI domains and bus
# numbers are made up; the CPUs are Arm Neoverse V2 (implementer 0x41, part 0xd4f).
gb200() {
	driver
	peermem
	cmdline ""
	for c in 0 1 2 3; do
		printf 'processor\t: %d\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\nCPU revision\t: 0\n\n' "$c"
	done >"$R/proc/cpuinfo"
	k=0
	for dom in 0008 0009 0018 0019; do
		numa=$((k / 2))
		gdom=$dom ndom=$(printf %04x $((0x$dom + 0x100)))
		bridge pci$gdom:00/$gdom:00:00.0 $numa
		gpu pci$gdom:00/$gdom:00:00.0/$gdom:01:00.0 $numa
		bridge pci$ndom:00/$ndom:00:00.0 $numa
		pcidev pci$ndom:00/$ndom:00:00.0/$ndom:01:00.0 0x15b3 0x020000 0x1021 $numa mlx5_core
		nic mlx5_$k pci$ndom:00/$ndom:00:00.0/$ndom:01:00.0 ACTIVE InfiniBand
		k=$((k + 1))
	done
}

# An AMD Instinct MI300X node (an OAM platform as its vendors document it): eight MI300X
# (PCI class 0x120000, device 0x74a1, 192 GiB VRAM, a 256 GiB BAR0), each with a NIC of
# driver $1 (mlx5_core, bnxt_en or ionic) below the same PCIe switch on its own root
# complex, four per NUMA node; amdgpu-dkms with amdgpu_peermem, /dev/kfd, IOMMU in
# passthrough, Linux 6.8 built for dma-buf P2P. Bus numbers are made up.
mi300x() {
	ndrv=$1
	case $ndrv in
	mlx5_core) nven=0x15b3 ndev=0x1021 nname=mlx5_ ;;
	bnxt_en) nven=0x14e4 ndev=0x1760 nname=bnxt_re ;;
	ionic) nven=0x1dd8 ndev=0x1002 nname=ionic_ ;;
	esac
	mkdir -p "$R/sys/module/amdgpu" "$R/sys/module/amdgpu_peermem" "$R/dev" "$R/boot" \
		"$R/proc/sys/kernel"
	echo 6.10.5 >"$R/sys/module/amdgpu/version"
	: >"$R/dev/kfd"
	echo 6.8.0-45-generic >"$R/proc/sys/kernel/osrelease"
	printf 'CONFIG_PCI_P2PDMA=y\nCONFIG_DMABUF_MOVE_NOTIFY=y\n' >"$R/boot/config-6.8.0-45-generic"
	cmdline "amd_iommu=on iommu=pt"
	mkdir -p "$R/sys/class/iommu/ivhd0"
	k=0
	for gb in 0c 22 38 5c 9f af bf df; do
		numa=$((k / 4))
		switch_pair $gb $numa
		pcidev $gpath 0x1002 0x120000 0x74a1 $numa amdgpu
		printf '0x0000020000000000 0x%016x 0x000000000014220c\n' \
			$((0x20000000000 + 256 * 1073741824 - 1)) >"$R/sys/bus/pci/devices/0000:$gb:00.0/resource"
		echo 206158430208 >"$R/sys/bus/pci/devices/0000:$gb:00.0/mem_info_vram_total"
		pcidev $npath $nven 0x020000 $ndev $numa $ndrv
		nic $nname$k $npath ACTIVE Ethernet 3
		pcielink 0000:$gb:00.0 32.0 32.0 16 16
		pcielink 0000:$nb:00.0 32.0 32.0 16 16
		group 0000:$gb:00.0 identity
		group 0000:$nb:00.0 identity
		acs 0000:$up:00.0 none
		acs 0000:$dn:00.0 0
		acs 0000:$dn:01.0 0
		k=$((k + 1))
	done
}

case $S in
mi300x) mi300x mlx5_core ;;
mi300x_bnxt) mi300x bnxt_en ;;
mi300x_ionic) mi300x ionic ;;
mi300x_nokfd)
	mi300x mlx5_core
	rm "$R/dev/kfd"
	rm -r "$R/sys/module/amdgpu"
	;;
mi300x_smallbar)
	# one GPU with a 256 MiB BAR0 (Resizable BAR off)
	mi300x mlx5_core
	printf '0x00000000e0000000 0x00000000efffffff 0x000000000014220c\n' \
		>"$R/sys/bus/pci/devices/0000:38:00.0/resource"
	;;
mi300x_dmabuf_only)
	# no amdgpu_peermem (the in-tree amdgpu), dma-buf P2P in the kernel
	mi300x mlx5_core
	rm -r "$R/sys/module/amdgpu_peermem" "$R/sys/module/amdgpu/version"
	;;
mi300x_nopeer)
	# neither: no amdgpu_peermem and a kernel without CONFIG_DMABUF_MOVE_NOTIFY
	mi300x mlx5_core
	rm -r "$R/sys/module/amdgpu_peermem"
	echo CONFIG_PCI_P2PDMA=y >"$R/boot/config-6.8.0-45-generic"
	;;
mi300x_modconf)
	# no /boot (a container, Arch): the config in the modules folder
	mi300x mlx5_core
	mkdir -p "$R/lib/modules/6.8.0-45-generic"
	mv "$R/boot/config-6.8.0-45-generic" "$R/lib/modules/6.8.0-45-generic/config"
	;;
mi300x_configgz)
	# no config file, CONFIG_IKCONFIG_PROC's /proc/config.gz
	mi300x mlx5_core
	gzip -c "$R/boot/config-6.8.0-45-generic" >"$R/proc/config.gz"
	rm "$R/boot/config-6.8.0-45-generic"
	;;
mi300x_container)
	# a container: no kernel config anywhere, /proc/kallsyms (names, addresses hidden),
	# no amdgpu_peermem
	mi300x mlx5_core
	rm -r "$R/sys/module/amdgpu_peermem" "$R/boot/config-6.8.0-45-generic"
	printf '%s\n' '0000000000000000 T pci_p2pdma_add_resource' \
		'0000000000000000 T pci_p2pdma_distance_many' \
		'0000000000000000 t amdgpu_dma_buf_attach	[amdgpu]' >"$R/proc/kallsyms"
	;;
mi300x_container_nop2p)
	# the same, a kernel without CONFIG_PCI_P2PDMA: its symbols are not there
	mi300x mlx5_core
	rm -r "$R/sys/module/amdgpu_peermem" "$R/boot/config-6.8.0-45-generic"
	printf '%s\n' '0000000000000000 T dma_buf_export' >"$R/proc/kallsyms"
	;;
mi300x_vfio)
	# GPU 3 left on vfio-pci
	mi300x mlx5_core
	rm "$R/sys/bus/pci/devices/0000:5c:00.0/driver"
	ln -s ../../../../../../bus/pci/drivers/vfio-pci "$R/sys/bus/pci/devices/0000:5c:00.0/driver"
	;;
mi300x_nore)
	# Thor2 NICs with bnxt_en but no bnxt_re (no RDMA devices), and an onboard
	# Broadcom port on tg3 (no RDMA there, nothing to say)
	mi300x bnxt_en
	rm -r "$R/sys/class/infiniband"
	mkdir -p "$R/sys/class/infiniband"
	pcidev pci0000:00/0000:00:1c.0/0000:c1:00.0 0x14e4 0x020000 0x165f 0 tg3
	;;
mi300x_ionic_nordma)
	# a Pollara NIC whose ionic_rdma is missing: its function has no RDMA device
	mi300x ionic
	rm -r "$R/sys/class/infiniband/ionic_6"
	;;
mi300x_iommu_dma)
	# the IOMMU translating (amd_iommu=on without iommu=pt)
	mi300x mlx5_core
	for g in "$R"/sys/kernel/iommu_groups/*; do echo DMA-FQ >"$g/type"; done
	cmdline amd_iommu=on
	;;
hgx8) hgx8 ;;
gb200) gb200 ;;
gb200_x86)
	# the same PCIe layout on a host that is not Grace: NODE/SYS is slow there
	gb200
	rm "$R/proc/cpuinfo"
	;;
ceiling)
	# For t_ceiling: the HGX node with 400G (NDR) ports; mlx5_1's NIC trained at Gen4; a
	# Gen4 GPU under a root port of its own on mlx5_2's root complex (PHB); mlx5_3 with an
	# 800G port and its MPS (512 B) readable as root reads it, mlx5_4's config as others
	# read it; Soft-RoCE rxe0 (no PCI function); GPU 1 idling at Gen1.
	hgx8
	for k in 0 1 2 3 4 5 6 7; do
		echo "400 Gb/sec (4X NDR)" >"$R/sys/class/infiniband/mlx5_$k/ports/1/rate"
	done
	pcielink 0000:2b:00.0 16.0 32.0 16 16
	pcielink 0000:2a:00.0 2.5 32.0 16 16
	bridge pci0000:37/0000:37:02.0 0
	gpu pci0000:37/0000:37:02.0/0000:3f:00.0 0
	pcielink 0000:3f:00.0 16.0 16.0 16 16
	echo "800 Gb/sec (4X XDR)" >"$R/sys/class/infiniband/mlx5_3/ports/1/rate"
	# older links, whose sysfs rate is the signalling rate
	echo "40 Gb/sec (4X QDR)" >"$R/sys/class/infiniband/mlx5_6/ports/1/rate"
	echo "56 Gb/sec (4X FDR)" >"$R/sys/class/infiniband/mlx5_7/ports/1/rate"
	# Gen5 GPUs in Gen4 slots (their switch ports top out at Gen4): GPU 2 loaded at Gen4,
	# GPU 3 idling at Gen1
	pcielink 0000:3a:00.0 16.0 32.0 16 16
	pcielink 0000:39:00.0 16.0 16.0 16 16
	pcielink 0000:5d:00.0 2.5 32.0 16 16
	pcielink 0000:5c:00.0 2.5 16.0 16 16
	# the switch above GPU 4 and mlx5_4 reaches its root port at Gen4 x8 only; its root
	# port says the same link
	pcielink 0000:98:00.0 16.0 32.0 8 16
	pcielink 0000:97:01.0 16.0 32.0 8 16
	mps 0000:5e:00.0 512
	mps 0000:9b:00.0 short
	nic rxe0 none ACTIVE Ethernet 1
	echo "10 Gb/sec (1X FDR10)" >"$R/sys/class/infiniband/rxe0/ports/1/rate"
	# mlx5_8: a sub-function of mlx5_0's PF (BlueField/ConnectX SF, an auxiliary device)
	sf=pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:19:00.0/mlx5_core.sf.2
	mkdir -p "$R/sys/devices/$sf"
	nic mlx5_8 $sf ACTIVE Ethernet
	;;
pix2)
	# two GPUs and two NICs below one PCIe switch, each on a port of its own: all four
	# equally near (the NIC names in number order are mlx5_2 then mlx5_10)
	good
	bridge $SW/0000:02:18.0 0
	bridge $SW/0000:02:20.0 0
	gpu $SW/0000:02:18.0/0000:05:00.0 0
	pcidev $SW/0000:02:20.0/0000:06:00.0 0x15b3 0x020000 0x1017 0 mlx5_core
	mv "$R/sys/class/infiniband/mlx5_0" "$R/sys/class/infiniband/mlx5_2"
	nic mlx5_10 $SW/0000:02:20.0/0000:06:00.0 ACTIVE Ethernet 3
	pcielink 0000:05:00.0 16.0 16.0 16 16
	pcielink 0000:06:00.0 16.0 16.0 16 16
	;;
hgx8_port_down)
	# the HGX node with one dead rail (mlx5_3's cable out) and a second port on mlx5_0
	# that was never cabled: both are FAILs until declared unused (--ignore-port)
	hgx8
	echo "1: DOWN" >"$R/sys/class/infiniband/mlx5_3/ports/1/state"
	echo "3: Disabled" >"$R/sys/class/infiniband/mlx5_3/ports/1/phys_state"
	cp -r "$R/sys/class/infiniband/mlx5_0/ports/1" "$R/sys/class/infiniband/mlx5_0/ports/2"
	echo "1: DOWN" >"$R/sys/class/infiniband/mlx5_0/ports/2/state"
	echo "2: Polling" >"$R/sys/class/infiniband/mlx5_0/ports/2/phys_state"
	;;
hgx8_nonic)
	# the same GPUs, no RDMA device at all
	hgx8
	rm -r "$R/sys/class/infiniband"
	mkdir -p "$R/sys/class/infiniband"
	;;
topo)
	# One machine with every relation, for t_topo (see the table there).
	bridge $RC0 0
	bridge $SW 0
	bridge $SW/0000:02:08.0 0
	bridge $SW/0000:02:10.0 0
	bridge $SW/0000:02:18.0 0
	bridge $SW/0000:02:18.0/0000:05:00.0 0
	bridge $SW/0000:02:18.0/0000:05:00.0/0000:06:00.0 0
	bridge pci0000:00/0000:00:02.0 0
	bridge pci0000:40/0000:40:01.0 0
	bridge pci0000:80/0000:80:01.0 1
	bridge pci0000:80/0000:80:02.0 1
	gpu $SW/0000:02:08.0/0000:03:00.0 0
	pcidev $SW/0000:02:10.0/0000:04:00.0 0x15b3 0x020000 0x1017 0 mlx5_core
	pcidev $SW/0000:02:10.0/0000:04:00.1 0x15b3 0x020000 0x1017 0 mlx5_core
	gpu $SW/0000:02:18.0/0000:05:00.0/0000:06:00.0/0000:07:00.0 0
	gpu pci0000:00/0000:00:02.0/0000:08:00.0 0
	pcidev pci0000:40/0000:40:01.0/0000:41:00.0 0x15b3 0x020000 0x1017 0 mlx5_core
	pcidev pci0000:80/0000:80:01.0/0000:81:00.0 0x15b3 0x020000 0x1017 1 mlx5_core
	gpu pci0000:80/0000:80:02.0/0000:82:00.0 1
	gpu pci0000:c0/0000:c0:00.0 -1
	;;
good) good ;;
pcie_narrow)
	# the GPU trained at x8, the NIC at Gen3 of Gen4, a 256 MiB BAR1
	good
	pcielink 0000:03:00.0 16.0 16.0 8 16
	pcielink 0000:04:00.0 8.0 16.0 16 16
	bar1 0000:03:00.0 256
	;;
kmsg_bad)
	# an Xid 79 and an Oops in the kernel log
	good
	cat >>"$R/dev/kmsg" <<-'EOF'
	4,3,300,-;NVRM: Xid (PCI:0000:03:00): 79, pid=1234, name=gdr_write_bw, GPU has fallen off the bus.
	 SUBSYSTEM=pci
	4,4,400,-;BUG: unable to handle page fault for address: ffffc90001234000
	4,5,401,-;Oops: 0000 [#1] PREEMPT SMP NOPTI
	EOF
	;;
nic_unbound)
	# a second port's function with no driver, and a third bound without RDMA
	good
	pcidev $SW/0000:02:10.0/0000:04:00.1 0x15b3 0x020000 0x1017 0
	pcidev $SW/0000:02:10.0/0000:04:00.2 0x15b3 0x020000 0x1017 0 mlx5_core
	;;
kmsg_none)
	good
	rm "$R/dev/kmsg"
	;;
gpu_idle)
	# a GPU idling at Gen1 is normal: information, not a warning
	good
	pcielink 0000:03:00.0 2.5 16.0 16 16
	;;
gpu_idle_gen4_slot)
	# a Gen5 GPU idling at Gen1 in a Gen4 slot: information naming the slot's Gen4
	good
	pcielink 0000:03:00.0 2.5 32.0 16 16
	pcielink 0000:02:08.0 2.5 16.0 16 16
	;;
gpu_gen4_slot)
	# a Gen5 GPU at Gen4 in a Gen4 slot: all it can do there, no warning
	good
	pcielink 0000:03:00.0 16.0 32.0 16 16
	pcielink 0000:02:08.0 16.0 16.0 16 16
	;;
gpu_stuck)
	# a Gen5 GPU at Gen4 (above idle) in a Gen5 slot: trained low under load, a warning
	good
	pcielink 0000:03:00.0 16.0 32.0 16 16
	pcielink 0000:02:08.0 16.0 32.0 16 16
	;;
acs_on)
	good
	acs 0000:02:10.0 13 # SrcValid ReqRedir CmpltRedir on the NIC's switch port
	;;
acs_unreadable)
	good
	acs 0000:02:08.0 short
	acs 0000:02:10.0 short
	;;
pxb_acs_on)
	# GPU one switch further down: PXB, ACS redirect on the inner switch's port
	good
	rm "$R/sys/bus/pci/devices/0000:03:00.0"
	rm -r "$R/sys/devices/$SW/0000:02:08.0/0000:03:00.0"
	bridge $SW/0000:02:08.0/0000:05:00.0 0
	bridge $SW/0000:02:08.0/0000:05:00.0/0000:06:00.0 0
	gpu $SW/0000:02:08.0/0000:05:00.0/0000:06:00.0/0000:07:00.0 0
	acs 0000:05:00.0 none
	acs 0000:06:00.0 4
	;;
phb)
	good
	rm -r "$R/sys/class/infiniband/mlx5_0"
	bridge pci0000:00/0000:00:03.0 0
	pcidev pci0000:00/0000:00:03.0/0000:09:00.0 0x15b3 0x020000 0x1017 0 mlx5_core
	nic mlx5_1 pci0000:00/0000:00:03.0/0000:09:00.0 ACTIVE InfiniBand
	;;
node | sys)
	good
	rm -r "$R/sys/class/infiniband/mlx5_0"
	numa=0
	[ "$S" = node ] || numa=1
	bridge pci0000:80/0000:80:01.0 $numa
	pcidev pci0000:80/0000:80:01.0/0000:81:00.0 0x15b3 0x020000 0x1017 $numa mlx5_core
	nic mlx5_1 pci0000:80/0000:80:01.0/0000:81:00.0 ACTIVE InfiniBand
	;;
iommu_dma)
	good
	iommu_units
	group 0000:03:00.0 DMA-FQ
	group 0000:04:00.0 DMA-FQ
	cmdline "" # translated by the kernel's default, not by an option
	;;
iommu_pt)
	good
	iommu_units
	group 0000:03:00.0 identity
	group 0000:04:00.0 identity
	cmdline intel_iommu=on # passthrough by the kernel's default
	;;
iommu_cmdline_on)
	good
	iommu_units
	cmdline intel_iommu=on
	;;
iommu_cmdline_pt)
	good
	iommu_units
	cmdline "amd_iommu=on iommu=pt"
	;;
no_peermem)
	good
	rmdir "$R/sys/module/nvidia_peermem"
	;;
nv_peer_mem)
	good
	rmdir "$R/sys/module/nvidia_peermem"
	mkdir "$R/sys/module/nv_peer_mem"
	;;
nv_mem_peer_client)
	# legacy nv_peer_mem seen only through its memory-peer client entry
	good
	rmdir "$R/sys/module/nvidia_peermem"
	mkdir -p "$R/sys/kernel/mm/memory_peers/nv_mem"
	echo 1.1-0 >"$R/sys/kernel/mm/memory_peers/nv_mem/version"
	;;
no_rdma)
	good
	rm -r "$R/sys/class/infiniband/mlx5_0"
	;;
no_gpu)
	good
	rm "$R/sys/bus/pci/devices/0000:03:00.0"
	;;
open_driver)
	# the open kernel module's wording; /sys/module gives no version
	good
	echo "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U22)  Thu Oct 2 2025" \
		>"$R/proc/driver/nvidia/version"
	rm "$R/sys/module/nvidia/version"
	;;
no_driver)
	good
	rm -r "$R/proc/driver" "$R/sys/module/nvidia"
	;;
gpu_vfio)
	good
	rm "$R/sys/devices/$SW/0000:02:08.0/0000:03:00.0/driver"
	ln -s ../../../../bus/pci/drivers/vfio-pci "$R/sys/devices/$SW/0000:02:08.0/0000:03:00.0/driver"
	;;
port_down)
	good
	echo "1: DOWN" >"$R/sys/class/infiniband/mlx5_0/ports/1/state"
	echo "3: Disabled" >"$R/sys/class/infiniband/mlx5_0/ports/1/phys_state"
	;;
ib_init)
	good
	rm -r "$R/sys/class/infiniband/mlx5_0"
	nic mlx5_0 $SW/0000:02:10.0/0000:04:00.0 INIT InfiniBand
	;;
no_ipv4_gid)
	good
	rm -r "$R/sys/class/infiniband/mlx5_0"
	nic mlx5_0 $SW/0000:02:10.0/0000:04:00.0 ACTIVE Ethernet
	;;
rxe_only)
	good
	rm -r "$R/sys/class/infiniband/mlx5_0"
	nic rxe0 none ACTIVE Ethernet 1
	;;
*)
	echo "$0: unknown scenario $S" >&2
	exit 2
	;;
esac
