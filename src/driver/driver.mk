# src/driver: runs a test over its sizes and paths (one call per step into each subsystem).
libgdrcore_a_SOURCES += src/driver/run.h src/driver/run_state.h src/driver/run.c src/driver/serve.c \
	src/driver/admit.h src/driver/admit.c src/driver/path_setup.h src/driver/path_setup.c \
	src/driver/run_header.h src/driver/run_header.c src/driver/server_limits.h \
	src/driver/server_limits.c \
	src/driver/accept.h src/driver/accept.c src/driver/ceil_row.h src/driver/ceil_row.c \
	src/driver/run_exit.h src/driver/run_exit.c src/driver/floor.h src/driver/floor.c \
	src/driver/path_xport.h src/driver/path_xport.c src/driver/xport_fit.h src/driver/xport_fit.c
check_PROGRAMS += tests/unit/t_server_limits
TESTS += tests/unit/t_server_limits
tests_unit_t_server_limits_LDADD = $(GDR_LIBS)
# The report's path columns from the path rows (path_setup.c).
check_PROGRAMS += tests/unit/t_path_rows
TESTS += tests/unit/t_path_rows
tests_unit_t_path_rows_LDADD = $(GDR_LIBS)
# The rows' ceiling wiring over a fixture host (tests/doctor/mkfix.sh's "ceiling" tree).
check_PROGRAMS += tests/unit/t_ceil_row
tests_unit_t_ceil_row_LDADD = $(GDR_LIBS)
TESTS += tests/unit/ceil_row.sh
EXTRA_DIST += tests/unit/ceil_row.sh
# Floors against the port's rate before any traffic (floor.c): refusals and warnings.
check_PROGRAMS += tests/unit/t_floor
TESTS += tests/unit/t_floor
tests_unit_t_floor_LDADD = $(GDR_LIBS)
