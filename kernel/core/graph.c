// SPDX-License-Identifier: GPL-2.0
/*
 * A network given as a graph: checks, the next-hop table, routes
 * (graph.h).
 */
#include "graph.h"

#define VC_GRAPH_NONE	U16_MAX

static int vc_graph_check(const struct vcube_graph_desc *d, char *err,
			  size_t len)
{
	u32 i;

	if (!d->routers || d->routers > VCUBE_GRAPH_MAX_ROUTERS)
		return vcube_fail(err, len,
				  "a graph has 1..%u routers, not %u",
				  VCUBE_GRAPH_MAX_ROUTERS, d->routers);
	if (d->nlinks > VCUBE_GRAPH_MAX_LINKS)
		return vcube_fail(err, len,
				  "a graph has at most %u links, not %u",
				  VCUBE_GRAPH_MAX_LINKS, d->nlinks);
	if (d->nroutes > VCUBE_GRAPH_MAX_ROUTES)
		return vcube_fail(err, len,
				  "a graph has at most %u routes, not %u",
				  VCUBE_GRAPH_MAX_ROUTES, d->nroutes);
	for (i = 0; i < d->nodes; i++)
		if (d->node_router[i] >= d->routers)
			return vcube_fail(err, len,
					  "graph node %u is on router %u of %u",
					  i, d->node_router[i], d->routers);
	for (i = 0; i < 2 * d->nlinks; i += 2)
		if (d->links[i] >= d->routers || d->links[i + 1] >= d->routers ||
		    d->links[i] == d->links[i + 1])
			return vcube_fail(err, len,
					  "graph link %u joins router %u to %u of %u",
					  i / 2, d->links[i], d->links[i + 1],
					  d->routers);
	for (i = 0; d->costs && i < 2 * (d->nodes + d->nlinks); i++)
		if (d->costs[2 * i] > VCUBE_GRAPH_MAX_LAT ||
		    d->costs[2 * i + 1] > VCUBE_GRAPH_MAX_PS)
			return vcube_fail(err, len,
					  "graph channel %u: latency or ps a byte over %u",
					  i, VCUBE_GRAPH_MAX_LAT);
	return 0;
}

/* The other end of link end @e (2i: a's end, 2i + 1: b's). */
static u32 vc_graph_far(const struct vcube_graph *g, u32 e)
{
	return g->links[e ^ 1];
}

/* Each router's link ends, in link order: counting sort into first/ends. */
static void vc_graph_adjacency(struct vcube_graph *g)
{
	u32 e, r;

	for (e = 0; e < 2 * g->nlinks; e++)
		g->first[g->links[e] + 1]++;
	for (r = 0; r < g->routers; r++)
		g->first[r + 1] += g->first[r];
	/* fill each router's slots from its start; first[] shifts by one */
	for (e = 0; e < 2 * g->nlinks; e++)
		g->ends[g->first[g->links[e]]++] = e;
	for (r = g->routers; r > 0; r--)
		g->first[r] = g->first[r - 1];
	g->first[0] = 0;
}

/*
 * One destination router @t: distances by breadth-first search from it,
 * then each router's port is its first end leading one step closer.
 * Returns the largest distance to a router in @want (nodes' routers), or
 * U32_MAX if a router (in @unreached) cannot reach @t.
 */
static u32 vc_graph_bfs(struct vcube_graph *g, u32 t, u32 *dist, u32 *queue,
			const bool *want, u32 *unreached)
{
	u32 head = 0, tail = 0, r, i, far, worst = 0;

	for (r = 0; r < g->routers; r++)
		dist[r] = U32_MAX;
	dist[t] = 0;
	queue[tail++] = t;
	while (head < tail) {
		r = queue[head++];
		for (i = g->first[r]; i < g->first[r + 1]; i++) {
			far = vc_graph_far(g, g->ends[i]);
			if (dist[far] == U32_MAX) {
				dist[far] = dist[r] + 1;
				queue[tail++] = far;
			}
		}
	}
	for (r = 0; r < g->routers; r++) {
		u16 *port = &g->next[(size_t)r * g->routers + t];

		if (dist[r] == U32_MAX) {
			*unreached = r;
			return U32_MAX;
		}
		if (want[r] && dist[r] > worst)
			worst = dist[r];
		*port = VC_GRAPH_NONE;
		for (i = g->first[r]; r != t && i < g->first[r + 1]; i++) {
			if (dist[vc_graph_far(g, g->ends[i])] + 1 == dist[r]) {
				*port = i - g->first[r];
				break;
			}
		}
	}
	return worst;
}

static int vc_graph_table(struct vcube_graph *g, char *err, size_t len)
{
	u32 *dist = vc_alloc_array(g->routers, sizeof(u32));
	u32 *queue = vc_alloc_array(g->routers, sizeof(u32));
	bool *want = vc_alloc_array(g->routers, sizeof(bool));
	u32 t, i, worst, unreached = 0;
	int ret = 0;

	if (!dist || !queue || !want) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < g->nodes; i++)
		want[g->node_router[i]] = true;
	g->diameter = 0;
	for (t = 0; t < g->routers; t++) {
		worst = vc_graph_bfs(g, t, dist, queue, want, &unreached);
		if (worst == U32_MAX) {
			/* (an extended ACK holds 79 characters) */
			ret = vcube_fail(err, len,
					 "graph router %u cannot reach router %u: the routers must be connected",
					 unreached, t);
			goto out;
		}
		if (want[t] && worst + 2 > g->diameter)
			g->diameter = worst + 2;
		vc_resched();
	}
out:
	vc_free(dist);
	vc_free(queue);
	vc_free(want);
	return ret;
}

/* Router @r's port toward neighbour @n (its first link to it), or -1. */
static int vc_graph_port(const struct vcube_graph *g, u32 r, u32 n)
{
	u32 i;

	for (i = g->first[r]; i < g->first[r + 1]; i++)
		if (vc_graph_far(g, g->ends[i]) == n)
			return i - g->first[r];
	return -1;
}

#define VC_GRAPH_UNKNOWN	U32_MAX
#define VC_GRAPH_ON_WAY		(U32_MAX - 1)

/*
 * Toward router @t over the table: each router's hops in @depth, walking
 * each way once (@stack); the most from a router in @want, or U32_MAX
 * with *@loop the router where a way comes back on itself.
 */
static u32 vc_graph_depths(const struct vcube_graph *g, u32 t, u32 *depth,
			   u32 *stack, const bool *want, u32 *loop)
{
	u32 r, x, sp, d0, worst = 0;

	for (r = 0; r < g->routers; r++)
		depth[r] = VC_GRAPH_UNKNOWN;
	depth[t] = 0;
	for (r = 0; r < g->routers; r++) {
		for (x = r, sp = 0; depth[x] == VC_GRAPH_UNKNOWN;) {
			depth[x] = VC_GRAPH_ON_WAY;
			stack[sp++] = x;
			x = vc_graph_far(g, g->ends[g->first[x] +
				  g->next[(size_t)x * g->routers + t]]);
		}
		if (depth[x] == VC_GRAPH_ON_WAY) {
			*loop = x;
			return U32_MAX;
		}
		for (d0 = depth[x]; sp;)
			depth[stack[--sp]] = ++d0;
		if (want[r] && depth[r] > worst)
			worst = depth[r];
	}
	return worst;
}

/*
 * The routes given, over the shortest-path table; then every way must
 * reach its destination (no loop), and the diameter is the table's.
 */
static int vc_graph_routes(struct vcube_graph *g,
			   const struct vcube_graph_desc *d, char *err,
			   size_t len)
{
	u32 *depth = vc_alloc_array(g->routers, sizeof(u32));
	u32 *stack = vc_alloc_array(g->routers, sizeof(u32));
	bool *want = vc_alloc_array(g->routers, sizeof(bool));
	u32 i, r, t, worst, loop = 0;
	int port, ret = -ENOMEM;

	if (!depth || !stack || !want)
		goto out;
	for (i = 0; i < g->nodes; i++)
		want[g->node_router[i]] = true;
	ret = 0;
	for (i = 0; i < d->nroutes && !ret; i++) {
		r = d->routes[3 * i];
		t = d->routes[3 * i + 1];
		port = r < g->routers && t < g->routers && r != t ?
		       vc_graph_port(g, r, d->routes[3 * i + 2]) : -1;
		if (port < 0)
			ret = vcube_fail(err, len,
					 "graph route %u: router %u has no link to %u toward %u",
					 i, r, d->routes[3 * i + 2], t);
		else
			g->next[(size_t)r * g->routers + t] = port;
	}
	g->diameter = 0;
	for (t = 0; t < g->routers && !ret; t++) {
		worst = vc_graph_depths(g, t, depth, stack, want, &loop);
		if (worst == U32_MAX)
			ret = vcube_fail(err, len,
					 "graph routes toward router %u loop at router %u",
					 t, loop);
		else if (want[t] && worst + 2 > g->diameter)
			g->diameter = worst + 2;
		vc_resched();
	}
out:
	vc_free(depth);
	vc_free(stack);
	vc_free(want);
	return ret;
}

int vcube_graph_init(struct vcube_graph *g, const struct vcube_graph_desc *d,
		     char *err, size_t errlen)
{
	int ret;

	memset(g, 0, sizeof(*g));
	ret = vc_graph_check(d, err, errlen);
	if (ret)
		return ret;
	g->routers = d->routers;
	g->nodes = d->nodes;
	g->nlinks = d->nlinks;
	g->node_router = vc_alloc_array(d->nodes, sizeof(u16));
	g->links = vc_alloc_array(2 * d->nlinks + 1, sizeof(u16));
	g->first = vc_alloc_array(d->routers + 1, sizeof(u32));
	g->ends = vc_alloc_array(2 * d->nlinks + 1, sizeof(u32));
	g->next = vc_alloc_array((size_t)d->routers * d->routers, sizeof(u16));
	if (d->costs)
		g->costs = vc_alloc_array(2 * vcube_graph_nchan(g), sizeof(u32));
	if (!g->node_router || !g->links || !g->first || !g->ends ||
	    !g->next || (d->costs && !g->costs)) {
		vcube_graph_fini(g);
		snprintf(err, errlen, "no memory for a graph of %u routers",
			 d->routers);
		return -ENOMEM;
	}
	memcpy(g->node_router, d->node_router, d->nodes * sizeof(u16));
	memcpy(g->links, d->links, 2 * d->nlinks * sizeof(u16));
	if (d->costs)
		memcpy(g->costs, d->costs,
		       2 * vcube_graph_nchan(g) * sizeof(u32));
	vc_graph_adjacency(g);
	ret = vc_graph_table(g, err, errlen);
	if (!ret && d->nroutes)
		ret = vc_graph_routes(g, d, err, errlen);
	if (ret)
		vcube_graph_fini(g);
	return ret;
}

void vcube_graph_fini(struct vcube_graph *g)
{
	vc_free(g->node_router);
	vc_free(g->links);
	vc_free(g->first);
	vc_free(g->ends);
	vc_free(g->next);
	vc_free(g->costs);
	memset(g, 0, sizeof(*g));
}

/* What @g's tables hold, in bytes: the next-hop table the most of it. */
u64 vcube_graph_bytes(const struct vcube_graph *g)
{
	return (u64)g->routers * g->routers * sizeof(u16) +
	       (u64)g->nodes * sizeof(u16) +
	       (u64)g->nlinks * 2 * (sizeof(u16) + sizeof(u32)) +
	       (u64)(g->routers + 1) * sizeof(u32) + sizeof(*g) +
	       (g->costs ? 2ULL * vcube_graph_nchan(g) * sizeof(u32) : 0);
}

u32 vcube_graph_nchan(const struct vcube_graph *g)
{
	return 2 * g->nodes + 2 * g->nlinks;
}

int vcube_graph_route(const struct vcube_graph *g, u32 src, u32 dst,
		      u32 *chan, u32 max)
{
	u32 r, t, n = 0, e;
	u16 port;

	if (src >= g->nodes || dst >= g->nodes)
		return -EINVAL;
	if (src == dst)
		return 0;
	r = g->node_router[src];
	t = g->node_router[dst];
	if (n < max)
		chan[n] = src;
	n++;
	while (r != t) {
		port = g->next[(size_t)r * g->routers + t];
		e = g->ends[g->first[r] + port];
		if (n < max)
			chan[n] = 2 * g->nodes + e;
		n++;
		r = vc_graph_far(g, e);
	}
	if (n < max)
		chan[n] = g->nodes + dst;
	n++;
	return n <= max ? (int)n : -ENOSPC;
}

u32 vcube_graph_distance(const struct vcube_graph *g, u32 src, u32 dst)
{
	u32 r, t, n = 2;

	if (src == dst || src >= g->nodes || dst >= g->nodes)
		return 0;
	r = g->node_router[src];
	t = g->node_router[dst];
	while (r != t) {
		r = vc_graph_far(g, g->ends[g->first[r] +
				  g->next[(size_t)r * g->routers + t]]);
		n++;
	}
	return n;
}

int vcube_graph_chan(const struct vcube_graph *g, u32 chan, u32 *from,
		     u8 *from_level, u32 *to, u8 *to_level, u32 *dir)
{
	u32 e;

	if (chan >= vcube_graph_nchan(g))
		return -EINVAL;
	if (chan < 2 * g->nodes) {
		u32 n = chan % g->nodes;
		bool out = chan >= g->nodes;

		*from = out ? g->node_router[n] : n;
		*from_level = out;
		*to = out ? n : g->node_router[n];
		*to_level = !out;
		*dir = out;
		return 0;
	}
	e = chan - 2 * g->nodes;
	*from = g->links[e];
	*to = vc_graph_far(g, e);
	*from_level = 1;
	*to_level = 1;
	*dir = 2;
	return 0;
}
