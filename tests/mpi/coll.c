// SPDX-License-Identifier: MIT
/*
 * Every collective of the subset, its data checked, at several sizes, on
 * MPI_COMM_WORLD, a duplicate of it, and the halves MPI_Comm_split makes
 * (even and odd ranks, ordered by descending key) and MPI_COMM_SELF,
 * with MPI_IN_PLACE where MPI allows it; a contiguous derived type, and
 * MAXLOC, on the way.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"

static const int counts[] = { 0, 1, 7, 300 };
#define NCOUNTS ((int)(sizeof(counts) / sizeof(counts[0])))

/* The value rank r puts at element i of block j. */
static int val(int r, int j, int i)
{
	return r * 1000003 + j * 1009 + i;
}

/* One communicator's run: its buffers, and the round's count and root. */
struct run {
	MPI_Comm c;
	const char *what;
	int rank, size;
	int n, root;		/* the round's */
	int *a, *b;		/* 300 ints a rank, and one */
	int *cnt, *sd, *rd;	/* a count and two displacements a rank */
};

/* bcast: the root's values everywhere */
static void bcast(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, n = p->n, root = p->root, *a = p->a, i;

	for (i = 0; i < n; i++)
		a[i] = rank == root ? val(root, 0, i) : -1;
	MPI_Bcast(a, n, MPI_INT, root, c);
	for (i = 0; i < n; i++)
		CHECK(a[i] == val(root, 0, i), "%s bcast %d [%d]", what,
		      n, i);
}

/* allreduce: sums of val(r, 0, i), and the max in place */
static void allreduce(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, size = p->size, n = p->n, *a = p->a, *b = p->b, i;

	for (i = 0; i < n; i++)
		a[i] = val(rank, 0, i) % 1000;
	MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, c);
	for (i = 0; i < n; i++) {
		long s = 0;
		int r;

		for (r = 0; r < size; r++)
			s += val(r, 0, i) % 1000;
		CHECK(b[i] == s, "%s allreduce %d [%d]: %d, %ld", what, n,
		      i, b[i], s);
	}
	MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_INT, MPI_MAX, c);
	for (i = 0; i < n; i++) {
		int m = 0, r;

		for (r = 0; r < size; r++)
			if (val(r, 0, i) % 1000 > m)
				m = val(r, 0, i) % 1000;
		CHECK(a[i] == m, "%s allreduce max in place %d [%d]: %d, %d",
		      what, n, i, a[i], m);
	}
}

/* reduce (min at the root) and scan (prefix sums) */
static void reduce_scan(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, n = p->n, root = p->root, *a = p->a, *b = p->b, i;

	for (i = 0; i < n; i++)
		a[i] = rank + i;
	memset(b, 0, sizeof(int) * (size_t)(n + 1));
	MPI_Reduce(a, b, n, MPI_INT, MPI_MIN, root, c);
	if (rank == root)
		for (i = 0; i < n; i++)
			CHECK(b[i] == i, "%s reduce min %d [%d]: %d", what,
			      n, i, b[i]);
	MPI_Scan(a, b, n, MPI_INT, MPI_SUM, c);
	for (i = 0; i < n; i++)
		CHECK(b[i] == rank * (rank + 1) / 2 + (rank + 1) * i,
		      "%s scan %d [%d]: %d", what, n, i, b[i]);
}

/* alltoall, both ways */
static void alltoall(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, size = p->size, n = p->n, *a = p->a, *b = p->b;
	int i, j;

	for (j = 0; j < size; j++)
		for (i = 0; i < n; i++)
			a[j * n + i] = val(rank, j, i);
	MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, c);
	for (j = 0; j < size; j++)
		for (i = 0; i < n; i++)
			CHECK(b[j * n + i] == val(j, rank, i),
			      "%s alltoall %d: block %d [%d]", what, n, j,
			      i);
	MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, n, MPI_INT,
		     c);
	CHECK(!memcmp(a, b, sizeof(int) * (size_t)(n * size)),
	      "%s alltoall in place %d", what, n);
}

/* gather, allgather, scatter */
static void gather_scatter(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, size = p->size, n = p->n, root = p->root;
	int *a = p->a, *b = p->b, i, j;

	for (i = 0; i < n; i++)
		a[i] = val(rank, 1, i);
	MPI_Gather(a, n, MPI_INT, b, n, MPI_INT, root, c);
	if (rank == root)
		for (j = 0; j < size; j++)
			for (i = 0; i < n; i++)
				CHECK(b[j * n + i] == val(j, 1, i),
				      "%s gather %d", what, n);
	memset(b, 0, sizeof(int) * (size_t)(n * size + 1));
	MPI_Allgather(a, n, MPI_INT, b, n, MPI_INT, c);
	for (j = 0; j < size; j++)
		for (i = 0; i < n; i++)
			CHECK(b[j * n + i] == val(j, 1, i),
			      "%s allgather %d", what, n);
	if (rank == root)
		for (j = 0; j < size; j++)
			for (i = 0; i < n; i++)
				b[j * n + i] = val(root, j, i);
	MPI_Scatter(b, n, MPI_INT, a, n, MPI_INT, root, c);
	for (i = 0; i < n; i++)
		CHECK(a[i] == val(root, rank, i), "%s scatter %d", what,
		      n);
}

/* alltoallv: rank r sends (r + j) % 3 * n / 2 ints to j */
static void alltoallv(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, size = p->size, n = p->n, *a = p->a, *b = p->b;
	int *cnt = p->cnt, *sd = p->sd, *rd = p->rd, i, j;
	int rc[1024] = { 0 }, off = 0;

	for (j = 0, i = 0; j < size; j++) {
		cnt[j] = (rank + j) % 3 * n / 2;
		sd[j] = i;
		i += cnt[j];
	}
	for (i = 0; i < 3 * n / 2 * size && i < 300 * size; i++)
		a[i] = val(rank, 2, i);
	for (j = 0; j < size; j++) {
		rc[j] = (j + rank) % 3 * n / 2;
		rd[j] = off;
		off += rc[j];
	}
	MPI_Alltoallv(a, cnt, sd, MPI_INT, b, rc, rd, MPI_INT, c);
	for (j = 0; j < size; j++) {
		int so = 0, jj;

		for (jj = 0; jj < rank; jj++)
			so += (j + jj) % 3 * n / 2;
		for (i = 0; i < rc[j]; i++)
			CHECK(b[rd[j] + i] == val(j, 2, so + i),
			      "%s alltoallv %d from %d [%d]", what, n, j, i);
	}
}

/* reduce_scatter: rank r gets element r's sums, n of them */
static void reduce_scatter(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, size = p->size, n = p->n, *a = p->a, *b = p->b;
	int *cnt = p->cnt, i, j;

	for (j = 0; j < size; j++)
		cnt[j] = n;
	for (i = 0; i < n * size; i++)
		a[i] = i + rank;
	MPI_Reduce_scatter(a, b, cnt, MPI_INT, MPI_SUM, c);
	for (i = 0; i < n; i++)
		CHECK(b[i] == size * (rank * n + i) + size * (size - 1) / 2,
		      "%s reduce_scatter %d [%d]: %d", what, n, i, b[i]);
}

/* doubles, and MAXLOC on (value, rank) */
static void doubles(const struct run *p)
{
	MPI_Comm c = p->c;
	const char *what = p->what;
	int rank = p->rank, size = p->size;
	double d, dsum;
	struct { double v; int i; } mx, mxo;

	d = 0.5 * rank;
	MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, c);
	CHECK(dsum == 0.25 * size * (size - 1), "%s double sum %g", what, dsum);
	mx.v = rank % 3;
	mx.i = rank;
	MPI_Allreduce(&mx, &mxo, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c);
	CHECK(mxo.v == (size > 2 ? 2 : size - 1) &&
	      mxo.i == (size > 2 ? 2 : size - 1),
	      "%s maxloc (%g, %d)", what, mxo.v, mxo.i);
}

/* Every collective at every count of counts[], then the doubles. */
static void run(MPI_Comm c, const char *what)
{
	static void (*const rounds[])(const struct run *) = {
		bcast, allreduce, reduce_scan, alltoall, gather_scatter,
		alltoallv, reduce_scatter,
	};
	struct run s = { .c = c, .what = what };
	unsigned int f;
	int k;

	MPI_Comm_rank(c, &s.rank);
	MPI_Comm_size(c, &s.size);
	s.a = malloc(sizeof(int) * 300 * (size_t)s.size + 1);
	s.b = malloc(sizeof(int) * 300 * (size_t)s.size + 1);
	s.cnt = malloc(sizeof(int) * (size_t)s.size * 3);
	s.sd = s.cnt + s.size;
	s.rd = s.sd + s.size;
	MPI_Barrier(c);
	for (k = 0; k < NCOUNTS; k++) {
		s.n = counts[k];
		s.root = (k + 1) % s.size;
		for (f = 0; f < sizeof(rounds) / sizeof(rounds[0]); f++)
			rounds[f](&s);
	}
	doubles(&s);
	free(s.a);
	free(s.b);
	free(s.cnt);
}

int main(int argc, char **argv)
{
	MPI_Comm dup, half;
	MPI_Datatype pair;
	int rank, size, hr, hs, v[2], w[2], ts;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	run(MPI_COMM_WORLD, "world");
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	run(dup, "dup");
	/* halves, the highest rank first */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
	MPI_Comm_rank(half, &hr);
	MPI_Comm_size(half, &hs);
	CHECK(hs == (size + 1 - rank % 2) / 2 &&
	      hr == (hs - 1) - rank / 2, "split: rank %d of %d", hr, hs);
	run(half, "half");
	run(MPI_COMM_SELF, "self");
	/* a message on one communicator is not another's */
	MPI_Type_contiguous(2, MPI_INT, &pair);
	MPI_Type_commit(&pair);
	MPI_Type_size(pair, &ts);
	CHECK(ts == 2 * (int)sizeof(int), "contiguous size %d", ts);
	v[0] = rank;
	v[1] = -rank;
	{
		MPI_Status st;
		int n;

		MPI_Sendrecv(v, 1, pair, (rank + 1) % size, 1, w, 1, pair,
			     (rank + size - 1) % size, 1, dup, &st);
		MPI_Get_count(&st, pair, &n);
		CHECK(n == 1 && w[0] == (rank + size - 1) % size &&
		      w[1] == -w[0], "contiguous pair (%d, %d)", w[0], w[1]);
	}
	MPI_Type_free(&pair);
	MPI_Comm_free(&half);
	MPI_Comm_free(&dup);
	CHECK(dup == MPI_COMM_NULL, "freed");
	return checks_done("coll");
}
