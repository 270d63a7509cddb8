# src/transport: verbs resources, rdma_cm, exchange codec, out-of-band channels, session.
libgdrcore_a_SOURCES += src/transport/ctx.h src/transport/verbs.c src/transport/cm.c \
	src/transport/session.c src/transport/xchg.c src/transport/xchg.h src/transport/oob.c \
	src/transport/oob.h src/transport/oob_tcp.c src/transport/oob_busy.c \
	src/transport/nic_env.c src/transport/nic_env.h src/transport/oob_gate.c \
	src/transport/allow.c src/transport/allow.h \
	src/transport/qp_attrs.c src/transport/qp_attrs.h src/transport/cq_events.c \
	src/transport/tdomain.c src/transport/dev_addr.c src/transport/dev_addr.h \
	src/transport/qp_addr.c src/transport/gid_subnet.c src/transport/gid_subnet.h
libgdrcore_a_SOURCES += src/transport/gid_hint.c
libgdrcore_a_SOURCES += src/transport/teardown.c
libgdrcore_a_SOURCES += src/transport/role.c src/transport/role.h

check_PROGRAMS += tests/unit/t_xchg tests/unit/t_oob tests/unit/t_nic_env tests/unit/t_gate tests/unit/t_qp_attrs \
	tests/unit/t_dev_addr
TESTS += tests/unit/t_xchg tests/unit/t_oob tests/unit/t_nic_env tests/unit/t_gate tests/unit/t_qp_attrs \
	tests/unit/t_dev_addr
tests_unit_t_nic_env_SOURCES = tests/unit/t_nic_env.c
tests_unit_t_xchg_SOURCES = tests/unit/t_xchg.c
tests_unit_t_oob_SOURCES = tests/unit/t_oob.c
tests_unit_t_gate_SOURCES = tests/unit/t_gate.c
tests_unit_t_dev_addr_SOURCES = tests/unit/t_dev_addr.c
tests_unit_t_qp_attrs_SOURCES = tests/unit/t_qp_attrs.c

# not run by make check (scripts/test.sh runs it): libFuzzer target and its seed corpus
EXTRA_DIST += tests/fuzz/fuzz_xchg.c tests/fuzz/run.sh
