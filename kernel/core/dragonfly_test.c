// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_dragonfly: parameters, the absolute global wiring,
 * channel numbering, and every pair's route hop by hop under minimal,
 * Valiant and UGAL-L routing.
 */
#include <kunit/test.h>
#include "topology.h"

#define DF(g, a, p, h) { .kind = VCUBE_TOPO_DRAGONFLY, .groups = g, \
			 .routers = a, .nodes = p, .global = h, .seed = 5 }

struct df_case {
	const char *name;
	struct vcube_topo_params p;
	int ret;
	u32 nodes;
	u32 nchan;
	const char *err;	/* a substring of the message, when ret < 0 */
};

static void df_case_desc(const struct df_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

/* nchan = 2N + G * A * (A - 1) + G * floor(A * H / (G - 1)) * (G - 1) */
static const struct df_case df_param_cases[] = {
	{ "9x4x2 h=2", DF(9, 4, 2, 2), 0, 72, 144 + 108 + 72 },
	{ "5x4x2 h=2 (2 links a pair)", DF(5, 4, 2, 2), 0, 40,
	  80 + 60 + 40 },
	{ "5x3x2 h=3 (1 port unwired)", DF(5, 3, 2, 3), 0, 30,
	  60 + 30 + 40 },
	{ "1x4x2 one group", DF(1, 4, 2, 1), 0, 8, 16 + 12 },
	{ "4x1x4 h=3 no local", DF(4, 1, 4, 3), 0, 16, 32 + 12 },
	{ "1x1x2 one router", DF(1, 1, 2, 1), 0, 2, 4 },
	{ "32x8x16 h=4 4096 nodes", DF(32, 8, 16, 4), 0, 4096,
	  8192 + 1792 + 992 },
	{ "groups=0", DF(0, 4, 2, 2), -EINVAL, 0, 0,
	  "topology=dragonfly needs groups=, routers=, nodes=, global= (each >= 1)" },
	{ "global=0", DF(9, 4, 2, 0), -EINVAL, 0, 0, "needs groups=" },
	{ "too many groups", DF(10, 4, 2, 2), -EINVAL, 0, 0,
	  "groups=10 > routers*global+1=9: too few global links" },
	{ "too many nodes", DF(33, 8, 16, 4), -EINVAL, 0, 0,
	  "groups=33 routers=8 nodes=16 is too large: at most 4096 nodes" },
	{ "overflow", DF(65536, 65536, 1, 1), -EINVAL, 0, 0, "too large" },
	{ "nodes=17", DF(2, 1, 17, 1), -EINVAL, 0, 0,
	  "nodes=17: a dragonfly router takes 1 to 16 nodes" },
	{ "1 node", DF(1, 1, 1, 1), -EINVAL, 0, 0, "at least 2 nodes" },
	{ "global too large", DF(2, 1, 2, 4097), -EINVAL, 0, 0,
	  "global=4097: a router takes 1 to 4096 global links" },
	{ "too many channels", DF(1, 512, 1, 1), -EINVAL, 0, 0,
	  "this dragonfly has 262656 channels: at most 131072 are supported" },
	{ "valiant, 2 groups", { .kind = VCUBE_TOPO_DRAGONFLY, .groups = 2,
	  .routers = 2, .nodes = 2, .global = 1,
	  .routing = VCUBE_DF_VALIANT }, -EINVAL, 0, 0,
	  "routing=valiant needs groups=3 or more" },
	{ "ugal, 1 group", { .kind = VCUBE_TOPO_DRAGONFLY, .groups = 1,
	  .routers = 2, .nodes = 2, .global = 1, .routing = VCUBE_DF_UGAL },
	  -EINVAL, 0, 0, "routing=ugal needs groups=3 or more" },
	{ "bad routing", { .kind = VCUBE_TOPO_DRAGONFLY, .groups = 3,
	  .routers = 2, .nodes = 2, .global = 1, .routing = 9 }, -EINVAL, 0,
	  0, "unknown dragonfly routing 9" },
	{ "with dim=", { .kind = VCUBE_TOPO_DRAGONFLY, .groups = 3,
	  .routers = 2, .nodes = 2, .global = 1, .dim = 3 }, -EINVAL, 0, 0,
	  "dim= does not apply to topology=dragonfly" },
	{ "with dims=", { .kind = VCUBE_TOPO_DRAGONFLY, .groups = 3,
	  .routers = 2, .nodes = 2, .global = 1, .ndims = 1, .dims = { 4 } },
	  -EINVAL, 0, 0, "dims= does not apply to topology=dragonfly" },
	{ "torus with groups=", { .kind = VCUBE_TOPO_TORUS, .rows = 2,
	  .cols = 2, .groups = 2 }, -EINVAL, 0, 0,
	  "groups=/routers=/global= do not apply to topology=torus" },
	{ "hypercube with routing=", { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 3,
	  .routing = VCUBE_DF_VALIANT }, -EINVAL, 0, 0,
	  "routing= does not apply to topology=hypercube" },
};

KUNIT_ARRAY_PARAM(df_param, df_param_cases, df_case_desc);

static void vcube_df_params(struct kunit *test)
{
	const struct df_case *c = test->param_value;
	struct vcube_topo t;
	char err[128] = "";

	KUNIT_ASSERT_EQ_MSG(test, vcube_topo_init(&t, &c->p, err, sizeof(err)),
			    c->ret, "%s", err);
	if (c->ret) {
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, c->err),
					  "message was \"%s\"", err);
		/* an extended ACK holds 79 characters */
		KUNIT_EXPECT_LT(test, strlen(err), 80);
		return;
	}
	KUNIT_EXPECT_EQ(test, t.nodes, c->nodes);
	KUNIT_EXPECT_EQ(test, t.nchan, c->nchan);
	KUNIT_EXPECT_EQ(test, t.nbundles, t.nchan);
}

/* The shapes whose every pair is routed, under each routing. */
static const struct df_case df_shape_cases[] = {
	{ "9x4x2 h=2", DF(9, 4, 2, 2) },
	{ "5x4x2 h=2", DF(5, 4, 2, 2) },
	{ "5x3x2 h=3", DF(5, 3, 2, 3) },
	{ "3x2x3 h=3", DF(3, 2, 3, 3) },
	{ "4x3x1 h=2", DF(4, 3, 1, 2) },
	{ "7x3x2 h=2", DF(7, 3, 2, 2) },
	{ "4x1x4 h=3", DF(4, 1, 4, 3) },
	{ "2x2x2 h=1", DF(2, 2, 2, 1) },
	{ "1x4x2 h=1", DF(1, 4, 2, 1) },
	{ "17x8x1 h=2", DF(17, 8, 1, 2) },
};

KUNIT_ARRAY_PARAM(df_shape, df_shape_cases, df_case_desc);

static void df_init(struct kunit *test, struct vcube_topo *t,
		    const struct vcube_topo_params *p, u32 routing)
{
	struct vcube_topo_params q = *p;
	char err[128] = "";

	q.routing = routing;
	KUNIT_ASSERT_EQ_MSG(test, vcube_topo_init(t, &q, err, sizeof(err)), 0,
			    "%s", err);
}

/* Group @j of group @g's ports joins it to, in the absolute wiring. */
static u32 df_port_group(const struct vcube_dragonfly *df, u32 g, u32 j)
{
	u32 o = j % (df->groups - 1);

	return o < g ? o : o + 1;
}

/*
 * Every channel runs where the documented layout says: injection and
 * ejection, local links joining each ordered pair of a group's routers
 * once, and global links in the absolute arrangement: each pair of groups
 * joined by L links, one per direction, no router with more than H.
 */
static void vcube_df_wiring(struct kunit *test)
{
	const struct df_case *c = test->param_value;
	struct vcube_chan_info ci, back;
	const struct vcube_dragonfly *df;
	struct vcube_topo t;
	u32 ch, nr, *local, *pair, *out, g, j, s, far, w;

	df_init(test, &t, &c->p, 0);
	df = &t.df;
	nr = df->groups * df->routers;
	local = kunit_kcalloc(test, nr * nr, sizeof(u32), GFP_KERNEL);
	pair = kunit_kcalloc(test, df->groups * df->groups, sizeof(u32),
			     GFP_KERNEL);
	out = kunit_kcalloc(test, nr, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, local && pair && out);
	KUNIT_EXPECT_EQ(test, df->links, df->groups > 1 ?
			df->routers * df->global / (df->groups - 1) : 0);
	for (ch = 0; ch < t.nchan; ch++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&t, ch, &ci), 0);
		KUNIT_EXPECT_EQ(test, vcube_topo_bundle(&t, ch, &w), ch);
		KUNIT_EXPECT_EQ(test, w, 1U);
		if (ch < 2 * t.nodes) {
			u32 x = ch % t.nodes;

			KUNIT_EXPECT_EQ(test, ci.dir, ch < t.nodes ?
					(u32)VCUBE_DF_INJECT : VCUBE_DF_EJECT);
			KUNIT_EXPECT_EQ(test, ch < t.nodes ? ci.from : ci.to, x);
			KUNIT_EXPECT_EQ(test, ch < t.nodes ? ci.to : ci.from,
					x / df->nodes);
			KUNIT_EXPECT_EQ(test, ci.from_level + ci.to_level, 1);
			KUNIT_EXPECT_EQ(test, (u32)ci.from_level,
					ch < t.nodes ? 0U : 1U);
			continue;
		}
		KUNIT_EXPECT_EQ(test, (u32)ci.from_level, 1U);
		KUNIT_EXPECT_EQ(test, (u32)ci.to_level, 1U);
		KUNIT_ASSERT_LT(test, ci.from, nr);
		KUNIT_ASSERT_LT(test, ci.to, nr);
		KUNIT_EXPECT_NE(test, ci.from, ci.to);
		if (ch < df->gbase) {
			KUNIT_EXPECT_EQ(test, ci.dir, (u32)VCUBE_DF_LOCAL);
			KUNIT_EXPECT_EQ(test, ci.from / df->routers,
					ci.to / df->routers);
			local[ci.from * nr + ci.to]++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, ci.dir, (u32)VCUBE_DF_GLOBAL);
		g = (ch - df->gbase) / df->ports;
		j = (ch - df->gbase) % df->ports;
		s = j / (df->groups - 1);
		KUNIT_EXPECT_EQ(test, ci.from, g * df->routers + j / df->global);
		KUNIT_EXPECT_EQ(test, ci.to / df->routers,
				df_port_group(df, g, j));
		KUNIT_EXPECT_EQ(test, (u32)ci.lane, s);
		/* the link's other direction: the far group's port to g */
		far = ci.to / df->routers;
		for (w = s * (df->groups - 1); df_port_group(df, far, w) != g;)
			w++;
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&t, df->gbase +
				far * df->ports + w, &back), 0);
		KUNIT_EXPECT_EQ(test, back.from, ci.to);
		KUNIT_EXPECT_EQ(test, back.to, ci.from);
		KUNIT_EXPECT_EQ(test, back.lane, ci.lane);
		pair[g * df->groups + far]++;
		out[ci.from]++;
	}
	for (j = 0; j < nr * nr; j++)
		KUNIT_EXPECT_EQ(test, local[j], j / nr / df->routers ==
				j % nr / df->routers && j / nr != j % nr);
	for (j = 0; j < df->groups * df->groups; j++)
		KUNIT_EXPECT_EQ(test, pair[j],
				j / df->groups == j % df->groups ? 0 : df->links);
	for (j = 0; j < nr; j++)
		KUNIT_EXPECT_LE(test, out[j], df->global);
	KUNIT_EXPECT_EQ(test, 2 * (vcube_topo_level_links(&t, 0) +
				   vcube_topo_level_links(&t, 1)), t.nchan);
	KUNIT_EXPECT_EQ(test, vcube_topo_level_links(&t, 2), 0U);
}

/* A route, walked: channels, where each one runs, hops of each kind. */
struct df_walk {
	int n;
	u32 chan[VCUBE_DF_MAX_ROUTE];
	u32 global, local;
	u32 mid;	/* the group the first global hop enters */
	u32 lane;	/* the last global hop's link */
};

/* Route @s to @d, checking each channel starts where the last one ended. */
static void df_walk(struct kunit *test, const struct vcube_topo *t, u32 s,
		    u32 d, u64 cookie, vcube_topo_load_fn load, void *ctx,
		    struct df_walk *w)
{
	struct vcube_chan_info ci;
	u32 at = s, level = 0, i, j;

	memset(w, 0, sizeof(*w));
	w->mid = U32_MAX;
	w->n = vcube_topo_route_load(t, s, d, cookie, load, ctx, w->chan,
				     ARRAY_SIZE(w->chan));
	KUNIT_ASSERT_GE(test, w->n, 0);
	KUNIT_ASSERT_LE(test, (u32)w->n, vcube_topo_diameter(t));
	KUNIT_ASSERT_EQ(test, w->n == 0, s == d);
	for (i = 0; i < w->n; i++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(t, w->chan[i], &ci),
				0);
		KUNIT_ASSERT_EQ_MSG(test, ci.from, at, "%u->%u hop %u", s, d,
				    i);
		KUNIT_ASSERT_EQ(test, (u32)ci.from_level, level);
		for (j = 0; j < i; j++)
			KUNIT_ASSERT_NE(test, w->chan[j], w->chan[i]);
		if (i == 0)
			KUNIT_ASSERT_EQ(test, ci.dir, (u32)VCUBE_DF_INJECT);
		else if (i + 1 == w->n)
			KUNIT_ASSERT_EQ(test, ci.dir, (u32)VCUBE_DF_EJECT);
		else if (ci.dir == VCUBE_DF_LOCAL)
			w->local++;
		else
			KUNIT_ASSERT_EQ(test, ci.dir, (u32)VCUBE_DF_GLOBAL);
		if (ci.dir == VCUBE_DF_GLOBAL) {
			if (!w->global++)
				w->mid = ci.to / t->df.routers;
			w->lane = ci.lane;
		}
		at = ci.to;
		level = ci.to_level;
	}
	KUNIT_ASSERT_EQ_MSG(test, at, d, "%u->%u ends elsewhere", s, d);
	KUNIT_ASSERT_EQ(test, level, 0U);
}

/*
 * Minimal: at most one global hop (exactly one between groups, over link
 * src % L of the two groups' L) and three router-to-router hops, no local
 * hop twice in a row, and as long as vcube_topo_distance() says.
 */
static void df_check_minimal(struct kunit *test, const struct vcube_topo *t,
			     u32 s, u32 d, const struct df_walk *w)
{
	const struct vcube_dragonfly *df = &t->df;
	u32 per = df->routers * df->nodes;

	KUNIT_ASSERT_EQ(test, (u32)w->n, vcube_topo_distance(t, s, d));
	KUNIT_ASSERT_EQ(test, w->global, (u32)(s / per != d / per));
	KUNIT_ASSERT_LE(test, w->local + w->global, 3U);
	KUNIT_ASSERT_LE(test, w->local, 2U);
	if (w->global) {
		KUNIT_ASSERT_EQ(test, w->mid, d / per);
		KUNIT_ASSERT_EQ(test, w->lane, s % df->links);
	} else if (s != d) {
		KUNIT_ASSERT_EQ(test, w->local, (u32)(s / df->nodes !=
						      d / df->nodes));
	}
}

static void vcube_df_minimal(struct kunit *test)
{
	const struct df_case *c = test->param_value;
	struct vcube_topo t;
	struct df_walk w;
	u32 s, d, longest = 0;

	df_init(test, &t, &c->p, VCUBE_DF_MINIMAL);
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++) {
			df_walk(test, &t, s, d, s * 7 + d, NULL, NULL, &w);
			df_check_minimal(test, &t, s, d, &w);
			if (w.n > longest)
				longest = w.n;
		}
	KUNIT_EXPECT_EQ(test, longest, vcube_topo_diameter(&t));
}

/*
 * Valiant: between groups, two global hops through a group that is
 * neither end's, each leg over link src % L, at most five router hops;
 * the same route for the same (seed, src, dst, cookie). Within a group,
 * the minimal route.
 */
static void vcube_df_valiant(struct kunit *test)
{
	const struct df_case *c = test->param_value;
	struct vcube_topo t;
	struct df_walk w, again;
	u32 s, d, per;

	if (c->p.groups < 3)
		kunit_skip(test, "Valiant needs 3 groups");
	df_init(test, &t, &c->p, VCUBE_DF_VALIANT);
	per = t.df.routers * t.df.nodes;
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++) {
			df_walk(test, &t, s, d, s ^ d << 9, NULL, NULL, &w);
			if (s / per == d / per) {
				df_check_minimal(test, &t, s, d, &w);
				continue;
			}
			KUNIT_ASSERT_EQ(test, w.global, 2U);
			KUNIT_ASSERT_NE(test, w.mid, s / per);
			KUNIT_ASSERT_NE(test, w.mid, d / per);
			KUNIT_ASSERT_LE(test, w.local, 3U);
			KUNIT_ASSERT_EQ(test, w.lane, s % t.df.links);
			df_walk(test, &t, s, d, s ^ d << 9, NULL, NULL, &again);
			KUNIT_ASSERT_EQ(test, again.n, w.n);
			KUNIT_ASSERT_EQ(test, memcmp(again.chan, w.chan,
						     w.n * sizeof(u32)), 0);
		}
}

/*
 * The intermediate group is the seed's and the cookie's: over 300
 * cookies one pair goes through every group that is not its own, and
 * another seed gives another sequence.
 */
static void vcube_df_valiant_seeded(struct kunit *test)
{
	struct vcube_topo_params p = DF(9, 4, 2, 2);
	struct vcube_topo t, t2;
	struct df_walk w, w2;
	u32 seen = 0, differ = 0, k;

	df_init(test, &t, &p, VCUBE_DF_VALIANT);
	p.seed = 6;
	df_init(test, &t2, &p, VCUBE_DF_VALIANT);
	for (k = 0; k < 300; k++) {
		df_walk(test, &t, 3, 70, k, NULL, NULL, &w);
		df_walk(test, &t2, 3, 70, k, NULL, NULL, &w2);
		seen |= 1U << w.mid;
		differ += w.mid != w2.mid;
	}
	/* 3 is in group 0, 70 in group 8 */
	KUNIT_EXPECT_EQ(test, seen, 0x0feU);
	KUNIT_EXPECT_GT(test, differ, 100U);
}

/* A load of @ctx[0] on channel @ctx[1], @ctx[2] on @ctx[3], else @ctx[4]. */
static u32 df_fake_load(void *ctx, u32 chan)
{
	const u32 *l = ctx;

	return chan == l[1] ? l[0] : chan == l[3] ? l[2] : l[4];
}

/* The route UGAL-L takes under load @l: Valiant's @v or minimal's @m. */
static void df_check_ugal(struct kunit *test, const struct vcube_topo *t,
			  u32 s, u32 d, u32 *l, const struct df_walk *m,
			  const struct df_walk *v, u32 *nval)
{
	const struct df_walk *want = m;
	struct df_walk u;
	u64 qm = df_fake_load(l, m->chan[1]), qv = df_fake_load(l, v->chan[1]);

	if (v->global == 2 && qv * (v->n - 1) < qm * (m->n - 1))
		want = v;
	*nval += want == v;
	df_walk(test, t, s, d, d, df_fake_load, l, &u);
	KUNIT_ASSERT_EQ(test, u.n, want->n);
	KUNIT_ASSERT_EQ(test, memcmp(u.chan, want->chan, u.n * sizeof(u32)),
			0);
}

/*
 * UGAL-L: with no load known, minimal; with load q on the minimal route's
 * first channel out of the source router and q' on the Valiant one's,
 * Valiant exactly when q' * h' < q * h (h, h': the routes' channels after
 * the injection), so a tie goes minimal.
 */
static void vcube_df_ugal(struct kunit *test)
{
	const struct df_case *c = test->param_value;
	struct vcube_topo t, tm, tv;
	struct df_walk m, v, u;
	u32 s, d, l[5], nval = 0, nload = 0;

	if (c->p.groups < 3)
		kunit_skip(test, "UGAL needs 3 groups");
	df_init(test, &t, &c->p, VCUBE_DF_UGAL);
	df_init(test, &tm, &c->p, VCUBE_DF_MINIMAL);
	df_init(test, &tv, &c->p, VCUBE_DF_VALIANT);
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++) {
			df_walk(test, &tm, s, d, d, NULL, NULL, &m);
			df_walk(test, &tv, s, d, d, NULL, NULL, &v);
			df_walk(test, &t, s, d, d, NULL, NULL, &u);
			KUNIT_ASSERT_EQ(test, u.n, m.n);
			KUNIT_ASSERT_EQ(test, memcmp(u.chan, m.chan,
						     u.n * sizeof(u32)), 0);
			if (s == d)
				continue;
			/* the same load everywhere: the shorter; a tie minimal */
			l[1] = U32_MAX;
			l[3] = U32_MAX;
			l[4] = 3;
			df_check_ugal(test, &t, s, d, l, &m, &v, &nval);
			/* load on the two candidates' first channels only */
			l[0] = 1 + s % 4;
			l[1] = m.chan[1];
			l[2] = 1 + d % 3;
			l[3] = v.chan[1];
			l[4] = 0;
			df_check_ugal(test, &t, s, d, l, &m, &v, &nload);
		}
	KUNIT_EXPECT_GT(test, nload, nval);
}

/* Neighbours, coordinates, the shape's words, bad input. */
static void vcube_df_faces(struct kunit *test)
{
	struct vcube_topo_params p = DF(9, 4, 3, 2);
	struct vcube_topo t;
	u32 nb[VCUBE_TOPO_MAX_NEIGHBORS], chan[VCUBE_DF_MAX_ROUTE];
	char buf[80];

	p.routing = VCUBE_DF_UGAL;
	df_init(test, &t, &p, VCUBE_DF_UGAL);
	KUNIT_ASSERT_EQ(test, vcube_topo_neighbors(&t, 100, nb, 16), 2);
	KUNIT_EXPECT_EQ(test, nb[0], 99U);
	KUNIT_EXPECT_EQ(test, nb[1], 101U);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 100, nb, 1), -ENOSPC);
	/* 100 = (8 * 4 + 1) * 3 + 1: group 8, router 1, node 1 */
	KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, 100, buf,
						       sizeof(buf)), 5);
	KUNIT_EXPECT_STREQ(test, buf, "8.1.1");
	KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, 100, buf, 5),
			-ENOSPC);
	KUNIT_EXPECT_GT(test, vcube_topo_format_shape(&t, buf, sizeof(buf)),
			0);
	KUNIT_EXPECT_STREQ(test, buf,
			   "groups=9 routers=4 nodes=3 global=2 routing=ugal");
	KUNIT_EXPECT_STREQ(test, vcube_topo_kind_name(t.kind), "dragonfly");
	KUNIT_EXPECT_EQ(test, vcube_topo_kind_parse("dragonfly"),
			(int)VCUBE_TOPO_DRAGONFLY);
	KUNIT_EXPECT_EQ(test, vcube_df_routing_parse("valiant"),
			(int)VCUBE_DF_VALIANT);
	KUNIT_EXPECT_EQ(test, vcube_df_routing_parse("dmodk"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vcube_topo_diameter(&t), 7U);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 108, 0, 0, chan, 7),
			-EINVAL);
	/* node 0 to node 107: group 0 to group 8, 5 channels minimal */
	KUNIT_EXPECT_EQ(test, vcube_topo_distance(&t, 0, 107), 5U);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 0, 107, 0, chan, 4),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 0, 107, 0, chan, 7), 5);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 5, 5, 0, chan, 7), 0);
}

static struct kunit_case vcube_df_cases[] = {
	KUNIT_CASE_PARAM(vcube_df_params, df_param_gen_params),
	KUNIT_CASE_PARAM(vcube_df_wiring, df_shape_gen_params),
	KUNIT_CASE_PARAM(vcube_df_minimal, df_shape_gen_params),
	KUNIT_CASE_PARAM(vcube_df_valiant, df_shape_gen_params),
	KUNIT_CASE(vcube_df_valiant_seeded),
	KUNIT_CASE_PARAM(vcube_df_ugal, df_shape_gen_params),
	KUNIT_CASE(vcube_df_faces),
	{}
};

static struct kunit_suite vcube_df_suite = {
	.name = "vcube_dragonfly",
	.test_cases = vcube_df_cases,
};

kunit_test_suite(vcube_df_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for vcube's dragonfly");
