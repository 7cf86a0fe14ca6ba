// SPDX-License-Identifier: MIT
/*
 * Intercommunicators and contexts: the world split into its even and odd
 * ranks, an intercommunicator between the halves (MPI_Intercomm_create
 * over MPI_COMM_WORLD), its sizes and groups, point to point across it
 * (ranks name the other group; MPI_ANY_SOURCE's status too), a duplicate
 * on which the same messages do not mix with the first's, the merge back
 * into one intracommunicator in the order `high` asks. The same source
 * passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include "check.h"

static int rank, size;

/* Local rank i and remote rank i swap (world rank, tag) where both exist. */
static void across(MPI_Comm ic, int tag)
{
	int lr, rs, got[2] = { -1, -1 }, mine[2] = { rank, tag }, i;
	MPI_Request req[64];
	MPI_Status st;

	MPI_Comm_rank(ic, &lr);
	MPI_Comm_remote_size(ic, &rs);
	if (lr < rs) {
		MPI_Sendrecv(mine, 2, MPI_INT, lr, tag, got, 2, MPI_INT, lr, tag, ic, &st);
		CHECK(st.MPI_SOURCE == lr && got[1] == tag && got[0] % 2 != rank % 2,
		      "across, tag %d: from %d, world rank %d, tag %d", tag, st.MPI_SOURCE,
		      got[0], got[1]);
	}
	/*
	 * remote rank 0 sends every local rank one, taken by MPI_ANY_SOURCE;
	 * nonblocking, as both leaders send at once (a network with no
	 * buffering holds a blocking send until its receive)
	 */
	if (lr == 0)
		for (i = 0; i < rs; i++)
			MPI_Isend(mine, 2, MPI_INT, i, tag + 1, ic, &req[i]);
	MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, tag + 1, ic, &st);
	CHECK(st.MPI_SOURCE == 0 && got[1] == tag, "MPI_ANY_SOURCE across: from %d (tag %d)",
	      st.MPI_SOURCE, got[1]);
	if (lr == 0)
		MPI_Waitall(rs, req, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
	MPI_Comm half, ic, ic2, merged;
	MPI_Group lg, rg, wg;
	int color, flag, n, r, sum, w0 = 0, wr;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2 && size <= 128, "2 to 128 ranks");
	color = rank % 2;
	MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
	MPI_Comm_test_inter(half, &flag);
	CHECK(!flag, "an intracommunicator tests as inter");
	/* the evens' leader is world rank 0, the odds' world rank 1 */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &ic);
	MPI_Comm_test_inter(ic, &flag);
	CHECK(flag, "an intercommunicator tests as intra");
	MPI_Comm_size(ic, &n);
	MPI_Comm_rank(ic, &r);
	CHECK(n == (size + 1 - color) / 2 && r == rank / 2, "local size %d, rank %d", n, r);
	MPI_Comm_remote_size(ic, &n);
	CHECK(n == (size + color) / 2, "remote size %d", n);
	MPI_Comm_group(ic, &lg);
	MPI_Comm_remote_group(ic, &rg);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_translate_ranks(rg, 1, &w0, wg, &wr);
	CHECK(wr == 1 - color, "the remote group's rank 0 is world rank %d", wr);
	MPI_Group_size(lg, &n);
	CHECK(n == (size + 1 - color) / 2, "the local group's size %d", n);
	MPI_Group_free(&lg);
	MPI_Group_free(&rg);
	MPI_Group_free(&wg);
	across(ic, 10);
	MPI_Comm_dup(ic, &ic2);
	MPI_Comm_test_inter(ic2, &flag);
	CHECK(flag, "a duplicate of an intercommunicator is intra");
	across(ic2, 10);	/* the same tags, its own context */
	across(ic, 20);
	MPI_Comm_free(&ic2);
	/* the odds say high: the evens come first, in their order */
	MPI_Intercomm_merge(ic, color, &merged);
	MPI_Comm_size(merged, &n);
	MPI_Comm_rank(merged, &r);
	CHECK(n == size && r == (color ? (size + 1) / 2 + rank / 2 : rank / 2),
	      "merged: size %d, rank %d", n, r);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
	CHECK(sum == size * (size - 1) / 2, "a sum over the merged communicator: %d", sum);
	MPI_Comm_free(&merged);
	MPI_Intercomm_merge(ic, 0, &merged);	/* both low: some order */
	MPI_Comm_size(merged, &n);
	CHECK(n == size, "merged, both low: size %d", n);
	MPI_Comm_free(&merged);
#ifdef VCUBE_MPI
	/* no collectives on an intercommunicator in vcube-mpi: an error */
	MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
	CHECK(MPI_Barrier(ic) == MPI_ERR_COMM, "a barrier on an intercommunicator");
#endif
	MPI_Comm_free(&ic);
	MPI_Comm_free(&half);
	return checks_done("inter");
}
