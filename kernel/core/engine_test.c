// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_engine: the virtual-time engine driven from one thread.
 * Nodes post their operations without blocking and then wait; once every
 * bound node waits, nothing can precede the next event, so the engine
 * commits all of it and the waits complete in order.
 */
#include <kunit/test.h>
#include "engine.h"
#include "profiles.h"

static struct vc_params test_params(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.max_reqs = 64;
	return p;
}

struct engine_ctx {
	struct vcube_topo topo;
	struct vc_engine *e;
};

static struct vc_engine *engine_new(struct kunit *test, struct engine_ctx *c,
				    u32 dim, const struct vc_params *p)
{
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = dim };
	u32 i;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&c->topo, &tp, NULL, 0), 0);
	c->e = vc_engine_create(&c->topo, p);
	KUNIT_ASSERT_NOT_NULL(test, c->e);
	for (i = 0; i < c->topo.nodes; i++)
		KUNIT_ASSERT_EQ(test, vc_bind(c->e, i), 0);
	return c->e;
}

static void engine_free(struct engine_ctx *c)
{
	u32 i;

	for (i = 0; i < c->topo.nodes; i++)
		vc_unbind(c->e, i);
	vc_engine_destroy(c->e);
}

static void *payload(struct kunit *test, u64 len)
{
	void *p = kzalloc(len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

struct single_case {
	u32 d;
	u64 m;
	u32 flags;
	u64 want;
};

static void single_desc(const struct single_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s m=%llu d=%u",
		 c->flags ? "FORCED" : "UNFORCED", (unsigned long long)c->m,
		 c->d);
}

#define F(d, m) { d, m, VC_SEND_FORCED, 95000 + 394 * (m) + 10300 * (d) }
#define U(d, m) { d, m, 0, 164000 + 398 * (m) + 29900 * (d) }

/* Bokhari 1991 sec. 2.2, and the split at 101 bytes. */
static const struct single_case single_cases[] = {
	F(1, 0), F(1, 100), F(1, 101), F(3, 1000), F(7, 0), F(7, 4096),
	{ 1, 100, 0, 95000 + 394 * 100 + 10300 },
	{ 7, 100, 0, 95000 + 394 * 100 + 10300 * 7 },
	U(1, 101), U(4, 1000), U(7, 4096),
};

KUNIT_ARRAY_PARAM(single, single_cases, single_desc);

/* Every node but src and dst is unbound; dst posts, src sends, both wait. */
static void vcube_engine_single_send(struct kunit *test)
{
	const struct single_case *c = test->param_value;
	struct vc_params p = test_params();
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 7 };
	struct vc_req *rr, *sr;
	struct vcube_topo topo;
	struct vc_engine *e;
	u32 dst = (1U << c->d) - 1;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	e = vc_engine_create(&topo, &p);
	KUNIT_ASSERT_NOT_NULL(test, e);
	vc_bind(e, 0);
	vc_bind(e, dst);
	KUNIT_ASSERT_EQ(test, vc_recv(e, dst, 0, 7, c->m, 0, &rr), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, dst, 7, c->flags,
				      payload(test, c->m), c->m, 0, &sr), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, sr), VC_BLOCKED_RET);
	/* Both wait: everything up to the sender's return is committed. */
	KUNIT_ASSERT_EQ(test, vc_wait(e, dst, rr), VC_BLOCKED_RET);
	KUNIT_EXPECT_TRUE(test, sr->done);
	KUNIT_EXPECT_EQ(test, vc_node_state(e, 0), VC_RUNNING);
	/* The sender leaves; its message goes on and arrives. */
	vc_unbind(e, 0);
	KUNIT_ASSERT_TRUE(test, rr->done);
	KUNIT_EXPECT_EQ(test, vc_node_status(e, dst), 0);
	KUNIT_EXPECT_EQ(test, rr->done_time, c->want);
	KUNIT_EXPECT_EQ(test, vc_clock(e, dst), c->want);
	KUNIT_EXPECT_EQ(test, rr->msg->len, c->m);
	/* The sender returned the tail earlier (Seidel's s). */
	KUNIT_EXPECT_EQ(test, sr->done_time, c->want - 31000);
	vc_unbind(e, dst);
	vc_engine_destroy(e);
}

/*
 * Two headers want channel 3->7 at the same instant: the lower source wins
 * (Bokhari's Fig. 6 assumption) and the other queues for its whole hold.
 */
static void vcube_engine_ties(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req *ra, *rb, *sa, *sb;
	struct engine_ctx c;
	struct vc_engine *e;
	u32 i;

	/* Block time units: one message is 1000 ns, hops are free. */
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 1000, 0, 0 };
	p.tail = 0;
	p.eject = 0;
	e = engine_new(test, &c, 3, &p);
	for (i = 0; i < 8; i++)
		if (i != 1 && i != 3 && i != 7)
			vc_unbind(e, i);
	/* 1 -> 7 (1, 3, 7) and 3 -> 7 both want channel 3->7 at time 0. */
	vc_recv(e, 7, 1, 0, 8, 0, &ra);
	vc_recv(e, 7, 3, 0, 8, 0, &rb);
	vc_send(e, 3, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0, &sb);
	vc_send(e, 1, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0, &sa);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, sa), VC_BLOCKED_RET);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 3, sb), VC_BLOCKED_RET);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 7, rb), VC_BLOCKED_RET);
	/* Each sender returns in turn; once both leave, all is committed. */
	vc_unbind(e, 1);
	vc_unbind(e, 3);
	KUNIT_EXPECT_TRUE(test, ra->done);
	KUNIT_EXPECT_TRUE(test, rb->done);
	KUNIT_EXPECT_EQ(test, ra->done_time, 1000ULL);	/* source 1 first */
	KUNIT_EXPECT_EQ(test, rb->done_time, 2000ULL);
	KUNIT_EXPECT_EQ(test, vc_chan_stats(e, 3 * 3 + 2)->waits, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_node_status(e, 7), 0);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->deadlocks, 0ULL);
	engine_free(&c);
}

/*
 * Channel 3->7 carries 1->7 until 1000 ns; 3->7 asked for it at 0, 2->7
 * asks at 1000, the instant it is freed. FIFO serves node 3 first;
 * lowest-first arbitration collects the instant's requests and serves
 * node 2. The trace holds every channel use with its times.
 */
static void vcube_engine_arbitration(struct kunit *test)
{
	struct vc_req *r[3], *s[3];
	struct vc_trace_rec rec;
	struct engine_ctx c;
	struct vc_engine *e;
	u32 lowest, i, n, d;
	u64 k;

	for (lowest = 0; lowest < 2; lowest++) {
		struct vc_params p = test_params();

		p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 1000, 0, 0 };
		p.tail = 0;
		p.eject = 0;
		p.trace_max = 16;
		p.arb_lowest = lowest;
		e = engine_new(test, &c, 3, &p);
		for (i = 4; i < 7; i++)
			vc_unbind(e, i);
		vc_unbind(e, 0);
		/* r[i - 1], s[i - 1]: the message from node i */
		for (i = 1; i <= 3; i++)
			vc_recv(e, 7, i, 0, 8, 0, &r[i - 1]);
		vc_send(e, 1, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0,
			&s[0]);
		vc_send(e, 3, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0,
			&s[2]);
		KUNIT_EXPECT_EQ(test, vc_delay(e, 2, 1000), 0);
		vc_send(e, 2, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0,
			&s[1]);
		for (i = 1; i <= 3; i++)
			KUNIT_EXPECT_EQ(test, vc_wait(e, i, s[i - 1]),
					VC_BLOCKED_RET);
		/* the receiver waits for the last to arrive */
		KUNIT_EXPECT_EQ(test, vc_wait(e, 7, r[lowest ? 2 : 1]),
				VC_BLOCKED_RET);
		for (i = 1; i <= 3; i++)
			vc_unbind(e, i);
		for (i = 0; i < 3; i++)
			KUNIT_EXPECT_TRUE(test, r[i]->done);
		KUNIT_EXPECT_EQ(test, r[0]->done_time, 1000ULL);
		KUNIT_EXPECT_EQ(test, r[1]->done_time, lowest ? 2000ULL : 3000ULL);
		KUNIT_EXPECT_EQ(test, r[2]->done_time, lowest ? 3000ULL : 2000ULL);
		/* 1->7 and 2->7 two hops each, 3->7 one */
		for (k = 0, n = 0, d = 0; k < vc_trace_count(e); k++) {
			KUNIT_ASSERT_EQ(test, vc_trace_get(e, k, &rec), 0);
			if (rec.kind != VC_TRACE_DATA)
				continue;
			d++;
			KUNIT_EXPECT_EQ(test, rec.end - rec.start, 1000ULL);
			if (rec.chan == 3 * 3 + 2)
				n++;
			if (rec.src == 2)
				KUNIT_EXPECT_EQ(test, rec.start,
						lowest ? 1000ULL : 2000ULL);
		}
		KUNIT_EXPECT_EQ(test, d, 5U);
		KUNIT_EXPECT_EQ(test, n, 3U);
		KUNIT_EXPECT_EQ(test, vc_trace_get(e, k, &rec), -ENOENT);
		vc_trace_reset(e);
		KUNIT_EXPECT_EQ(test, vc_trace_count(e), 0ULL);
		vc_unbind(e, 7);
		vc_engine_destroy(e);
	}
}

/* The records of @kind in @e's trace whose source is @src, in order. */
static u32 trace_find(struct kunit *test, struct vc_engine *e, u16 kind,
		      u32 src, struct vc_trace_rec *out, u32 max)
{
	struct vc_trace_rec rec;
	u32 n = 0;
	u64 k;

	for (k = 0; k < vc_trace_count(e); k++) {
		KUNIT_ASSERT_EQ(test, vc_trace_get(e, k, &rec), 0);
		if (rec.kind == kind && rec.src == src && n < max)
			out[n++] = rec;
	}
	return n;
}

/*
 * The arbitration case (FIFO) again, for the records beside the channel
 * uses. Messages: 1->7 (msg 0) holds 3->7 until 1000; 3->7 (msg 1) waits
 * for it from 0 to 1000; 2->7 (msg 2), sent at 1000 after a delay, waits
 * from 1000 to 2000 behind msg 1, which took the channel last. Node 7,
 * waiting for msg 2 from 0, waited for it to be sent, then for the
 * channel, then for its transit; node 2 was busy, then blocked in its send.
 */
static void vcube_engine_trace_records(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_trace_rec w[8];
	struct vc_req *r[3], *s[3];
	struct engine_ctx c;
	struct vc_engine *e;
	u32 i;

	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 1000, 0, 0 };
	p.tail = 0;
	p.eject = 0;
	p.trace_max = 64;
	e = engine_new(test, &c, 3, &p);
	for (i = 4; i < 7; i++)
		vc_unbind(e, i);
	vc_unbind(e, 0);
	KUNIT_EXPECT_TRUE(test, vc_trace_enabled(e));
	KUNIT_EXPECT_EQ(test, vc_mark(e, 2, "step 1"), 0);
	KUNIT_EXPECT_EQ(test, vc_mark(e, 0, "unbound"), -EINVAL);
	for (i = 1; i <= 3; i++)
		vc_recv(e, 7, i, 0, 8, 0, &r[i - 1]);
	vc_send(e, 1, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0, &s[0]);
	vc_send(e, 3, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0, &s[2]);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 2, 1000), 0);
	vc_send(e, 2, 7, 0, VC_SEND_FORCED, payload(test, 8), 8, 0, &s[1]);
	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_EQ(test, vc_wait(e, i, s[i - 1]), VC_BLOCKED_RET);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 7, r[1]), VC_BLOCKED_RET);
	/* node 2 goes on at 3000 once 1 and 3 are gone; its data then too */
	vc_unbind(e, 1);
	vc_unbind(e, 3);
	KUNIT_EXPECT_EQ(test, vc_node_state(e, 2), VC_RUNNING);
	vc_unbind(e, 2);
	KUNIT_ASSERT_TRUE(test, r[1]->done);
	KUNIT_EXPECT_EQ(test, r[1]->done_time, 3000ULL);

	/* the mark, at node 2's clock then */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_MARK, 2, w, 8), 1U);
	KUNIT_EXPECT_EQ(test, w[0].start, 0ULL);
	KUNIT_EXPECT_STREQ(test, w[0].label, "step 1");

	/* msg 2: posted, path held, body, delivered; its wait */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_MSG, 2, w, 8), 1U);
	KUNIT_EXPECT_EQ(test, w[0].msg, 2U);
	KUNIT_EXPECT_EQ(test, w[0].dst, 7U);
	KUNIT_EXPECT_EQ(test, w[0].proto, (u16)VC_PROTO_FORCED);
	KUNIT_EXPECT_EQ(test, w[0].hop, 2U);
	KUNIT_EXPECT_EQ(test, w[0].start, 1000ULL);
	KUNIT_EXPECT_EQ(test, w[0].acquired, 2000ULL);
	KUNIT_EXPECT_EQ(test, w[0].flow, 2000ULL);
	KUNIT_EXPECT_EQ(test, w[0].end, 3000ULL);
	KUNIT_EXPECT_EQ(test, w[0].cause, (u16)VC_CAUSE_CHAN);
	KUNIT_EXPECT_EQ(test, w[0].chan, 3U * 3 + 2);
	KUNIT_EXPECT_EQ(test, w[0].holder, 1U);
	/* its circuit: 2->3 taken at 1000, 3->7 at 2000, the body at 2000 */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_DATA, 2, w, 8), 2U);
	KUNIT_EXPECT_EQ(test, w[0].hop, 0U);
	KUNIT_EXPECT_EQ(test, w[0].acquired, 1000ULL);
	KUNIT_EXPECT_EQ(test, w[0].start, 2000ULL);
	KUNIT_EXPECT_EQ(test, w[0].end, 3000ULL);
	KUNIT_EXPECT_EQ(test, w[1].hop, 1U);
	KUNIT_EXPECT_EQ(test, w[1].chan, 3U * 3 + 2);
	KUNIT_EXPECT_EQ(test, w[1].acquired, 2000ULL);
	/* msg 1 waited behind msg 0 */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_MSG, 3, w, 8), 1U);
	KUNIT_EXPECT_EQ(test, w[0].holder, 0U);
	/* msg 0 waited for nothing */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_MSG, 1, w, 8), 1U);
	KUNIT_EXPECT_EQ(test, w[0].cause, (u16)VC_CAUSE_TRANSIT);
	KUNIT_EXPECT_EQ(test, w[0].holder, VC_TRACE_NONE);

	/* node 2: busy 1000 ns, then its send: the channel, the transit */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_WAIT, 2, w, 8), 3U);
	KUNIT_EXPECT_EQ(test, w[0].cause, (u16)VC_CAUSE_COMPUTE);
	KUNIT_EXPECT_EQ(test, w[0].bytes, 1000ULL);
	KUNIT_EXPECT_EQ(test, w[0].msg, VC_TRACE_NONE);
	KUNIT_EXPECT_EQ(test, w[1].cause, (u16)VC_CAUSE_CHAN);
	KUNIT_EXPECT_EQ(test, w[1].start, 1000ULL);
	KUNIT_EXPECT_EQ(test, w[1].end, 2000ULL);
	KUNIT_EXPECT_EQ(test, w[1].holder, 1U);
	KUNIT_EXPECT_EQ(test, w[1].msg, 2U);
	KUNIT_EXPECT_EQ(test, w[1].dst, 7U);
	KUNIT_EXPECT_EQ(test, w[2].cause, (u16)VC_CAUSE_TRANSIT);
	KUNIT_EXPECT_EQ(test, w[2].start, 2000ULL);
	KUNIT_EXPECT_EQ(test, w[2].end, 3000ULL);
	/* node 7: not sent yet, the channel, the transit */
	KUNIT_ASSERT_EQ(test, trace_find(test, e, VC_TRACE_WAIT, 7, w, 8), 3U);
	KUNIT_EXPECT_EQ(test, w[0].cause, (u16)VC_CAUSE_NOSEND);
	KUNIT_EXPECT_EQ(test, w[0].start, 0ULL);
	KUNIT_EXPECT_EQ(test, w[0].end, 1000ULL);
	KUNIT_EXPECT_EQ(test, w[0].dst, 2U);
	KUNIT_EXPECT_EQ(test, w[1].cause, (u16)VC_CAUSE_CHAN);
	KUNIT_EXPECT_EQ(test, w[1].end, 2000ULL);
	KUNIT_EXPECT_EQ(test, w[2].cause, (u16)VC_CAUSE_TRANSIT);
	KUNIT_EXPECT_EQ(test, w[2].end, 3000ULL);

	/* switched off, nothing more is written; on again, it is */
	vc_trace_enable(e, false);
	KUNIT_EXPECT_FALSE(test, vc_trace_enabled(e));
	i = vc_trace_count(e);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 7, 10), 0);
	KUNIT_EXPECT_EQ(test, vc_mark(e, 7, "off"), 0);
	KUNIT_EXPECT_EQ(test, vc_trace_count(e), (u64)i);
	vc_trace_enable(e, true);
	KUNIT_EXPECT_EQ(test, vc_mark(e, 7, "on"), 0);
	KUNIT_EXPECT_EQ(test, vc_trace_count(e), (u64)i + 1);
	vc_unbind(e, 7);
	vc_engine_destroy(e);
}

/* What vc_engine_set_notify() announced, for the tests to read. */
struct notices {
	struct vc_notice nt[8];
	u32 n;
};

static void notices_add(void *ctx, const struct vc_notice *nt)
{
	struct notices *ns = ctx;

	if (ns->n < ARRAY_SIZE(ns->nt))
		ns->nt[ns->n] = *nt;
	ns->n++;
}

/*
 * A message goes to the first receive posted that takes it, whatever mix
 * of exact and wildcard sources and tags is posted (the engine finds it in
 * hash chains per kind of receive, and must still pick the earliest).
 */
static void vcube_engine_match_order(struct kunit *test)
{
	static const u32 src[5] = { VC_ANY, 0, 0, VC_ANY, 0 };
	static const u32 tag[5] = { 5, VC_ANY, 5, VC_ANY, 6 };
	static const u32 sent[5] = { 5, 5, 5, 6, 6 };
	struct vc_params p = test_params();
	struct vc_req *r[5], *sr;
	struct engine_ctx c;
	struct vc_engine *e;
	int ret;
	u32 i;

	e = engine_new(test, &c, 1, &p);
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, src[i], tag[i], 64, 0, &r[i]),
				0);
	/* sent in this order, each a byte longer: the i-th goes to r[i] */
	for (i = 0; i < 5; i++) {
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, sent[i], VC_SEND_FORCED,
					      payload(test, i + 1), i + 1, 0,
					      &sr), 0);
		vc_req_free(e, sr);
	}
	vc_unbind(e, 0);
	/* blocked: everything commits, and it is done */
	ret = vc_wait(e, 1, r[4]);
	KUNIT_EXPECT_TRUE(test, ret == 0 || ret == VC_BLOCKED_RET);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_TRUE(test, r[i]->done);
		KUNIT_ASSERT_NOT_NULL(test, r[i]->msg);
		KUNIT_EXPECT_EQ(test, r[i]->msg->len, (u64)i + 1);
		KUNIT_EXPECT_EQ(test, r[i]->msg->tag, sent[i]);
	}
	engine_free(&c);
}

/*
 * Many requests: each found by its id, and each of 1000 receives with its
 * own tag gets its message, sent in the reverse order (the tables grow
 * from 64 chains as the requests come).
 */
static void vcube_engine_many_reqs(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req **r, *sr;
	struct engine_ctx c;
	struct vc_engine *e;
	u32 i, found = 0, right = 0;
	int ret;

	p.max_reqs = 2000;
	r = kunit_kcalloc(test, 1000, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	e = engine_new(test, &c, 1, &p);
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, i, 8, 0, &r[i]), 0);
	for (i = 0; i < 1000; i++)
		found += vc_req_find(e, 1, r[i]->id) == r[i];
	KUNIT_EXPECT_EQ(test, found, 1000U);
	KUNIT_EXPECT_PTR_EQ(test, vc_req_find(e, 0, r[0]->id), NULL);
	for (i = 1000; i-- > 0;) {
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, i, VC_SEND_FORCED,
					      payload(test, 8), 8, 0, &sr), 0);
		vc_req_free(e, sr);
	}
	vc_unbind(e, 0);
	/* blocked: everything commits, and it is done */
	ret = vc_wait(e, 1, r[0]);
	KUNIT_EXPECT_TRUE(test, ret == 0 || ret == VC_BLOCKED_RET);
	for (i = 0; i < 1000; i++)
		right += r[i]->done && r[i]->msg && r[i]->msg->tag == i;
	KUNIT_EXPECT_EQ(test, right, 1000U);
	for (i = 0; i < 1000; i += 2)
		vc_req_free(e, r[i]);
	for (i = 1; i < 1000; i += 2)
		found -= vc_req_find(e, 1, r[i]->id) == r[i];
	KUNIT_EXPECT_EQ(test, found, 500U);
	engine_free(&c);
}

/*
 * The idle lease: node 0 sends and goes off (running, holding time at its
 * clock); node 1's receive cannot complete until node 0's lease runs out.
 * While node 0 is idle nobody deadlocks for want of it; its next call
 * starts at the time committed meanwhile.
 */
static void vcube_engine_lease(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req *r, *s, *r2;
	struct engine_ctx c;
	struct vc_engine *e;
	int ret;

	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 8, 0, &r), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, VC_SEND_FORCED,
				      payload(test, 8), 8, 0, &s), 0);
	vc_req_free(e, s);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r), VC_BLOCKED_RET);
	KUNIT_EXPECT_FALSE(test, r->done);	/* node 0 holds time at 0 */
	vc_lease_expire(e, 0);
	KUNIT_EXPECT_TRUE(test, r->done);
	KUNIT_EXPECT_EQ(test, vc_node_status(e, 1), 0);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->leases, 1ULL);
	/* node 1 waits for a second message node 0 has not sent: no deadlock */
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 1, 8, 0, &r2), 0);
	ret = vc_wait(e, 1, r2);
	KUNIT_EXPECT_EQ(test, ret, VC_BLOCKED_RET);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->deadlocks, 0ULL);
	/* node 0 comes back, at the time committed meanwhile, and sends */
	vc_resume(e, 0);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), vc_now(e));
	KUNIT_EXPECT_GE(test, vc_clock(e, 0), r->done_time);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 1, VC_SEND_FORCED,
				      payload(test, 8), 8, 0, &s), 0);
	vc_req_free(e, s);
	vc_unbind(e, 0);
	KUNIT_EXPECT_TRUE(test, r2->done);
	KUNIT_EXPECT_GT(test, r2->done_time, r->done_time);
	engine_free(&c);
}

/*
 * Everyone waits and nothing is in flight: all get -EDEADLK at once, and
 * the deadlock is announced once, with the two nodes it left waiting.
 */
static void vcube_engine_deadlock(struct kunit *test)
{
	struct vc_params p = test_params();
	struct notices ns = { .n = 0 };
	struct vc_req *r0, *r1;
	struct engine_ctx c;
	struct vc_engine *e;

	e = engine_new(test, &c, 1, &p);
	vc_engine_set_notify(e, notices_add, &ns);
	vc_recv(e, 0, 1, 0, 8, 0, &r0);
	vc_recv(e, 1, 0, 0, 8, 0, &r1);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, r0), VC_BLOCKED_RET);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r1), -EDEADLK);
	KUNIT_EXPECT_EQ(test, vc_node_status(e, 0), -EDEADLK);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->deadlocks, 1ULL);
	KUNIT_ASSERT_EQ(test, ns.n, 1U);
	KUNIT_EXPECT_EQ(test, ns.nt[0].kind, (u32)VC_NOTICE_DEADLOCK);
	KUNIT_EXPECT_EQ(test, ns.nt[0].waiting, 2U);
	KUNIT_EXPECT_EQ(test, ns.nt[0].time, vc_now(e));
	/* and kept whole: what each waited for, until a reset */
	{
		const struct vc_deadlock_rec *d;
		u64 t;

		KUNIT_ASSERT_EQ(test, vc_deadlock_count(e, &t), 2U);
		KUNIT_EXPECT_EQ(test, t, vc_now(e));
		d = vc_deadlock_get(e, 1);
		KUNIT_EXPECT_EQ(test, d->node, 1U);
		KUNIT_EXPECT_EQ(test, d->kind, (u32)VC_WAIT_RECV);
		KUNIT_EXPECT_EQ(test, d->peer, 0);
		KUNIT_EXPECT_EQ(test, d->tag, 0);
		KUNIT_EXPECT_PTR_EQ(test, vc_deadlock_get(e, 2), NULL);
		vc_stats_reset(e);
		KUNIT_EXPECT_EQ(test, vc_deadlock_count(e, &t), 0U);
	}
	engine_free(&c);
}

/*
 * Peak notices: the first window in which a channel is taken sets the
 * record (1: a circuit holds its channel alone) and is announced; a later
 * window that only equals it is not; after a reset the record starts
 * again. Node 0's messages to node 1 take channel 0 (0->1, dimension 0).
 */
static void vcube_engine_notice_peak(struct kunit *test)
{
	struct vc_params p = test_params();
	struct notices ns = { .n = 0 };
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_req *r, *s;
	int i;

	p.window_ns = 10000;
	e = engine_new(test, &c, 1, &p);
	vc_engine_set_notify(e, notices_add, &ns);
	for (i = 0; i < 3; i++) {
		if (i == 2)
			vc_stats_reset(e);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 8, 0, &r), 0);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r), VC_BLOCKED_RET);
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, VC_SEND_FORCED,
					      payload(test, 8), 8, 0, &s), 0);
		/* node 0 moves 1 ms on: everything before is committed */
		KUNIT_EXPECT_EQ(test, vc_delay(e, 0, 1000000), 0);
		KUNIT_EXPECT_TRUE(test, r->done);
		KUNIT_EXPECT_EQ(test, vc_node_status(e, 1), 0);
	}
	KUNIT_ASSERT_EQ(test, ns.n, 2U);
	KUNIT_EXPECT_EQ(test, ns.nt[0].kind, (u32)VC_NOTICE_PEAK);
	KUNIT_EXPECT_EQ(test, ns.nt[0].window,
			(u32)(ns.nt[0].time / p.window_ns));
	KUNIT_EXPECT_EQ(test, ns.nt[0].peak, 1U);
	KUNIT_EXPECT_EQ(test, ns.nt[0].chan, 0U);
	KUNIT_EXPECT_EQ(test, ns.nt[1].kind, (u32)VC_NOTICE_PEAK);
	KUNIT_EXPECT_GT(test, ns.nt[1].time, ns.nt[0].time);
	KUNIT_EXPECT_EQ(test, ns.nt[1].window,
			(u32)(ns.nt[1].time / p.window_ns));
	vc_engine_set_notify(e, NULL, NULL);
	engine_free(&c);
}

/* A FORCED message with no receive posted is dropped and counted. */
static void vcube_engine_forced_dropped(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req *s, *r;
	struct engine_ctx c;
	struct vc_engine *e;

	e = engine_new(test, &c, 1, &p);
	vc_send(e, 0, 1, 0, VC_SEND_FORCED, payload(test, 8), 8, 0, &s);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 1, 1000000), 0);
	vc_recv(e, 1, 0, 0, 8, 0, &r);
	/* The send returns before node 1's clock: no need to block. */
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, s), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r), VC_BLOCKED_RET);
	vc_unbind(e, 0);
	KUNIT_EXPECT_EQ(test, vc_node_status(e, 1), -EDEADLK);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 1)->forced_dropped, 1ULL);
	engine_free(&c);
}

/*
 * Per-channel and per-node counters: an UNFORCED 4 KB message 0->7 (PROBE,
 * REQUEST and data) and a FORCED 8-byte one 0->1 that nobody receives; then
 * a reset keeps only what is held now.
 */
static void vcube_engine_link_stats(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 3 };
	const struct vc_res_stats *c0, *c4, *c11;
	struct vcube_topo topo;
	struct vc_engine *e;
	struct vc_req *s1, *s2;
	u64 gen;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	e = vc_engine_create(&topo, &p);
	KUNIT_ASSERT_NOT_NULL(test, e);
	vc_bind(e, 0);
	vc_bind(e, 1);
	vc_bind(e, 7);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 7, 0, 0, payload(test, 4096),
				      4096, 0, &s1), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, VC_SEND_FORCED,
				      payload(test, 8), 8, 0, &s2), 0);
	vc_delay(e, 1, 10000000);
	vc_delay(e, 7, 10000000);
	vc_wait(e, 0, s1);
	KUNIT_ASSERT_TRUE(test, s1->done);
	KUNIT_ASSERT_TRUE(test, s2->done);
	/* The data is still on channel 4 when its sender returns (the tail) */
	KUNIT_EXPECT_GT(test, vc_chan_busy(e, 4), vc_chan_stats(e, 4)->busy_ns);
	vc_delay(e, 0, 10000000);
	/* e-cube: 0->7 is channels 0 (0->1), 4 (1->3), 11 (3->7) */
	c0 = vc_chan_stats(e, 0);
	c4 = vc_chan_stats(e, 4);
	c11 = vc_chan_stats(e, 11);
	KUNIT_EXPECT_EQ(test, c0->msgs, 2ULL);
	KUNIT_EXPECT_EQ(test, c0->bytes, 4104ULL);
	KUNIT_EXPECT_EQ(test, c0->uses, 3ULL);
	KUNIT_EXPECT_EQ(test, c4->msgs, 1ULL);
	KUNIT_EXPECT_EQ(test, c4->bytes, 4096ULL);
	KUNIT_EXPECT_EQ(test, c4->uses, 2ULL);
	KUNIT_EXPECT_EQ(test, c11->msgs, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_chan_stats(e, 1)->uses, 0ULL);
	KUNIT_EXPECT_GT(test, c4->busy_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, vc_chan_busy(e, 4), c4->busy_ns);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 7)->buffered, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 7)->sysbuf_peak, 4096ULL);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 1)->forced_dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 0)->sent, 2ULL);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->messages, 2ULL);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->transfers, 4ULL);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->elapsed, vc_now(e));

	gen = vc_stats_gen(e);
	vc_stats_reset(e);
	KUNIT_EXPECT_NE(test, vc_stats_gen(e), gen);
	KUNIT_EXPECT_EQ(test, c0->msgs, 0ULL);
	KUNIT_EXPECT_EQ(test, c0->uses, 0ULL);
	KUNIT_EXPECT_EQ(test, c4->busy_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, c4->peak, 0ULL);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 0)->sent, 0ULL);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->messages, 0ULL);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->elapsed, 0ULL);
	KUNIT_EXPECT_EQ(test, vc_trace_count(e), 0ULL);
	/* still in node 7's buffer */
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 7)->sysbuf_peak, 4096ULL);
	vc_unbind(e, 0);
	vc_unbind(e, 1);
	vc_unbind(e, 7);
	vc_engine_destroy(e);
}

/* A test answers 0 before the request is done and 1 after, never blocks. */
static void vcube_engine_test_done(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 1 };
	struct vcube_topo topo;
	struct vc_engine *e;
	struct vc_req *s;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	e = vc_engine_create(&topo, &p);
	KUNIT_ASSERT_NOT_NULL(test, e);
	vc_bind(e, 0);
	vc_send(e, 0, 0, 0, 0, payload(test, 8), 8, 0, &s);
	/* Alone, the node's test commits its own instant: not done yet. */
	KUNIT_EXPECT_EQ(test, vc_test(e, 0, s), 0);
	KUNIT_EXPECT_EQ(test, vc_node_state(e, 0), VC_RUNNING);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, 1000000), 0);
	KUNIT_EXPECT_TRUE(test, s->done);
	KUNIT_EXPECT_EQ(test, vc_test(e, 0, s), 1);
	KUNIT_EXPECT_EQ(test, vc_node_state(e, 0), VC_RUNNING);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, s), 0);
	vc_unbind(e, 0);
	vc_engine_destroy(e);
}

/*
 * A cancelled receive takes nothing: the message goes to the receive
 * posted after it. A done receive cannot be cancelled (-EBUSY), nor a
 * send (-EINVAL).
 */
static void vcube_engine_cancel(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req *r1, *r2, *s;
	struct engine_ctx c;
	struct vc_engine *e;
	int ret;

	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 5, 64, 0, &r1), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, VC_ANY, VC_ANY, 64, 0, &r2), 0);
	KUNIT_EXPECT_EQ(test, vc_cancel(e, 1, r1), 0);
	KUNIT_EXPECT_NULL(test, vc_req_find(e, 1, r2->id - 1));
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 5, 0, payload(test, 8), 8, 0,
				      &s), 0);
	KUNIT_EXPECT_EQ(test, vc_cancel(e, 0, s), -EINVAL);
	vc_req_free(e, s);	/* the message goes on */
	vc_unbind(e, 0);	/* and nothing waits for node 0 */
	ret = vc_wait(e, 1, r2);
	KUNIT_EXPECT_TRUE(test, ret == 0 || ret == VC_BLOCKED_RET);
	KUNIT_EXPECT_TRUE(test, r2->done);
	KUNIT_ASSERT_NOT_NULL(test, r2->msg);
	KUNIT_EXPECT_EQ(test, r2->msg->tag, 5U);
	KUNIT_EXPECT_EQ(test, vc_cancel(e, 1, r2), -EBUSY);
	vc_req_free(e, r2);
	engine_free(&c);
}

/*
 * A receive for a class of tags takes the first message of that class, in
 * posting order with the others: a class posted before an exact receive
 * of the same tag takes the first such message, the exact one the next; a
 * message of another class passes it by. A class with low bits is refused.
 */
static void vcube_engine_tag_class(struct kunit *test)
{
	static const u32 sent[4] = { 0x20007, 0x10005, 0x10005, 0x10009 };
	struct vc_params p = test_params();
	struct vc_req *any, *cls, *exact, *cls2, *s, *bad;
	struct engine_ctx c;
	struct vc_engine *e;
	u32 i;

	e = engine_new(test, &c, 1, &p);
	KUNIT_EXPECT_EQ(test, vc_recv_flags(e, 1, 0, 0x10001, VC_RECV_TAGCLASS,
					    64, 0, &bad), -EINVAL);
	KUNIT_ASSERT_EQ(test, vc_recv_flags(e, 1, 0, 0x10000, VC_RECV_TAGCLASS,
					    64, 0, &cls), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0x10005, 64, 0, &exact), 0);
	KUNIT_ASSERT_EQ(test, vc_recv_flags(e, 1, VC_ANY, 0x10000,
					    VC_RECV_TAGCLASS, 64, 0, &cls2), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, VC_ANY, VC_ANY, 64, 0, &any), 0);
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, sent[i], VC_SEND_FORCED,
					      payload(test, i + 1), i + 1, 0,
					      &s), 0);
		vc_req_free(e, s);
	}
	vc_unbind(e, 0);
	vc_wait(e, 1, cls2);
	KUNIT_ASSERT_TRUE(test, any->done && cls->done && exact->done &&
			  cls2->done);
	KUNIT_EXPECT_EQ(test, any->msg->tag, 0x20007U);
	KUNIT_EXPECT_EQ(test, cls->msg->len, 2ULL);
	KUNIT_EXPECT_EQ(test, exact->msg->len, 3ULL);
	KUNIT_EXPECT_EQ(test, cls2->msg->tag, 0x10009U);
	engine_free(&c);
}

/*
 * The CM-5's sends wait for their receives (no system buffer); one that
 * waits holds no port, so the node's next send, whose receive is posted,
 * completes first (MPI's progress rule), and the first follows once its
 * receive comes.
 */
static void vcube_engine_rendezvous_progress(struct kunit *test)
{
	struct vc_params p = vc_profile_cm5();
	struct vc_req *s1, *s2, *r1, *r2;
	struct engine_ctx c;
	struct vc_engine *e;

	p.max_reqs = 64;
	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 5, 0, payload(test, 8), 8, 0,
				      &s1), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 6, 0, payload(test, 8), 8, 0,
				      &s2), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 6, 64, 0, &r2), 0);
	vc_wait(e, 0, s2);
	vc_wait(e, 1, r2);
	KUNIT_EXPECT_TRUE(test, s2->done && r2->done);
	KUNIT_EXPECT_FALSE(test, s1->done);
	KUNIT_ASSERT_NOT_NULL(test, r2->msg);
	KUNIT_EXPECT_EQ(test, r2->msg->tag, 6U);
	vc_wait(e, 0, s1);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 5, 64, 0, &r1), 0);
	vc_wait(e, 1, r1);
	KUNIT_EXPECT_TRUE(test, s1->done && r1->done);
	KUNIT_ASSERT_NOT_NULL(test, r1->msg);
	KUNIT_EXPECT_EQ(test, r1->msg->tag, 5U);
	KUNIT_EXPECT_GT(test, r1->done_time, r2->done_time);
	engine_free(&c);
}

/*
 * MPI's non-overtaking through the iPSC's handshake: a long UNFORCED
 * message (PROBE, REQUEST, DATA) and then a short one, same sender, same
 * tag, two receives posted for that tag: the first receive gets the long
 * one, though the short one's data arrives first.
 */
static void vcube_engine_hs_order(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req *s1, *s2, *r1, *r2;
	struct engine_ctx c;
	struct vc_engine *e;

	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 9, 4096, 0, &r1), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 9, 4096, 0, &r2), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 9, 0, payload(test, 2000), 2000,
				      0, &s1), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 9, 0, payload(test, 8), 8, 0,
				      &s2), 0);
	/* node 0 runs 100 ms ahead: everything before commits */
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, 100000000), 0);
	vc_wait(e, 1, r2);
	KUNIT_ASSERT_TRUE(test, r1->done && r2->done);
	KUNIT_ASSERT_NOT_NULL(test, r1->msg);
	KUNIT_ASSERT_NOT_NULL(test, r2->msg);
	KUNIT_EXPECT_EQ(test, r1->msg->len, 2000ULL);
	KUNIT_EXPECT_EQ(test, r2->msg->len, 8ULL);
	/* the short one arrived first and waited for the long one */
	KUNIT_EXPECT_LT(test, r2->msg->arrived, r1->msg->arrived);
	KUNIT_EXPECT_GE(test, r2->done_time, r1->done_time);
	vc_req_free(e, r1);
	vc_req_free(e, r2);
	vc_req_free(e, s1);
	vc_req_free(e, s2);

	/*
	 * No receive posted until both are in: both wait unexpected, the
	 * long one ahead of the short one, and receives take them so.
	 */
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 9, 0, payload(test, 2000), 2000,
				      0, &s1), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 9, 0, payload(test, 8), 8, 0,
				      &s2), 0);
	/* node 1 posts its receive 300 ms on, node 0 lets time pass */
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, 100000000), 0);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 1, 300000000), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 9, 4096, 0, &r1), 0);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, 400000000), 0);
	vc_wait(e, 1, r1);
	KUNIT_ASSERT_TRUE(test, r1->done);
	KUNIT_ASSERT_NOT_NULL(test, r1->msg);
	KUNIT_EXPECT_EQ(test, r1->msg->len, 2000ULL);
	engine_free(&c);
}

/* Bad arguments, and the per-node request limit. */
static void vcube_engine_bad_input(struct kunit *test)
{
	struct vc_params p = test_params();
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_req *r;
	int i;

	p.max_reqs = 4;
	e = engine_new(test, &c, 1, &p);
	KUNIT_EXPECT_EQ(test, vc_send(e, 0, 2, 0, 0, payload(test, 1), 1, 0,
				      &r), -EINVAL);
	KUNIT_EXPECT_EQ(test, vc_send(e, 0, 1, 0, 1U << 5, payload(test, 1),
				      1, 0, &r), -EINVAL);
	KUNIT_EXPECT_EQ(test, vc_recv(e, 0, 5, 0, 1, 0, &r), -EINVAL);
	KUNIT_EXPECT_EQ(test, vc_bind(e, 0), -EBUSY);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, vc_recv(e, 0, 1, i, 1, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, vc_recv(e, 0, 1, 9, 1, 0, &r), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, 5), 0);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, U64_MAX), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, VC_TIME_MAX - 5), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, vc_delay(e, 0, VC_TIME_MAX - 6), 0);
	engine_free(&c);
}


/*
 * Messages in flight (payload and bookkeeping) are bounded per source node
 * and per network; they stay counted when their sender leaves and
 * rebinds, until a receiver takes them.
 */
static void vcube_engine_inflight(struct kunit *test)
{
	struct vc_params p = test_params();
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_req *r;
	u64 ov;
	int i;

	/* what a message holds beside its payload, on this network */
	e = engine_new(test, &c, 2, &p);
	ov = vc_msg_bytes(e, 0);
	KUNIT_EXPECT_GT(test, ov, 0ULL);
	engine_free(&c);
	p.max_inflight_node = 3 * (1000 + ov);
	p.max_inflight = 5 * (1000 + ov);
	e = engine_new(test, &c, 2, &p);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, vc_send(e, 0, 1, i, 0, payload(test, 1000),
					      1000, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, vc_send(e, 0, 1, 3, 0, payload(test, 1), 1, 0,
				      &r), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, vc_send(e, 2, 1, 0, 0, payload(test, 2000), 2000,
				      0, &r), 0);
	KUNIT_EXPECT_EQ(test, vc_send(e, 3, 1, 0, 0, payload(test, 1), 1, 0,
				      &r), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, vc_inflight(e, 0), 3 * (1000 + ov));
	KUNIT_EXPECT_EQ(test, vc_inflight(e, U32_MAX), 5000 + 4 * ov);
	vc_unbind(e, 0);
	KUNIT_EXPECT_EQ(test, vc_bind(e, 0), 0);
	KUNIT_EXPECT_EQ(test, vc_inflight(e, 0), 3 * (1000 + ov));
	KUNIT_EXPECT_EQ(test, vc_send(e, 0, 1, 9, 0, payload(test, 1), 1, 0,
				      &r), -ENOBUFS);
	/* node 1 alone takes two of node 0's: 1000 bytes of it stay */
	vc_unbind(e, 0);
	vc_unbind(e, 2);
	vc_unbind(e, 3);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, i, 1000, 0, &r), 0);
		KUNIT_ASSERT_EQ(test, vc_wait(e, 1, r), 0);
		vc_msg_release(vc_req_take_msg(e, r));
		vc_req_free(e, r);
	}
	KUNIT_EXPECT_EQ(test, vc_inflight(e, 0), 1000 + ov);
	KUNIT_EXPECT_EQ(test, vc_inflight(e, U32_MAX), 3000 + 2 * ov);
	KUNIT_EXPECT_EQ(test, vc_bind(e, 0), 0);
	KUNIT_EXPECT_EQ(test, vc_send(e, 0, 1, 5, 0, payload(test, 2000), 2000,
				      0, &r), 0);
	KUNIT_EXPECT_EQ(test, vc_send(e, 0, 1, 6, 0, payload(test, 1), 1, 0,
				      &r), -ENOBUFS);
	engine_free(&c);
}

/*
 * A message in flight to a binding that has gone is discarded, even when
 * the node is bound again before it arrives: the next process does not get
 * the last one's messages.
 */
static void vcube_engine_rebind(struct kunit *test)
{
	struct vc_params p = test_params();
	struct vc_req *s1, *s2, *r;
	struct engine_ctx c;
	struct vc_engine *e;

	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 1, 0, payload(test, 1000), 1000,
				      0, &s1), 0);
	vc_unbind(e, 1);
	KUNIT_ASSERT_EQ(test, vc_bind(e, 1), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 2, 0, payload(test, 1000), 1000,
				      0, &s2), 0);
	vc_unbind(e, 0);	/* its messages go on */
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, VC_ANY, 1000, 0, &r), 0);
	KUNIT_ASSERT_EQ(test, vc_wait(e, 1, r), 0);
	KUNIT_ASSERT_NOT_NULL(test, r->msg);
	KUNIT_EXPECT_EQ(test, r->msg->tag, 2U);
	KUNIT_EXPECT_EQ(test, vc_node_stats(e, 1)->discarded, 1ULL);
	vc_req_free(e, r);
	engine_free(&c);
}

/* ---- noise ---------------------------------------------------------------- */

/* The model's rules stepped window by window, as a reference. */
static u64 ref_resume(u64 phase, u64 per, u64 c, u64 t)
{
	if (t >= phase && (t - phase) % per < c)
		t += c - (t - phase) % per;
	return t;
}

static u64 ref_run(u64 phase, u64 per, u64 c, u64 t, u64 work)
{
	u64 next;

	for (;;) {
		t = ref_resume(phase, per, c, t);
		next = t < phase ? phase : phase + ((t - phase) / per + 1) * per;
		if (t + work <= next)
			return t + work;
		work -= next - t;
		t = next;
	}
}

static struct vc_params noise_params(u64 per, u64 c)
{
	struct vc_params p = test_params();

	p.noise_period = per;
	p.noise_cost = c;
	return p;
}

/*
 * Busy waits stretch over every interrupt they meet; the closed form
 * agrees with the window-by-window reference, also at the edges.
 */
static void vcube_engine_noise_delay(struct kunit *test)
{
	static const u64 works[] = { 1, 999, 1000, 8999, 9000, 9001, 10000,
				     27000, 123457, 1000000, 3 };
	struct vc_params p = noise_params(10000, 1000);
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_req *r;
	u64 ph, want;
	u32 i;

	e = engine_new(test, &c, 1, &p);
	ph = vc_noise_phase(e, 0);
	KUNIT_EXPECT_LT(test, ph, 10000ULL);
	want = ref_resume(ph, 10000, 1000, 0);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), want);
	for (i = 0; i < ARRAY_SIZE(works); i++) {
		want = ref_run(ph, 10000, 1000, want, works[i]);
		KUNIT_ASSERT_EQ(test, vc_delay(e, 0, works[i]), 0);
		KUNIT_EXPECT_EQ(test, vc_clock(e, 0), want);
	}
	/*
	 * A busy wait that ends as an interrupt begins: the node goes on at
	 * that instant, also when a test blocks it there first.
	 */
	vc_unbind(e, 1);
	want = vc_clock(e, 0);
	want = ph + ((want - ph) / 10000 + 1) * 10000;	/* the next start */
	KUNIT_ASSERT_EQ(test, vc_delay(e, 0, want - vc_clock(e, 0)), 0);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), want);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 1, 9, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, vc_test(e, 0, r), 0);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), want);
	engine_free(&c);
}

/*
 * A node woken inside an interrupt resumes at its end; the phases are
 * the seed's: equal for equal seeds, different for different ones.
 */
static void vcube_engine_noise_wake(struct kunit *test)
{
	const u64 per = 200000, cost = 100000, d = 95000 + 10300;
	struct vc_params p = noise_params(per, cost);
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 5 };
	u32 i, seed, inside = 0, outside = 0, differ = 0;
	struct vcube_topo topo;
	struct vc_engine *e, *e2;
	struct vc_req *r, *sr;
	u64 ph;

	for (seed = 1; seed <= 12; seed++) {
		tp.seed = seed;
		KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
		e = vc_engine_create(&topo, &p);
		e2 = vc_engine_create(&topo, &p);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_ASSERT_NOT_NULL(test, e2);
		for (i = 0; i < 32; i++) {
			KUNIT_EXPECT_EQ(test, vc_noise_phase(e, i),
					vc_noise_phase(e2, i));
			KUNIT_EXPECT_LT(test, vc_noise_phase(e, i), per);
		}
		differ += vc_noise_phase(e, 1) != vc_noise_phase(e, 2);
		vc_engine_destroy(e2);
		/* 0 sends to 1 at its clock; 1 waits and wakes at d or later */
		vc_bind(e, 0);
		vc_bind(e, 1);
		ph = vc_noise_phase(e, 1);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 0, 0, &r), 0);
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, VC_SEND_FORCED,
					      payload(test, 1), 0, 0, &sr), 0);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r), VC_BLOCKED_RET);
		vc_unbind(e, 0);
		KUNIT_EXPECT_EQ(test, r->done_time, d);
		KUNIT_EXPECT_EQ(test, vc_node_status(e, 1), 0);
		KUNIT_EXPECT_EQ(test, vc_clock(e, 1),
				ref_resume(ph, per, cost, r->done_time));
		if (vc_clock(e, 1) > r->done_time)
			inside++;
		else
			outside++;
		vc_unbind(e, 1);
		vc_engine_destroy(e);
	}
	/* Both cases happened, and the seed moved the phases. */
	KUNIT_EXPECT_GT(test, inside, 0U);
	KUNIT_EXPECT_GT(test, outside, 0U);
	KUNIT_EXPECT_GT(test, differ, 0U);
	/* Same seed, another engine: the same phases (checked above). */
	tp.seed = 1;
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	e = vc_engine_create(&topo, &p);
	tp.seed = 2;
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	e2 = vc_engine_create(&topo, &p);
	for (i = 0, differ = 0; i < 32; i++)
		differ += vc_noise_phase(e, i) != vc_noise_phase(e2, i);
	KUNIT_EXPECT_GT(test, differ, 16U);
	vc_engine_destroy(e);
	vc_engine_destroy(e2);
}

/*
 * Start jitter: uniform draws in [0, jitter], the same for the same seed;
 * "one" makes exactly one node per round late by the bound.
 */
static void vcube_engine_jitter(struct kunit *test)
{
	struct vc_params p = test_params();
	struct engine_ctx c, c2;
	struct vc_engine *e, *e2;
	u64 d, d2, sum = 0;
	u32 i, k, late;

	e = engine_new(test, &c, 3, &p);
	KUNIT_EXPECT_EQ(test, vc_jitter(e, 0, &d), 0);
	KUNIT_EXPECT_EQ(test, d, 0ULL);		/* off by default */
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), 0ULL);
	engine_free(&c);

	p.jitter = 100000;
	e = engine_new(test, &c, 3, &p);
	e2 = engine_new(test, &c2, 3, &p);
	for (k = 0; k < 4; k++)
		for (i = 0; i < 8; i++) {
			KUNIT_ASSERT_EQ(test, vc_jitter(e, i, &d), 0);
			KUNIT_ASSERT_EQ(test, vc_jitter(e2, i, &d2), 0);
			KUNIT_EXPECT_EQ(test, d, d2);
			KUNIT_EXPECT_LE(test, d, 100000ULL);
			sum += d;
		}
	KUNIT_EXPECT_EQ(test, vc_clock(e, 5), vc_clock(e2, 5));
	/* 32 draws from [0, 100 us]: neither all tiny nor all huge */
	KUNIT_EXPECT_GT(test, sum, 32 * 20000ULL);
	KUNIT_EXPECT_LT(test, sum, 32 * 80000ULL);
	engine_free(&c);
	engine_free(&c2);

	p.jitter_dist = VC_JITTER_ONE;
	e = engine_new(test, &c, 3, &p);
	for (k = 0; k < 6; k++) {
		for (i = 0, late = 0; i < 8; i++) {
			KUNIT_ASSERT_EQ(test, vc_jitter(e, i, &d), 0);
			KUNIT_EXPECT_TRUE(test, d == 0 || d == 100000);
			late += d != 0;
		}
		KUNIT_EXPECT_EQ(test, late, 1U);
	}
	engine_free(&c);
}

/*
 * A local copy costs copy_ps per byte of the node's processor, rounded to
 * the nearest ns; free at copy_ps 0 (the ablation); stretched by
 * interrupts exactly as a busy wait of the same length; refused for a
 * node that is not running or a size past VC_COPY_MAX, with the clock
 * unmoved.
 */
static void vcube_engine_copy(struct kunit *test)
{
	struct vc_params p = test_params();
	struct engine_ctx c, c2;
	struct vc_engine *e, *e2;
	u64 ns;

	p.copy_ps = 0;
	e = engine_new(test, &c, 1, &p);
	KUNIT_EXPECT_EQ(test, vc_copy(e, 0, 4096, &ns), 0);
	KUNIT_EXPECT_EQ(test, ns, 0ULL);	/* copy_ps 0: free */
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), 0ULL);
	engine_free(&c);

	p.copy_ps = 1500;
	e = engine_new(test, &c, 1, &p);
	KUNIT_EXPECT_EQ(test, vc_copy(e, 0, 1, &ns), 0);
	KUNIT_EXPECT_EQ(test, ns, 2ULL);	/* 1.5 ns, to the nearest */
	KUNIT_EXPECT_EQ(test, vc_copy(e, 0, 1000, &ns), 0);
	KUNIT_EXPECT_EQ(test, ns, 1500ULL);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), 1502ULL);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 1), 0ULL);	/* its own clock */
	KUNIT_EXPECT_EQ(test, vc_copy(e, 0, VC_COPY_MAX + 1, &ns),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), 1502ULL);
	vc_unbind(e, 1);
	KUNIT_EXPECT_EQ(test, vc_copy(e, 1, 1, &ns), -EINVAL);
	engine_free(&c);

	/* under noise: the same clock as a busy wait of the same ns */
	p = noise_params(10000, 1000);
	p.copy_ps = 25000;
	e = engine_new(test, &c, 1, &p);
	e2 = engine_new(test, &c2, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_copy(e, 0, 1000, &ns), 0);
	KUNIT_EXPECT_EQ(test, ns, 25000ULL);
	KUNIT_ASSERT_EQ(test, vc_delay(e2, 0, 25000), 0);
	KUNIT_EXPECT_EQ(test, vc_clock(e, 0), vc_clock(e2, 0));
	KUNIT_EXPECT_GT(test, vc_clock(e, 0), 25000ULL);
	engine_free(&c);
	engine_free(&c2);
}

/*
 * Seidel's profile frees a node's send port when csend() returns (s =
 * 44 us), so two null sends leave 44 us apart and arrive at b_s and
 * s + b_s; by default the second waits for the first's delivery.
 */
static void vcube_engine_sport_early(struct kunit *test)
{
	static const u64 want[2][2] = { { 75000, 150000 }, { 75000, 119000 } };
	struct vc_req *r1, *r2, *s1, *s2;
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_params p;
	u32 early;

	for (early = 0; early < 2; early++) {
		p = vc_profile_seidel();
		p.sport_early = early;
		e = engine_new(test, &c, 2, &p);
		vc_unbind(e, 3);
		vc_recv(e, 1, 0, 0, 0, 0, &r1);
		vc_recv(e, 2, 0, 0, 0, 0, &r2);
		vc_send(e, 0, 1, 0, VC_SEND_FORCED, payload(test, 1), 0, 0,
			&s1);
		vc_send(e, 0, 2, 0, VC_SEND_FORCED, payload(test, 1), 0, 0,
			&s2);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r1), VC_BLOCKED_RET);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 2, r2), VC_BLOCKED_RET);
		/*
		 * All wait: node 1 wakes first; once it leaves, node 0
		 * returns from its second send, and once it leaves too,
		 * the second message arrives.
		 */
		KUNIT_EXPECT_EQ(test, vc_wait(e, 0, s2), VC_BLOCKED_RET);
		KUNIT_ASSERT_TRUE(test, r1->done);
		KUNIT_EXPECT_EQ(test, r1->done_time, want[early][0]);
		KUNIT_EXPECT_EQ(test, vc_node_status(e, 1), 0);
		vc_unbind(e, 1);
		KUNIT_EXPECT_EQ(test, vc_node_status(e, 0), 0);
		KUNIT_EXPECT_EQ(test, vc_clock(e, 0), want[early][1] - 31000);
		vc_unbind(e, 0);
		KUNIT_ASSERT_TRUE(test, r2->done);
		KUNIT_EXPECT_EQ(test, r2->done_time, want[early][1]);
		KUNIT_EXPECT_EQ(test, vc_node_status(e, 2), 0);
		engine_free(&c);
	}
}

/*
 * The iPSC/860's transmit and receive overlap only when "nearly
 * simultaneous" (Bokhari sec. 5; the ipsc860 profile's window is Seidel &
 * Davis' 65 us). Nodes 0 and 1 exchange 1000-byte FORCED messages, node 1
 * starting @delay later. A body takes 95 + 0.394 * 1000 = 489 us after its
 * 10.3 us header. Within the window (or with duplex 0, the ablation) the
 * two overlap; past it node 1's body waits, its circuit held, until node
 * 0's ends, and the exchange takes twice as long.
 */
static void vcube_engine_duplex(struct kunit *test)
{
	static const struct {
		u64 delay, duplex, at1, at0, waits;
	} cases[] = {
		{ 0, 65000, 499300, 499300, 0 },
		{ 50000, 65000, 499300, 549300, 0 },
		{ 100000, 65000, 499300, 988300, 1 },
		{ 100000, 0, 499300, 599300, 0 },	/* ablation */
		{ 100000, 200000, 499300, 599300, 0 },
	};
	struct vc_req *r0, *r1, *s0, *s1;
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_params p;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		p = test_params();
		KUNIT_EXPECT_EQ(test, p.duplex, 65000ULL);
		p.duplex = cases[i].duplex;
		e = engine_new(test, &c, 1, &p);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 1, 0, 1000, 0, &r0), 0);
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, VC_SEND_FORCED,
					      payload(test, 1000), 1000, 0,
					      &s0), 0);
		KUNIT_ASSERT_EQ(test, vc_delay(e, 1, cases[i].delay), 0);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 1000, 0, &r1), 0);
		KUNIT_ASSERT_EQ(test, vc_send(e, 1, 0, 0, VC_SEND_FORCED,
					      payload(test, 1000), 1000, 0,
					      &s1), 0);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 0, r0), VC_BLOCKED_RET);
		vc_wait(e, 1, r1);
		KUNIT_ASSERT_TRUE(test, r1->done);
		KUNIT_EXPECT_EQ(test, r1->done_time, cases[i].at1);
		vc_unbind(e, 1);
		KUNIT_ASSERT_TRUE(test, r0->done);
		KUNIT_EXPECT_EQ(test, r0->done_time, cases[i].at0);
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->duplex_waits,
				cases[i].waits);
		engine_free(&c);
	}
	/* the seidel profile keeps Table II: no window */
	KUNIT_EXPECT_EQ(test, vc_profile_seidel().duplex, 0ULL);
}

/*
 * The iPSC/860's forward flow control (Seidel & Davis sec. 2.4), with a
 * window of one header per pair on a dimension-1 cube, 10-byte messages
 * (T = 95 + 0.394 m + 10.3 us each; a release is a CTL message, 34.5 +
 * 9.8 us):
 *   A: node 0 sends two short messages to node 1, which receives both:
 *      the second is refused until node 1, having freed the first's
 *      buffer on its arrival at T, sends a release (T + 44.3 us), so it
 *      arrives at 2 T + 44.3 us, not 2 T; FORCED messages bypass it all.
 *   B: the same two, but node 1 answers the first with a short message,
 *      whose header tells node 0 the buffer is free: the second goes at
 *      once, no release. Answered FORCED, which carries nothing, node 0
 *      must wait for a release.
 */
static void vcube_engine_flow_control(struct kunit *test)
{
	const u64 one = 95000 + 394 * 10 + 10300, rel = 34500 + 9800;
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 11 };
	struct vc_req *r1, *r2, *s1, *s2, *r0, *s;
	struct vcube_topo topo;
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_params p;
	u32 k, forced;

	KUNIT_EXPECT_EQ(test, vc_profile_ipsc860().fc_bufs, 0U);
	for (k = 0; k < 2; k++)
		for (forced = 0; forced < 2; forced++) {
			u32 f = forced ? VC_SEND_FORCED : 0;

			p = test_params();
			p.fc_bufs = k;
			e = engine_new(test, &c, 1, &p);
			KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r1), 0);
			KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r2), 0);
			KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, f,
						      payload(test, 10), 10, 0,
						      &s1), 0);
			KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, f,
						      payload(test, 10), 10, 0,
						      &s2), 0);
			KUNIT_EXPECT_EQ(test, vc_wait(e, 0, s2), VC_BLOCKED_RET);
			vc_wait(e, 1, r2);
			vc_unbind(e, 0);	/* its sends go on */
			KUNIT_ASSERT_TRUE(test, r2->done);
			KUNIT_EXPECT_EQ(test, r1->done_time, one);
			KUNIT_EXPECT_EQ(test, r2->done_time,
					2 * one + (k && !forced ? rel : 0));
			KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_refused,
					(u64)(k && !forced));
			KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_releases,
					(u64)(k && !forced));
			engine_free(&c);
		}
	for (forced = 0; forced < 2; forced++) {
		p = test_params();
		p.fc_bufs = 1;
		e = engine_new(test, &c, 1, &p);
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, 0, payload(test, 10),
					      10, 0, &s1), 0);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 1, 0, 100, 0, &r0), 0);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 0, r0), VC_BLOCKED_RET);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r1), 0);
		KUNIT_ASSERT_EQ(test, vc_wait(e, 1, r1), 0);
		KUNIT_EXPECT_EQ(test, r1->done_time, one);
		KUNIT_ASSERT_EQ(test, vc_send(e, 1, 0, 0,
					      forced ? VC_SEND_FORCED : 0,
					      payload(test, 10), 10, 0, &s), 0);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r2), 0);
		KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r2), VC_BLOCKED_RET);
		KUNIT_ASSERT_TRUE(test, r0->done);
		KUNIT_EXPECT_EQ(test, r0->done_time, 2 * one);
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, 0, payload(test, 10),
					      10, 0, &s2), 0);
		vc_wait(e, 0, s2);
		vc_unbind(e, 0);
		KUNIT_ASSERT_TRUE(test, r2->done);
		KUNIT_EXPECT_EQ(test, r2->done_time,
				3 * one + (forced ? rel : 0));
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_refused, (u64)forced);
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_releases,
				(u64)forced);
		engine_free(&c);
	}
	/* a window per pair of nodes: bounded machines and windows only */
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	p = test_params();
	p.fc_bufs = 1;
	KUNIT_EXPECT_NULL(test, vc_engine_create(&topo, &p));
	tp.dim = 10;
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	p.fc_bufs = VC_FC_MAX_BUFS + 1;
	KUNIT_EXPECT_NULL(test, vc_engine_create(&topo, &p));
	p.fc_bufs = VC_FC_MAX_BUFS;
	e = vc_engine_create(&topo, &p);
	KUNIT_EXPECT_NOT_NULL(test, e);
	vc_engine_destroy(e);
}

/*
 * The CM-5's receiver (Ponnusamy et al. sec. 4.5, "the single destination
 * bottleneck"): CMMD's send waits for its receive (no system buffer), and
 * a node takes one message at a time, spending recv (the profile: all of
 * the 73 us startup) on it before the body flows. In one cluster of four,
 * a 1024-byte message takes 73 + 114.688 us alone, in either model.
 *   A: nodes 1, 2, 3 send to node 0, which posts all three receives: it
 *      takes them one after the other (ties to the lower source); the
 *      ablation (recv 0, eject 0, a buffer) shares node 0's links, and all
 *      three end together, sooner than the last one taken in turn.
 *   B: node 1 sends to node 0, which posts its receive 1 ms later: the
 *      send waits for it; with a buffer the message waits there instead.
 *   C: node 2 sends to node 0 while node 0 is in a send to node 1, which
 *      receives 1 ms late; node 0 receives from 2 after its send returns,
 *      unless it posted that receive before its send (send-and-receive).
 */
static void vcube_engine_recv(struct kunit *test)
{
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_FATTREE,
					.nodes = 16 };
	const u64 one = 73000 + 1024 * 112, ms = 1000000;
	struct vc_req *r[3], *s[3];
	struct vcube_topo topo;
	struct vc_params p;
	struct vc_engine *e;
	u64 sdone[3];
	u32 i, k, n;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	for (k = 0; k < 2; k++) {
		p = vc_profile_cm5();
		KUNIT_EXPECT_EQ(test, p.recv, 73000ULL);
		KUNIT_EXPECT_EQ(test, p.eject, 1U);
		KUNIT_EXPECT_EQ(test, p.sysbuf, 0ULL);
		if (k) {	/* the ablation */
			p.recv = 0;
			p.eject = 0;
			p.sysbuf = 1 << 20;
		}
		/* A: senders that are done leave, the receiver waits on */
		e = vc_engine_create(&topo, &p);
		KUNIT_ASSERT_NOT_NULL(test, e);
		for (i = 0; i < 4; i++)
			vc_bind(e, i);
		for (i = 0; i < 3; i++) {
			KUNIT_ASSERT_EQ(test, vc_recv(e, 0, i + 1, 0, 1024, 0,
						      &r[i]), 0);
			KUNIT_ASSERT_EQ(test, vc_send(e, i + 1, 0, 0, 0,
						      payload(test, 1024),
						      1024, 0, &s[i]), 0);
		}
		for (i = 0; i < 3; i++)
			vc_wait(e, i + 1, s[i]);
		vc_wait(e, 0, r[2]);
		for (n = 0; n < 3; n++)
			for (i = 0; i < 3; i++) {
				if (vc_node_state(e, i + 1) != VC_RUNNING)
					continue;
				KUNIT_ASSERT_TRUE(test, s[i]->done);
				sdone[i] = s[i]->done_time;
				vc_unbind(e, i + 1);
			}
		for (i = 0; i < 3; i++) {
			KUNIT_ASSERT_TRUE(test, r[i]->done);
			KUNIT_EXPECT_EQ(test, sdone[i], r[i]->done_time);
			KUNIT_EXPECT_EQ(test, r[i]->done_time,
					k ? r[0]->done_time : (i + 1) * one);
		}
		/*
		 * Ablation: the three bodies share node 0's down bundle of 2
		 * links, each at 2/3 of full rate (in the rates' fixed point).
		 */
		if (k)
			KUNIT_EXPECT_EQ(test, r[0]->done_time,
					73000 + DIV_ROUND_UP_ULL(1024ULL * 112 * 65536,
								 43690));
		vc_unbind(e, 0);
		vc_engine_destroy(e);

		/* B */
		e = vc_engine_create(&topo, &p);
		KUNIT_ASSERT_NOT_NULL(test, e);
		vc_bind(e, 0);
		vc_bind(e, 1);
		KUNIT_ASSERT_EQ(test, vc_send(e, 1, 0, 0, 0, payload(test, 1024),
					      1024, 0, &s[0]), 0);
		KUNIT_ASSERT_EQ(test, vc_delay(e, 0, ms), 0);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 1, 0, 1024, 0, &r[0]), 0);
		vc_wait(e, 1, s[0]);
		vc_wait(e, 0, r[0]);
		KUNIT_ASSERT_TRUE(test, s[0]->done);
		KUNIT_EXPECT_EQ(test, s[0]->done_time, k ? one : ms + one);
		vc_unbind(e, 1);
		KUNIT_ASSERT_TRUE(test, r[0]->done);
		KUNIT_EXPECT_EQ(test, r[0]->done_time, k ? ms : ms + one);
		vc_unbind(e, 0);
		vc_engine_destroy(e);

		/* C, and (i = 1) with the receive posted before the send */
		for (i = 0; i < 2; i++) {
			e = vc_engine_create(&topo, &p);
			KUNIT_ASSERT_NOT_NULL(test, e);
			vc_bind(e, 0);
			vc_bind(e, 1);
			vc_bind(e, 2);
			if (i)
				KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 2, 0, 1024,
							      0, &r[0]), 0);
			KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, 0,
						      payload(test, 1024),
						      1024, 0, &s[0]), 0);
			KUNIT_ASSERT_EQ(test, vc_send(e, 2, 0, 0, 0,
						      payload(test, 1024),
						      1024, 0, &s[1]), 0);
			KUNIT_ASSERT_EQ(test, vc_delay(e, 1, ms), 0);
			KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 1024, 0,
						      &r[1]), 0);
			vc_wait(e, 2, s[1]);
			vc_wait(e, 1, r[1]);
			vc_wait(e, 0, s[0]);
			if (vc_node_state(e, 2) == VC_RUNNING)
				vc_unbind(e, 2);	/* its send is done */
			KUNIT_ASSERT_TRUE(test, s[0]->done);
			KUNIT_EXPECT_EQ(test, s[0]->done_time,
					k ? one : ms + one);
			vc_unbind(e, 1);
			vc_unbind(e, 2);
			/* its send returned: now node 0 receives */
			if (!i)
				KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 2, 0, 1024,
							      0, &r[0]), 0);
			vc_wait(e, 0, r[0]);
			KUNIT_ASSERT_TRUE(test, r[0]->done);
			KUNIT_EXPECT_EQ(test, r[0]->done_time,
					!k && !i ? ms + 2 * one : one);
			vc_unbind(e, 0);
			vc_engine_destroy(e);
		}
	}
}

/*
 * The Delta's lanes (Thakur et al. 1993, sec. 2): at gamma = 1 "even if two
 * messages contend for a link, there is no increase in communication
 * time". On a 1 x 8 mesh 2->5, 1->4 and 0->3 all cross channel 2->3. With
 * the profile's two lanes, the first two flow at full rate and the third
 * header waits at 2->3, holding 0->1 and 1->2 behind it, until a lane is
 * free; without a lane limit all three share the channel's 2B and each
 * body takes 1.5 times as long.
 */
static void vcube_engine_lanes(struct kunit *test)
{
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_MESH, .rows = 1,
					.cols = 8 };
	const u64 a = 203000, h = 100, l = 4096 * 248;
	/* 2/3 of full rate, at the engine's resolution of 1/65536 */
	const u64 sh = a + 3 * h + DIV_ROUND_UP_ULL(l << 16, (2 << 16) / 3);
	const u64 want[2][3] = {
		{ a + 3 * h + l, a + 3 * h + l, a + 4 * h + 2 * l },
		{ sh, sh, sh },
	};
	struct vc_req *r[3], *s[3];
	struct vcube_topo topo;
	struct vc_params p;
	struct vc_engine *e;
	u32 i, k, left;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	for (k = 0; k < 2; k++) {
		p = vc_profile_delta();
		KUNIT_ASSERT_EQ(test, p.lanes, 2U);
		if (k)
			p.lanes = 0;
		e = vc_engine_create(&topo, &p);
		KUNIT_ASSERT_NOT_NULL(test, e);
		for (i = 0; i < 6; i++)
			vc_bind(e, i);
		for (i = 0; i < 3; i++) {
			KUNIT_ASSERT_EQ(test, vc_recv(e, 5 - i, 2 - i, 0, 4096,
						      0, &r[i]), 0);
			KUNIT_ASSERT_EQ(test, vc_send(e, 2 - i, 5 - i, 0, 0,
						      payload(test, 4096),
						      4096, 0, &s[i]), 0);
		}
		for (i = 0; i < 3; i++) {
			vc_wait(e, 2 - i, s[i]);
			vc_wait(e, 5 - i, r[i]);
		}
		/* A node that woke leaves; the others' times go on. */
		for (left = 6; left;) {
			for (i = 0; i < 6; i++) {
				if (vc_node_state(e, i) != VC_RUNNING)
					continue;
				if (i >= 3) {
					KUNIT_EXPECT_TRUE(test, r[5 - i]->done);
					KUNIT_EXPECT_EQ(test, r[5 - i]->done_time,
							want[k][5 - i]);
					KUNIT_EXPECT_EQ(test, r[5 - i]->status, 0);
				}
				vc_unbind(e, i);
				left--;
			}
		}
		vc_engine_destroy(e);
	}
}

/*
 * Where no channel takes more bodies than it carries at full rate (the
 * Delta: two lanes, gamma = 1), every body flows at full rate and the
 * engine skips the max-min solver. The same all-to-all on a 4 x 4 mesh
 * with gamma = 2 (twice the bandwidth, the same two lanes) goes through
 * the solver, which must find full rate everywhere too: every request of
 * every node completes at the same ns both ways, though headers wait for
 * lanes (the last is far later than one message alone).
 */
static void vcube_engine_fixed_rate(struct kunit *test)
{
	enum { N = 16, R = 2 * (N - 1) };
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_MESH, .rows = 4,
					.cols = 4 };
	struct vc_req *(*rq)[R] = kunit_kzalloc(test, N * sizeof(*rq),
						 GFP_KERNEL);
	u64 *got = kunit_kzalloc(test, 2 * N * R * sizeof(*got), GFP_KERNEL);
	u32 nxt[N], i, j, k, left;
	struct vcube_topo topo;
	struct vc_params p;
	struct vc_engine *e;
	u64 last = 0;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, rq);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	for (k = 0; k < 2; k++) {
		p = vc_profile_delta();
		if (k)
			p.gamma = 2;
		e = vc_engine_create(&topo, &p);
		KUNIT_ASSERT_NOT_NULL(test, e);
		for (i = 0; i < N; i++)
			vc_bind(e, i);
		for (i = 0; i < N; i++) {
			for (j = 1; j < N; j++)
				KUNIT_ASSERT_EQ(test, vc_recv(e, i, (i + N - j) % N,
							      0, 4096, 0,
							      &rq[i][j - 1]), 0);
			for (j = 1; j < N; j++)
				KUNIT_ASSERT_EQ(test, vc_send(e, i, (i + j) % N, 0,
							      0, payload(test, 4096),
							      4096, 0,
							      &rq[i][N - 2 + j]), 0);
			nxt[i] = 0;
		}
		for (left = N; left;) {
			for (i = 0; i < N; i++) {
				if (vc_node_state(e, i) != VC_RUNNING)
					continue;
				while (nxt[i] < R &&
				       !(ret = vc_wait(e, i, rq[i][nxt[i]])))
					nxt[i]++;
				if (nxt[i] < R) {
					KUNIT_ASSERT_EQ(test, ret, VC_BLOCKED_RET);
					continue;
				}
				for (j = 0; j < R; j++)
					got[(k * N + i) * R + j] = rq[i][j]->done_time;
				vc_unbind(e, i);
				left--;
			}
		}
		vc_engine_destroy(e);
	}
	for (j = 0; j < N * R; j++) {
		KUNIT_EXPECT_EQ(test, got[j], got[N * R + j]);
		last = max(last, got[j]);
	}
	/* one message alone: alpha + 4096 beta and a hop or two */
	KUNIT_EXPECT_GT(test, last, 4 * (203000 + 4096 * 248ULL));
}

/* ---- the control network ---- */

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

static struct kunit_case vcube_engine_cases[] = {
	KUNIT_CASE_PARAM(vcube_engine_cnet_cost, cnet_cost_gen_params),
	KUNIT_CASE(vcube_engine_cnet_order),
	KUNIT_CASE(vcube_engine_match_order),
	KUNIT_CASE(vcube_engine_lease),
	KUNIT_CASE(vcube_engine_many_reqs),
	KUNIT_CASE(vcube_engine_cnet_partition),
	KUNIT_CASE(vcube_engine_cnet_killed),
	KUNIT_CASE_PARAM(vcube_engine_single_send, single_gen_params),
	KUNIT_CASE(vcube_engine_ties),
	KUNIT_CASE(vcube_engine_arbitration),
	KUNIT_CASE(vcube_engine_trace_records),
	KUNIT_CASE(vcube_engine_deadlock),
	KUNIT_CASE(vcube_engine_notice_peak),
	KUNIT_CASE(vcube_engine_forced_dropped),
	KUNIT_CASE(vcube_engine_test_done),
	KUNIT_CASE(vcube_engine_cancel),
	KUNIT_CASE(vcube_engine_tag_class),
	KUNIT_CASE(vcube_engine_rendezvous_progress),
	KUNIT_CASE(vcube_engine_hs_order),
	KUNIT_CASE(vcube_engine_link_stats),
	KUNIT_CASE(vcube_engine_bad_input),
	KUNIT_CASE(vcube_engine_noise_delay),
	KUNIT_CASE(vcube_engine_noise_wake),
	KUNIT_CASE(vcube_engine_jitter),
	KUNIT_CASE(vcube_engine_sport_early),
	KUNIT_CASE(vcube_engine_lanes),
	KUNIT_CASE(vcube_engine_fixed_rate),
	KUNIT_CASE(vcube_engine_copy),
	KUNIT_CASE(vcube_engine_duplex),
	KUNIT_CASE(vcube_engine_flow_control),
	KUNIT_CASE(vcube_engine_recv),
	KUNIT_CASE(vcube_engine_inflight),
	KUNIT_CASE(vcube_engine_rebind),
	{}
};

static struct kunit_suite vcube_engine_suite = {
	.name = "vcube_engine",
	.test_cases = vcube_engine_cases,
};

kunit_test_suite(vcube_engine_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the vcube virtual-time engine");
