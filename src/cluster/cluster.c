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
#include <infiniband/verbs.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "cluster.h"
#include "cluster_mpi.h"
#include "ctx.h"
#include "log.h"
#include "oob_mpi.h"
#include "schedule.h"

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
	char csv_path[512], run_id[48], pattern[32], test[32], devbuf[80];
	struct gdr_ccsv cx;
	uint64_t t_start, t_mpi; /* process start of cluster mode, MPI up */
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

	if (j->o->server) {
		gdr_err("--cluster takes no server argument: every rank is a server or a client "
			"in turn");
		return -1;
	}
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
	if (j->o->rdma_cm) {
		gdr_err("--cluster does not run -R yet: leave -R out");
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

/* This rank's device (--rails, else -d, else the first device) and memory. */
static void my_place(struct job *j, struct gdr_place *me)
{
	const struct gdr_opts *o = j->o;
	struct ibv_device **l = NULL;
	int n = 0;

	if (o->rails) {
		const char *p = o->rails;
		char *colon;
		int k = me->rail, len;

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
	} else if (!o->dev_name && (l = ibv_get_device_list(&n)) && n > 0) {
		snprintf(j->devbuf, sizeof(j->devbuf), "%s", ibv_get_device_name(l[0]));
	}
	if (l)
		ibv_free_device_list(l);
	snprintf(me->nic, sizeof(me->nic), "%.48s:%d",
		 j->mine.dev_name ? j->mine.dev_name
		 : j->devbuf[0]	  ? j->devbuf
				  : "?",
		 j->mine.ib_port);
	if (o->cuda_bus_id)
		snprintf(me->gpu, sizeof(me->gpu), "%s", o->cuda_bus_id);
	else if (o->use_cuda == GDR_CUDA_NONE)
		snprintf(me->gpu, sizeof(me->gpu), "host");
	else if (o->use_cuda == GDR_CUDA_AUTO)
		snprintf(me->gpu, sizeof(me->gpu), "cuda:auto");
	else
		snprintf(me->gpu, sizeof(me->gpu), "cuda:%d", o->use_cuda);
}

static int place(struct job *j)
{
	struct gdr_place me = {0};
	MPI_Request r;
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
			my_place(j, &me);
		}
		MPI_Iallgather(&me, sizeof(me), MPI_BYTE, j->pl, sizeof(me), MPI_BYTE, j->comm, &r);
		if (wait_coll(j, &r, "placement", 0))
			return -1;
		if (!pass)
			gdr_place_rails(j->pl, j->size);
	}
	rc = gdr_units_build(&j->u, j->pl, j->size, j->o->same_host);
	if (!rc && j->u.n < 2) {
		gdr_err("--cluster: every rank runs on host %s: nothing to pair across hosts "
			"(--same-host pairs ranks of one host)",
			j->pl[0].host);
		rc = -1;
	}
	return rc;
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
	j->csv = fopen(j->csv_path, "w");
	if (!j->csv) {
		gdr_err("cannot write %s: %s", j->csv_path, strerror(errno));
		return -1;
	}
	gdr_ccsv_header(j->csv);
	fflush(j->csv);
	return 0;
}

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
			j->all[j->nall++] = *r;
		}
	gdr_ccsv_rows(j->csv, &j->cx, j->all + first, j->nall - first);
	fflush(j->csv);
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

static int run_round(struct job *j, unsigned r, int (*pairs)[2], struct gdr_crow *mine,
		     struct gdr_crow *gathered)
{
	int round = (int)r + 1;
	size_t np = 0;
	uint64_t t0 = gdr_now_ns();
	MPI_Request req;

	for (unsigned k = j->s.start[r]; k < j->s.start[r + 1]; k++)
		np += gdr_units_pairs(&j->u, j->s.pair[k][0], j->s.pair[k][1], pairs + np);
	for (size_t i = 0; i < j->slot; i++)
		mine[i].status = GDR_CS_NONE;
	MPI_Ibarrier(j->comm, &req);
	if (wait_coll(j, &req, "barrier", round))
		return -1;
	for (size_t i = 0; i < np; i++) {
		struct gdr_cpair p = {&j->mine,	   j->t,
				      j->comm,	   round,
				      pairs[i][0], pairs[i][1],
				      j->rank,	   j->o->same_host ? -1 : j->pl[pairs[i][0]].rail,
				      j->pl,	   j->sizes,
				      j->nsizes,   j->npaths};

		if (p.b >= 0 && (p.a == j->rank || p.b == j->rank))
			gdr_cluster_pair(&p, mine, j->slot);
	}
	MPI_Igather(mine, (int)(j->slot * sizeof(*mine)), MPI_BYTE, gathered,
		    (int)(j->slot * sizeof(*mine)), MPI_BYTE, 0, j->comm, &req);
	if (wait_coll(j, &req, "gather", round))
		return -1;
	if (j->rank || !gathered) /* only rank 0 gathers */
		return 0;
	if (keep_rows(j, gathered, j->slot * (size_t)j->size) ||
	    keep_rows(j, gathered, skips(j, round, pairs, np, gathered)))
		return -1;
	printf("round %d/%u: %zu pairs, %.1f s\n", round, j->s.nrounds, np,
	       (double)(gdr_now_ns() - t0) / 1e9);
	fflush(stdout);
	return 0;
}

static int run_rounds(struct job *j)
{
	size_t maxp = gdr_units_max_pairs(&j->u) * (j->u.n / 2 + 1);
	int(*pairs)[2] = calloc(maxp, sizeof(*pairs));
	struct gdr_crow *mine = calloc(j->slot, sizeof(*mine));
	/* rank 0: every rank's slot, later the round's skip rows (at most one per rank) */
	struct gdr_crow *gathered =
	    j->rank ? NULL : calloc(j->slot * (size_t)j->size, sizeof(*gathered));
	int rc = -1;

	if (!pairs || !mine || (!j->rank && !gathered)) {
		gdr_err("out of memory");
		goto out;
	}
	for (unsigned r = 0; r < j->s.nrounds; r++)
		if (run_round(j, r, pairs, mine, gathered))
			goto out;
	rc = 0;
out:
	free(pairs);
	free(mine);
	free(gathered);
	return rc;
}

/* Rank 0: verdicts over the whole run, the final CSV, the summary; the exit status. */
static int finish(struct job *j)
{
	size_t bad;

	gdr_verdict_apply(j->all, j->nall, j->o->expect_bw, j->o->slow_pct);
	if (gdr_ccsv_rewrite(j->csv_path, &j->cx, j->all, j->nall))
		return 2;
	bad = gdr_verdict_summary(stdout, j->all, j->nall, j->pl, j->size);
	printf("results: %s (%zu rows); %.1f s since MPI_Init\n", j->csv_path, j->nall,
	       (double)(gdr_now_ns() - j->t_mpi) / 1e9);
	fflush(stdout);
	return bad ? 1 : 0;
}

static int setup(struct job *j)
{
	size_t per_pair;

	if (check_setup(j) || gdr_pattern_parse(j->o->pattern, &j->pat) ||
	    gdr_opts_sizes(j->o, &j->sizes, &j->nsizes))
		return -1;
	j->npaths = j->o->compare ? 2 : 1;
	j->slot = j->nsizes * j->npaths + 1;
	/* every wait of a pair is bounded by --timeout; a size runs -D or --timeout at most */
	per_pair = (size_t)(j->nsizes * j->npaths + 4) *
		   (size_t)((j->o->duration > j->o->timeout ? j->o->duration : j->o->timeout) + 1);
	j->wait_ms = (int)(per_pair > 3600 ? 3600000 : per_pair * 1000 + 30000);
	if (place(j))
		return -1;
	if (gdr_sched_build(&j->pat, j->u.n, &j->s))
		return -1;
	gdr_pattern_name(&j->pat, j->pattern, sizeof(j->pattern));
	snprintf(j->test, sizeof(j->test), "%s_%s", gdr_verb_name(j->o->verb),
		 gdr_kind_name(j->o->kind));
	j->cx = (struct gdr_ccsv){j->run_id, j->pattern, j->test, j->pl};
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

int gdr_cluster_main(const struct gdr_opts *o, const struct gdr_test *t)
{
	struct job j = {.o = o, .mine = *o, .t = t};
	int ret = 2, inited = 0;

	j.t_start = gdr_now_ns();
	MPI_Initialized(&inited);
	if (!inited && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		gdr_err("--cluster: MPI_Init failed (start under mpirun or srun)");
		return 2;
	}
	j.t_mpi = gdr_now_ns();
	MPI_Comm_dup(MPI_COMM_WORLD, &j.comm);
	MPI_Comm_rank(j.comm, &j.rank);
	MPI_Comm_size(j.comm, &j.size);
	gdr_quiet = 1; /* a pair's informational lines would be N-fold */
	j.wait_ms = 120000;
	if (agree(&j, setup(&j) ? 2 : 0) == 0) {
		if (run_rounds(&j)) {
			if (j.rank == 0 && j.csv)
				fflush(j.csv); /* every finished round is in it */
			MPI_Abort(j.comm, 2);
		}
		ret = j.rank == 0 ? finish(&j) : 0;
		ret = agree(&j, ret);
	}
	if (j.csv)
		fclose(j.csv);
	gdr_sched_free(&j.s);
	gdr_units_free(&j.u);
	free(j.pl);
	free(j.sizes);
	free(j.all);
	MPI_Comm_free(&j.comm);
	MPI_Finalize();
	return ret;
}
