# fragment: tests/tests.mk (scripts and end-to-end suite; see scripts/ci/test.sh)
EXTRA_DIST += scripts/ci/rxe-vm.sh scripts/ci/sm-direct-vm.sh scripts/tools/rxe-try.sh scripts/tools/try-gpu.sh scripts/ci/test.sh scripts/ci/deps.sh scripts/ci/main-job.sh \
	scripts/bench/bench-perftest.sh scripts/bench/bench-ab.sh .ci/run \
	tests/e2e/run.sh tests/e2e/cases.tab tests/e2e/ofi.sh \
	scripts/ci/static.sh scripts/ci/soak.sh scripts/ci/soak-vm.sh tests/hostile/run.sh tests/hostile/peer.py tests/gdrp.py \
	tests/fuzz/run.sh tests/fuzz/fuzz_xchg.c tests/fuzz/coverage.sh \
	tests/cross/check.sh tests/cross/run.sh tests/cross/execshim.c

# For scripts/ci/test.sh, which runs the unit-test programs (check_PROGRAMS that are
# also in TESTS) under valgrind: line 1 check_PROGRAMS, line 2 TESTS.
print-check-programs:
	@echo '$(check_PROGRAMS)'; echo '$(TESTS)'
.PHONY: print-check-programs
EXTRA_DIST += tests/unit/check.h tests/unit/rng.h tests/unit/msgs.h tests/unit/capture.h tests/unit/put.h \
	tests/cuda/pattern.h tests/cuda/gpu_alone.h tests/cuda/cuda_skip.h tests/cuda/stage-prelude.sh \
	tests/lib.sh

# The folders of src/ depend on each other in one order only (docs/ARCHITECTURE.md).
TESTS += scripts/ci/deps-graph.sh scripts/ci/file-loops.sh tests/unit/t_deps_order.sh
dist_noinst_SCRIPTS += scripts/ci/deps-graph.sh scripts/ci/file-loops.sh
EXTRA_DIST += docs/ARCHITECTURE.md tests/unit/t_deps_order.sh
# The transport seam: no verbs identifier in src/engine or src/staging (src/transport/xport.h).
TESTS += scripts/ci/seam-check.sh tests/unit/t_seam_check.sh
dist_noinst_SCRIPTS += scripts/ci/seam-check.sh
EXTRA_DIST += tests/unit/t_seam_check.sh
# tests/lib.sh, the shell tests' helpers
TESTS += tests/unit/t_lib.sh
EXTRA_DIST += tests/unit/t_lib.sh
# Every code name docs/ARCHITECTURE.md mentions in backticks exists in src/.
TESTS += scripts/ci/doc-names.sh tests/unit/t_doc_names.sh
dist_noinst_SCRIPTS += scripts/ci/doc-names.sh
EXTRA_DIST += tests/unit/t_doc_names.sh
# The staging copiers are listed once (src/options/copier_names.h).
TESTS += scripts/ci/copier-lists.sh tests/unit/t_copier_lists.sh
dist_noinst_SCRIPTS += scripts/ci/copier-lists.sh
EXTRA_DIST += tests/unit/t_copier_lists.sh

# main-job.sh's checkout state line and rxe-vm.sh's default output folder (no VM booted)
TESTS += tests/unit/t_src_state.sh tests/unit/t_rxe_vm_out.sh
EXTRA_DIST += scripts/ci/src-state.sh tests/unit/t_src_state.sh tests/unit/t_rxe_vm_out.sh
# The mlx5dv data-direct shim (tests/mlx5dv_shim): --use_data_direct over any verbs device.
check_PROGRAMS += tests/mlx5dv_shim/libmlx5.so.1
tests_mlx5dv_shim_libmlx5_so_1_SOURCES = tests/mlx5dv_shim/shim.c
tests_mlx5dv_shim_libmlx5_so_1_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_mlx5dv_shim_libmlx5_so_1_LDFLAGS = $(AM_LDFLAGS) -shared -Wl,-soname,libmlx5.so.1 \
	-Wl,--no-undefined
tests_mlx5dv_shim_libmlx5_so_1_LDADD = $(IBVERBS_LIBS)
# The verbs fault injector (tests/verbs_fault, LD_PRELOAD): a proxy thread's post that stalls.
check_PROGRAMS += tests/verbs_fault/libgdr_verbs_fault.so
tests_verbs_fault_libgdr_verbs_fault_so_SOURCES = tests/verbs_fault/fault.c
tests_verbs_fault_libgdr_verbs_fault_so_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_verbs_fault_libgdr_verbs_fault_so_LDFLAGS = $(AM_LDFLAGS) -shared -Wl,--no-undefined
tests_verbs_fault_libgdr_verbs_fault_so_LDADD = $(IBVERBS_LIBS) -ldl
