// SPDX-License-Identifier: MIT
/*
 * A 2-D halo exchange: the ranks as a grid (MPI_Dims_create,
 * MPI_Cart_create, reorder as the first argument says), each holding an
 * N x N block with a ghost ring; rows go as N doubles, columns as one
 * MPI_Type_vector; after each exchange every ghost cell is checked against
 * the value its neighbour holds there. Prints the checks and the slowest
 * rank's time. usage: halo [REORDER (0)] [N (64)] [ITERATIONS (4)]
 * The same source passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include <stdlib.h>

#include "check.h"

/* The value rank @r holds at row @i, column @j of its block (1 .. n). */
static double val(int r, int i, int j, int it)
{
	return r * 1e6 + i * 1e3 + j + it * 0.25;
}

int main(int argc, char **argv)
{
	int reorder = argc > 1 ? atoi(argv[1]) : 0;
	int n = argc > 2 ? atoi(argv[2]) : 64, iters = argc > 3 ? atoi(argv[3]) : 4;
	int dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, size, r, it, i, d;
	int up, down, left, right;
	double *a, t0, t, tmax;
	MPI_Comm grid;
	MPI_Datatype colt;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &grid);
	MPI_Comm_rank(grid, &r);
	MPI_Cart_shift(grid, 0, 1, &up, &down);
	MPI_Cart_shift(grid, 1, 1, &left, &right);
	a = calloc((size_t)(n + 2) * (n + 2), sizeof(double));
	CHECK(a && n > 0 && iters > 0, "a block of %d x %d, %d iterations", n, n, iters);
#define A(i, j) a[(size_t)(i) * (n + 2) + (j)]
	MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &colt);
	MPI_Type_commit(&colt);
	MPI_Barrier(grid);
	t0 = MPI_Wtime();
	for (it = 0; it < iters; it++) {
		for (i = 1; i <= n; i++)
			for (d = 1; d <= n; d++)
				A(i, d) = val(r, i, d, it);
		/* rows north and south, then columns west and east */
		MPI_Sendrecv(&A(1, 1), n, MPI_DOUBLE, up, 1, &A(n + 1, 1), n,
			     MPI_DOUBLE, down, 1, grid, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&A(n, 1), n, MPI_DOUBLE, down, 2, &A(0, 1), n,
			     MPI_DOUBLE, up, 2, grid, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&A(1, 1), 1, colt, left, 3, &A(1, n + 1), 1, colt,
			     right, 3, grid, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&A(1, n), 1, colt, right, 4, &A(1, 0), 1, colt, left,
			     4, grid, MPI_STATUS_IGNORE);
		for (i = 1; i <= n; i++) {
			if (up != MPI_PROC_NULL)
				CHECK(A(0, i) == val(up, n, i, it), "north ghost %d", i);
			if (down != MPI_PROC_NULL)
				CHECK(A(n + 1, i) == val(down, 1, i, it), "south ghost %d", i);
			if (left != MPI_PROC_NULL)
				CHECK(A(i, 0) == val(left, i, n, it), "west ghost %d", i);
			if (right != MPI_PROC_NULL)
				CHECK(A(i, n + 1) == val(right, i, 1, it), "east ghost %d", i);
		}
	}
	t = MPI_Wtime() - t0;
	MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, grid);
	if (r == 0)
		printf("halo: %dx%d grid, reorder %d, %d x %d doubles a rank, %d iterations: %.6f s\n",
		       dims[0], dims[1], reorder, n, n, iters, tmax);
	MPI_Type_free(&colt);
	MPI_Comm_free(&grid);
	free(a);
	return checks_done("halo");
}
