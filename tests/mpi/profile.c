// SPDX-License-Identifier: MIT
/*
 * The profiling interface, as a tool uses it: this program defines
 * MPI_Send and MPI_Allreduce itself, counts the calls and bytes, and
 * passes each on to PMPI_Send and PMPI_Allreduce, the library's; it links
 * (the library's MPI_ names give way to these) and every message arrives.
 * The same source passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include "check.h"

static int sends, reduces;
static long bytes;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm)
{
	int size;

	sends++;
	PMPI_Type_size(type, &size);
	bytes += (long)count * size;
	return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	reduces++;
	return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int main(int argc, char **argv)
{
	int rank, size, v[4] = { 1, 2, 3, 4 }, w[4], k, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (k = 0; k < 3; k++) {
		if (rank == 0)
			MPI_Send(v, 4, MPI_INT, 1, k, MPI_COMM_WORLD);
		if (rank == 1) {
			MPI_Recv(w, 4, MPI_INT, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			CHECK(w[0] == 1 && w[3] == 4, "message %d: %d .. %d", k, w[0], w[3]);
		}
	}
	CHECK(rank != 0 || (sends == 3 && bytes == 3 * 4 * (long)sizeof(int)),
	      "the tool counted %d sends, %ld bytes", sends, bytes);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	CHECK(reduces == 1 && sum == size * (size - 1) / 2, "allreduce %d, counted %d", sum,
	      reduces);
	PMPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	CHECK(reduces == 1, "PMPI_Allreduce went through the tool");
	return checks_done("profile");
}
