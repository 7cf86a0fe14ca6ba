// SPDX-License-Identifier: MIT
/*
 * Each message's route from a trace (routes.h): its DATA records and its
 * MSG record, grouped by message number. The MSG record's hop is the
 * route's length, so that is known even when the ring has lost some of
 * the channels' records; a message whose MSG record is gone has as many
 * hops as its DATA records say, and is whole only if none is missing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_print.h"
#include "common/routes.h"

static bool rt_kept(const struct vcube_trace_rec *r)
{
	return r->msg != VCUBE_TRACE_NONE &&
	       (r->kind == VCUBE_TRACE_KIND_DATA ||
		r->kind == VCUBE_TRACE_KIND_MSG);
}

/* By message, then hop, then the order they were written in. */
static int rt_cmp(const void *a, const void *b)
{
	const struct vcube_trace_rec *x = *(const struct vcube_trace_rec *const *)a;
	const struct vcube_trace_rec *y = *(const struct vcube_trace_rec *const *)b;

	if (x->msg != y->msg)
		return x->msg < y->msg ? -1 : 1;
	if (x->hop != y->hop)
		return x->hop < y->hop ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The ends, times and length of the message of records @p[0..@k). */
static void rt_head(struct vcube_tool_route *rt,
		    const struct vcube_trace_rec *const *p, size_t k)
{
	const struct vcube_trace_rec *m = NULL, *d = NULL;
	size_t i;

	for (i = 0; i < k; i++) {
		if (p[i]->kind == VCUBE_TRACE_KIND_MSG)
			m = p[i];
		else if (!d)
			d = p[i];
		if (p[i]->kind == VCUBE_TRACE_KIND_DATA &&
		    p[i]->hop + 1 > rt->hops)
			rt->hops = p[i]->hop + 1;
		if (!i || p[i]->start < rt->start)
			rt->start = p[i]->start;
		if (p[i]->end > rt->end)
			rt->end = p[i]->end;
	}
	if (!m)
		m = d;
	else
		rt->hops = m->hop, rt->start = m->start, rt->end = m->end,
		rt->cause = m->cause, rt->holder = m->holder,
		rt->delivered = true;
	rt->msg = m->msg;
	rt->src = m->src;
	rt->dst = m->dst;
	rt->tag = m->tag;
	rt->bytes = m->bytes;
}

/* Is @rt minimal, as @ops judges (rt->min_hops known): 1, 0, -1 unknown. */
static int rt_minimal(const struct vcube_tool_route *rt,
		      const struct vcube_tool_route_ops *ops)
{
	unsigned int want[64];
	int n;

	if (rt->hops != rt->min_hops || !ops->minroute)
		return rt->hops == rt->min_hops;
	if (!rt->whole)
		return -1;
	n = ops->minroute(ops->ctx, rt->src, rt->dst, want, 64);
	if (n == -EINVAL)	/* minimal routes are many: its length says */
		return 1;
	if (n < 0 || n > 64)
		return -1;
	return (unsigned int)n == rt->hops &&
	       !memcmp(want, rt->chan, rt->hops * sizeof(*want));
}

/* One message's route from its records @p[0..@k) (sorted). */
static int rt_one(struct vcube_tool_route *rt,
		  const struct vcube_trace_rec *const *p, size_t k,
		  const struct vcube_tool_route_ops *ops)
{
	unsigned int h;
	size_t i;

	memset(rt, 0, sizeof(*rt));
	rt->holder = VCUBE_TRACE_NONE;
	rt_head(rt, p, k);
	rt->chan = malloc((rt->hops ?: 1) * sizeof(*rt->chan));
	if (!rt->chan)
		return -ENOMEM;
	for (h = 0; h < rt->hops; h++)
		rt->chan[h] = VCUBE_TRACE_NONE;
	for (i = 0; i < k; i++)
		if (p[i]->kind == VCUBE_TRACE_KIND_DATA && p[i]->hop < rt->hops &&
		    rt->chan[p[i]->hop] == VCUBE_TRACE_NONE)
			rt->chan[p[i]->hop] = p[i]->channel;
	rt->whole = true;
	for (h = 0; h < rt->hops; h++)
		rt->whole &= rt->chan[h] != VCUBE_TRACE_NONE;
	rt->min_hops = ops && ops->dist && rt->dst != VCUBE_TRACE_NONE ?
		       ops->dist(ops->ctx, rt->src, rt->dst) : VCUBE_TRACE_NONE;
	rt->minimal = -1;
	if (rt->min_hops != VCUBE_TRACE_NONE && (rt->delivered || rt->whole))
		rt->minimal = rt_minimal(rt, ops);
	return 0;
}

int vcube_tool_routes(const struct vcube_trace_rec *r, size_t n,
		      const struct vcube_tool_route_ops *ops,
		      struct vcube_tool_route **out, size_t *nout)
{
	const struct vcube_trace_rec **p;
	struct vcube_tool_route *rt;
	size_t i, j, k = 0, m = 0;
	int ret = 0;

	*out = NULL;
	*nout = 0;
	p = malloc((n ?: 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (rt_kept(&r[i]))
			p[k++] = &r[i];
	qsort(p, k, sizeof(*p), rt_cmp);
	for (i = 0; i < k; i++)
		m += !i || p[i]->msg != p[i - 1]->msg;
	rt = calloc(m ?: 1, sizeof(*rt));
	if (!rt) {
		free(p);
		return -ENOMEM;
	}
	for (i = 0, m = 0; i < k && !ret; i = j, m++) {
		for (j = i + 1; j < k && p[j]->msg == p[i]->msg; j++)
			;
		ret = rt_one(&rt[m], p + i, j - i, ops);
	}
	free(p);
	if (ret) {
		vcube_tool_routes_free(rt, m);
		return ret;
	}
	*out = rt;
	*nout = m;
	return 0;
}

void vcube_tool_routes_free(struct vcube_tool_route *rt, size_t n)
{
	size_t i;

	for (i = 0; rt && i < n; i++)
		free(rt[i].chan);
	free(rt);
}

static int rt_find_cmp(const void *key, const void *e)
{
	uint32_t m = *(const uint32_t *)key;
	const struct vcube_tool_route *rt = e;

	return m < rt->msg ? -1 : m > rt->msg;
}

const struct vcube_tool_route *
vcube_tool_route_find(const struct vcube_tool_route *rt, size_t n,
		      uint32_t msg)
{
	return rt && n ? bsearch(&msg, rt, n, sizeof(*rt), rt_find_cmp) : NULL;
}

const char *vcube_tool_route_minimal(const struct vcube_tool_route *rt)
{
	return rt->minimal < 0 ? "unknown" : rt->minimal ? "yes" : "no";
}

void vcube_tool_route_format(const struct vcube_tool_route *rt, char *buf,
			     size_t len)
{
	size_t at = 0;
	unsigned int h;
	int w;

	if (!len)
		return;
	buf[0] = '\0';
	for (h = 0; h < rt->hops; h++) {
		if (rt->chan[h] == VCUBE_TRACE_NONE)
			w = snprintf(buf + at, len - at, "%s?", h ? "," : "");
		else
			w = snprintf(buf + at, len - at, "%s%u", h ? "," : "",
				     rt->chan[h]);
		if (w < 0 || (size_t)w >= len - at) {
			if (len >= 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		at += (size_t)w;
	}
}

void vcube_tool_route_print(struct vcube_print *p,
			    const struct vcube_tool_route *rt,
			    vcube_tool_chan_name_fn name, void *ctx)
{
	char buf[256];
	unsigned int h;

	vcube_tool_route_format(rt, buf, sizeof(buf));
	vcube_print_text(p, " route %s", rt->hops ? buf : "-");
	vcube_print_open(p, "route", '[');
	for (h = 0; h < rt->hops; h++)
		if (rt->chan[h] == VCUBE_TRACE_NONE)
			vcube_print_null(p, VCUBE_PRINT_JSON, NULL, NULL);
		else
			vcube_print_uint(p, VCUBE_PRINT_JSON, NULL, NULL,
					 rt->chan[h]);
	vcube_print_close(p);
	if (name) {
		vcube_print_open(p, "route_links", '[');
		for (h = 0; h < rt->hops; h++) {
			if (rt->chan[h] == VCUBE_TRACE_NONE) {
				vcube_print_null(p, VCUBE_PRINT_JSON, NULL, NULL);
				continue;
			}
			name(ctx, rt->chan[h], buf, sizeof(buf));
			vcube_print_str(p, VCUBE_PRINT_JSON, NULL, NULL, buf);
		}
		vcube_print_close(p);
	}
	vcube_print_uint(p, VCUBE_PRINT_ANY, "hops", " hops %llu", rt->hops);
	if (rt->min_hops != VCUBE_TRACE_NONE)
		vcube_print_uint(p, VCUBE_PRINT_ANY, "min_hops", " min %llu",
				 rt->min_hops);
	if (rt->minimal < 0)
		vcube_print_null(p, VCUBE_PRINT_ANY, "minimal",
				 " minimal unknown");
	else
		vcube_print_str(p, VCUBE_PRINT_TEXT, NULL, " minimal %s",
				vcube_tool_route_minimal(rt));
	if (rt->minimal >= 0)
		vcube_print_bool(p, VCUBE_PRINT_JSON, "minimal", NULL,
				 rt->minimal);
}

void vcube_tool_link_ends(char *buf, size_t len, unsigned int topology,
			  unsigned int from_level, unsigned int from,
			  unsigned int to_level, unsigned int to,
			  unsigned int dir, unsigned int lane,
			  unsigned int width)
{
	char a[24], b[24];

	if (from_level)
		snprintf(a, sizeof(a), "L%u:%u", from_level, from);
	else
		snprintf(a, sizeof(a), "%u", from);
	if (to_level)
		snprintf(b, sizeof(b), "L%u:%u", to_level, to);
	else
		snprintf(b, sizeof(b), "%u", to);
	if (topology == VCUBE_TOPOLOGY_FATTREE)
		snprintf(buf, len, "%s->%s %s %s %u", a, b,
			 vcube_dir_name(topology, dir),
			 width > 1 ? "width" : "lane", width > 1 ? width : lane);
	else if (topology == VCUBE_TOPOLOGY_HYPERCUBE)
		snprintf(buf, len, "%s->%s dim %u", a, b, dir);
	else
		snprintf(buf, len, "%s->%s %s", a, b,
			 vcube_dir_name(topology, dir));
}

const char *vcube_tool_trace_cause_name(unsigned int cause)
{
	static const char *const names[] = {
		[VCUBE_TRACE_CAUSE_TRANSIT] = "transit",
		[VCUBE_TRACE_CAUSE_NOSEND] = "nosend",
		[VCUBE_TRACE_CAUSE_CHAN] = "chan",
		[VCUBE_TRACE_CAUSE_PORT] = "port",
		[VCUBE_TRACE_CAUSE_DUPLEX] = "duplex",
		[VCUBE_TRACE_CAUSE_RECV] = "recv",
		[VCUBE_TRACE_CAUSE_CNET] = "cnet",
		[VCUBE_TRACE_CAUSE_COMPUTE] = "compute",
		[VCUBE_TRACE_CAUSE_COPY] = "copy",
		[VCUBE_TRACE_CAUSE_JITTER] = "jitter",
	};

	return cause < sizeof(names) / sizeof(names[0]) && names[cause] ?
	       names[cause] : "unknown";
}
