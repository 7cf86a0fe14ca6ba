// SPDX-License-Identifier: MIT
/*
 * MPI_Abort from one rank while the others wait for a message that never
 * comes: the job must end, non-zero, without a hang.
 */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, v = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1)
		MPI_Abort(MPI_COMM_WORLD, 3);
	MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	printf("rank %d: not aborted\n", rank);
	MPI_Finalize();
	return 0;
}
