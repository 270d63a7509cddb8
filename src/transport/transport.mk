# src/transport: verbs resources, rdma_cm, the session protocol on top of src/oob.
libgdrcore_a_SOURCES += src/transport/conn.h src/transport/verbs.h src/transport/cm.h src/transport/session.h \
	src/transport/verbs.c src/transport/cm.c src/transport/cm_accept.c src/transport/cm_accept.h \
	src/transport/session.c src/transport/xp_recv.c \
	src/transport/nic_env.c src/transport/nic_env.h \
	src/transport/qp_attrs.c src/transport/qp_attrs.h src/transport/cq_events.c \
	src/transport/tdomain.c \
	src/transport/qp_addr.c src/transport/gid_subnet.c src/transport/gid_subnet.h
libgdrcore_a_SOURCES += src/transport/gid_hint.c
libgdrcore_a_SOURCES += src/transport/teardown.c
libgdrcore_a_SOURCES += src/transport/dev_limits.c src/transport/dev_limits.h
libgdrcore_a_SOURCES += src/transport/role.c src/transport/role.h
libgdrcore_a_SOURCES += src/transport/test_req.c src/transport/test_req.h
libgdrcore_a_SOURCES += src/transport/xport.c src/transport/xport.h src/transport/verbs_xp.h
# registration: memory's export (memory/xmem.h) registered by the verbs transport
libgdrcore_a_SOURCES += src/transport/verbs_reg.c src/transport/verbs_reg.h \
	src/transport/verbs_reg_cuda.c src/transport/verbs_reg_rocm.c src/transport/verbs_dmabuf.c
libgdrcore_a_SOURCES += src/transport/xport.c src/transport/xport.h src/transport/verbs_xp.h \
	src/transport/verbs_xp.c src/transport/verbs_data.c

check_PROGRAMS += tests/unit/t_nic_env tests/unit/t_qp_attrs tests/unit/t_dev_limits
TESTS += tests/unit/t_nic_env tests/unit/t_qp_attrs tests/unit/t_dev_limits
tests_unit_t_dev_limits_SOURCES = tests/unit/t_dev_limits.c
tests_unit_t_nic_env_SOURCES = tests/unit/t_nic_env.c
tests_unit_t_qp_attrs_SOURCES = tests/unit/t_qp_attrs.c
# The negotiated test: options -> request -> HELLO -> a server run's options.
check_PROGRAMS += tests/unit/t_test_req
TESTS += tests/unit/t_test_req
tests_unit_t_test_req_SOURCES = tests/unit/t_test_req.c
# The -R server's accept loop fed fake rdma_cm event lists (any order across ids).
check_PROGRAMS += tests/unit/t_cm_accept
TESTS += tests/unit/t_cm_accept
tests_unit_t_cm_accept_SOURCES = tests/unit/t_cm_accept.c
# The seam's control side: --transport's pick and the verbs transport's open/addr/connect.
libgdrcore_a_SOURCES += src/transport/xport_pick.c src/transport/xport_pick.h src/transport/verbs_link.c \
	src/transport/verbs_ctl.c
TESTS += tests/unit/t_transport_opt.sh
EXTRA_DIST += tests/unit/t_transport_opt.sh
# The verbs address blob (verbs_ctl.c) and the peer's QPINFO read into a path.
check_PROGRAMS += tests/unit/t_vx_addr
TESTS += tests/unit/t_vx_addr
tests_unit_t_vx_addr_SOURCES = tests/unit/t_vx_addr.c
# The link's facts the verbs transport fills (verbs_link.c).
check_PROGRAMS += tests/unit/t_vx_link
TESTS += tests/unit/t_vx_link
tests_unit_t_vx_link_SOURCES = tests/unit/t_vx_link.c
# The verbs transport's hot path (verbs_data.c) on a fake device that records its calls.
check_PROGRAMS += tests/unit/t_verbs_data
TESTS += tests/unit/t_verbs_data
tests_unit_t_verbs_data_SOURCES = tests/unit/t_verbs_data.c
