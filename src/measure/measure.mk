# src/measure: statistics from every sample, fixed-size histogram, progress/peak windows.
libgdrcore_a_SOURCES += src/measure/stats.c src/measure/stats.h src/measure/hist.c \
	src/measure/progress.c src/measure/progress.h src/measure/peak.c src/measure/peak.h \
	src/measure/pace.c src/measure/pace.h src/measure/counters.c src/measure/counters.h

check_PROGRAMS += tests/unit/t_stats tests/unit/t_hist tests/unit/t_peak tests/unit/t_pace \
	tests/unit/t_counters
TESTS += tests/unit/t_stats tests/unit/t_hist tests/unit/t_peak tests/unit/t_pace tests/unit/t_counters

tests_unit_t_stats_SOURCES = tests/unit/t_stats.c
tests_unit_t_hist_SOURCES = tests/unit/t_hist.c
# t_hist counts the library's allocations through these wrappers.
tests_unit_t_hist_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc
tests_unit_t_peak_SOURCES = tests/unit/t_peak.c
tests_unit_t_pace_SOURCES = tests/unit/t_pace.c
tests_unit_t_counters_SOURCES = tests/unit/t_counters.c
