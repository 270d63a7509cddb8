# src/cluster: cluster mode (--cluster): schedule, placement, verdicts, the MPI driver.
libgdrcore_a_SOURCES += src/cluster/schedule.h src/cluster/schedule.c

check_PROGRAMS += tests/unit/t_schedule
TESTS += tests/unit/t_schedule
tests_unit_t_schedule_SOURCES = tests/unit/t_schedule.c

libgdrcore_a_SOURCES += src/cluster/cluster.h src/cluster/cluster_int.h src/cluster/place.c \
	src/cluster/verdict.c src/cluster/ccsv.c src/cluster/pairs.c src/cluster/nicpick.c \
	src/cluster/ccount.c src/cluster/cexit.c src/cluster/cargs.c
if HAVE_MPI
libgdrcore_a_SOURCES += src/cluster/cluster_mpi.h src/cluster/cluster.c src/cluster/pair.c \
	src/cluster/csync.c \
	src/oob/oob_mpi.h src/oob/oob_mpi.c
else
libgdrcore_a_SOURCES += src/cluster/cluster_nompi.c
endif

check_PROGRAMS += tests/unit/t_cluster
TESTS += tests/unit/t_cluster
tests_unit_t_cluster_SOURCES = tests/unit/t_cluster.c
tests_unit_t_cluster_LDADD = $(GDR_LIBS)
EXTRA_DIST += tests/cluster/vm-mpi.sh tests/cluster/vm-slurm.sh tests/cluster/lib.sh \
	tests/cluster/slurm-lib.sh tests/cluster/vm1.sh tests/cluster/vm2.sh \
	tests/cluster/vm2-guest.sh tests/cluster/vm2-rank.sh tests/cluster/fabemu.sh \
	tests/cluster/fabemu-net.sh
EXTRA_DIST += docs/cluster.md

check_PROGRAMS += tests/unit/t_cexit
TESTS += tests/unit/t_cexit
tests_unit_t_cexit_SOURCES = tests/unit/t_cexit.c

check_PROGRAMS += tests/unit/t_pairs
TESTS += tests/unit/t_pairs
tests_unit_t_pairs_SOURCES = tests/unit/t_pairs.c
tests_unit_t_pairs_LDADD = $(GDR_LIBS)

TESTS += tests/cluster/host-mpi.sh
EXTRA_DIST += tests/cluster/host-mpi.sh

check_PROGRAMS += tests/cluster/t_nicpick
tests_cluster_t_nicpick_SOURCES = tests/cluster/t_nicpick.c
tests_cluster_t_nicpick_LDADD = $(GDR_LIBS)
TESTS += tests/cluster/nicpick.sh
EXTRA_DIST += tests/cluster/nicpick.sh

check_PROGRAMS += tests/cluster/t_cblame
TESTS += tests/cluster/t_cblame
tests_cluster_t_cblame_SOURCES = tests/cluster/t_cblame.c
tests_cluster_t_cblame_LDADD = $(GDR_LIBS)

check_PROGRAMS += tests/cluster/t_cswctr
TESTS += tests/cluster/t_cswctr
tests_cluster_t_cswctr_SOURCES = tests/cluster/t_cswctr.c
tests_cluster_t_cswctr_LDADD = $(GDR_LIBS)
EXTRA_DIST += tests/cluster/fixtures/perfquery-7-1.txt tests/cluster/fixtures/perfquery-x-7-1.txt \
	tests/cluster/fixtures/perfquery-refused.txt tests/cluster/mk-perfquery.sh

TESTS += tests/cluster/cargs.sh
EXTRA_DIST += tests/cluster/cargs.sh scripts/ci/lsan-mpi.supp

# The fabric planner and blame (issue 47): topology readers, routing model, rounds, blame.
libgdrcore_a_SOURCES += src/cluster/fabric.h src/cluster/fabric.c src/cluster/fabric_index.c \
	src/cluster/fabric_ibnd.c src/cluster/fabric_slurm.c src/cluster/fabric_links.c \
	src/cluster/fabric_load.c src/cluster/fabric_route.c src/cluster/fabric_plan.h \
	src/cluster/fabric_plan.c src/cluster/fabric_blame.h src/cluster/fabric_blame.c \
	src/cluster/fabric_ecmp.h src/cluster/fabric_ecmp.c \
	src/cluster/fabric_sched.h src/cluster/fabric_sched.c src/cluster/cblame.h src/cluster/cblame.c \
	src/cluster/cretest.h src/cluster/cretest.c src/cluster/cswctr.h src/cluster/cswctr.c
# the planner on its own: prints the rounds (not installed yet: no man page)
noinst_PROGRAMS = gdr_fabric_plan
gdr_fabric_plan_SOURCES = src/cluster/fabric_main.c
gdr_fabric_plan_LDADD = $(GDR_LIBS)

check_PROGRAMS += tests/unit/t_fabric
TESTS += tests/unit/t_fabric
tests_unit_t_fabric_SOURCES = tests/unit/t_fabric.c tests/unit/fabric_synth.h
tests_unit_t_fabric_LDADD = $(GDR_LIBS)
EXTRA_DIST += tests/unit/fabric/mk-ibsim.sh tests/unit/fabric/ft2-rail0.net \
	tests/unit/fabric/ft2-rail1.net tests/unit/fabric/ft2-rail2.ibnd tests/unit/fabric/ft3.net \
	tests/unit/fabric/ft3.ibnd tests/unit/fabric/topology.conf tests/unit/fabric/lldp.links \
	tests/unit/fabric/bad.links
dist_noinst_SCRIPTS += scripts/bench/bench-fabric-plan.sh

check_PROGRAMS += tests/unit/t_fabric_blame
TESTS += tests/unit/t_fabric_blame
tests_unit_t_fabric_blame_SOURCES = tests/unit/t_fabric_blame.c tests/unit/fabric_synth.h
tests_unit_t_fabric_blame_LDADD = $(GDR_LIBS)

check_PROGRAMS += tests/unit/t_fabric_ecmp
TESTS += tests/unit/t_fabric_ecmp
tests_unit_t_fabric_ecmp_SOURCES = tests/unit/t_fabric_ecmp.c tests/unit/fabric_synth.h
tests_unit_t_fabric_ecmp_LDADD = $(GDR_LIBS)

TESTS += tests/cluster/fabric-plan.sh
EXTRA_DIST += tests/cluster/fabric-plan.sh
