// SPDX-License-Identifier: GPL-2.0
/*
 * vcube's dragonfly (Kim, Dally, Scott and Abts, ISCA 2008): G groups of A
 * routers, P nodes on each router, H global links on each router.
 *
 * Vertices: node x at level 0, x = (g * A + r) * P + p for node p of
 * router r of group g; router g * A + r at level 1. Within a group every
 * router has a local link to every other one.
 *
 * Global wiring, the "absolute" arrangement (SST Merlin's dragonfly with
 * global_route_mode=absolute; Camarero et al.'s "consecutive"): group g's
 * global ports are numbered j = r * H + i (router r's i-th global link).
 * Each pair of groups is joined by L = floor(A * H / (G - 1)) links, so
 * G <= A * H + 1. Port j < L * (G - 1), written j = s * (G - 1) + o, is
 * link s of the pair (g, t) where t = o, or o + 1 from o = g up (the
 * other groups in order); its far end is group t's port
 * s * (G - 1) + g, or + g - 1 if g > t. Ports from L * (G - 1) up (A * H
 * not a multiple of G - 1) are left unwired and have no channel.
 *
 * Channels, N = G * A * P nodes, W = L * (G - 1) wired ports per group:
 *   x                        injection, node x to its router
 *   N + x                    ejection, node x's router to it
 *   2N + R * (A - 1) + k     local, router R = g * A + r to the router of
 *                            its group whose index among the other A - 1
 *                            is k (routers below r, then above)
 *   2N + G * A * (A - 1) + g * W + j
 *                            global, out of group g by its port j
 *
 * Routing (a message from node src to node dst):
 * - minimal: to the router of src's group holding the link to dst's group
 *   (a local hop unless src's router holds it), across it, to dst's
 *   router (a local hop unless that one), to dst: at most one global and
 *   three router-to-router hops. Of the L links joining two groups it
 *   takes link src % L (SST's global_slice), in both directions alike.
 * - valiant: minimal to an intermediate group, then minimal from the
 *   router it arrives at to dst. The intermediate group is a seeded
 *   pure function of (seed, src, dst, cookie), never src's or dst's
 *   group; so at least 3 groups are needed.
 * - ugal (UGAL-L): at injection, the minimal route or the valiant one,
 *   whichever has the smaller q * h: q the load (transfers holding or
 *   waiting for it, as the engine reports them) on the route's first
 *   channel out of src's router, h the route's channels after the
 *   injection. A tie goes minimal; with no load known, every route is
 *   minimal.
 * Pairs within one group take the minimal route whatever the routing.
 */
#include "topology.h"

static const char *const vcube_df_routing_names[VCUBE_DF_NROUTING] = {
	[VCUBE_DF_MINIMAL] = "minimal",
	[VCUBE_DF_VALIANT] = "valiant",
	[VCUBE_DF_UGAL] = "ugal",
};

const char *vcube_df_routing_name(u32 routing)
{
	if (!routing || routing >= VCUBE_DF_NROUTING)
		return "unknown";
	return vcube_df_routing_names[routing];
}

/* The enum vcube_df_routing value called @name, or -EINVAL. */
int vcube_df_routing_parse(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = VCUBE_DF_MINIMAL; i < VCUBE_DF_NROUTING; i++)
		if (!strcmp(name, vcube_df_routing_names[i]))
			return i;
	return -EINVAL;
}

static int vcube_df_check(const struct vcube_topo_params *p, char *err,
			  size_t errlen)
{
	u64 n = (u64)p->groups * p->routers * p->nodes;

	if (!p->groups || !p->routers || !p->nodes || !p->global)
		return vcube_fail(err, errlen,
				  "topology=dragonfly needs groups=, routers=, nodes=, global= (each >= 1)");
	if (p->groups > VCUBE_DF_MAX_NODES || p->routers > VCUBE_DF_MAX_NODES ||
	    p->nodes > VCUBE_DF_MAX_NODES || n > VCUBE_DF_MAX_NODES)
		return vcube_fail(err, errlen,
				  "groups=%u routers=%u nodes=%u is too large: at most %d nodes",
				  p->groups, p->routers, p->nodes,
				  VCUBE_DF_MAX_NODES);
	if (p->nodes > VCUBE_TOPO_MAX_NEIGHBORS)
		return vcube_fail(err, errlen,
				  "nodes=%u: a dragonfly router takes 1 to %d nodes",
				  p->nodes, VCUBE_TOPO_MAX_NEIGHBORS);
	if (n < 2)
		return vcube_fail(err, errlen,
				  "topology=dragonfly needs at least 2 nodes");
	if (p->global > VCUBE_MAX_NODES)
		return vcube_fail(err, errlen,
				  "global=%u: a router takes 1 to %d global links",
				  p->global, VCUBE_MAX_NODES);
	if (p->groups > p->routers * p->global + 1)
		return vcube_fail(err, errlen,
				  "groups=%u > routers*global+1=%llu: too few global links",
				  p->groups,
				  (unsigned long long)p->routers * p->global + 1);
	if (p->routing >= VCUBE_DF_NROUTING)
		return vcube_fail(err, errlen, "unknown dragonfly routing %u",
				  p->routing);
	if (p->routing > VCUBE_DF_MINIMAL && p->groups < 3)
		return vcube_fail(err, errlen,
				  "routing=%s needs groups=3 or more (a third group to go through)",
				  vcube_df_routing_name(p->routing));
	return 0;
}

/**
 * vcube_df_init() - a dragonfly from its parameters
 * @t: the topology, zeroed, its kind and seed set
 * @p: groups, routers, nodes (per router), global (links per router) and
 *	routing
 * @err: one line saying what is wrong, on -EINVAL
 * @errlen: @err's size
 *
 * Return: 0, or -EINVAL.
 */
int vcube_df_init(struct vcube_topo *t, const struct vcube_topo_params *p,
		  char *err, size_t errlen)
{
	struct vcube_dragonfly *df = &t->df;
	u64 nchan;
	int ret = vcube_df_check(p, err, errlen);

	if (ret)
		return ret;
	df->groups = p->groups;
	df->routers = p->routers;
	df->nodes = p->nodes;
	df->global = p->global;
	df->routing = p->routing ?: VCUBE_DF_MINIMAL;
	df->links = df->groups > 1 ?
		    df->routers * df->global / (df->groups - 1) : 0;
	df->ports = df->links * (df->groups - 1);
	t->nodes = df->groups * df->routers * df->nodes;
	df->lbase = 2 * t->nodes;
	df->gbase = df->lbase + df->groups * df->routers * (df->routers - 1);
	nchan = (u64)df->gbase + (u64)df->groups * df->ports;
	if (nchan > VCUBE_DF_MAX_CHANNELS)
		return vcube_fail(err, errlen,
				  "this dragonfly has %llu channels: at most %u are supported",
				  (unsigned long long)nchan, VCUBE_DF_MAX_CHANNELS);
	t->nchan = nchan;
	return 0;
}

/* ---- routing ---------------------------------------------------------- */

/* A route being built, at most VCUBE_DF_MAX_ROUTE channels. */
struct vcube_df_path {
	u32 n;
	u32 at;		/* the router it has reached */
	u32 chan[VCUBE_DF_MAX_ROUTE];
};

/* Group @g's port of link @s to group @to. */
static u32 vcube_df_port(const struct vcube_dragonfly *df, u32 g, u32 to,
			 u32 s)
{
	return s * (df->groups - 1) + to - (to > g);
}

/* The local channel from router @from to router @to of its group. */
static u32 vcube_df_local(const struct vcube_dragonfly *df, u32 from, u32 to)
{
	u32 r = from % df->routers, q = to % df->routers;

	return df->lbase + from * (df->routers - 1) + q - (q > r);
}

/* To router @to of the group it is in: a local hop unless it is there. */
static void vcube_df_go_local(const struct vcube_dragonfly *df,
			      struct vcube_df_path *p, u32 to)
{
	if (p->at != to)
		p->chan[p->n++] = vcube_df_local(df, p->at, to);
	p->at = to;
}

/*
 * To group @to over link @s of the pair: to the router holding it, across
 * it, to the router at its far end.
 */
static void vcube_df_go_global(const struct vcube_dragonfly *df,
			       struct vcube_df_path *p, u32 to, u32 s)
{
	u32 g = p->at / df->routers, j = vcube_df_port(df, g, to, s);
	u32 far = vcube_df_port(df, to, g, s);

	vcube_df_go_local(df, p, g * df->routers + j / df->global);
	p->chan[p->n++] = df->gbase + g * df->ports + j;
	p->at = to * df->routers + far / df->global;
}

/*
 * The route from @src to @dst (distinct) through group @mid, or the
 * minimal one if @mid is U32_MAX.
 */
static void vcube_df_path(const struct vcube_topo *t, u32 src, u32 dst,
			  u32 mid, struct vcube_df_path *p)
{
	const struct vcube_dragonfly *df = &t->df;
	u32 last = dst / df->nodes, s = df->links ? src % df->links : 0;

	p->n = 0;
	p->at = src / df->nodes;
	p->chan[p->n++] = src;
	if (mid != U32_MAX)
		vcube_df_go_global(df, p, mid, s);
	if (p->at / df->routers != last / df->routers)
		vcube_df_go_global(df, p, last / df->routers, s);
	vcube_df_go_local(df, p, last);
	p->chan[p->n++] = t->nodes + dst;
}

/* Valiant's intermediate group for @src to @dst (in distinct groups). */
static u32 vcube_df_mid(const struct vcube_topo *t, u32 src, u32 dst,
			u64 cookie)
{
	const struct vcube_dragonfly *df = &t->df;
	u32 per = df->routers * df->nodes, a = src / per, b = dst / per, k;
	u64 h = vcube_mix64(t->seed ^ vcube_mix64(cookie));

	h = vcube_mix64(h ^ ((u64)src << 32 | dst));
	k = (u32)(h >> 32) % (df->groups - 2);
	/* the k-th group of those that are neither a nor b */
	if (k >= (a < b ? a : b))
		k++;
	if (k >= (a < b ? b : a))
		k++;
	return k;
}

/**
 * vcube_df_route() - a dragonfly route, by its routing (see the top)
 * @t: topology
 * @src: source node, < @t->nodes
 * @dst: destination node, < @t->nodes
 * @cookie: per-message value, for Valiant's intermediate group
 * @load: UGAL-L's load on a channel; NULL: none known (minimal)
 * @ctx: @load's argument
 * @chan: filled with the route's channels
 * @max: room in @chan
 *
 * Return: the number of channels, or -ENOSPC if @max is too small.
 */
int vcube_df_minimal_route(const struct vcube_topo *t, u32 src, u32 dst,
			   u32 *chan, u32 max)
{
	struct vcube_topo m;

	if (t->kind != VCUBE_TOPO_DRAGONFLY || src >= t->nodes ||
	    dst >= t->nodes)
		return -EINVAL;
	m = *t;
	m.df.routing = VCUBE_DF_MINIMAL;
	return vcube_df_route(&m, src, dst, 0, NULL, NULL, chan, max);
}

int vcube_df_route(const struct vcube_topo *t, u32 src, u32 dst, u64 cookie,
		   vcube_topo_load_fn load, void *ctx, u32 *chan, u32 max)
{
	const struct vcube_dragonfly *df = &t->df;
	u32 per = df->routers * df->nodes;
	struct vcube_df_path p, v;
	u64 qp, qv;

	if (src == dst)
		return 0;
	vcube_df_path(t, src, dst, U32_MAX, &p);
	if (df->routing != VCUBE_DF_MINIMAL && src / per != dst / per) {
		vcube_df_path(t, src, dst, vcube_df_mid(t, src, dst, cookie),
			      &v);
		/* UGAL-L: weigh the first channel out of src's router */
		qp = load ? load(ctx, p.chan[1]) : 0;
		qv = load ? load(ctx, v.chan[1]) : 0;
		if (df->routing == VCUBE_DF_VALIANT ||
		    qv * (v.n - 1) < qp * (p.n - 1))
			p = v;
	}
	if (p.n > max)
		return -ENOSPC;
	memcpy(chan, p.chan, p.n * sizeof(*chan));
	return p.n;
}

/* The minimal route's length. */
u32 vcube_df_distance(const struct vcube_topo *t, u32 src, u32 dst)
{
	struct vcube_df_path p;

	if (src == dst)
		return 0;
	vcube_df_path(t, src, dst, U32_MAX, &p);
	return p.n;
}

/*
 * The longest a route can be, in channels: a local hop at each end of a
 * minimal route, and one in the intermediate group of a Valiant one
 * (whether some pair takes them all depends on the wiring and the seed).
 */
u32 vcube_df_diameter(const struct vcube_topo *t)
{
	const struct vcube_dragonfly *df = &t->df;
	bool local = df->routers > 1;

	if (df->groups == 1)
		return local ? 3 : 2;
	if (df->routing == VCUBE_DF_MINIMAL)
		return local ? 5 : 3;
	return local ? VCUBE_DF_MAX_ROUTE : 4;
}

/* The other nodes of @node's router, in order. */
int vcube_df_neighbors(const struct vcube_topo *t, u32 node, u32 *out,
		       u32 max)
{
	u32 first = node - node % t->df.nodes, i, n = 0;

	if (t->df.nodes - 1 > max)
		return -ENOSPC;
	for (i = first; i < first + t->df.nodes; i++)
		if (i != node)
			out[n++] = i;
	return n;
}

/* Where channel @chan (< @t->nchan) runs; @info is zeroed. */
void vcube_df_chan_info(const struct vcube_topo *t, u32 chan,
			struct vcube_chan_info *info)
{
	const struct vcube_dragonfly *df = &t->df;
	u32 a = df->routers, rel, g, j, s, o, to, far;

	if (chan < 2 * t->nodes) {
		rel = chan % t->nodes;
		info->dir = chan < t->nodes ? VCUBE_DF_INJECT : VCUBE_DF_EJECT;
		info->from = info->dir == VCUBE_DF_INJECT ? rel :
			     rel / df->nodes;
		info->to = info->dir == VCUBE_DF_INJECT ? rel / df->nodes : rel;
		info->from_level = info->dir == VCUBE_DF_INJECT ? 0 : 1;
		info->to_level = !info->from_level;
		return;
	}
	info->from_level = 1;
	info->to_level = 1;
	if (chan < df->gbase) {
		rel = chan - df->lbase;
		info->dir = VCUBE_DF_LOCAL;
		info->from = rel / (a - 1);
		o = rel % (a - 1);
		o += o >= info->from % a;
		info->to = info->from - info->from % a + o;
		return;
	}
	rel = chan - df->gbase;
	g = rel / df->ports;
	j = rel % df->ports;
	s = j / (df->groups - 1);
	o = j % (df->groups - 1);
	to = o + (o >= g);
	far = vcube_df_port(df, to, g, s);
	info->dir = VCUBE_DF_GLOBAL;
	info->lane = s;
	info->from = g * a + j / df->global;
	info->to = to * a + far / df->global;
}

/* Level 0: the nodes' links to their routers; 1: links between routers. */
u32 vcube_df_level_links(const struct vcube_topo *t, u32 level)
{
	if (level > 1)
		return 0;
	return level ? (t->nchan - t->df.lbase) / 2 : t->nodes;
}

/* "g.r.p": group, router in the group, node on the router. */
int vcube_df_format_coords(const struct vcube_topo *t, u32 node, char *buf,
			   size_t len)
{
	const struct vcube_dragonfly *df = &t->df;
	int n = snprintf(buf, len, "%u.%u.%u",
			 node / df->nodes / df->routers,
			 node / df->nodes % df->routers, node % df->nodes);

	return n >= 0 && (size_t)n < len ? n : -ENOSPC;
}

int vcube_df_format_shape(const struct vcube_topo *t, char *buf, size_t len)
{
	const struct vcube_dragonfly *df = &t->df;

	return snprintf(buf, len,
			"groups=%u routers=%u nodes=%u global=%u routing=%s",
			df->groups, df->routers, df->nodes, df->global,
			vcube_df_routing_name(df->routing));
}
