// SPDX-License-Identifier: MIT
/*
 * The nonblocking collectives: each against its blocking call's result,
 * value by value, on MPI_COMM_WORLD and on a split communicator; several
 * pending at once and waited for in reverse, or tested until done; a
 * blocking receive while a barrier is pending, whose sender waits for
 * that barrier first (no order of waits may deadlock); the bad cases
 * (no request, a bad root, MPI_Request_free of a pending collective).
 * The same source passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void fill(int *v, int n, int salt)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = salt * 1000 + i;
}

static void exchanges(MPI_Comm c);
static void vcalls(MPI_Comm c, int *a);

/* Each reduction and broadcast against its blocking twin, then the rest. */
static void twins(MPI_Comm c)
{
	int me, p, i, root, n = 3;
	int *a, *b, *x, *y, *counts, *displs;
	MPI_Request rq;

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &p);
	root = p - 1;
	a = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	b = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	x = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	y = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	counts = malloc(sizeof(int) * (size_t)p);
	displs = malloc(sizeof(int) * (size_t)p);

	/* broadcast */
	fill(a, n, me == 0 ? 7 : me);
	MPI_Ibcast(a, n, MPI_INT, 0, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		CHECK(a[i] == 7000 + i, "ibcast: %d: %d", i, a[i]);

	/* reductions */
	fill(a, n, me);
	MPI_Iallreduce(a, x, n, MPI_INT, MPI_SUM, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Allreduce(a, y, n, MPI_INT, MPI_SUM, c);
	CHECK(!memcmp(x, y, sizeof(int) * (size_t)n), "iallreduce differs");
	memcpy(x, a, sizeof(int) * (size_t)n);
	MPI_Iallreduce(MPI_IN_PLACE, x, n, MPI_INT, MPI_MAX, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		CHECK(x[i] == (p - 1) * 1000 + i, "iallreduce in place: %d", x[i]);
	memset(x, 0, sizeof(int) * (size_t)n);
	MPI_Ireduce(a, x, n, MPI_INT, MPI_SUM, root, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (me == root)
		CHECK(!memcmp(x, y, sizeof(int) * (size_t)n), "ireduce differs");
	MPI_Iscan(a, x, n, MPI_INT, MPI_SUM, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Scan(a, y, n, MPI_INT, MPI_SUM, c);
	CHECK(!memcmp(x, y, sizeof(int) * (size_t)n), "iscan differs");
	fill(a, n * p, me);
	MPI_Ireduce_scatter_block(a, x, n, MPI_INT, MPI_SUM, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Reduce_scatter_block(a, y, n, MPI_INT, MPI_SUM, c);
	CHECK(!memcmp(x, y, sizeof(int) * (size_t)n), "ireduce_scatter_block differs");
	for (i = 0; i < p; i++)
		counts[i] = i + 1;
	MPI_Ireduce_scatter(a, x, counts, MPI_INT, MPI_SUM, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Reduce_scatter(a, y, counts, MPI_INT, MPI_SUM, c);
	CHECK(!memcmp(x, y, sizeof(int) * (size_t)(me + 1)), "ireduce_scatter differs");

	free(a);
	free(x);
	free(y);
	free(counts);
	free(b);
	free(displs);
	exchanges(c);
}

/* The all-to-all, all-gather and rooted calls. */
static void exchanges(MPI_Comm c)
{
	int me, p, i, k, root, n = 3;
	int *a, *x, *y, *counts, *displs;
	MPI_Request rq;

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &p);
	root = p - 1;
	a = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	x = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	y = malloc(sizeof(int) * (size_t)(n * p * p + 8));
	counts = malloc(sizeof(int) * (size_t)p);
	displs = malloc(sizeof(int) * (size_t)p);

	/* all to all, all gather */
	fill(a, n * p, me);
	MPI_Ialltoall(a, n, MPI_INT, x, n, MPI_INT, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < p; i++)
		for (k = 0; k < n; k++)
			CHECK(x[i * n + k] == i * 1000 + me * n + k, "ialltoall: from %d, %d: %d",
			      i, k, x[i * n + k]);
	MPI_Iallgather(a, n, MPI_INT, x, n, MPI_INT, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < p; i++)
		for (k = 0; k < n; k++)
			CHECK(x[i * n + k] == i * 1000 + k, "iallgather: %d, %d", i, k);

	/* rooted: gather, scatter, and the v-calls with a gap of 2 */
	fill(a, n, me);
	memset(x, 0xff, sizeof(int) * (size_t)(n * p));
	MPI_Igather(a, n, MPI_INT, x, n, MPI_INT, root, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (me == root)
		for (i = 0; i < p; i++)
			for (k = 0; k < n; k++)
				CHECK(x[i * n + k] == i * 1000 + k, "igather: %d, %d", i, k);
	memset(y, 0, sizeof(int) * (size_t)n);
	MPI_Iscatter(x, n, MPI_INT, y, n, MPI_INT, root, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	CHECK(!memcmp(y, a, sizeof(int) * (size_t)n), "iscatter differs");
	for (i = 0, k = 0; i < p; i++) {
		counts[i] = i + 1;
		displs[i] = k;
		k += i + 3;
	}
	fill(a, me + 1, me);
	memset(x, 0xff, sizeof(int) * (size_t)k);
	MPI_Igatherv(a, me + 1, MPI_INT, x, counts, displs, MPI_INT, root, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (me == root)
		for (i = 0; i < p; i++) {
			for (k = 0; k <= i; k++)
				CHECK(x[displs[i] + k] == i * 1000 + k, "igatherv: %d, %d", i, k);
			CHECK(x[displs[i] + i + 1] == -1, "igatherv wrote into a gap");
		}
	memset(y, 0, sizeof(int) * (size_t)(me + 1));
	MPI_Iscatterv(x, counts, displs, MPI_INT, y, me + 1, MPI_INT, root, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	CHECK(!memcmp(y, a, sizeof(int) * (size_t)(me + 1)), "iscatterv differs");
	memset(x, 0xff, sizeof(int) * (size_t)(displs[p - 1] + p + 2));
	MPI_Iallgatherv(a, me + 1, MPI_INT, x, counts, displs, MPI_INT, c, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < p; i++)
		for (k = 0; k <= i; k++)
			CHECK(x[displs[i] + k] == i * 1000 + k, "iallgatherv: %d, %d", i, k);
	free(x);
	free(y);
	free(counts);
	free(displs);
	vcalls(c, a);
	free(a);
}

/* MPI_Ialltoallv: rank i sends rank j (i + j) % 3 + 1 ints. */
static void vcalls(MPI_Comm c, int *a)
{
	int me, p, i, k;
	int *x;
	MPI_Request rq;

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &p);
	x = malloc(sizeof(int) * (size_t)(5 * p + 8));
	{
		int sc[64], sd[64], rc[64], rd[64], s = 0, r = 0;

		for (i = 0; i < p; i++) {
			sc[i] = (me + i) % 3 + 1;
			sd[i] = s;
			s += sc[i] + 1;
			rc[i] = (i + me) % 3 + 1;
			rd[i] = r;
			r += rc[i] + 1;
		}
		for (i = 0; i < p; i++)
			for (k = 0; k < sc[i]; k++)
				a[sd[i] + k] = me * 1000 + i * 10 + k;
		MPI_Ialltoallv(a, sc, sd, MPI_INT, x, rc, rd, MPI_INT, c, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (i = 0; i < p; i++)
			for (k = 0; k < rc[i]; k++)
				CHECK(x[rd[i] + k] == i * 1000 + me * 10 + k, "ialltoallv: %d, %d: %d",
				      i, k, x[rd[i] + k]);
	}
	/* MPI_Ialltoallw: the same blocks, displacements in bytes */
	{
		int sc[64], sd[64], rc[64], rd[64];
		MPI_Datatype t[64];

		for (i = 0; i < p; i++) {
			sc[i] = (me + i) % 3 + 1;
			rc[i] = (i + me) % 3 + 1;
			sd[i] = (i == 0 ? 0 : sd[i - 1] + (sc[i - 1] + 1) * (int)sizeof(int));
			rd[i] = (i == 0 ? 0 : rd[i - 1] + (rc[i - 1] + 1) * (int)sizeof(int));
			t[i] = MPI_INT;
		}
		memset(x, 0, sizeof(int) * (size_t)(5 * p));
		MPI_Ialltoallw(a, sc, sd, t, x, rc, rd, t, c, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (i = 0; i < p; i++)
			for (k = 0; k < rc[i]; k++)
				CHECK(x[rd[i] / (int)sizeof(int) + k] == i * 1000 + me * 10 + k,
				      "ialltoallw: %d, %d", i, k);
	}
	/* MPI_Iexscan against MPI_Exscan, and in place */
	{
		int in[2] = { me + 1, 2 * me }, o[2] = { 0, 0 }, e[2] = { 0, 0 };

		MPI_Iexscan(in, o, 2, MPI_INT, MPI_SUM, c, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Exscan(in, e, 2, MPI_INT, MPI_SUM, c);
		CHECK(me == 0 || (o[0] == e[0] && o[1] == e[1]), "iexscan: %d %d", o[0], o[1]);
		CHECK(me == 0 || o[0] == me * (me + 1) / 2, "iexscan: %d", o[0]);
		MPI_Iexscan(MPI_IN_PLACE, in, 2, MPI_INT, MPI_SUM, c, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		CHECK(me == 0 || (in[0] == e[0] && in[1] == e[1]), "iexscan in place: %d", in[0]);
	}
	free(x);
}

/* Several pending at once: waited for in reverse, then tested until done. */
static void overlap(MPI_Comm c)
{
	int v[4], s[4], i, flag, me, p;
	MPI_Request rq[4];

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &p);
	for (i = 0; i < 4; i++)
		v[i] = me + i;
	MPI_Ibarrier(c, &rq[0]);
	MPI_Iallreduce(&v[1], &s[1], 1, MPI_INT, MPI_SUM, c, &rq[1]);
	MPI_Ibcast(&v[2], 1, MPI_INT, 0, c, &rq[2]);
	MPI_Iallreduce(&v[3], &s[3], 1, MPI_INT, MPI_MAX, c, &rq[3]);
	for (i = 3; i >= 0; i--)
		MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
	CHECK(s[1] == p * (p - 1) / 2 + p, "overlap: sum %d", s[1]);
	CHECK(v[2] == 2, "overlap: bcast %d", v[2]);
	CHECK(s[3] == p - 1 + 3, "overlap: max %d", s[3]);
	MPI_Ibarrier(c, &rq[0]);
	MPI_Iallreduce(&v[1], &s[1], 1, MPI_INT, MPI_SUM, c, &rq[1]);
	do
		MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
	while (!flag);
	CHECK(s[1] == p * (p - 1) / 2 + p, "testall: sum %d", s[1]);
}

/*
 * Rank 1 waits for a barrier before it sends; rank 0 receives while its
 * barrier is pending: the receive must move the barrier on.
 */
static void no_deadlock(void)
{
	MPI_Request rq;
	int v = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	if (rank == 0) {
		MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		CHECK(v == 42, "received %d", v);
	}
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (rank == 1) {
		v = 42;
		MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
	}
	/* a blocking collective while a nonblocking one is pending */
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	v = rank;
	MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	CHECK(v == size * (size - 1) / 2, "allreduce under ibarrier: %d", v);
}

/*
 * MPI_Comm_idup: of MPI_COMM_WORLD beside an MPI_Iallreduce on it; two at
 * once of one communicator; and of two overlapping ones, each rank taking
 * them in its own order (a blocking dup in those orders would deadlock).
 * Each new communicator works and differs from the others.
 */
static void idups(void)
{
	MPI_Comm a, b, lo, hi, dlo, dhi, first, second;
	MPI_Request rq[3];
	int v = rank, s = -1, n, r;

	MPI_Comm_idup(MPI_COMM_WORLD, &a, &rq[0]);
	MPI_Iallreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
	MPI_Comm_idup(MPI_COMM_WORLD, &b, &rq[2]);
	MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
	CHECK(s == size * (size - 1) / 2, "iallreduce beside idup: %d", s);
	MPI_Comm_compare(a, MPI_COMM_WORLD, &r);
	CHECK(r == MPI_CONGRUENT, "idup's compare %d", r);
	MPI_Comm_compare(a, b, &r);
	CHECK(r == MPI_CONGRUENT, "two idups compare %d", r);
	MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, b);
	CHECK(s == size * (size - 1) / 2, "allreduce on an idup: %d", s);
	/* lo: ranks 0 .. size-2, hi: 1 .. size-1; the middle ones in both */
	MPI_Comm_split(MPI_COMM_WORLD, rank < size - 1 ? 0 : MPI_UNDEFINED, rank, &lo);
	MPI_Comm_split(MPI_COMM_WORLD, rank > 0 ? 0 : MPI_UNDEFINED, rank, &hi);
	dlo = dhi = MPI_COMM_NULL;
	first = rank % 2 ? lo : hi;
	second = rank % 2 ? hi : lo;
	rq[0] = rq[1] = MPI_REQUEST_NULL;
	if (first != MPI_COMM_NULL)
		MPI_Comm_idup(first, first == lo ? &dlo : &dhi, &rq[0]);
	if (second != MPI_COMM_NULL)
		MPI_Comm_idup(second, second == lo ? &dlo : &dhi, &rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	if (dlo != MPI_COMM_NULL) {
		MPI_Comm_size(dlo, &n);
		MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_MAX, dlo);
		CHECK(n == size - 1 && s == size - 2, "lo's idup: %d ranks, max %d", n, s);
		MPI_Comm_free(&dlo);
		MPI_Comm_free(&lo);
	}
	if (dhi != MPI_COMM_NULL) {
		MPI_Comm_size(dhi, &n);
		MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_MIN, dhi);
		CHECK(n == size - 1 && s == 1, "hi's idup: %d ranks, min %d", n, s);
		MPI_Comm_free(&dhi);
		MPI_Comm_free(&hi);
	}
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
}

static void bad(void)
{
	MPI_Request rq;
	int v = 0, ret;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	ret = MPI_Ibcast(&v, 1, MPI_INT, size, MPI_COMM_WORLD, &rq);
	CHECK(ret != MPI_SUCCESS, "ibcast to root %d passed", size);
#ifdef VCUBE_MPI	/* Open MPI does not check it */
	ret = MPI_Ibarrier(MPI_COMM_WORLD, NULL);
	CHECK(ret != MPI_SUCCESS, "ibarrier without a request passed");
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	ret = MPI_Request_free(&rq);
	CHECK(ret != MPI_SUCCESS, "freed a pending ibarrier's request");
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
#endif
	ret = MPI_Iallreduce(&v, &v, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
	CHECK(ret != MPI_SUCCESS, "iallreduce of -1 passed");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	MPI_Comm half;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	twins(MPI_COMM_WORLD);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
	twins(half);
	overlap(MPI_COMM_WORLD);
	overlap(half);
	if (size > 1)
		no_deadlock();
	if (size > 2)
		idups();
	bad();
	MPI_Comm_free(&half);
	return checks_done("icoll");
}
