#!/bin/bash
# proxy helper's experiment: variants of src/gproxy/gp_kernel.cu, latency and rate, against the anchor
# (results/h200-2026-11-27-gpuproxy: the last of its three versions, run C; runs A and B compiled v1 = fence
# after the descriptor in every mode, v2 = relaxed poll + fence after the wait, v3 = both, with sed lines of the same kind)
set -u
cd /tmp/w
v=/tmp/gpv; mkdir -p $v
src=src/gproxy/gp_kernel.cu
cp $src $v/v0.cu
# v4: latency mode fences after its descriptor only; v5: before and after
sed -e 's|^\t\tfence_sys(); /\* a release.*|\t\tif (mode != GDR_GP_LAT) fence_sys();|' -e 's|^\t\t\tst_desc(&q->desc\[b % GDR_GP_RING\], (b - 1) % slots, len, b);|&\n\t\tif (mode == GDR_GP_LAT) fence_sys();|' $src >$v/v4.cu
sed -e 's|^\t\t\tst_desc(&q->desc\[b % GDR_GP_RING\], (b - 1) % slots, len, b);|&\n\t\tif (mode == GDR_GP_LAT) fence_sys();|' $src >$v/v5.cu
for i in 4 5; do diff $v/v0.cu $v/v$i.cu | sed "s/^/# v$i: /"; done
for i in 0 4 5; do
	/usr/local/cuda/bin/nvcc -ptx -arch=compute_75 -Isrc/gproxy -o $v/n$i.ptx $v/v$i.cu || exit 1
	sed -e 's/^\.version .*/.version 6.0/' -e 's/^\.target .*/.target sm_70/' $v/n$i.ptx >$v/v$i.ptx
done
for r in 1 2 3; do
	bash /tmp/probes/anchors.sh proxy 20000 | grep -E '^(latency)' | sed "s/^/anchor r$r: /"
	for i in 0 4 5; do
		GDR_GP_PTX=$v/v$i.ptx b/gdr_proxy_bw -q -n 20000 --threads=1 --window=128 --batch=1 | grep -E '^(latency|rate)' | sed "s/^/v$i r$r: /"
	done
done
