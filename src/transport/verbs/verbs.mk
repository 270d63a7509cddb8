# src/transport/verbs: the verbs transport (verbs_xp.h): device, PD, CQs, QPs, MRs, rdma_cm,
# registration of memory's export. Only this folder and src/doctor include a verbs header.
# verbs_api.h: what the layers above call (no verbs header); vconn.h: the handles behind c->v
libgdrcore_a_SOURCES += src/transport/verbs/verbs_api.h src/transport/verbs/vconn.h \
	src/transport/verbs/vconn.c src/transport/verbs/subnet_warn.c src/transport/verbs/dev_list.c
libgdrcore_a_SOURCES += src/transport/verbs/verbs.h src/transport/verbs/cm.h \
	src/transport/verbs/verbs.c src/transport/verbs/cm.c src/transport/verbs/cm_accept.c \
	src/transport/verbs/cm_accept.h \
	src/transport/verbs/nic_env.c src/transport/verbs/nic_env.h \
	src/transport/verbs/qp_attrs.c src/transport/verbs/qp_attrs.h src/transport/verbs/cq_events.c \
	src/transport/verbs/tdomain.c \
	src/transport/verbs/qp_addr.c src/transport/verbs/gid_subnet.c src/transport/verbs/gid_subnet.h
libgdrcore_a_SOURCES += src/transport/verbs/gid_hint.c
libgdrcore_a_SOURCES += src/transport/verbs/teardown.c
libgdrcore_a_SOURCES += src/transport/verbs/dev_limits.c src/transport/verbs/dev_limits.h
# registration: memory's export (memory/xmem.h) registered by the verbs transport
libgdrcore_a_SOURCES += src/transport/verbs/verbs_reg.c src/transport/verbs/verbs_reg.h \
	src/transport/verbs/verbs_reg_cuda.c src/transport/verbs/verbs_reg_rocm.c \
	src/transport/verbs/verbs_dmabuf.c
libgdrcore_a_SOURCES += src/transport/verbs/verbs_xp.h \
	src/transport/verbs/verbs_xp.c src/transport/verbs/verbs_data.c
# the transport's control side: open (the link's facts), addr and connect
libgdrcore_a_SOURCES += src/transport/verbs/verbs_link.c src/transport/verbs/verbs_ctl.c

check_PROGRAMS += tests/unit/t_nic_env tests/unit/t_qp_attrs tests/unit/t_dev_limits
TESTS += tests/unit/t_nic_env tests/unit/t_qp_attrs tests/unit/t_dev_limits
tests_unit_t_dev_limits_SOURCES = tests/unit/t_dev_limits.c
tests_unit_t_nic_env_SOURCES = tests/unit/t_nic_env.c
tests_unit_t_qp_attrs_SOURCES = tests/unit/t_qp_attrs.c
# The -R server's accept loop fed fake rdma_cm event lists (any order across ids).
check_PROGRAMS += tests/unit/t_cm_accept
TESTS += tests/unit/t_cm_accept
tests_unit_t_cm_accept_SOURCES = tests/unit/t_cm_accept.c
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
# No verbs header outside this folder and src/doctor (the compiler's dependency lists of every
# other .c of src/), and the check itself on small trees.
TESTS += scripts/ci/verbs-headers.sh tests/unit/t_verbs_headers.sh
EXTRA_DIST += scripts/ci/verbs-headers.sh tests/unit/t_verbs_headers.sh
