# src/base: logging, the monotonic clock, CPU/NUMA placement, run-time library loading (depends on nothing).
libgdrcore_a_SOURCES += src/base/log.c src/base/log.h src/base/clock.c src/base/clock.h \
	src/base/affinity.c src/base/affinity.h src/base/stop.c src/base/stop.h \
	src/base/tbarrier.c src/base/tbarrier.h src/base/dlib.c src/base/dlib.h src/base/exitcode.h

check_PROGRAMS += tests/unit/t_affinity
TESTS += tests/unit/t_affinity
tests_unit_t_affinity_SOURCES = tests/unit/t_affinity.c

check_PROGRAMS += tests/unit/t_tbarrier
TESTS += tests/unit/t_tbarrier
tests_unit_t_tbarrier_SOURCES = tests/unit/t_tbarrier.c

check_PROGRAMS += tests/unit/t_stop
TESTS += tests/unit/t_stop
tests_unit_t_stop_SOURCES = tests/unit/t_stop.c
