#!/bin/bash
# SPDX-License-Identifier: MIT
#
# rxe-vm.sh SCRIPT [OUTDIR] - run SCRIPT as root in a throw-away VM that has a
# Soft-RoCE device, and exit with SCRIPT's exit status.
#
# The VM boots this machine's Debian kernel under QEMU (software emulation: TCG),
# with this machine's root filesystem shared read-only over 9p, so every
# installed program and library is there. Inside, before SCRIPT runs:
#   veth0 (10.9.0.1/24) <-> veth1, and rxe0 = Soft-RoCE on veth0
#   (GID index 1 is the IPv4 GID; server and client both use rxe0 and 10.9.0.1)
#   memlock unlimited, /tmp and /run are fresh tmpfs, HOME=/tmp.
# OUTDIR (default: a new build/rxe-vm/out.XXXX in this checkout, GDR_BUILD_ROOT/rxe-vm/
# when that is set, or /var/tmp/rxe-vm-out.XXXX outside a git checkout; the folder is named
# at once) is shared read-write at its own path, and is also SCRIPT's working directory; the
# guest exports RXE_VM_OUT=OUTDIR.
# Everything else of the host is read-only in the guest.
#
# Environment:
#   RXE_VM_TIMEOUT  outer limit in seconds for the whole VM (default 1200)
#   RXE_VM_SHARE    extra host folders (':'-separated) shared read-write at the same
#                   path; folders under /tmp or /run holding SCRIPT, OUTDIR or the
#                   current directory are shared automatically (the guest's own /tmp
#                   would hide them otherwise)
#   RXE_VM_ENV      names of variables (space-separated) copied into SCRIPT's env
#   RXE_VM_KERNEL   kernel version to boot (default: newest /boot/vmlinuz-* that has
#                   the rdma_rxe module)
#   RXE_VM_MEM, RXE_VM_SMP   guest memory in MiB (2048) and vCPUs (2)
#   RXE_VM_LOG      file receiving the whole console log (default OUTDIR/console.log)
#   RXE_VM_NET      the guest's network card (default none): listen:PORT or connect:PORT
#                   gives it a virtio-net card (eth0 in the guest, after modprobe
#                   virtio_net) on a QEMU socket netdev at 127.0.0.1:PORT, so that a VM
#                   started with listen:P and one with connect:P share a wire (start the
#                   listening one first); the guest exports RXE_VM_NET
#
# Exit status: SCRIPT's; 124 when the outer timeout ended the VM; 125 when the VM
# could not be started (missing qemu, kernel, ...); 126 when the VM ran but SCRIPT's
# exit status never came out (guest crash).
#
# Needs (Debian): qemu-system-x86 linux-image-amd64 busybox-static rdma-core
# ibverbs-providers ibverbs-utils iproute2 kmod cpio.
# Why TCG: KVM is not usable on the machines this was written on; TCG always works.
set -uo pipefail

me=rxe-vm
die()
{
	echo "$me: error: $*" >&2
	exit 125
}

[[ $# -ge 1 && $# -le 2 && $1 != -h && $1 != --help ]] || {
	sed -n '3,/^set -uo/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -uo/d' >&2
	exit 2
}
script=$(readlink -f -- "$1") || die "cannot resolve '$1'"
[[ -f $script && -r $script ]] || die "SCRIPT '$1' is not a readable file"
if [[ $# -ge 2 ]]; then
	mkdir -p -- "$2" || die "cannot create OUTDIR '$2'"
	out=$(readlink -f -- "$2")
else
	# a new folder in the checkout's build folder (git ignores it), else in /var/tmp
	src=$(cd "$(dirname "$0")/../.." && pwd)
	bdir=${GDR_BUILD_ROOT:-$src/build}/rxe-vm
	if [[ -e $src/.git ]] && mkdir -p -- "$bdir" 2>/dev/null &&
		out=$(mktemp -d "$(readlink -f -- "$bdir")/out.XXXXXX" 2>/dev/null); then
		:
	else
		out=$(mktemp -d /var/tmp/rxe-vm-out.XXXXXX) || die "cannot create a folder in /var/tmp"
	fi
	echo "$me: no OUTDIR given: outputs go to $out" >&2
fi
timeout_s=${RXE_VM_TIMEOUT:-1200}
declare -a nic=(-nic none)
case ${RXE_VM_NET:-} in
'') ;;
listen:[0-9]* | connect:[0-9]*)
	[[ ${RXE_VM_NET#*:} =~ ^[0-9]+$ && ${RXE_VM_NET#*:} -gt 0 && ${RXE_VM_NET#*:} -lt 65536 ]] ||
		die "RXE_VM_NET='$RXE_VM_NET': the port must be 1..65535"
	# a MAC of its own: QEMU's default one is the same in every VM
	nic=(-netdev "socket,id=n0,${RXE_VM_NET%%:*}=127.0.0.1:${RXE_VM_NET#*:}"
		-device "virtio-net-pci,netdev=n0,romfile=,mac=$(printf '52:54:00:%02x:%02x:%02x' \
			$((RANDOM % 256)) $((RANDOM % 256)) $((RANDOM % 256)))")
	;;
*) die "RXE_VM_NET='$RXE_VM_NET' is not listen:PORT or connect:PORT" ;;
esac
[[ $timeout_s =~ ^[0-9]+$ && $timeout_s -gt 0 ]] || die "RXE_VM_TIMEOUT='$timeout_s' is not a positive number of seconds"

# ---- tools and kernel ----
qemu=$(command -v qemu-system-x86_64) ||
	die "qemu-system-x86_64 not found: install it (Debian/Ubuntu: apt-get install qemu-system-x86)"
bb=$(command -v busybox) || die "busybox not found: install busybox-static"
if ldd "$bb" >/dev/null 2>&1; then die "$bb is dynamically linked: install busybox-static"; fi
for t in cpio gzip modinfo timeout; do
	command -v $t >/dev/null || die "'$t' not found: install it (Debian: cpio, gzip, kmod, coreutils)"
done
kver=${RXE_VM_KERNEL:-}
if [[ -z $kver ]]; then
	for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -rV); do
		if modinfo -k "$k" -n rdma_rxe >/dev/null 2>&1; then
			kver=$k
			break
		fi
	done
	[[ -n $kver ]] || die "no kernel with the rdma_rxe module in /boot: install one (Debian: apt-get install linux-image-amd64)"
fi
kernel=/boot/vmlinuz-$kver
[[ -r $kernel ]] || die "$kernel missing or unreadable (install linux-image-amd64, or run as root)"
modinfo -k "$kver" -n rdma_rxe >/dev/null 2>&1 || die "kernel $kver has no rdma_rxe module"

# ---- folders the guest needs at their own paths, read-write ----
# A path under /tmp or /run is hidden by the guest's tmpfs: share its top folder.
declare -a shares=()
add_share()
{
	local p=$1 s
	[[ -n $p && -d $p ]] || return 0
	p=$(readlink -f -- "$p")
	[[ $p == "$out" ]] && return 0 # OUTDIR has its own share (tag out)
	for s in "${shares[@]}"; do
		[[ $p == "$s" || $p == "$s"/* ]] && return 0
	done
	shares+=("$p")
}
top_of_tmp()
{
	# /tmp/a/b/c -> /tmp/a ; anything else -> nothing
	case $1 in
	/tmp/* | /run/*) echo "$1" | cut -d/ -f1-3 ;;
	esac
}
IFS=: read -r -a extra <<<"${RXE_VM_SHARE:-}"
for d in "${extra[@]}"; do
	[[ -z $d ]] && continue
	[[ -d $d ]] || die "RXE_VM_SHARE names '$d', which is not a folder"
	add_share "$d"
done
for p in "$script" "$out" "$PWD"; do
	t=$(top_of_tmp "$p")
	[[ -n $t ]] && add_share "$t"
done

work=$(mktemp -d /var/tmp/rxe-vm.XXXXXX) || die "cannot create a folder in /var/tmp"
trap 'rm -rf -- "$work"' EXIT
log=${RXE_VM_LOG:-$out/console.log}

# ---- initramfs: busybox + the modules needed to mount the host root ----
ir=$work/ir
mkdir -p "$ir"/{bin,mods,proc,sys,dev,newroot}
cp "$bb" "$ir/bin/busybox"
mods=
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci \
	netfs fscache 9pnet 9pnet_virtio 9p; do
	f=$(modinfo -k "$kver" -n "$m" 2>/dev/null) || continue # built in
	[[ $f == /* ]] || continue                                 # "(builtin)"
	case $f in
	*.xz) xz -dc "$f" ;;
	*.zst) zstd -dcq "$f" ;;
	*.gz) gzip -dc "$f" ;;
	*) cat "$f" ;;
	esac >"$ir/mods/$m.ko" || die "cannot read module $f"
	mods="$mods $m"
done
nonce=$RANDOM$RANDOM

# Guest side, run after chroot into the host root (so it lives in $work, which
# the guest sees read-only through the host root share).
{
	echo '#!/bin/sh'
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8'
	echo 'mount -t sysfs sys /sys; mount -t tmpfs tmp /tmp; mount -t tmpfs run /run'
	echo 'mkdir -p /dev/pts /dev/shm; mount -t devpts pts /dev/pts; mount -t tmpfs shm /dev/shm'
	# devtmpfs lacks the fd links bash's process substitution needs
	echo 'ln -sf /proc/self/fd /dev/fd; for i in 0:stdin 1:stdout 2:stderr; do ln -sf /proc/self/fd/${i%%:*} /dev/${i#*:}; done'
	# the host does not touch the shares while the guest runs: let the guest cache them
	# (cache=none makes every exec cost about 0.5 s), except OUTDIR, which the host may read
	echo 'o9="trans=virtio,version=9p2000.L,msize=512000,cache=loose"'
	echo 'o9out="trans=virtio,version=9p2000.L,msize=512000,cache=none"'
	# mount shorter paths first so nested ones stay visible
	i=0
	for s in $(printf '%s\n' "${shares[@]}" "$out" | awk '!seen[$0]++ { print length, $0 }' | sort -n | cut -d' ' -f2-); do
		if [[ $s == "$out" ]]; then tag=out; else
			tag=share$i
			i=$((i + 1))
		fi
		o='$o9'
		[[ $tag == out ]] && o='$o9out'
		printf 'mkdir -p %q 2>/dev/null; mount -t 9p -o "%s" %s %q || echo "rxe-vm(guest): cannot mount %q"\n' \
			"$s" "$o" "$tag" "$s" "$s"
	done
	echo 'for m in rdma_rxe ib_uverbs rdma_ucm; do modprobe $m || echo "rxe-vm(guest): modprobe $m failed"; done'
	echo 'hostname rxe-vm; ip link set lo up'
	echo 'ip link add veth0 type veth peer name veth1'
	echo 'ip addr add 10.9.0.1/24 dev veth0'
	echo 'ip link set veth0 up; ip link set veth1 up'
	echo 'rdma link add rxe0 type rxe netdev veth0 || echo "rxe-vm(guest): cannot create rxe0"'
	echo 'ulimit -l unlimited; ulimit -c 0'
	for v in ${RXE_VM_ENV:-}; do
		[[ $v =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "RXE_VM_ENV: '$v' is not a variable name"
		[[ -v $v ]] && printf 'export %s=%q\n' "$v" "${!v}"
	done
	printf 'export RXE_VM_OUT=%q RXE_VM_NET=%q\n' "$out" "${RXE_VM_NET:-}"
	printf 'cd %q\n' "$out"
	printf 'bash %q </dev/null\n' "$script"
	echo "echo \"RXE-VM-EXIT-$nonce=\$?\""
	# power off now (busybox's poweroff -f is one syscall); sysrq as a fallback
	printf 'sync; %q poweroff -f; echo o > /proc/sysrq-trigger; while :; do :; done\n' "$bb"
} >"$work/guest.sh"
chmod 755 "$work" "$work/guest.sh"

cat >"$ir/init" <<INIT
#!/bin/busybox sh
B=/bin/busybox
\$B mount -t proc proc /proc
\$B mount -t devtmpfs dev /dev
for m in $mods; do \$B insmod /mods/\$m.ko || echo "rxe-vm(guest): insmod \$m failed"; done
if ! \$B mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /newroot; then
	echo "rxe-vm(guest): cannot mount the host root"; \$B poweroff -f
fi
\$B mount --move /proc /newroot/proc
\$B mount --move /dev /newroot/dev
exec \$B chroot /newroot /bin/sh $work/guest.sh
INIT
chmod +x "$ir/init"
(cd "$ir" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz" ||
	die "cannot build the initramfs"

declare -a fs=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap")
i=0
for s in $(printf '%s\n' "${shares[@]}" | awk '{ print length, $0 }' | sort -n | cut -d' ' -f2-); do
	fs+=(-virtfs "local,path=$s,mount_tag=share$i,security_model=none,multidevs=remap")
	i=$((i + 1))
done

echo "$me: booting $kver (TCG, ${RXE_VM_SMP:-2} vCPUs, limit ${timeout_s}s), running $script; out: $out" >&2
start=$(date +%s)
timeout -k 10 "$timeout_s" "$qemu" -accel tcg,thread=multi -cpu max \
	-m "${RXE_VM_MEM:-2048}" -smp "${RXE_VM_SMP:-2}" \
	-nographic -no-reboot "${nic[@]}" \
	-kernel "$kernel" -initrd "$work/initrd.gz" "${fs[@]}" \
	-append "console=ttyS0 quiet loglevel=3 panic=-1 no_timer_check${RXE_VM_APPEND:+ $RXE_VM_APPEND}" </dev/null 2>&1 |
	sed -u 's/\r//g' | tee "$log" |
	sed -u -e 's/\x1bc/\n/g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' |
	grep --line-buffered -v -E "^(SeaBIOS|Booting from|iPXE|$)|sysrq: |reboot: Power down|RXE-VM-EXIT-$nonce="
qrc=${PIPESTATUS[0]}
secs=$(($(date +%s) - start))
# the marker may follow terminal escapes on its console line: strip them, match anywhere
code=$(sed -e 's/\x1b[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' "$log" |
	sed -n "s/.*RXE-VM-EXIT-$nonce=\([0-9][0-9]*\).*/\1/p" | tail -1)
if [[ -n $code ]]; then
	echo "$me: script exit status $code after ${secs}s; outputs in $out" >&2
	exit "$code"
fi
if [[ $qrc -eq 124 || $qrc -eq 137 ]]; then
	echo "$me: error: VM stopped by the ${timeout_s}s limit (RXE_VM_TIMEOUT); console log: $log" >&2
	exit 124
fi
echo "$me: error: the VM ended (qemu status $qrc) without reporting the script's exit status; console log: $log" >&2
exit 126
