// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl trace --format perfetto: the kernel's record of channel use as
 * Chrome trace-event JSON, which Perfetto's web UI (ui.perfetto.dev) and
 * chrome://tracing open. Process 1 holds one track per link, process 2 one
 * per node; a track splits into lanes where slices overlap (several
 * messages sharing a wormhole link, a node's non-blocking sends), since
 * the slices of one track must nest. Each message's data is a flow from
 * its first hop, through each link, to its receiver, and each link's
 * occupancy (the transfers holding it) is a counter. Times are virtual,
 * in microseconds as the format wants, to the ns.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcubectl/vcubectl.h"

#define PF_LINKS	1
#define PF_NODES	2
#define PF_LANES	VC_LANES

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

/* Microseconds, to the ns. */
static void pf_us(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000,
		(unsigned int)(ns % 1000));
}

static const char *const pf_kinds[] = {
	[VCUBE_TRACE_KIND_PROBE] = "probe",
	[VCUBE_TRACE_KIND_REQUEST] = "request",
	[VCUBE_TRACE_KIND_DATA] = "data",
};

static const char *pf_kind(unsigned int kind)
{
	return kind < sizeof(pf_kinds) / sizeof(pf_kinds[0]) ?
	       pf_kinds[kind] : "unknown";
}

/* One slice ("X") on lane @lane of track @tid of process @pid. */
static void pf_slice(FILE *f, unsigned int pid, unsigned int tid,
		     const char *name, const struct vcube_trace_rec *r,
		     uint64_t start, uint64_t end)
{
	fprintf(f, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\"",
		pid, tid, name);
	pf_us(f, "ts", start);
	pf_us(f, "dur", end - start);
	fprintf(f, ",\"args\":{\"msg\":%u,\"kind\":\"%s\",\"src\":%u,\"dst\":%u,"
		"\"tag\":%u,\"bytes\":%" PRIu64 ",\"channel\":%u,\"hop\":%u}}",
		r->msg, pf_kind(r->kind), r->src, r->dst, r->tag, r->bytes,
		r->channel, r->hop);
}

/* A flow event ('s', 't' or 'f') of message @r, bound to the slice at @ts. */
static void pf_flow(FILE *f, char ph, unsigned int pid, unsigned int tid,
		    const struct vcube_trace_rec *r, uint64_t ts)
{
	fprintf(f, ",\n{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"id\":%u,"
		"\"cat\":\"message\",\"name\":\"msg %u\"%s", ph, pid, tid,
		r->msg, r->msg, ph == 'f' ? ",\"bp\":\"e\"" : "");
	pf_us(f, "ts", ts);
	fputc('}', f);
}

struct pf_state {
	struct vc_lanes *links, *nodes;
	size_t nlinks, nnodes;
};

/*
 * Record @i: its link slice and, for a message's data, the flow through
 * it; the first and last hop also give the sender's and receiver's slice.
 */
static void pf_record(FILE *f, struct pf_state *s,
		      const struct vcube_trace_rec *r, size_t n, size_t i)
{
	const struct vcube_trace_rec *x = &r[i];
	unsigned int lane, tid, ntid;
	char name[48];
	bool last = vc_trace_last_hop(r, n, i);

	if (x->channel >= s->nlinks)
		return;
	lane = vc_lane(&s->links[x->channel], x->start, x->end);
	tid = x->channel * PF_LANES + lane;
	snprintf(name, sizeof(name), "%s %u->%u", pf_kind(x->kind), x->src,
		 x->dst);
	pf_slice(f, PF_LINKS, tid, name, x, x->start, x->end);
	if (x->kind != VCUBE_TRACE_KIND_DATA)
		return;
	if (x->hop == 0 && x->src < s->nnodes) {
		lane = vc_lane(&s->nodes[x->src], x->start, x->end);
		ntid = x->src * PF_LANES + lane;
		snprintf(name, sizeof(name), "send to %u", x->dst);
		pf_slice(f, PF_NODES, ntid, name, x, x->start, x->end);
		pf_flow(f, 's', PF_NODES, ntid, x, x->start);
	}
	pf_flow(f, 't', PF_LINKS, tid, x, x->start);
	if (last && x->dst < s->nnodes) {
		lane = vc_lane(&s->nodes[x->dst], x->end, x->end + 1);
		ntid = x->dst * PF_LANES + lane;
		snprintf(name, sizeof(name), "receive from %u", x->src);
		pf_slice(f, PF_NODES, ntid, name, x, x->end, x->end + 1);
		pf_flow(f, 'f', PF_NODES, ntid, x, x->end);
	}
}

/* Names for the tracks and lanes used, once the lanes are known. */
static void pf_names(FILE *f, const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, const struct pf_state *s)
{
	char ends[64];
	size_t i;
	unsigned int k;

	fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":\"links\"}}",
		PF_LINKS);
	fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":\"nodes\"}}",
		PF_NODES);
	for (i = 0; i < s->nlinks; i++) {
		vc_link_ends(t, &l[i], ends, sizeof(ends));
		for (k = 0; k < s->links[i].nlanes; k++)
			fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%zu,\"name\":\"thread_name\",\"args\":{\"name\":\"%zu: %s%s%.0u\"}}",
				PF_LINKS, i * PF_LANES + k, i, ends,
				k ? " lane " : "", k);
	}
	for (i = 0; i < s->nnodes; i++)
		for (k = 0; k < s->nodes[i].nlanes; k++)
			fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%zu,\"name\":\"thread_name\",\"args\":{\"name\":\"node %zu%s%.0u\"}}",
				PF_NODES, i * PF_LANES + k, i,
				k ? " lane " : "", k);
}

/* A channel's occupancy changes by @d at @t. */
struct pf_occ {
	uint32_t chan;
	int d;
	uint64_t t;
};

static int pf_occ_cmp(const void *a, const void *b)
{
	const struct pf_occ *x = a, *y = b;

	if (x->chan != y->chan)
		return x->chan < y->chan ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->d - y->d;	/* releases before takes */
}

/*
 * Counters ("C"): each link's occupancy, the transfers holding it, at every
 * instant it changes, named as its tracks are; 0 or -ENOMEM.
 */
static int pf_counters(FILE *f, const struct vcube_nl_topo *t,
		       const struct vcube_nl_link *l, size_t nl,
		       const struct vcube_trace_rec *r, size_t n)
{
	struct pf_occ *o = calloc(2 * n + 1, sizeof(*o));
	size_t i, k = 0;
	char ends[64];
	int level = 0;

	if (!o)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (r[i].channel >= nl)
			continue;
		o[k++] = (struct pf_occ){ r[i].channel, 1, r[i].start };
		o[k++] = (struct pf_occ){ r[i].channel, -1, r[i].end };
	}
	qsort(o, k, sizeof(*o), pf_occ_cmp);
	for (i = 0; i < k; i++) {
		level += o[i].d;
		if (i + 1 < k && o[i + 1].chan == o[i].chan && o[i + 1].t == o[i].t)
			continue;	/* one value per instant */
		vc_link_ends(t, &l[o[i].chan], ends, sizeof(ends));
		fprintf(f, ",\n{\"ph\":\"C\",\"pid\":%u,\"name\":\"%u: %s occupancy\"",
			PF_LINKS, o[i].chan, ends);
		pf_us(f, "ts", o[i].t);
		fprintf(f, ",\"args\":{\"transfers\":%d}}", level);
		if (i + 1 == k || o[i + 1].chan != o[i].chan)
			level = 0;
	}
	free(o);
	return 0;
}

int vc_perfetto_write(FILE *f, const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *l, size_t nl,
		      const struct vcube_trace_rec *r, size_t n)
{
	struct pf_state s = { .nlinks = nl, .nnodes = t->nodes };
	size_t i;
	int ret;

	s.links = calloc(nl + 1, sizeof(*s.links));
	s.nodes = calloc(t->nodes + 1, sizeof(*s.nodes));
	if (!s.links || !s.nodes) {
		free(s.links);
		free(s.nodes);
		return -ENOMEM;
	}
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"topology\":\"%s\","
		"\"shape\":\"%s\",\"profile\":\"%s\",\"records\":%zu,\"dropped\":%" PRIu64 "},\"traceEvents\":[\n"
		"{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"vcube\"}}",
		vcube_topology_name(t->kind), t->shape, t->profile, n,
		n ? r[0].seq : 0);
	/*
	 * As recorded: at delivery, a transfer's hops together in hop order;
	 * a lane takes a slice only after its last one ended, so none overlap.
	 */
	for (i = 0; i < n; i++)
		pf_record(f, &s, r, n, i);
	ret = pf_counters(f, t, l, nl, r, n);
	pf_names(f, t, l, &s);
	fputs("\n]}\n", f);
	free(s.links);
	free(s.nodes);
	return ret ?: ferror(f) ? -EIO : 0;
}
