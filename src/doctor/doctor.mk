# fragment: src/doctor/doctor.mk -- gdr_doctor (GPUDirect RDMA readiness) and its tests
# (its host readers, sysfs/topo/acs, are in src/sysinfo: libgdrcore)
bin_PROGRAMS += gdr_doctor
gdr_doctor_SOURCES = src/doctor/doctor_main.c src/doctor/doctor.h src/doctor/out.c \
	src/doctor/out.h src/doctor/check_rdma.c src/doctor/verbs.c src/doctor/check_gpu.c \
	src/doctor/cuda_probe.c src/doctor/check_peermem.c src/doctor/check_topo.c src/doctor/check_gpulinks.c \
	src/doctor/check_acs.c src/doctor/check_iommu.c src/doctor/check_limits.c \
	src/doctor/check_pcie.c src/doctor/check_kmsg.c src/doctor/check_nicpci.c \
	src/doctor/check_amd.c src/doctor/check_amd_peer.c src/doctor/rocm_probe.c \
	src/doctor/ignore.c src/doctor/ignore.h src/doctor/gpu_str.c \
	src/doctor/kconfig.c src/doctor/kconfig.h src/doctor/check_ofi.c
dist_man_MANS += man/gdr_doctor.1

check_PROGRAMS += tests/doctor/t_topo
tests_doctor_t_topo_SOURCES = tests/doctor/t_topo.c

check_PROGRAMS += tests/doctor/t_acs
tests_doctor_t_acs_SOURCES = tests/doctor/t_acs.c

TESTS += tests/doctor/t_acs tests/doctor/topo.sh tests/doctor/doctor.sh
EXTRA_DIST += tests/doctor/topo.sh tests/doctor/doctor.sh tests/doctor/mkfix.sh

# The NVML double (BAR1 where sysfs shows none) and its test.
check_PROGRAMS += tests/doctor/libnvidia-ml.so.1
tests_doctor_libnvidia_ml_so_1_SOURCES = tests/doctor/nvml_double.c
tests_doctor_libnvidia_ml_so_1_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_doctor_libnvidia_ml_so_1_LDFLAGS = $(AM_LDFLAGS) -shared -Wl,-soname,libnvidia-ml.so.1 \
	-Wl,--no-undefined
tests_doctor_libnvidia_ml_so_1_LDADD =
TESTS += tests/doctor/bar1_nvml.sh
EXTRA_DIST += tests/doctor/bar1_nvml.sh
