#!/bin/bash
# SPDX-License-Identifier: MIT
# Regenerate src/staging/sm_copy.ptx from src/staging/sm_copy.cu (the sm copier's kernel),
# or with --check fail when the committed PTX is not what the source gives. Needs nvcc
# (NVCC=path, else nvcc on PATH, else /usr/local/cuda/bin/nvcc); the build itself never
# does: it embeds the committed PTX. Run from the repository root, e.g. on the H100 machine.
# Target: the oldest virtual architecture this nvcc accepts, compute_70 (Volta) where it can
# (CUDA 12 and older), else compute_75 (CUDA 13 dropped Volta); the driver JIT-compiles the
# PTX for the GPU it runs on. The PTX's .version line says which driver can load it.
set -u
mode=${1:-write}
case $mode in write | --check) ;; *)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
	echo "sm-ptx.sh: no nvcc (set NVCC=/path/to/nvcc): the PTX can only be made where CUDA's compiler is" >&2
	exit 77
fi
src=src/staging/sm_copy.cu ptx=src/staging/sm_copy.ptx
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for arch in compute_70 compute_75; do
	"$nvcc" -ptx -arch=$arch -Isrc/staging -o "$tmp/sm_copy.ptx" "$src" 2>"$tmp/err" && break
	grep -q 'Unsupported gpu architecture' "$tmp/err" || break
done
if [ ! -s "$tmp/sm_copy.ptx" ]; then
	cat "$tmp/err" >&2
	echo "sm-ptx.sh: $nvcc failed on $src" >&2
	exit 1
fi
ver="nvcc $("$nvcc" --version | sed -n 's/.*release \([^,]*\),.*/\1/p')"
if [ "$mode" = --check ]; then
	if cmp -s "$tmp/sm_copy.ptx" "$ptx"; then
		echo "sm-ptx.sh: $ptx is what $src gives ($arch, $ver)"
		exit 0
	fi
	# Another build of nvcc names itself in the header comments: the code is what counts.
	if cmp -s <(grep -v '^//' "$tmp/sm_copy.ptx") <(grep -v '^//' "$ptx") 2>/dev/null; then
		echo "sm-ptx.sh: $ptx has the code $src gives ($arch, $ver); only the compiler named in its header differs"
		exit 0
	fi
	diff -u "$ptx" "$tmp/sm_copy.ptx" | head -40
	echo "sm-ptx.sh: $ptx differs from what $src gives ($arch, $ver): run scripts/gpu/sm-ptx.sh and commit it" >&2
	exit 1
fi
cp "$tmp/sm_copy.ptx" "$ptx" || exit 1
echo "sm-ptx.sh: wrote $ptx ($arch, $ver, $(grep -m1 '^\.version' "$ptx"))"
