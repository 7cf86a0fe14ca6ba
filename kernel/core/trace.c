// SPDX-License-Identifier: GPL-2.0
/*
 * The trace: a ring of p.trace_max records of what each message did and
 * what each node waited for (engine.h, struct vc_trace_rec), and the
 * notes a transfer keeps of its waits until they are written.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

/* A new record in the ring (the oldest overwritten), or NULL: none kept. */
struct vc_trace_rec *vc_trace_new(struct vc_engine *e, u32 kind,
				  u64 start, u64 end)
{
	struct vc_trace_rec *r;

	if (!e->trace || e->trace_off)
		return NULL;
	r = &e->trace[e->ntrace++ % e->p.trace_max];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->start = start;
	r->end = end;
	r->chan = VC_TRACE_NONE;
	r->msg = VC_TRACE_NONE;
	r->holder = VC_TRACE_NONE;
	r->dst = VC_TRACE_NONE;
	return r;
}

/* @n waited from @from to @to for @cause, for @m (NULL: no message). */
struct vc_trace_rec *vc_trace_wait(struct vc_engine *e,
				   struct vc_node *n,
				   const struct vc_msg *m, u32 cause,
				   u64 from, u64 to)
{
	struct vc_trace_rec *r;

	if (to <= from)
		return NULL;
	r = vc_trace_new(e, VC_TRACE_WAIT, from, to);
	if (!r)
		return NULL;
	r->src = n->id;
	r->cause = cause;
	if (m) {
		r->dst = m->src == n->id ? m->dst : m->src;
		r->tag = m->tag;
		r->msg = m->seq;
		r->bytes = m->len;
	}
	return r;
}

/*
 * @n, blocked for request @r, goes on at @t: the interval in parts, each
 * with its cause. A receive first waits for its message to be sent; then
 * the message's longest wait (a channel, a port, its receive) is its own
 * part, and the rest is transit. At most four records.
 */
void vc_trace_block(struct vc_engine *e, struct vc_node *n,
		    const struct vc_req *r, const struct vc_msg *m,
		    u64 t)
{
	struct vc_trace_rec *w;
	u64 b = n->blocked_at, ws, we;

	if (!e->trace || e->trace_off || t <= b)
		return;
	if (!m) {
		vc_trace_wait(e, n, NULL, r->type == VC_REQ_CNET ?
			      VC_CAUSE_CNET : VC_CAUSE_TRANSIT, b, t);
		return;
	}
	if (r->type == VC_REQ_RECV && m->sent > b) {
		vc_trace_wait(e, n, m, VC_CAUSE_NOSEND, b,
			      m->sent < t ? m->sent : t);
		b = m->sent;
	}
	if (m->w_end > m->w_start && m->w_end > b && m->w_start < t) {
		ws = m->w_start > b ? m->w_start : b;
		we = m->w_end < t ? m->w_end : t;
		vc_trace_wait(e, n, m, VC_CAUSE_TRANSIT, b, ws);
		w = vc_trace_wait(e, n, m, m->w_cause, ws, we);
		if (w) {
			w->chan = m->w_chan;
			w->holder = m->w_holder;
		}
		b = we;
	}
	vc_trace_wait(e, n, m, VC_CAUSE_TRANSIT, b, t);
}

/*
 * A wait of @x's, begun at x->treq, ended at @t: the message keeps the
 * longest, for the trace.
 */
void vc_wait_note(struct vc_xfer *x, u32 cause, u32 chan, u64 t)
{
	struct vc_msg *m = x->msg;

	if (t - x->treq <= m->w_end - m->w_start)
		return;
	m->w_start = x->treq;
	m->w_end = t;
	m->w_cause = cause;
	m->w_chan = chan;
	m->w_holder = x->wholder;
}
