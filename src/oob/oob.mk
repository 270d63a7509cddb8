# src/oob: the out-of-band channels between the two sides (TCP, MPI), the server's
# admission by address (--allow), and the exchange codec they carry (xchg).
libgdrcore_a_SOURCES += src/oob/xchg.c src/oob/xchg.h src/oob/oob.c src/oob/oob.h \
	src/oob/oob_tcp.c src/oob/oob_busy.c src/oob/oob_gate.c src/oob/allow.c src/oob/allow.h

check_PROGRAMS += tests/unit/t_xchg tests/unit/t_oob tests/unit/t_gate
TESTS += tests/unit/t_xchg tests/unit/t_oob tests/unit/t_gate
tests_unit_t_xchg_SOURCES = tests/unit/t_xchg.c
tests_unit_t_oob_SOURCES = tests/unit/t_oob.c
tests_unit_t_gate_SOURCES = tests/unit/t_gate.c

# not run by make check (scripts/test.sh runs it): libFuzzer target and its seed corpus
EXTRA_DIST += tests/fuzz/fuzz_xchg.c tests/fuzz/run.sh
