// SPDX-License-Identifier: MIT
/*
 * The v-collectives and MPI's other derived collectives: MPI_Gatherv and
 * MPI_Scatterv with a different count and a gap per rank (and in place at
 * the root), MPI_Allgatherv (and in place), MPI_Alltoallw (and in place),
 * MPI_Reduce_scatter_block,
 * MPI_Exscan (and in place), MPI_Reduce_local; each rank's data checked
 * value by value. The same source passes under Open MPI
 * (tests/host/mpi_ompi.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* rank i's block: i + 1 ints, i * 1000 + k; displaced with a gap of 2 */
static void layout(int *counts, int *displs, int *total)
{
	int i, d = 0;

	for (i = 0; i < size; i++) {
		counts[i] = i + 1;
		displs[i] = d;
		d += counts[i] + 2;
	}
	*total = d;
}

static void gathers(int *counts, int *displs, int total)
{
	int *mine = malloc((size_t)(rank + 1) * sizeof(int)), *all = malloc((size_t)total * sizeof(int));
	int i, k, root = size - 1;

	for (k = 0; k <= rank; k++)
		mine[k] = rank * 1000 + k;
	for (i = 0; i < total; i++)
		all[i] = -1;
	MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
	if (rank == root)
		for (i = 0; i < size; i++)
			for (k = 0; k < counts[i]; k++)
				CHECK(all[displs[i] + k] == i * 1000 + k, "gatherv: rank %d's %d: %d",
				      i, k, all[displs[i] + k]);
	/* back out: each rank its own block, from the root */
	memset(mine, 0, (size_t)(rank + 1) * sizeof(int));
	MPI_Scatterv(all, counts, displs, MPI_INT, mine, rank + 1, MPI_INT, root, MPI_COMM_WORLD);
	for (k = 0; k <= rank; k++)
		CHECK(mine[k] == rank * 1000 + k, "scatterv: my %d: %d", k, mine[k]);
	/* every rank gathers all; then in place */
	for (i = 0; i < total; i++)
		all[i] = -1;
	for (k = 0; k <= rank; k++)
		mine[k] = rank * 1000 + k;
	MPI_Allgatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		for (k = 0; k < counts[i]; k++)
			CHECK(all[displs[i] + k] == i * 1000 + k, "allgatherv: rank %d's %d", i, k);
	CHECK(size < 2 || all[displs[1] - 1] == -1, "allgatherv wrote into a gap");
	for (i = 0; i < total; i++)
		all[i] = -1;
	for (k = 0; k <= rank; k++)
		all[displs[rank] + k] = rank * 1000 + k;
	MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT,
		       MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		for (k = 0; k < counts[i]; k++)
			CHECK(all[displs[i] + k] == i * 1000 + k, "allgatherv in place: %d's %d", i, k);
	free(mine);
	free(all);
}

/*
 * MPI_Alltoallw: to rank j, j + 1 ints (rank * 100 + j); from rank i, my
 * rank + 1 of them, at byte displacements with a gap, received as MPI_INT
 * or as a derived contiguous int; then in place.
 */
static void alltoallw(void)
{
	int *sc = malloc(6 * (size_t)size * sizeof(int)), *sd = sc + size, *rc = sd + size;
	int *rd = rc + size, *sbuf, *rbuf, i, k, n = 0;
	MPI_Datatype *st = malloc(2 * (size_t)size * sizeof(*st)), *rt = st + size, one;

	MPI_Type_contiguous(1, MPI_INT, &one);
	MPI_Type_commit(&one);
	for (i = 0; i < size; i++) {
		sc[i] = i + 1;
		sd[i] = n * (int)sizeof(int);
		n += i + 1;
		st[i] = MPI_INT;
		rc[i] = rank + 1;
		rd[i] = i * (rank + 2) * (int)sizeof(int);	/* one int's gap */
		rt[i] = i % 2 ? one : MPI_INT;
	}
	sbuf = malloc((size_t)n * sizeof(int));
	rbuf = malloc((size_t)size * (rank + 2) * sizeof(int));
	for (i = 0, n = 0; i < size; i++)
		for (k = 0; k <= i; k++)
			sbuf[n++] = rank * 100 + i;
	for (i = 0; i < size * (rank + 2); i++)
		rbuf[i] = -1;
	MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD);
	for (i = 0; i < size; i++) {
		for (k = 0; k <= rank; k++)
			CHECK(rbuf[i * (rank + 2) + k] == i * 100 + rank, "alltoallw: from %d, %d: %d",
			      i, k, rbuf[i * (rank + 2) + k]);
		CHECK(rbuf[i * (rank + 2) + rank + 1] == -1, "alltoallw wrote into a gap");
	}
	/* in place: every rank's blocks the same size; rbuf's go, others come */
	for (i = 0; i < size; i++) {
		rc[i] = 2;
		rd[i] = i * 2 * (int)sizeof(int);
		rbuf[2 * i] = rank * 100 + i;
		rbuf[2 * i + 1] = -rank;
	}
	MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, rbuf, rc, rd, rt, MPI_COMM_WORLD);
	for (i = 0; i < size; i++)
		CHECK(rbuf[2 * i] == i * 100 + rank && rbuf[2 * i + 1] == -i,
		      "alltoallw in place: from %d: %d %d", i, rbuf[2 * i], rbuf[2 * i + 1]);
	MPI_Type_free(&one);
	free(sbuf);
	free(rbuf);
	free(st);
	free(sc);
}

static void reductions(void)
{
	int *in = malloc((size_t)size * 2 * sizeof(int)), out[2], i, x, ex;
	long a[3] = { 1, 2, 3 }, b[3] = { 10, 20, 30 };

	for (i = 0; i < 2 * size; i++)
		in[i] = rank + i;	/* block j: rank + 2j, rank + 2j + 1 */
	MPI_Reduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	for (i = 0; i < 2; i++)
		CHECK(out[i] == size * (size - 1) / 2 + size * (2 * rank + i),
		      "reduce_scatter_block: my %d: %d", i, out[i]);
	x = rank + 1;
	ex = -7;
	MPI_Exscan(&x, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	CHECK(rank == 0 || ex == rank * (rank + 1) / 2, "exscan: %d", ex);
	ex = rank + 1;
	MPI_Exscan(MPI_IN_PLACE, &ex, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
	for (x = 1, i = 1; i <= rank; i++)
		x *= i;
	CHECK(rank == 0 || ex == x, "exscan in place: %d, not %d", ex, x);
	MPI_Reduce_local(a, b, 3, MPI_LONG, MPI_SUM);
	CHECK(b[0] == 11 && b[1] == 22 && b[2] == 33 && a[2] == 3, "reduce_local");
	free(in);
}

int main(int argc, char **argv)
{
	int *counts, *displs, total;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	counts = malloc((size_t)size * sizeof(int));
	displs = malloc((size_t)size * sizeof(int));
	layout(counts, displs, &total);
	gathers(counts, displs, total);
	alltoallw();
	reductions();
	free(counts);
	free(displs);
	return checks_done("collv");
}
