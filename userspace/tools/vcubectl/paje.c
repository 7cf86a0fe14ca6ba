// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl trace --format paje: the kernel's record of channel use in the
 * Paje trace format, which SimGrid writes for its simulations and ViTE and
 * pajeng (pj_dump, pj_gantt) read: a container per node and per channel
 * (a channel split into lanes where transfers overlap on it, as states on
 * one container must nest), the channel's state the transfer it carries,
 * the node's its sending and receiving and each interval it waited, valued
 * by the wait's cause, and each message a Paje link from its sender when
 * its body began to its receiver when it arrived. Marks are left out (the
 * Perfetto export has them). Chosen
 * over OTF2 because it is text, needs no library, and is what users of
 * SimGrid already read. Times are virtual, in seconds, to the ns; events
 * are written in time order, as the format asks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcubectl/vcubectl.h"


static const char pj_header[] =
	"%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
	"%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
	"%EventDef PajeDefineLinkType 2\n%  Alias string\n%  Type string\n%  StartContainerType string\n%  EndContainerType string\n%  Name string\n%EndEventDef\n"
	"%EventDef PajeDefineEntityValue 3\n%  Alias string\n%  Type string\n%  Name string\n%  Color color\n%EndEventDef\n"
	"%EventDef PajeCreateContainer 4\n%  Time date\n%  Alias string\n%  Type string\n%  Container string\n%  Name string\n%EndEventDef\n"
	"%EventDef PajeDestroyContainer 5\n%  Time date\n%  Type string\n%  Name string\n%EndEventDef\n"
	"%EventDef PajePushState 6\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n%EndEventDef\n"
	"%EventDef PajePopState 7\n%  Time date\n%  Type string\n%  Container string\n%EndEventDef\n"
	"%EventDef PajeStartLink 8\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n%  StartContainer string\n%  Key string\n%EndEventDef\n"
	"%EventDef PajeEndLink 9\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n%  EndContainer string\n%  Key string\n%EndEventDef\n"
	"0 ROOT 0 \"vcube\"\n"
	"0 NODE ROOT \"node\"\n"
	"0 CHAN ROOT \"channel\"\n"
	"1 NS NODE \"node state\"\n"
	"1 CS CHAN \"channel state\"\n"
	"2 MSG ROOT NODE NODE \"message\"\n"
	"3 send NS \"send\" \"0.17 0.42 0.69\"\n"
	"3 recv NS \"receive\" \"0.18 0.62 0.27\"\n"
	"3 data CS \"data\" \"0.69 0.19 0.16\"\n"
	"3 probe CS \"probe\" \"0.6 0.6 0.6\"\n"
	"3 request CS \"request\" \"0.4 0.4 0.4\"\n"
	"3 msg MSG \"message\" \"0.69 0.19 0.16\"\n"
	"3 w_transit NS \"wait: transit\" \"0.81 0.85 0.89\"\n"
	"3 w_nosend NS \"wait: not sent\" \"0.87 0.87 0.87\"\n"
	"3 w_chan NS \"wait: channel\" \"0.96 0.64 0.38\"\n"
	"3 w_port NS \"wait: port\" \"0.78 0.64 0.91\"\n"
	"3 w_duplex NS \"wait: duplex\" \"0.62 0.48 0.85\"\n"
	"3 w_recv NS \"wait: receive\" \"0.96 0.85 0.38\"\n"
	"3 w_cnet NS \"wait: control network\" \"0.7 0.8 0.7\"\n"
	"3 w_compute NS \"busy: compute\" \"0.6 0.6 0.6\"\n"
	"3 w_copy NS \"busy: copy\" \"0.5 0.5 0.5\"\n"
	"3 w_jitter NS \"busy: jitter\" \"0.7 0.7 0.7\"\n";

/* One event: its time, its rank among events at one time, its line. */
struct pj_ev {
	uint64_t t;
	unsigned int order;	/* pops, then pushes and links' starts, then ends */
	size_t seq;		/* the order it was made in */
	char line[96];
};

struct pj_state {
	struct pj_ev *ev;
	size_t nev, cap;
	struct vc_lanes *chans, *nodes;
	size_t nchans, nnodes;
	uint64_t last;
};

static struct pj_ev *pj_add(struct pj_state *s, uint64_t t, unsigned int order)
{
	struct pj_ev *e;

	if (s->nev == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;

		e = realloc(s->ev, cap * sizeof(*e));
		if (!e)
			return NULL;
		s->ev = e;
		s->cap = cap;
	}
	e = &s->ev[s->nev];
	e->t = t;
	e->order = order;
	e->seq = s->nev++;
	if (t > s->last)
		s->last = t;
	return e;
}

/* Seconds, to the ns. */
#define PJ_T(t)	(t) / 1000000000, (unsigned int)((t) % 1000000000)

/* A state from @a to @b on container @c (its alias), value @v. */
static int pj_state(struct pj_state *s, const char *type, const char *c,
		    const char *v, uint64_t a, uint64_t b)
{
	struct pj_ev *e = pj_add(s, a, 1);

	if (!e)
		return -ENOMEM;
	snprintf(e->line, sizeof(e->line), "6 %" PRIu64 ".%09u %s %s %s",
		 PJ_T(a), type, c, v);
	e = pj_add(s, b, 0);
	if (!e)
		return -ENOMEM;
	snprintf(e->line, sizeof(e->line), "7 %" PRIu64 ".%09u %s %s",
		 PJ_T(b), type, c);
	return 0;
}

static const char *pj_value(unsigned int kind)
{
	return kind == VCUBE_TRACE_KIND_PROBE ? "probe" :
	       kind == VCUBE_TRACE_KIND_REQUEST ? "request" : "data";
}

/*
 * Record @i: its channel's state and, for a message's data, the sender's
 * at the first hop and the receiver's and the message's link at the last.
 */
static int pj_record(struct pj_state *s, const struct vcube_trace_rec *r,
		     size_t n, size_t i)
{
	const struct vcube_trace_rec *x = &r[i];
	const struct vcube_trace_rec *first = x->hop <= i ? x - x->hop : NULL;
	char c[32];
	struct pj_ev *e;
	int ret;

	if (!vc_trace_is_chan(x) || x->channel >= s->nchans)
		return 0;
	snprintf(c, sizeof(c), "c%u.%u", x->channel,
		 vc_lane(&s->chans[x->channel], vc_trace_held_from(x), x->end));
	ret = pj_state(s, "CS", c, pj_value(x->kind), vc_trace_held_from(x),
		       x->end);
	if (ret || x->kind != VCUBE_TRACE_KIND_DATA)
		return ret;
	if (x->hop == 0 && x->src < s->nnodes) {
		snprintf(c, sizeof(c), "n%u.%u", x->src,
			 vc_lane(&s->nodes[x->src], x->start, x->end));
		ret = pj_state(s, "NS", c, "send", x->start, x->end);
		/* the body's start: the first hop's (the records' order) */
		e = ret ? NULL : pj_add(s, x->start, 1);
		if (!e)
			return -ENOMEM;
		snprintf(e->line, sizeof(e->line),
			 "8 %" PRIu64 ".%09u MSG root msg n%u.0 m%u",
			 PJ_T(x->start), x->src, x->msg);
	}
	if (!vc_trace_last_hop(r, n, i) || x->dst >= s->nnodes)
		return 0;
	snprintf(c, sizeof(c), "n%u.%u", x->dst,
		 vc_lane(&s->nodes[x->dst], x->start, x->end));
	ret = pj_state(s, "NS", c, "recv", x->start, x->end);
	/*
	 * Its first hop, x->hop records back (hops are together, in order):
	 * if the ring dropped it, the message has no start and no link.
	 */
	if (ret || !first || first->msg != x->msg || first->kind != x->kind ||
	    first->hop != 0 || x->src >= s->nnodes)
		return ret;
	e = pj_add(s, x->end, 2);
	if (!e)
		return -ENOMEM;
	snprintf(e->line, sizeof(e->line),
		 "9 %" PRIu64 ".%09u MSG root msg n%u.0 m%u", PJ_T(x->end),
		 x->dst, x->msg);
	return 0;
}

/*
 * Each wait as its node's state, valued by its cause, in an order of their
 * own (node, time): the ring's order of a node's own work can vary from
 * run to run, the file must not; 0 or -ENOMEM.
 */
static int pj_waits(struct pj_state *s, const struct vcube_trace_rec *r,
		    size_t n)
{
	size_t i, k;
	const struct vcube_trace_rec **w =
		vc_trace_node_recs(r, n, VCUBE_TRACE_KIND_WAIT, s->nnodes, &k);
	char c[32], v[32];
	int ret = 0;

	if (!w)
		return -ENOMEM;
	for (i = 0; !ret && i < k; i++) {
		snprintf(c, sizeof(c), "n%u.%u", w[i]->src,
			 vc_lane(&s->nodes[w[i]->src], w[i]->start, w[i]->end));
		snprintf(v, sizeof(v), "w_%s", vc_trace_cause_name(w[i]->cause));
		ret = pj_state(s, "NS", c, v, w[i]->start, w[i]->end);
	}
	free(w);
	return ret;
}

static int pj_cmp(const void *a, const void *b)
{
	const struct pj_ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The containers the lanes used, at 0; destroyed at the end. */
static void pj_containers(FILE *f, const struct vcube_nl_topo *t,
			  const struct vcube_nl_link *l,
			  const struct pj_state *s, bool create)
{
	char ends[64];
	unsigned int k;
	size_t i;

	for (i = 0; i < s->nnodes; i++)
		for (k = 0; k < (s->nodes[i].nlanes ?: 1); k++) {
			if (create)
				fprintf(f, "4 0 n%zu.%u NODE root \"node %zu%s%.0u\"\n",
					i, k, i, k ? " lane " : "", k);
			else
				fprintf(f, "5 %" PRIu64 ".%09u NODE n%zu.%u\n",
					PJ_T(s->last), i, k);
		}
	for (i = 0; i < s->nchans; i++) {
		vc_link_ends(t, &l[i], ends, sizeof(ends));
		for (k = 0; k < s->chans[i].nlanes; k++) {
			if (create)
				fprintf(f, "4 0 c%zu.%u CHAN root \"%zu: %s%s%.0u\"\n",
					i, k, i, ends, k ? " lane " : "", k);
			else
				fprintf(f, "5 %" PRIu64 ".%09u CHAN c%zu.%u\n",
					PJ_T(s->last), i, k);
		}
	}
}

int vc_paje_write(FILE *f, const struct vcube_nl_topo *t,
		  const struct vcube_nl_link *l, size_t nl,
		  const struct vcube_trace_rec *r, size_t n)
{
	struct pj_state s = { .nchans = nl, .nnodes = t->nodes };
	size_t i;
	int ret = 0;

	s.chans = calloc(nl + 1, sizeof(*s.chans));
	s.nodes = calloc(t->nodes + 1, sizeof(*s.nodes));
	if (!s.chans || !s.nodes)
		ret = -ENOMEM;
	/* as recorded: at delivery, a transfer's hops together in hop order */
	for (i = 0; !ret && i < n; i++)
		ret = pj_record(&s, r, n, i);
	ret = ret ?: pj_waits(&s, r, n);
	if (!ret) {
		qsort(s.ev, s.nev, sizeof(*s.ev), pj_cmp);
		fprintf(f, "# vcube %s %s, profile %s: %zu records, %" PRIu64 " before them gone (vcubectl trace --format paje)\n",
			vcube_topology_name(t->kind), t->shape, t->profile, n,
			n ? r[0].seq : 0);
		fputs(pj_header, f);
		fputs("4 0 root ROOT 0 \"vcube\"\n", f);
		pj_containers(f, t, l, &s, true);
		for (i = 0; i < s.nev; i++)
			fprintf(f, "%s\n", s.ev[i].line);
		pj_containers(f, t, l, &s, false);
		fprintf(f, "5 %" PRIu64 ".%09u ROOT root\n", PJ_T(s.last));
	}
	free(s.ev);
	free(s.chans);
	free(s.nodes);
	return ret ?: ferror(f) ? -EIO : 0;
}
