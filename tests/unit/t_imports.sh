#!/bin/sh
# The binaries must start on rdma-core < 34: none may import ibv_reg_dmabuf_mr
# (it is resolved at run time), so the dynamic loader never asks for it.
command -v nm >/dev/null 2>&1 || { echo "t_imports: nm not found"; exit 77; }
fails=0
n=0
for b in gdr_write_bw gdr_read_bw gdr_send_bw gdr_write_lat gdr_read_lat gdr_send_lat \
	gdr_atomic_bw gdr_atomic_lat \
	gdr_stage_bw gdr_doctor; do
	[ -x "./$b" ] || { echo "FAIL: ./$b not built"; fails=$((fails + 1)); continue; }
	n=$((n + 1))
	if nm -D --undefined-only "./$b" | grep -q 'ibv_reg_dmabuf_mr'; then
		echo "FAIL: $b imports ibv_reg_dmabuf_mr"
		fails=$((fails + 1))
	fi
done
# The check can fail: nm does list the verbs a binary imports.
nm -D --undefined-only ./gdr_write_bw | grep -q 'ibv_create_qp' ||
	{ echo "FAIL: nm shows no ibv_create_qp import in gdr_write_bw"; fails=$((fails + 1)); }
[ $fails -eq 0 ] || exit 1
echo "t_imports: $n binaries import no ibv_reg_dmabuf_mr"
