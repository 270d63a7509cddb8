# src/sysinfo: what the host says about itself, read below a root directory (the real /
# or a test fixture): small sysfs reads, the PCIe tree and the P2P path class of two
# devices (topo), a bridge's ACS control register (acs). gdr_doctor and the tests use it.
libgdrcore_a_SOURCES += src/sysinfo/sysfs.c src/sysinfo/sysfs.h src/sysinfo/topo.c \
	src/sysinfo/topo.h src/sysinfo/acs.c src/sysinfo/acs.h
