# src/engine: the measurement loops of one size (bandwidth, latency, atomics).
libgdrcore_a_SOURCES += src/engine/bw.h src/engine/bw.c src/engine/bw_ring.c src/engine/bw_size.c \
	src/engine/lat.h src/engine/lat.c src/engine/lat_size.c \
	src/engine/atomic.c src/engine/atomic.h
check_PROGRAMS += tests/unit/t_atomic
TESTS += tests/unit/t_atomic
tests_unit_t_atomic_LDADD = $(GDR_LIBS)
