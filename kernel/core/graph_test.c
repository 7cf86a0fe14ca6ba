// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_graph: networks given as graphs. Every pair's route
 * walked hop by hop (each channel leaves where the last one ended, the
 * length is 2 + the router distance found independently, by Floyd-
 * Warshall), the tie-break (the lowest-numbered link, so the first of
 * parallel ones), and every bad description refused with its message.
 */
#include <kunit/test.h>
#include "graph.h"
#include "topology.h"

#define GT_MAX_R	16
#define GT_INF		1000

struct graph_case {
	const char *name;
	u32 routers, nodes, nlinks;
	u16 node_router[32];
	u16 links[64];
};

static const struct graph_case graph_cases[] = {
	/* BookSim2's anynet example: a triangle, 3 nodes on each router */
	{ "anynet example", 3, 9, 3, { 0, 0, 0, 1, 1, 1, 2, 2, 2 },
	  { 0, 1, 2, 1, 2, 0 } },
	/* one router, no links */
	{ "one router", 1, 4, 0, { 0, 0, 0, 0 }, { 0 } },
	/* a ring of 6 routers, a node each, and a router with none */
	{ "ring", 7, 6, 7, { 0, 1, 2, 3, 4, 5 },
	  { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 6, 3 } },
	/* a 2-level tree with parallel links to the root */
	{ "tree", 3, 4, 4, { 1, 1, 2, 2 }, { 1, 0, 1, 0, 0, 2, 2, 0 } },
	/* a 4x4 mesh of routers, a node each */
	{ "mesh", 16, 16, 24,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	  { 0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10, 11,
	    12, 13, 13, 14, 14, 15, 0, 4, 4, 8, 8, 12, 1, 5, 5, 9, 9, 13,
	    2, 6, 6, 10, 10, 14, 3, 7, 7, 11, 11, 15 } },
};

static void graph_desc(const struct graph_case *c, struct vcube_graph_desc *d)
{
	*d = (struct vcube_graph_desc){ .routers = c->routers,
					.nodes = c->nodes,
					.nlinks = c->nlinks,
					.node_router = c->node_router,
					.links = c->links };
}

/* Router distances by Floyd-Warshall: a check independent of the BFS. */
static void graph_floyd(const struct graph_case *c, u32 d[GT_MAX_R][GT_MAX_R])
{
	u32 i, j, k;

	for (i = 0; i < c->routers; i++)
		for (j = 0; j < c->routers; j++)
			d[i][j] = i == j ? 0 : GT_INF;
	for (i = 0; i < c->nlinks; i++) {
		d[c->links[2 * i]][c->links[2 * i + 1]] = 1;
		d[c->links[2 * i + 1]][c->links[2 * i]] = 1;
	}
	for (k = 0; k < c->routers; k++)
		for (i = 0; i < c->routers; i++)
			for (j = 0; j < c->routers; j++)
				if (d[i][k] + d[k][j] < d[i][j])
					d[i][j] = d[i][k] + d[k][j];
}

static void graph_walk(struct kunit *test, const struct graph_case *c,
		       const struct vcube_graph *g, u32 s, u32 t,
		       u32 dist[GT_MAX_R][GT_MAX_R])
{
	u32 chan[40], from, to, dir, at = s, want;
	u8 fl, tl, level = 0;
	int n, i;

	n = vcube_graph_route(g, s, t, chan, ARRAY_SIZE(chan));
	want = s == t ? 0 : 2 + dist[c->node_router[s]][c->node_router[t]];
	KUNIT_ASSERT_EQ_MSG(test, n, (int)want, "%s: %u->%u", c->name, s, t);
	KUNIT_EXPECT_EQ(test, vcube_graph_distance(g, s, t), want);
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, vcube_graph_chan(g, chan[i], &from, &fl,
						       &to, &tl, &dir), 0);
		KUNIT_ASSERT_EQ_MSG(test, from, at, "%s: %u->%u hop %d",
				    c->name, s, t, i);
		KUNIT_ASSERT_EQ(test, fl, level);
		KUNIT_EXPECT_EQ(test, dir, i == 0 ? 0U : i == n - 1 ? 1U : 2U);
		at = to;
		level = tl;
	}
	KUNIT_EXPECT_EQ_MSG(test, at, t, "%s: %u->%u ends elsewhere", c->name,
			    s, t);
	KUNIT_EXPECT_EQ(test, level, 0);
}

static void graph_routes(struct kunit *test)
{
	static u32 dist[GT_MAX_R][GT_MAX_R];
	struct vcube_graph_desc d;
	struct vcube_graph g;
	char err[128] = "";
	u32 k, s, t, diam;

	for (k = 0; k < ARRAY_SIZE(graph_cases); k++) {
		const struct graph_case *c = &graph_cases[k];

		graph_desc(c, &d);
		KUNIT_ASSERT_EQ_MSG(test, vcube_graph_init(&g, &d, err, sizeof(err)),
				    0, "%s: %s", c->name, err);
		KUNIT_EXPECT_EQ(test, vcube_graph_nchan(&g),
				2 * c->nodes + 2 * c->nlinks);
		graph_floyd(c, dist);
		diam = 0;
		for (s = 0; s < c->nodes; s++)
			for (t = 0; t < c->nodes; t++) {
				graph_walk(test, c, &g, s, t, dist);
				if (s != t && vcube_graph_distance(&g, s, t) > diam)
					diam = vcube_graph_distance(&g, s, t);
			}
		KUNIT_EXPECT_EQ_MSG(test, g.diameter, diam, "%s", c->name);
		vcube_graph_fini(&g);
	}
}

/* Of equal ways, the lowest-numbered link: the first of parallel ones. */
static void graph_tiebreak(struct kunit *test)
{
	const struct graph_case *tree = &graph_cases[3], *mesh = &graph_cases[4];
	struct vcube_graph_desc d;
	struct vcube_graph g;
	u32 chan[8];

	graph_desc(tree, &d);
	KUNIT_ASSERT_EQ(test, vcube_graph_init(&g, &d, NULL, 0), 0);
	/* node 0 (router 1) to node 2 (router 2): links 0 and 1 are parallel */
	KUNIT_ASSERT_EQ(test, vcube_graph_route(&g, 0, 2, chan, 8), 4);
	KUNIT_EXPECT_EQ(test, chan[1], 2 * 4 + 0U);	/* link 0, 1 -> 0 */
	KUNIT_EXPECT_EQ(test, chan[2], 2 * 4 + 4U);	/* link 2, 0 -> 2 */
	KUNIT_EXPECT_EQ(test, vcube_graph_route(&g, 0, 2, chan, 3), -ENOSPC);
	vcube_graph_fini(&g);

	graph_desc(mesh, &d);
	KUNIT_ASSERT_EQ(test, vcube_graph_init(&g, &d, NULL, 0), 0);
	/* 0 -> 5: via 1 (link 0, the x links come first) not 4 (link 12) */
	KUNIT_ASSERT_EQ(test, vcube_graph_route(&g, 0, 5, chan, 8), 4);
	KUNIT_EXPECT_EQ(test, chan[1], 2 * 16 + 0U);
	vcube_graph_fini(&g);
}

/*
 * Routes given over the table: a ring of 4 routers, a node each, links
 * 0-1, 0-3, 1-2, 2-3 (channels 8 + 2i, back 9 + 2i). "0 2 3" sends node 0
 * to node 2 over router 3; "0 1 3" and "3 1 2" the long way round to 1,
 * three links, so the diameter grows to 5; "0 2 3" with "3 2 0" loops,
 * and a route to a router that is no neighbour is refused.
 */
static void graph_given(struct kunit *test)
{
	static const u16 nr[] = { 0, 1, 2, 3 }, links[] = { 0, 1, 0, 3,
							    1, 2, 2, 3 };
	static const u16 via3[] = { 0, 2, 3, 0, 1, 3, 3, 1, 2 };
	static const u16 loop[] = { 0, 2, 3, 3, 2, 0 }, far[] = { 0, 2, 2 };
	struct vcube_graph_desc d = { .routers = 4, .nodes = 4, .nlinks = 4,
				      .node_router = nr, .links = links };
	struct vcube_graph g;
	char err[80];
	u32 chan[8];

	KUNIT_ASSERT_EQ(test, vcube_graph_init(&g, &d, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, g.diameter, 4U);
	KUNIT_ASSERT_EQ(test, vcube_graph_route(&g, 0, 2, chan, 8), 4);
	KUNIT_EXPECT_EQ(test, chan[1], 8U);		/* 0 -> 1 */
	vcube_graph_fini(&g);

	d.nroutes = 3;
	d.routes = via3;
	KUNIT_ASSERT_EQ(test, vcube_graph_init(&g, &d, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, vcube_graph_route(&g, 0, 2, chan, 8), 4);
	KUNIT_EXPECT_EQ(test, chan[1], 10U);		/* 0 -> 3 */
	KUNIT_EXPECT_EQ(test, chan[2], 15U);		/* 3 -> 2 */
	KUNIT_EXPECT_EQ(test, vcube_graph_route(&g, 0, 1, chan, 8), 5);
	KUNIT_EXPECT_EQ(test, vcube_graph_distance(&g, 0, 1), 5U);
	KUNIT_EXPECT_EQ(test, g.diameter, 5U);
	vcube_graph_fini(&g);

	d.nroutes = 2;
	d.routes = loop;
	KUNIT_EXPECT_EQ(test, vcube_graph_init(&g, &d, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, err,
			   "graph routes toward router 2 loop at router 0");
	d.nroutes = 1;
	d.routes = far;
	KUNIT_EXPECT_EQ(test, vcube_graph_init(&g, &d, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, err,
			   "graph route 0: router 0 has no link to 2 toward 2");
}

static void graph_bad(struct kunit *test)
{
	static const u16 nr[] = { 0, 1, 5 }, bad_link[] = { 0, 0 };
	static const u16 far_link[] = { 0, 9 }, apart[] = { 0, 1 };
	static const struct {
		struct vcube_graph_desc d;
		const char *want;
	} cases[] = {
		{ { 0, 2, 0, nr, NULL }, "a graph has 1..2048 routers, not 0" },
		{ { 4096, 2, 0, nr, NULL }, "not 4096" },
		{ { 2, 2, 40000, nr, apart }, "at most 32768 links, not 40000" },
		{ { 3, 3, 0, nr, NULL }, "graph node 2 is on router 5 of 3" },
		{ { 2, 2, 1, nr, bad_link }, "graph link 0 joins router 0 to 0" },
		{ { 2, 2, 1, nr, far_link }, "graph link 0 joins router 0 to 9" },
		{ { 3, 2, 1, nr, apart }, "graph router 2 cannot reach router 0: the routers must be connected" },
	};
	struct vcube_graph g;
	char err[128];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = 0;
		KUNIT_EXPECT_EQ(test, vcube_graph_init(&g, &cases[i].d, err,
						       sizeof(err)), -EINVAL);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, cases[i].want),
					  "said '%s'", err);
		KUNIT_EXPECT_NULL(test, g.next);
	}
}

/* Every pair's route through vcube_topo_*(), walked with its chan_info. */
static void graph_topo_walk(struct kunit *test, const struct graph_case *c,
			    const struct vcube_topo *t)
{
	static u32 dist[GT_MAX_R][GT_MAX_R];
	struct vcube_chan_info ci;
	u32 s, dst, at, level, chan[40];
	int n, i;

	graph_floyd(c, dist);
	for (s = 0; s < c->nodes; s++)
		for (dst = 0; dst < c->nodes; dst++) {
			n = vcube_topo_route(t, s, dst, 0, chan,
					     ARRAY_SIZE(chan));
			KUNIT_ASSERT_EQ(test, n, s == dst ? 0 :
					(int)(2 + dist[c->node_router[s]]
						      [c->node_router[dst]]));
			KUNIT_EXPECT_EQ(test, vcube_topo_distance(t, s, dst),
					(u32)n);
			KUNIT_EXPECT_LE(test, (u32)n, vcube_topo_diameter(t));
			at = s;
			level = 0;
			for (i = 0; i < n; i++) {
				KUNIT_ASSERT_EQ(test,
						vcube_topo_chan_info(t, chan[i], &ci),
						0);
				KUNIT_ASSERT_EQ(test, ci.from, at);
				KUNIT_ASSERT_EQ(test, (u32)ci.from_level, level);
				at = ci.to;
				level = ci.to_level;
			}
			KUNIT_EXPECT_EQ(test, at, dst);
			KUNIT_EXPECT_EQ(test, level, 0U);
		}
}

/*
 * The graph as a topology: vcube_topo_*() over each case, the counts, the
 * words, the node's router as its place, and what topology=graph refuses.
 */
static void graph_topo(struct kunit *test)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_GRAPH };
	struct vcube_graph_desc d;
	struct vcube_topo t;
	char buf[64], want[64], err[160] = "";
	u32 k, s, nb[16];
	int n, same;

	for (k = 0; k < ARRAY_SIZE(graph_cases); k++) {
		const struct graph_case *c = &graph_cases[k];

		graph_desc(c, &d);
		p.graph = &d;
		KUNIT_ASSERT_EQ_MSG(test, vcube_topo_init(&t, &p, err, sizeof(err)),
				    0, "%s: %s", c->name, err);
		KUNIT_EXPECT_STREQ(test, vcube_topo_kind_name(t.kind), "graph");
		KUNIT_EXPECT_EQ(test, t.nodes, c->nodes);
		KUNIT_EXPECT_EQ(test, t.nchan, 2 * c->nodes + 2 * c->nlinks);
		KUNIT_EXPECT_EQ(test, t.nbundles, t.nchan);
		KUNIT_EXPECT_EQ(test, vcube_topo_level_links(&t, 0), c->nodes);
		KUNIT_EXPECT_EQ(test, vcube_topo_level_links(&t, 1), c->nlinks);
		KUNIT_EXPECT_EQ(test, vcube_topo_level_links(&t, 2), 0U);
		graph_topo_walk(test, c, &t);
		/* the other nodes of node 0's router */
		n = vcube_topo_neighbors(&t, 0, nb, ARRAY_SIZE(nb));
		for (s = 1, same = 0; s < c->nodes; s++)
			same += c->node_router[s] == c->node_router[0];
		KUNIT_EXPECT_EQ_MSG(test, n, same, "%s", c->name);
		vcube_topo_format_coords(&t, c->nodes - 1, buf, sizeof(buf));
		snprintf(want, sizeof(want), "r%u",
			 c->node_router[c->nodes - 1]);
		KUNIT_EXPECT_STREQ(test, buf, want);
		vcube_topo_format_shape(&t, buf, sizeof(buf));
		snprintf(want, sizeof(want), "routers=%u nodes=%u links=%u",
			 c->routers, c->nodes, c->nlinks);
		KUNIT_EXPECT_STREQ(test, buf, want);
		vcube_topo_fini(&t);
		KUNIT_EXPECT_NULL(test, t.graph);
		vcube_topo_fini(&t);	/* twice: nothing */
	}

	/* no graph; a graph with another kind; too few nodes */
	p.graph = NULL;
	KUNIT_EXPECT_EQ(test, vcube_topo_init(&t, &p, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, "vcubectl net add"),
				  "said '%s'", err);
	graph_desc(&graph_cases[0], &d);
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_HYPERCUBE,
					.dim = 2, .graph = &d };
	KUNIT_EXPECT_EQ(test, vcube_topo_init(&t, &p, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, "do not apply to topology=hypercube"),
				  "said '%s'", err);
	d.nodes = 1;
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_GRAPH, .graph = &d };
	KUNIT_EXPECT_EQ(test, vcube_topo_init(&t, &p, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, "2..4096 nodes, not 1"),
				  "said '%s'", err);
	KUNIT_EXPECT_NULL(test, t.graph);
}

static struct kunit_case graph_test_cases[] = {
	KUNIT_CASE(graph_routes),
	KUNIT_CASE(graph_tiebreak),
	KUNIT_CASE(graph_given),
	KUNIT_CASE(graph_bad),
	KUNIT_CASE(graph_topo),
	{}
};

static struct kunit_suite graph_test_suite = {
	.name = "vcube_graph",
	.test_cases = graph_test_cases,
};
kunit_test_suite(graph_test_suite);

MODULE_LICENSE("GPL");
