/* SPDX-License-Identifier: MIT */
/*
 * What the tools share: the registry of algorithms, printed for --list and
 * --help (vcube-bench, vcube-chart, vcube-sim).
 */
#ifndef VCUBE_TOOLS_ALGOS_H
#define VCUBE_TOOLS_ALGOS_H

#include <stdbool.h>
#include <stdio.h>

/* Every kind of algorithm, for @mask. */
#define VCUBE_TOOL_ALL_KINDS	(~0U)

/*
 * The registry's algorithms of the kinds whose bit (1 << kind) is set in
 * @mask, kind by kind: a table (name, paper, what it does, what it needs)
 * or a JSON array of objects. 0 or -errno (the stream's error).
 */
int vcube_tool_algos_print(FILE *f, unsigned int mask, bool json);

/*
 * The names of the registry's algorithms of the kinds in @mask, after
 * @lead, wrapped at 72 columns and indented under it: a --help's list.
 */
void vcube_tool_algos_names(FILE *f, const char *lead, unsigned int mask);

#endif /* VCUBE_TOOLS_ALGOS_H */
