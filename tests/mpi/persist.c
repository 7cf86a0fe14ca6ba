// SPDX-License-Identifier: MIT
/*
 * Persistent requests, buffered sends and cancelled receives: a ring
 * exchange run five times from the same MPI_Send_init/MPI_Recv_init pair
 * (MPI_Startall, MPI_Waitall), every value checked; MPI_Bsend and
 * MPI_Ibsend through an attached buffer, one send larger than it
 * (MPI_ERR_BUFFER), the buffer handed back whole by MPI_Buffer_detach;
 * a receive no one sends to, cancelled, and one whose message came,
 * not; a generalised request, done once the program completes it. The
 * same source passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void persistent(void)
{
	int out[4], in[4], k, i, flag;
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	MPI_Request rq[2];
	MPI_Status st[2];

	MPI_Recv_init(in, 4, MPI_INT, prev, 7, MPI_COMM_WORLD, &rq[0]);
	MPI_Send_init(out, 4, MPI_INT, next, 7, MPI_COMM_WORLD, &rq[1]);
	/* inactive: a wait returns at once, the request stays */
	MPI_Wait(&rq[0], &st[0]);
	CHECK(rq[0] != MPI_REQUEST_NULL, "an inactive wait freed the request");
	for (k = 0; k < 5; k++) {
		for (i = 0; i < 4; i++)
			out[i] = rank * 100 + k * 10 + i;
		MPI_Startall(2, rq);
		MPI_Waitall(2, rq, st);
		CHECK(rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL,
		      "round %d: a persistent request freed", k);
		CHECK(st[0].MPI_SOURCE == prev, "round %d: from %d", k, st[0].MPI_SOURCE);
		for (i = 0; i < 4; i++)
			CHECK(in[i] == prev * 100 + k * 10 + i, "round %d: %d: %d", k, i, in[i]);
	}
	/* once more by MPI_Start and MPI_Test */
	MPI_Start(&rq[0]);
	MPI_Start(&rq[1]);
	do
		MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
	while (!flag);
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL, "freed");
}

static void buffered(void)
{
	int v[256], w[64], i, size_b, got;
	char *buf, *back;
	MPI_Request rq;

	MPI_Pack_size(64, MPI_INT, MPI_COMM_WORLD, &size_b);
	size_b = 2 * (size_b + MPI_BSEND_OVERHEAD);
	buf = malloc((size_t)size_b);
	MPI_Buffer_attach(buf, size_b);
	for (i = 0; i < 64; i++)
		v[i] = rank * 1000 + i;
	if (rank == 0) {
		MPI_Bsend(v, 64, MPI_INT, 1, 3, MPI_COMM_WORLD);
		MPI_Ibsend(v, 64, MPI_INT, 1, 4, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
#ifdef VCUBE_MPI	/* Open MPI sends a short one eagerly, buffer or not */
		/* a message larger than the whole buffer */
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		got = MPI_Bsend(v, 256, MPI_INT, 1, 5, MPI_COMM_WORLD);
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
		MPI_Error_class(got, &got);
		CHECK(got == MPI_ERR_BUFFER, "a bsend past the buffer: class %d", got);
#endif
	}
	if (rank == 1) {
		MPI_Recv(w, 64, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < 64; i++)
			CHECK(w[i] == i, "ibsend's %d: %d", i, w[i]);
		MPI_Recv(w, 64, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < 64; i++)
			CHECK(w[i] == i, "bsend's %d: %d", i, w[i]);
	}
	MPI_Buffer_detach(&back, &got);
	CHECK(back == buf && got == size_b, "detach gave %p, %d", (void *)back, got);
	free(buf);
}

static void cancelled(void)
{
	MPI_Request rq;
	MPI_Status st;
	int v = -1, flag;

	/* no one sends tag 99 */
	MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &rq);
	MPI_Cancel(&rq);
	MPI_Wait(&rq, &st);
	MPI_Test_cancelled(&st, &flag);
	CHECK(flag && v == -1, "an unmatched receive not cancelled: %d, %d", flag, v);
	/* rank 0's message came before the cancel: it is taken */
	if (rank == 1) {
		MPI_Irecv(&v, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, &rq);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Cancel(&rq);
		MPI_Wait(&rq, &st);
		MPI_Test_cancelled(&st, &flag);
		CHECK(!flag && v == 98, "a matched receive: cancelled %d, %d", flag, v);
	} else {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			v = 98;
			MPI_Send(&v, 1, MPI_INT, 1, 98, MPI_COMM_WORLD);
		}
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Status_set_cancelled(&st, 1);
	MPI_Test_cancelled(&st, &flag);
	CHECK(flag, "set_cancelled");
}

static int freed;

static int query(void *extra, MPI_Status *st)
{
	st->MPI_SOURCE = *(int *)extra;
	st->MPI_TAG = 77;
	MPI_Status_set_elements(st, MPI_BYTE, 3);
	MPI_Status_set_cancelled(st, 0);
	return MPI_SUCCESS;
}

static int release(void *extra)
{
	(void)extra;
	freed++;
	return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

/* A generalised request: not done until the program completes it. */
static void generalised(void)
{
	MPI_Request rq;
	MPI_Status st;
	int flag, n, who = 42;

	MPI_Grequest_start(query, release, cancel, &who, &rq);
	MPI_Test(&rq, &flag, &st);
	CHECK(!flag, "a generalised request done before its completion");
	MPI_Grequest_complete(rq);
	MPI_Wait(&rq, &st);
	MPI_Get_count(&st, MPI_BYTE, &n);
	CHECK(st.MPI_SOURCE == 42 && st.MPI_TAG == 77 && n == 3 && freed == 1,
	      "generalised: source %d, tag %d, %d bytes, freed %d", st.MPI_SOURCE,
	      st.MPI_TAG, n, freed);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2, "needs 2 ranks, has %d", size);
	persistent();
	buffered();
	cancelled();
	generalised();
	return checks_done("persist");
}
