/* SPDX-License-Identifier: MIT */
/*
 * The MPI test programs' one check: a failure names the rank and the
 * check and aborts the job. Plain MPI: the same source builds with Open
 * MPI's mpicc (the reference, on the host) and with vcube-mpicc.
 */
#ifndef VCUBE_MPI_CHECK_H
#define VCUBE_MPI_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static int checks;

#define CHECK(cond, ...)						\
	do {								\
		checks++;						\
		if (!(cond)) {						\
			int r_;						\
			MPI_Comm_rank(MPI_COMM_WORLD, &r_);		\
			fprintf(stderr, "rank %d: FAIL %s:%d: ", r_,	\
				__FILE__, __LINE__);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			MPI_Abort(MPI_COMM_WORLD, 1);			\
		}							\
	} while (0)

/* Rank 0 says how many checks every rank passed, and the program ends. */
static inline int checks_done(const char *name)
{
	int all = 0, rank;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Reduce(&checks, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%s: ok, %d checks\n", name, all);
	MPI_Finalize();
	return 0;
}

#endif /* VCUBE_MPI_CHECK_H */
