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

#include <stddef.h>
#include <stdint.h>

#include "vcube.h"

struct vcube_tl {
	/* the trace: channel uses draw messages, waits the shading */
	const struct vcube_trace_rec *rec;
	size_t nrec;
	unsigned int nodes;
	uint64_t origin;	/* virtual ns drawn as 0 */
	uint64_t until;		/* the axis's end, ns after origin; 0: the run's */
	const char *title;
};

/*
 * 0 if @out can be drawn (a .svg or .png name in a writable place), else
 * -errno, said on stderr under @tool's name: checked before a run.
 */
int vcube_tool_timeline_check(const char *tool, const char *out);

/* Draw @tl into @out (.svg or .png); 0 or -errno (said on stderr). */
int vcube_tool_timeline(const struct vcube_tl *tl, const char *out);

#endif /* VCUBE_TOOLS_TIMELINE_H */
