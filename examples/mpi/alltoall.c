// SPDX-License-Identifier: MIT
/*
 * Time an all-to-all the way an MPI user would, and as vcube-bench does: a
 * barrier, MPI_Wtime, MPI_Alltoall of BYTES per rank pair, MPI_Wtime; then
 * the slowest rank's time and any rank's wrong byte in one reduction to
 * rank 0 (a rank done early starts it while others still exchange, so it
 * is part of what the exchange meets, in both). Plain MPI: built with vcube-mpicc it runs on the
 * modelled network (MPI_Wtime is virtual time; VCUBE_MPI_ALLTOALL picks
 * the algorithm), built with mpicc it runs on the machine at hand.
 *
 *	vcube-mpicc examples/mpi/alltoall.c -o alltoall
 *	VCUBE_MPI_ALLTOALL=pairwise_F vcube-run -n 32 ./alltoall 4096
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	unsigned long long v[2], m[2];
	int rank, size, bytes, i, j, bad = 0;
	unsigned char *s, *r;
	double t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	bytes = argc > 1 ? atoi(argv[1]) : 4096;
	if (bytes < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: alltoall [BYTES]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	s = malloc((size_t)bytes * size + 1);
	r = malloc((size_t)bytes * size + 1);
	if (!s || !r)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (j = 0; j < size; j++)
		for (i = 0; i < bytes; i++)
			s[(size_t)j * bytes + i] = (unsigned char)(rank * 31 + j * 7 + i);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	MPI_Alltoall(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, MPI_COMM_WORLD);
	t1 = MPI_Wtime();
	for (j = 0; j < size; j++)
		for (i = 0; i < bytes; i++)
			bad |= r[(size_t)j * bytes + i] !=
			       (unsigned char)(j * 31 + rank * 7 + i);
	/* the slowest rank's time, in ns, and whether any saw wrong data */
	v[0] = (unsigned long long)llround((t1 - t0) * 1e9);
	v[1] = (unsigned long long)bad;
	MPI_Reduce(v, m, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("alltoall: %d ranks, %d bytes: %llu ns, data %s\n", size,
		       bytes, m[0], m[1] ? "WRONG" : "ok");
	free(s);
	free(r);
	MPI_Finalize();
	return rank == 0 && m[1];
}
