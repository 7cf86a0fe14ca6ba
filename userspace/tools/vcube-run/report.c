// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-run: what failed before the programs started, said once for the
 * job rather than once a rank. The ranks that failed the same way (the
 * same errno) make one line naming their nodes as a list, so eight ranks
 * that find their nodes held by another job say so in one line, with the
 * pid holding the first; ranks that failed in different ways get a line
 * each way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcube-run/run.h"
#include "vcube.h"

/*
 * The ranks whose @err is @e, into @out (their nodes if @nodes, else the
 * ranks themselves): how many.
 */
static unsigned int report_pick(const struct run_place *p, const int *err,
				int e, bool nodes, unsigned int *out)
{
	unsigned int r, k = 0;

	for (r = 0; r < p->n; r++)
		if (err[r] == e)
			out[k++] = nodes ? p->node[r] : r;
	return k;
}

/* From rank *@r on, the first failure not said yet: its errno (0: none). */
static int report_next(const struct run_place *p, const int *err,
		       const bool *said, unsigned int *r)
{
	for (; *r < p->n; (*r)++)
		if (err[*r] && !said[*r])
			return err[*r];
	return 0;
}

/* " (node N held by pid P)" for the first of @nodes a process holds. */
static void report_holder(const unsigned int *nodes, unsigned int k,
			  char *buf, size_t len)
{
	struct vcube_node_desc d;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < k; i++) {
		if (!vcube_node_describe(NULL, nodes[i], &d) && d.owner > 0) {
			snprintf(buf, len, " (node %u held by pid %d)",
				 nodes[i], d.owner);
			return;
		}
	}
}

/* Say each way @err failed once: @what(list, how many, errno). */
static void report_each(const struct run_place *p, const int *err, bool nodes,
			void (*what)(const char *list, unsigned int k,
				     const unsigned int *picked, int e,
				     const void *ctx),
			const void *ctx)
{
	unsigned int *picked = calloc(p->n, sizeof(*picked)), r = 0, k, i;
	size_t len = (size_t)p->n * 12 + 1;
	bool *said = calloc(p->n, sizeof(*said));
	char *list = malloc(len);
	int e;

	if (!picked || !said || !list) {
		fprintf(stderr, "vcube-run: out of memory\n");
		goto out;
	}
	while ((e = report_next(p, err, said, &r))) {
		k = report_pick(p, err, e, nodes, picked);
		for (i = 0; i < p->n; i++)
			said[i] = said[i] || err[i] == e;
		if (vcube_nodelist_format(picked, k, list, len))
			snprintf(list, len, "?");
		what(list, k, picked, e, ctx);
	}
out:
	free(picked);
	free(said);
	free(list);
}

static void report_bind_line(const char *list, unsigned int k,
			     const unsigned int *nodes, int e, const void *ctx)
{
	char holder[64] = "";

	if (e == EBUSY)
		report_holder(nodes, k, holder, sizeof(holder));
	fprintf(stderr, "vcube-run: node%s %s of network %s: %s%s\n",
		k == 1 ? "" : "s", list, (const char *)ctx,
		e > 0 ? strerror(e) : "its process died before binding it",
		holder);
}

void run_report_bind(const struct run_place *p, const int *err,
		     const char *net)
{
	report_each(p, err, true, report_bind_line, net);
}

struct report_exec {
	const char *prog;
	unsigned int n;
};

static void report_exec_line(const char *list, unsigned int k,
			     const unsigned int *ranks, int e, const void *ctx)
{
	const struct report_exec *x = ctx;

	(void)ranks;
	if (k == x->n)
		fprintf(stderr, "vcube-run: %s: %s\n", x->prog, strerror(e));
	else
		fprintf(stderr, "vcube-run: rank%s %s: %s: %s\n",
			k == 1 ? "" : "s", list, x->prog, strerror(e));
}

void run_report_exec(const struct run_place *p, const int *err,
		     const char *prog)
{
	struct report_exec x = { .prog = prog, .n = p->n };

	report_each(p, err, false, report_exec_line, &x);
}
