// SPDX-License-Identifier: GPL-2.0
/*
 * Three communication patterns in plain MPI, for make crosscheck to run
 * under SimGrid's SMPI on a platform vcube also models
 * (scripts/crosscheck.py), each the schedule of one of vcube's algorithms:
 *   alltoall    MPI_Alltoall, LEN bytes to every rank (SMPI's "pair":
 *               step i exchanges with rank ^ i, vcube's pex)
 *   allreduce   MPI_Allreduce of LEN / 8 uint64_t summed (SMPI's "rdb":
 *               lg p steps exchanging with rank ^ 2^k, the communication
 *               of vcube's butterfly kernel)
 *   shift       MPI_Sendrecv of LEN bytes to the next rank on the binary
 *               reflected Gray code ring, from the previous one (vcube's
 *               shift: Seidel & Davis's ring embedded in the cube)
 * Every rank leaves an MPI_Barrier (unless --no-barrier: then each starts
 * where MPI_Init left it, all at time 0 under SMPI), reads MPI_Wtime, runs
 * the operation and reads MPI_Wtime again; rank 0 prints
 *   crosscheck <op> <p> <len> <time s> <start skew s> <bad ranks>
 * the time being the longest of the ranks' (end - start), the skew the
 * latest start less the earliest. MPI_Wtime is the simulated time under
 * SMPI. The data are checked: bad ranks counts ranks that received wrong
 * bytes (SMPI's shared malloc, where used, leaves them unchecked: 0).
 *
 *   smpicc -O2 crosscheck.c -o crosscheck
 *   smpirun -platform p.xml -hostfile h -np 64 ./crosscheck alltoall 65536
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Under SMPI, the blocks of 64 ranks' all-to-all (2 x 64 x 1 MiB each)
 * need not exist for the simulation: one shared allocation stands for all.
 */
#ifdef SMPI_SHARED_MALLOC
#define XC_ALLOC(n)	SMPI_SHARED_MALLOC(n)
#define XC_FREE(p)	SMPI_SHARED_FREE(p)
#define XC_CHECKED	0
#else
#define XC_ALLOC(n)	malloc(n)
#define XC_FREE(p)	free(p)
#define XC_CHECKED	1
#endif

static unsigned int gray(unsigned int i)
{
	return i ^ (i >> 1);
}

static unsigned int gray_pos(unsigned int g)
{
	unsigned int i = 0;

	for (; g; g >>= 1)
		i ^= g;
	return i;
}

/* byte @k of the block rank @src sends to rank @dst */
static unsigned char pattern(int src, int dst, size_t k)
{
	return (unsigned char)(src * 131 + dst * 7 + k);
}

static void usage(void)
{
	fprintf(stderr, "usage: crosscheck alltoall|allreduce|shift LEN [--no-barrier]\n"
		"  LEN bytes per block (allreduce: a multiple of 8); a power of two of ranks\n");
}

int main(int argc, char **argv)
{
	int rank, p, bad = 0, nbad = 0, barrier = 1, op, i;
	double t0, t1, d, dmax, t0min, t0max;
	unsigned char *sb = NULL, *rb = NULL;
	size_t len, n, k;
	char *end = "";

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	op = argc < 3 ? -1 : !strcmp(argv[1], "alltoall") ? 0 :
	     !strcmp(argv[1], "allreduce") ? 1 : !strcmp(argv[1], "shift") ? 2 : -1;
	len = argc < 3 ? 0 : strtoull(argv[2], &end, 10);
	if (argc > 3 && !strcmp(argv[3], "--no-barrier"))
		barrier = 0;
	if (op < 0 || argc > 4 || (argc == 4 && barrier) || *end || !len ||
	    (op == 1 && len % 8) || (p & (p - 1))) {
		if (!rank)
			usage();
		MPI_Finalize();
		return 2;
	}
	n = op == 0 ? len * (size_t)p : len;
	sb = XC_ALLOC(n);
	rb = XC_ALLOC(n);
	if (!sb || !rb)
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (XC_CHECKED && op == 1) {
		for (k = 0; k < len / 8; k++)
			((uint64_t *)sb)[k] = (uint64_t)rank << 8 | k % 256;
	} else if (XC_CHECKED) {
		for (k = 0; k < n; k++)
			sb[k] = pattern(rank, op == 0 ? (int)(k / len) : -1, k % len);
	}
	if (barrier)
		MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (op == 0) {
		MPI_Alltoall(sb, (int)len, MPI_BYTE, rb, (int)len, MPI_BYTE,
			     MPI_COMM_WORLD);
	} else if (op == 1) {
		MPI_Allreduce(sb, rb, (int)(len / 8), MPI_UINT64_T, MPI_SUM,
			      MPI_COMM_WORLD);
	} else {
		unsigned int pos = gray_pos((unsigned int)rank);

		MPI_Sendrecv(sb, (int)len, MPI_BYTE, (int)gray((pos + 1) % p), 0,
			     rb, (int)len, MPI_BYTE, (int)gray((pos + p - 1) % p), 0,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	t1 = MPI_Wtime();
	if (XC_CHECKED) {
		unsigned int from = gray((gray_pos((unsigned int)rank) + p - 1) % p);
		/* the k-th words of all ranks sum to (p (p - 1) / 2 << 8) + p (k % 256) */
		uint64_t want;

		for (k = 0; !bad && op == 1 && k < len / 8; k++) {
			want = ((uint64_t)p * (p - 1) / 2 << 8) + (uint64_t)(k % 256) * p;
			bad = ((uint64_t *)rb)[k] != want;
		}
		for (k = 0; !bad && op != 1 && k < n; k++)
			bad = rb[k] != pattern(op == 0 ? (int)(k / len) : (int)from,
					       op == 0 ? rank : -1, k % len);
	}
	d = t1 - t0;
	MPI_Reduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(&t0, &t0min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
	MPI_Reduce(&t0, &t0max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (!rank)
		printf("crosscheck %s %d %zu %.9f %.9f %d\n", argv[1], p, len, dmax,
		       t0max - t0min, nbad);
	XC_FREE(sb);
	XC_FREE(rb);
	i = nbad ? 1 : 0;
	MPI_Bcast(&i, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return i;
}
