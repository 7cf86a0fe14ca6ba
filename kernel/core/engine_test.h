/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine's KUnit suites share: an iPSC/860 engine on a hypercube
 * with every node bound, and payloads for its messages.
 */
#ifndef _VCUBE_CORE_ENGINE_TEST_H
#define _VCUBE_CORE_ENGINE_TEST_H

#include <kunit/test.h>
#include "engine.h"
#include "profiles.h"

static inline struct vc_params test_params(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.max_reqs = 64;
	return p;
}

struct engine_ctx {
	struct vcube_topo topo;
	struct vc_engine *e;
};

static inline struct vc_engine *engine_new(struct kunit *test,
					   struct engine_ctx *c, u32 dim, const struct vc_params *p)
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

static inline void engine_free(struct engine_ctx *c)
{
	u32 i;

	for (i = 0; i < c->topo.nodes; i++)
		vc_unbind(c->e, i);
	vc_engine_destroy(c->e);
}

static inline void *payload(struct kunit *test, u64 len)
{
	void *p = kzalloc(len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

/* test_params() with noise: @c ns every @per ns */
static inline struct vc_params noise_params(u64 per, u64 c)
{
	struct vc_params p = test_params();

	p.noise_period = per;
	p.noise_cost = c;
	return p;
}

#endif
