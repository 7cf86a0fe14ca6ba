// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench-mpi: vcube-bench's sweep over MPI instead of the vcube
 * device. libvcube's executor moves its plans' messages through a
 * transport (transport.h); this one is MPI point-to-point on
 * MPI_COMM_WORLD, so every registered plan runs, unchanged, across real
 * processes and hosts under an ordinary mpirun:
 *
 *   send   MPI_Send, or MPI_Rsend for a FORCED one: ready mode is MPI's
 *          FORCED (the receive must already be posted, which the POSTED
 *          plans guarantee by their global synchronisation)
 *   irecv  MPI_Irecv, completed by wait (MPI_Wait)
 *   clock  real time, not virtual: CLOCK_MONOTONIC (MPI_Wtime's clock,
 *          without its per-process origin: tp_clock())
 *   delay  a busy wait on that clock
 *   copy   nothing: the executor's copies take their real time
 *
 * Beside the plans the sweep runs the library's own MPI_Alltoall,
 * MPI_Allreduce and MPI_Bcast, the barrier study MPI_Barrier, and each
 * names the algorithm Open MPI's tuned component picks for the all-to-all
 * and the barrier (its fixed decision rules, below).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "vcube-bench/bench.h"
#include "comm.h"

/*
 * The posted receives of this rank: request number i + 1 is req[i] (the
 * executor reads 0 as none).
 */
struct mpi_tp {
	MPI_Request *req;
	unsigned int nreq, cap;
	unsigned int *free;	/* slots to reuse */
	unsigned int nfree;
};

static struct mpi_tp tpx;

/* Tags: MPI's upper bound is at least 32767; Open MPI's 2^31 - 1. */
static int tag_ub = 32767;

static int mpi_err(int rc)
{
	return rc == MPI_SUCCESS ? 0 : -EIO;
}

/* A message's tag and length as MPI's ints: 0, -ERANGE or -EMSGSIZE. */
static int mpi_args(unsigned int tag, size_t len, int *t)
{
	if (tag > (unsigned int)tag_ub)
		return -ERANGE;
	if (len > INT_MAX)
		return -EMSGSIZE;
	*t = (int)tag;
	return 0;
}

static int tp_send(void *ctx, unsigned int to, unsigned int tag,
		   const void *buf, size_t len, unsigned int flags)
{
	int t, ret = mpi_args(tag, len, &t);

	(void)ctx;
	if (ret)
		return ret;
	if (flags & VCUBE_SEND_FORCED)
		return mpi_err(MPI_Rsend(buf, (int)len, MPI_BYTE, (int)to, t,
					 MPI_COMM_WORLD));
	return mpi_err(MPI_Send(buf, (int)len, MPI_BYTE, (int)to, t,
				MPI_COMM_WORLD));
}

static int tp_irecv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		    size_t cap, uint64_t *req)
{
	struct mpi_tp *m = ctx;
	unsigned int slot;
	int t, ret = mpi_args(tag, cap, &t);

	if (ret)
		return ret;
	if (m->nfree) {
		slot = m->free[--m->nfree];
	} else {
		if (m->nreq == m->cap) {
			unsigned int cap = m->cap ? 2 * m->cap : 64;
			MPI_Request *r = realloc(m->req, cap * sizeof(*r));
			unsigned int *f;

			if (!r)
				return -ENOMEM;
			m->req = r;
			f = realloc(m->free, cap * sizeof(*f));
			if (!f)
				return -ENOMEM;
			m->free = f;
			m->cap = cap;
		}
		slot = m->nreq++;
	}
	ret = mpi_err(MPI_Irecv(buf, (int)cap, MPI_BYTE, (int)from, t,
				MPI_COMM_WORLD, &m->req[slot]));
	if (ret) {
		m->free[m->nfree++] = slot;
		return ret;
	}
	*req = slot + 1;	/* the executor takes 0 for none */
	return 0;
}

static int tp_wait(void *ctx, uint64_t req, size_t *len)
{
	struct mpi_tp *m = ctx;
	MPI_Status st;
	int n, ret;

	if (!req || req > m->nreq)
		return -EINVAL;
	ret = mpi_err(MPI_Wait(&m->req[req - 1], &st));
	m->free[m->nfree++] = (unsigned int)req - 1;
	if (!ret && len) {
		MPI_Get_count(&st, MPI_BYTE, &n);
		*len = (size_t)n;
	}
	return ret;
}

static int tp_recv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		   size_t cap)
{
	int t, ret = mpi_args(tag, cap, &t);

	(void)ctx;
	if (ret)
		return ret;
	return mpi_err(MPI_Recv(buf, (int)cap, MPI_BYTE, (int)from, t,
				MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/*
 * The real clock: CLOCK_MONOTONIC, which Open MPI's MPI_Wtime reads too,
 * but without the origin MPI_Wtime subtracts, its own first reading in
 * each process. Durations are the same; instants compare across the ranks
 * of one host, as the barrier study's entries and exits must.
 */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static int tp_clock(void *ctx, uint64_t *ns)
{
	(void)ctx;
	*ns = mono_ns();
	return 0;
}

static int tp_delay(void *ctx, uint64_t ns)
{
	uint64_t end = mono_ns() + ns;

	(void)ctx;
	while (mono_ns() < end)
		;
	return 0;
}

static int tp_copy(void *ctx, uint64_t bytes)
{
	(void)ctx;
	(void)bytes;
	return 0;
}

static const struct vcube_transport mpi_transport = {
	.send = tp_send, .irecv = tp_irecv, .wait = tp_wait, .recv = tp_recv,
	.clock = tp_clock, .delay = tp_delay, .copy = tp_copy,
};

/*
 * The MPI library's name of itself, "Open MPI v4.1.4" (its version
 * string's first line, up to a comma), asked once.
 */
static const char *library(void)
{
	static char v[MPI_MAX_LIBRARY_VERSION_STRING];
	int len;

	if (!v[0]) {
		MPI_Get_library_version(v, &len);
		v[strcspn(v, ",\n")] = '\0';
	}
	return v;
}

/* The number of hosts the ranks run on (by processor name). */
static unsigned int count_hosts(int rank, int size)
{
	char name[MPI_MAX_PROCESSOR_NAME] = { 0 }, *all = NULL;
	unsigned int hosts = 0;
	int len, i, j;

	MPI_Get_processor_name(name, &len);
	if (rank == 0)
		all = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
	MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all,
		   MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (rank != 0)
		return 0;
	if (!all)
		return 1;
	for (i = 0; i < size; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(all + (size_t)i * MPI_MAX_PROCESSOR_NAME,
				    all + (size_t)j * MPI_MAX_PROCESSOR_NAME))
				break;
		hosts += j == i;
	}
	free(all);
	return hosts;
}

static int bmpi_open(struct vcube_comm **c, struct vcube_net_desc *net)
{
	int rank, size, flag, *ub, ret;

	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "vcube-bench: MPI_Init failed\n");
		return -EIO;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
	if (flag)
		tag_ub = *ub;
	ret = vcube_comm_create_tp(&mpi_transport, &tpx, (unsigned int)rank,
				   (unsigned int)size, c);
	if (ret) {
		fprintf(stderr, "vcube-bench: rank %d: %s\n", rank,
			strerror(-ret));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	net->nodes = count_hosts(rank, size);
	snprintf(net->topology, sizeof(net->topology), "mpi");
	snprintf(net->shape, sizeof(net->shape), "%u host%s", net->nodes,
		 net->nodes == 1 ? "" : "s");
	snprintf(net->profile, sizeof(net->profile), "%.*s",
		 (int)sizeof(net->profile) - 1, library());
	return 0;
}

static int bmpi_close(struct vcube_comm *c, int status, bool agreed)
{
	if (!agreed && status) {
		fflush(stdout);
		/* the others may be inside a plan: end them all */
		MPI_Abort(MPI_COMM_WORLD, status);
	}
	vcube_comm_close(c);
	free(tpx.req);
	free(tpx.free);
	MPI_Finalize();
	return status;
}

static const char *bmpi_native_name(unsigned int kind)
{
	switch (kind) {
	case VCUBE_ALGO_XCHG: return "MPI_Alltoall";
	case VCUBE_ALGO_REDUCE: return "MPI_Allreduce";
	case VCUBE_ALGO_BCAST: return "MPI_Bcast";
	case VCUBE_ALGO_SYNC: return "MPI_Barrier";
	}
	return NULL;
}

static int bmpi_native(struct bench_point *pt, unsigned int kind)
{
	int n = (int)pt->len;

	if (pt->len > INT_MAX)
		return -EMSGSIZE;
	switch (kind) {
	case VCUBE_ALGO_XCHG:
		return mpi_err(MPI_Alltoall(pt->sbuf, n, MPI_BYTE, pt->rbuf, n,
					    MPI_BYTE, MPI_COMM_WORLD));
	case VCUBE_ALGO_REDUCE:
		return mpi_err(MPI_Allreduce(pt->sbuf, pt->rbuf, n / 8,
					     MPI_UINT64_T, MPI_SUM,
					     MPI_COMM_WORLD));
	case VCUBE_ALGO_BCAST:
		return mpi_err(MPI_Bcast(pt->rbuf, n, MPI_BYTE, 0,
					 MPI_COMM_WORLD));
	case VCUBE_ALGO_SYNC:
		return mpi_err(MPI_Barrier(MPI_COMM_WORLD));
	}
	return -ENOENT;
}

/*
 * Open MPI 4.1's tuned component, MPI_Alltoall: the fixed decision rules
 * of ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (4.1.x), by
 * communicator size and bytes per peer. 1 linear, 2 pairwise,
 * 3 modified_bruck, 4 linear_sync, 5 two_proc.
 */
static int tuned_alltoall(unsigned int p, uint64_t b)
{
	static const struct { unsigned int below; uint64_t cut[10]; int alg[11]; }
	rules[] = {
		{ 3, { 2, 4, 16, 64, 256, 4096, 32768, 262144, 1048576, 0 },
		  { 2, 5, 2, 5, 2, 5, 2, 4, 5, 2 } },
		{ 8, { 8192, 16384, 65536, 524288, 1048576, 0 },
		  { 4, 1, 4, 1, 2, 1 } },
		{ 16, { 262144, 0 }, { 4, 1 } },
		{ 32, { 4, 512, 8192, 32768, 262144, 524288, 0 },
		  { 4, 3, 4, 1, 4, 1, 4 } },
		{ 64, { 512, 524288, 0 }, { 3, 1, 4 } },
		{ 128, { 1024, 2048, 4096, 262144, 0 }, { 3, 1, 4, 1, 2 } },
		{ 256, { 1024, 2048, 262144, 0 }, { 3, 4, 1, 2 } },
		{ 512, { 1024, 8192, 32768, 0 }, { 3, 4, 1, 2 } },
		{ 1024, { 512, 8192, 16384, 131072, 262144, 0 },
		  { 3, 4, 1, 4, 1, 2 } },
		{ 2048, { 512, 1024, 2048, 16384, 262144, 0 },
		  { 3, 4, 1, 4, 1, 4 } },
		{ 4096, { 1024, 4096, 8192, 131072, 0 }, { 3, 4, 1, 4, 1 } },
		{ UINT_MAX, { 2048, 8192, 16384, 32768, 65536, 0 },
		  { 3, 4, 1, 4, 1, 4 } },
	};
	unsigned int i, k;

	for (i = 0; p >= rules[i].below; i++)
		;
	for (k = 0; rules[i].cut[k] && b >= rules[i].cut[k]; k++)
		;
	return rules[i].alg[k];
}

/*
 * Open MPI 4.1's tuned component, MPI_Barrier, by communicator size (the
 * same file): 1 linear, 2 double_ring, 3 recursive_doubling, 4 bruck,
 * 5 two_proc, 6 tree.
 */
static int tuned_barrier(unsigned int p)
{
	static const struct { unsigned int below; int alg; } rules[] = {
		{ 4, 3 }, { 8, 1 }, { 64, 3 }, { 256, 4 }, { 512, 6 },
		{ 1024, 4 }, { 4096, 6 }, { UINT_MAX, 4 },
	};
	unsigned int i;

	for (i = 0; p >= rules[i].below; i++)
		;
	return rules[i].alg;
}

/* A forced algorithm of tuned's for @coll, if the user set one, else 0. */
static int tuned_forced(const char *coll, int max)
{
	const char *dyn = getenv("OMPI_MCA_coll_tuned_use_dynamic_rules");
	char var[64];
	const char *v;

	snprintf(var, sizeof(var), "OMPI_MCA_coll_tuned_%s_algorithm", coll);
	v = getenv(var);
	if (!dyn || !atoi(dyn) || !v || atoi(v) < 1 || atoi(v) > max)
		return 0;
	return atoi(v);
}

/*
 * What Open MPI picks for MPI_Alltoall or MPI_Barrier: tuned's forced
 * algorithm if the user set one (coll_tuned_use_dynamic_rules and
 * coll_tuned_<coll>_algorithm), else its fixed rule; and the registry's
 * nearest plan. For the all-to-all, Open MPI's pairwise is GEN (send to
 * rank + i, receive from rank - i), its linear and linear_sync post every
 * receive and send at once as vcube's linear does, modified Bruck has
 * none. For the barrier, its bruck is the dissemination barrier, its
 * recursive doubling (and two_proc) the butterfly gsync, its tree the
 * binomial tree.
 */
static const char *bmpi_native_algo(unsigned int kind, unsigned int p,
				    uint64_t len, char *buf, size_t n)
{
	static const char *const xnames[] = {
		"", "linear", "pairwise", "modified_bruck", "linear_sync",
		"two_proc",
	};
	static const char *const xnearest[] = {
		NULL, "linear", "gen", NULL, "linear", "pex",
	};
	static const char *const bnames[] = {
		"", "linear", "double_ring", "recursive_doubling", "bruck",
		"two_proc", "tree",
	};
	static const char *const bnearest[] = {
		NULL, NULL, NULL, "gsync", "dissemination", "gsync", "tree",
	};
	int alg;

	buf[0] = '\0';
	if (strncmp(library(), "Open MPI v4.1", 13))
		return NULL;
	if (kind == VCUBE_ALGO_XCHG) {
		alg = tuned_forced("alltoall", 5) ?: tuned_alltoall(p, len);
		snprintf(buf, n, "%s", xnames[alg]);
		return xnearest[alg];
	}
	if (kind == VCUBE_ALGO_SYNC) {
		alg = tuned_forced("barrier", 6) ?: tuned_barrier(p);
		snprintf(buf, n, "%s", bnames[alg]);
		return bnearest[alg];
	}
	return NULL;
}

/* ---- --costs: the generic profile ------------------------------------- */

/*
 * The half round trip of a ping-pong of @len bytes between ranks 0 and 1,
 * the least of @reps after one warm-up (seconds, at rank 0).
 */
static double pingpong(int rank, uint8_t *buf, uint64_t len, unsigned int reps)
{
	double best = 1e30, t;
	unsigned int r;

	for (r = 0; r <= reps; r++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(buf, (int)len, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, (int)len, MPI_BYTE, 1, 2, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, (int)len, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, (int)len, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
		}
		t = (MPI_Wtime() - t) / 2;
		if (r && t < best)
			best = t;
	}
	return best;
}

/* A local copy's cost, ps per byte: the least of @reps 1 MiB memcpys. */
static double copy_rate(unsigned int reps)
{
	const size_t n = 1 << 20;
	char *a = malloc(n), *b = malloc(n);
	double best = 1e30, t;
	unsigned int r;

	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 1, n);
	memset(b, 2, n);
	for (r = 0; r <= reps; r++) {
		t = MPI_Wtime();
		memcpy(b, a, n);
		__asm__ __volatile__("" : : "r"(b) : "memory");
		t = MPI_Wtime() - t;
		if (r && t < best)
			best = t;
	}
	free(a);
	free(b);
	return best * 1e12 / n;
}

/*
 * Fit t = alpha + beta m to the fitted points (even-numbered sizes),
 * least squares on relative error (each point weighted 1 / t^2, so the
 * small messages count as much as the large); the odd-numbered ones are
 * predicted. 0, or -EINVAL for fewer than two fitted points.
 */
static int fit(const uint64_t *m, const double *t, unsigned int n,
	       double *alpha, double *beta)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, w, det;
	unsigned int i, k = 0;

	for (i = 0; i < n; i += 2, k++) {
		w = 1 / (t[i] * t[i]);
		sw += w;
		sx += w * m[i];
		sy += w * t[i];
		sxx += w * (double)m[i] * m[i];
		sxy += w * m[i] * t[i];
	}
	det = sw * sxx - sx * sx;
	if (k < 2 || det == 0)
		return -EINVAL;
	*alpha = (sxx * sy - sx * sxy) / det;
	*beta = (sw * sxy - sx * sy) / det;
	return 0;
}

static int bmpi_costs(unsigned int reps, const uint64_t *sizes,
		      unsigned int nsizes)
{
	double t[MAX_SIZES], alpha = 0, beta = 0, copy, err, worst = 0;
	char host[MPI_MAX_PROCESSOR_NAME];
	int rank, size, len, ret = 0;
	uint64_t maxlen = 0;
	unsigned int i;
	uint8_t *buf;

	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "vcube-bench: --costs measures a ping-pong: run it on 2 ranks or more (mpirun -n 2)\n");
		MPI_Finalize();
		return 2;
	}
	for (i = 0; i < nsizes; i++) {
		if (sizes[i] > INT_MAX) {
			if (rank == 0)
				fprintf(stderr, "vcube-bench: --costs: sizes up to %d bytes\n",
					INT_MAX);
			MPI_Finalize();
			return 2;
		}
		if (sizes[i] > maxlen)
			maxlen = sizes[i];
	}
	buf = calloc(1, maxlen + 1);
	if (!buf) {
		fprintf(stderr, "vcube-bench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (i = 0; i < nsizes; i++)
		t[i] = pingpong(rank, buf, sizes[i], reps);
	copy = copy_rate(reps);
	free(buf);
	MPI_Get_processor_name(host, &len);
	if (rank == 0 && fit(sizes, t, nsizes, &alpha, &beta)) {
		fprintf(stderr, "vcube-bench: --costs: give at least three sizes (two are fitted)\n");
		ret = 2;
	}
	if (rank == 0 && !ret) {
		if (alpha < 0)
			alpha = 0;
		if (beta < 0)
			beta = 0;
		printf("# vcube profile: a generic machine fitted to %s on %s\n",
		       library(), host);
		printf("# by vcube-bench --transport mpi --costs, %d ranks, ping-pong of ranks 0 and 1,\n",
		       size);
		printf("# half round trip, least of %u repetitions after a warm-up\n",
		       reps);
		printf("# fitted: t = alpha + beta m, least squares on relative error, on the\n");
		printf("# sizes marked 'fit'; the others are predicted\n");
		printf("#   %10s %12s %12s %8s\n", "bytes", "measured_us", "model_us",
		       "error");
		for (i = 0; i < nsizes; i++) {
			err = (alpha + beta * sizes[i]) / t[i] - 1;
			if (i % 2 && fabs(err) > worst)
				worst = fabs(err);
			printf("#   %10" PRIu64 " %12.3f %12.3f %+7.1f%% %s\n",
			       sizes[i], t[i] * 1e6,
			       (alpha + beta * sizes[i]) * 1e6, 100 * err,
			       i % 2 ? "" : "fit");
		}
		printf("# worst error on the predicted sizes: %.1f%%\n",
		       100 * worst);
		printf("# copy: the least of %u memcpys of 1 MiB\n", reps);
		printf("base=generic\ntopology=fattree\n");
		printf("alpha_ps=%.0f\nbyte_ps=%.0f\ncopy_ps=%.0f\n",
		       alpha * 1e12, beta * 1e12, copy > 1000 ? 1000 : copy);
	}
	MPI_Finalize();
	return ret;
}

const struct bench_tp bench_mpi_tp = {
	.name = "mpi",
	.open = bmpi_open,
	.close = bmpi_close,
	.native = bmpi_native,
	.native_name = bmpi_native_name,
	.native_algo = bmpi_native_algo,
	.costs = bmpi_costs,
};
