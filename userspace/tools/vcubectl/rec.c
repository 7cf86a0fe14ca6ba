// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl: reading the kernel's trace records, for the commands that
 * print them (trace.c) and the exports that draw them (perfetto.c,
 * paje.c): the names of their kinds, protocols and causes, a node's
 * records in a fixed order, and the lanes of a track.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/routes.h"
#include "vcubectl/vcubectl.h"

const char *vc_trace_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		[VCUBE_TRACE_KIND_PROBE] = "probe",
		[VCUBE_TRACE_KIND_REQUEST] = "request",
		[VCUBE_TRACE_KIND_DATA] = "data",
		[VCUBE_TRACE_KIND_MSG] = "msg",
		[VCUBE_TRACE_KIND_WAIT] = "wait",
		[VCUBE_TRACE_KIND_MARK] = "mark",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] :
							 "unknown";
}

const char *vc_trace_proto_name(unsigned int proto)
{
	static const char *const names[] = {
		[VCUBE_TRACE_PROTO_SHORT] = "short",
		[VCUBE_TRACE_PROTO_LONG] = "long",
		[VCUBE_TRACE_PROTO_FORCED] = "forced",
	};

	return proto < sizeof(names) / sizeof(names[0]) ? names[proto] :
							  "unknown";
}

const char *vc_trace_cause_name(unsigned int cause)
{
	return vcube_tool_trace_cause_name(cause);
}

/* qsort() of pointers to a node's records: see vc_trace_node_recs(). */
static int vc_trace_node_cmp(const void *a, const void *b)
{
	const struct vcube_trace_rec *x = *(const struct vcube_trace_rec *const *)a;
	const struct vcube_trace_rec *y = *(const struct vcube_trace_rec *const *)b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->cause != y->cause)
		return x->cause < y->cause ? -1 : 1;
	if (x->msg != y->msg)
		return x->msg < y->msg ? -1 : 1;
	/* the same in all but their place: a node's own calls, in its order */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const struct vcube_trace_rec **vc_trace_node_recs(const struct vcube_trace_rec *r,
						size_t n, unsigned int kind,
						unsigned int nodes, size_t *k)
{
	const struct vcube_trace_rec **p = calloc(n + 1, sizeof(*p));
	size_t i;

	*k = 0;
	if (!p)
		return NULL;
	for (i = 0; i < n; i++)
		if (r[i].kind == kind && r[i].src < nodes)
			p[(*k)++] = &r[i];
	qsort(p, *k, sizeof(*p), vc_trace_node_cmp);
	return p;
}

uint64_t vc_trace_held_from(const struct vcube_trace_rec *r)
{
	return r->acquired <= r->start ? r->acquired : r->start;
}

bool vc_trace_is_chan(const struct vcube_trace_rec *r)
{
	return r->kind <= VCUBE_TRACE_KIND_DATA;
}

unsigned int vc_lane(struct vc_lanes *t, uint64_t start, uint64_t end)
{
	unsigned int i;

	for (i = 0; i < t->nlanes; i++)
		if (t->busy_until[i] <= start)
			break;
	if (i == VC_LANES)
		i = VC_LANES - 1;
	if (i == t->nlanes)
		t->nlanes++;
	t->busy_until[i] = end;
	return i;
}

bool vc_trace_last_hop(const struct vcube_trace_rec *r, size_t n, size_t i)
{
	return i + 1 == n || r[i + 1].msg != r[i].msg ||
	       r[i + 1].kind != r[i].kind || r[i + 1].hop != r[i].hop + 1;
}
