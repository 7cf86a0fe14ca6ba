// SPDX-License-Identifier: MIT
/*
 * Point to point with MPI's semantics: order between a pair (non-
 * overtaking), matching by source and tag and with wildcards, probes and
 * their counts, MPI_PROC_NULL, the nonblocking calls and their completion
 * calls, sendrecv, and the error classes of bad calls under
 * MPI_ERRORS_RETURN. Any number of ranks from 2.
 */
#include <string.h>

#include "check.h"

static void order_and_tags(int rank, int size)
{
	int i, v[8], got;
	MPI_Request rq[8];
	MPI_Status st;

	/* rank 0 sends 8 messages to the last rank, tags 5,6,5,6,...:
	 * received by tag 6 first, then tag 5, each in send order (sent
	 * nonblocking: a blocking send may wait for its receive, as the
	 * CM-5's synchronous sends do) */
	if (rank == 0) {
		for (i = 0; i < 8; i++) {
			v[i] = 100 + i;
			MPI_Isend(&v[i], 1, MPI_INT, size - 1, 5 + i % 2,
				  MPI_COMM_WORLD, &rq[i]);
		}
		MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
	} else if (rank == size - 1) {
		for (i = 1; i < 8; i += 2) {
			MPI_Recv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &st);
			CHECK(got == 100 + i && st.MPI_TAG == 6 &&
			      st.MPI_SOURCE == 0, "tag 6 #%d: %d", i, got);
		}
		for (i = 0; i < 8; i += 2) {
			MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
				 MPI_COMM_WORLD, &st);
			CHECK(got == 100 + i && st.MPI_TAG == 5,
			      "any tag #%d: %d tag %d", i, got, st.MPI_TAG);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

/* Every rank sends its rank to rank 0 with tag = rank; 0 takes them by
 * MPI_ANY_SOURCE and checks it saw each once, its status right. */
static void any_source(int rank, int size)
{
	int i, v, seen[1024] = { 0 }, n;
	MPI_Status st;

	if (rank) {
		MPI_Send(&rank, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
	} else {
		for (i = 1; i < size; i++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
				 MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_INT, &n);
			CHECK(st.MPI_SOURCE == v && st.MPI_TAG == v && n == 1 &&
			      v > 0 && v < size && !seen[v],
			      "any source: %d from %d tag %d", v, st.MPI_SOURCE,
			      st.MPI_TAG);
			seen[v] = 1;
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

static void probes(int rank, int size)
{
	int flag = 0, n, buf[100], i;
	MPI_Status st;

	if (rank == 1) {
		for (i = 0; i < 37; i++)
			buf[i] = i * 3;
		MPI_Send(buf, 37, MPI_INT, 0, 77, MPI_COMM_WORLD);
		MPI_Send(buf, 3, MPI_INT, 0, 78, MPI_COMM_WORLD);
	} else if (rank == 0) {
		MPI_Probe(1, 77, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		CHECK(n == 37 && st.MPI_SOURCE == 1 && st.MPI_TAG == 77,
		      "probe: %d ints", n);
		memset(buf, 0, sizeof(buf));
		MPI_Recv(buf, n, MPI_INT, 1, 77, MPI_COMM_WORLD, &st);
		CHECK(buf[36] == 108, "the probed message: %d", buf[36]);
		do
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
				   &flag, &st);
		while (!flag);
		MPI_Get_count(&st, MPI_INT, &n);
		CHECK(n == 3 && st.MPI_TAG == 78, "iprobe: %d, tag %d", n,
		      st.MPI_TAG);
		MPI_Recv(buf, 100, MPI_INT, MPI_ANY_SOURCE, 78, MPI_COMM_WORLD,
			 &st);
		MPI_Get_count(&st, MPI_INT, &n);
		CHECK(n == 3 && buf[2] == 6, "the iprobed message");
		MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, &st);
		CHECK(!flag, "iprobe of nothing: flag %d", flag);
	}
	(void)size;
	MPI_Barrier(MPI_COMM_WORLD);
}

/*
 * A probe narrower than the receive after it: rank 1 sends tag 7, then tag
 * 5; rank 0 probes for tag 5, then receives any tag twice: tag 7 first
 * (non-overtaking), then tag 5. Probes of MPI_PROC_NULL, and of a message
 * already probed, answer at once.
 */
static void probe_order(int rank, int size)
{
	int a = 7, b = 5, v, flag;
	MPI_Request rq[2];
	MPI_Status st;

	if (rank == 1) {
		MPI_Isend(&a, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(&b, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	} else if (rank == 0) {
		MPI_Probe(1, 5, MPI_COMM_WORLD, &st);
		CHECK(st.MPI_TAG == 5, "probe tag 5: %d", st.MPI_TAG);
		MPI_Probe(1, 5, MPI_COMM_WORLD, &st);
		MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, &st);
		CHECK(flag && st.MPI_TAG == 5, "probed again: %d", st.MPI_TAG);
		MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
		CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "probe PROC_NULL");
		MPI_Recv(&v, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		CHECK(v == 7 && st.MPI_TAG == 7, "after the probe, tag 7 first: %d",
		      v);
		MPI_Recv(&v, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		CHECK(v == 5 && st.MPI_TAG == 5, "then tag 5: %d", v);
	}
	(void)size;
	MPI_Barrier(MPI_COMM_WORLD);
}

/*
 * Requests: MPI_Testall leaves every handle as it was until all are done;
 * a send's request freed still delivers; a communicator freed with a
 * receive pending still completes it.
 */
static void requests(int rank, int size)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	int v = rank, w = -1, x, flag;
	MPI_Request rq[2], keep;
	MPI_Comm dup;

	MPI_Irecv(&w, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &rq[0]);
	MPI_Irecv(&w, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &rq[1]);
	MPI_Isend(&v, 1, MPI_INT, right, 41, MPI_COMM_WORLD, &keep);
	MPI_Request_free(&keep);
	CHECK(keep == MPI_REQUEST_NULL, "request freed");
	MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
	CHECK(!flag && rq[0] != MPI_REQUEST_NULL && rq[1] != MPI_REQUEST_NULL,
	      "testall, one pending: flag %d, both handles kept", flag);
	MPI_Barrier(MPI_COMM_WORLD);	/* no tag 40 before every testall */
	MPI_Send(&v, 1, MPI_INT, right, 40, MPI_COMM_WORLD);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	CHECK(w == left, "both came: %d", w);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	x = -1;
	MPI_Irecv(&x, 1, MPI_INT, left, 1, dup, &rq[0]);
	MPI_Send(&v, 1, MPI_INT, right, 1, dup);
	MPI_Comm_free(&dup);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	CHECK(x == left, "a receive outlives its freed communicator: %d", x);
	MPI_Barrier(MPI_COMM_WORLD);
}

static void nonblocking(int rank, int size)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	int s[4], r[4] = { 0 }, i, idx, flag;
	MPI_Request rq[8];
	MPI_Status st[8];

	for (i = 0; i < 4; i++) {
		s[i] = rank * 10 + i;
		MPI_Irecv(&r[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &rq[i]);
	}
	for (i = 3; i >= 0; i--)
		MPI_Isend(&s[i], 1, MPI_INT, right, i, MPI_COMM_WORLD,
			  &rq[4 + i]);
	MPI_Waitany(8, rq, &idx, &st[0]);
	CHECK(idx >= 0 && idx < 8 && rq[idx] == MPI_REQUEST_NULL,
	      "waitany: %d", idx);
	MPI_Waitall(8, rq, st);
	for (i = 0; i < 4; i++)
		CHECK(r[i] == left * 10 + i, "ring: r[%d] = %d", i, r[i]);
	do
		MPI_Testall(8, rq, &flag, MPI_STATUSES_IGNORE);
	while (!flag);
	MPI_Irecv(&r[0], 1, MPI_INT, left, 9, MPI_COMM_WORLD, &rq[0]);
	MPI_Send(&s[0], 1, MPI_INT, right, 9, MPI_COMM_WORLD);
	do
		MPI_Test(&rq[0], &flag, &st[0]);
	while (!flag);
	CHECK(r[0] == left * 10 && st[0].MPI_SOURCE == left, "test: %d", r[0]);
	MPI_Barrier(MPI_COMM_WORLD);
}

static void sendrecv_and_null(int rank, int size)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	int v = rank, w = -1, n;
	MPI_Status st;

	MPI_Sendrecv(&v, 1, MPI_INT, right, 3, &w, 1, MPI_INT, left, 3,
		     MPI_COMM_WORLD, &st);
	CHECK(w == left, "sendrecv: %d", w);
	MPI_Sendrecv_replace(&v, 1, MPI_INT, left, 4, right, 4, MPI_COMM_WORLD,
			     &st);
	CHECK(v == right, "sendrecv_replace: %d", v);
	MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
	MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	CHECK(st.MPI_SOURCE == MPI_PROC_NULL && n == 0 && v == right,
	      "PROC_NULL: source %d count %d", st.MPI_SOURCE, n);
	MPI_Barrier(MPI_COMM_WORLD);
}

static void errors(int rank, int size)
{
	int v = 1, big[4] = { 1, 2, 3, 4 }, cls, ret;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	ret = MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
	MPI_Error_class(ret, &cls);
	CHECK(cls == MPI_ERR_RANK, "send to rank %d: class %d", size, cls);
	ret = MPI_Send(&v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
	MPI_Error_class(ret, &cls);
	CHECK(cls == MPI_ERR_TAG, "tag -5: class %d", cls);
	ret = MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	MPI_Error_class(ret, &cls);
	CHECK(cls == MPI_ERR_COUNT, "count -1: class %d", cls);
	ret = MPI_Bcast(&v, 1, MPI_INT, size + 3, MPI_COMM_WORLD);
	MPI_Error_class(ret, &cls);
	CHECK(cls == MPI_ERR_ROOT, "root %d: class %d", size + 3, cls);
	/* 4 ints into room for 2: truncated */
	if (rank == 0)
		MPI_Send(big, 4, MPI_INT, 1, 11, MPI_COMM_WORLD);
	if (rank == 1) {
		ret = MPI_Recv(big, 2, MPI_INT, 0, 11, MPI_COMM_WORLD, &st);
		MPI_Error_class(ret, &cls);
		CHECK(cls == MPI_ERR_TRUNCATE, "truncated: class %d", cls);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Barrier(MPI_COMM_WORLD);
}

/*
 * The other completion calls: rank 0 receives one message from each
 * other rank (sent with MPI_Irsend, its receives posted first), by
 * MPI_Waitsome, MPI_Testsome and MPI_Testany, each index once;
 * MPI_Request_get_status leaves a request for its wait.
 */
static void some_and_any(int rank, int size)
{
	int got[64] = { 0 }, v[64], idx[64], n, k, i, flag, left, me;
	MPI_Request rq[64], one;
	MPI_Status st[64];

	MPI_Is_thread_main(&flag);
	CHECK(flag, "MPI_Init's thread is not the main one");
	for (k = 0; k < 3; k++) {
		if (rank == 0) {
			for (i = 1; i < size; i++)
				MPI_Irecv(&v[i], 1, MPI_INT, i, 40 + k, MPI_COMM_WORLD, &rq[i]);
			rq[0] = MPI_REQUEST_NULL;
		}
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank != 0) {
			me = rank * 10 + k;
			MPI_Irsend(&me, 1, MPI_INT, 0, 40 + k, MPI_COMM_WORLD, &one);
			MPI_Wait(&one, MPI_STATUS_IGNORE);
			continue;
		}
		for (left = size - 1; left > 0; left -= n) {
			if (k == 0) {
				MPI_Waitsome(size, rq, &n, idx, st);
			} else if (k == 1) {
				MPI_Testsome(size, rq, &n, idx, st);
			} else {
				MPI_Testany(size, rq, &idx[0], &flag, &st[0]);
				n = flag && idx[0] != MPI_UNDEFINED;
			}
			CHECK(n != MPI_UNDEFINED, "round %d: no active request with %d left", k, left);
			for (i = 0; i < n; i++) {
				CHECK(rq[idx[i]] == MPI_REQUEST_NULL, "index %d not released", idx[i]);
				CHECK(v[idx[i]] == idx[i] * 10 + k && st[i].MPI_SOURCE == idx[i],
				      "round %d: index %d got %d from %d", k, idx[i], v[idx[i]],
				      st[i].MPI_SOURCE);
				got[idx[i]]++;
			}
		}
		MPI_Waitsome(size, rq, &n, idx, st);
		CHECK(n == MPI_UNDEFINED, "waitsome of none: %d", n);
	}
	for (i = 1; rank == 0 && i < size; i++)
		CHECK(got[i] == 3, "rank %d's messages taken %d times", i, got[i]);
	/* a request whose status is read, then waited for */
	if (rank == 0) {
		MPI_Irecv(&v[0], 1, MPI_INT, 1, 49, MPI_COMM_WORLD, &one);
		do
			MPI_Request_get_status(one, &flag, &st[0]);
		while (!flag);
		CHECK(one != MPI_REQUEST_NULL && st[0].MPI_SOURCE == 1, "get_status");
		MPI_Wait(&one, MPI_STATUS_IGNORE);
		CHECK(v[0] == 4949, "get_status's message: %d", v[0]);
	} else if (rank == 1) {
		me = 4949;
		MPI_Send(&me, 1, MPI_INT, 0, 49, MPI_COMM_WORLD);
	}
}

/*
 * Matched probes: rank 1 takes rank 0's first message by MPI_Mprobe;
 * a plain receive then gets the second, and MPI_Mrecv the first.
 */
static void matched(int rank)
{
	int a = 1, b = 2, x = 0, flag;
	MPI_Message msg;
	MPI_Request rq;
	MPI_Status st;

	if (rank == 0) {
		MPI_Send(&a, 1, MPI_INT, 1, 60, MPI_COMM_WORLD);
		MPI_Send(&b, 1, MPI_INT, 1, 60, MPI_COMM_WORLD);
		MPI_Send(&b, 1, MPI_INT, 1, 61, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Mprobe(0, 60, MPI_COMM_WORLD, &msg, &st);
		CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 60, "mprobe's status");
		MPI_Recv(&x, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		CHECK(x == 2, "a receive took the probed message: %d", x);
		MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
		CHECK(x == 1 && msg == MPI_MESSAGE_NULL, "mrecv: %d", x);
		do
			MPI_Improbe(0, 61, MPI_COMM_WORLD, &flag, &msg, &st);
		while (!flag);
		MPI_Imrecv(&x, 1, MPI_INT, &msg, &rq);
		MPI_Wait(&rq, &st);
		CHECK(x == 2 && st.MPI_TAG == 61, "imrecv: %d", x);
		MPI_Improbe(0, 62, MPI_COMM_WORLD, &flag, &msg, &st);
		CHECK(!flag, "improbe found tag 62");
	}
	CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL &&
	      MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC,
	      "a message's Fortran handle and back");
	MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
	CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "mprobe of none");
	MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
	CHECK(msg == MPI_MESSAGE_NULL, "mrecv of none");
}

int main(int argc, char **argv)
{
	int rank, size, flag, len, v, sv;
	char name[MPI_MAX_PROCESSOR_NAME];
	double t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Initialized(&flag);
	CHECK(flag, "initialized");
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2, "needs 2 ranks, has %d", size);
	MPI_Get_processor_name(name, &len);
	CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME, "processor name");
	MPI_Get_version(&v, &sv);
	CHECK(v >= 3, "version %d.%d", v, sv);
	t0 = MPI_Wtime();
	order_and_tags(rank, size);
	any_source(rank, size);
	probes(rank, size);
	probe_order(rank, size);
	requests(rank, size);
	nonblocking(rank, size);
	sendrecv_and_null(rank, size);
	if (size <= 64)
		some_and_any(rank, size);
	matched(rank);
	errors(rank, size);
	t1 = MPI_Wtime();
	CHECK(t1 >= t0 && MPI_Wtick() > 0, "time runs: %g .. %g", t0, t1);
	return checks_done("p2p");
}
