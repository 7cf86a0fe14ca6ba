/* SPDX-License-Identifier: MIT */
/*
 * The route each message of a trace took, whole: the channels of its data
 * in order (the trace's DATA records, one per hop), how many, the fewest
 * its two ends are apart on the network (the topology's distance, which
 * the caller gives), and so whether it went a minimal way: as many hops
 * as that, and on a dragonfly its minimal route itself (one global link:
 * a Valiant route through a third group can be as short, or shorter,
 * than the minimal one, whose length vcube_topo_distance() gives). A dragonfly's
 * Valiant routing goes through a random group, not minimal by design;
 * UGAL-L takes the minimal route or a Valiant one, whichever its load
 * says; a fat tree's random up-routing is minimal whichever way it goes
 * up. For vcubectl trace and vcube-sim --routes and --timeline.
 */
#ifndef VCUBE_TOOLS_ROUTES_H
#define VCUBE_TOOLS_ROUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vcube.h"

struct vcube_print;

/* The fewest channels from node @src to @dst (VCUBE_TRACE_NONE: unknown). */
typedef unsigned int (*vcube_tool_dist_fn)(void *ctx, unsigned int src,
					   unsigned int dst);
/*
 * Where minimal routes are one (a dragonfly's: one global link, the one
 * its two groups' wiring gives), that route's channels from @src to @dst
 * into @chan (at most @max): their count, or -errno.
 */
typedef int (*vcube_tool_minroute_fn)(void *ctx, unsigned int src,
				      unsigned int dst, unsigned int *chan,
				      unsigned int max);

/*
 * How a route is judged minimal: by @minroute if given (the same
 * channels), else by @dist (as many hops as the fewest); neither: unknown.
 */
struct vcube_tool_route_ops {
	vcube_tool_dist_fn dist;
	vcube_tool_minroute_fn minroute;
	void *ctx;
};

struct vcube_tool_route {
	uint32_t msg;		/* the trace's message number */
	unsigned int src, dst, tag;
	uint64_t bytes;
	uint64_t start, end;	/* its MSG record's: sent, delivered */
	unsigned int hops;	/* channels its route has */
	unsigned int min_hops;	/* the distance; VCUBE_TRACE_NONE: unknown */
	int minimal;		/* 1 yes, 0 no, -1 unknown */
	bool whole;		/* every hop's channel is in @chan */
	unsigned int *chan;	/* @hops channels; VCUBE_TRACE_NONE: lost */
	/* its MSG record's longest wait: cause, and what held it (or NONE) */
	unsigned int cause, holder;
	bool delivered;		/* its MSG record was found */
};

/*
 * The routes of the messages in @r (@n records, oldest first): *@out, of
 * *@nout, by message number; free with vcube_tool_routes_free(). @ops
 * (may be NULL: minimal unknown) judges them. 0 or -ENOMEM.
 */
int vcube_tool_routes(const struct vcube_trace_rec *r, size_t n,
		      const struct vcube_tool_route_ops *ops,
		      struct vcube_tool_route **out, size_t *nout);
void vcube_tool_routes_free(struct vcube_tool_route *rt, size_t n);

/* Message @msg's route in @rt (@n, from vcube_tool_routes()), or NULL. */
const struct vcube_tool_route *
vcube_tool_route_find(const struct vcube_tool_route *rt, size_t n,
		      uint32_t msg);

/* "yes", "no" or "unknown" for @rt->minimal. */
const char *vcube_tool_route_minimal(const struct vcube_tool_route *rt);

/*
 * @rt's channels into @buf as "a,b,c" ("?" for one lost): the numbers
 * vcubectl links lists them by. Cut short (ending "...") past @len.
 */
void vcube_tool_route_format(const struct vcube_tool_route *rt, char *buf,
			     size_t len);

/* Channel @chan's name, as vcube_tool_link_ends() gives it, into @buf. */
typedef void (*vcube_tool_chan_name_fn)(void *ctx, unsigned int chan,
					char *buf, size_t len);

/*
 * @rt's fields into @p, after a record's others. Text: " route A,B,C hops
 * H min M minimal yes|no|unknown" (min left out when unknown). JSON:
 * "route" (the channels, null for one lost), "route_links" (their names
 * by @name with @ctx, if @name), "hops", "min_hops" (if known), "minimal"
 * (true, false, or null: unknown).
 */
void vcube_tool_route_print(struct vcube_print *p,
			    const struct vcube_tool_route *rt,
			    vcube_tool_chan_name_fn name, void *ctx);

/*
 * A channel as vcubectl links shows its ends: "FROM->TO DIR" (a switch
 * or router as Llevel:index, a node as its number; DIR vcube_dir_name()'s
 * of @topology, a hypercube's "dim N"), a fat tree's with "lane N" (or
 * "width N", a bundle of @width links).
 */
void vcube_tool_link_ends(char *buf, size_t len, unsigned int topology,
			  unsigned int from_level, unsigned int from,
			  unsigned int to_level, unsigned int to,
			  unsigned int dir, unsigned int lane,
			  unsigned int width);

/* enum vcube_trace_cause's name ("chan", "port", ...), or "unknown". */
const char *vcube_tool_trace_cause_name(unsigned int cause);

#endif /* VCUBE_TOOLS_ROUTES_H */
