# src/engine: the measurement loops of one size (bandwidth, latency, atomics).
libgdrcore_a_SOURCES += src/engine/bw.h src/engine/bw.c src/engine/bw_ring.c src/engine/bw_size.c \
	src/engine/bw_state.h src/engine/bw_ring.h src/engine/bw_proxy.c \
	src/engine/bw_kv.h src/engine/bw_kv.c src/engine/bw_kv_size.c src/engine/bw_kv_regions.c \
	src/engine/lat.h src/engine/lat.c src/engine/lat_size.c src/engine/lat_proxy.c \
	src/engine/atomic.c src/engine/atomic.h \
	src/engine/verb.c src/engine/verb.h
check_PROGRAMS += tests/unit/t_bw_kv
TESTS += tests/unit/t_bw_kv
tests_unit_t_bw_kv_LDADD = $(GDR_LIBS)
check_PROGRAMS += tests/unit/t_atomic
TESTS += tests/unit/t_atomic
tests_unit_t_atomic_LDADD = $(GDR_LIBS)
check_PROGRAMS += tests/unit/t_verb
TESTS += tests/unit/t_verb
tests_unit_t_verb_LDADD = $(GDR_LIBS)
# a size's measurement from the loop's state: an unset time gives 0 s, never an underflow
check_PROGRAMS += tests/unit/t_bw_measure
TESTS += tests/unit/t_bw_measure
tests_unit_t_bw_measure_LDADD = $(GDR_LIBS)
# the requester's posts: which entries, which signalled with which ctx, LAST, the ring's head
check_PROGRAMS += tests/unit/t_bw_post
TESTS += tests/unit/t_bw_post
tests_unit_t_bw_post_LDADD = $(GDR_LIBS)
