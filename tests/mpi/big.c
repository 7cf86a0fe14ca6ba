// SPDX-License-Identifier: MIT
/*
 * Messages of any length: MPI has no largest message, so one longer than
 * the network's (vcube's max_msg, 1 MiB by default) arrives whole, every
 * byte checked, by every path a receive takes: blocking, nonblocking and
 * tested, any source and any tag, probed, two at once on the same tag
 * waited for in the other order, truncated (and the next message whole),
 * freed before it is sent. Ranks 0 and 1 talk; the others only finish.
 * The same source passes under Open MPI (tests/host/mpi_ompi.sh).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MIB (1 << 20)

/* Byte @i of message @seed: no two messages, and no two pieces, alike. */
static unsigned char pat(unsigned int seed, size_t i)
{
	uint32_t x = (uint32_t)(seed * 2654435761U) ^ (uint32_t)(i / 4096 * 40503U);

	return (unsigned char)(x >> (8 * (i & 3)) ^ i);
}

static void fill(unsigned char *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat(seed, i);
}

/* The first byte of @b that is not message @seed's, or -1. */
static long bad(const unsigned char *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pat(seed, i))
			return (long)i;
	return -1;
}

static int count_of(MPI_Status *st)
{
	int n = -1;

	MPI_Get_count(st, MPI_BYTE, &n);
	return n;
}

static unsigned char *a, *b, *c;
static int rank, size;

static void pingpong(void)
{
	/* max_msg - 3 bytes is a first piece's length: 4093, MIB - 3 */
	static const int sizes[] = { 4093, 4096, MIB - 17, MIB - 3, MIB - 1,
				     MIB, MIB + 1, 3 * MIB + 7, 4 * MIB };
	MPI_Status st[4];
	int i;
	int n;
	unsigned int seed;

	/* A ping-pong of each size, into a buffer of that size and larger. */
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		n = sizes[i];
		seed = 100 + (unsigned int)i;
		if (rank == 0) {
			fill(a, (size_t)n, seed);
			MPI_Send(a, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
			memset(b, 0, (size_t)n);
			MPI_Recv(b, n, MPI_BYTE, 1, 6, MPI_COMM_WORLD, &st[0]);
			CHECK(bad(b, (size_t)n, seed + 50) < 0 && count_of(&st[0]) == n,
			      "pong of %d bytes: byte %ld, count %d", n,
			      bad(b, (size_t)n, seed + 50), count_of(&st[0]));
		} else if (rank == 1) {
			memset(b, 0, (size_t)n + 64);
			MPI_Recv(b, n + (i & 1) * 64, MPI_BYTE, 0, 5,
				 MPI_COMM_WORLD, &st[0]);
			CHECK(bad(b, (size_t)n, seed) < 0 && count_of(&st[0]) == n &&
			      st[0].MPI_SOURCE == 0 && st[0].MPI_TAG == 5,
			      "ping of %d bytes: byte %ld, count %d", n,
			      bad(b, (size_t)n, seed), count_of(&st[0]));
			fill(a, (size_t)n, seed + 50);
			MPI_Send(a, n, MPI_BYTE, 0, 6, MPI_COMM_WORLD);
		}
	}
}

static void two_on_a_tag(void)
{
	MPI_Request rq[4];
	MPI_Status st[4];
	int flag;

	/*
	 * Two long messages on one tag and one on another, received in the
	 * order MPI says (the first posted takes the first sent) and waited
	 * for the other way round; then tested to completion.
	 */
	if (rank == 0) {
		fill(a, 3 * MIB + 5, 1);
		fill(b, 2 * MIB + 3, 2);
		fill(c, MIB + 9, 3);
		MPI_Isend(a, 3 * MIB + 5, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(b, 2 * MIB + 3, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &rq[1]);
		MPI_Isend(c, MIB + 9, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &rq[2]);
		MPI_Waitall(3, rq, st);
	} else if (rank == 1) {
		MPI_Irecv(c, MIB + 9, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &rq[2]);
		MPI_Irecv(a, 4 * MIB, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(b, 4 * MIB, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &rq[1]);
		MPI_Wait(&rq[1], &st[1]);
		MPI_Wait(&rq[0], &st[0]);
		flag = 0;
		while (!flag)
			MPI_Test(&rq[2], &flag, &st[2]);
		CHECK(bad(a, 3 * MIB + 5, 1) < 0 && count_of(&st[0]) == 3 * MIB + 5,
		      "the first on tag 7: byte %ld, count %d",
		      bad(a, 3 * MIB + 5, 1), count_of(&st[0]));
		CHECK(bad(b, 2 * MIB + 3, 2) < 0 && count_of(&st[1]) == 2 * MIB + 3,
		      "the second on tag 7: byte %ld, count %d",
		      bad(b, 2 * MIB + 3, 2), count_of(&st[1]));
		CHECK(bad(c, MIB + 9, 3) < 0 && count_of(&st[2]) == MIB + 9,
		      "tag 8, tested: byte %ld", bad(c, MIB + 9, 3));
	}
}

static void any_and_probed(void)
{
	MPI_Request rq[4];
	MPI_Status st[4];
	int flag;

	/* Any source, any tag; then probed, its count before its receive. */
	if (rank == 0) {
		fill(a, 2 * MIB, 4);
		MPI_Send(a, 2 * MIB, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
		fill(a, MIB + 100, 5);
		MPI_Send(a, MIB + 100, MPI_BYTE, 1, 10, MPI_COMM_WORLD);
		fill(a, 3 * MIB, 6);
		MPI_Send(a, 3 * MIB, MPI_BYTE, 1, 11, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(a, 4 * MIB, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
			 MPI_COMM_WORLD, &st[0]);
		CHECK(bad(a, 2 * MIB, 4) < 0 && count_of(&st[0]) == 2 * MIB &&
		      st[0].MPI_SOURCE == 0 && st[0].MPI_TAG == 9,
		      "any source, any tag: byte %ld, count %d, source %d, tag %d",
		      bad(a, 2 * MIB, 4), count_of(&st[0]), st[0].MPI_SOURCE,
		      st[0].MPI_TAG);
		MPI_Probe(0, 10, MPI_COMM_WORLD, &st[0]);
		CHECK(count_of(&st[0]) == MIB + 100, "probed: count %d",
		      count_of(&st[0]));
		MPI_Recv(a, MIB + 100, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &st[0]);
		CHECK(bad(a, MIB + 100, 5) < 0, "probed, then received: byte %ld",
		      bad(a, MIB + 100, 5));
		flag = 0;
		while (!flag)
			MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st[0]);
		CHECK(count_of(&st[0]) == 3 * MIB && st[0].MPI_TAG == 11,
		      "iprobed: count %d, tag %d", count_of(&st[0]), st[0].MPI_TAG);
		MPI_Irecv(a, 3 * MIB, MPI_BYTE, 0, 11, MPI_COMM_WORLD, &rq[0]);
		MPI_Wait(&rq[0], &st[0]);
		CHECK(bad(a, 3 * MIB, 6) < 0, "iprobed, then received: byte %ld",
		      bad(a, 3 * MIB, 6));
	}
}

static void truncated(void)
{
	MPI_Status st[4];
	MPI_Comm ret;
	int err;
	int cls;

	/*
	 * Truncated: a long message into a short buffer is MPI_ERR_TRUNCATE,
	 * and the next message on the same pair arrives whole.
	 */
	MPI_Comm_dup(MPI_COMM_WORLD, &ret);
	MPI_Comm_set_errhandler(ret, MPI_ERRORS_RETURN);
	if (rank == 0) {
		fill(a, 2 * MIB + 1, 7);
		MPI_Send(a, 2 * MIB + 1, MPI_BYTE, 1, 12, ret);
		fill(a, MIB + 2, 8);
		MPI_Send(a, MIB + 2, MPI_BYTE, 1, 12, ret);
	} else if (rank == 1) {
		err = MPI_Recv(b, 1000, MPI_BYTE, 0, 12, ret, &st[0]);
		MPI_Error_class(err, &cls);
		CHECK(cls == MPI_ERR_TRUNCATE, "2 MiB into 1000 bytes: class %d",
		      cls);
		err = MPI_Recv(b, MIB + 2, MPI_BYTE, 0, 12, ret, &st[0]);
		CHECK(err == MPI_SUCCESS && bad(b, MIB + 2, 8) < 0,
		      "the next message: error %d, byte %ld", err,
		      bad(b, MIB + 2, 8));
	}
	MPI_Comm_free(&ret);
}

static void freed_and_sendrecv(void)
{
	MPI_Request rq[4];
	MPI_Status st[4];

	/* Freed before it went; a long send-receive both ways at once. */
	if (rank < 2) {
		if (rank == 0) {
			/* c is not touched again: the send may still read it */
			fill(c, 2 * MIB + 11, 9);
			MPI_Isend(c, 2 * MIB + 11, MPI_BYTE, 1, 13, MPI_COMM_WORLD,
				  &rq[0]);
			MPI_Request_free(&rq[0]);
		} else {
			MPI_Recv(b, 2 * MIB + 11, MPI_BYTE, 0, 13, MPI_COMM_WORLD,
				 &st[0]);
			CHECK(bad(b, 2 * MIB + 11, 9) < 0, "freed send: byte %ld",
			      bad(b, 2 * MIB + 11, 9));
		}
		fill(a, 3 * MIB + 3, 20 + (unsigned int)rank);
		MPI_Sendrecv(a, 3 * MIB + 3, MPI_BYTE, 1 - rank, 14, b, 4 * MIB,
			     MPI_BYTE, 1 - rank, 14, MPI_COMM_WORLD, &st[0]);
		CHECK(bad(b, 3 * MIB + 3, 21 - (unsigned int)rank) < 0 &&
		      count_of(&st[0]) == 3 * MIB + 3,
		      "send-receive: byte %ld, count %d",
		      bad(b, 3 * MIB + 3, 21 - (unsigned int)rank),
		      count_of(&st[0]));
	}
}

static void both_ways(void)
{
	MPI_Request rq[4];
	MPI_Status st[4];

	/*
	 * Both ways at once, each side's send waited for first: neither may
	 * wait for the other to take the rest of its pieces. Then a receive
	 * posted, a blocking send, and the receive waited for.
	 */
	if (rank < 2) {
		fill(a, 4 * MIB - 3, 30 + (unsigned int)rank);
		MPI_Isend(a, 4 * MIB - 3, MPI_BYTE, 1 - rank, 15, MPI_COMM_WORLD,
			  &rq[0]);
		MPI_Irecv(b, 4 * MIB, MPI_BYTE, 1 - rank, 15, MPI_COMM_WORLD,
			  &rq[1]);
		MPI_Waitall(2, rq, st);
		CHECK(bad(b, 4 * MIB - 3, 31 - (unsigned int)rank) < 0 &&
		      count_of(&st[1]) == 4 * MIB - 3,
		      "Waitall, the send first: byte %ld, count %d",
		      bad(b, 4 * MIB - 3, 31 - (unsigned int)rank),
		      count_of(&st[1]));
		fill(a, 2 * MIB + 1, 40 + (unsigned int)rank);
		MPI_Irecv(b, 2 * MIB + 1, MPI_BYTE, 1 - rank, 16, MPI_COMM_WORLD,
			  &rq[0]);
		MPI_Send(a, 2 * MIB + 1, MPI_BYTE, 1 - rank, 16, MPI_COMM_WORLD);
		MPI_Wait(&rq[0], &st[0]);
		CHECK(bad(b, 2 * MIB + 1, 41 - (unsigned int)rank) < 0,
		      "Irecv, Send, Wait: byte %ld",
		      bad(b, 2 * MIB + 1, 41 - (unsigned int)rank));
	}
}

/*
 * A long message received blocking while an earlier one's receive is
 * pending: the earlier one's pieces must not hold back the later one's.
 */
static void recv_after_irecv(void)
{
	MPI_Request rq[2];
	MPI_Status st;

	if (rank == 0) {
		fill(a, 3 * MIB + 1, 50);
		fill(b, 2 * MIB + 5, 51);
		MPI_Isend(a, 3 * MIB + 1, MPI_BYTE, 1, 17, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(b, 2 * MIB + 5, MPI_BYTE, 1, 17, MPI_COMM_WORLD, &rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	} else if (rank == 1) {
		MPI_Irecv(a, 4 * MIB, MPI_BYTE, 0, 17, MPI_COMM_WORLD, &rq[0]);
		MPI_Recv(b, 4 * MIB, MPI_BYTE, 0, 17, MPI_COMM_WORLD, &st);
		CHECK(bad(b, 2 * MIB + 5, 51) < 0 && count_of(&st) == 2 * MIB + 5,
		      "received blocking after an MPI_Irecv: byte %ld, count %d",
		      bad(b, 2 * MIB + 5, 51), count_of(&st));
		MPI_Wait(&rq[0], &st);
		CHECK(bad(a, 3 * MIB + 1, 50) < 0 && count_of(&st) == 3 * MIB + 1,
		      "the MPI_Irecv's: byte %ld, count %d", bad(a, 3 * MIB + 1, 50),
		      count_of(&st));
	}
}

static void finish(void)
{
	MPI_Barrier(MPI_COMM_WORLD);	/* the freed send is done with c */
	free(a);
	free(b);
	free(c);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	a = malloc(4 * MIB + 64);
	b = malloc(4 * MIB + 64);
	c = malloc(4 * MIB + 64);
	CHECK(a && b && c && size >= 2, "buffers, and 2 ranks");

	pingpong();
	two_on_a_tag();
	any_and_probed();
	truncated();
	freed_and_sendrecv();
	both_ways();
	recv_after_irecv();
	finish();
	return checks_done("big");
}
