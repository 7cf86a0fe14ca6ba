// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM, under vcube-run --nodes or --rankfile (issue 52): a rank
 * placed on another node than its own number still speaks ranks.
 *
 *   placed check        each rank: bound to the node VCUBE_NODES gives
 *                       it (NODE_INFO), an exchange with rank r ^ 1 whose
 *                       status names that rank and whose bytes are all
 *                       there, the route to it ending at its node, a send
 *                       to a rank the job lacks refused (EINVAL), and
 *                       rank 0 receiving from any source every other
 *                       rank's message, each status naming its rank.
 *   placed cnet 1|0     the control network on a cm5 network: with the
 *                       ranks on consecutive nodes (1) the communicator
 *                       has it, and its barrier, scan (every rank's
 *                       operand in rank order) and broadcast from rank 3
 *                       run; otherwise (0) it has none, cm5_control is
 *                       not usable (EDOM) and a raw operation is
 *                       EOPNOTSUPP, while the data network's barrier
 *                       runs.
 *   placed hello        "rank R node N" on stdout, "bye R" on stderr.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vcube.h"

#define LEN 1000

static unsigned char pattern(unsigned int rank, size_t i)
{
	return (unsigned char)(rank * 31 + i * 7);
}

/* An exchange with rank @me ^ 1: its status and bytes; the route to it. */
static void partner(struct vcube_node *node, unsigned int me,
		    unsigned int mine)
{
	unsigned char sbuf[LEN], rbuf[LEN];
	unsigned int peer = me ^ 1, pnode = 0;
	struct vcube_hop hops[32];
	struct vcube_status st;
	size_t i, bad = 0;
	int ret, nh;

	for (i = 0; i < LEN; i++)
		sbuf[i] = pattern(me, i);
	memset(rbuf, 0, sizeof(rbuf));
	ret = vcube_node_exchange(node, peer, 7, sbuf, LEN, rbuf, LEN, 0, &st);
	for (i = 0; !ret && i < LEN; i++)
		bad += rbuf[i] != pattern(peer, i);
	T(!ret && st.src == peer && st.len == LEN && !bad,
	  "rank %u: exchange with rank %u: %s, source %u, %llu bytes, %zu wrong",
	  me, peer, strerror(-ret), st.src, (unsigned long long)st.len, bad);
	vcube_env_node(peer, &pnode);
	nh = vcube_node_route(node, peer, 0, hops, 32);
	T(nh > 0 && nh <= 32 && hops[0].from == mine &&
	  hops[nh - 1].to == pnode,
	  "rank %u: the route to rank %u runs from node %u to node %u (%d hops)",
	  me, peer, mine, pnode, nh);
}

/* Every rank but 0 sends its rank to rank 0, which takes them from any. */
static void any_source(struct vcube_node *node, unsigned int me,
		       unsigned int n)
{
	unsigned int k, from, seen = 0, wrong = 0;
	struct vcube_status st;
	int ret = 0;

	if (me) {
		ret = vcube_node_send(node, 0, 9, &me, sizeof(me), 0, NULL);
		T(!ret, "rank %u: a send to rank 0: %s", me, strerror(-ret));
		return;
	}
	for (k = 1; k < n && !ret; k++) {
		ret = vcube_node_recv(node, VCUBE_ANY, 9, &from, sizeof(from),
				      &st);
		if (!ret && (st.src != from || from >= n || from == 0))
			wrong++;
		else if (!ret)
			seen |= 1U << (from % 32);
	}
	T(!ret && !wrong && seen == (n >= 32 ? ~1U : ((1U << n) - 2)),
	  "rank 0: from any source, %u messages, each status naming its sender (%u wrong): %s",
	  n - 1, wrong, strerror(-ret));
}

/* The job's communicator, this rank and the size; a failure is said. */
static int comm_open(struct vcube_comm **c, unsigned int *me, unsigned int *n)
{
	int ret = vcube_comm_open(c);

	T(!ret, "the communicator: %s", strerror(-ret));
	if (ret)
		return ret;
	*me = vcube_comm_rank(*c);
	*n = vcube_comm_size(*c);
	return 0;
}

static int check(void)
{
	struct vcube_node_info info;
	unsigned int me, n, want = 0;
	struct vcube_node *node;
	struct vcube_comm *c;
	char b = 0;
	int ret;

	if (comm_open(&c, &me, &n))
		return failed;
	node = vcube_comm_node(c);
	ret = vcube_env_node(me, &want);
	ret = ret ?: vcube_node_info(node, &info);
	T(!ret && info.node == want,
	  "rank %u of %u is bound to node %u, the one VCUBE_NODES gives it (%u)",
	  me, n, ret ? 0 : info.node, want);
	if ((me ^ 1) < n)
		partner(node, me, info.node);
	ret = vcube_node_send(node, n, 0, &b, 1, 0, NULL);
	T(ret == -EINVAL, "rank %u: a send to rank %u, which the job lacks: %s",
	  me, n, strerror(-ret));
	any_source(node, me, n);
	ret = vcube_comm_barrier(c);
	T(!ret, "rank %u: a barrier: %s", me, strerror(-ret));
	vcube_comm_close(c);
	return failed;
}

static void cnet_runs(struct vcube_comm *c, unsigned int me, unsigned int n)
{
	uint64_t in = me + 1, out = 0;
	char msg[16] = "";
	int ret;

	ret = vcube_sync_run(c, "cm5_control");
	T(!ret, "rank %u: the control network's barrier: %s", me,
	  strerror(-ret));
	ret = vcube_scan_run(c, "cm5_control", VCUBE_OP_SUM, VCUBE_TYPE_U64,
			     &in, &out, 1);
	T(!ret && out == (uint64_t)(me + 1) * (me + 2) / 2,
	  "rank %u: its scan of 1..%u: %llu: %s", me, me + 1,
	  (unsigned long long)out, strerror(-ret));
	if (me == 3 % n)
		snprintf(msg, sizeof(msg), "from rank %u", me);
	ret = vcube_bcast_run(c, "cm5_control", 3 % n, msg, sizeof(msg));
	T(!ret && !strcmp(msg, n > 3 ? "from rank 3" : "from rank 0"),
	  "rank %u: the broadcast from rank %u: '%s': %s", me, 3 % n, msg,
	  strerror(-ret));
}

static int cnet(int want)
{
	struct vcube_cnet a = { .kind = VCUBE_CNET_BARRIER };
	struct vcube_comm *c;
	unsigned int me, n;
	int ret;

	if (comm_open(&c, &me, &n))
		return failed;
	T(vcube_comm_cnet(c) == want, "rank %u: %s control network", me,
	  want ? "a" : "no");
	if (want) {
		cnet_runs(c, me, n);
	} else {
		ret = vcube_algo_usable(c, VCUBE_ALGO_SYNC, "cm5_control");
		T(ret == -EDOM, "rank %u: cm5_control is not usable: %s", me,
		  strerror(-ret));
		a.nodes = n;
		ret = vcube_node_cnet(vcube_comm_node(c), &a);
		T(ret == -EOPNOTSUPP,
		  "rank %u: a barrier of ranks on nodes not in a run: %s", me,
		  strerror(-ret));
	}
	ret = vcube_sync_run(c, "dissemination");
	T(!ret, "rank %u: the data network's barrier: %s", me, strerror(-ret));
	vcube_comm_close(c);
	return failed;
}

static int hello(void)
{
	struct vcube_node_info info = { 0 };
	struct vcube_node *node;
	unsigned int me, n;
	int ret;

	ret = vcube_env_rank(&me, &n);
	ret = ret ?: vcube_node_open(me, &node);
	ret = ret ?: vcube_node_info(node, &info);
	if (ret) {
		fprintf(stderr, "placed: %s\n", strerror(-ret));
		return 1;
	}
	printf("rank %u node %u\n", me, info.node);
	fflush(stdout);
	fprintf(stderr, "bye %u\n", me);
	vcube_node_close(node);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "check"))
		return check();
	if (argc == 3 && !strcmp(argv[1], "cnet"))
		return cnet(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "hello"))
		return hello();
	fprintf(stderr, "usage: placed check | cnet 1|0 | hello\n");
	return 2;
}
