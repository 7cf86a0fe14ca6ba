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

#include "vcubectl/vcubectl.h"

#define PF_LINKS	1
#define PF_NODES	2
#define PF_PHASES	3
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

/* Channel use @r, held from @start to @end, on track @tid of process @pid. */
static void pf_slice(FILE *f, unsigned int pid, unsigned int tid,
		     const char *name, const struct vcube_trace_rec *r,
		     uint64_t start, uint64_t end)
{
	fprintf(f, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\"",
		pid, tid, name);
	pf_us(f, "ts", start);
	pf_us(f, "dur", end - start);
	fprintf(f, ",\"args\":{\"msg\":%u,\"kind\":\"%s\",\"src\":%u,\"dst\":%u,"
		"\"tag\":%u,\"bytes\":%" PRIu64 ",\"channel\":%u,\"hop\":%u",
		r->msg, pf_kind(r->kind), r->src, r->dst, r->tag, r->bytes,
		r->channel, r->hop);
	/* held from its header's arrival, the body flowing from body_us */
	pf_us(f, "taken_us", start);
	pf_us(f, "body_us", r->start);
	fputs("}}", f);
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
static void pf_record(FILE *f, struct pf_state *s,
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
	pf_slice(f, PF_LINKS, tid, name, x, vc_trace_held_from(x), x->end);
	if (x->kind == VCUBE_TRACE_KIND_DATA && pf_has_msg(s, x->msg))
		pf_flow(f, 't', PF_LINKS, tid, x, x->start);
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
static void pf_msg_args(FILE *f, const struct vcube_trace_rec *r)
{
	fprintf(f, ",\"args\":{\"msg\":%u,\"src\":%u,\"dst\":%u,\"tag\":%u,"
		"\"bytes\":%" PRIu64 ",\"proto\":\"%s\",\"hops\":%u",
		r->msg, r->src, r->dst, r->tag, r->bytes,
		vc_trace_proto_name(r->proto), r->hop);
	pf_us(f, "posted_us", r->start);
	pf_us(f, "acquired_us", r->acquired);
	pf_us(f, "body_us", r->flow);
	pf_us(f, "delivered_us", r->end);
	fprintf(f, ",\"longest_wait\":\"%s\"", vc_trace_cause_name(r->cause));
	if (r->holder != VCUBE_TRACE_NONE)
		fprintf(f, ",\"held_by_msg\":%u", r->holder);
	if (r->channel != VCUBE_TRACE_NONE)
		fprintf(f, ",\"channel\":%u", r->channel);
	fputs("}}", f);
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

static void pf_wait_args(FILE *f, const struct vcube_trace_rec *r)
{
	fprintf(f, ",\"args\":{\"cause\":\"%s\"", vc_trace_cause_name(r->cause));
	if (r->msg != VCUBE_TRACE_NONE)
		fprintf(f, ",\"msg\":%u,\"peer\":%u,\"tag\":%u,\"bytes\":%" PRIu64,
			r->msg, r->dst, r->tag, r->bytes);
	else if (r->cause >= VCUBE_TRACE_CAUSE_COMPUTE)
		fprintf(f, ",\"work_ns\":%" PRIu64 ",\"noise_ns\":%" PRIu64,
			r->bytes, r->end - r->start - r->bytes);
	if (r->channel != VCUBE_TRACE_NONE)
		fprintf(f, ",\"channel\":%u", r->channel);
	if (r->holder != VCUBE_TRACE_NONE)
		fprintf(f, ",\"held_by_msg\":%u", r->holder);
	fputs("}}", f);
}

/* Item @it on its node's first free lane, with its flow's end if it has one. */
static void pf_item_write(FILE *f, struct pf_state *s, const struct pf_item *it)
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
	fprintf(f, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\"",
		PF_NODES, tid, name);
	pf_us(f, "ts", it->start);
	pf_us(f, "dur", it->end - it->start);
	if (it->type == PF_WAIT) {
		pf_wait_args(f, r);
		return;
	}
	pf_msg_args(f, r);
	if (it->type == PF_SEND)
		pf_flow(f, 's', PF_NODES, tid, r, r->flow);
	else
		pf_flow(f, 'f', PF_NODES, tid, r, r->end);
}

/*
 * The nodes' tracks: each message's send and receipt, each wait, in an
 * order of their own (node, time), so that the lanes and the file are the
 * same whatever order the ring took them in; 0 or -ENOMEM.
 */
static int pf_nodes(FILE *f, struct pf_state *s,
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
		pf_item_write(f, s, &it[i]);
	free(it);
	return 0;
}

/* A JSON string's characters (a mark's: printable ASCII, the kernel says). */
static void pf_str(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fputc('\\', f);
		fputc((unsigned char)*v >= 0x20 ? *v : '?', f);
	}
}

/*
 * The phases each node marked: a slice from each mark to the node's next
 * one, the last to the end of the trace; 0 or -ENOMEM.
 */
static int pf_phases(FILE *f, const struct pf_state *s,
		     const struct vcube_trace_rec *r, size_t n, uint64_t last)
{
	size_t i, k;
	const struct vcube_trace_rec **m =
		vc_trace_node_recs(r, n, VCUBE_TRACE_KIND_MARK, s->nnodes, &k);
	uint64_t end;

	if (!m)
		return -ENOMEM;
	for (i = 0; i < k; i++) {
		end = i + 1 < k && m[i + 1]->src == m[i]->src ?
		      m[i + 1]->start : last > m[i]->start ? last : m[i]->start;
		fprintf(f, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"name\":\"",
			PF_PHASES, m[i]->src);
		pf_str(f, m[i]->label);
		fputc('"', f);
		pf_us(f, "ts", m[i]->start);
		pf_us(f, "dur", end - m[i]->start);
		fprintf(f, ",\"args\":{\"node\":%u}}", m[i]->src);
	}
	for (i = 0; i < k; i++)
		if (!i || m[i - 1]->src != m[i]->src)
			fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"node %u phases\"}}",
				PF_PHASES, m[i]->src, m[i]->src);
	if (k)
		fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":\"phases\"}}",
			PF_PHASES);
	free(m);
	return 0;
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
	uint32_t *msgs = calloc(n + 1, sizeof(*msgs));
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
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"topology\":\"%s\","
		"\"shape\":\"%s\",\"profile\":\"%s\",\"records\":%zu,\"channel_uses\":%zu,"
		"\"messages\":%zu,\"dropped\":%" PRIu64 "},\"traceEvents\":[\n"
		"{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"vcube\"}}",
		vcube_topology_name(t->kind), t->shape, t->profile, n, nchan,
		s.nmsgs, n ? r[0].seq : 0);
	/*
	 * Channel uses as recorded: at delivery, a transfer's hops together
	 * in hop order; a lane takes a slice only after its last one ended,
	 * so none overlap. The rest in an order of their own (pf_nodes()).
	 */
	for (i = 0; i < n; i++)
		if (vc_trace_is_chan(&r[i]))
			pf_record(f, &s, &r[i]);
	ret = pf_nodes(f, &s, r, n);
	ret = ret ?: pf_phases(f, &s, r, n, last);
	ret = ret ?: pf_counters(f, t, l, nl, r, n);
	pf_names(f, t, l, &s);
	fputs("\n]}\n", f);
	free(s.links);
	free(s.nodes);
	free(msgs);
	return ret ?: ferror(f) ? -EIO : 0;
}
