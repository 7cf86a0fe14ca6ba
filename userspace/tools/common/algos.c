// SPDX-License-Identifier: MIT
/*
 * The registry (userspace/lib/algo.c) as the tools print it.
 */
#include <errno.h>
#include <string.h>

#include "common/algos.h"
#include "vcube.h"

/* The tool option that runs each kind. */
static const char *const how[VCUBE_ALGO_NKINDS] = {
	[VCUBE_ALGO_XCHG] = "complete exchanges (vcube-bench --algo)",
	[VCUBE_ALGO_IRREGULAR] = "irregular schedules (vcube-bench --density)",
	[VCUBE_ALGO_SYNC] = "barriers (vcube-bench --barrier, --shift)",
	[VCUBE_ALGO_BCAST] = "broadcasts (vcube-bench --bcast, --ge)",
	[VCUBE_ALGO_REDUCE] = "reductions (vcube-bench --reduce, --ge)",
	[VCUBE_ALGO_SCAN] = "scans (vcube_scan_run)",
	[VCUBE_ALGO_KERNEL] = "communication kernels (vcube_kernel_run)",
	[VCUBE_ALGO_SHIFT] = "shifts (vcube-bench --shift)",
};

static const struct {
	unsigned int bit;
	const char *word;
} needs[] = {
	{ VCUBE_ALGO_POW2, "pow2" },
	{ VCUBE_ALGO_GRID, "grid" },
	{ VCUBE_ALGO_FORCED, "forced" },
	{ VCUBE_ALGO_CNET, "cnet" },
	{ VCUBE_ALGO_COSTS, "costs" },
};

#define NNEEDS	(sizeof(needs) / sizeof(needs[0]))

/* A string for JSON: the registry's texts have no quote or backslash. */
static void json_needs(FILE *f, unsigned int n)
{
	const char *sep = "";
	size_t i;

	fputc('[', f);
	for (i = 0; i < NNEEDS; i++)
		if (n & needs[i].bit) {
			fprintf(f, "%s\"%s\"", sep, needs[i].word);
			sep = ", ";
		}
	fputc(']', f);
}

static void row(FILE *f, const struct vcube_algo *a, bool json,
		const char *sep)
{
	size_t i;

	if (json) {
		fprintf(f, "%s\n  {\"kind\": \"%s\", \"name\": \"%s\", \"source\": \"%s\", \"summary\": \"%s\", \"needs\": ",
			sep, vcube_algo_kind_name(a->kind), a->name, a->source,
			a->summary);
		json_needs(f, a->needs);
		fputc('}', f);
		return;
	}
	fprintf(f, "  %-14s %-30s %s", a->name, a->source, a->summary);
	for (i = 0; i < NNEEDS; i++)
		if (a->needs & needs[i].bit)
			fprintf(f, " [%s]", needs[i].word);
	fputc('\n', f);
}

int vcube_tool_algos_print(FILE *f, unsigned int mask, bool json)
{
	const char *sep = "";
	unsigned int k;
	size_t i;

	if (json)
		fputc('[', f);
	for (k = 0; k < VCUBE_ALGO_NKINDS; k++) {
		if (!(mask & 1U << k))
			continue;
		if (!json)
			fprintf(f, "%s%s:\n", *sep ? "\n" : "", how[k]);
		for (i = 0; i < vcube_algo_count(); i++)
			if (vcube_algo_get(i)->kind == k) {
				row(f, vcube_algo_get(i), json, sep);
				sep = ",";
			}
	}
	if (json)
		fputs("\n]\n", f);
	else
		fputs("\nneeds: pow2 = a power of two of ranks, grid = a mesh or torus of\n"
		      "exactly that many nodes, forced = FORCED messages after a global\n"
		      "synchronisation, cnet = a control network, costs = the measured\n"
		      "message costs (measured first)\n", f);
	return ferror(f) ? -EIO : 0;
}

void vcube_tool_algos_names(FILE *f, const char *lead, unsigned int mask)
{
	size_t i, col = strlen(lead), w;
	const struct vcube_algo *a;

	fputs(lead, f);
	for (i = 0; i < vcube_algo_count(); i++) {
		a = vcube_algo_get(i);
		if (!(mask & 1U << a->kind))
			continue;
		w = strlen(a->name) + 1;
		if (col + w > 72) {
			fprintf(f, "\n%*s", (int)strlen(lead), "");
			col = strlen(lead);
		}
		fprintf(f, " %s", a->name);
		col += w;
	}
	fputc('\n', f);
}
