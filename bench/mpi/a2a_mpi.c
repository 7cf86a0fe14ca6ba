// SPDX-License-Identifier: GPL-2.0
/*
 * The pairwise complete exchange in plain MPI, for make bench to run under
 * SimGrid's SMPI and under Open MPI beside vcube's (tests/vm/exp.c
 * pairwise): step i = 1 .. p - 1, every rank exchanges a block of LEN
 * bytes with rank ^ i (MPI_Sendrecv), and checks every byte it received.
 * p must be a power of two. Rank 0 prints
 *   a2a_mpi <p> <len> <messages> <wall s> <MPI_Wtime s> <bad blocks>
 * MPI_Wtime is the simulated time under SMPI, the real time otherwise.
 *
 *   mpicc -O2 a2a_mpi.c -o a2a_mpi; mpirun -np 32 ./a2a_mpi 4096
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* byte k of the block rank @src sends at step @i */
static unsigned char pattern(int src, int i, long k)
{
	return (unsigned char)(src * 131 + i * 7 + k);
}

int main(int argc, char **argv)
{
	unsigned char *sb, *rb;
	long len, k, bad = 0, allbad = 0;
	double w0, t0, w, t;
	int rank, p, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	len = argc > 1 ? atol(argv[1]) : 4096;
	if (len < 1 || (p & (p - 1))) {
		if (!rank)
			fprintf(stderr, "a2a_mpi: needs a power of two of ranks and LEN >= 1\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	sb = malloc(len);
	rb = malloc(len);
	if (!sb || !rb)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Barrier(MPI_COMM_WORLD);
	w0 = wall();
	t0 = MPI_Wtime();
	for (i = 1; i < p; i++) {
		int partner = rank ^ i;

		for (k = 0; k < len; k++)
			sb[k] = pattern(rank, i, k);
		MPI_Sendrecv(sb, (int)len, MPI_BYTE, partner, i, rb, (int)len,
			     MPI_BYTE, partner, i, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		for (k = 0; k < len; k++)
			if (rb[k] != pattern(partner, i, k)) {
				bad++;
				break;
			}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime() - t0;
	w = wall() - w0;
	MPI_Reduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (!rank)
		printf("a2a_mpi %d %ld %ld %.3f %.6f %ld\n", p, len,
		       (long)p * (p - 1), w, t, allbad);
	free(sb);
	free(rb);
	MPI_Finalize();
	return allbad ? 1 : 0;
}
