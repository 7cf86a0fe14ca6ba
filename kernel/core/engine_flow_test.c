// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_engine_flow: transfers through the switch and at
 * their receiver: the copy cost, the early send port, duplex links, flow
 * control (fc_bufs), the receiver's share, lanes and fixed rates.
 */
#include "engine_test.h"

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
 * channel_early: a circuit's channels are free when its sender returns
 * (tail_ns before delivery), not at delivery. On a 3-cube, 0 -> 3 (through
 * 1) and 1 -> 7 (through 3) share channel 1 -> 3 and nothing else; the
 * one that waits for it gets it the profile's 31 us sooner, and the other
 * is not moved.
 */
static void vcube_engine_chan_early(struct kunit *test)
{
	static const u32 idle[] = { 0, 1, 2, 4, 5, 6 };
	u64 first[2], second[2];
	struct vc_req *r0, *r1, *s0, *s1;
	struct engine_ctx c;
	struct vc_engine *e;
	struct vc_params p;
	u32 early, i;

	for (early = 0; early < 2; early++) {
		p = test_params();
		p.chan_early = early;
		e = engine_new(test, &c, 3, &p);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 3, 0, 0, 1000, 0, &r0), 0);
		KUNIT_ASSERT_EQ(test, vc_recv(e, 7, 1, 0, 1000, 0, &r1), 0);
		KUNIT_ASSERT_EQ(test, vc_send(e, 0, 3, 0, VC_SEND_FORCED,
					      payload(test, 1000), 1000, 0,
					      &s0), 0);
		KUNIT_ASSERT_EQ(test, vc_send(e, 1, 7, 0, VC_SEND_FORCED,
					      payload(test, 1000), 1000, 0,
					      &s1), 0);
		for (i = 0; i < ARRAY_SIZE(idle); i++)
			vc_unbind(e, idle[i]);
		/* 1 -> 7 takes channel 1 -> 3 first (0 -> 3 is a hop behind) */
		KUNIT_EXPECT_EQ(test, vc_wait(e, 3, r0), VC_BLOCKED_RET);
		vc_wait(e, 7, r1);
		KUNIT_ASSERT_TRUE(test, r1->done);
		first[early] = r1->done_time;
		vc_unbind(e, 7);
		KUNIT_ASSERT_TRUE(test, r0->done);
		second[early] = r0->done_time;
		KUNIT_EXPECT_EQ(test, vc_net_stats(e)->chan_waits, 1ULL);
		engine_free(&c);
	}
	KUNIT_EXPECT_EQ(test, first[1], first[0]);
	KUNIT_EXPECT_EQ(test, second[1], second[0] - p.tail);
	KUNIT_EXPECT_EQ(test, p.tail, 31000ULL);
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
/* One 10-byte message on a dim-1 iPSC/860, and a flow-control release. */
#define FC_ONE	(95000ULL + 394 * 10 + 10300)
#define FC_REL	(34500ULL + 9800)

/* Two messages 0 -> 1, both received: the second waits for room. */
static void fc_window(struct kunit *test, u32 k, u32 forced)
{
	u32 f = forced ? VC_SEND_FORCED : 0;
	struct vc_req *r1, *r2, *s1, *s2;
	struct vc_params p = test_params();
	struct engine_ctx c;
	struct vc_engine *e;

	p.fc_bufs = k;
	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r1), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r2), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, f, payload(test, 10), 10, 0,
				      &s1), 0);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, f, payload(test, 10), 10, 0,
				      &s2), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, s2), VC_BLOCKED_RET);
	vc_wait(e, 1, r2);
	vc_unbind(e, 0);	/* its sends go on */
	KUNIT_ASSERT_TRUE(test, r2->done);
	KUNIT_EXPECT_EQ(test, r1->done_time, FC_ONE);
	KUNIT_EXPECT_EQ(test, r2->done_time,
			2 * FC_ONE + (k && !forced ? FC_REL : 0));
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_refused,
			(u64)(k && !forced));
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_releases,
			(u64)(k && !forced));
	engine_free(&c);
}

/* 0 -> 1, 1 -> 0, 0 -> 1 again with one buffer a pair. */
static void fc_reply(struct kunit *test, u32 forced)
{
	struct vc_req *r1, *r2, *s1, *s2, *r0, *s;
	struct vc_params p = test_params();
	struct engine_ctx c;
	struct vc_engine *e;

	p.fc_bufs = 1;
	e = engine_new(test, &c, 1, &p);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, 0, payload(test, 10),
				      10, 0, &s1), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 1, 0, 100, 0, &r0), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 0, r0), VC_BLOCKED_RET);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r1), 0);
	KUNIT_ASSERT_EQ(test, vc_wait(e, 1, r1), 0);
	KUNIT_EXPECT_EQ(test, r1->done_time, FC_ONE);
	KUNIT_ASSERT_EQ(test, vc_send(e, 1, 0, 0, forced ? VC_SEND_FORCED : 0,
				      payload(test, 10), 10, 0, &s), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 100, 0, &r2), 0);
	KUNIT_EXPECT_EQ(test, vc_wait(e, 1, r2), VC_BLOCKED_RET);
	KUNIT_ASSERT_TRUE(test, r0->done);
	KUNIT_EXPECT_EQ(test, r0->done_time, 2 * FC_ONE);
	KUNIT_ASSERT_EQ(test, vc_send(e, 0, 1, 0, 0, payload(test, 10),
				      10, 0, &s2), 0);
	vc_wait(e, 0, s2);
	vc_unbind(e, 0);
	KUNIT_ASSERT_TRUE(test, r2->done);
	KUNIT_EXPECT_EQ(test, r2->done_time,
			3 * FC_ONE + (forced ? FC_REL : 0));
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_refused, (u64)forced);
	KUNIT_EXPECT_EQ(test, vc_net_stats(e)->fc_releases, (u64)forced);
	engine_free(&c);
}

static void vcube_engine_flow_control(struct kunit *test)
{
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 11 };
	struct vcube_topo topo;
	struct vc_engine *e;
	struct vc_params p;
	u32 k, forced;

	KUNIT_EXPECT_EQ(test, vc_profile_ipsc860().fc_bufs, 0U);
	for (k = 0; k < 2; k++)
		for (forced = 0; forced < 2; forced++)
			fc_window(test, k, forced);
	for (forced = 0; forced < 2; forced++)
		fc_reply(test, forced);
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
/* One 1024-byte message in a cluster of four, and a millisecond. */
#define RECV_ONE	(73000ULL + 1024 * 112)
#define RECV_MS		1000000ULL

/* A: senders that are done leave, the receiver waits on */
static void recv_three(struct kunit *test, const struct vcube_topo *topo,
		       const struct vc_params *p, u32 k)
{
	struct vc_req *r[3], *s[3];
	struct vc_engine *e;
	u64 sdone[3];
	u32 i, n;

	e = vc_engine_create(topo, p);
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
				k ? r[0]->done_time : (i + 1) * RECV_ONE);
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
}

/* B: the receive is posted a millisecond after the send */
static void recv_late(struct kunit *test, const struct vcube_topo *topo,
		      const struct vc_params *p, u32 k)
{
	struct vc_req *r[1], *s[1];
	struct vc_engine *e;

	e = vc_engine_create(topo, p);
	KUNIT_ASSERT_NOT_NULL(test, e);
	vc_bind(e, 0);
	vc_bind(e, 1);
	KUNIT_ASSERT_EQ(test, vc_send(e, 1, 0, 0, 0, payload(test, 1024),
				      1024, 0, &s[0]), 0);
	KUNIT_ASSERT_EQ(test, vc_delay(e, 0, RECV_MS), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 1, 0, 1024, 0, &r[0]), 0);
	vc_wait(e, 1, s[0]);
	vc_wait(e, 0, r[0]);
	KUNIT_ASSERT_TRUE(test, s[0]->done);
	KUNIT_EXPECT_EQ(test, s[0]->done_time, k ? RECV_ONE : RECV_MS + RECV_ONE);
	vc_unbind(e, 1);
	KUNIT_ASSERT_TRUE(test, r[0]->done);
	KUNIT_EXPECT_EQ(test, r[0]->done_time, k ? RECV_MS : RECV_MS + RECV_ONE);
	vc_unbind(e, 0);
	vc_engine_destroy(e);
}

/*
 * C: node 0 sends to a late node 1 while node 2 sends to it, and (@i)
 * with its receive posted before its send
 */
static void recv_in_send(struct kunit *test, const struct vcube_topo *topo,
			 const struct vc_params *p, u32 k, u32 i)
{
	struct vc_req *r[2], *s[2];
	struct vc_engine *e;

	e = vc_engine_create(topo, p);
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
	KUNIT_ASSERT_EQ(test, vc_delay(e, 1, RECV_MS), 0);
	KUNIT_ASSERT_EQ(test, vc_recv(e, 1, 0, 0, 1024, 0,
				      &r[1]), 0);
	vc_wait(e, 2, s[1]);
	vc_wait(e, 1, r[1]);
	vc_wait(e, 0, s[0]);
	if (vc_node_state(e, 2) == VC_RUNNING)
		vc_unbind(e, 2);	/* its send is done */
	KUNIT_ASSERT_TRUE(test, s[0]->done);
	KUNIT_EXPECT_EQ(test, s[0]->done_time,
			k ? RECV_ONE : RECV_MS + RECV_ONE);
	vc_unbind(e, 1);
	vc_unbind(e, 2);
	/* its send returned: now node 0 receives */
	if (!i)
		KUNIT_ASSERT_EQ(test, vc_recv(e, 0, 2, 0, 1024,
					      0, &r[0]), 0);
	vc_wait(e, 0, r[0]);
	KUNIT_ASSERT_TRUE(test, r[0]->done);
	KUNIT_EXPECT_EQ(test, r[0]->done_time,
			!k && !i ? RECV_MS + 2 * RECV_ONE : RECV_ONE);
	vc_unbind(e, 0);
	vc_engine_destroy(e);
}

static void vcube_engine_recv(struct kunit *test)
{
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_FATTREE,
					.nodes = 16 };
	struct vcube_topo topo;
	struct vc_params p;
	u32 i, k;

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
		recv_three(test, &topo, &p, k);
		recv_late(test, &topo, &p, k);
		for (i = 0; i < 2; i++)
			recv_in_send(test, &topo, &p, k, i);
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

static struct kunit_case vcube_engine_flow_cases[] = {
	KUNIT_CASE(vcube_engine_sport_early),
	KUNIT_CASE(vcube_engine_chan_early),
	KUNIT_CASE(vcube_engine_lanes),
	KUNIT_CASE(vcube_engine_fixed_rate),
	KUNIT_CASE(vcube_engine_copy),
	KUNIT_CASE(vcube_engine_duplex),
	KUNIT_CASE(vcube_engine_flow_control),
	KUNIT_CASE(vcube_engine_recv),
	{}
};

static struct kunit_suite vcube_engine_flow_suite = {
	.name = "vcube_engine_flow",
	.test_cases = vcube_engine_flow_cases,
};

kunit_test_suite(vcube_engine_flow_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the vcube engine's transfers");
