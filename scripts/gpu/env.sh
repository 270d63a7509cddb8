# SPDX-License-Identifier: MIT
# scripts/gpu/env.sh - sourced by the GPU-machine scripts (from the repository root):
# librdmacm headers from the carried Debian .deb (.carry/, `apt-get download librdmacm-dev`)
# linked against the machine's own librdmacm.so.1, and the NVIDIA driver's library folder
# when the loader does not know libcuda.so.1.
if [ -d .carry ] && ls .carry/librdmacm-dev_*.deb >/dev/null 2>&1; then
	dpkg -x .carry/librdmacm-dev_*.deb /tmp/rdmacm
	ln -sf librdmacm.so.1 /usr/lib/x86_64-linux-gnu/librdmacm.so
	export CPPFLAGS=-I/tmp/rdmacm/usr/include RDMACM_CFLAGS=-I/tmp/rdmacm/usr/include RDMACM_LIBS=-lrdmacm
fi
ldconfig -p | grep -q 'libcuda.so.1 ' || export LD_LIBRARY_PATH=/usr/local/nvidia/lib64
