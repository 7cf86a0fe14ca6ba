// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_route: routes hop by hop against the papers' machines.
 */
#include <kunit/test.h>
#include "topology.h"

#define MAXP 24

static void init_or_fail(struct kunit *test, struct vcube_topo *t,
			 const struct vcube_topo_params *p)
{
	char err[128] = "";

	KUNIT_ASSERT_EQ_MSG(test, vcube_topo_init(t, p, err, sizeof(err)), 0,
			    "%s", err);
}

/*
 * Walk a route: the first channel leaves @src, each one starts where the
 * previous one ended, the last one reaches @dst. Fills @nodes with the
 * level-0 vertices visited (for the fat tree, only the two ends).
 */
static int walk_route(struct kunit *test, const struct vcube_topo *t, u32 src,
		      u32 dst, u64 cookie, u32 *nodes, u32 max_nodes)
{
	u32 chan[32];
	struct vcube_chan_info ci;
	u32 at = src, level = 0, nn = 0;
	int hops, i;

	hops = vcube_topo_route(t, src, dst, cookie, chan, ARRAY_SIZE(chan));
	KUNIT_ASSERT_GE(test, hops, 0);
	if (nodes && nn < max_nodes)
		nodes[nn++] = src;
	for (i = 0; i < hops; i++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(t, chan[i], &ci), 0);
		KUNIT_ASSERT_EQ_MSG(test, ci.from, at, "%u->%u hop %d", src,
				    dst, i);
		KUNIT_ASSERT_EQ_MSG(test, (u32)ci.from_level, level,
				    "%u->%u hop %d", src, dst, i);
		at = ci.to;
		level = ci.to_level;
		if (nodes && !level && nn < max_nodes)
			nodes[nn++] = at;
	}
	KUNIT_EXPECT_EQ_MSG(test, at, dst, "%u->%u ends elsewhere", src, dst);
	KUNIT_EXPECT_EQ(test, level, 0U);
	return hops;
}

struct path_case {
	const char *name;
	struct vcube_topo_params p;
	u32 len;		/* nodes in path[] */
	u32 path[MAXP];		/* visited nodes, source first */
};

static void path_case_desc(const struct path_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

#define HC7 { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 7 }
#define GRID(k, r, c) { .kind = VCUBE_TOPO_##k, .rows = r, .cols = c }

static const struct path_case path_cases[] = {
	/* Bokhari 1991, section 2.3: the eight paths through edge 7->15. */
	{ "bokhari(1) 0->127", HC7, 8, { 0, 1, 3, 7, 15, 31, 63, 127 } },
	{ "bokhari(2) 1->63", HC7, 6, { 1, 3, 7, 15, 31, 63 } },
	{ "bokhari(3) 3->31", HC7, 4, { 3, 7, 15, 31 } },
	{ "bokhari(4) 7->15", HC7, 2, { 7, 15 } },
	{ "bokhari(5) 5->79", HC7, 4, { 5, 7, 15, 79 } },
	{ "bokhari(6) 6->47", HC7, 4, { 6, 7, 15, 47 } },
	{ "bokhari(7) 2->95", HC7, 6, { 2, 3, 7, 15, 31, 95 } },
	{ "bokhari(8) 4->111", HC7, 6, { 4, 5, 7, 15, 47, 111 } },
	/* Bokhari Fig. 1 on d=5: 0->31, 2->23 share 3-7; 14->11 via 15. */
	{ "fig1 0->31", { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 5 }, 6,
	  { 0, 1, 3, 7, 15, 31 } },
	{ "fig1 2->23", { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 5 }, 4,
	  { 2, 3, 7, 23 } },
	{ "fig1 14->11", { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 5 }, 3,
	  { 14, 15, 11 } },
	/* XY on a mesh: along the row first, then along the column. */
	{ "mesh5x5 0->24", GRID(MESH, 5, 5), 9,
	  { 0, 1, 2, 3, 4, 9, 14, 19, 24 } },
	{ "mesh5x5 24->0", GRID(MESH, 5, 5), 9,
	  { 24, 23, 22, 21, 20, 15, 10, 5, 0 } },
	{ "mesh5x5 20->4", GRID(MESH, 5, 5), 9,
	  { 20, 21, 22, 23, 24, 19, 14, 9, 4 } },
	{ "mesh5x5 12->12", GRID(MESH, 5, 5), 1, { 12 } },
	/* 16 rows of 9: node 10 is (1,1), 59 is (6,5), 3 is (0,3). */
	{ "mesh16x9 10->59", GRID(MESH, 16, 9), 10,
	  { 10, 11, 12, 13, 14, 23, 32, 41, 50, 59 } },
	{ "mesh16x9 143->3", GRID(MESH, 16, 9), 21,
	  { 143, 142, 141, 140, 139, 138, 129, 120, 111, 102, 93, 84, 75,
	    66, 57, 48, 39, 30, 21, 12, 3 } },
	{ "mesh4x5 19->0", GRID(MESH, 4, 5), 8,
	  { 19, 18, 17, 16, 15, 10, 5, 0 } },
	/* AP1000 torus: east (with wrap) first, then south (with wrap). */
	{ "torus4x5 4->0", GRID(TORUS, 4, 5), 2, { 4, 0 } },
	{ "torus4x5 0->4", GRID(TORUS, 4, 5), 5, { 0, 1, 2, 3, 4 } },
	{ "torus4x5 19->0", GRID(TORUS, 4, 5), 3, { 19, 15, 0 } },
	{ "torus4x5 7->1", GRID(TORUS, 4, 5), 8,
	  { 7, 8, 9, 5, 6, 11, 16, 1 } },
	{ "torus5x5 6->0", GRID(TORUS, 5, 5), 9,
	  { 6, 7, 8, 9, 5, 10, 15, 20, 0 } },
	{ "torus16x9 8->0", GRID(TORUS, 16, 9), 2, { 8, 0 } },
	{ "torus16x9 0->135", GRID(TORUS, 16, 9), 16,
	  { 0, 9, 18, 27, 36, 45, 54, 63, 72, 81, 90, 99, 108, 117, 126,
	    135 } },
};

KUNIT_ARRAY_PARAM(path, path_cases, path_case_desc);

static void vcube_route_paths(struct kunit *test)
{
	const struct path_case *c = test->param_value;
	u32 got[MAXP + 1] = { 0 };
	struct vcube_topo t;
	u32 i, src = c->path[0], dst = c->path[c->len - 1];
	int hops;

	init_or_fail(test, &t, &c->p);
	hops = walk_route(test, &t, src, dst, 0, got, MAXP);
	KUNIT_EXPECT_EQ(test, (u32)hops + 1, c->len);
	for (i = 0; i < c->len; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], c->path[i], "node %u", i);
}

/* All eight of Bokhari's paths cross the same directed channel 7->15. */
static void vcube_route_bokhari_shared_edge(struct kunit *test)
{
	struct vcube_topo_params p = HC7;
	struct vcube_chan_info ci;
	u32 chan[8];
	struct vcube_topo t;
	int i, h, hops, hits;

	init_or_fail(test, &t, &p);
	for (i = 0; i < 8; i++) {
		const struct path_case *c = &path_cases[i];

		hops = vcube_topo_route(&t, c->path[0], c->path[c->len - 1], 0,
					chan, ARRAY_SIZE(chan));
		KUNIT_ASSERT_GT(test, hops, 0);
		for (hits = 0, h = 0; h < hops; h++) {
			KUNIT_ASSERT_EQ(test,
					vcube_topo_chan_info(&t, chan[h], &ci),
					0);
			hits += ci.from == 7 && ci.to == 15;
		}
		KUNIT_EXPECT_EQ_MSG(test, hits, 1, "path (%d)", i + 1);
	}
}

/*
 * Bokhari Fig. 5: link usage of the complete exchange on d = 3 under
 * e-cube routing, transcribed as the nodes each of the 64 rows visits.
 */
static const u8 fig5[64][5] = {
	/* len, nodes... ; row order is the figure's: source major */
	{ 1, 0 }, { 2, 0, 1 }, { 2, 0, 2 }, { 3, 0, 1, 3 },
	{ 2, 0, 4 }, { 3, 0, 1, 5 }, { 3, 0, 2, 6 }, { 4, 0, 1, 3, 7 },
	{ 2, 1, 0 }, { 1, 1 }, { 3, 1, 0, 2 }, { 2, 1, 3 },
	{ 3, 1, 0, 4 }, { 2, 1, 5 }, { 4, 1, 0, 2, 6 }, { 3, 1, 3, 7 },
	{ 2, 2, 0 }, { 3, 2, 3, 1 }, { 1, 2 }, { 2, 2, 3 },
	{ 3, 2, 0, 4 }, { 4, 2, 3, 1, 5 }, { 2, 2, 6 }, { 3, 2, 3, 7 },
	{ 3, 3, 2, 0 }, { 2, 3, 1 }, { 2, 3, 2 }, { 1, 3 },
	{ 4, 3, 2, 0, 4 }, { 3, 3, 1, 5 }, { 3, 3, 2, 6 }, { 2, 3, 7 },
	{ 2, 4, 0 }, { 3, 4, 5, 1 }, { 3, 4, 6, 2 }, { 4, 4, 5, 7, 3 },
	{ 1, 4 }, { 2, 4, 5 }, { 2, 4, 6 }, { 3, 4, 5, 7 },
	{ 3, 5, 4, 0 }, { 2, 5, 1 }, { 4, 5, 4, 6, 2 }, { 3, 5, 7, 3 },
	{ 2, 5, 4 }, { 1, 5 }, { 3, 5, 4, 6 }, { 2, 5, 7 },
	{ 3, 6, 4, 0 }, { 4, 6, 7, 5, 1 }, { 2, 6, 2 }, { 3, 6, 7, 3 },
	{ 2, 6, 4 }, { 3, 6, 7, 5 }, { 1, 6 }, { 2, 6, 7 },
	{ 4, 7, 6, 4, 0 }, { 3, 7, 5, 1 }, { 3, 7, 6, 2 }, { 2, 7, 3 },
	{ 3, 7, 6, 4 }, { 2, 7, 5 }, { 2, 7, 6 }, { 1, 7 },
};

static void vcube_route_fig5(struct kunit *test)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 3 };
	u32 use[24] = { 0 }, chan[3], got[4];
	struct vcube_chan_info ci;
	struct vcube_topo t;
	int row, i, hops;

	init_or_fail(test, &t, &p);
	KUNIT_ASSERT_EQ(test, t.nchan, 24U);
	for (row = 0; row < 64; row++) {
		u32 src = row / 8, dst = row % 8;

		hops = walk_route(test, &t, src, dst, 0, got, 4);
		KUNIT_ASSERT_EQ_MSG(test, hops + 1, (int)fig5[row][0],
				    "row %u->%u", src, dst);
		for (i = 0; i <= hops; i++)
			KUNIT_EXPECT_EQ_MSG(test, got[i],
					    (u32)fig5[row][i + 1],
					    "row %u->%u node %d", src, dst, i);
		vcube_topo_route(&t, src, dst, 0, chan, 3);
		for (i = 0; i < hops; i++) {
			use[chan[i]]++;
			vcube_topo_chan_info(&t, chan[i], &ci);
			/*
			 * The property that lets Fig. 5 omit half the edges:
			 * no route leaves the half of the cube (by leftmost
			 * bit) its source is in, except on dimension 2.
			 */
			if (ci.dir != 2)
				KUNIT_EXPECT_EQ(test, ci.from & 4, src & 4);
		}
	}
	/* 64 pairs, 96 hops over 24 channels: e-cube loads each one 4 times. */
	for (i = 0; i < 24; i++)
		KUNIT_EXPECT_EQ_MSG(test, use[i], 4U, "channel %d", i);
}

struct shape_case {
	const char *name;
	struct vcube_topo_params p;
};

static void shape_case_desc(const struct shape_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

#define HC(d) { "hypercube d=" #d, { .kind = VCUBE_TOPO_HYPERCUBE, .dim = d } }
#define SHAPE(k, r, c) { #k " " #r "x" #c, GRID(k, r, c) }
#define FT(n) { "fattree " #n, { .kind = VCUBE_TOPO_FATTREE, .nodes = n, \
				 .seed = 42 } }

static const struct shape_case all_pairs_cases[] = {
	HC(1), HC(2), HC(3), HC(4), HC(5), HC(6),
	SHAPE(MESH, 1, 8), SHAPE(MESH, 8, 1), SHAPE(MESH, 2, 2),
	SHAPE(MESH, 3, 7), SHAPE(MESH, 5, 5), SHAPE(MESH, 4, 5),
	SHAPE(MESH, 16, 9),
	SHAPE(TORUS, 1, 6), SHAPE(TORUS, 6, 1), SHAPE(TORUS, 2, 2),
	SHAPE(TORUS, 5, 5), SHAPE(TORUS, 4, 5), SHAPE(TORUS, 16, 9),
	FT(4), FT(16), FT(32), FT(64), FT(100),
};

KUNIT_ARRAY_PARAM(all_pairs, all_pairs_cases, shape_case_desc);

/*
 * Every pair reaches its destination. Hypercube and mesh routes are
 * minimal; torus routes take exactly the unidirectional distance; fat tree
 * routes climb to the least common ancestor and no higher.
 */
static void vcube_route_all_pairs(struct kunit *test)
{
	const struct shape_case *c = test->param_value;
	struct vcube_topo t;
	u32 s, d, sr, sc, dr, dc, want, lca;
	int hops;

	init_or_fail(test, &t, &c->p);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			hops = walk_route(test, &t, s, d, s * 31 + d, NULL, 0);
			sr = t.cols ? s / t.cols : 0;
			sc = t.cols ? s % t.cols : 0;
			dr = t.cols ? d / t.cols : 0;
			dc = t.cols ? d % t.cols : 0;
			switch (t.kind) {
			case VCUBE_TOPO_HYPERCUBE:
				want = hweight32(s ^ d);
				break;
			case VCUBE_TOPO_MESH:
				want = abs((int)sr - (int)dr) +
				       abs((int)sc - (int)dc);
				break;
			case VCUBE_TOPO_TORUS:
				want = (dc + t.cols - sc) % t.cols +
				       (dr + t.rows - sr) % t.rows;
				break;
			default:
				for (lca = 0; (s >> (2 * lca)) != (d >> (2 * lca));)
					lca++;
				want = 2 * lca;
				break;
			}
			KUNIT_ASSERT_EQ_MSG(test, (u32)hops, want, "%u->%u", s,
					    d);
			KUNIT_ASSERT_EQ(test,
					vcube_topo_distance(&t, s, d), want);
		}
	}
}

/*
 * Fat tree: a route depends only on (seed, src, dst, cookie); the up links
 * are chosen at random among the parents, the way down is fixed by the
 * switch reached at the top.
 */
static void vcube_route_fattree_random_up(struct kunit *test)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_FATTREE,
				       .nodes = 64, .seed = 7 };
	u32 a[8], b[8], lanes[2] = { 0 }, tops[8] = { 0 };
	struct vcube_chan_info ci;
	struct vcube_topo t, t2;
	u64 cookie;
	int n, i, differ = 0;

	init_or_fail(test, &t, &p);
	p.seed = 8;
	init_or_fail(test, &t2, &p);
	for (cookie = 0; cookie < 256; cookie++) {
		n = vcube_topo_route(&t, 0, 63, cookie, a, 8);
		KUNIT_ASSERT_EQ(test, n, 6);
		KUNIT_ASSERT_EQ(test, vcube_topo_route(&t, 0, 63, cookie, b, 8),
				n);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, a[i], b[i]);
		vcube_topo_route(&t2, 0, 63, cookie, b, 8);
		differ += memcmp(a, b, sizeof(u32) * n) != 0;
		vcube_topo_chan_info(&t, a[0], &ci);
		lanes[ci.lane]++;
		vcube_topo_chan_info(&t, a[2], &ci);
		KUNIT_ASSERT_EQ(test, ci.to_level, (u8)3);
		tops[ci.lane]++;
		/* Down: lane at each level is the top switch / parents. */
		vcube_topo_chan_info(&t, a[3], &ci);
		KUNIT_EXPECT_EQ(test, ci.dir, 1U);
		vcube_topo_chan_info(&t, a[2], &ci);
		i = ci.lane;
		vcube_topo_chan_info(&t, a[3], &ci);
		KUNIT_EXPECT_EQ(test, (int)ci.lane, i);
		vcube_topo_chan_info(&t, a[4], &ci);
		KUNIT_EXPECT_EQ(test, (int)ci.lane, i / 2);
		vcube_topo_chan_info(&t, a[5], &ci);
		KUNIT_EXPECT_EQ(test, (int)ci.lane, i / 4);
	}
	KUNIT_EXPECT_GT(test, differ, 0);
	/* Both of node 0's up links and all 8 top switches get used. */
	KUNIT_EXPECT_GT(test, lanes[0], 64U);
	KUNIT_EXPECT_GT(test, lanes[1], 64U);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_GT_MSG(test, tops[i], 8U, "top switch %d", i);
}

static void vcube_route_bad_input(struct kunit *test)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 3 };
	struct vcube_topo t;
	u32 chan[3];

	init_or_fail(test, &t, &p);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 8, 0, 0, chan, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 0, 8, 0, chan, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 0, 7, 0, chan, 2), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vcube_topo_route(&t, 0, 7, 0, chan, 3), 3);
}

static struct kunit_case vcube_route_cases[] = {
	KUNIT_CASE_PARAM(vcube_route_paths, path_gen_params),
	KUNIT_CASE(vcube_route_bokhari_shared_edge),
	KUNIT_CASE(vcube_route_fig5),
	KUNIT_CASE_PARAM(vcube_route_all_pairs, all_pairs_gen_params),
	KUNIT_CASE(vcube_route_fattree_random_up),
	KUNIT_CASE(vcube_route_bad_input),
	{}
};

static struct kunit_suite vcube_route_suite = {
	.name = "vcube_route",
	.test_cases = vcube_route_cases,
};

kunit_test_suite(vcube_route_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for vcube routing");
