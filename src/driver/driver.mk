# src/driver: runs a test over its sizes and paths (one call per step into each subsystem).
libgdrcore_a_SOURCES += src/driver/run.h src/driver/run.c src/driver/server_limits.h \
	src/driver/server_limits.c \
	src/driver/accept.h src/driver/accept.c
check_PROGRAMS += tests/unit/t_server_limits
TESTS += tests/unit/t_server_limits
tests_unit_t_server_limits_LDADD = $(GDR_LIBS)
