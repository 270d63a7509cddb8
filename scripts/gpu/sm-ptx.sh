#!/bin/bash
# SPDX-License-Identifier: MIT
# Regenerate src/staging/sm_copy.ptx from src/staging/sm_copy.cu (the sm copier's kernel),
# or with --check fail when the committed PTX is not what the source gives, or with --floor
# (no nvcc needed) fail when the committed PTX's .version or .target is above the floor.
# A second argument `gp` does the same for the gpu-proxy path's kernel (src/gproxy/gp_kernel.cu,
# gp_kernel.ptx, its floor in gp_proto.h: GDR_GP_PTX_ISA, GDR_GP_PTX_TARGET).
# Needs nvcc (NVCC=path, else nvcc on PATH, else /usr/local/cuda/bin/nvcc) except for --floor;
# the build itself never does: it embeds the committed PTX. Run from the repository root.
# The floor (src/staging/sm_proto.h: GDR_SM_PTX_ISA, GDR_SM_PTX_TARGET) is the oldest PTX ISA
# and target the kernel needs: nvcc emits its own ISA (9.0 for CUDA 13, which only R580
# drivers load), so the .version and .target lines are rewritten to the floor and ptxas (the
# one beside nvcc) must accept the code under them (it refuses an instruction newer than the
# stated ISA or target); the driver JIT-compiles the PTX for the GPU it runs on.
set -u
mode=write kernel=sm
for a in "$@"; do
	case $a in
	--check | --floor) mode=$a ;;
	sm | gp) kernel=$a ;;
	*)
		echo "usage: $0 [--check|--floor] [sm|gp]" >&2
		exit 2
		;;
	esac
done
case $kernel in
sm) src=src/staging/sm_copy.cu ptx=src/staging/sm_copy.ptx hdr=src/staging/sm_proto.h P=SM ;;
gp) src=src/gproxy/gp_kernel.cu ptx=src/gproxy/gp_kernel.ptx hdr=src/gproxy/gp_proto.h P=GP ;;
esac
# SM_PTX_FLAGS (write mode): more nvcc flags, e.g. -DGDR_SM_PAUSE_MAX_NS=4096 for a variant
# of the kernel's tunables; SM_PTX_OUT: write there instead (a variant, loaded with GDR_SM_PTX).
flags=${SM_PTX_FLAGS:-} out=${SM_PTX_OUT:-$ptx}
isa=$(sed -n "s/^#define GDR_${P}_PTX_ISA[[:space:]]*\"\([0-9.]*\)\".*/\1/p" $hdr)
target=$(sed -n "s/^#define GDR_${P}_PTX_TARGET[[:space:]]*\"\(sm_[0-9]*\)\".*/\1/p" $hdr)
if [ -z "$isa" ] || [ -z "$target" ]; then
	echo "sm-ptx.sh: no GDR_${P}_PTX_ISA / GDR_${P}_PTX_TARGET in $hdr" >&2
	exit 1
fi
# floor FILE: its .version and .target are at most the floor's
floor() {
	local v t
	v=$(sed -n 's/^\.version[[:space:]]*//p' "$1" | head -1)
	t=$(sed -n 's/^\.target[[:space:]]*//p' "$1" | head -1)
	if [ -z "$v" ] || awk -v a="$v" -v b="$isa" 'BEGIN { split(a, x, "."); split(b, y, ".");
		exit !(x[1] > y[1] || (x[1] == y[1] && x[2] > y[2])) }'; then
		echo "sm-ptx.sh: $1 says .version ${v:-(none)}, above the floor $isa (drivers before the one that loads ISA $v refuse it): run scripts/gpu/sm-ptx.sh $kernel" >&2
		return 1
	fi
	if [ "${t#sm_}" -gt "${target#sm_}" ] 2>/dev/null || [ -z "$t" ]; then
		echo "sm-ptx.sh: $1 says .target ${t:-(none)}, above the floor $target: run scripts/gpu/sm-ptx.sh $kernel" >&2
		return 1
	fi
}
if [ "$mode" = --floor ]; then
	floor "$ptx" || exit 1
	echo "sm-ptx.sh: $ptx is at the floor: .version $isa, .target $target or older"
	exit 0
fi
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
	echo "sm-ptx.sh: no nvcc (set NVCC=/path/to/nvcc): the PTX can only be made where CUDA's compiler is" >&2
	exit 77
fi
ptxas=$(dirname "$nvcc")/ptxas
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for arch in compute_70 compute_75; do
	# shellcheck disable=SC2086 # flags: words
	"$nvcc" -ptx -arch=$arch -I"$(dirname "$src")" $flags -o "$tmp/nvcc.ptx" "$src" 2>"$tmp/err" && break
	grep -q 'Unsupported gpu architecture' "$tmp/err" || break
done
if [ ! -s "$tmp/nvcc.ptx" ]; then
	cat "$tmp/err" >&2
	echo "sm-ptx.sh: $nvcc failed on $src" >&2
	exit 1
fi
sed -e "s/^\.version .*/.version $isa/" -e "s/^\.target .*/.target $target/" "$tmp/nvcc.ptx" >"$tmp/out.ptx"
# ptxas checks every instruction against the stated ISA and target; sm_90 is any GPU it knows
if ! "$ptxas" -arch=sm_90 -o "$tmp/k.cubin" "$tmp/out.ptx" 2>"$tmp/err"; then
	cat "$tmp/err" >&2
	echo "sm-ptx.sh: the kernel needs more than PTX $isa / $target: raise the floor in $hdr (and say so in docs/compare.md)" >&2
	exit 1
fi
ver="nvcc $("$nvcc" --version | sed -n 's/.*release \([^,]*\),.*/\1/p'), $arch as .version $isa .target $target"
if [ "$mode" = --check ]; then
	floor "$ptx" || exit 1
	if cmp -s "$tmp/out.ptx" "$ptx"; then
		echo "sm-ptx.sh: $ptx is what $src gives ($ver)"
		exit 0
	fi
	# Another build of nvcc names itself in the header comments: the code is what counts.
	if cmp -s <(grep -v '^//' "$tmp/out.ptx") <(grep -v '^//' "$ptx") 2>/dev/null; then
		echo "sm-ptx.sh: $ptx has the code $src gives ($ver); only the compiler named in its header differs"
		exit 0
	fi
	diff -u "$ptx" "$tmp/out.ptx" | head -40
	echo "sm-ptx.sh: $ptx differs from what $src gives ($ver): run scripts/gpu/sm-ptx.sh $kernel and commit it" >&2
	exit 1
fi
cp "$tmp/out.ptx" "$out" || exit 1
echo "sm-ptx.sh: wrote $out ($ver${flags:+, $flags})"
