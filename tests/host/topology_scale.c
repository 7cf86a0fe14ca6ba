// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/core at full scale, under AddressSanitizer and UBSan: every route
 * of large networks reaches its destination over valid, distinct channels
 * in exactly the topology's distance, and the load the papers rely on
 * comes out (e-cube's uniform link load, the fat tree's spread of random
 * up-routing, a k-ary n-cube torus's even load, a dragonfly's global
 * load under minimal, Valiant and UGAL-L routing), SimGrid's fat trees at
 * 4096 nodes, graphs of 2048 routers and 4096 nodes (a torus given as a
 * graph, and a seeded random one) against distances found here, and the CM-5's tree as it always was (a digest of all it
 * says, recorded before the general fat tree came).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "topology.h"

static u32 chan[VCUBE_MAX_NODES];
static u32 stamp[VCUBE_DF_MAX_CHANNELS];	/* route number that last used a channel */
static u32 route_no;
/* the sizes a dims= network was made with, X first */
static struct vcube_topo_params kary;
/* the lists a levels= fat tree was made with */
static struct vcube_topo_params pgft;

static u32 popcount(u32 x)
{
	u32 n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/*
 * A dims= network: per dimension, straight there on a mesh, the shorter
 * way round on a torus.
 */
static u32 want_kary_hops(const struct vcube_topo *t, u32 s, u32 d)
{
	u32 i, k, a, b, f, n = 0;

	for (i = 0; i < kary.ndims; i++) {
		k = kary.dims[i];
		a = s % k;
		b = d % k;
		s /= k;
		d /= k;
		f = (b + k - a) % k;
		if (t->kind == VCUBE_TOPO_MESH)
			n += a > b ? a - b : b - a;
		else
			n += f < k - f ? f : k - f;
	}
	return n;
}

/* The distance each routing rule must achieve, computed independently. */
/* a graph's router distances from the current source's router */
static u32 gdist[VCUBE_GRAPH_MAX_ROUTERS];

static u32 want_hops(const struct vcube_topo *t, u32 s, u32 d)
{
	u32 sr, sc, dr, dc, l = 0;

	if (t->kind == VCUBE_TOPO_GRAPH)
		return s == d ? 0 : 2 + gdist[t->graph->node_router[d]];
	if (kary.ndims)
		return want_kary_hops(t, s, d);
	if (pgft.levels) {
		/* the highest digit (radix down=) that differs, plus one */
		for (sr = 0; sr < pgft.levels; sr++) {
			if (s % pgft.down[sr] != d % pgft.down[sr])
				l = sr + 1;
			s /= pgft.down[sr];
			d /= pgft.down[sr];
		}
		return 2 * l;
	}
	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		return popcount(s ^ d);
	case VCUBE_TOPO_MESH:
		sr = s / t->cols; sc = s % t->cols;
		dr = d / t->cols; dc = d % t->cols;
		return (sr > dr ? sr - dr : dr - sr) +
		       (sc > dc ? sc - dc : dc - sc);
	case VCUBE_TOPO_TORUS:
		sr = s / t->cols; sc = s % t->cols;
		dr = d / t->cols; dc = d % t->cols;
		return (dc + t->cols - sc) % t->cols +
		       (dr + t->rows - sr) % t->rows;
	default:
		while ((s >> (2 * l)) != (d >> (2 * l)))
			l++;
		return 2 * l;
	}
}

static void check_route(const struct vcube_topo *t, u32 s, u32 d, u64 cookie,
			u32 *load)
{
	struct vcube_chan_info ci;
	u32 at = s, level = 0, again[64];
	int n, i;

	n = vcube_topo_route(t, s, d, cookie, chan, VCUBE_MAX_NODES);
	CHECK(n >= 0 && (u32)n == want_hops(t, s, d), "%u->%u: %d hops", s, d,
	      n);
	if (n < 0)
		return;
	CHECK((u32)n <= vcube_topo_diameter(t), "%u->%u longer than diameter",
	      s, d);
	CHECK(t->nchan <= sizeof(stamp) / sizeof(stamp[0]), "nchan %u", t->nchan);
	route_no++;
	for (i = 0; i < n; i++) {
		CHECK(chan[i] < t->nchan, "%u->%u: channel %u", s, d, chan[i]);
		if (chan[i] >= t->nchan || vcube_topo_chan_info(t, chan[i], &ci))
			return;
		CHECK(ci.from == at && ci.from_level == level,
		      "%u->%u: hop %d leaves %u/L%u, not %u/L%u", s, d, i,
		      ci.from, ci.from_level, at, level);
		at = ci.to;
		level = ci.to_level;
		if (load)
			load[chan[i]]++;
		CHECK(stamp[chan[i]] != route_no, "%u->%u: channel %u twice", s,
		      d, chan[i]);
		stamp[chan[i]] = route_no;
	}
	CHECK(at == d && level == 0, "%u->%u ends at %u/L%u", s, d, at, level);
	if (n <= 64) {
		memcpy(again, chan, n * sizeof(u32));
		CHECK(vcube_topo_route(t, s, d, cookie, chan, 64) == n &&
		      !memcmp(again, chan, n * sizeof(u32)),
		      "%u->%u: not deterministic", s, d);
	}
}

static void init(struct vcube_topo *t, enum vcube_topo_kind kind, u32 a,
		 u32 b)
{
	struct vcube_topo_params p = { .kind = kind, .seed = 2026 };
	char err[128];

	if (kind == VCUBE_TOPO_HYPERCUBE)
		p.dim = a;
	else if (kind == VCUBE_TOPO_FATTREE)
		p.nodes = a;
	else {
		p.rows = a;
		p.cols = b;
	}
	if (vcube_topo_init(t, &p, err, sizeof(err))) {
		fprintf(stderr, "init: %s\n", err);
		exit(1);
	}
}

/*
 * All pairs from @sources evenly spaced sources (0: every node), and all
 * pairs into the last node.
 */
static void sweep(enum vcube_topo_kind kind, u32 a, u32 b, u32 sources)
{
	struct vcube_topo t;
	u32 s, d, step;

	init(&t, kind, a, b);
	step = sources ? t.nodes / sources : 1;
	for (s = 0; s < t.nodes; s += step)
		for (d = 0; d < t.nodes; d++)
			check_route(&t, s, d, (u64)s * t.nodes + d, NULL);
	for (d = 0; d < t.nodes; d++)
		check_route(&t, t.nodes - 1, d, d, NULL);
}

/* sweep() on a mesh or torus made with dims=@n sizes. */
static void sweep_dims(enum vcube_topo_kind kind, u32 sources, u32 n, ...)
{
	struct vcube_topo t;
	char err[128];
	va_list ap;
	u32 i, s, d, step;

	kary = (struct vcube_topo_params){ .kind = kind, .ndims = n };
	va_start(ap, n);
	for (i = 0; i < n; i++)
		kary.dims[i] = va_arg(ap, u32);
	va_end(ap);
	if (vcube_topo_init(&t, &kary, err, sizeof(err))) {
		fprintf(stderr, "init: %s\n", err);
		exit(1);
	}
	step = sources ? t.nodes / sources : 1;
	for (s = 0; s < t.nodes; s += step)
		for (d = 0; d < t.nodes; d++)
			check_route(&t, s, d, 0, NULL);
	for (d = 0; d < t.nodes; d++)
		check_route(&t, t.nodes - 1, d, d, NULL);
	kary.ndims = 0;
}

/*
 * A complete exchange on a k-ary n-cube torus of odd k, routed the shorter
 * way (no ties): every directed channel carries the same load, by symmetry;
 * with even k the + way takes the ties, so its channels carry more, the -
 * ones all the same and the + ones all the same.
 */
static void kary_load(u32 k)
{
	struct vcube_topo t;
	struct vcube_chan_info ci;
	u32 s, d, c, *load, first[2] = { 0, 0 };
	char err[128];

	kary = (struct vcube_topo_params){ .kind = VCUBE_TOPO_TORUS,
					   .ndims = 3, .dims = { k, k, k } };
	if (vcube_topo_init(&t, &kary, err, sizeof(err))) {
		fprintf(stderr, "init: %s\n", err);
		exit(1);
	}
	load = calloc(t.nchan, sizeof(*load));
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++)
			check_route(&t, s, d, 0, load);
	for (c = 0; c < t.nchan; c++) {
		vcube_topo_chan_info(&t, c, &ci);
		if (!first[ci.dir & 1])
			first[ci.dir & 1] = load[c];
		CHECK(load[c] == first[ci.dir & 1] &&
		      (k % 2 ? load[c] == load[0] : true),
		      "k=%u channel %u (dir %u) carries %u, not %u", k, c, ci.dir,
		      load[c], first[ci.dir & 1]);
	}
	CHECK(k % 2 ? first[0] == first[1] : first[0] > first[1],
	      "k=%u: + channels carry %u, - ones %u", k, first[0], first[1]);
	free(load);
	kary.ndims = 0;
}

/*
 * Complete exchange under e-cube loads every directed channel equally:
 * n^2 log(n) / 2 hops over n log(n) channels is n / 2 each (Bokhari Fig. 5
 * shows the d = 3 case).
 */
static void ecube_uniform_load(u32 dim)
{
	struct vcube_topo t;
	u32 s, d, c, *load;

	init(&t, VCUBE_TOPO_HYPERCUBE, dim, 0);
	load = calloc(t.nchan, sizeof(*load));
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++)
			check_route(&t, s, d, 0, load);
	for (c = 0; c < t.nchan; c++)
		CHECK(load[c] == t.nodes / 2, "d=%u channel %u carries %u", dim,
		      c, load[c]);
	free(load);
}

/*
 * Fat tree, 256 nodes: everyone sends to its partner in the other half of
 * the machine with 1024 cookies. Random up-routing must spread the load
 * like fair coins: every up channel of a level within five standard
 * deviations (5 sqrt(mean), binomial) of that level's mean. A choice stuck
 * on one link would be off by the mean itself, 23 deviations at level 0.
 */
static void fattree_spread(void)
{
	struct vcube_topo t;
	struct vcube_chan_info ci;
	u32 s, c, k, *load;
	u64 sum[VCUBE_FT_MAX_LEVELS] = { 0 }, cnt[VCUBE_FT_MAX_LEVELS] = { 0 };
	double mean;
	u64 cookie;

	init(&t, VCUBE_TOPO_FATTREE, 256, 0);
	load = calloc(t.nchan, sizeof(*load));
	for (cookie = 0; cookie < 1024; cookie++)
		for (s = 0; s < t.nodes; s++)
			check_route(&t, s, (s + 128) % 256, cookie, load);
	for (c = 0; c < t.nchan; c++) {
		vcube_topo_chan_info(&t, c, &ci);
		if (!ci.dir) {
			sum[ci.from_level] += load[c];
			cnt[ci.from_level]++;
		}
	}
	for (c = 0; c < t.nchan; c++) {
		vcube_topo_chan_info(&t, c, &ci);
		k = ci.from_level;
		if (ci.dir || !cnt[k])
			continue;
		mean = (double)sum[k] / cnt[k];
		CHECK(fabs(load[c] - mean) <= 5 * sqrt(mean),
		      "level %u up channel %u carries %u, mean %.1f", k, c,
		      load[c], mean);
	}
	free(load);
}

/* sweep() on a fat tree made with levels= and its lists, @l of each. */
static void sweep_pgft(u32 routing, u32 sources, u32 l, const u32 *down,
		       const u32 *up, const u32 *links)
{
	struct vcube_topo t;
	char err[128];
	u32 s, d, step;

	pgft = (struct vcube_topo_params){ .kind = VCUBE_TOPO_FATTREE,
					   .levels = l, .ndown = l, .nup = l,
					   .nlinks = l, .routing = routing,
					   .seed = 2026 };
	memcpy(pgft.down, down, l * sizeof(u32));
	memcpy(pgft.up, up, l * sizeof(u32));
	memcpy(pgft.links, links, l * sizeof(u32));
	if (vcube_topo_init(&t, &pgft, err, sizeof(err))) {
		fprintf(stderr, "init: %s\n", err);
		exit(1);
	}
	step = sources ? t.nodes / sources : 1;
	for (s = 0; s < t.nodes; s += step)
		for (d = 0; d < t.nodes; d++)
			check_route(&t, s, d, (u64)s * t.nodes + d, NULL);
	for (d = 0; d < t.nodes; d++)
		check_route(&t, t.nodes - 1, d, d, NULL);
	pgft.levels = 0;
}

/*
 * d-mod-k on a 4096-node fat tree with as many ports up as down at every
 * switch: each shift s -> s + c mod N puts at most one route on each
 * channel (Zahavi); random up-routing does not.
 */
static void pgft_shift(void)
{
	struct vcube_topo_params p = {
		.kind = VCUBE_TOPO_FATTREE, .levels = 3, .ndown = 3,
		.down = { 16, 16, 16 }, .nup = 3, .up = { 1, 16, 16 },
		.routing = VCUBE_FT_DMODK,
	};
	static const u32 shifts[] = { 1, 15, 16, 17, 255, 256, 2048, 4095 };
	struct vcube_topo t;
	u32 *load, s, i, r, worst;

	for (r = VCUBE_FT_DMODK; r <= VCUBE_FT_RANDOM; r++) {
		p.routing = r;
		pgft = p;
		if (vcube_topo_init(&t, &p, NULL, 0))
			exit(1);
		load = calloc(t.nchan, sizeof(*load));
		worst = 0;
		for (i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
			memset(load, 0, t.nchan * sizeof(*load));
			for (s = 0; s < t.nodes; s++)
				check_route(&t, s, (s + shifts[i]) % t.nodes, s,
					    load);
			for (s = 0; s < t.nchan; s++)
				worst = load[s] > worst ? load[s] : worst;
		}
		CHECK(r == VCUBE_FT_DMODK ? worst == 1 : worst > 1,
		      "%s: a shift puts %u routes on one channel",
		      vcube_ft_routing_name(r), worst);
		free(load);
	}
	pgft.levels = 0;
}

static u64 digest;

static void dig(u64 v)
{
	digest = vcube_mix64(digest ^ v) + 0x9e3779b97f4a7c15ULL;
}

static void dig_info(const struct vcube_chan_info *ci)
{
	dig(ci->from);
	dig(ci->to);
	dig(ci->from_level);
	dig(ci->to_level);
	dig(ci->lane);
	dig(ci->dir);
}

/* Everything topology.h says about a network, hashed. */
static u64 topo_digest(const struct vcube_topo *t)
{
	struct vcube_chan_info ci;
	u32 s, d, c, w, step, nb[8];
	u64 ck;
	char buf[64];
	int n, i;

	digest = 0;
	dig(t->nchan);
	dig(t->nbundles);
	dig(vcube_topo_diameter(t));
	for (c = 0; c < t->nchan; c++) {
		vcube_topo_chan_info(t, c, &ci);
		dig_info(&ci);
		dig(vcube_topo_bundle(t, c, &w));
		dig(w);
	}
	for (c = 0; c < t->nbundles; c++) {
		vcube_topo_bundle_info(t, c, &ci, &w);
		dig_info(&ci);
		dig(w);
	}
	for (c = 0; c <= t->ft.levels; c++)
		dig(vcube_topo_level_links(t, c));
	step = t->nodes > 256 ? t->nodes / 16 : 1;
	for (s = 0; s < t->nodes; s += step)
		for (d = 0; d < t->nodes; d++)
			for (ck = 0; ck < 3; ck++) {
				n = vcube_topo_route(t, s, d, ck * 0x1234567 +
						     s * 31 + d, chan, 64);
				dig(n);
				for (i = 0; i < n; i++)
					dig(chan[i]);
				dig(vcube_topo_distance(t, s, d));
			}
	for (s = 0; s < t->nodes; s++) {
		n = vcube_topo_neighbors(t, s, nb, 8);
		dig(n);
		for (i = 0; i < n; i++)
			dig(nb[i]);
		vcube_topo_format_coords(t, s, buf, sizeof(buf));
		for (i = 0; buf[i]; i++)
			dig(buf[i]);
	}
	vcube_topo_format_shape(t, buf, sizeof(buf));
	for (i = 0; buf[i]; i++)
		dig(buf[i]);
	return digest;
}

/*
 * The CM-5's nodes=N tree, as the code before SimGrid's fat trees made it
 * (recorded with it): channels, bundles, routes with their random
 * up-links, neighbours, coordinates and shape, all the same.
 */
static void cm5_unchanged(void)
{
	static const struct {
		u32 nodes;
		u64 seed, digest;
	} rec[] = {
		{ 2, 0, 0x03383656a7c6f479ULL },
		{ 2, 42, 0xb385517370aac543ULL },
		{ 3, 0, 0xb718fcecf7cae845ULL },
		{ 3, 42, 0xc3fbea20930d801cULL },
		{ 5, 0, 0xba728ca38502d9f3ULL },
		{ 5, 42, 0x7f4bf2673cf822f4ULL },
		{ 16, 0, 0x6299455002e819e0ULL },
		{ 16, 42, 0xea2ac1c736f50f90ULL },
		{ 21, 0, 0x7f322c9999720b22ULL },
		{ 21, 42, 0x0ad00de21ab25895ULL },
		{ 32, 0, 0xc1577e2659fdf9a9ULL },
		{ 32, 42, 0x796c7322d211539fULL },
		{ 37, 0, 0xca9e13b1092c861cULL },
		{ 37, 42, 0xb1169c5658dca60fULL },
		{ 64, 0, 0x3c1325ce6aa7477fULL },
		{ 64, 42, 0xca7b79b70811a9baULL },
		{ 100, 0, 0x28fd860e4b04f44aULL },
		{ 100, 42, 0xaae48272b804a8c3ULL },
		{ 256, 0, 0xda54fb03eb8ceb0aULL },
		{ 256, 42, 0x65a7b3416f399647ULL },
		{ 1024, 0, 0x9deac82127f65b78ULL },
		{ 1024, 42, 0x603c21d38847fbbdULL },
		{ 4096, 0, 0x04d4f9c29bf47735ULL },
		{ 4096, 42, 0xafe52721d98e6d39ULL },
	};
	struct vcube_topo t;
	size_t i;
	u64 got;

	for (i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
		struct vcube_topo_params p = { .kind = VCUBE_TOPO_FATTREE,
					       .nodes = rec[i].nodes,
					       .seed = rec[i].seed };

		if (vcube_topo_init(&t, &p, NULL, 0))
			exit(1);
		got = topo_digest(&t);
		CHECK(got == rec[i].digest,
		      "nodes=%u seed=%llu: digest %#llx, recorded %#llx",
		      rec[i].nodes, (unsigned long long)rec[i].seed,
		      (unsigned long long)got,
		      (unsigned long long)rec[i].digest);
	}
}

/* ---- dragonfly -------------------------------------------------------- */

static struct vcube_topo_params df_params(u32 g, u32 a, u32 p, u32 h,
					  u32 routing)
{
	return (struct vcube_topo_params){
		.kind = VCUBE_TOPO_DRAGONFLY, .groups = g, .routers = a,
		.nodes = p, .global = h, .routing = routing, .seed = 2026,
	};
}

static void df_init(struct vcube_topo *t, struct vcube_topo_params p)
{
	char err[128];

	if (vcube_topo_init(t, &p, err, sizeof(err))) {
		fprintf(stderr, "init: %s\n", err);
		exit(1);
	}
}

/* UGAL-L's load: the routes taken so far over each channel. */
static u32 df_load(void *ctx, u32 c)
{
	return ((const u32 *)ctx)[c];
}

/*
 * A dragonfly route, walked: valid, continuous and distinct channels,
 * injection first and ejection last, within the diameter; minimal: the
 * distance, at most one global hop and three between routers; Valiant
 * between groups: two global hops through a third group. Counts each
 * channel's routes into @load, which UGAL-L reads if @ugal.
 */
static void df_check(const struct vcube_topo *t, u32 s, u32 d, u64 cookie,
		     u32 *load, bool ugal)
{
	const struct vcube_dragonfly *df = &t->df;
	u32 per = df->routers * df->nodes, at = s, level = 0, glob = 0;
	u32 r2r = 0, mid = U32_MAX;
	struct vcube_chan_info ci;
	int n, i;

	n = vcube_topo_route_load(t, s, d, cookie, ugal ? df_load : NULL, load,
				  chan, VCUBE_DF_MAX_ROUTE);
	CHECK(n >= 0 && (u32)n <= vcube_topo_diameter(t) && (n == 0) == (s == d),
	      "%u->%u: %d hops", s, d, n);
	if (n <= 0)
		return;
	route_no++;
	for (i = 0; i < n; i++) {
		if (chan[i] >= t->nchan || vcube_topo_chan_info(t, chan[i], &ci)) {
			CHECK(0, "%u->%u: channel %u", s, d, chan[i]);
			return;
		}
		CHECK(ci.from == at && ci.from_level == level,
		      "%u->%u: hop %d leaves %u/L%u, not %u/L%u", s, d, i,
		      ci.from, ci.from_level, at, level);
		CHECK((i == 0) == (ci.dir == VCUBE_DF_INJECT) &&
		      (i == n - 1) == (ci.dir == VCUBE_DF_EJECT),
		      "%u->%u: hop %d is of kind %u", s, d, i, ci.dir);
		CHECK(stamp[chan[i]] != route_no, "%u->%u: channel %u twice", s,
		      d, chan[i]);
		stamp[chan[i]] = route_no;
		if (ci.dir == VCUBE_DF_GLOBAL && !glob++)
			mid = ci.to / df->routers;
		r2r += ci.dir >= VCUBE_DF_LOCAL;
		if (load)
			load[chan[i]]++;
		at = ci.to;
		level = ci.to_level;
	}
	CHECK(at == d && level == 0, "%u->%u ends at %u/L%u", s, d, at, level);
	if (df->routing == VCUBE_DF_MINIMAL || s / per == d / per)
		CHECK((u32)n == vcube_topo_distance(t, s, d) && r2r <= 3 &&
		      glob == (s / per != d / per),
		      "%u->%u: minimal %d hops, %u global", s, d, n, glob);
	else if (df->routing == VCUBE_DF_VALIANT)
		CHECK(glob == 2 && mid != s / per && mid != d / per && r2r <= 5,
		      "%u->%u: valiant %u global through %u", s, d, glob, mid);
	else
		CHECK(glob == 1 || (glob == 2 && mid != s / per &&
				    mid != d / per),
		      "%u->%u: ugal %u global through %u", s, d, glob, mid);
}

/* All pairs from @sources evenly spaced sources, under each routing. */
static void df_sweep(u32 g, u32 a, u32 p, u32 h, u32 sources)
{
	struct vcube_topo t;
	u32 r, s, d, step, *load;

	for (r = VCUBE_DF_MINIMAL; r < VCUBE_DF_NROUTING; r++) {
		if (r != VCUBE_DF_MINIMAL && g < 3)
			continue;
		df_init(&t, df_params(g, a, p, h, r));
		CHECK(t.nchan <= sizeof(stamp) / sizeof(stamp[0]), "nchan %u",
		      t.nchan);
		load = calloc(t.nchan, sizeof(*load));
		step = sources ? t.nodes / sources : 1;
		for (s = 0; s < t.nodes; s += step)
			for (d = 0; d < t.nodes; d++)
				df_check(&t, s, d, (u64)s << 20 | d, load,
					 r == VCUBE_DF_UGAL);
		free(load);
	}
}

/*
 * The adversarial pattern (Kim et al.): every node of group i sends to its
 * counterpart in group i + 1. Minimal routing puts a group's whole
 * traffic on the L links to the next group; Valiant spreads it over every
 * global link, @spread times less on the busiest (at least); UGAL-L,
 * weighing the routes chosen so far on the first channel out of the
 * source router, diverts part of it: it sees a busy global link only from
 * the router that holds it (UGAL-L's local knowledge), so it stays above
 * Valiant but below minimal.
 */
static void df_adversarial(u32 g, u32 a, u32 p, u32 h, u32 spread)
{
	struct vcube_topo t;
	struct vcube_chan_info ci;
	u32 r, s, c, *load, most[VCUBE_DF_NROUTING] = { 0 }, per = a * p;

	for (r = VCUBE_DF_MINIMAL; r < VCUBE_DF_NROUTING; r++) {
		df_init(&t, df_params(g, a, p, h, r));
		load = calloc(t.nchan, sizeof(*load));
		for (s = 0; s < t.nodes; s++)
			df_check(&t, s, (s + per) % t.nodes, s, load,
				 r == VCUBE_DF_UGAL);
		for (c = t.df.gbase; c < t.nchan; c++) {
			vcube_topo_chan_info(&t, c, &ci);
			if (load[c] > most[r])
				most[r] = load[c];
		}
		free(load);
	}
	printf("dragonfly %ux%ux%u h=%u, group i to i+1: busiest global channel %u (minimal), %u (valiant), %u (ugal)\n",
	       g, a, p, h, most[VCUBE_DF_MINIMAL], most[VCUBE_DF_VALIANT],
	       most[VCUBE_DF_UGAL]);
	CHECK(most[VCUBE_DF_MINIMAL] == (per + t.df.links - 1) / t.df.links,
	      "minimal's busiest %u", most[VCUBE_DF_MINIMAL]);
	CHECK(spread * most[VCUBE_DF_VALIANT] <= most[VCUBE_DF_MINIMAL] &&
	      most[VCUBE_DF_VALIANT] < most[VCUBE_DF_MINIMAL],
	      "valiant's busiest %u", most[VCUBE_DF_VALIANT]);
	CHECK(most[VCUBE_DF_UGAL] >= most[VCUBE_DF_VALIANT] &&
	      most[VCUBE_DF_UGAL] < most[VCUBE_DF_MINIMAL],
	      "ugal's busiest %u", most[VCUBE_DF_UGAL]);
}

/* Router distances from @src over @g's links, by a BFS of this file's. */
static void graph_bfs(const struct vcube_graph_desc *g, u32 src)
{
	static u32 queue[VCUBE_GRAPH_MAX_ROUTERS];
	u32 head = 0, tail = 0, r, i;

	for (r = 0; r < g->routers; r++)
		gdist[r] = U32_MAX;
	gdist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		r = queue[head++];
		for (i = 0; i < 2 * g->nlinks; i++) {
			u32 far = g->links[i ^ 1];

			if (g->links[i] == r && gdist[far] == U32_MAX) {
				gdist[far] = gdist[r] + 1;
				queue[tail++] = far;
			}
		}
	}
}

/*
 * A graph of @routers routers, @per nodes each, and @n links in @links:
 * every route from @sources evenly spaced sources walked, its length 2 +
 * the router distance graph_bfs() finds, and the diameter the longest.
 */
static void graph_sweep(const char *what, u32 routers, u32 per,
			const u16 *links, u32 n, u32 sources)
{
	static u16 node_router[VCUBE_MAX_NODES];
	struct vcube_graph_desc g = { routers, routers * per, n, node_router,
				      links, NULL, 0, NULL };
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_GRAPH, .graph = &g };
	struct vcube_topo t;
	u32 s, d, far = 0;
	char err[128];

	for (s = 0; s < g.nodes; s++)
		node_router[s] = s / per;
	if (vcube_topo_init(&t, &p, err, sizeof(err))) {
		fprintf(stderr, "graph %s: %s\n", what, err);
		exit(1);
	}
	for (s = 0; s < t.nodes; s += t.nodes / sources) {
		graph_bfs(&g, node_router[s]);
		for (d = 0; d < t.nodes; d++) {
			check_route(&t, s, d, 0, NULL);
			if (want_hops(&t, s, d) > far)
				far = want_hops(&t, s, d);
		}
	}
	CHECK(vcube_topo_diameter(&t) >= far, "graph %s: diameter %u < %u",
	      what, vcube_topo_diameter(&t), far);
	vcube_topo_fini(&t);
}

/*
 * A 16x16x8 torus of routers given as a graph, 2 nodes each (4096), its
 * links X first; then a seeded random graph of 2048 routers: a ring (so
 * it is connected) and 4096 chords.
 */
static void graph_scale(void)
{
	static u16 links[2 * 8192];
	static const u32 size[3] = { 16, 16, 8 };
	u32 n = 0, r, k, stride, c;
	u64 h = 2026;

	for (k = 0, stride = 1; k < 3; stride *= size[k], k++)
		for (r = 0; r < 2048; r++) {
			c = r / stride % size[k];
			links[2 * n] = r;
			links[2 * n + 1] = r - c * stride +
					   (c + 1) % size[k] * stride;
			n++;
		}
	graph_sweep("16x16x8 torus", 2048, 2, links, n, 32);
	for (n = 0; n < 2048; n++) {
		links[2 * n] = n;
		links[2 * n + 1] = (n + 1) % 2048;
	}
	for (; n < 2048 + 4096; n++) {
		do {
			h = vcube_mix64(h);
			links[2 * n] = h % 2048;
			links[2 * n + 1] = (h >> 32) % 2048;
		} while (links[2 * n] == links[2 * n + 1]);
	}
	graph_sweep("random", 2048, 2, links, n, 32);
}

int main(void)
{
	static const u32 m64[] = { 64, 64 }, w64[] = { 1, 64 };
	static const u32 m16[] = { 16, 16, 16 }, w16[] = { 1, 16, 16 };
	static const u32 m4[] = { 4, 4, 4, 4, 4, 4 };
	static const u32 w4[] = { 1, 2, 2, 4, 4, 4 };
	static const u32 p4[] = { 1, 1, 2, 1, 1, 1 };
	static const u32 ones[] = { 1, 1, 1, 1, 1, 1 };

	sweep(VCUBE_TOPO_HYPERCUBE, 7, 0, 0);
	sweep(VCUBE_TOPO_HYPERCUBE, 12, 0, 64);
	sweep(VCUBE_TOPO_MESH, 16, 32, 0);
	sweep(VCUBE_TOPO_MESH, 64, 64, 16);
	sweep(VCUBE_TOPO_MESH, 1, 4096, 4);
	sweep(VCUBE_TOPO_MESH, 13, 7, 0);
	sweep(VCUBE_TOPO_TORUS, 16, 32, 0);
	sweep(VCUBE_TOPO_TORUS, 4096, 1, 4);
	sweep(VCUBE_TOPO_TORUS, 11, 3, 0);
	sweep(VCUBE_TOPO_FATTREE, 1024, 0, 64);
	sweep(VCUBE_TOPO_FATTREE, 4096, 0, 16);
	sweep(VCUBE_TOPO_FATTREE, 37, 0, 0);
	sweep_dims(VCUBE_TOPO_TORUS, 64, 3, 16, 16, 16);
	sweep_dims(VCUBE_TOPO_MESH, 64, 3, 16, 16, 16);
	sweep_dims(VCUBE_TOPO_TORUS, 0, 6, 2, 3, 2, 4, 3, 2);
	sweep_dims(VCUBE_TOPO_MESH, 0, 6, 3, 2, 4, 2, 3, 2);
	sweep_dims(VCUBE_TOPO_TORUS, 4, 1, 4096);
	sweep_dims(VCUBE_TOPO_TORUS, 0, 2, 32, 16);
	kary_load(5);
	kary_load(4);
	ecube_uniform_load(3);
	ecube_uniform_load(7);
	fattree_spread();
	cm5_unchanged();
	sweep_pgft(VCUBE_FT_DMODK, 16, 2, m64, w64, ones);
	sweep_pgft(VCUBE_FT_RANDOM, 16, 2, m64, w64, ones);
	sweep_pgft(VCUBE_FT_DMODK, 16, 3, m16, w16, ones);
	sweep_pgft(VCUBE_FT_DMODK, 16, 6, m4, w4, p4);
	sweep_pgft(VCUBE_FT_RANDOM, 16, 6, m4, w4, p4);
	pgft_shift();
	df_sweep(32, 8, 16, 4, 64);
	df_sweep(128, 8, 4, 16, 32);
	df_sweep(16, 16, 16, 4, 32);
	df_sweep(9, 4, 2, 2, 0);
	df_sweep(2, 3, 2, 1, 0);
	df_adversarial(32, 8, 16, 4, 4);
	df_adversarial(128, 8, 4, 16, 4);
	df_adversarial(9, 4, 2, 2, 1);
	graph_scale();
	return check_done("topology_scale");
}
