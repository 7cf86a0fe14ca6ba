// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_engine: the virtual-time engine driven from one thread.
 * Nodes post their operations without blocking and then wait; once every
 * bound node waits, nothing can precede the next event, so the engine
 * commits all of it and the waits complete in order.
 */
#include "engine_test.h"

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

/* vcube_engine_trace_records(): the messages' records */
static void trace_records_msgs(struct kunit *test, struct vc_engine *e)
{
	struct vc_trace_rec w[8];

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
}

/* vcube_engine_trace_records(): the nodes' waits */
static void trace_records_waits(struct kunit *test, struct vc_engine *e)
{
	struct vc_trace_rec w[8];

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

	trace_records_msgs(test, e);
	trace_records_waits(test, e);

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

/*
 * Dragonfly 3x2x2, one global link per router: 0 -> 4 takes global
 * channel 30 (group 0 to 1) from 0 to about 3.3 ms; at 1 ms 1 -> 5, from
 * the same router, finds that channel held. UGAL-L weighs 1 x 2 hops
 * against 0 on the Valiant route's first (local) channel and goes through
 * group 2 by global channel 31; minimal routing waits for channel 30
 * (without the engine's load, UGAL would too).
 * Returns the messages channel 31 carried.
 */
static u64 ugal_run(struct kunit *test, u32 routing)
{
	struct vc_params p = test_params();
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_DRAGONFLY,
					.groups = 3, .routers = 2,
					.nodes = 2, .global = 1,
					.routing = routing };
	struct vc_req *s1, *s2, *r4, *r5;
	struct vcube_topo topo;
	struct vc_engine *e;
	u64 msgs;
	u32 i, nodes[] = { 0, 1, 4, 5 };

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&topo, &tp, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, topo.df.gbase, 30U);
	e = vc_engine_create(&topo, &p);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < ARRAY_SIZE(nodes); i++)
		vc_bind(e, nodes[i]);
	vc_recv(e, 4, 0, 1, 8192, 0, &r4);
	vc_recv(e, 5, 1, 1, 8192, 0, &r5);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 4, 1, VC_SEND_FORCED,
				      payload(test, 8192), 8192, 0, &s1), 0);
	/* 1 runs again at 1 ms, when the others wait: 0 -> 4 is on its way */
	vc_delay(e, 1, 1000000);
	vc_wait(e, 4, r4);
	vc_wait(e, 5, r5);
	vc_wait(e, 0, s1);
	KUNIT_ASSERT_EQ(test, vc_clock(e, 1), 1000000ULL);
	KUNIT_ASSERT_EQ(test, vc_node_state(e, 1), VC_RUNNING);
	KUNIT_ASSERT_EQ(test, vc_send(e, 1, 5, 1, VC_SEND_FORCED,
				      payload(test, 8192), 8192, 0, &s2), 0);
	vc_wait(e, 1, s2);
	/* everyone leaves; the messages arrive (ejection channels 16, 17) */
	for (i = 0; i < ARRAY_SIZE(nodes); i++)
		vc_unbind(e, nodes[i]);
	KUNIT_EXPECT_EQ(test, vc_chan_stats(e, 16)->msgs, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_chan_stats(e, 17)->msgs, 1ULL);
	KUNIT_EXPECT_EQ(test, vc_chan_stats(e, 30)->msgs, routing ==
			VCUBE_DF_UGAL ? 1ULL : 2ULL);
	msgs = vc_chan_stats(e, 31)->msgs;
	vc_engine_destroy(e);
	return msgs;
}

/* UGAL-L sees the load the engine knows when it routes at injection. */
static void vcube_engine_ugal(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ugal_run(test, VCUBE_DF_MINIMAL), 0ULL);
	KUNIT_EXPECT_EQ(test, ugal_run(test, VCUBE_DF_UGAL), 1ULL);
}

static struct kunit_case vcube_engine_cases[] = {
	KUNIT_CASE(vcube_engine_match_order),
	KUNIT_CASE(vcube_engine_lease),
	KUNIT_CASE(vcube_engine_many_reqs),
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
	KUNIT_CASE(vcube_engine_inflight),
	KUNIT_CASE(vcube_engine_rebind),
	KUNIT_CASE(vcube_engine_ugal),
	{}
};

static struct kunit_suite vcube_engine_suite = {
	.name = "vcube_engine",
	.test_cases = vcube_engine_cases,
};

kunit_test_suite(vcube_engine_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the vcube virtual-time engine");
