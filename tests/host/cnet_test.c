// SPDX-License-Identifier: GPL-2.0
/*
 * The control network on the host, one thread per node: members entering
 * at clocks the data network set leave together at the last entry plus the
 * cost, with every operand; the times are the same however the host runs
 * the threads; a member that never comes leaves the others -EDEADLK and
 * nothing held (the sanitizers see any leak).
 */
#include <stdio.h>

#include "check.h"
#include "harness.h"

static const struct vcube_topo_params tree32 = { .kind = VCUBE_TOPO_FATTREE,
						  .nodes = 32 };

static int h_cnet(struct hnet *h, u32 node, const struct vc_cnet_args *a,
		  const void *in, void *out, u64 *time)
{
	struct vc_cnet_op *op = NULL;
	struct vc_req *r;
	u64 nin, nout, piece, last;
	void *data = NULL;
	u32 i, pieces;
	int ret;

	pthread_mutex_lock(&h->lock);
	ret = vc_cnet_check(h->e, node, a, &nin, &nout);
	if (!ret && nin) {
		data = malloc(nin);
		memcpy(data, in, nin);
	}
	ret = ret ?: vc_cnet_enter(h->e, node, a, data, &r);
	if (!ret) {
		ret = h_sleep(h, node, vc_wait(h->e, node, r));
		if (!ret)
			op = vc_cnet_take(r, &pieces, &piece, &last);
		vc_req_free(h->e, r);
	}
	pthread_mutex_unlock(&h->lock);
	if (op) {
		for (i = 0; i < pieces; i++)
			memcpy((char *)out + i * piece, vc_cnet_piece(op, i),
			       piece);
		*time = h_clock(h, node);
		pthread_mutex_lock(&h->lock);
		vc_cnet_put(op);
		pthread_mutex_unlock(&h->lock);
	}
	return ret;
}

static u64 g_time[32][3];
static int g_bad;
static u32 g_absent = 32;	/* a node that ends before the barrier */
static int g_ret[32];

static void prog(struct hnet *h, u32 node)
{
	struct vc_cnet_args red = { .kind = VC_CNET_REDUCE, .op = VC_OP_MAX,
				    .type = VC_TYPE_S32, .nodes = 32,
				    .count = 1 };
	struct vc_cnet_args bar = { .kind = VC_CNET_BARRIER, .nodes = 32 };
	struct vc_cnet_args bc = { .kind = VC_CNET_BCAST, .root = 5,
				   .nodes = 32, .count = 520 };
	s32 v = (s32)(node * 7 % 32), all[32];
	u8 msg[520], got[520];
	u32 i;

	/* a data-network exchange sets the clocks apart */
	if (node & 1)
		CHECK(h_send(h, node, node - 1, 0, 0, 1000 * (node % 8)) == 0,
		      "send %u", node);
	else
		CHECK(h_recv(h, node, node + 1, 0, 8000) == 0, "recv %u", node);
	if (node == g_absent)
		return;
	g_ret[node] = h_cnet(h, node, &bar, NULL, NULL, &g_time[node][0]);
	if (g_ret[node])
		return;
	CHECK(h_cnet(h, node, &red, &v, all, &g_time[node][1]) == 0, "reduce");
	for (i = 0; i < 32; i++)
		g_bad += all[i] != (s32)(i * 7 % 32);
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (u8)(i * 3 + node);
	h_delay(h, node, 1000 * node);
	CHECK(h_cnet(h, node, &bc, msg, got, &g_time[node][2]) == 0, "bcast");
	for (i = 0; i < sizeof(got); i++)
		g_bad += got[i] != (u8)(i * 3 + 5);
}

static void run(u64 (*times)[3])
{
	struct vc_params p = vc_profile_cm5();
	struct hnet h;
	u32 i;

	p.cnet_max = 1 << 20;
	hnet_init(&h, &tree32, &p);
	h_run(&h, 32, prog);
	for (i = 0; i < 32; i++)
		memcpy(times[i], g_time[i], sizeof(g_time[i]));
	hnet_fini(&h);
}

static void test_together(void)
{
	u64 a[32][3], b[32][3];
	u32 i, k;

	g_bad = 0;
	run(a);
	CHECK(g_bad == 0, "operands and broadcast arrive intact (%d bad)",
	      g_bad);
	for (i = 0; i < 32; i++)
		for (k = 0; k < 3; k++)
			CHECK(a[i][k] == a[0][k], "node %u leaves op %u with 0",
			      i, k);
	/* the reduction follows the barrier by one int's cost */
	CHECK(a[0][1] == a[0][0] + 6000, "reduce at %llu",
	      (unsigned long long)a[0][1]);
	/* the broadcast: node 31 enters last, 31 us after the reduction */
	CHECK(a[0][2] == a[0][1] + 31000 + 137000 + 130 * 6000,
	      "broadcast at %llu", (unsigned long long)a[0][2]);
	for (i = 0; i < 5; i++) {
		run(b);
		CHECK(!memcmp(a, b, sizeof(a)), "run %u: the same times", i);
	}
}

static void test_absent(void)
{
	struct vc_params p = vc_profile_cm5();
	struct hnet h;
	u32 i;

	p.cnet_max = 1 << 20;
	g_absent = 9;
	hnet_init(&h, &tree32, &p);
	h_run(&h, 32, prog);
	for (i = 0; i < 32; i++)
		if (i != 9)
			CHECK(g_ret[i] == -EDEADLK, "node %u: %d", i, g_ret[i]);
	CHECK(vc_net_stats(h.e)->deadlocks == 1, "one deadlock");
	CHECK(vc_net_stats(h.e)->cnet_ops[VC_CNET_BARRIER] == 0,
	      "no barrier completed");
	hnet_fini(&h);
	g_absent = 32;
}

int main(void)
{
	test_together();
	test_absent();
	return check_done("cnet_test");
}
