/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcubectl's parts, each calling only those after it:
 *   vcubectl.c   the command table, the commands on the device and sysfs
 *   net.c        vcubectl net: networks made, deleted and listed
 *   export.c     vcubectl net export: a network as a SimGrid platform
 *   nl.c         the netlink commands: topo, links, nodes, cnet, reset,
 *                watch, monitor
 *   svg.c        the SVG picture of the links (links --svg)
 *   trace.c      windows, deadlock, trace
 *   perfetto.c   the trace as Perfetto's JSON
 *   paje.c       the trace as Paje
 *   rec.c        reading trace records: names, a node's order, lanes
 *   util.c       what every command shares: failing, numbers, usage,
 *                the netlink family, one-dump lists, vertex and link names
 *   print.c      text or JSON, one call per value
 */
#ifndef VCUBECTL_H
#define VCUBECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vcube.h"
#include "vcubectl/print.h"

/* vcubectl net: make, delete and list networks (net.c). */
int vc_cmd_net(int argc, char **argv);
/* vcubectl net export: @argv[0] is "export" (export.c). */
int vc_cmd_net_export(int argc, char **argv);
/*
 * The live network's topology, rebuilt from topo-get's kind and shape by
 * kernel/core (export.c): an opaque handle, or NULL (a graph; no memory);
 * its vcube_topo_distance() (VCUBE_TRACE_NONE: no handle, no such node).
 */
void *vc_topo_live(const struct vcube_nl_topo *t);
void vc_topo_live_free(void *topo);
unsigned int vc_topo_live_distance(void *topo, unsigned int src,
				   unsigned int dst);
/* A dragonfly's minimal route (vcube_tool_minroute_fn); else -EINVAL. */
int vc_topo_live_minroute(void *topo, unsigned int src, unsigned int dst,
			  unsigned int *chan, unsigned int max);
/* util.c: say why @what failed (-errno @err): 1, the exit status. */
int vc_fail(const char *what, int err);
/* @s as a whole number up to @max into *@out; -EINVAL (said). */
int vc_parse_uint(const char *s, const char *what, unsigned long long max,
		  unsigned long long *out);
/* 2 (said) if a command that takes none has arguments, else 0. */
int vc_no_args(int argc, const char *cmd);
/*
 * A subcommand's parsing begins: getopt's messages under "vcubectl CMD"
 * (argv[0] is CMD, which is returned), optind reset.
 */
const char *vc_sub_begin(char **argv);
/* A usage error of @cmd: "vcubectl CMD: why" (none if @fmt is NULL: getopt
 * said it), then where to look; 2. */
int vc_sub_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A vertex's name: the node, or L<level>:<switch> in a fat tree. */
void vc_vertex(char *buf, size_t len, unsigned int level, unsigned int v);
/* A channel's ends in words ("3->7 dim 2", "L1:0->L2:1 up lane 0"). */
void vc_link_ends(const struct vcube_nl_topo *t,
		  const struct vcube_nl_link *l, char *buf, size_t len);
/* The share of the counted time the link was held. */
double vc_util(const struct vcube_nl_link *l, uint64_t elapsed);
/*
 * The lanes of one track of an export (perfetto.c, paje.c): a track's
 * slices must nest, so transfers that overlap on one link (or one node)
 * go to lanes, each taken until its last slice ends.
 */
#define VC_LANES	64	/* per track; more overlap shares the last */

struct vc_lanes {
	uint64_t busy_until[VC_LANES];
	unsigned int nlanes;
};

/* The first lane of @t free at @start, taken until @end (rec.c). */
unsigned int vc_lane(struct vc_lanes *t, uint64_t start, uint64_t end);
/* Names of enum vcube_trace_kind, _proto, _cause values (rec.c). */
const char *vc_trace_kind_name(unsigned int kind);
const char *vc_trace_proto_name(unsigned int proto);
const char *vc_trace_cause_name(unsigned int cause);
/*
 * The records of @kind among @r (@n) whose node is below @nodes, by node,
 * time, cause, message, then their place in the ring (which only a node's
 * own calls, made in its order, can share all the rest with): an order
 * the ring's can vary under and the files must not. An array (free() it)
 * of *@k pointers, or NULL (out of memory).
 */
const struct vcube_trace_rec **vc_trace_node_recs(const struct vcube_trace_rec *r,
						size_t n, unsigned int kind,
						unsigned int nodes, size_t *k);
/*
 * When channel use @r began to hold its channel: its header took it, which
 * may be long before its body flowed (a circuit or a worm waiting further
 * on).
 */
uint64_t vc_trace_held_from(const struct vcube_trace_rec *r);
/* A channel use (probe, request, data), not a msg, wait or mark? */
bool vc_trace_is_chan(const struct vcube_trace_rec *r);
/*
 * Is record @i of @r (@n) its transfer's last hop? As trace-get gives
 * them, a transfer's hops are together in hop order (rec.c).
 */
bool vc_trace_last_hop(const struct vcube_trace_rec *r, size_t n, size_t i);

/*
 * The trace @r (@n records, as trace-get gives them) as Chrome trace-event
 * JSON for Perfetto (perfetto.c), the @nl links named from @l (in id
 * order); 0 or -errno.
 */
int vc_perfetto_write(FILE *f, const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *l, size_t nl,
		      const struct vcube_trace_rec *r, size_t n);
/* The same in the Paje format, for ViTE and pajeng (paje.c). */
int vc_paje_write(FILE *f, const struct vcube_nl_topo *t,
		  const struct vcube_nl_link *l, size_t nl,
		  const struct vcube_trace_rec *r, size_t n);
/*
 * Whether vc_svg_write() can draw @t: any network but a mesh or torus of
 * 3 dimensions or more.
 */
bool vc_svg_drawable(const struct vcube_nl_topo *t);
/* Draw the network into @path (svg.c); 0 or -errno. */
int vc_svg_write(const char *path, const struct vcube_nl_topo *t,
		 const struct vcube_nl_link *l, size_t n);

/* Say why @what failed over netlink, with the kernel's text: 1 (util.c). */
int vc_fail_nl(const char *what, int err, struct vcube_nl *nl);
/* Open the family for @what: 0, else 1 (said). */
int vc_nl_open(const char *what, struct vcube_nl **nl);

/*
 * A command that prints a list read in one dump (util.c): each entry by
 * @print, after @head (text only; may be NULL).
 */
struct vc_list {
	const char *cmd;
	size_t size;		/* of one entry */
	int (*dump)(struct vcube_nl *nl, void **out, size_t *n);
	void (*head)(void);
	void (*print)(const void *entry);
	const char *none;	/* text: why there may be no entry, or NULL */
};

/* Run @l, which takes no arguments: 0, 1 (said) or 2 (usage). */
int vc_list_run(int argc, const struct vc_list *l);

/* The commands over generic netlink (nl.c, trace.c). */
int vc_cmd_topo(int argc, char **argv);
int vc_cmd_links(int argc, char **argv);
int vc_cmd_nodes(int argc, char **argv);
int vc_cmd_cnet(int argc, char **argv);
int vc_cmd_reset(int argc, char **argv);
int vc_cmd_watch(int argc, char **argv);
int vc_cmd_monitor(int argc, char **argv);
int vc_cmd_windows(int argc, char **argv);
int vc_cmd_trace(int argc, char **argv);
int vc_cmd_deadlock(int argc, char **argv);

#endif /* VCUBECTL_H */
