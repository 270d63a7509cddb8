# tests/xport: the transport conformance harness, any transport by name (t_xport.c).
# t_xport.sh holds the rows make check runs (a transport and its device a line).
check_PROGRAMS += tests/xport/t_xport
tests_xport_t_xport_SOURCES = tests/xport/t_xport.c tests/xport/xt.c tests/xport/xt.h \
	tests/xport/xt_cases.c tests/xport/xt_cases.h
TESTS += tests/xport/t_xport.sh
EXTRA_DIST += tests/xport/t_xport.sh
# The six test programs over loop, ofi tcp;ofi_rxm and ofi shm, server and client here.
TESTS += tests/xport/t_progs.sh
EXTRA_DIST += tests/xport/t_progs.sh
# The KV pool as M regions over loop, whose keys are checked as rkeys are (--regions), and
# work requests of N blocks as N scattered local entries to N consecutive slots (--sge).
TESTS += tests/xport/t_kv_regions.sh tests/xport/t_kv_sge.sh
EXTRA_DIST += tests/xport/t_kv_regions.sh tests/xport/t_kv_sge.sh
# The loop transport's write with data: its receive completion follows the payload and
# reports its failure (one process, deterministic; t_xport's case needs both running at once).
check_PROGRAMS += tests/xport/t_loop_notice
TESTS += tests/xport/t_loop_notice
tests_xport_t_loop_notice_SOURCES = tests/xport/t_loop_notice.c tests/xport/loop_pair.c \
	tests/xport/loop_pair.h
# The loop transport's refusals (one line each) and its failed completions (cqe_error's line).
check_PROGRAMS += tests/xport/t_loop_limits
TESTS += tests/xport/t_loop_limits
tests_xport_t_loop_limits_SOURCES = tests/xport/t_loop_limits.c tests/xport/loop_pair.c \
	tests/xport/loop_pair.h
