/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network given as a graph (read from a file in userspace: BookSim's
 * anynet, SST's GraphML): routers, the processing nodes hanging off them,
 * and links between routers, parallel ones allowed.
 *
 * Vertices: node n is (level 0, n), router r is (level 1, r). Channels:
 *   n                     node n -> its router (injection)
 *   nodes + n             its router -> node n (ejection)
 *   2 * nodes + 2 * i     link i, a -> b
 *   2 * nodes + 2 * i + 1 link i, b -> a
 *
 * Costs: each channel may carry its own latency (ns, beside the profile's
 * per-hop cost) and rate (ps a byte, instead of the profile's), from the
 * file's per-link attributes; 0 is the profile's.
 *
 * Routing: a shortest path over the routers; among a router's links on a
 * shortest path to the destination's router it takes the lowest-numbered
 * (the file's order, so of parallel links the first). Routes may be given
 * too, as forwarding-table entries over that table (desc's routes): every
 * way must then still reach its destination, which is checked. The next hop of
 * every (router, destination router) pair is tabled at creation: routers^2
 * u16s, computed by one breadth-first search per destination router
 * (routers * (routers + links) steps), so a route then costs its length.
 *
 * Locking: none. A graph is built once, before the network it belongs to
 * is visible, and only read after.
 */
#ifndef _VCUBE_CORE_GRAPH_H
#define _VCUBE_CORE_GRAPH_H

#include "env.h"

#define VCUBE_GRAPH_MAX_ROUTERS	2048	/* a 8 MiB next-hop table */
#define VCUBE_GRAPH_MAX_LINKS	32768

/* What a caller gives: arrays it keeps; the graph copies what it needs. */
struct vcube_graph_desc {
	u32 routers;
	u32 nodes;
	u32 nlinks;
	const u16 *node_router;		/* [nodes] */
	const u16 *links;		/* [2 * nlinks]: a, b of each link */
	/* [2 * nchan] or NULL: each channel's latency (ns), ps a byte */
	const u32 *costs;
	/*
	 * [3 * nroutes]: routes given, as a forwarding table's entries: at
	 * router r, toward destination router t, go to neighbour n (its
	 * first link to n); over the shortest-path table's entry
	 */
	u32 nroutes;
	const u16 *routes;
};

#define VCUBE_GRAPH_MAX_ROUTES	65536

/* A channel's latency and its rate at most (0: the profile's). */
#define VCUBE_GRAPH_MAX_LAT	1000000000U	/* 1 s */
#define VCUBE_GRAPH_MAX_PS	1000000000U	/* 1 ms a byte */

struct vcube_graph {
	u32 routers;
	u32 nodes;
	u32 nlinks;
	u32 diameter;		/* in channels, over the nodes' routers */
	u16 *node_router;	/* [nodes] */
	u16 *links;		/* [2 * nlinks] */
	u32 *first;		/* [routers + 1]: each router's ends in @ends */
	u32 *ends;		/* [2 * nlinks]: link end 2i (a's) or 2i+1 */
	u16 *next;		/* [routers^2]: port (index from first[r]) */
	u32 *costs;		/* [2 * nchan] or NULL: latency, ps a byte */
};

int vcube_graph_init(struct vcube_graph *g, const struct vcube_graph_desc *d,
		     char *err, size_t errlen);
void vcube_graph_fini(struct vcube_graph *g);

u32 vcube_graph_nchan(const struct vcube_graph *g);
u64 vcube_graph_bytes(const struct vcube_graph *g);
int vcube_graph_route(const struct vcube_graph *g, u32 src, u32 dst,
		      u32 *chan, u32 max);
u32 vcube_graph_distance(const struct vcube_graph *g, u32 src, u32 dst);

/* Channel @chan's own latency in ns (0: none beyond the profile's hop). */
static inline u32 vcube_graph_chan_lat(const struct vcube_graph *g, u32 chan)
{
	return g->costs ? g->costs[2 * chan] : 0;
}

/* Channel @chan's own ps a byte (0: the profile's). */
static inline u32 vcube_graph_chan_ps(const struct vcube_graph *g, u32 chan)
{
	return g->costs ? g->costs[2 * chan + 1] : 0;
}
/* A channel's ends: levels 0 (node) or 1 (router); dir 0 in, 1 out, 2 link */
int vcube_graph_chan(const struct vcube_graph *g, u32 chan, u32 *from,
		     u8 *from_level, u32 *to, u8 *to_level, u32 *dir);

#endif /* _VCUBE_CORE_GRAPH_H */
