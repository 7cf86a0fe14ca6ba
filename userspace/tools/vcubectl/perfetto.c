// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl trace --format perfetto: the kernel's trace as Chrome
 * trace-event JSON, which Perfetto's web UI (ui.perfetto.dev) and
 * chrome://tracing open. Process 1 holds one track per link, process 2 one
 * per node, process 3 one per node for the phases a program marked; a
 * track splits into lanes where slices overlap (several messages sharing a
 * wormhole link, a node's non-blocking sends), since the slices of one
 * track must nest. A node's track shows each message it sent (from the
 * send to the delivery), each it received, and each interval it waited,
 * named by its cause. Each message is a flow from its sender, through each
 * link its data held, to its receiver, and each link's occupancy (the
 * transfers holding it) is a counter. Times are virtual, in microseconds
 * as the format wants, to the ns.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/json_print.h"
#include "vcubectl/vcubectl.h"

#define PF_LINKS	1
#define PF_NODES	2
#define PF_PHASES	3
#define PF_LANES	VC_LANES

/* Microseconds, to the ns. */
static void pf_us(struct vcube_print *p, const char *key, uint64_t ns)
{
	char s[32];	/* the digits as counted, not as a double prints */

	snprintf(s, sizeof(s), "%" PRIu64 ".%03u", ns / 1000,
		 (unsigned int)(ns % 1000));
	vcube_print_value(p, key, json_object_new_double_s(ns / 1e3, s));
}

static void pf_u(struct vcube_print *p, const char *key, uint64_t v)
{
	vcube_print_uint(p, VCUBE_PRINT_JSON, key, NULL, v);
}

static void pf_s(struct vcube_print *p, const char *key, const char *v)
{
	vcube_print_str(p, VCUBE_PRINT_JSON, key, NULL, v);
}

/* An event's start: its phase, process and (if not -1) track, and name. */
static void pf_event(struct vcube_print *p, const char *ph, unsigned int pid,
		     long long tid, const char *name)
{
	vcube_print_open(p, NULL, '{');
	pf_s(p, "ph", ph);
	pf_u(p, "pid", pid);
	if (tid >= 0)
		pf_u(p, "tid", (uint64_t)tid);
	if (name)
		pf_s(p, "name", name);
}

/* A metadata event: @what ("process_name", "thread_name") is @name. */
static void pf_meta(struct vcube_print *p, unsigned int pid, long long tid,
		    const char *what, const char *name)
{
	pf_event(p, "M", pid, tid, what);
	vcube_print_open(p, "args", '{');
	pf_s(p, "name", name);
	vcube_print_close(p);
	vcube_print_close(p);
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

/* Channel use @r, held from @start to @end, on track @tid of process @pid. */
static void pf_slice(struct vcube_print *p, unsigned int pid, unsigned int tid,
		     const char *name, const struct vcube_trace_rec *r,
		     uint64_t start, uint64_t end)
{
	pf_event(p, "X", pid, tid, name);
	pf_us(p, "ts", start);
	pf_us(p, "dur", end - start);
	vcube_print_open(p, "args", '{');
	pf_u(p, "msg", r->msg);
	pf_s(p, "kind", pf_kind(r->kind));
	pf_u(p, "src", r->src);
	pf_u(p, "dst", r->dst);
	pf_u(p, "tag", r->tag);
	pf_u(p, "bytes", r->bytes);
	pf_u(p, "channel", r->channel);
	pf_u(p, "hop", r->hop);
	/* held from its header's arrival, the body flowing from body_us */
	pf_us(p, "taken_us", start);
	pf_us(p, "body_us", r->start);
	vcube_print_close(p);
	vcube_print_close(p);
}

/* A flow event ('s', 't' or 'f') of message @r, bound to the slice at @ts. */
static void pf_flow(struct vcube_print *p, char ph, unsigned int pid,
		    unsigned int tid, const struct vcube_trace_rec *r,
		    uint64_t ts)
{
	char phs[2] = { ph, '\0' }, name[24];

	pf_event(p, phs, pid, tid, NULL);
	pf_u(p, "id", r->msg);
	pf_s(p, "cat", "message");
	snprintf(name, sizeof(name), "msg %u", r->msg);
	pf_s(p, "name", name);
	if (ph == 'f')
		pf_s(p, "bp", "e");
	pf_us(p, "ts", ts);
	vcube_print_close(p);
}

struct pf_state {
	struct vc_lanes *links, *nodes;
	size_t nlinks, nnodes;
	const uint32_t *msgs;	/* the messages with a msg record, sorted */
	size_t nmsgs;
};

static int pf_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Does message @msg have its msg record (so its flow starts and ends)? */
static bool pf_has_msg(const struct pf_state *s, uint32_t msg)
{
	return bsearch(&msg, s->msgs, s->nmsgs, sizeof(msg), pf_u32_cmp);
}

/* Channel use @x: its link slice and, for a message's data, a flow step. */
static void pf_record(struct vcube_print *p, struct pf_state *s,
		      const struct vcube_trace_rec *x)
{
	unsigned int lane, tid;
	char name[48];

	if (x->channel >= s->nlinks)
		return;
	lane = vc_lane(&s->links[x->channel], vc_trace_held_from(x), x->end);
	tid = x->channel * PF_LANES + lane;
	snprintf(name, sizeof(name), "%s %u->%u", pf_kind(x->kind), x->src,
		 x->dst);
	pf_slice(p, PF_LINKS, tid, name, x, vc_trace_held_from(x), x->end);
	if (x->kind == VCUBE_TRACE_KIND_DATA && pf_has_msg(s, x->msg))
		pf_flow(p, 't', PF_LINKS, tid, x, x->start);
}

/* A slice on a node's track: a message sent or received, or a wait. */
enum { PF_SEND, PF_RECV, PF_WAIT };

struct pf_item {
	unsigned int node, type;
	uint64_t start, end;
	const struct vcube_trace_rec *r;
};

static int pf_item_cmp(const void *a, const void *b)
{
	const struct pf_item *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;	/* the longer first */
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->r->msg != y->r->msg)
		return x->r->msg < y->r->msg ? -1 : 1;
	return x->r->cause < y->r->cause ? -1 : x->r->cause > y->r->cause;
}

/* The arguments of a message's slices: every time the kernel recorded. */
static void pf_msg_args(struct vcube_print *p, const struct vcube_trace_rec *r)
{
	vcube_print_open(p, "args", '{');
	pf_u(p, "msg", r->msg);
	pf_u(p, "src", r->src);
	pf_u(p, "dst", r->dst);
	pf_u(p, "tag", r->tag);
	pf_u(p, "bytes", r->bytes);
	pf_s(p, "proto", vc_trace_proto_name(r->proto));
	pf_u(p, "hops", r->hop);
	pf_us(p, "posted_us", r->start);
	pf_us(p, "acquired_us", r->acquired);
	pf_us(p, "body_us", r->flow);
	pf_us(p, "delivered_us", r->end);
	pf_s(p, "longest_wait", vc_trace_cause_name(r->cause));
	if (r->holder != VCUBE_TRACE_NONE)
		pf_u(p, "held_by_msg", r->holder);
	if (r->channel != VCUBE_TRACE_NONE)
		pf_u(p, "channel", r->channel);
	vcube_print_close(p);
}

/* A wait's name: its cause, and what held it up. */
static void pf_wait_name(char *b, size_t n, const struct vcube_trace_rec *r)
{
	const char *c = vc_trace_cause_name(r->cause);

	if (r->cause == VCUBE_TRACE_CAUSE_CHAN && r->holder != VCUBE_TRACE_NONE)
		snprintf(b, n, "wait: chan %u held by msg %u", r->channel,
			 r->holder);
	else if (r->holder != VCUBE_TRACE_NONE)
		snprintf(b, n, "wait: %s %s msg %u", c,
			 r->cause == VCUBE_TRACE_CAUSE_DUPLEX ? "behind" :
								"held by", r->holder);
	else if (r->msg != VCUBE_TRACE_NONE)
		snprintf(b, n, "wait: %s (msg %u)", c, r->msg);
	else
		snprintf(b, n, "%s: %s", r->cause >= VCUBE_TRACE_CAUSE_COMPUTE ?
			 "busy" : "wait", c);
}

static void pf_wait_args(struct vcube_print *p, const struct vcube_trace_rec *r)
{
	vcube_print_open(p, "args", '{');
	pf_s(p, "cause", vc_trace_cause_name(r->cause));
	if (r->msg != VCUBE_TRACE_NONE) {
		pf_u(p, "msg", r->msg);
		pf_u(p, "peer", r->dst);
		pf_u(p, "tag", r->tag);
		pf_u(p, "bytes", r->bytes);
	} else if (r->cause >= VCUBE_TRACE_CAUSE_COMPUTE) {
		pf_u(p, "work_ns", r->bytes);
		pf_u(p, "noise_ns", r->end - r->start - r->bytes);
	}
	if (r->channel != VCUBE_TRACE_NONE)
		pf_u(p, "channel", r->channel);
	if (r->holder != VCUBE_TRACE_NONE)
		pf_u(p, "held_by_msg", r->holder);
	vcube_print_close(p);
}

/* Item @it on its node's first free lane, with its flow's end if it has one. */
static void pf_item_write(struct vcube_print *p, struct pf_state *s,
			  const struct pf_item *it)
{
	const struct vcube_trace_rec *r = it->r;
	unsigned int tid = it->node * PF_LANES +
			   vc_lane(&s->nodes[it->node], it->start, it->end);
	char name[64];

	if (it->type == PF_WAIT)
		pf_wait_name(name, sizeof(name), r);
	else
		snprintf(name, sizeof(name), it->type == PF_SEND ?
			 "send to %u" : "receive from %u",
			 it->type == PF_SEND ? r->dst : r->src);
	pf_event(p, "X", PF_NODES, tid, name);
	pf_us(p, "ts", it->start);
	pf_us(p, "dur", it->end - it->start);
	if (it->type == PF_WAIT)
		pf_wait_args(p, r);
	else
		pf_msg_args(p, r);
	vcube_print_close(p);
	if (it->type == PF_SEND)
		pf_flow(p, 's', PF_NODES, tid, r, r->flow);
	else if (it->type == PF_RECV)
		pf_flow(p, 'f', PF_NODES, tid, r, r->end);
}

/*
 * The nodes' tracks: each message's send and receipt, each wait, in an
 * order of their own (node, time), so that the lanes and the file are the
 * same whatever order the ring took them in; 0 or -ENOMEM.
 */
static int pf_nodes(struct vcube_print *p, struct pf_state *s,
		    const struct vcube_trace_rec *r, size_t n)
{
	struct pf_item *it = calloc(2 * n + 1, sizeof(*it));
	size_t i, k = 0;

	if (!it)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (r[i].src >= s->nnodes)
			continue;
		if (r[i].kind == VCUBE_TRACE_KIND_WAIT)
			it[k++] = (struct pf_item){ r[i].src, PF_WAIT,
						    r[i].start, r[i].end, &r[i] };
		if (r[i].kind != VCUBE_TRACE_KIND_MSG || r[i].dst >= s->nnodes)
			continue;
		it[k++] = (struct pf_item){ r[i].src, PF_SEND, r[i].start,
					    r[i].end, &r[i] };
		it[k++] = (struct pf_item){ r[i].dst, PF_RECV, r[i].end,
					    r[i].end + 1, &r[i] };
	}
	qsort(it, k, sizeof(*it), pf_item_cmp);
	for (i = 0; i < k; i++)
		pf_item_write(p, s, &it[i]);
	free(it);
	return 0;
}

/*
 * The phases each node marked: a slice from each mark to the node's next
 * one, the last to the end of the trace; 0 or -ENOMEM.
 */
static int pf_phases(struct vcube_print *p, const struct pf_state *s,
		     const struct vcube_trace_rec *r, size_t n, uint64_t last)
{
	size_t i, k;
	const struct vcube_trace_rec **m =
		vc_trace_node_recs(r, n, VCUBE_TRACE_KIND_MARK, s->nnodes, &k);
	char name[32];
	uint64_t end;

	if (!m)
		return -ENOMEM;
	for (i = 0; i < k; i++) {
		end = i + 1 < k && m[i + 1]->src == m[i]->src ?
		      m[i + 1]->start : last > m[i]->start ? last : m[i]->start;
		pf_event(p, "X", PF_PHASES, m[i]->src, m[i]->label);
		pf_us(p, "ts", m[i]->start);
		pf_us(p, "dur", end - m[i]->start);
		vcube_print_open(p, "args", '{');
		pf_u(p, "node", m[i]->src);
		vcube_print_close(p);
		vcube_print_close(p);
	}
	for (i = 0; i < k; i++)
		if (!i || m[i - 1]->src != m[i]->src) {
			snprintf(name, sizeof(name), "node %u phases",
				 m[i]->src);
			pf_meta(p, PF_PHASES, m[i]->src, "thread_name", name);
		}
	if (k)
		pf_meta(p, PF_PHASES, -1, "process_name", "phases");
	free(m);
	return 0;
}

/* Names for the tracks and lanes used, once the lanes are known. */
static void pf_names(struct vcube_print *p, const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, const struct pf_state *s)
{
	char ends[64], name[128];
	size_t i;
	unsigned int k;

	pf_meta(p, PF_LINKS, -1, "process_name", "links");
	pf_meta(p, PF_NODES, -1, "process_name", "nodes");
	for (i = 0; i < s->nlinks; i++) {
		vc_link_ends(t, &l[i], ends, sizeof(ends));
		for (k = 0; k < s->links[i].nlanes; k++) {
			snprintf(name, sizeof(name), "%zu: %s%s%.0u", i, ends,
				 k ? " lane " : "", k);
			pf_meta(p, PF_LINKS, (long long)(i * PF_LANES + k),
				"thread_name", name);
		}
	}
	for (i = 0; i < s->nnodes; i++)
		for (k = 0; k < s->nodes[i].nlanes; k++) {
			snprintf(name, sizeof(name), "node %zu%s%.0u", i,
				 k ? " lane " : "", k);
			pf_meta(p, PF_NODES, (long long)(i * PF_LANES + k),
				"thread_name", name);
		}
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
static int pf_counters(struct vcube_print *p, const struct vcube_nl_topo *t,
		       const struct vcube_nl_link *l, size_t nl,
		       const struct vcube_trace_rec *r, size_t n)
{
	struct pf_occ *o = calloc(2 * n + 1, sizeof(*o));
	size_t i, k = 0;
	char ends[64], name[128];
	int level = 0;

	if (!o)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!vc_trace_is_chan(&r[i]) || r[i].channel >= nl)
			continue;
		o[k++] = (struct pf_occ){ r[i].channel, 1,
					  vc_trace_held_from(&r[i]) };
		o[k++] = (struct pf_occ){ r[i].channel, -1, r[i].end };
	}
	qsort(o, k, sizeof(*o), pf_occ_cmp);
	for (i = 0; i < k; i++) {
		level += o[i].d;
		if (i + 1 < k && o[i + 1].chan == o[i].chan && o[i + 1].t == o[i].t)
			continue;	/* one value per instant */
		vc_link_ends(t, &l[o[i].chan], ends, sizeof(ends));
		snprintf(name, sizeof(name), "%u: %s occupancy", o[i].chan,
			 ends);
		pf_event(p, "C", PF_LINKS, -1, name);
		pf_us(p, "ts", o[i].t);
		vcube_print_open(p, "args", '{');
		vcube_print_int(p, VCUBE_PRINT_JSON, "transfers", NULL, level);
		vcube_print_close(p);
		vcube_print_close(p);
		if (i + 1 == k || o[i + 1].chan != o[i].chan)
			level = 0;
	}
	free(o);
	return 0;
}

/*
 * The document's start: what was traced (otherData), and the events'
 * array up to its first event, the process of vcube itself.
 */
static void pf_head(struct vcube_print *p, const struct vcube_nl_topo *t,
		    const struct vcube_trace_rec *r, size_t n, size_t nchan,
		    size_t nmsgs)
{
	vcube_print_open(p, NULL, '{');
	pf_s(p, "displayTimeUnit", "ns");
	vcube_print_open(p, "otherData", '{');
	pf_s(p, "topology", vcube_topology_name(t->kind));
	pf_s(p, "shape", t->shape);
	pf_s(p, "profile", t->profile);
	pf_u(p, "records", n);
	pf_u(p, "channel_uses", nchan);
	pf_u(p, "messages", nmsgs);
	pf_u(p, "dropped", n ? r[0].seq : 0);
	vcube_print_close(p);
	vcube_print_open(p, "traceEvents", '[');
	pf_meta(p, 0, -1, "process_name", "vcube");
}

int vc_perfetto_write(FILE *f, const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *l, size_t nl,
		      const struct vcube_trace_rec *r, size_t n)
{
	struct pf_state s = { .nlinks = nl, .nnodes = t->nodes };
	uint32_t *msgs = calloc(n + 1, sizeof(*msgs));
	struct vcube_print p;
	uint64_t last = 0;
	size_t i, nchan = 0;
	int ret;

	s.links = calloc(nl + 1, sizeof(*s.links));
	s.nodes = calloc(t->nodes + 1, sizeof(*s.nodes));
	if (!s.links || !s.nodes || !msgs) {
		free(s.links);
		free(s.nodes);
		free(msgs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (r[i].kind == VCUBE_TRACE_KIND_MSG)
			msgs[s.nmsgs++] = r[i].msg;
		nchan += vc_trace_is_chan(&r[i]);
		last = r[i].end > last ? r[i].end : last;
	}
	qsort(msgs, s.nmsgs, sizeof(*msgs), pf_u32_cmp);
	s.msgs = msgs;
	/* the object and its events written as they go, an event a line */
	vcube_print_init(&p, f, true, JSON_C_TO_STRING_PLAIN | VCUBE_PRINT_LINES,
			 2);
	pf_head(&p, t, r, n, nchan, s.nmsgs);
	/*
	 * Channel uses as recorded: at delivery, a transfer's hops together
	 * in hop order; a lane takes a slice only after its last one ended,
	 * so none overlap. The rest in an order of their own (pf_nodes()).
	 */
	for (i = 0; i < n; i++)
		if (vc_trace_is_chan(&r[i]))
			pf_record(&p, &s, &r[i]);
	ret = pf_nodes(&p, &s, r, n);
	ret = ret ?: pf_phases(&p, &s, r, n, last);
	ret = ret ?: pf_counters(&p, t, l, nl, r, n);
	pf_names(&p, t, l, &s);
	free(s.links);
	free(s.nodes);
	free(msgs);
	return vcube_print_end(&p) ?: ret;
}
