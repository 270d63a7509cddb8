/* SPDX-License-Identifier: MIT */
/*
 * Cluster mode: allgather the placement, build the schedule, and run it
 * round by round. Every round starts at a barrier and its waits count from
 * it; rank 0 gathers the round's rows and appends them to the CSV at once,
 * so an interrupted job keeps every finished round. A pair's failure is a
 * row; only a rank that misses a barrier or a gather ends the job.
 */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "cluster.h"
#include "cluster_mpi.h"
#include "conn.h"
#include "cuda_topo.h"
#include "dev_addr.h"
#include "cblame.h"
#include "cretest.h"
#include "cswctr.h"
#include "fabric_sched.h"
#include "log.h"
#include "oob_mpi.h"
#include "path_setup.h"
#include "schedule.h"
#include "session.h"

#ifdef __SANITIZE_ADDRESS__ /* the sanitizer build: MPI's own allocations are not ours */
#include <sanitizer/lsan_interface.h>
#define MPI_LSAN_OFF() __lsan_disable()
#define MPI_LSAN_ON()  __lsan_enable()
#else
#define MPI_LSAN_OFF() ((void)0)
#define MPI_LSAN_ON()  ((void)0)
#endif

struct job {
	const struct gdr_opts *o;
	struct gdr_opts mine; /* o with this rank's rail device */
	const struct gdr_test *t;
	MPI_Comm comm;
	int rank, size;
	struct gdr_place *pl;
	struct gdr_units u;
	struct gdr_sched s;
	struct gdr_pattern pat;
	uint64_t *sizes;
	size_t nsizes;
	uint32_t npaths;
	size_t slot;	      /* rows a rank sends per round */
	int wait_ms;	      /* a barrier or gather waits this long */
	struct gdr_crow *all; /* rank 0: every row so far */
	size_t nall;
	FILE *csv;
	FILE *json;
	char csv_path[512], json_path[512], run_id[48], pattern[32], test[32], devbuf[80];
	char started[32], slow_rule[96], command[1024];
	struct gdr_ccsv cx;
	struct gdr_csync sync;
	uint64_t t_start, t_mpi; /* process start of cluster mode, MPI up */
	uint64_t t_go;		 /* rank 0: the current round released */
	char gpu_used[48];	 /* "cuda:PCI" of the GPU this rank's pairs used */
	bool counters;		 /* -W and this rank's device has counters to read */
	/* -W: what moved on this rank's device in its pair; rank 0: the pairs' cells, and the
	 * cell of the pair each rank served this round */
	char cnt_mine[GDR_CSIDE_LEN];
	struct gdr_ctexts ctexts;
	int32_t *cnt_id;
	struct gdr_fab_job fab; /* rank 0, --topology: the fabric and its NICs' ranks */
	bool have_fab;
	struct gdr_ctexts btexts; /* rank 0, --topology: the flagged pairs' blame cells */
	struct gdr_fab_ctr *rank_ctr; /* rank 0, --topology -W: each rank's port errors so far */
	struct gdr_fab_blame blame;
	struct gdr_swctr swc; /* rank 0, --switch-counters: the switch ports' counters */
	bool have_swc;
	unsigned nplanned; /* the schedule's rounds before any retest round */
	bool retest_done;  /* rank 0: the retest round decided on */
	bool retested;	   /* rank 0: a retest round over suspect cables was planned */
};

/* The task count the launcher meant (0: none said). */
static long launcher_size(const char **var)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
					   "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v) {
			*var = vars[i];
			return strtol(v, NULL, 10);
		}
	}
	return 0;
}

static int check_setup(const struct job *j)
{
	const char *var = NULL;
	long want = launcher_size(&var);

	if (want && want != j->size) {
		gdr_err("--cluster: %s=%ld but MPI sees %d rank(s): the MPI library does not match "
			"the launcher (MPICH needs srun --mpi=pmi2, Open MPI srun --mpi=pmix)",
			var, want, j->size);
		return -1;
	}
	if (j->size < 2) {
		gdr_err(
		    "--cluster needs at least 2 ranks (start it with mpirun -np N or srun -n N)");
		return -1;
	}
	if (j->o->rdma_cm && (long)j->o->port + j->size - 1 > 65535) { /* ranks 0..size-1 */
		gdr_err("--cluster -R: server rank N listens on port -p + N, and -p %u + rank %d "
			"passes 65535: give a lower -p",
			j->o->port, j->size - 1);
		return -1;
	}
	return 0;
}

/* Poll a nonblocking collective against the job's limit; -1 names what stalled. */
static int wait_coll(const struct job *j, MPI_Request *r, const char *what, int round)
{
	if (gdr_mpi_wait(r, j->wait_ms) == 0)
		return 0;
	gdr_err("rank %d: %s of round %d: not every rank arrived within %g s (a rank hung or "
		"died)",
		j->rank, what, round, j->wait_ms / 1000.0);
	return -1;
}

/*
 * No --rails, no -d: the host's only NIC, else the one nearest this rank's
 * GPU; "" (why set) when the host has several NICs and ranks and no GPU says
 * which (every rank would take the first NIC).
 */
static void pick_nic(struct job *j, const struct gdr_place *me, char *why, size_t wn)
{
	struct gdr_mem_cfg mc = gdr_run_mem_cfg(j->o);
	char bdf[32] = "", gwhy[160] = "no GPU memory (--use_cuda, --use_rocm)";
	int ndev, mates = 0;

	for (int i = 0; i < j->size; i++)
		mates += !strcmp(j->pl[i].host, me->host);
	if (mc.gpu_bus_id) {
		if (gdr_pci_normalize(mc.gpu_bus_id, bdf, sizeof(bdf)))
			snprintf(gwhy, sizeof(gwhy), "the GPU's bus id %s is no PCI address",
				 mc.gpu_bus_id);
	} else if (mc.gpu != GDR_MEM_GPU_NONE &&
		   gdr_mem_gpu_bdf(mc.api, mc.gpu == GDR_MEM_GPU_AUTO ? -(me->rail + 1) : mc.gpu,
				   bdf, sizeof(bdf), gwhy, sizeof(gwhy))) {
		bdf[0] = '\0';
	}
	if (gdr_nic_choose("/sys", bdf[0] ? bdf : NULL, mates, j->devbuf, sizeof(j->devbuf)) < 0) {
		ndev = gdr_nic_nearest("/sys", NULL, j->devbuf, sizeof(j->devbuf));
		snprintf(
		    why, wn,
		    "--cluster: host %s has %d RDMA devices and %d ranks, and no GPU tells "
		    "rank %d's NIC (%s): name each local rank's NIC with --rails=DEV0,DEV1,... "
		    "(or one for all with -d)",
		    me->host, ndev, mates, j->rank, gwhy);
		j->devbuf[0] = '\0';
	}
}

/* This rank's device (--rails, else -d, else pick_nic) and memory; "" nic: no choice (why). */
static void my_place(struct job *j, struct gdr_place *me, char *why, size_t wn)
{
	const struct gdr_opts *o = j->o;
	struct gdr_mem_cfg mc;

	if (o->rails) {
		const char *p = o->rails;
		char *colon;
		int n, k = me->rail, len;

		for (n = 1; *p; p++)
			n += *p == ',';
		for (p = o->rails; k % n; k--)
			p = strchr(p, ',') + 1;
		len = (int)strcspn(p, ",");
		snprintf(j->devbuf, sizeof(j->devbuf), "%.*s", len, p);
		colon = strchr(j->devbuf, ':');
		if (colon) {
			j->mine.ib_port = atoi(colon + 1);
			*colon = '\0';
		}
		j->mine.dev_name = j->devbuf;
	} else if (!o->dev_name) {
		pick_nic(j, me, why, wn);
		if (!j->devbuf[0] && why[0]) {
			me->nic[0] = '\0';
			return;
		}
		if (j->devbuf[0])
			j->mine.dev_name = j->devbuf;
	}
	snprintf(me->nic, sizeof(me->nic), "%.48s:%d",
		 j->mine.dev_name ? j->mine.dev_name
		 : j->devbuf[0]	  ? j->devbuf
				  : "?",
		 j->mine.ib_port);
	mc = gdr_run_mem_cfg(o);
	if (mc.gpu_bus_id)
		snprintf(me->gpu, sizeof(me->gpu), "%s", mc.gpu_bus_id);
	else if (mc.gpu == GDR_MEM_GPU_NONE)
		snprintf(me->gpu, sizeof(me->gpu), "host");
	else if (mc.gpu == GDR_MEM_GPU_AUTO)
		snprintf(me->gpu, sizeof(me->gpu), "%s:auto", gdr_mem_api_name(mc.api));
	else
		snprintf(me->gpu, sizeof(me->gpu), "%s:%d", gdr_mem_api_name(mc.api), mc.gpu);
	if (o->rdma_cm) {
		const char *dev = j->mine.dev_name ? j->mine.dev_name : j->devbuf;

		if (dev[0])
			gdr_dev_ipv4("/sys", dev, j->mine.ib_port, me->ip, sizeof(me->ip));
	}
}

/* A rank without a NIC stops the job: the lowest such rank says why (one line). */
static int check_nics(const struct job *j, const char *why)
{
	for (int i = 0; i < j->size; i++)
		if (!j->pl[i].nic[0]) {
			if (i == j->rank)
				gdr_err("%s", why);
			return -1;
		}
	return 0;
}

/* -R: every rank's port must have an address for rdma_cm (the same answer on all ranks). */
static int check_ips(const struct job *j)
{
	for (int i = 0; j->o->rdma_cm && i < j->size; i++)
		if (!j->pl[i].ip[0]) {
			gdr_err("--cluster -R: rank %d (%s, NIC %s) has no IPv4 address on its RDMA "
				"port for rdma_cm: give its network interface an address, or leave "
				"-R out",
				i, j->pl[i].host, j->pl[i].nic);
			return -1;
		}
	return 0;
}

/* -R, rank 0: the address each rank binds as a client and listens on as a server. */
static void cm_line(const struct job *j)
{
	int shown = j->size < 16 ? j->size : 16;

	if (!j->o->rdma_cm || j->rank)
		return;
	printf("-R: each rank listens on and connects from its rail's address:");
	for (int i = 0; i < shown; i++)
		printf(" rank %d %s%s", i, j->pl[i].ip, i + 1 < shown ? "," : "");
	printf("%s\n", shown < j->size ? ", ..." : "");
	fflush(stdout);
}

static int place(struct job *j)
{
	struct gdr_place me = {0};
	MPI_Request r;
	char why[400] = "";
	int rc;

	j->pl = calloc((size_t)j->size, sizeof(*j->pl));
	if (!j->pl) {
		gdr_err("out of memory");
		return -1;
	}
	gdr_hostname(me.host, sizeof(me.host));
	/* twice: host names give the rails, the rails give the devices */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			me = j->pl[j->rank];
			my_place(j, &me, why, sizeof(why));
		}
		MPI_Iallgather(&me, sizeof(me), MPI_BYTE, j->pl, sizeof(me), MPI_BYTE, j->comm, &r);
		if (wait_coll(j, &r, "placement", 0))
			return -1;
		if (!pass)
			gdr_place_rails(j->pl, j->size);
	}
	/* a user's schedule pairs ranks */
	if (check_nics(j, why) || check_ips(j))
		return -1;
	cm_line(j);
	rc = gdr_units_build(&j->u, j->pl, j->size,
			     j->o->same_host || j->o->pairs_file || j->o->retest || j->o->topology);
	if (!rc && j->u.n < 2) {
		gdr_err("--cluster: every rank runs on host %s: nothing to pair across hosts "
			"(--same-host pairs ranks of one host)",
			j->pl[0].host);
		rc = -1;
	}
	return rc;
}

/* Rank 0: the schedule of --pairs-file, --retest or --topology; 0, or -1 (one line printed). */
static int read_sched(struct job *j)
{
	const char *f = j->o->pairs_file ? j->o->pairs_file : j->o->retest;
	char *text = NULL;
	unsigned skipped = 0;
	int rc;

	if (j->o->topology) {
		rc = gdr_fab_sched(j->o->topology, j->pl, j->size,
				   gdr_fab_flow_of(j->o->verb, j->o->kind, j->o->bidir),
				   j->o->num_qps, j->o->ecmp_eps, &j->s, &skipped, &j->fab);
		j->have_fab = rc == 0;
		if (!rc && j->o->ecmp_eps > 0)
			printf("ecmp: the plan's %u round(s) run %u time(s), %u rounds in all (RoCE "
			       "hashes each QP's UDP source port: a run on new QPs draws its paths "
			       "afresh): a leaf pair of up to %llu paths needs %llu flows to miss "
			       "one with probability <= %g; its flows: its pairs in a round x -q "
			       "%u x runs\n",
			       j->fab.planned, j->fab.ecmp.copies, j->s.nrounds,
			       (unsigned long long)j->fab.ecmp.max_paths,
			       (unsigned long long)j->fab.ecmp.flows, j->o->ecmp_eps,
			       j->o->num_qps);
		if (skipped)
			printf("topology: %u planned pair(s) name a NIC no rank of this job has: "
			       "left out\n",
			       skipped);
		return rc;
	}
	rc = gdr_read_text(f, &text);

	if (!rc)
		rc = j->o->pairs_file
			 ? gdr_pairs_parse(text, f, j->size, &j->s)
			 : gdr_retest_parse(text, f, j->pl, j->size, &j->s, &skipped);
	free(text);
	if (skipped)
		printf("retest: %u flagged row(s) of %s name a rail this job lacks: left out\n",
		       skipped, f);
	return rc;
}

/* The schedule the user gave, read by rank 0 and sent to every rank. */
static int user_sched(struct job *j)
{
	unsigned n[2] = {0, 0}; /* rounds, pairs; rounds UINT_MAX: rank 0 failed */
	MPI_Request r;

	if (!j->rank) {
		if (read_sched(j))
			n[0] = UINT_MAX;
		else
			n[0] = j->s.nrounds, n[1] = j->s.npairs;
	}
	MPI_Ibcast(n, 2, MPI_UNSIGNED, 0, j->comm, &r);
	if (wait_coll(j, &r, "schedule", 0) || n[0] == UINT_MAX)
		return -1;
	if (j->rank) {
		j->s.nrounds = n[0];
		j->s.npairs = n[1];
		j->s.start = calloc(n[0] + 1, sizeof(*j->s.start));
		j->s.pair = calloc(n[1] ? n[1] : 1, sizeof(*j->s.pair));
		if (!j->s.start || !j->s.pair) {
			gdr_err("out of memory");
			return -1;
		}
	}
	MPI_Ibcast(j->s.start, (int)n[0] + 1, MPI_UNSIGNED, 0, j->comm, &r);
	if (wait_coll(j, &r, "schedule", 0))
		return -1;
	MPI_Ibcast(j->s.pair, (int)n[1] * 2, MPI_UNSIGNED, 0, j->comm, &r);
	return wait_coll(j, &r, "schedule", 0);
}

static int open_csv(struct job *j)
{
	time_t now = time(NULL);
	char ts[32];

	strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", gmtime(&now));
	snprintf(j->run_id, sizeof(j->run_id), "%s-%x", ts, (unsigned)getpid());
	snprintf(j->csv_path, sizeof(j->csv_path), "%s",
		 j->o->csv_file ? j->o->csv_file : "gdr-cluster.csv");
	if (!j->o->csv_file)
		snprintf(j->csv_path, sizeof(j->csv_path), "gdr-cluster-%s.csv", j->run_id);
	/* the JSON Lines beside it: --json=FILE, else the CSV's name with .json */
	if (j->o->json_file) {
		snprintf(j->json_path, sizeof(j->json_path), "%s", j->o->json_file);
	} else {
		size_t n = strlen(j->csv_path);

		if (n > 4 && !strcmp(j->csv_path + n - 4, ".csv"))
			n -= 4;
		snprintf(j->json_path, sizeof(j->json_path), "%.*s.json", (int)n, j->csv_path);
	}
	if (!strcmp(j->json_path, "-") || !strcmp(j->json_path, j->csv_path)) {
		gdr_err("--cluster writes JSON Lines to a file of its own: --json=%s will not do",
			j->json_path);
		return -1;
	}
	j->csv = fopen(j->csv_path, "w");
	j->json = j->csv ? fopen(j->json_path, "w") : NULL;
	if (!j->csv || !j->json) {
		gdr_err("cannot write %s: %s", j->csv ? j->json_path : j->csv_path,
			strerror(errno));
		return -1;
	}
	gdr_ccsv_header(j->csv);
	fflush(j->csv);
	return 0;
}

static int finish(struct job *j);

/* Rank 0: keep a round's rows; a server-side failure joins its client's failure row. */
static int keep_rows(struct job *j, const struct gdr_crow *in, size_t n)
{
	size_t first = j->nall;
	struct gdr_crow *grown = realloc(j->all, (j->nall + n) * sizeof(*grown));

	if (!grown) {
		gdr_err("out of memory keeping results");
		return -1;
	}
	j->all = grown;
	/* clients' rows first, then the servers' failures */
	for (int srv = 0; srv < 2; srv++)
		for (size_t i = 0; i < n; i++) {
			const struct gdr_crow *r = &in[i];
			size_t k = first;

			if (r->status == GDR_CS_NONE || r->from_server != srv)
				continue;
			while (srv && k < j->nall &&
			       !(j->all[k].a == r->a && j->all[k].b == r->b &&
				 (j->all[k].status == GDR_CS_FAIL ||
				  j->all[k].status == GDR_CS_TIMEOUT)))
				k++;
			if (srv && k < j->nall) {
				size_t l = strlen(j->all[k].err);

				snprintf(j->all[k].err + l, sizeof(j->all[k].err) - l, "; %s",
					 r->err);
				continue;
			}
			j->all[j->nall] = *r;
			j->all[j->nall++].retest = j->retested && r->round > (int)j->nplanned;
		}
	gdr_ccsv_rows(j->csv, &j->cx, j->all + first, j->nall - first, first == 0);
	gdr_cjson_rows(j->json, &j->cx, j->all + first, j->nall - first, first == 0);
	fflush(j->csv);
	fflush(j->json);
	return 0;
}

/* Rows for pairs not run this round: a rail with no partner. */
static size_t skips(const struct job *j, int round, int (*pairs)[2], size_t np,
		    struct gdr_crow *out)
{
	size_t k = 0;

	for (size_t i = 0; i < np; i++) {
		if (pairs[i][1] >= 0)
			continue;
		out[k] = (struct gdr_crow){.status = GDR_CS_SKIP,
					   .round = round,
					   .a = pairs[i][0],
					   .b = -1,
					   .rail = j->pl[pairs[i][0]].rail};
		snprintf(out[k].path, sizeof(out[k].path), "-");
		snprintf(out[k].err, sizeof(out[k].err), "rail %d has no partner on the other host",
			 j->pl[pairs[i][0]].rail);
		k++;
	}
	return k;
}

/* Rank 0, -W: the rows' counters cell, one a pair, from its two ranks' reports of the round. */
static void tag_counters(struct job *j, struct gdr_crow *rows, size_t n)
{
	char text[2 * GDR_CSIDE_LEN + 2 * 64 + 8];

	for (size_t i = 0; j->cnt_id && i < n; i++) {
		struct gdr_crow *r = &rows[i];

		if (r->status == GDR_CS_NONE || r->b < 0)
			continue;
		if (j->cnt_id[r->a] < 0) {
			gdr_cpair_text(text, sizeof(text), j->pl, r->a, r->b, j->sync.cnt[r->a],
				       j->sync.cnt[r->b]);
			j->cnt_id[r->a] = gdr_ctexts_add(&j->ctexts, text);
		}
		r->cnt = j->cnt_id[r->a];
	}
}

/* Rank 0: a row for each pair of the round that a lost rank kept from running. */
static int lost_rows(struct job *j, int round, int (*pairs)[2], size_t np, size_t first,
		     struct gdr_crow *out)
{
	size_t k = 0;

	for (size_t i = 0; i < np; i++) {
		int a = pairs[i][0], b = pairs[i][1];
		size_t q = first;

		if (b < 0 || !(j->sync.lost[a] || j->sync.lost[b]))
			continue;
		while (q < j->nall && !(j->all[q].a == a && j->all[q].b == b))
			q++;
		if (q < j->nall)
			continue; /* the live side said what happened */
		out[k] = (struct gdr_crow){.status = GDR_CS_TIMEOUT,
					   .round = round,
					   .a = a,
					   .b = b,
					   .rail = j->o->same_host ? -1 : j->pl[a].rail};
		snprintf(out[k].path, sizeof(out[k].path), "-");
		snprintf(out[k].err, sizeof(out[k].err), "rank %d lost (it stopped reporting)",
			 j->sync.lost[a] ? a : b);
		k++;
	}
	tag_counters(j, out, k);
	return keep_rows(j, out, k);
}

/* This rank's side of its pair in round r (none if its peer is lost). */
static void run_mine(struct job *j, unsigned r, int (*pairs)[2], size_t np,
		     struct gdr_crow *mine)
{
	for (size_t i = 0; i < j->slot; i++)
		mine[i].status = GDR_CS_NONE;
	j->cnt_mine[0] = '\0';
	for (size_t i = 0; i < np; i++) {
		struct gdr_cpair p = {&j->mine,	   j->t,
				      j->comm,	   (int)r + 1,
				      pairs[i][0], pairs[i][1],
				      j->rank,	   j->o->same_host ? -1 : j->pl[pairs[i][0]].rail,
				      j->pl,	   j->sizes,
				      j->nsizes,   j->npaths,
				      j->gpu_used, sizeof(j->gpu_used),
				      j->counters ? j->cnt_mine : NULL, sizeof(j->cnt_mine)};

		if (p.b >= 0 && (p.a == j->rank || p.b == j->rank) && !j->sync.lost[p.a] &&
		    !j->sync.lost[p.b])
			gdr_cluster_pair(&p, mine, j->slot);
	}
}

/* Rounds x appended to the schedule s. 0, or -1 (printed). */
static int append_rounds(struct gdr_sched *s, const struct gdr_sched *x)
{
	unsigned *start = realloc(s->start, (s->nrounds + x->nrounds + 1) * sizeof(*start));
	unsigned(*pair)[2];

	if (start)
		s->start = start;
	pair = start ? realloc(s->pair, (s->npairs + x->npairs + 1) * sizeof(*pair)) : NULL;
	if (!pair) {
		gdr_err("out of memory adding rounds to the schedule");
		return -1;
	}
	s->pair = pair;
	for (unsigned r = 0; r <= x->nrounds; r++)
		s->start[s->nrounds + r] = s->npairs + x->start[r];
	memcpy(s->pair + s->npairs, x->pair, x->npairs * sizeof(*pair));
	s->nrounds += x->nrounds;
	s->npairs += x->npairs;
	return 0;
}

/*
 * Rank 0 after the planned rounds, --topology: the retest round over the
 * suspect cables (cretest.c), judged on a copy of the rows so far, appended
 * to the schedule into *x too. 1 added, 0 none, -1 (printed).
 */
static int plan_retest(struct job *j, struct gdr_sched *x)
{
	struct gdr_crow *copy = malloc((j->nall + 1) * sizeof(*copy));
	unsigned suspects = 0;
	int rc;

	memset(x, 0, sizeof(*x));
	j->retest_done = true;
	if (!copy) {
		gdr_err("out of memory");
		return -1;
	}
	memcpy(copy, j->all, j->nall * sizeof(*copy));
	gdr_verdict_apply(copy, j->nall, j->pl, j->size, j->o->expect_bw, j->o->expect_lat,
			  j->o->slow_pct);
	rc = gdr_cretest_plan(&j->fab, gdr_fab_flow_of(j->o->verb, j->o->kind, j->o->bidir), copy,
			      j->nall, j->rank_ctr, j->have_swc ? j->swc.link : NULL, x, &suspects);
	free(copy);
	if (rc) {
		printf("retest: not planned (above); the suspect cables stay unnamed\n");
		return 0;
	}
	j->retested = suspects > 0;
	if (suspects)
		printf("retest: %u suspect cable(s) (error counters moved, bad pairs cross them): "
		       "%u more round(s) of %u pair(s) over them; a cable is named only if its "
		       "retest fails again\n",
		       suspects, x->nrounds, x->npairs);
	fflush(stdout);
	if (!x->nrounds)
		return 0;
	if (append_rounds(&j->s, x)) {
		gdr_sched_free(x);
		return -1;
	}
	return 1;
}

/* Rank 0, before releasing round r: the switch ports it loads (--switch-counters); its clock. */
static void release_prep(struct job *j, unsigned r)
{
	if (j->have_swc)
		gdr_swctr_before(&j->swc, &j->s, r);
	j->t_go = gdr_now_ns();
}

/* Rank 0: the round's rows from every rank, kept and written; the next round released. */
static int close_round(struct job *j, unsigned r, int (*pairs)[2], size_t np,
		       const struct gdr_crow *mine, struct gdr_crow *gathered)
{
	int round = (int)r + 1;
	size_t first = j->nall;

	if (!gathered) /* only rank 0 gathers (run_rounds allocates it there) */
		return -1;
	if (gdr_csync_collect(&j->sync, (int)r, j->t_go, gathered) < 0)
		return -1;
	if (j->have_swc)
		gdr_swctr_after(&j->swc);
	/* the GPU each rank used, as soon as it says (cuda:auto becomes the one picked) */
	snprintf(j->sync.gpu[0], sizeof(j->sync.gpu[0]), "%s", j->gpu_used);
	for (int k = 0; k < j->size; k++)
		if (j->sync.gpu[k][0])
			snprintf(j->pl[k].gpu, sizeof(j->pl[k].gpu), "%s", j->sync.gpu[k]);
	memcpy(gathered, mine, j->slot * sizeof(*mine));
	memcpy(j->sync.cnt[0], j->cnt_mine, sizeof(j->cnt_mine));
	for (int k = 0; j->cnt_id && k < j->size; k++)
		j->cnt_id[k] = -1;
	tag_counters(j, gathered, j->slot * (size_t)j->size);
	if (j->have_fab && j->cnt_id && !j->rank_ctr) /* -W: the blame's cable counters */
		j->rank_ctr = calloc((size_t)j->size, sizeof(*j->rank_ctr));
	for (int k = 0; j->rank_ctr && k < j->size; k++)
		gdr_cblame_ctr_add(&j->rank_ctr[k], j->sync.cnt[k]);
	if (keep_rows(j, gathered, j->slot * (size_t)j->size) ||
	    keep_rows(j, gathered, skips(j, round, pairs, np, gathered)) ||
	    lost_rows(j, round, pairs, np, first, gathered))
		return -1;
	printf("round %d/%u: %zu pairs, %.1f s\n", round, j->s.nrounds, np,
	       (double)(gdr_now_ns() - j->t_go) / 1e9);
	fflush(stdout);
	if (r + 1 == j->s.nrounds && j->have_fab && !j->retest_done) {
		struct gdr_sched x;
		int added = plan_retest(j, &x), rc;

		if (added <= 0)
			return added;
		release_prep(j, r + 1);
		rc = gdr_csync_go(&j->sync, (int)r + 1, 0) || gdr_csync_sched_send(&j->sync, &x)
			 ? -1
			 : 0;
		gdr_sched_free(&x);
		return rc;
	}
	if (r + 1 >= j->s.nrounds)
		return 0;
	release_prep(j, r + 1);
	return gdr_csync_go(&j->sync, (int)r + 1, 0);
}

/* Not rank 0: released into a round past the schedule's end: its added rounds. 0 or -1. */
static int more_rounds(struct job *j)
{
	struct gdr_sched x;
	int rc;

	if (gdr_csync_sched_recv(&j->sync, &x))
		return -1;
	rc = append_rounds(&j->s, &x);
	gdr_sched_free(&x);
	return rc;
}

/* Every rank: ready, then the rounds; returns the job's status, or -1 (rank 0 lost). */
static int rounds(struct job *j, int (*pairs)[2], struct gdr_crow *mine, struct gdr_crow *gathered)
{
	int status = 0;

	j->t_go = gdr_now_ns();
	if (j->rank ? gdr_csync_report(&j->sync, -1, NULL, NULL, NULL) || gdr_csync_wait_go(&j->sync, &status)
		    : gdr_csync_collect(&j->sync, -1, j->t_go, NULL) < 0 ||
			  (release_prep(j, 0), gdr_csync_go(&j->sync, 0, 0)))
		return -1;
	for (unsigned r = 0; r < j->s.nrounds; r++) {
		size_t np = 0;
		int got;

		for (unsigned k = j->s.start[r]; k < j->s.start[r + 1]; k++)
			np += gdr_units_pairs(&j->u, j->s.pair[k][0], j->s.pair[k][1], pairs + np);
		run_mine(j, r, pairs, np, mine);
		if (!j->rank) {
			if (close_round(j, r, pairs, np, mine, gathered))
				return -1;
			continue;
		}
		if (gdr_csync_report(&j->sync, (int)r, mine, j->gpu_used, j->cnt_mine))
			return -1;
		got = gdr_csync_wait_go(&j->sync, &status);
		if (got == (int)r + 1 && r + 1 == j->s.nrounds) {
			if (more_rounds(j))
				return -1;
		} else if (got != (r + 1 < j->s.nrounds ? (int)r + 1 : -1)) {
			return -1;
		}
	}
	if (j->rank)
		return status;
	status = finish(j);
	return gdr_csync_go(&j->sync, -1, status) ? -1 : status;
}

static int run_rounds(struct job *j)
{
	size_t maxp = gdr_units_max_pairs(&j->u) * (j->u.n / 2 + 1);
	int(*pairs)[2] = calloc(maxp, sizeof(*pairs));
	struct gdr_crow *mine = calloc(j->slot, sizeof(*mine));
	/* rank 0: every rank's slot, later the round's skip and lost rows (one per rank) */
	struct gdr_crow *gathered =
	    j->rank ? NULL : calloc(j->slot * (size_t)j->size, sizeof(*gathered));
	int rc = -1;

	if (!pairs || !mine || (!j->rank && !gathered))
		gdr_err("out of memory");
	else if (!gdr_csync_init(&j->sync, j->comm, j->rank, j->size, j->slot, j->wait_ms))
		rc = rounds(j, pairs, mine, gathered);
	free(pairs);
	free(mine);
	free(gathered);
	return rc;
}

/* Rank 0: verdicts over the whole run, the final CSV, the summary; the exit status. */
static int finish(struct job *j)
{
	size_t bad, left;

	left = gdr_verdict_apply(j->all, j->nall, j->pl, j->size, j->o->expect_bw, j->o->expect_lat,
				 j->o->slow_pct);
	/* --topology: each flagged pair's suspect (a failed blame leaves the cells empty) */
	if (j->have_fab)
		gdr_cblame(&j->fab, gdr_fab_flow_of(j->o->verb, j->o->kind, j->o->bidir), j->all,
			   j->nall, j->rank_ctr, j->have_swc ? j->swc.link : NULL, j->retested,
			   &j->btexts, &j->blame);
	if (j->have_swc && !j->swc.off)
		printf("switch counters: %lu perfquery read(s) of the switch ports the rounds "
		       "loaded, before and after each round; what moved counts in the blame\n",
		       j->swc.reads);
	if (gdr_ccsv_rewrite(j->csv_path, false, &j->cx, j->all, j->nall) ||
	    gdr_ccsv_rewrite(j->json_path, true, &j->cx, j->all, j->nall))
		return 2;
	bad = gdr_verdict_summary(stdout, j->all, j->nall, j->pl, j->size, &j->ctexts);
	if (j->have_fab)
		gdr_cblame_print(stdout, &j->fab, &j->blame);
	if (left)
		printf("cluster: %s; the relative rule left out %zu OK row(s) whose NIC carried "
		       "another pair of the same round (ranks sharing a NIC)\n",
		       j->slow_rule, left);
	printf("results: %s and %s (%zu rows); %.1f s since MPI_Init\n", j->csv_path,
	       j->json_path, j->nall,
	       (double)(gdr_now_ns() - j->t_mpi) / 1e9);
	if (bad)
		printf(
		    "cluster: exit 1: %zu pair(s) flagged; the job ran to its end (Open MPI's "
		    "mpirun calls any non-zero exit an abort; mpirun -q leaves its banner out)\n",
		    bad);
	fflush(stdout);
	return bad ? 1 : 0;
}

/* The run's facts for the CSV: its start, its SLOW rule, this rank's command line. */
static void run_facts(struct job *j)
{
	time_t now = time(NULL);
	char raw[4096], *argv[256];
	int argc = 0;
	size_t n = 0;
	FILE *f = fopen("/proc/self/cmdline", "r");

	strftime(j->started, sizeof(j->started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	gdr_slow_rule(j->slow_rule, sizeof(j->slow_rule), j->o->slow_pct, j->o->expect_bw,
		      j->o->expect_lat);
	if (f) {
		n = fread(raw, 1, sizeof(raw) - 1, f);
		fclose(f);
	}
	raw[n] = '\0';
	for (size_t i = 0; i < n && argc < 256; i += strlen(raw + i) + 1)
		argv[argc++] = raw + i;
	gdr_shell_line(j->command, sizeof(j->command), argc, argv);
}

/* -W: can this rank read its device's counters? (says once why not, and goes on without) */
static int counters_setup(struct job *j)
{
	const char *dev = j->mine.dev_name;
	char why[256] = "";
	struct gdr_cwatch *w =
	    dev ? gdr_cwatch_start(dev, j->mine.ib_port, why, sizeof(why)) : NULL;

	j->counters = w != NULL;
	gdr_cwatch_end(w, NULL, 0);
	if (!dev)
		gdr_warn("-W: rank %d (%s) has no RDMA device name: going on without its counters",
			 j->rank, j->pl[j->rank].host);
	else if (why[0])
		gdr_warn("-W: rank %d (%s) %s port %d: cannot read %s; going on without %s",
			 j->rank, j->pl[j->rank].host, dev, j->mine.ib_port, why,
			 j->counters ? "those" : "counters");
	if (j->rank)
		return 0;
	j->cnt_id = malloc((size_t)j->size * sizeof(*j->cnt_id));
	if (!j->cnt_id) {
		gdr_err("out of memory");
		return -1;
	}
	return 0;
}

static int setup(struct job *j)
{
	size_t per_pair;

	if (gdr_pattern_parse(j->o->pattern, &j->pat) || check_setup(j) ||
	    gdr_opts_sizes(j->o, &j->sizes, &j->nsizes))
		return -1;
	j->npaths = gdr_paths_plan(j->o, false).n; /* the path rows (driver/path_setup.c) */
	j->slot = j->nsizes * j->npaths + 1;
	/* every wait of a pair is bounded by --timeout; a size runs -D or --timeout at most */
	per_pair = (size_t)(j->nsizes * j->npaths + 4) *
		   (size_t)((j->o->duration > j->o->timeout ? j->o->duration : j->o->timeout) + 1);
	j->wait_ms = (int)(per_pair > 3600 ? 3600000 : per_pair * 1000 + 10000);
	if (place(j))
		return -1;
	if (j->o->pairs_file || j->o->retest || j->o->topology) {
		if (user_sched(j))
			return -1;
		snprintf(j->pattern, sizeof(j->pattern),
			 j->o->retest ? "retest" : j->o->topology ? "topology" : "pairs-file");
	} else {
		if (gdr_sched_build(&j->pat, j->u.n, &j->s))
			return -1;
		gdr_pattern_name(&j->pat, j->pattern, sizeof(j->pattern));
	}
	j->nplanned = j->s.nrounds;
	snprintf(j->test, sizeof(j->test), "%s_%s", gdr_verb_name(j->o->verb),
		 gdr_kind_name(j->o->kind));
	run_facts(j);
	j->cx =
	    (struct gdr_ccsv){.run_id = j->run_id,
			      .pattern = j->pattern,
			      .test = j->test,
			      .pl = j->pl,
			      .version = PACKAGE_VERSION,
			      .started = j->started,
			      .slow_rule = j->slow_rule,
			      .command = j->command,
			      .cnt = &j->ctexts,
			      .blame = &j->btexts,
			      .fab = j->have_fab ? &j->fab : NULL, /* the route cells */
			      .flow = (int)gdr_fab_flow_of(j->o->verb, j->o->kind, j->o->bidir)};
	if (j->o->report_counters && counters_setup(j))
		return -1;
	if (j->rank == 0 && j->have_fab && j->o->switch_counters) {
		if (gdr_swctr_init(&j->swc, &j->fab,
				   gdr_fab_flow_of(j->o->verb, j->o->kind, j->o->bidir), "perfquery"))
			return -1;
		j->have_swc = true;
	}
	if (j->rank == 0) {
		if (open_csv(j))
			return -1;
		printf("cluster: %d ranks, %u %s, pattern %s, %u rounds, run %s (MPI_Init %.1f s, "
		       "placement %.1f s)\n",
		       j->size, j->u.n, j->u.by_rank ? "ranks (--same-host)" : "hosts", j->pattern,
		       j->s.nrounds, j->run_id, (double)(j->t_mpi - j->t_start) / 1e9,
		       (double)(gdr_now_ns() - j->t_mpi) / 1e9);
		fflush(stdout);
	}
	return 0;
}

/* Every rank agrees on rank 0's status (a rank that failed setup says 2). */
static int agree(struct job *j, int mine)
{
	int worst = mine;
	MPI_Request r;

	MPI_Iallreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, j->comm, &r);
	return wait_coll(j, &r, "status", 0) ? 2 : worst;
}

/* MPI_Finalize and MPI_Abort get this long before the rank exits without them. */
#define EXIT_WAIT_S 60

int gdr_cluster_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	struct job j = {.o = o, .mine = *o, .t = t};
	int ret = 2, inited = 0, lost = 0;

	j.t_start = gdr_now_ns();
	if (gdr_cluster_args(o)) /* usage errors before MPI starts */
		return 2;
	MPI_Initialized(&inited);
	MPI_LSAN_OFF();
	if (!inited && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		MPI_LSAN_ON();
		gdr_err("--cluster: MPI_Init failed (start under mpirun or srun)");
		return 2;
	}
	MPI_LSAN_ON();
	j.t_mpi = gdr_now_ns();
	MPI_Comm_dup(MPI_COMM_WORLD, &j.comm);
	MPI_Comm_rank(j.comm, &j.rank);
	MPI_Comm_size(j.comm, &j.size);
	gdr_quiet = 1; /* a pair's informational lines would be N-fold */
	j.wait_ms = 120000;
	if (agree(&j, setup(&j) ? 2 : 0) == 0) {
		ret = run_rounds(&j);
		if (ret < 0) {
			if (j.rank == 0 && j.csv)
				fflush(NULL); /* every finished round is in the CSV and JSON */
			gdr_cexit_arm(j.rank, "MPI_Abort", EXIT_WAIT_S, 2);
			MPI_Abort(j.comm, 2);
		}
		lost = j.sync.nlost;
		/* a verdict (1) is rank 0's to report: one non-zero exit, not N */
		if (ret == 1 && j.rank && !lost)
			ret = 0;
	}
	if (j.csv)
		fclose(j.csv);
	if (j.json)
		fclose(j.json);
	gdr_sched_free(&j.s);
	if (j.have_fab)
		gdr_fab_job_free(&j.fab);
	gdr_fab_blame_free(&j.blame);
	if (j.have_swc)
		gdr_swctr_free(&j.swc);
	free(j.rank_ctr);
	gdr_ctexts_free(&j.btexts);
	gdr_units_free(&j.u);
	free(j.pl);
	free(j.sizes);
	free(j.all);
	free(j.cnt_id);
	gdr_ctexts_free(&j.ctexts);
	gdr_csync_free(&j.sync);
	MPI_Comm_free(&j.comm);
	if (lost) {
		/* MPI_Finalize waits for every rank, the lost ones too */
		fflush(NULL);
		_exit(ret);
	}
	fflush(NULL);
	gdr_cexit_arm(j.rank, "MPI_Finalize", EXIT_WAIT_S, ret);
	MPI_LSAN_OFF();
	MPI_Finalize();
	MPI_LSAN_ON();
	alarm(0);
	return ret;
}
