# fragment: src/core/stats.mk
# Statistics (exact and histogram), the monotonic clock, CPU placement; their unit tests.
libgdrcore_a_SOURCES += src/core/stats.c src/core/hist.c src/core/clock.c src/core/clock.h \
	src/core/affinity.c src/core/affinity.h

check_PROGRAMS += tests/unit/t_stats tests/unit/t_hist tests/unit/t_affinity
TESTS += tests/unit/t_stats tests/unit/t_hist tests/unit/t_affinity

tests_unit_t_stats_SOURCES = tests/unit/t_stats.c
tests_unit_t_stats_LDADD = $(GDR_LIBS)
tests_unit_t_hist_SOURCES = tests/unit/t_hist.c
tests_unit_t_hist_LDADD = $(GDR_LIBS)
# t_hist counts the library's allocations through these wrappers.
tests_unit_t_hist_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc
tests_unit_t_affinity_SOURCES = tests/unit/t_affinity.c
tests_unit_t_affinity_LDADD = $(GDR_LIBS)
