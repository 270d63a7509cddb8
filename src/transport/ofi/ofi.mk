# src/transport/ofi: the libfabric transport (libfabric.so.1 loaded at run time); without
# libfabric's headers a stub whose open says how to get them.
if HAVE_LIBFABRIC
libgdrcore_a_SOURCES += src/transport/ofi/ofi_api.c src/transport/ofi/ofi_api.h \
	src/transport/ofi/ofi_xp.h src/transport/ofi/ofi_xp.c src/transport/ofi/ofi_dom.c \
	src/transport/ofi/ofi_reg.c src/transport/ofi/ofi_ep.c src/transport/ofi/ofi_post.c \
	src/transport/ofi/ofi_cq.c
else
libgdrcore_a_SOURCES += src/transport/ofi/ofi_none.c
endif

# Both sides of the transport in two processes over tcp;ofi_rxm and shm (77 when absent).
check_PROGRAMS += tests/xport/t_ofi
TESTS += tests/xport/t_ofi
tests_xport_t_ofi_SOURCES = tests/xport/t_ofi.c
