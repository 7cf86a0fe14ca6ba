// SPDX-License-Identifier: MIT
/*
 * MPI's non-overtaking across message sizes: rank 0 sends rank 1 a long
 * message (nonblocking) and then a short one with the same tag; rank 1's
 * two receives get them in that order. On the iPSC/860 the long one goes
 * by a handshake and its data arrives after the short one's.
 */
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
	int rank, n = 65536, cnt, i;
	char *big, small[8] = "small";
	MPI_Request r;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	big = calloc(1, (size_t)n);
	CHECK(big != NULL, "memory");
	for (i = 0; i < 4; i++) {
		if (rank == 0) {
			memset(big, 'a' + i, (size_t)n);
			MPI_Isend(big, n, MPI_CHAR, 1, i, MPI_COMM_WORLD, &r);
			MPI_Send(small, 8, MPI_CHAR, 1, i, MPI_COMM_WORLD);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(big, n, MPI_CHAR, 0, i, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_CHAR, &cnt);
			CHECK(cnt == n && big[n - 1] == 'a' + i,
			      "round %d: first %d bytes (the long one, sent first)",
			      i, cnt);
			/* odd rounds: by wildcards */
			MPI_Recv(big, n, MPI_CHAR, i % 2 ? MPI_ANY_SOURCE : 0,
				 i % 2 ? MPI_ANY_TAG : i, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_CHAR, &cnt);
			CHECK(cnt == 8 && !strcmp(big, "small"),
			      "round %d: then %d bytes", i, cnt);
		}
	}
	free(big);
	return checks_done("order");
}
