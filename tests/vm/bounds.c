// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM: what a caller can make the kernel hold is bounded.
 *
 *   bounds inflight   (topology=hypercube dim=3 max_inflight=6356992
 *                      max_inflight_node=4259840, 6 and 4 MiB and 64 KiB
 *                      for the messages' bookkeeping): 1 MiB non-blocking
 *                      sends to a bound, idle node stop at 4 with ENOBUFS,
 *                      stay counted when the sender closes and reopens, a
 *                      second sender meets the network's limit after 2;
 *                      once the receiver has taken all six, intact, node 0
 *                      sends 4 again.
 *   bounds pinned     (the default limits): five rounds of open, 256
 *                      non-blocking 1 MiB sends to an idle node, close
 *                      (1280 MiB pinned before the limits): the module
 *                      takes 63 (max_inflight_node, 64 MiB, holds 63 such
 *                      messages and their bookkeeping); the memory pinned
 *                      (MemAvailable before and after).
 *   bounds queue      (topology=hypercube dim=1): node 1 bound and idle at
 *                      time 0, node 0 queues 65536 empty FORCED sends to it
 *                      (16 bindings of 4096), then node 1 delays 1 us: that
 *                      one call, under the network's lock, commits the 65536
 *                      sends at time 0, each queueing for the one channel;
 *                      it prints how long it took (a figure, not a check:
 *                      the issue measured 237 s before the waiter queues
 *                      were searched from their tail).
 *   bounds match      (topology=hypercube dim=1 max_reqs=65536): node 1
 *                      posts 65536 receives from node 0, tag i each, then
 *                      stays idle; node 0 queues 65536 empty FORCED sends,
 *                      tags 65535 down to 0; node 1 waits for its tag 0:
 *                      that one call matches all 65536 arrivals with the
 *                      receives (each, in a list, the last one posted left);
 *                      it prints how long it took (a figure, not a check).
 *   bounds parked K   (topology=hypercube dim=1 max_reqs=K, the iPSC/860's
 *                      1 MiB system buffer): node 1 bound and idle, node 0
 *                      queues K 101-byte UNFORCED sends (tag i, bytes i:
 *                      long, so each sends a PROBE first) and closes; node
 *                      1 delays K ms, while they all arrive, then receives
 *                      them one by one. The first 10381 fill its buffer,
 *                      the other PROBEs park until a receive makes room.
 *                      Each arrives in order, intact; it prints how long
 *                      the K receives took (each makes room for one parked
 *                      PROBE: before the walk of the parked list stopped
 *                      early, each also asked every other one whether it
 *                      could go on).
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "vcube.h"

#define MIB (1UL << 20)


/*
 * Non-blocking 1 MiB sends from @node to @dst, tags from @tag, each filled
 * with its tag's byte, until one fails or @most went; how many went, and
 * the first failure's -errno in @err (0 if none failed).
 */
static int send_until(struct vcube_node *node, unsigned int dst,
		      unsigned int tag, int most, int *err)
{
	static unsigned char buf[MIB];
	uint64_t req;
	int n;

	*err = 0;
	for (n = 0; n < most; n++) {
		memset(buf, tag + n + 1, sizeof(buf));
		*err = vcube_node_isend(node, dst, tag + n, buf, sizeof(buf), 0,
					&req);
		if (*err)
			break;
	}
	return n;
}

/* A child bound to @rank that waits for a byte on @go, then runs @fn. */
static pid_t bound_child(unsigned int rank, int ready, int go,
			 int (*fn)(struct vcube_node *))
{
	struct vcube_node *node;
	pid_t pid = fork();
	char c = 0;

	if (pid)
		return pid;
	if (vcube_node_open(rank, &node))
		_exit(2);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(2);
	_exit(fn ? fn(node) : 0);
}

/* Node 1 takes node 0's tags 0..3 and node 2's 0..1, each byte checked. */
static int take_all(struct vcube_node *node)
{
	static const unsigned int src[6] = { 0, 0, 0, 0, 2, 2 };
	static const unsigned int tag[6] = { 0, 1, 2, 3, 0, 1 };
	static unsigned char buf[MIB];
	struct vcube_status st;
	size_t j;
	int i;

	for (i = 0; i < 6; i++) {
		if (vcube_node_recv(node, src[i], tag[i], buf, sizeof(buf), &st) ||
		    st.len != MIB)
			return 1;
		for (j = 0; j < MIB; j++)
			if (buf[j] != (unsigned char)(tag[i] + 1))
				return 1;
	}
	return 0;
}

static int send_two(struct vcube_node *node)
{
	int err, n = send_until(node, 1, 0, 3, &err);

	return n == 2 && err == -ENOBUFS ? 0 : 1;
}

static int inflight(void)
{
	struct vcube_node *node;
	int ready[2], go[2], go2[2], err, n, ret;
	pid_t recv_pid, send_pid;
	char c = 0;

	if (pipe(ready) || pipe(go) || pipe(go2))
		return 1;
	recv_pid = bound_child(1, ready[1], go[0], take_all);
	T(read(ready[0], &c, 1) == 1, "node 1 bound, idle");
	ret = vcube_node_open(0, &node);
	T(ret == 0, "bind node 0 (%s)", strerror(-ret));
	if (ret)
		return 1;
	n = send_until(node, 1, 0, 8, &err);
	T(n == 4 && err == -ENOBUFS,
	  "node 0: 4 sends of 1 MiB in flight, the 5th ENOBUFS (%d went, then %s)",
	  n, strerror(-err));
	vcube_node_close(node);
	ret = vcube_node_open(0, &node);
	T(ret == 0, "node 0 closed and bound again");
	n = send_until(node, 1, 4, 1, &err);
	T(n == 0 && err == -ENOBUFS,
	  "its 4 MiB stay counted across the binding: ENOBUFS (%d went, then %s)",
	  n, strerror(-err));
	vcube_node_close(node);
	send_pid = bound_child(2, ready[1], go2[0], send_two);
	T(read(ready[0], &c, 1) == 1 && write(go2[1], &c, 1) == 1 &&
	  child_status(send_pid) == 0,
	  "node 2: 2 sends, then the network's 6 MiB: ENOBUFS");
	T(write(go[1], &c, 1) == 1 && child_status(recv_pid) == 0,
	  "node 1 takes all six, every byte as sent");
	ret = vcube_node_open(0, &node);
	n = ret ? 0 : send_until(node, 3, 0, 4, &err);
	T(n == 4, "taken, they no longer count: node 0 sends 4 MiB again (%d)", n);
	if (!ret)
		vcube_node_close(node);
	return failed;
}

static long mem_available_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int pinned(void)
{
	struct vcube_node *node;
	int ready[2], go[2], err, round, n, total = 0;
	long before, after;
	pid_t idle;
	char c = 0;

	if (pipe(ready) || pipe(go))
		return 1;
	idle = bound_child(1, ready[1], go[0], NULL);
	T(read(ready[0], &c, 1) == 1, "node 1 bound, idle");
	before = mem_available_kib();
	for (round = 0; round < 5; round++) {
		if (vcube_node_open(0, &node))
			break;
		n = send_until(node, 1, round * 256, 256, &err);
		total += n;
		vcube_node_close(node);
	}
	after = mem_available_kib();
	printf("# 5 rounds of open, 256 non-blocking 1 MiB sends, close: %d sends taken, MemAvailable %ld -> %ld MiB (%ld MiB pinned)\n",
	       total, before >> 10, after >> 10, (before - after) >> 10);
	T(round == 5 && total == 63,
	  "the module took 63 of the 1280 sends (max_inflight_node, 64 MiB): %d",
	  total);
	T(before - after < 96 << 10, "under 96 MiB pinned: %ld MiB",
	  (before - after) >> 10);
	kill(idle, SIGKILL);
	child_status(idle);
	return failed;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Node 1: bound, waits for go, delays 1 us, writes that call's seconds. */
static int delay_timed(struct vcube_node *node)
{
	double t = wall();
	int ret = vcube_node_delay(node, 1000);

	t = wall() - t;
	printf("# 65536 queued sends: the 1 us DELAY that commits them (each queued for the channel) took %.3f s\n",
	       t);
	return ret ? 1 : 0;
}

static int queue(void)
{
	struct vcube_node *node;
	int ready[2], go[2], round, i, sent = 0;
	uint64_t req;
	pid_t pid;
	char c = 0;

	if (pipe(ready) || pipe(go))
		return 1;
	pid = bound_child(1, ready[1], go[0], delay_timed);
	T(read(ready[0], &c, 1) == 1, "node 1 bound, idle");
	for (round = 0; round < 16; round++) {
		if (vcube_node_open(0, &node))
			break;
		for (i = 0; i < 4096; i++)
			sent += !vcube_node_isend(node, 1, 0, &c, 0,
						  VCUBE_SEND_FORCED, &req);
		vcube_node_close(node);
	}
	T(sent == 65536, "node 0 queued %d empty FORCED sends in 16 bindings",
	  sent);
	T(write(go[1], &c, 1) == 1 && child_status(pid) == 0,
	  "node 1's DELAY returned");
	return failed;
}

/*
 * Node 1: 65536 receives posted, tag i from node 0; once node 0 has sent,
 * one WAIT for the tag 0 one (the last to arrive) commits every arrival.
 */
static int match(void)
{
	static uint64_t req[65536];
	struct vcube_node *node;
	int ready[2], go[2], round, i, sent = 0;
	uint64_t sreq;
	pid_t pid;
	char c = 0;

	if (pipe(ready) || pipe(go))
		return 1;
	pid = fork();
	if (!pid) {
		double t;
		int ret;

		if (vcube_node_open(1, &node))
			_exit(2);
		for (i = 0; i < 65536; i++)
			if (vcube_node_irecv(node, 0, i, &c, 0, &req[i]))
				_exit(3);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		t = wall();
		ret = vcube_node_wait(node, req[0], NULL);
		t = wall() - t;
		printf("# 65536 receives posted, 65536 sends matched with them by one WAIT: %.3f s\n",
		       t);
		for (i = 1; i < 65536 && !ret; i++)
			ret = vcube_node_wait(node, req[i], NULL);
		_exit(ret ? 1 : 0);
	}
	T(read(ready[0], &c, 1) == 1, "node 1 posted 65536 receives, idle");
	for (round = 0; round < 16; round++) {
		if (vcube_node_open(0, &node))
			break;
		for (i = 0; i < 4096; i++)
			sent += !vcube_node_isend(node, 1,
						  65535 - (round * 4096 + i),
						  &c, 0, VCUBE_SEND_FORCED,
						  &sreq);
		vcube_node_close(node);
	}
	T(sent == 65536, "node 0 queued %d empty FORCED sends, tags 65535 down to 0",
	  sent);
	T(write(go[1], &c, 1) == 1 && child_status(pid) == 0,
	  "node 1: every one of its 65536 receives done");
	return failed;
}

static int parked(int k)
{
	struct vcube_node *node;
	int ready[2], go[2], i, j, sent = 0, bad = 0;
	unsigned char buf[101];
	int fit = MIB / sizeof(buf);	/* in the iPSC/860's system buffer */
	struct vcube_status st;
	uint64_t req;
	pid_t pid;
	char c = 0;
	double t;

	if (pipe(ready) || pipe(go))
		return 1;
	pid = fork();
	if (!pid) {
		if (vcube_node_open(1, &node))
			_exit(2);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		/* every message arrives meanwhile: the buffer fills, the rest park */
		if (vcube_node_delay(node, (uint64_t)k * 1000000))
			_exit(4);
		t = wall();
		for (i = 0; i < k && !bad; i++) {
			int ret = vcube_node_recv(node, 0, VCUBE_ANY, buf,
						  sizeof(buf), &st);

			bad = ret || st.tag != (unsigned int)i ||
			      st.len != sizeof(buf);
			for (j = 0; j < (int)sizeof(buf); j++)
				bad |= buf[j] != (unsigned char)i;
			if (bad)
				printf("# receive %d: %s, tag %u, %llu bytes, first byte %u\n",
				       i, ret ? strerror(-ret) : "done", st.tag,
				       (unsigned long long)st.len, buf[0]);
		}
		t = wall() - t;
		printf("# %d 101-byte UNFORCED messages, %d of their PROBEs parked for buffer room: received one by one in %.3f s\n",
		       k, k > fit ? k - fit : 0, t);
		_exit(bad ? 1 : 0);
	}
	T(read(ready[0], &c, 1) == 1, "node 1 bound, idle");
	if (!vcube_node_open(0, &node)) {
		for (j = 0; j < k; j++) {
			memset(buf, j, sizeof(buf));
			sent += !vcube_node_isend(node, 1, j, buf, sizeof(buf), 0,
						  &req);
		}
		vcube_node_close(node);
	}
	T(sent == k, "node 0 queued %d 101-byte UNFORCED sends", sent);
	T(write(go[1], &c, 1) == 1 && child_status(pid) == 0,
	  "node 1 received all %d in order, every byte intact", k);
	return failed;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "inflight"))
		return inflight();
	if (argc == 2 && !strcmp(argv[1], "pinned"))
		return pinned();
	if (argc == 2 && !strcmp(argv[1], "queue"))
		return queue();
	if (argc == 2 && !strcmp(argv[1], "match"))
		return match();
	if (argc == 3 && !strcmp(argv[1], "parked") && atoi(argv[2]) > 0)
		return parked(atoi(argv[2]));
	fprintf(stderr, "usage: bounds inflight|pinned|queue|match|parked K\n");
	return 2;
}
