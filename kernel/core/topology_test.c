// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite vcube_topology: parameter checking, channel numbering,
 * neighbours and the CM-5 fat tree's link counts.
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include "topology.h"

struct param_case {
	const char *name;
	struct vcube_topo_params p;
	int ret;
	u32 nodes;
	u32 nchan;
	const char *err;	/* a substring of the message, when ret < 0 */
};

static void param_case_desc(const struct param_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

#define K(k) .kind = VCUBE_TOPO_##k
#define DIMS(n, ...) .ndims = n, .dims = { __VA_ARGS__ }
/* a two-level fat tree: down=m1,m2 up=w1,w2 (links= all 1) */
#define FT2(m1, m2, w1, w2) .levels = 2, .ndown = 2, .down = { m1, m2 }, \
	.nup = 2, .up = { w1, w2 }
#define FTL(n, ...) .nlinks = n, .links = { __VA_ARGS__ }

static const struct param_case param_cases[] = {
	{ "hypercube d=5", { K(HYPERCUBE), .dim = 5 }, 0, 32, 160 },
	{ "hypercube d=1", { K(HYPERCUBE), .dim = 1 }, 0, 2, 2 },
	{ "hypercube d=12", { K(HYPERCUBE), .dim = 12 }, 0, 4096, 49152 },
	{ "hypercube dim=0", { K(HYPERCUBE) }, -EINVAL, 0, 0,
	  "needs dim=1..12" },
	{ "hypercube dim=13", { K(HYPERCUBE), .dim = 13 }, -EINVAL, 0, 0,
	  "dim=13 is too large" },
	{ "hypercube dim=40", { K(HYPERCUBE), .dim = 40 }, -EINVAL, 0, 0,
	  "too large" },
	{ "hypercube with rows", { K(HYPERCUBE), .dim = 3, .rows = 2 },
	  -EINVAL, 0, 0, "rows=/cols= do not apply to topology=hypercube" },
	{ "mesh 16x32", { K(MESH), .rows = 16, .cols = 32 }, 0, 512,
	  2 * (16 * 31 + 15 * 32) },
	{ "mesh 1x2", { K(MESH), .rows = 1, .cols = 2 }, 0, 2, 2 },
	{ "mesh rows missing", { K(MESH), .cols = 4 }, -EINVAL, 0, 0,
	  "topology=mesh needs rows= and cols=" },
	{ "mesh 1x1", { K(MESH), .rows = 1, .cols = 1 }, -EINVAL, 0, 0,
	  "at least 2 nodes" },
	{ "mesh too big", { K(MESH), .rows = 65, .cols = 64 }, -EINVAL, 0, 0,
	  "at most 4096 nodes" },
	{ "mesh overflow", { K(MESH), .rows = 65536, .cols = 65536 }, -EINVAL,
	  0, 0, "too large" },
	{ "mesh with dim", { K(MESH), .rows = 2, .cols = 2, .dim = 2 },
	  -EINVAL, 0, 0, "dim= does not apply to topology=mesh" },
	{ "torus 4x5", { K(TORUS), .rows = 4, .cols = 5 }, 0, 20, 80 },
	{ "torus 1x6 ring", { K(TORUS), .rows = 1, .cols = 6 }, 0, 6, 12 },
	{ "torus 6x1 ring", { K(TORUS), .rows = 6, .cols = 1 }, 0, 6, 12 },
	{ "torus cols missing", { K(TORUS), .rows = 4 }, -EINVAL, 0, 0,
	  "topology=torus needs rows= and cols=" },
	{ "fattree 64", { K(FATTREE), .nodes = 64 }, 0, 64,
	  2 * (128 + 64 + 32) },
	{ "fattree 32", { K(FATTREE), .nodes = 32 }, 0, 32,
	  2 * (64 + 32 + 16) },
	{ "fattree 5", { K(FATTREE), .nodes = 5 }, 0, 5, 2 * (10 + 8) },
	{ "fattree nodes=1", { K(FATTREE), .nodes = 1 }, -EINVAL, 0, 0,
	  "needs nodes=2..4096" },
	{ "fattree nodes=5000", { K(FATTREE), .nodes = 5000 }, -EINVAL, 0, 0,
	  "needs nodes=2..4096" },
	{ "fattree with cols", { K(FATTREE), .nodes = 16, .cols = 4 },
	  -EINVAL, 0, 0, "rows=/cols= do not apply to topology=fattree" },
	/* SimGrid's FAT_TREE "levels;down;up;links" */
	{ "fattree 2;16,16;1,16", { K(FATTREE), FT2(16, 16, 1, 16) }, 0, 256,
	  2 * (256 + 16 * 16) },
	{ "fattree 2;4,4;1,2;1,2",
	  { K(FATTREE), FT2(4, 4, 1, 2), FTL(2, 1, 2) }, 0, 16,
	  2 * (16 + 4 * 2 * 2) },
	{ "fattree 1;2;1", { K(FATTREE), .levels = 1, .ndown = 1,
	  .down = { 2 }, .nup = 1, .up = { 1 } }, 0, 2, 4 },
	{ "fattree 3;4,4,4;2,2,2 is nodes=64",
	  { K(FATTREE), .levels = 3, .ndown = 3, .down = { 4, 4, 4 },
	    .nup = 3, .up = { 2, 2, 2 } }, 0, 64, 2 * (128 + 64 + 32) },
	{ "fattree levels=0", { K(FATTREE), .levels = 0, .ndown = 1,
	  .down = { 4 }, .nup = 1, .up = { 1 } }, -EINVAL, 0, 0,
	  "needs levels=1..6 (got levels=0)" },
	{ "fattree levels=7", { K(FATTREE), .levels = 7, .ndown = 2 },
	  -EINVAL, 0, 0, "needs levels=1..6 (got levels=7)" },
	{ "fattree no up", { K(FATTREE), .levels = 1, .ndown = 1,
	  .down = { 4 } }, -EINVAL, 0, 0, "levels=1 needs down= and up=" },
	{ "fattree short down", { K(FATTREE), FT2(4, 4, 1, 2), .ndown = 1 },
	  -EINVAL, 0, 0, "down= has 1 values: levels=2 needs 2, one per level" },
	{ "fattree long up", { K(FATTREE), FT2(4, 4, 1, 2), .nup = 3 },
	  -EINVAL, 0, 0, "up= has 3 values: levels=2 needs 2" },
	{ "fattree short links", { K(FATTREE), FT2(4, 4, 1, 2), .nlinks = 1,
	  .links = { 1 } }, -EINVAL, 0, 0, "links= has 1 values" },
	{ "fattree up 0", { K(FATTREE), FT2(4, 4, 1, 0) }, -EINVAL, 0, 0,
	  "up= value 2 (level 2) is 0: each must be at least 1" },
	{ "fattree links 0", { K(FATTREE), FT2(4, 4, 1, 2), FTL(2, 1, 0) },
	  -EINVAL, 0, 0, "links= value 2 (level 2) is 0" },
	{ "fattree down 0", { K(FATTREE), FT2(0, 4, 1, 2) }, -EINVAL, 0, 0,
	  "down= value 1 (level 1) is 0" },
	{ "fattree 1 node", { K(FATTREE), FT2(1, 1, 1, 2) }, -EINVAL, 0, 0,
	  "down= makes 1 node: a fat tree needs at least 2" },
	{ "fattree 4097 nodes", { K(FATTREE), FT2(4097, 1, 1, 1) }, -EINVAL,
	  0, 0, "down= makes more than 4096 nodes" },
	{ "fattree nodes overflow", { K(FATTREE), FT2(65536, 65536, 1, 1) },
	  -EINVAL, 0, 0, "down= makes more than 4096 nodes" },
	{ "fattree channels", { K(FATTREE), FT2(64, 64, 64, 64) }, -EINVAL, 0,
	  0, "more than 131072 channels" },
	{ "fattree switches overflow",
	  { K(FATTREE), FT2(2, 2, 0x10000, 0x10000) }, -EINVAL, 0, 0,
	  "more than 131072 channels" },
	{ "fattree links overflow",
	  { K(FATTREE), FT2(2, 2, 1, 1), FTL(2, 0xffffffff, 0xffffffff) },
	  -EINVAL, 0, 0, "more than 131072 channels" },
	{ "fattree shape too long",
	  { K(FATTREE), .levels = 6, .ndown = 6,
	    .down = { 1, 1, 1, 1, 1, 2 }, .nup = 6,
	    .up = { 1, 1, 1, 1, 1, 1 }, .nlinks = 6,
	    .links = { 1000, 1000, 1000, 1000, 1000, 1000 } },
	  -EINVAL, 0, 0, "shape takes more than 63 characters" },
	{ "fattree nodes and down", { K(FATTREE), .nodes = 16, .ndown = 2,
	  .down = { 4, 4 } }, -EINVAL, 0, 0,
	  "takes nodes= or levels=/down=/up=/links=, not both" },
	{ "fattree nodes and other levels", { K(FATTREE), .nodes = 16,
	  .levels = 3 }, -EINVAL, 0, 0,
	  "nodes=16 is the CM-5's tree of 2 levels, not levels=3" },
	{ "fattree nodes and its levels", { K(FATTREE), .nodes = 16,
	  .levels = 2 }, 0, 16, 96 },
	{ "fattree nothing", { K(FATTREE) }, -EINVAL, 0, 0,
	  "needs nodes=2..4096, or levels=, down= and up=" },
	{ "fattree bad routing", { K(FATTREE), .nodes = 16,
	  .routing = VCUBE_FT_NROUTING }, -EINVAL, 0, 0, "routing" },
	{ "torus with levels", { K(TORUS), DIMS(1, 4), .levels = 2 }, -EINVAL,
	  0, 0, "levels=/down=/up=/links= do not apply to topology=torus" },
	{ "mesh with up", { K(MESH), DIMS(1, 4), .nup = 1, .up = { 1 } },
	  -EINVAL, 0, 0, "levels=/down=/up=/links= do not apply" },
	{ "hypercube with routing", { K(HYPERCUBE), .dim = 2,
	  .routing = VCUBE_FT_DMODK }, -EINVAL, 0, 0,
	  "routing= does not apply to topology=hypercube" },
	{ "unknown kind", { .kind = VCUBE_TOPO_NKINDS }, -EINVAL, 0, 0,
	  "unknown topology" },
	/* dims=: k-ary n-cubes of 1 to 6 dimensions */
	{ "torus dims=5", { K(TORUS), DIMS(1, 5) }, 0, 5, 10 },
	{ "torus dims=2", { K(TORUS), DIMS(1, 2) }, 0, 2, 4 },
	{ "mesh dims=2", { K(MESH), DIMS(1, 2) }, 0, 2, 2 },
	{ "torus dims=4,4,4", { K(TORUS), DIMS(3, 4, 4, 4) }, 0, 64, 384 },
	{ "mesh dims=3,5,2", { K(MESH), DIMS(3, 3, 5, 2) }, 0, 30,
	  2 * (10 * 2 + 6 * 4 + 15 * 1) },
	{ "torus dims=2^6", { K(TORUS), DIMS(6, 2, 2, 2, 2, 2, 2) }, 0, 64,
	  64 * 12 },
	{ "torus dims=16,16,16", { K(TORUS), DIMS(3, 16, 16, 16) }, 0, 4096,
	  4096 * 6 },
	{ "mesh dims=4096", { K(MESH), DIMS(1, 4096) }, 0, 4096, 2 * 4095 },
	{ "mesh dims=8,4 is rows=4 cols=8", { K(MESH), DIMS(2, 8, 4) }, 0, 32,
	  2 * (4 * 7 + 3 * 8) },
	{ "torus 7 dims", { K(TORUS), DIMS(7, 2, 2, 2, 2, 2, 2) }, -EINVAL, 0,
	  0, "at most 6 dimensions" },
	{ "torus dims size 1", { K(TORUS), DIMS(3, 4, 1, 4) }, -EINVAL, 0, 0,
	  "size 1 of dimension 2: each size must be at least 2" },
	{ "mesh dims size 0", { K(MESH), DIMS(2, 0, 4) }, -EINVAL, 0, 0,
	  "each size must be at least 2" },
	{ "torus dims too big", { K(TORUS), DIMS(3, 16, 16, 17) }, -EINVAL, 0,
	  0, "at most 4096 nodes" },
	{ "mesh dims overflow", { K(MESH), DIMS(3, 65536, 65536, 2) },
	  -EINVAL, 0, 0, "at most 4096 nodes" },
	{ "torus dims and rows", { K(TORUS), DIMS(2, 4, 4), .rows = 4 },
	  -EINVAL, 0, 0, "topology=torus takes dims= or rows=/cols=, not both" },
	{ "hypercube with dims", { K(HYPERCUBE), .dim = 3, DIMS(1, 8) },
	  -EINVAL, 0, 0, "dims= does not apply to topology=hypercube" },
	{ "fattree with dims", { K(FATTREE), .nodes = 16, DIMS(1, 16) },
	  -EINVAL, 0, 0, "dims= does not apply to topology=fattree" },
};

KUNIT_ARRAY_PARAM(param, param_cases, param_case_desc);

static void vcube_topology_params(struct kunit *test)
{
	const struct param_case *c = test->param_value;
	char err[128] = "";
	struct vcube_topo t;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &c->p, err, sizeof(err)),
			c->ret);
	if (c->ret) {
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, c->err),
					  "message was \"%s\"", err);
		return;
	}
	KUNIT_EXPECT_EQ(test, t.nodes, c->nodes);
	KUNIT_EXPECT_EQ(test, t.nchan, c->nchan);
}

static void vcube_topology_kind_names(struct kunit *test)
{
	int k;

	for (k = 0; k < VCUBE_TOPO_NKINDS; k++)
		KUNIT_EXPECT_EQ(test,
				vcube_topo_kind_parse(vcube_topo_kind_name(k)),
				k);
	KUNIT_EXPECT_EQ(test, vcube_topo_kind_parse("ring"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vcube_topo_kind_parse(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, vcube_topo_kind_parse(NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, vcube_topo_kind_name(VCUBE_TOPO_NKINDS),
			   "unknown");
}

struct ft_case {
	u32 nodes;
	u32 levels;
	u32 links[VCUBE_FT_MAX_LEVELS];	/* between level k and k + 1 */
};

static void ft_case_desc(const struct ft_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "fattree %u", c->nodes);
}

/*
 * CM-5 (Ponnusamy et al.): two links from each processor, 16 from a
 * cluster of 16 to level 2, 8 from a level-2 node to level 3, 32 up and
 * 32 down at a level-3 node.
 */
static const struct ft_case ft_cases[] = {
	{ 16, 2, { 32, 16 } },
	{ 64, 3, { 128, 64, 32 } },
	{ 256, 4, { 512, 256, 128, 128 } },
};

KUNIT_ARRAY_PARAM(ft, ft_cases, ft_case_desc);

static void vcube_topology_fattree_links(struct kunit *test)
{
	const struct ft_case *c = test->param_value;
	struct vcube_topo_params p = { K(FATTREE), .nodes = c->nodes };
	u32 k, w0, total = 0, up[VCUBE_FT_MAX_LEVELS] = { 0 };
	struct vcube_chan_info ci;
	struct vcube_topo t;
	u32 ch;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &p, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, t.ft.levels, c->levels);
	for (k = 0; k < c->levels; k++) {
		KUNIT_EXPECT_EQ_MSG(test, vcube_topo_level_links(&t, k),
				    c->links[k], "level %u", k);
		total += c->links[k];
	}
	KUNIT_EXPECT_EQ(test, vcube_topo_level_links(&t, c->levels), 0U);
	KUNIT_EXPECT_EQ(test, t.nchan, 2 * total);

	/* Per tree node: a cluster of 16 has 8 links up from level 2. */
	if (c->levels >= 3)
		KUNIT_EXPECT_EQ(test, t.ft.width[3], 8U);
	if (c->levels >= 4)
		KUNIT_EXPECT_EQ(test, t.ft.width[4], 32U);

	/* Count the up channels leaving tree node 0 at each level. */
	for (ch = 0; ch < t.nchan; ch++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&t, ch, &ci), 0);
		if (!ci.dir && ci.from == 0)
			up[ci.from_level]++;
	}
	KUNIT_EXPECT_EQ(test, up[0], 2U);
	KUNIT_EXPECT_EQ(test, up[1], 4U);

	/* Every channel's bundle runs where the channel does. */
	for (ch = 0; ch < t.nchan; ch++) {
		struct vcube_chan_info bi;
		u32 b, w, bw;

		vcube_topo_chan_info(&t, ch, &ci);
		b = vcube_topo_bundle(&t, ch, &w);
		KUNIT_ASSERT_LT(test, b, t.nbundles);
		KUNIT_ASSERT_EQ(test, vcube_topo_bundle_info(&t, b, &bi, &bw), 0);
		KUNIT_EXPECT_EQ(test, bw, w);
		KUNIT_EXPECT_TRUE_MSG(test, bi.from == ci.from &&
				      bi.to == ci.to &&
				      bi.from_level == ci.from_level &&
				      bi.to_level == ci.to_level &&
				      bi.dir == ci.dir, "channel %u", ch);
	}
	KUNIT_EXPECT_EQ(test, vcube_topo_bundle_info(&t, t.nbundles, &ci, &w0),
			-EINVAL);
	if (c->levels >= 3)
		KUNIT_EXPECT_EQ(test, up[2], 8U);
	if (c->levels >= 4)
		KUNIT_EXPECT_EQ(test, up[3], 32U);
}

struct chan_case {
	const char *name;
	struct vcube_topo_params p;
};

static void chan_case_desc(const struct chan_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

static const struct chan_case chan_cases[] = {
	{ "hypercube d=4", { K(HYPERCUBE), .dim = 4 } },
	{ "mesh 4x5", { K(MESH), .rows = 4, .cols = 5 } },
	{ "mesh 1x7", { K(MESH), .rows = 1, .cols = 7 } },
	{ "mesh 7x1", { K(MESH), .rows = 7, .cols = 1 } },
	{ "torus 5x5", { K(TORUS), .rows = 5, .cols = 5 } },
	{ "torus 2x3", { K(TORUS), .rows = 2, .cols = 3 } },
	{ "torus 1x5", { K(TORUS), .rows = 1, .cols = 5 } },
	{ "torus 5x1", { K(TORUS), .rows = 5, .cols = 1 } },
	{ "fattree 21", { K(FATTREE), .nodes = 21 } },
	{ "fattree 2;3,5;2,3;2,1", { K(FATTREE), .levels = 2, .ndown = 2,
	  .down = { 3, 5 }, .nup = 2, .up = { 2, 3 }, FTL(2, 2, 1) } },
	{ "fattree 3;2,2,2;1,2,2;1,3,1", { K(FATTREE), .levels = 3,
	  .ndown = 3, .down = { 2, 2, 2 }, .nup = 3, .up = { 1, 2, 2 },
	  FTL(3, 1, 3, 1) } },
};

KUNIT_ARRAY_PARAM(chan, chan_cases, chan_case_desc);

/*
 * Channel ids are dense and each names a different (tail, direction, head,
 * lane);
 * every channel of the direct networks joins two neighbours.
 */
static void vcube_topology_channels(struct kunit *test)
{
	const struct chan_case *c = test->param_value;
	struct vcube_chan_info ci;
	struct vcube_topo t;
	u32 ch, i, nb[8];
	u8 *seen;
	int n;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &c->p, NULL, 0), 0);
	seen = kunit_kzalloc(test, (size_t)t.nodes * 4 * 4 * 8 * 64,
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (ch = 0; ch < t.nchan; ch++) {
		u32 key;

		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&t, ch, &ci), 0);
		/* A fat tree node's down channels differ by child too. */
		key = (((ci.from * 4 + ci.from_level) * 4 + ci.dir) * 8 +
		       ci.to % 8) * 64 + ci.lane;
		KUNIT_EXPECT_EQ_MSG(test, seen[key], 0, "channel %u", ch);
		seen[key] = 1;
		if (t.kind == VCUBE_TOPO_FATTREE)
			continue;
		n = vcube_topo_neighbors(&t, ci.from, nb, ARRAY_SIZE(nb));
		KUNIT_ASSERT_GT(test, n, 0);
		for (i = 0; i < n && nb[i] != ci.to; i++)
			;
		KUNIT_EXPECT_LT_MSG(test, i, (u32)n, "channel %u: %u->%u", ch,
				    ci.from, ci.to);
	}
	KUNIT_EXPECT_EQ(test, vcube_topo_chan_info(&t, t.nchan, &ci), -EINVAL);
}

static void vcube_topology_neighbors(struct kunit *test)
{
	struct vcube_topo_params mesh = { K(MESH), .rows = 4, .cols = 5 };
	struct vcube_topo_params torus = { K(TORUS), .rows = 2, .cols = 2 };
	struct vcube_topo_params cube = { K(HYPERCUBE), .dim = 5 };
	struct vcube_topo_params ft = { K(FATTREE), .nodes = 6 };
	struct vcube_topo t;
	u32 nb[8];

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &cube, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, vcube_topo_neighbors(&t, 5, nb, 8), 5);
	KUNIT_EXPECT_EQ(test, nb[0], 4U);
	KUNIT_EXPECT_EQ(test, nb[4], 21U);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 5, nb, 4), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 32, nb, 8), -EINVAL);

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &mesh, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 0, nb, 8), 2);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 2, nb, 8), 3);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 7, nb, 8), 4);
	KUNIT_EXPECT_EQ(test, nb[0], 2U);	/* north, west, east, south */
	KUNIT_EXPECT_EQ(test, nb[1], 6U);
	KUNIT_EXPECT_EQ(test, nb[2], 8U);
	KUNIT_EXPECT_EQ(test, nb[3], 12U);

	/* A 2x2 torus: east and west reach the same node, listed once. */
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &torus, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, vcube_topo_neighbors(&t, 0, nb, 8), 2);
	KUNIT_EXPECT_EQ(test, nb[0], 2U);
	KUNIT_EXPECT_EQ(test, nb[1], 1U);

	/* Fat tree: the rest of the cluster of four, cut at the last node. */
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &ft, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 1, nb, 8), 3);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 5, nb, 8), 1);
	KUNIT_EXPECT_EQ(test, nb[0], 4U);
}

static void vcube_topology_format(struct kunit *test)
{
	struct vcube_topo_params cube = { K(HYPERCUBE), .dim = 3 };
	struct vcube_topo_params mesh = { K(MESH), .rows = 16, .cols = 32 };
	struct vcube_topo_params ft = { K(FATTREE), .nodes = 64 };
	struct vcube_topo t;
	char buf[32];

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &cube, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, 2, buf, 32), 3);
	KUNIT_EXPECT_STREQ(test, buf, "010");
	KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, 2, buf, 3),
			-ENOSPC);
	vcube_topo_format_shape(&t, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "dim=3");
	KUNIT_EXPECT_EQ(test, vcube_topo_diameter(&t), 3U);

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &mesh, NULL, 0), 0);
	vcube_topo_format_coords(&t, 37, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1 5");
	vcube_topo_format_shape(&t, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "rows=16 cols=32");
	KUNIT_EXPECT_EQ(test, vcube_topo_diameter(&t), 46U);

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &ft, NULL, 0), 0);
	vcube_topo_format_coords(&t, 27, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1.2.3");
	vcube_topo_format_shape(&t, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "nodes=64 levels=3");
	KUNIT_EXPECT_EQ(test, vcube_topo_diameter(&t), 6U);
}

/*
 * SimGrid's form: its shape in its own words, which make the same tree
 * again; coordinates are the label's digits (radix down=), root first;
 * a processor's neighbours are the rest of its level-1 tree node.
 */
static void vcube_topology_pgft_format(struct kunit *test)
{
	static const struct {
		struct vcube_topo_params p;
		const char *shape;
		u32 node;
		const char *coords;
		u32 diameter;
	} cases[] = {
		{ { K(FATTREE), .levels = 3, .ndown = 3, .down = { 2, 3, 4 },
		    .nup = 3, .up = { 1, 2, 3 }, FTL(3, 1, 2, 1) },
		  "levels=3 down=2,3,4 up=1,2,3 links=1,2,1", 23, "3.2.1", 6 },
		{ { K(FATTREE), FT2(16, 16, 1, 16) },
		  "levels=2 down=16,16 up=1,16 links=1,1", 255, "15.15", 4 },
		{ { K(FATTREE), FT2(4, 1, 1, 4) },
		  "levels=2 down=4,1 up=1,4 links=1,1", 2, "0.2", 2 },
	};
	struct vcube_topo_params q;
	struct vcube_topo t, t2;
	u32 nb[16], k, *list;
	char buf[64], *at;
	size_t i;
	int n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &cases[i].p, NULL, 0),
				0);
		KUNIT_EXPECT_EQ(test, t.ft.routing, (u32)VCUBE_FT_DMODK);
		KUNIT_EXPECT_EQ(test, vcube_topo_format_shape(&t, buf, 64),
				(int)strlen(cases[i].shape));
		KUNIT_EXPECT_STREQ(test, buf, cases[i].shape);
		/* the words back into parameters: the same tree */
		q = (struct vcube_topo_params){ K(FATTREE) };
		for (at = buf; *at; at++) {
			list = *at == 'l' && at[1] == 'e' ? &q.levels :
			       *at == 'd' ? q.down : *at == 'u' ? q.up :
			       q.links;
			at = strchr(at, '=');
			KUNIT_ASSERT_NOT_NULL(test, at);
			for (k = 0; *at == '=' || *at == ','; k++)
				for (list[k] = 0; isdigit(*++at);)
					list[k] = list[k] * 10 + *at - '0';
			if (list == q.down)
				q.ndown = k;
			else if (list == q.up)
				q.nup = k;
			else if (list == q.links)
				q.nlinks = k;
			if (!*at)
				break;
		}
		KUNIT_ASSERT_EQ(test, vcube_topo_init(&t2, &q, NULL, 0), 0);
		KUNIT_EXPECT_EQ(test, memcmp(&t.ft, &t2.ft, sizeof(t.ft)), 0);
		KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, cases[i].node,
							       buf, 64),
				(int)strlen(cases[i].coords));
		KUNIT_EXPECT_STREQ(test, buf, cases[i].coords);
		KUNIT_EXPECT_EQ(test, vcube_topo_diameter(&t),
				cases[i].diameter);
		n = vcube_topo_neighbors(&t, cases[i].node, nb, 16);
		KUNIT_ASSERT_EQ(test, n, (int)cases[i].p.down[0] - 1);
		for (k = 0; k < n; k++) {
			KUNIT_EXPECT_NE(test, nb[k], cases[i].node);
			KUNIT_EXPECT_EQ(test, nb[k] / cases[i].p.down[0],
					cases[i].node / cases[i].p.down[0]);
		}
	}
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 0, nb, 2), -ENOSPC);
	KUNIT_EXPECT_STREQ(test, vcube_ft_routing_name(VCUBE_FT_DMODK),
			   "dmodk");
	KUNIT_EXPECT_EQ(test, vcube_ft_routing_parse("random"),
			(int)VCUBE_FT_RANDOM);
	KUNIT_EXPECT_EQ(test, vcube_ft_routing_parse("minimal"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vcube_ft_routing_parse(NULL), -EINVAL);
}

static const struct chan_case grid_chan_cases[] = {
	{ "torus dims=5", { K(TORUS), DIMS(1, 5) } },
	{ "torus dims=2", { K(TORUS), DIMS(1, 2) } },
	{ "mesh dims=6", { K(MESH), DIMS(1, 6) } },
	{ "torus dims=4,4,4", { K(TORUS), DIMS(3, 4, 4, 4) } },
	{ "mesh dims=3,5,2", { K(MESH), DIMS(3, 3, 5, 2) } },
	{ "torus dims=3,5,2", { K(TORUS), DIMS(3, 3, 5, 2) } },
	{ "torus dims=2^6", { K(TORUS), DIMS(6, 2, 2, 2, 2, 2, 2) } },
	{ "mesh dims=2^6", { K(MESH), DIMS(6, 2, 2, 2, 2, 2, 2) } },
	{ "mesh dims=3,2,4,2,3,2", { K(MESH), DIMS(6, 3, 2, 4, 2, 3, 2) } },
	{ "torus rows=4 cols=1", { K(TORUS), .rows = 4, .cols = 1 } },
	{ "mesh rows=1 cols=5", { K(MESH), .rows = 1, .cols = 5 } },
};

KUNIT_ARRAY_PARAM(grid_chan, grid_chan_cases, chan_case_desc);

/*
 * Mesh and torus channels, from the sizes alone: each node has one
 * channel per dimension and way (dir 2 * d, + 1 for the - way), none past
 * a mesh's edge, and each goes to the next node that way, wrapping round
 * on a torus; every (node, dir) is one channel, so the ids are dense.
 */
static void vcube_topology_grid_channels(struct kunit *test)
{
	const struct chan_case *c = test->param_value;
	u32 k[VCUBE_GRID_MAX_DIMS], st[VCUBE_GRID_MAX_DIMS], nd, d, x, want;
	struct vcube_chan_info ci;
	struct vcube_topo t;
	u32 ch, n, total = 0;
	u8 *seen;

	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &c->p, NULL, 0), 0);
	nd = c->p.ndims ?: 2;
	for (d = 0; d < nd; d++)
		k[d] = c->p.ndims ? c->p.dims[d] : d ? c->p.rows : c->p.cols;
	for (st[0] = 1, d = 1; d < nd; d++)
		st[d] = st[d - 1] * k[d - 1];
	seen = kunit_kzalloc(test, t.nodes * 2 * nd, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (ch = 0; ch < t.nchan; ch++) {
		KUNIT_ASSERT_EQ(test, vcube_topo_chan_info(&t, ch, &ci), 0);
		KUNIT_ASSERT_LT(test, ci.from, t.nodes);
		KUNIT_ASSERT_LT(test, ci.dir, 2 * nd);
		KUNIT_EXPECT_EQ(test, ci.from_level + ci.to_level + ci.lane, 0);
		d = ci.dir / 2;
		x = ci.from / st[d] % k[d];
		if (ci.dir & 1) {
			if (t.kind == VCUBE_TOPO_MESH)
				KUNIT_EXPECT_GT_MSG(test, x, 0U, "channel %u", ch);
			want = ci.from - x * st[d] + (x + k[d] - 1) % k[d] * st[d];
		} else {
			if (t.kind == VCUBE_TOPO_MESH)
				KUNIT_EXPECT_LT_MSG(test, x + 1, k[d],
						    "channel %u", ch);
			want = ci.from - x * st[d] + (x + 1) % k[d] * st[d];
		}
		KUNIT_EXPECT_EQ_MSG(test, ci.to, want, "channel %u", ch);
		KUNIT_EXPECT_EQ_MSG(test, seen[ci.from * 2 * nd + ci.dir], 0,
				    "channel %u", ch);
		seen[ci.from * 2 * nd + ci.dir] = 1;
	}
	/* all the channels there should be: a mesh's edges have none out */
	for (n = 0; n < t.nodes; n++)
		for (d = 0; d < nd; d++) {
			x = n / st[d] % k[d];
			if (k[d] < 2)
				continue;
			total += t.kind == VCUBE_TOPO_TORUS ? 2 :
				 (x > 0) + (x + 1 < k[d]);
		}
	KUNIT_EXPECT_EQ(test, t.nchan, total);
	KUNIT_EXPECT_EQ(test, t.nbundles, t.nchan);
	KUNIT_EXPECT_EQ(test, vcube_topo_chan_info(&t, t.nchan, &ci), -EINVAL);
}

static void vcube_topology_grid_neighbors(struct kunit *test)
{
	struct vcube_topo_params torus = { K(TORUS), DIMS(2, 2, 3) };
	struct vcube_topo_params mesh = { K(MESH), DIMS(3, 3, 3, 3) };
	struct vcube_topo_params ring = { K(TORUS), DIMS(1, 2) };
	struct vcube_topo t;
	u32 nb[12];

	/* - ways from the last dimension down, then + ways: -y -x +x +y */
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &torus, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, vcube_topo_neighbors(&t, 0, nb, 12), 3);
	KUNIT_EXPECT_EQ(test, nb[0], 4U);
	KUNIT_EXPECT_EQ(test, nb[1], 1U);	/* +x: the same node, once */
	KUNIT_EXPECT_EQ(test, nb[2], 2U);

	/* the middle of a 3x3x3 mesh has all six, its corner three */
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &mesh, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, vcube_topo_neighbors(&t, 13, nb, 12), 6);
	KUNIT_EXPECT_EQ(test, nb[0], 4U);
	KUNIT_EXPECT_EQ(test, nb[1], 10U);
	KUNIT_EXPECT_EQ(test, nb[2], 12U);
	KUNIT_EXPECT_EQ(test, nb[3], 14U);
	KUNIT_EXPECT_EQ(test, nb[4], 16U);
	KUNIT_EXPECT_EQ(test, nb[5], 22U);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 26, nb, 12), 3);
	KUNIT_EXPECT_EQ(test, vcube_topo_neighbors(&t, 13, nb, 5), -ENOSPC);

	/* a ring of two: two channels each way to the one other node */
	KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &ring, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, t.nchan, 4U);
	KUNIT_ASSERT_EQ(test, vcube_topo_neighbors(&t, 1, nb, 12), 1);
	KUNIT_EXPECT_EQ(test, nb[0], 0U);
}

static void vcube_topology_grid_format(struct kunit *test)
{
	static const struct {
		struct vcube_topo_params p;
		const char *shape;
		u32 node;
		const char *coords;
		u32 diameter;
	} cases[] = {
		{ { K(TORUS), DIMS(3, 4, 4, 4) }, "dims=4,4,4", 57, "(1,2,3)", 6 },
		{ { K(MESH), DIMS(3, 3, 5, 2) }, "dims=3,5,2", 29, "(2,4,1)", 7 },
		{ { K(TORUS), DIMS(1, 5) }, "dims=5", 3, "(3)", 2 },
		/* the Delta's mesh by dims=: its shape in the words it was given */
		{ { K(MESH), DIMS(2, 32, 16) }, "dims=32,16", 37, "(5,1)", 46 },
	};
	struct vcube_topo t;
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int len = strlen(cases[i].coords);

		KUNIT_ASSERT_EQ(test, vcube_topo_init(&t, &cases[i].p, NULL, 0),
				0);
		KUNIT_EXPECT_EQ(test,
				vcube_topo_format_shape(&t, buf, sizeof(buf)),
				(int)strlen(cases[i].shape));
		KUNIT_EXPECT_STREQ(test, buf, cases[i].shape);
		KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, cases[i].node,
							       buf, sizeof(buf)),
				len);
		KUNIT_EXPECT_STREQ(test, buf, cases[i].coords);
		/* no room for its NUL */
		KUNIT_EXPECT_EQ(test, vcube_topo_format_coords(&t, cases[i].node,
							       buf, len),
				-ENOSPC);
		KUNIT_EXPECT_EQ(test, vcube_topo_diameter(&t),
				cases[i].diameter);
	}
}

static struct kunit_case vcube_topology_cases[] = {
	KUNIT_CASE_PARAM(vcube_topology_params, param_gen_params),
	KUNIT_CASE(vcube_topology_kind_names),
	KUNIT_CASE_PARAM(vcube_topology_fattree_links, ft_gen_params),
	KUNIT_CASE_PARAM(vcube_topology_channels, chan_gen_params),
	KUNIT_CASE(vcube_topology_neighbors),
	KUNIT_CASE(vcube_topology_format),
	KUNIT_CASE(vcube_topology_pgft_format),
	KUNIT_CASE_PARAM(vcube_topology_grid_channels, grid_chan_gen_params),
	KUNIT_CASE(vcube_topology_grid_neighbors),
	KUNIT_CASE(vcube_topology_grid_format),
	{}
};

static struct kunit_suite vcube_topology_suite = {
	.name = "vcube_topology",
	.test_cases = vcube_topology_cases,
};

kunit_test_suite(vcube_topology_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for vcube topologies");
