# fragment: src/core/xchg.mk (H7): exchange codec, out-of-band channel, their tests and fuzzer
libgdrcore_a_SOURCES += src/core/xchg.c src/core/oob.c src/core/oob_tcp.c src/core/oob_busy.c

check_PROGRAMS += tests/unit/t_xchg tests/unit/t_oob
TESTS += tests/unit/t_xchg tests/unit/t_oob
tests_unit_t_xchg_SOURCES = tests/unit/t_xchg.c
tests_unit_t_xchg_LDADD = $(GDR_LIBS)
tests_unit_t_oob_SOURCES = tests/unit/t_oob.c
tests_unit_t_oob_LDADD = $(GDR_LIBS)

# not run by make check (scripts/test.sh runs it): libFuzzer target and its seed corpus
EXTRA_DIST += tests/fuzz/fuzz_xchg.c tests/fuzz/run.sh
