// SPDX-License-Identifier: MIT
/*
 * The registry (userspace/lib/algo.c) as the tools print it.
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "common/algos.h"
#include "common/json_print.h"
#include "vcube.h"

/* The tool option that runs each kind. */
static const char *const how[VCUBE_ALGO_NKINDS] = {
	[VCUBE_ALGO_XCHG] = "complete exchanges (vcube-bench exchange, fft)",
	[VCUBE_ALGO_IRREGULAR] = "irregular schedules (vcube-bench irregular)",
	[VCUBE_ALGO_SYNC] = "barriers (vcube-bench barrier, shift)",
	[VCUBE_ALGO_BCAST] = "broadcasts (vcube-bench bcast, ge)",
	[VCUBE_ALGO_REDUCE] = "reductions (vcube-bench reduce, ge)",
	[VCUBE_ALGO_SCAN] = "scans (vcube_scan_run)",
	[VCUBE_ALGO_KERNEL] = "communication kernels (vcube_kernel_run)",
	[VCUBE_ALGO_SHIFT] = "shifts (vcube_shift_run)",
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

/*
 * The table's columns: the name as wide as the registry's longest, the
 * source as its longest up to SOURCE_MAX; a longer source puts its
 * summary on the next line, in the summary's column.
 */
#define SOURCE_MAX	32

struct cols {
	char name[32], source[32];
	size_t wn, ws;
};

static void cols_fit(struct cols *c)
{
	size_t i, n;

	c->wn = c->ws = 0;
	for (i = 0; i < vcube_algo_count(); i++) {
		n = strlen(vcube_algo_get(i)->name);
		c->wn = n > c->wn ? n : c->wn;
		n = strlen(vcube_algo_get(i)->source);
		c->ws = n > c->ws && n <= SOURCE_MAX ? n : c->ws;
	}
	snprintf(c->name, sizeof(c->name), "  %%-%zus", c->wn + 1);
	snprintf(c->source, sizeof(c->source), " %%-%zus", c->ws + 1);
}

/* One algorithm: a table's line, or an object of the JSON array. */
static void row(struct vcube_print *p, const struct cols *c,
		const struct vcube_algo *a)
{
	size_t i;

	vcube_print_open(p, NULL, '{');
	vcube_print_str(p, VCUBE_PRINT_JSON, "kind", NULL,
			vcube_algo_kind_name(a->kind));
	vcube_print_str(p, VCUBE_PRINT_ANY, "name", c->name, a->name);
	vcube_print_str(p, VCUBE_PRINT_ANY, "source", c->source, a->source);
	if (strlen(a->source) > c->ws)
		vcube_print_text(p, "\n%*s", (int)(c->wn + c->ws + 5), "");
	vcube_print_str(p, VCUBE_PRINT_ANY, "summary", " %s", a->summary);
	vcube_print_open(p, "needs", '[');
	for (i = 0; i < NNEEDS; i++)
		if (a->needs & needs[i].bit)
			vcube_print_str(p, VCUBE_PRINT_ANY, NULL, " [%s]",
					needs[i].word);
	vcube_print_close(p);
	vcube_print_text(p, "\n");
	vcube_print_close(p);
}

int vcube_tool_algos_print(FILE *f, unsigned int mask, bool json)
{
	struct vcube_print p;
	bool first = true;
	struct cols c;
	unsigned int k;
	size_t i;

	cols_fit(&c);
	/* the array written as it goes, an algorithm a line */
	vcube_print_init(&p, f, json, JSON_C_TO_STRING_SPACED | VCUBE_PRINT_LINES,
			 1);
	vcube_print_open(&p, NULL, '[');
	for (k = 0; k < VCUBE_ALGO_NKINDS; k++) {
		if (!(mask & 1U << k))
			continue;
		vcube_print_text(&p, "%s%s:\n", first ? "" : "\n", how[k]);
		first = false;
		for (i = 0; i < vcube_algo_count(); i++)
			if (vcube_algo_get(i)->kind == k)
				row(&p, &c, vcube_algo_get(i));
	}
	vcube_print_close(&p);
	vcube_print_text(&p, "\nneeds: pow2 = a power of two of ranks, grid = a 2-D mesh or torus\n"
			 "(rows= cols=, not dims=) of exactly that many nodes, forced = FORCED messages after a global\n"
			 "synchronisation, cnet = a control network, costs = the measured\n"
			 "message costs (measured first)\n");
	return vcube_print_end(&p);
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
