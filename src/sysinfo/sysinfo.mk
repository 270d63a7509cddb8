# src/sysinfo: what the host says about itself, read below a root directory (the real /
# or a test fixture): small sysfs reads, the PCIe tree and the P2P path class of two
# devices (topo), a bridge's ACS control register (acs), PCIe links and payload size
# (pcilink), RDMA devices' PCI function and port rate (ibdev); and a bandwidth row's
# ceiling from those facts (ceiling). gdr_doctor and the tests use it.
libgdrcore_a_SOURCES += src/sysinfo/sysfs.c src/sysinfo/sysfs.h src/sysinfo/topo.c \
	src/sysinfo/topo.h src/sysinfo/acs.c src/sysinfo/acs.h src/sysinfo/pcilink.c \
	src/sysinfo/pcilink.h src/sysinfo/ibdev.c src/sysinfo/ibdev.h src/sysinfo/ceiling.c \
	src/sysinfo/ceiling.h src/sysinfo/ceil_facts.c src/sysinfo/pcie_path.c \
	src/sysinfo/pcie_path.h src/sysinfo/ibports.c src/sysinfo/ibports.h

# The ceiling over fixture hosts (tests/doctor/mkfix.sh's "ceiling" and "gb200" trees).
check_PROGRAMS += tests/sysinfo/t_ceiling
tests_sysinfo_t_ceiling_SOURCES = tests/sysinfo/t_ceiling.c
TESTS += tests/sysinfo/ceiling.sh
EXTRA_DIST += tests/sysinfo/ceiling.sh
libgdrcore_a_SOURCES += src/sysinfo/dev_addr.c src/sysinfo/dev_addr.h
check_PROGRAMS += tests/unit/t_dev_addr
TESTS += tests/unit/t_dev_addr
tests_unit_t_dev_addr_SOURCES = tests/unit/t_dev_addr.c
