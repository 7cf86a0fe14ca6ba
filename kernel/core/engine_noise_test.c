// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_engine_noise: the time noise takes from a node's
 * program (noise_period, noise_cost) and start jitter, against a plain
 * reference of the interrupts a node meets.
 */
#include "engine_test.h"

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

static struct kunit_case vcube_engine_noise_cases[] = {
	KUNIT_CASE(vcube_engine_noise_delay),
	KUNIT_CASE(vcube_engine_noise_wake),
	KUNIT_CASE(vcube_engine_jitter),
	{}
};

static struct kunit_suite vcube_engine_noise_suite = {
	.name = "vcube_engine_noise",
	.test_cases = vcube_engine_noise_cases,
};

kunit_test_suite(vcube_engine_noise_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the vcube engine's noise");
