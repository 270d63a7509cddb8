# tests/conformance: one small program per CUDA driver rule gdrperf relies on and the driver
# double models (docs/cuda-double.md, "Driver rules and their conformance cases"), held to
# what the real driver says (c_*.expect). `make check` runs them against the double;
# scripts/gpu/conformance.sh against the real driver and the double on the GPU machine.
if HAVE_CUDA
CONF_CASES = tests/conformance/c_fork tests/conformance/c_timeslice \
	tests/conformance/c_stream_order tests/conformance/c_ctx_thread tests/conformance/c_errors \
	tests/conformance/c_attrs tests/conformance/c_dmabuf tests/conformance/c_batch
check_PROGRAMS += $(CONF_CASES)
tests_conformance_c_fork_SOURCES = tests/conformance/c_fork.c tests/conformance/conf.h
tests_conformance_c_timeslice_SOURCES = tests/conformance/c_timeslice.c tests/conformance/conf.h
tests_conformance_c_stream_order_SOURCES = tests/conformance/c_stream_order.c \
	tests/conformance/conf.h
tests_conformance_c_ctx_thread_SOURCES = tests/conformance/c_ctx_thread.c \
	tests/conformance/conf.h
tests_conformance_c_errors_SOURCES = tests/conformance/c_errors.c tests/conformance/conf.h
tests_conformance_c_attrs_SOURCES = tests/conformance/c_attrs.c tests/conformance/conf.h
tests_conformance_c_dmabuf_SOURCES = tests/conformance/c_dmabuf.c tests/conformance/conf.h
tests_conformance_c_batch_SOURCES = tests/conformance/c_batch.c tests/conformance/conf.h
TESTS += tests/conformance/t_conformance_double.sh \
	tests/conformance/t_conformance_timeslice_double.sh
endif
EXTRA_DIST += tests/conformance/compare.sh tests/conformance/t_conformance_double.sh \
	tests/conformance/t_conformance_timeslice_double.sh \
	tests/conformance/c_fork.expect tests/conformance/c_timeslice.expect \
	tests/conformance/c_stream_order.expect tests/conformance/c_ctx_thread.expect \
	tests/conformance/c_errors.expect tests/conformance/c_attrs.expect \
	tests/conformance/c_dmabuf.expect tests/conformance/c_batch.expect
# HIP: the same for the HIP double (the real runtime unverified: no AMD GPU here).
check_PROGRAMS += tests/conformance/h_rules
tests_conformance_h_rules_SOURCES = tests/conformance/h_rules.c
TESTS += tests/conformance/t_conformance_hip_double.sh
EXTRA_DIST += tests/conformance/t_conformance_hip_double.sh tests/conformance/h_rules.expect
