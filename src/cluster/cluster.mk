# src/cluster: cluster mode (--cluster): schedule, placement, verdicts, the MPI driver.
libgdrcore_a_SOURCES += src/cluster/schedule.h src/cluster/schedule.c

check_PROGRAMS += tests/unit/t_schedule
TESTS += tests/unit/t_schedule
tests_unit_t_schedule_SOURCES = tests/unit/t_schedule.c
tests_unit_t_schedule_LDADD = $(GDR_LIBS)
