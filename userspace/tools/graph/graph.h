/* SPDX-License-Identifier: MIT */
/*
 * A network read from a file: routers, the processing nodes attached to
 * them, and the links between routers. Two formats, as the simulators
 * that define them read them:
 *
 *   anynet   BookSim2's (src/networks/anynet.cpp): one line per head,
 *            "router R node N [LAT] ... router S [LAT] ...", or
 *            "node N router R"; ids count from 0 with no gaps; a node hangs
 *            off one router; a latency after a router is for the channel
 *            head -> that router only (the way back is 1 unless given), one
 *            after a node is for both its channels; latencies are cycles.
 *   graphml  SST Merlin anytopo's (pymerlin-topo-any.py, via networkx): an
 *            undirected graph whose every vertex is a router with an
 *            "endpoints" attribute (its nodes, numbered in vertex order);
 *            parallel edges are parallel links. vcube also reads optional
 *            "latency" (ns) and "bandwidth" (bytes/s) edge attributes.
 *
 * What is read is checked: sizes, ids, a connected router graph, every
 * router reachable. Nothing is routed here: the kernel (or vcube-sim)
 * routes on the graph it is sent.
 */
#ifndef VCUBE_TOOLS_NETFILE_H
#define VCUBE_TOOLS_NETFILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * What the module takes: VCUBE_MAX_NODES (kernel/core/topology.h), and
 * VCUBE_GRAPH_MAX_ROUTERS and VCUBE_GRAPH_MAX_LINKS (kernel/core/graph.h),
 * so a file is refused here, with its line, rather than by the kernel.
 */
#define VCUBE_NETFILE_MAX_NODES		4096
#define VCUBE_NETFILE_MAX_ROUTERS	2048
#define VCUBE_NETFILE_MAX_LINKS		32768
#define VCUBE_NETFILE_MAX_LAT	1000000000U	/* 1 s, in ns or cycles */

struct vcube_netfile_link {
	uint32_t a, b;		/* routers; a != b */
	uint32_t lat[2];	/* a -> b, b -> a; 0: not given */
	uint64_t bw;		/* bytes/s; 0: not given */
};

struct vcube_netfile {
	uint32_t routers;
	uint32_t nodes;
	uint32_t nlinks;
	uint32_t *node_router;		/* [nodes] */
	uint32_t *node_lat;		/* [nodes]; 0: not given */
	struct vcube_netfile_link *links;	/* [nlinks] */
	/*
	 * routes=FILE: forwarding-table entries over shortest paths, u16
	 * triples (router, destination router, next router), as the kernel
	 * takes them (struct vcube_graph_desc's routes, graph-routes)
	 */
	uint32_t nroutes;
	uint16_t *routes;
	const char *format;		/* "anynet" or "graphml" */
	char err[256];			/* why a load failed, one line */
};

/*
 * Read @path as @format ("anynet", "graphml", or NULL: by its content,
 * "<" first for GraphML). 0, or -errno with g->err saying why (with the
 * file's name and, where it has one, the line).
 */
int vcube_netfile_load(struct vcube_netfile *g, const char *path,
		     const char *format);
/* The same, from text in memory; @name is what messages call it. */
int vcube_netfile_parse(struct vcube_netfile *g, const char *name,
		      const char *text, size_t len, const char *format);
void vcube_netfile_free(struct vcube_netfile *g);

/*
 * A network's words (key=value, as vcubectl net add and vcube-sim take
 * them) with file=PATH, and format=anynet|graphml beside it: read the file
 * into @g and take those words out of @argv (*@argc shrinks; the others
 * keep their order). 0 with @g->nodes 0 when there is no file= (format=
 * alone is refused), or -errno with @g->err saying why.
 */
int vcube_netfile_words(struct vcube_netfile *g, int *argc, char **argv);
/*
 * A routes file into @g (routes=PATH beside file=): a line per entry,
 * "R T N": at router R, toward router T, go to neighbour N; '#' starts a
 * comment. Each id is checked against @g's routers here, and the
 * table's ways by the kernel. 0, or -errno with @g->err saying why.
 */
int vcube_netfile_routes(struct vcube_netfile *g, const char *path);
/*
 * @g as the kernel takes it (struct vcube_graph_desc, netlink's graph-*
 * attributes): a u16 router per node, a u16 pair per link; free() both.
 * -ENOMEM, or 0.
 */
int vcube_netfile_u16(const struct vcube_netfile *g, uint16_t **node_router,
		      uint16_t **links);
/* Whether any link of @g has a latency or bandwidth given. */
int vcube_netfile_has_costs(const struct vcube_netfile *g);
/*
 * @g's per-channel costs as the kernel takes them (struct vcube_graph_desc's
 * costs, netlink's graph-costs): for each channel in vcube's order (node n
 * to its router, its router to n, then link i a -> b, b -> a) its latency
 * in ns and its ps a byte (1e12 / bandwidth, rounded), 0 where the file
 * gives none; free() it. 0 with *@costs NULL when the file gives no costs;
 * else g->err says why: -EOPNOTSUPP for anynet's latencies, which are
 * cycles, not time (a warning: the profile's costs apply), -ERANGE for a
 * bandwidth under 1000 bytes/s, -ENOMEM.
 */
int vcube_netfile_costs(struct vcube_netfile *g, uint32_t **costs);

/* internal: each format's reader, then the checks they share */
int vcube_netfile_anynet(struct vcube_netfile *g, const char *name,
		       const char *text, size_t len);
int vcube_netfile_graphml(struct vcube_netfile *g, const char *name,
			const char *text, size_t len);
int vcube_netfile_check(struct vcube_netfile *g, const char *name);
int vcube_netfile_fail(struct vcube_netfile *g, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
