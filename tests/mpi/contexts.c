// SPDX-License-Identifier: MIT
/*
 * Contexts are given back: communicators made and freed, by MPI_Comm_dup,
 * MPI_Comm_split (half the ranks MPI_UNDEFINED) and MPI_Comm_create, more
 * times than a context's 10 bits number them, each used now and then. The
 * same source passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, i, sum, want = 0, made = 0;
	MPI_Group wg;
	MPI_Comm c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	for (i = 0; i < 1200; i++) {
		if (i % 3 == 0)
			MPI_Comm_dup(MPI_COMM_WORLD, &c);
		else if (i % 3 == 1)
			MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, rank, &c);
		else
			MPI_Comm_create(MPI_COMM_WORLD, wg, &c);
		if (c == MPI_COMM_NULL)
			continue;
		made++;
		if (i % 100 == 0) {
			MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_MAX, c);
			want += sum == i;
		}
		MPI_Comm_free(&c);
	}
	/* i = 100, 400, 700, 1000 are splits the odd ranks are not in */
	CHECK(want == (rank % 2 ? 8 : 12), "1200 communicators made and freed: %d sums", want);
	CHECK(made == (rank % 2 ? 800 : 1200), "%d communicators made", made);
	MPI_Group_free(&wg);
	return checks_done("contexts");
}
