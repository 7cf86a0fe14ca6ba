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

/*
 * Fat trees in SimGrid's notation (levels= down= up= links=), every pair
 * checked hop by hop against the rule, computed here from the lists:
 * each channel leaves the vertex (tree node, level) the previous one
 * reached and the switch it reached (a lane is parent switch * p + j; a
 * parent switch's child switch is it / w); up to the least common
 * ancestor, whose level is the highest digit (radix down[]) in which the
 * two labels differ, plus one, then down: 2 * that level channels; at
 * each level up, the port q = b + j * w is d-mod-k's (dst / (w1 ... wk))
 * mod (w * p), and down takes the parallel link j taken up at that level.
 */
struct pgft_case {
	const char *name;
	struct vcube_topo_params p;
	u32 step;		/* sources every @step; 1: every pair */
};

static void pgft_case_desc(const struct pgft_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

#define PGFT(l, r, d, u, k) { .kind = VCUBE_TOPO_FATTREE, .levels = l,	\
	.ndown = l, .nup = l, .nlinks = l, .down = d, .up = u, .links = k,	\
	.routing = VCUBE_FT_##r, .seed = 11 }
#define L(...) { __VA_ARGS__ }

static const struct pgft_case pgft_cases[] = {
	{ "1;4;1;1 dmodk", PGFT(1, DMODK, L(4), L(1), L(1)), 1 },
	{ "1;5;3;2 dmodk", PGFT(1, DMODK, L(5), L(3), L(2)), 1 },
	{ "2;4,4;1,2;1,2 dmodk", PGFT(2, DMODK, L(4, 4), L(1, 2), L(1, 2)), 1 },
	{ "2;4,4;1,2;1,2 random", PGFT(2, RANDOM, L(4, 4), L(1, 2), L(1, 2)),
	  1 },
	{ "2;3,5;2,3;2,1 dmodk", PGFT(2, DMODK, L(3, 5), L(2, 3), L(2, 1)), 1 },
	{ "3;2,3,4;1,2,3;1,2,1 dmodk",
	  PGFT(3, DMODK, L(2, 3, 4), L(1, 2, 3), L(1, 2, 1)), 1 },
	{ "3;2,3,4;1,2,3;1,2,1 random",
	  PGFT(3, RANDOM, L(2, 3, 4), L(1, 2, 3), L(1, 2, 1)), 1 },
	{ "3;4,1,4;2,2,1;1,1,3 dmodk",
	  PGFT(3, DMODK, L(4, 1, 4), L(2, 2, 1), L(1, 1, 3)), 1 },
	{ "2;16,16;1,16;1,1 dmodk",
	  PGFT(2, DMODK, L(16, 16), L(1, 16), L(1, 1)), 1 },
	{ "6;2,2,2,2,2,2;1,2,1,2,1,2;2,1,2,1,2,1 dmodk",
	  PGFT(6, DMODK, L(2, 2, 2, 2, 2, 2), L(1, 2, 1, 2, 1, 2),
	       L(2, 1, 2, 1, 2, 1)), 1 },
	{ "3;16,16,16;1,16,16;1,1,1 dmodk sampled",
	  PGFT(3, DMODK, L(16, 16, 16), L(1, 16, 16), L(1, 1, 1)), 257 },
	{ "6;4,4,4,4,4,4;1,2,2,4,4,4;1,1,2,1,1,1 random sampled",
	  PGFT(6, RANDOM, L(4, 4, 4, 4, 4, 4), L(1, 2, 2, 4, 4, 4),
	       L(1, 1, 2, 1, 1, 1)), 331 },
};

KUNIT_ARRAY_PARAM(pgft, pgft_cases, pgft_case_desc);

/* Level of the least common ancestor, from the labels' digits. */
static u32 pgft_lca(const struct vcube_topo_params *p, u32 s, u32 d)
{
	u32 k, l = 0;

	for (k = 0; k < p->levels; k++) {
		if (s % p->down[k] != d % p->down[k])
			l = k + 1;
		s /= p->down[k];
		d /= p->down[k];
	}
	return l;
}

static void pgft_check_route(struct kunit *test, const struct vcube_topo *t,
			     const struct vcube_topo_params *p, u32 s, u32 d)
{
	u32 chan[16], sw = 0, wk = 1, k, l, q, j, b, w, pl, up_j[8];
	struct vcube_chan_info ci;
	int i, hops;

	l = pgft_lca(p, s, d);
	hops = walk_route(test, t, s, d, s * 131 + d, NULL, 0);
	KUNIT_ASSERT_EQ_MSG(test, hops, (int)(2 * l), "%u->%u", s, d);
	KUNIT_ASSERT_EQ(test, vcube_topo_distance(t, s, d), 2 * l);
	vcube_topo_route(t, s, d, s * 131 + d, chan, ARRAY_SIZE(chan));
	for (i = 0; i < hops; i++) {
		k = i < l ? i : 2 * l - 1 - i;	/* the lower level */
		w = p->up[k];
		pl = p->links[k];
		vcube_topo_chan_info(t, chan[i], &ci);
		KUNIT_ASSERT_EQ_MSG(test, ci.dir, (u32)(i >= l), "%u->%u %d",
				    s, d, i);
		b = ci.lane / pl;	/* the parent switch */
		j = ci.lane % pl;
		if (i < l) {
			KUNIT_ASSERT_EQ_MSG(test, b / w, sw, "%u->%u hop %d",
					    s, d, i);
			q = b % w + j * w;
			if (p->routing == VCUBE_FT_DMODK)
				KUNIT_EXPECT_EQ_MSG(test, q, d / wk % (w * pl),
						    "%u->%u hop %d", s, d, i);
			up_j[k] = j;
			wk *= w;
			sw = b;
		} else {
			KUNIT_ASSERT_EQ_MSG(test, b, sw, "%u->%u hop %d", s, d,
					    i);
			KUNIT_EXPECT_EQ_MSG(test, j, up_j[k], "%u->%u hop %d",
					    s, d, i);
			sw = b / w;
		}
	}
}

static void vcube_route_pgft(struct kunit *test)
{
	const struct pgft_case *c = test->param_value;
	struct vcube_topo t;
	u32 s, d;

	init_or_fail(test, &t, &c->p);
	for (s = 0; s < t.nodes; s += c->step)
		for (d = 0; d < t.nodes; d++)
			pgft_check_route(test, &t, &c->p, s, d);
	for (d = 0; d < t.nodes; d++)
		pgft_check_route(test, &t, &c->p, t.nodes - 1, d);
}

/*
 * Zahavi's theorem, which d-mod-k is for: on a fat tree whose every
 * switch has as many ports up as down (w(i+1) * p(i+1) == m(i)), every
 * shift d = s + c mod N is routed with no two routes on one channel.
 */
static void vcube_route_pgft_shift(struct kunit *test)
{
	static const struct vcube_topo_params full[] = {
		PGFT(2, DMODK, L(4, 4), L(1, 4), L(1, 1)),
		PGFT(2, DMODK, L(4, 4), L(1, 2), L(1, 2)),
		PGFT(3, DMODK, L(4, 4, 4), L(1, 4, 4), L(1, 1, 1)),
		PGFT(3, DMODK, L(3, 4, 2), L(1, 3, 2), L(1, 1, 2)),
	};
	u32 chan[16], s, c, i, f;
	struct vcube_topo t;
	u8 *used;
	int n, h;

	for (f = 0; f < ARRAY_SIZE(full); f++) {
		init_or_fail(test, &t, &full[f]);
		used = kunit_kzalloc(test, t.nchan, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, used);
		for (c = 1; c < t.nodes; c++) {
			memset(used, 0, t.nchan);
			for (s = 0; s < t.nodes; s++) {
				n = vcube_topo_route(&t, s, (s + c) % t.nodes,
						     0, chan, 16);
				for (h = 0; h < n; h++) {
					i = chan[h];
					KUNIT_EXPECT_EQ_MSG(test, used[i], 0,
							    "tree %u shift %u: %u twice",
							    f, c, i);
					used[i] = 1;
				}
			}
		}
	}
}

/*
 * Random up-routing: a pure function of (seed, src, dst, cookie), another
 * seed gives other routes, and every up-port of a switch is taken.
 */
static void vcube_route_pgft_random(struct kunit *test)
{
	struct vcube_topo_params p = PGFT(2, RANDOM, L(4, 4), L(2, 3), L(2, 1));
	u32 a[4], b[4], ports[3] = { 0 };
	struct vcube_chan_info ci;
	struct vcube_topo t, t2;
	int differ = 0, n, i;
	u64 cookie;

	init_or_fail(test, &t, &p);
	p.seed = 12;
	init_or_fail(test, &t2, &p);
	for (cookie = 0; cookie < 600; cookie++) {
		n = vcube_topo_route(&t, 1, 14, cookie, a, 4);
		KUNIT_ASSERT_EQ(test, n, 4);
		KUNIT_ASSERT_EQ(test, vcube_topo_route(&t, 1, 14, cookie, b, 4),
				4);
		KUNIT_EXPECT_EQ(test, memcmp(a, b, sizeof(a)), 0);
		vcube_topo_route(&t2, 1, 14, cookie, b, 4);
		differ += memcmp(a, b, sizeof(a)) != 0;
		/* the level-1 switch's parent, of 3 (one link to each) */
		vcube_topo_chan_info(&t, a[1], &ci);
		ports[ci.lane % 3]++;
	}
	KUNIT_EXPECT_GT(test, differ, 300);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_GT_MSG(test, ports[i], 150U, "port %d", i);
}

/*
 * The CM-5's nodes=N is SimGrid's down=4,...,4 up=2,2,2,4,... links=1,...
 * with random up-routing: for a power of four, the same channels and the
 * same routes, one by one; "nodes=64 levels=3" names it too.
 */
static void vcube_route_pgft_is_cm5(struct kunit *test)
{
	static const struct {
		struct vcube_topo_params cm5, pgft;
	} cases[] = {
		{ { .kind = VCUBE_TOPO_FATTREE, .nodes = 64, .seed = 5 },
		  PGFT(3, RANDOM, L(4, 4, 4), L(2, 2, 2), L(1, 1, 1)) },
		{ { .kind = VCUBE_TOPO_FATTREE, .nodes = 256, .seed = 5 },
		  PGFT(4, RANDOM, L(4, 4, 4, 4), L(2, 2, 2, 4), L(1, 1, 1, 1)) },
		{ { .kind = VCUBE_TOPO_FATTREE, .nodes = 16, .levels = 2,
		    .seed = 5 },
		  PGFT(2, RANDOM, L(4, 4), L(2, 2), L(1, 1)) },
	};
	struct vcube_chan_info x, y;
	struct vcube_topo a, b;
	u32 ca[16], cb[16], s, d, ch, i;
	int na, nb;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vcube_topo_params q = cases[i].pgft;

		q.seed = 5;
		init_or_fail(test, &a, &cases[i].cm5);
		init_or_fail(test, &b, &q);
		KUNIT_ASSERT_EQ(test, a.nodes, b.nodes);
		KUNIT_ASSERT_EQ(test, a.nchan, b.nchan);
		KUNIT_ASSERT_EQ(test, a.nbundles, b.nbundles);
		for (ch = 0; ch < a.nchan; ch++) {
			vcube_topo_chan_info(&a, ch, &x);
			vcube_topo_chan_info(&b, ch, &y);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(&x, &y, sizeof(x)), 0,
					    "channel %u", ch);
		}
		for (s = 0; s < a.nodes; s += 3)
			for (d = 0; d < a.nodes; d++) {
				na = vcube_topo_route(&a, s, d, s ^ d, ca, 16);
				nb = vcube_topo_route(&b, s, d, s ^ d, cb, 16);
				KUNIT_ASSERT_EQ(test, na, nb);
				KUNIT_EXPECT_EQ_MSG(test,
						    memcmp(ca, cb, na * 4), 0,
						    "%u->%u", s, d);
			}
	}
}

/*
 * k-ary n-cubes made with dims=: X (dims[0]) varies fastest in the label;
 * every pair's route is checked hop by hop against the rule, computed
 * here from coordinates: dimension order (X first), one hop to a
 * neighbour along the channel's dimension each time, on a mesh straight
 * there, on a torus the shorter way round, a tie (distance exactly k / 2)
 * the + way.
 */
struct kary_case {
	const char *name;
	struct vcube_topo_params p;
	u32 step_src, step_dst;		/* 1: every pair; else a sample */
};

static void kary_case_desc(const struct kary_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

#define KARY(k, n, ...) { .kind = VCUBE_TOPO_##k, .ndims = n, \
			  .dims = { __VA_ARGS__ } }

static const struct kary_case kary_cases[] = {
	{ "torus ring 5", KARY(TORUS, 1, 5), 1, 1 },
	{ "torus ring 6", KARY(TORUS, 1, 6), 1, 1 },
	{ "mesh line 6", KARY(MESH, 1, 6), 1, 1 },
	{ "torus 2x3", KARY(TORUS, 2, 2, 3), 1, 1 },
	{ "torus 4x4x4", KARY(TORUS, 3, 4, 4, 4), 1, 1 },
	{ "torus 3x5x2", KARY(TORUS, 3, 3, 5, 2), 1, 1 },
	{ "mesh 3x5x2", KARY(MESH, 3, 3, 5, 2), 1, 1 },
	{ "mesh 4x4x4", KARY(MESH, 3, 4, 4, 4), 1, 1 },
	{ "torus 2x2x2x2x2x2", KARY(TORUS, 6, 2, 2, 2, 2, 2, 2), 1, 1 },
	{ "mesh 2x2x2x2x2x2", KARY(MESH, 6, 2, 2, 2, 2, 2, 2), 1, 1 },
	{ "torus 3x2x4x2x3x2", KARY(TORUS, 6, 3, 2, 4, 2, 3, 2), 1, 1 },
	{ "torus 16x16x16 sampled", KARY(TORUS, 3, 16, 16, 16), 37, 41 },
	{ "mesh 16x16x16 sampled", KARY(MESH, 3, 16, 16, 16), 37, 41 },
	{ "torus ring 4096 sampled", KARY(TORUS, 1, 4096), 127, 13 },
};

KUNIT_ARRAY_PARAM(kary, kary_cases, kary_case_desc);

static u32 kary_coord(const struct vcube_topo_params *p, u32 node, u32 d)
{
	u32 i;

	for (i = 0; i < d; i++)
		node /= p->dims[i];
	return node % p->dims[d];
}

static u32 kary_stride(const struct vcube_topo_params *p, u32 d)
{
	u32 i, st = 1;

	for (i = 0; i < d; i++)
		st *= p->dims[i];
	return st;
}

static void kary_check_pair(struct kunit *test, const struct vcube_topo *t,
			    const struct vcube_topo_params *p, u32 s, u32 d,
			    u32 *chan, u32 max)
{
	bool torus = p->kind == VCUBE_TOPO_TORUS;
	u32 i, j, at = s, k, a, b, fwd, want = 0, moved = 0;
	u32 hops_in[VCUBE_GRID_MAX_DIMS] = { 0 };
	int sign[VCUBE_GRID_MAX_DIMS] = { 0 };
	struct vcube_chan_info ci;
	u32 last_dim = 0;
	int n;

	n = vcube_topo_route(t, s, d, 0, chan, max);
	KUNIT_ASSERT_GE_MSG(test, n, 0, "%u->%u", s, d);
	for (i = 0; i < (u32)n; i++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(t, chan[i], &ci), 0);
		KUNIT_ASSERT_EQ_MSG(test, ci.from, at, "%u->%u hop %u", s, d, i);
		KUNIT_ASSERT_LT(test, ci.dir, 2 * p->ndims);
		j = ci.dir / 2;
		/* dimension order: never back to a lower dimension */
		KUNIT_ASSERT_GE_MSG(test, j, last_dim, "%u->%u hop %u", s, d,
				    i);
		last_dim = j;
		/* one step along dimension j, the way dir says, nothing else */
		k = p->dims[j];
		a = kary_coord(p, ci.from, j);
		b = kary_coord(p, ci.to, j);
		KUNIT_ASSERT_EQ_MSG(test, b, ci.dir & 1 ? (a + k - 1) % k :
				    (a + 1) % k, "%u->%u hop %u", s, d, i);
		if (!torus)
			KUNIT_ASSERT_TRUE_MSG(test, ci.dir & 1 ? a > 0 : a + 1 < k,
					      "%u->%u hop %u past the edge", s,
					      d, i);
		KUNIT_ASSERT_EQ_MSG(test, (int)ci.to - (int)ci.from,
				    ((int)b - (int)a) * (int)kary_stride(p, j),
				    "%u->%u hop %u moves another coordinate",
				    s, d, i);
		/* every hop in a dimension goes the same way */
		if (!sign[j])
			sign[j] = ci.dir & 1 ? -1 : 1;
		KUNIT_ASSERT_EQ_MSG(test, sign[j], ci.dir & 1 ? -1 : 1,
				    "%u->%u hop %u turns back", s, d, i);
		hops_in[j]++;
		at = ci.to;
	}
	KUNIT_ASSERT_EQ_MSG(test, at, d, "%u->%u ends elsewhere", s, d);
	for (j = 0; j < p->ndims; j++) {
		k = p->dims[j];
		a = kary_coord(p, s, j);
		b = kary_coord(p, d, j);
		if (a == b) {
			KUNIT_EXPECT_EQ(test, hops_in[j], 0U);
			continue;
		}
		fwd = (b + k - a) % k;
		if (!torus) {
			KUNIT_EXPECT_EQ_MSG(test, sign[j], b > a ? 1 : -1,
					    "%u->%u dim %u", s, d, j);
			want = b > a ? b - a : a - b;
		} else if (2 * fwd <= k) {	/* shorter, or a tie: + */
			KUNIT_EXPECT_EQ_MSG(test, sign[j], 1, "%u->%u dim %u",
					    s, d, j);
			want = fwd;
		} else {
			KUNIT_EXPECT_EQ_MSG(test, sign[j], -1, "%u->%u dim %u",
					    s, d, j);
			want = k - fwd;
		}
		KUNIT_EXPECT_EQ_MSG(test, hops_in[j], want, "%u->%u dim %u", s,
				    d, j);
		moved += want;
	}
	KUNIT_EXPECT_EQ_MSG(test, (u32)n, moved, "%u->%u", s, d);
	KUNIT_EXPECT_EQ_MSG(test, vcube_topo_distance(t, s, d), moved,
			    "%u->%u", s, d);
	KUNIT_EXPECT_LE_MSG(test, moved, vcube_topo_diameter(t), "%u->%u", s,
			    d);
}

static void vcube_route_kary(struct kunit *test)
{
	const struct kary_case *c = test->param_value;
	struct vcube_topo t;
	u32 s, d, *chan;

	init_or_fail(test, &t, &c->p);
	KUNIT_ASSERT_EQ(test, t.ndims, c->p.ndims);
	chan = kunit_kzalloc(test, sizeof(*chan) * VCUBE_MAX_HOPS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, chan);
	for (s = 0; s < t.nodes; s += c->step_src)
		for (d = 0; d < t.nodes; d += c->step_dst)
			kary_check_pair(test, &t, &c->p, s, d, chan,
					VCUBE_MAX_HOPS);
}

/* Routes of k-ary n-cubes made with dims=, node by node (labels X first). */
static const struct path_case kary_path_cases[] = {
	/* a ring of 6: 3 away is the tie, taken the + way */
	{ "ring6 4->1", KARY(TORUS, 1, 6), 4, { 4, 5, 0, 1 } },
	{ "ring6 1->4", KARY(TORUS, 1, 6), 4, { 1, 2, 3, 4 } },
	{ "ring6 1->5", KARY(TORUS, 1, 6), 3, { 1, 0, 5 } },
	{ "ring5 0->3", KARY(TORUS, 1, 5), 3, { 0, 4, 3 } },
	{ "line5 4->0", KARY(MESH, 1, 5), 5, { 4, 3, 2, 1, 0 } },
	/* (0,0,0) -> (3,2,1): -x once, a tie in y (+), +z */
	{ "torus4x4x4 0->27", KARY(TORUS, 3, 4, 4, 4), 5,
	  { 0, 3, 7, 11, 27 } },
	/* (3,3,3) -> (1,1,1): a tie in every dimension, wrapping each time */
	{ "torus4x4x4 63->21", KARY(TORUS, 3, 4, 4, 4), 7,
	  { 63, 60, 61, 49, 53, 5, 21 } },
	/* (2,4,1) -> (0,0,0) */
	{ "mesh3x5x2 29->0", KARY(MESH, 3, 3, 5, 2), 8,
	  { 29, 28, 27, 24, 21, 18, 15, 0 } },
	/* six dimensions of 2: a hop per differing bit, the lowest first */
	{ "torus2^6 0->63", KARY(TORUS, 6, 2, 2, 2, 2, 2, 2), 7,
	  { 0, 1, 3, 7, 15, 31, 63 } },
	{ "mesh2^6 42->21", KARY(MESH, 6, 2, 2, 2, 2, 2, 2), 7,
	  { 42, 43, 41, 45, 37, 53, 21 } },
};

KUNIT_ARRAY_PARAM(kary_path, kary_path_cases, path_case_desc);

/*
 * dims=C,R is the network rows=R cols=C: the same channels, numbered the
 * same, and on a mesh the same routes. The AP1000's torus (rows=, cols=)
 * routes only east and south; a dims= torus's route is the same where that
 * one is a shortest one, and shorter where it is not.
 */
static void vcube_route_dims_2d(struct kunit *test)
{
	const struct shape_case *c = test->param_value;
	struct vcube_topo_params p = { .kind = c->p.kind, .rows = c->p.dims[1],
				       .cols = c->p.dims[0] };
	u32 s, d, ch, a[64], b[64], na1[8], nb1[8], cols = p.cols;
	u32 rows = p.rows, fx, fy;
	struct vcube_chan_info ci, cj;
	struct vcube_topo old, t;
	int na, nb, i;

	init_or_fail(test, &old, &p);
	init_or_fail(test, &t, &c->p);
	KUNIT_ASSERT_EQ(test, t.nodes, old.nodes);
	KUNIT_ASSERT_EQ(test, t.nchan, old.nchan);
	for (ch = 0; ch < t.nchan; ch++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&old, ch, &ci), 0);
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&t, ch, &cj), 0);
		KUNIT_EXPECT_TRUE_MSG(test, ci.from == cj.from &&
				      ci.to == cj.to && ci.dir == cj.dir,
				      "channel %u", ch);
	}
	for (s = 0; s < t.nodes; s++) {
		na = vcube_topo_neighbors(&old, s, na1, ARRAY_SIZE(na1));
		nb = vcube_topo_neighbors(&t, s, nb1, ARRAY_SIZE(nb1));
		KUNIT_ASSERT_EQ(test, nb, na);
		for (i = 0; i < na; i++)
			KUNIT_EXPECT_EQ(test, nb1[i], na1[i]);
	}
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			na = vcube_topo_route(&old, s, d, 0, a, ARRAY_SIZE(a));
			nb = vcube_topo_route(&t, s, d, 0, b, ARRAY_SIZE(b));
			KUNIT_ASSERT_GE(test, na, 0);
			KUNIT_ASSERT_GE(test, nb, 0);
			fx = (d % cols + cols - s % cols) % cols;
			fy = (d / cols + rows - s / cols) % rows;
			if (t.kind == VCUBE_TOPO_TORUS &&
			    (2 * fx > cols || 2 * fy > rows)) {
				KUNIT_EXPECT_LT_MSG(test, nb, na, "%u->%u", s,
						    d);
				continue;
			}
			KUNIT_ASSERT_EQ_MSG(test, nb, na, "%u->%u", s, d);
			for (i = 0; i < na; i++)
				KUNIT_EXPECT_EQ_MSG(test, b[i], a[i],
						    "%u->%u hop %d", s, d, i);
		}
	}
}

static const struct shape_case dims_2d_cases[] = {
	{ "mesh 4x3", KARY(MESH, 2, 3, 4) },
	{ "torus 4x3", KARY(TORUS, 2, 3, 4) },
	{ "mesh 16x32", KARY(MESH, 2, 32, 16) },
	{ "torus 5x5", KARY(TORUS, 2, 5, 5) },
	{ "torus 2x2", KARY(TORUS, 2, 2, 2) },
	{ "torus 2x7", KARY(TORUS, 2, 7, 2) },
};

KUNIT_ARRAY_PARAM(dims_2d, dims_2d_cases, shape_case_desc);

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
	KUNIT_CASE_PARAM(vcube_route_pgft, pgft_gen_params),
	KUNIT_CASE(vcube_route_pgft_shift),
	KUNIT_CASE(vcube_route_pgft_random),
	KUNIT_CASE(vcube_route_pgft_is_cm5),
	KUNIT_CASE_PARAM(vcube_route_paths, kary_path_gen_params),
	KUNIT_CASE_PARAM(vcube_route_kary, kary_gen_params),
	KUNIT_CASE_PARAM(vcube_route_dims_2d, dims_2d_gen_params),
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
