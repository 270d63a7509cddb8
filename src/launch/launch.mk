# src/launch: the test binaries' program: options, then the driver (one pair), --rails (a pair per
# rail at once: the rails picked in rails_pick.c, their processes in rails_side.c, the pipe
# between them in rails_pipe.c, the launcher's loop in rails.c, a stop in rails_stop.c, the rows
# in rails_rows.c) or cluster mode; --matrix (matrix.c: every GPU x NIC port through the rails'
# processes, the measured pairing of assign.c, its text in matrix_out.c).
libgdrcore_a_SOURCES += src/launch/launch.h src/launch/launch.c src/launch/rails.h \
	src/launch/rails.c src/launch/rails_int.h src/launch/rails_pick.c src/launch/rails_side.c \
	src/launch/rails_pipe.c src/launch/rails_rows.c src/launch/rails_stop.c src/launch/assign.h \
	src/launch/assign.c src/launch/matrix.h src/launch/matrix_int.h src/launch/matrix.c \
	src/launch/matrix_out.c src/launch/matrix_copy.c src/launch/gpu_list.h src/launch/gpu_list.c \
	src/launch/matrix_dir.h src/launch/matrix_dir.c

# --rails without a network: the list, --rails=all on a sysfs fixture, the pre-checks, the rows
check_PROGRAMS += tests/unit/t_rails
TESTS += tests/unit/t_rails
tests_unit_t_rails_SOURCES = tests/unit/t_rails.c
EXTRA_DIST += docs/rails.md docs/matrix.md

# the measured GPU-NIC pairing: hand-checked matrices, then random ones against a brute force
check_PROGRAMS += tests/unit/t_assign
TESTS += tests/unit/t_assign
tests_unit_t_assign_SOURCES = tests/unit/t_assign.c

# --matrix's text from a hand-made matrix (the pairing's slowest pair)
check_PROGRAMS += tests/unit/t_matrix_out
TESTS += tests/unit/t_matrix_out
tests_unit_t_matrix_out_SOURCES = tests/unit/t_matrix_out.c

# --matrix's directions: the GPU's side per verb and direction, the pair's figure on the direction
check_PROGRAMS += tests/unit/t_matrix_dir
TESTS += tests/unit/t_matrix_dir
tests_unit_t_matrix_dir_SOURCES = tests/unit/t_matrix_dir.c

# --matrix's cells without a device: their own run token, the outputs' header before any row
check_PROGRAMS += tests/unit/t_matrix
TESTS += tests/unit/t_matrix
tests_unit_t_matrix_SOURCES = tests/unit/t_matrix.c
