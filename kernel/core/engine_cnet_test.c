// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_engine_cnet: the control network's operations, their
 * cost, order, partitions and a member killed mid-operation.
 */
#include "engine_test.h"

static struct vc_params cnet_params(void)
{
	struct vc_params p = test_params();

	p.cnet_word = 6000;
	p.cnet_double = 42000;
	p.cnet_bcast = 137000;
	p.cnet_max = 1 << 16;
	return p;
}

struct cnet_cost_case {
	struct vc_cnet_args a;
	u64 want;
};

static void cnet_cost_desc(const struct cnet_cost_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "kind=%u type=%u count=%llu",
		 c->a.kind, c->a.type, (unsigned long long)c->a.count);
}

#define CN(k, t, n, w) { { .kind = k, .type = t, .nodes = 32, .count = n }, w }
/* Ponnusamy et al. Table 7's 64 x 65 column, and what the model adds. */
static const struct cnet_cost_case cnet_cost_cases[] = {
	CN(VC_CNET_BARRIER, 0, 0, 6000),
	CN(VC_CNET_REDUCE, VC_TYPE_S32, 1, 6000),
	CN(VC_CNET_REDUCE, VC_TYPE_DOUBLE, 1, 42000),
	CN(VC_CNET_REDUCE, VC_TYPE_U64, 1, 12000),
	CN(VC_CNET_REDUCE, VC_TYPE_DOUBLE, 3, 126000),
	CN(VC_CNET_SCAN, VC_TYPE_S32, 2, 12000),
	CN(VC_CNET_BCAST, 0, 65 * 8, 917000),
	CN(VC_CNET_BCAST, 0, 513 * 8, 137000 + 1026 * 6000),
	CN(VC_CNET_BCAST, 0, 1, 143000),
	CN(VC_CNET_BCAST, 0, 0, 137000),
};

KUNIT_ARRAY_PARAM(cnet_cost, cnet_cost_cases, cnet_cost_desc);

static void vcube_engine_cnet_cost(struct kunit *test)
{
	const struct cnet_cost_case *c = test->param_value;
	struct vc_params p = vc_profile_cm5();

	KUNIT_EXPECT_EQ(test, vc_cnet_cost(&p, &c->a), c->want);
}

/*
 * Eight nodes enter a reduction in a scrambled order at different clocks:
 * all leave together at the last entry plus the cost, whatever the order,
 * each with every operand in node order (a scan: those up to its own).
 */
static void vcube_engine_cnet_order(struct kunit *test)
{
	static const u32 order[8] = { 5, 2, 7, 0, 3, 6, 1, 4 };
	struct vc_params p = cnet_params();
	struct vc_cnet_args a = { .kind = VC_CNET_REDUCE, .op = VC_OP_MAX,
				  .type = VC_TYPE_S32, .nodes = 8,
				  .count = 1 };
	struct vc_req *r[8];
	struct engine_ctx c;
	struct vc_engine *e;
	u32 i, k, n, pieces;
	u64 piece, last;

	for (k = 0; k < 2; k++) {
		a.kind = k ? VC_CNET_SCAN : VC_CNET_REDUCE;
		e = engine_new(test, &c, 3, &p);
		for (i = 0; i < 8; i++) {
			s32 *v = payload(test, 4);

			n = order[i];
			*v = 100 + n;
			KUNIT_ASSERT_EQ(test, vc_delay(e, n, 1000 * (n * 3 % 8)), 0);
			KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, n, &a, v, &r[n]), 0);
			KUNIT_EXPECT_EQ(test, r[n]->done, i == 7);
			KUNIT_EXPECT_EQ(test, vc_wait(e, n, r[n]),
					i < 7 ? VC_BLOCKED_RET : 0);
		}
		/* the latest entry: node 5 at 7000 */
		for (n = 0; n < 8; n++) {
			struct vc_cnet_op *op;

			KUNIT_EXPECT_EQ(test, r[n]->done_time, 7000ULL + 6000);
			KUNIT_EXPECT_EQ(test, vc_clock(e, n), 7000ULL + 6000);
			op = vc_cnet_take(r[n], &pieces, &piece, &last);
			KUNIT_EXPECT_EQ(test, last, 7000ULL);
			KUNIT_EXPECT_EQ(test, piece, 4ULL);
			KUNIT_EXPECT_EQ(test, pieces, k ? n + 1 : 8);
			for (i = 0; i < pieces; i++)
				KUNIT_EXPECT_EQ(test,
						*(const s32 *)vc_cnet_piece(op, i),
						(s32)(100 + i));
			vc_req_free(e, r[n]);
			vc_cnet_put(op);
		}
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->cnet_ops[a.kind], 1ULL);
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->cnet_busy_ns, 6000ULL);
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->cnet_bytes, 32ULL);
		/* waits: 7000 - each entry (0, 3, ..., 21 mod 8 thousand) */
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->cnet_wait_ns,
				8 * 7000ULL - 28000);
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->messages, 0ULL);
		engine_free(&c);
	}
}

/* A partition's broadcast; what is refused, and to whom. */
static void vcube_engine_cnet_partition(struct kunit *test)
{
	struct vc_params p = cnet_params();
	struct vc_cnet_args a = { .kind = VC_CNET_BCAST, .root = 3,
				  .first = 2, .nodes = 4, .count = 5 };
	struct vc_cnet_args b = a;
	struct vc_req *r[8], *x;
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_cnet_op *op;
	u64 in, out, len;
	u32 n, pieces;
	char *msg;

	e = engine_new(test, &c, 3, &p);
	/* outside the partition, root outside it, too big, bad kind */
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 1, &a, &in, &out), -EINVAL);
	b.root = 6;
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 3, &b, &in, &out), -EINVAL);
	b = a;
	b.count = (1 << 16) + 1;
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 3, &b, &in, &out), -EMSGSIZE);
	b = a;
	b.kind = VC_NCNET;
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 3, &b, &in, &out), -EINVAL);
	b = a;
	b.first = 6;
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 6, &b, &in, &out), -EINVAL);
	b = (struct vc_cnet_args){ .kind = VC_CNET_REDUCE, .op = VC_OP_BAND,
				   .type = VC_TYPE_DOUBLE, .nodes = 8,
				   .count = 1 };
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 0, &b, &in, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 3, &a, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, in, 5ULL);
	KUNIT_EXPECT_EQ(test, out, 5ULL);
	KUNIT_EXPECT_EQ(test, vc_cnet_check(e, 2, &a, &in, &out), 0);
	KUNIT_EXPECT_EQ(test, in, 0ULL);

	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 2, &a, NULL, &r[2]), 0);
	/* another operation on the same partition is refused */
	b = a;
	b.root = 4;
	KUNIT_EXPECT_EQ(test, vc_cnet_enter(e, 4, &b, NULL, &x), -EINVAL);
	msg = payload(test, 5);
	memcpy(msg, "hello", 5);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 3, &a, msg, &r[3]), 0);
	KUNIT_ASSERT_EQ(test, vc_delay(e, 4, 50000), 0);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 4, &a, NULL, &r[4]), 0);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 5, &a, NULL, &r[5]), 0);
	for (n = 2; n < 6; n++) {
		KUNIT_ASSERT_TRUE(test, r[n]->done);
		/* 5 bytes: 2 words */
		KUNIT_EXPECT_EQ(test, r[n]->done_time, 50000ULL + 137000 + 12000);
		op = vc_cnet_take(r[n], &pieces, &len, &in);
		KUNIT_EXPECT_EQ(test, in, 50000ULL);
		KUNIT_EXPECT_EQ(test, pieces, 1U);
		KUNIT_EXPECT_EQ(test, len, 5ULL);
		KUNIT_EXPECT_EQ(test, memcmp(vc_cnet_piece(op, 0), "hello", 5),
				0);
		vc_req_free(e, r[n]);
		vc_cnet_put(op);
	}
	/* nodes outside it never stopped */
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), 0ULL);
	engine_free(&c);

	/* no control network: -EOPNOTSUPP, and the payload is freed */
	p.cnet_word = 0;
	e = engine_new(test, &c, 3, &p);
	KUNIT_EXPECT_EQ(test, vc_cnet_enter(e, 3, &a, payload(test, 5), &x),
			-EOPNOTSUPP);
	engine_free(&c);
}

/*
 * A member's process dies before the last one is in: the others wait for
 * ever, so once every bound node waits they all get -EDEADLK. A member
 * interrupted by a signal leaves with its operand and may come back.
 */
static void vcube_engine_cnet_killed(struct kunit *test)
{
	struct vc_params p = cnet_params();
	struct vc_cnet_args a = { .kind = VC_CNET_BARRIER, .nodes = 4 };
	struct vc_req *r[4];
	struct engine_ctx c;
	struct vc_engine *e;
	u32 n;

	e = engine_new(test, &c, 2, &p);
	KUNIT_ASSERT_EQ(test, vc_delay(e, 1, 9000), 0);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 1, &a, NULL, &r[1]), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r[1]), VC_BLOCKED_RET);
	/* a signal: node 1 leaves, and comes back at its clock */
	vc_unblock(e, 1);
	vc_req_free(e, r[1]);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 1, &a, NULL, &r[1]), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r[1]), VC_BLOCKED_RET);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 0, &a, NULL, &r[0]), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, r[0]), VC_BLOCKED_RET);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 2, &a, NULL, &r[2]), 0);
	/* node 3 dies: node 2, the last to wait, sees the deadlock */
	vc_unbind(e, 3);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 2, r[2]), -EDEADLK);
	for (n = 0; n < 3; n++) {
		KUNIT_EXPECT_FALSE(test, r[n]->done);
		KUNIT_EXPECT_EQ(test, vc_node_status(e, n), -EDEADLK);
	}
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->deadlocks, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->cnet_ops[VC_CNET_BARRIER], 0ULL);
	/*
	 * A new process on node 3, and node 0 back before nodes 1 and 2 have
	 * dropped their dead requests: the two start a new operation, which
	 * the dead one's members cannot complete; nodes 1 and 2 join it.
	 */
	vc_req_free(e, r[0]);
	KUNIT_ASSERT_EQ(test, vc_bind(e, 3), 0);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 0, &a, NULL, &r[0]), 0);
	KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, 3, &a, NULL, &r[3]), 0);
	KUNIT_EXPECT_FALSE(test, r[0]->done);
	KUNIT_EXPECT_FALSE(test, r[3]->done);
	for (n = 1; n < 3; n++) {
		vc_req_free(e, r[n]);
		KUNIT_ASSERT_EQ(test, vc_cnet_enter(e, n, &a, NULL, &r[n]), 0);
	}
	for (n = 0; n < 4; n++) {
		KUNIT_EXPECT_TRUE(test, r[n]->done);
		KUNIT_EXPECT_EQ(test, r[n]->done_time, 9000ULL + 6000);
		vc_req_free(e, r[n]);
	}
	engine_free(&c);
}

static struct kunit_case vcube_engine_cnet_cases[] = {
	KUNIT_CASE_PARAM(vcube_engine_cnet_cost, cnet_cost_gen_params),
	KUNIT_CASE(vcube_engine_cnet_order),
	KUNIT_CASE(vcube_engine_cnet_partition),
	KUNIT_CASE(vcube_engine_cnet_killed),
	{}
};

static struct kunit_suite vcube_engine_cnet_suite = {
	.name = "vcube_engine_cnet",
	.test_cases = vcube_engine_cnet_cases,
};

kunit_test_suite(vcube_engine_cnet_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the vcube control network");
