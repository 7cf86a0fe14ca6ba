/* SPDX-License-Identifier: MIT */
/*
 * A time-space diagram of a run (vcube-chart --timeline, vcube-sim
 * --timeline): one row per node against virtual time, each message a line
 * from its sender when its body began to its receiver when it arrived,
 * each node's transmissions and receptions as bars on its row, and the
 * intervals a node waited (the trace's wait records), shaded by cause.
 * Drawn by gnuplot, as SVG or PNG by the output's name.
 */
#ifndef VCUBE_TOOLS_TIMELINE_H
#define VCUBE_TOOLS_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vcube.h"

/*
 * What is drawn can be cut down for a large run: the rows of some nodes
 * (--timeline-nodes) and a window of time (--from, --until). A message
 * between two rows drawn is a line; one with a single end drawn is a
 * stub, half a row long from that end toward the other's side, keyed
 * apart; a PROBE or REQUEST with an end not drawn is left out. Anything
 * that ends before the window or begins after it is left out, and what
 * crosses its edges is cut there.
 */
struct vcube_tl {
	/* the trace: channel uses draw messages, waits the shading */
	const struct vcube_trace_rec *rec;
	size_t nrec;
	unsigned int nodes;
	/* the nodes drawn, one row each, ascending; NULL: every node */
	const unsigned int *rows;
	unsigned int nrows;
	uint64_t origin;	/* virtual ns drawn as 0 */
	uint64_t from;		/* the axis's start, ns after origin */
	uint64_t until;		/* the axis's end, ns after origin; 0: the run's */
	const char *title;
};

/*
 * The options that cut a timeline down, against each other: --from @from
 * and --until @until (@from_set, @until_set: given) and --timeline-nodes
 * @list are for --timeline @out, and the window runs forward. Then @list
 * (a node list: "0-15", "0,4,8-11"; NULL: none) into a new array *@rows
 * of *@nrows nodes, ascending (free() it). 0, or -EINVAL said in one line
 * under @tool's name (a malformed list, a node twice), or -ENOMEM.
 */
int vcube_tool_timeline_opts(const char *tool, const char *out,
			     const char *list, bool from_set, uint64_t from,
			     bool until_set, uint64_t until,
			     unsigned int **rows, unsigned int *nrows);

/*
 * Whether @rows (@nrows of them, ascending, from @list) are nodes of a
 * network of @nodes: 0, or -EINVAL, said under @tool's name unless @tool
 * is NULL.
 */
int vcube_tool_timeline_fits(const char *tool, const char *list,
			     const unsigned int *rows, unsigned int nrows,
			     unsigned int nodes);

/*
 * Whether @tl draws anything of @r (a channel use of a message with an
 * end drawn; a wait of a node drawn, in the window): a caller holding a
 * large trace keeps only these.
 */
bool vcube_tool_timeline_keeps(const struct vcube_tl *tl,
			       const struct vcube_trace_rec *r);

/*
 * 0 if @out can be drawn (a .svg or .png name in a writable place), else
 * -errno, said on stderr under @tool's name: checked before a run.
 */
int vcube_tool_timeline_check(const char *tool, const char *out);

/* Draw @tl into @out (.svg or .png); 0 or -errno (said on stderr). */
int vcube_tool_timeline(const struct vcube_tl *tl, const char *out);

#endif /* VCUBE_TOOLS_TIMELINE_H */
