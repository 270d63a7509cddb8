# src/transport: the transport seam (xport.h: the ops table, the registry, --transport's pick),
# one side's connection (conn.h), the session protocol on top of src/oob, and the role.
# The transports live in their folders: verbs/ (verbs.mk), loop/ (loop.mk), ofi/ (ofi.mk).
libgdrcore_a_SOURCES += src/transport/conn.h src/transport/session.h \
	src/transport/session.c src/transport/xp_recv.c
libgdrcore_a_SOURCES += src/transport/role.c src/transport/role.h
libgdrcore_a_SOURCES += src/transport/test_req.c src/transport/test_req.h
libgdrcore_a_SOURCES += src/transport/xport.c src/transport/xport.h
# The negotiated test: options -> request -> HELLO -> a server run's options.
check_PROGRAMS += tests/unit/t_test_req
TESTS += tests/unit/t_test_req
tests_unit_t_test_req_SOURCES = tests/unit/t_test_req.c
# The seam's control side: --transport's pick.
libgdrcore_a_SOURCES += src/transport/xport_pick.c src/transport/xport_pick.h
TESTS += tests/unit/t_transport_opt.sh
EXTRA_DIST += tests/unit/t_transport_opt.sh
