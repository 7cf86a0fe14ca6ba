// SPDX-License-Identifier: GPL-2.0
/*
 * A transfer at its receiver: flow control (fc_bufs headers per pair of
 * nodes, their releases and the senders waiting for room), the long
 * UNFORCED protocol's PROBE, REQUEST and data, delivery into a receive or
 * the unexpected queue, the handshakes a later message may not overtake,
 * and the transfers parked for buffer room.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

static struct vc_fc *vc_fc_pair(struct vc_engine *e, u32 s, u32 r)
{
	return &e->fc[(size_t)s * e->topo->nodes + r];
}

static u64 vc_fcw_hash(struct vc_engine *e, u32 s, u32 r)
{
	return vc_hash_of(&e->fcw, s, r);
}

/* The first of @s's headers to @r that wait for room there, or NULL. */
static struct vc_xfer *vc_fc_first(struct vc_engine *e, u32 s, u32 r)
{
	u64 hash = vc_fcw_hash(e, s, r);
	struct vc_xfer *x;

	if (!e->fcw.count)
		return NULL;
	list_for_each_entry(x, vc_hash_chain(&e->fcw, hash), fcw.link)
		if (x->fcw.hash == hash && x->msg->src == s && x->msg->dst == r)
			return x;
	return NULL;
}

/*
 * UNFORCED message @x leaves its sender: short, as one transfer; long, as
 * a PROBE, its handshake begun.
 */
void vc_fc_start(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_msg *m = x->msg;

	if (m->len > e->p.short_max) {
		vc_hash_add(&e->hs, &m->hs, vc_hs_hash(e, m->dst, m->src));
		vc_xfer_begin(e, x, VC_X_PROBE, t);
	} else {
		vc_xfer_begin(e, x, VC_X_DATA, t);
	}
}

/*
 * @s waits for room at @r: unless one is on its way already, @r sends a
 * release once it has freed any of @s's headers (a CTL transfer's time
 * from @r to @s); the first header waiting carries its arrival.
 */
static void vc_fc_release(struct vc_engine *e, u32 s, u32 r, u64 t)
{
	struct vc_fc *f = vc_fc_pair(e, s, r);
	const struct vc_cost *c = &e->p.cost[VC_CLASS_CTL];
	struct vc_xfer *x;

	if (f->rel || !f->freed)
		return;
	x = vc_fc_first(e, s, r);
	if (!x)
		return;
	f->rel = 1;
	e->st.fc_releases++;
	vc_schedule(e, &x->ev, t + c->base +
		    c->hop * vcube_topo_distance(e->topo, r, s),
		    VC_EV_CREDIT, s);
}

/* @s heard that @r freed its headers: those waiting go, in order. */
static void vc_fc_resume(struct vc_engine *e, u32 s, u32 r, u64 t)
{
	struct vc_fc *f = vc_fc_pair(e, s, r);
	struct vc_xfer *x;

	f->out -= f->freed;
	f->freed = 0;
	while (f->out < e->p.fc_bufs && (x = vc_fc_first(e, s, r))) {
		vc_hash_del(&e->fcw, &x->fcw);
		if (x->ev.idx != VC_NOT_QUEUED) {
			/* it carried a release: what it brings is here now */
			vc_heap_remove(&e->events, &x->ev);
			f->rel = 0;
		}
		f->out++;
		x->fc = true;
		vc_wait_note(x, VC_CAUSE_RECV, VC_TRACE_NONE, t);
		vc_fc_start(e, x, t);
	}
}

/* A release reaches the sender of @x, the first header waiting. */
void vc_fc_credit(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	u32 s = x->msg->src, r = x->msg->dst;

	vc_fc_pair(e, s, r)->rel = 0;
	vc_fc_resume(e, s, r, t);
	vc_fc_release(e, s, r, t);	/* more waiting, more freed since */
}

/*
 * Header @x (a short UNFORCED message or a PROBE) is about to leave: it
 * goes if its sender's window to its receiver has room and nothing sent
 * before it waits; else it waits, and the receiver is asked for a release.
 */
bool vc_fc_admit(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	u32 s = x->msg->src, r = x->msg->dst;
	struct vc_fc *f;

	if (!e->fc)
		return true;
	f = vc_fc_pair(e, s, r);
	if (f->out < e->p.fc_bufs && !vc_fc_first(e, s, r)) {
		f->out++;
		x->fc = true;
		return true;
	}
	e->st.fc_refused++;
	x->treq = t;
	x->wholder = VC_TRACE_NONE;
	vc_hash_add(&e->fcw, &x->fcw, vc_fcw_hash(e, s, r));
	vc_fc_release(e, s, r, t);
	return false;
}

/*
 * Header @x arrived: its buffer is free at once, which its sender hears
 * later; and it brings its receiver word of the receiver's own headers
 * that its sender freed.
 */
static void vc_fc_arrived(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	u32 s = x->msg->src, r = x->msg->dst;

	x->fc = false;
	vc_fc_pair(e, s, r)->freed++;
	vc_fc_release(e, s, r, t);
	if (vc_fc_pair(e, r, s)->freed) {
		vc_fc_resume(e, r, s, t);
		vc_fc_release(e, r, s, t);
	}
}

static void vc_recv_done(struct vc_engine *e, struct vc_req *r,
			 struct vc_msg *m, u64 t)
{
	r->msg = m;
	r->status = m->len > r->cap ? -EMSGSIZE : 0;
	e->node[r->node].st.received++;
	vc_complete(e, r, m, t);
}


/*
 * Must @m leave receive @r (NULL: any receive) to a message its sender
 * sent before it, still in its handshake, which @r also takes? Work: the
 * sender's handshakes to this receiver sent before @m, each an outstanding
 * send of the sender.
 */
bool vc_hs_before(struct vc_engine *e, const struct vc_msg *m,
		  const struct vc_req *r)
{
	u64 hash = vc_hs_hash(e, m->dst, m->src);
	struct vc_msg *o;

	if (!e->hs.count || (m->flags & VC_SEND_FORCED))
		return false;
	/* a chain keeps the order they were added in: the order of sending */
	list_for_each_entry(o, vc_hash_chain(&e->hs, hash), hs.link) {
		if (o->hs.hash != hash || o->src != m->src || o->dst != m->dst)
			continue;
		if (o == m || (s32)(o->seq - m->seq) >= 0)
			return false;	/* the rest were sent after it */
		if (!r || vc_matches(r, o))
			return true;
	}
	return false;
}

/* @r takes @m from @d's unexpected messages. */
void vc_unexpected_take(struct vc_engine *e, struct vc_node *d,
			struct vc_msg *m, struct vc_req *r, u64 t)
{
	if (m->deferred) {
		m->deferred = false;
		d->hs_deferred--;
	}
	list_del_init(&m->link);
	vc_unreserve(e, m);
	vc_recv_done(e, r, m, t);
}

/*
 * A handshake of @src's to @d ended: its messages left unexpected behind
 * it take the receives they now may, in order.
 */
static void vc_hs_release(struct vc_engine *e, struct vc_node *d, u32 src,
			  u64 t)
{
	struct vc_msg *m, *tm;
	struct vc_req *r;
	bool freed = false;

	list_for_each_entry_safe(m, tm, &d->unexpected, link) {
		if (!d->hs_deferred)
			break;
		if (m->src != src || !m->deferred)
			continue;
		r = vc_match_posted(e, d, m);
		if (!r || vc_hs_before(e, m, r))
			continue;
		freed |= m->reserved;
		vc_unpost(e, r);
		vc_unexpected_take(e, d, m, r, t);
	}
	if (freed)	/* buffer room for what waited for it */
		vc_recheck_parked(e, d, t);
}

static void vc_deliver_data(struct vc_engine *e, struct vc_msg *m, u64 t)
{
	struct vc_node *d = &e->node[m->dst];
	bool hs = !list_empty(&m->hs.link);
	struct vc_req *r;

	vc_hash_del(&e->hs, &m->hs);
	m->arrived = t;
	if (vc_dst_gone(e, m)) {
		d->st.discarded++;
		vc_unreserve(e, m);
		vc_msg_free(e, m);
		return;
	}
	r = vc_match_posted(e, d, m);
	if (vc_hs_before(e, m, NULL)) {	/* a handshake of its sender's */
		if (r && vc_hs_before(e, m, r))
			r = NULL;	/* it waits, unexpected, for that one */
		if (!r) {
			m->deferred = true;	/* whose place it must not take */
			d->hs_deferred++;
		}
	}
	if (r) {
		bool freed = m->reserved;

		vc_unpost(e, r);
		vc_unreserve(e, m);
		vc_recv_done(e, r, m, t);
		if (hs && d->hs_deferred)
			vc_hs_release(e, d, m->src, t);
		if (freed)	/* buffer room for what waited for it */
			vc_recheck_parked(e, d, t);
		return;
	}
	if (m->flags & VC_SEND_FORCED) {
		d->st.forced_dropped++;
		vc_msg_free(e, m);
		return;
	}
	/* UNFORCED: kept in the system buffer, over its size if it must. */
	if (!m->reserved) {
		vc_sysbuf_add(d, m->len);
		m->reserved = true;
	}
	d->st.buffered++;
	if (hs && d->hs_deferred) {
		struct vc_msg *o;

		/* before what its sender sent after it, which waited for it */
		list_for_each_entry(o, &d->unexpected, link)
			if (o->deferred && o->src == m->src &&
			    (s32)(o->seq - m->seq) > 0)
				break;
		list_add_tail(&m->link, &o->link);
		return;
	}
	list_add_tail(&m->link, &d->unexpected);
}

/* Data @x is delivered at @t: its message's record. */
static void vc_trace_msg(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	const struct vc_msg *m = x->msg;
	struct vc_trace_rec *r = vc_trace_new(e, VC_TRACE_MSG, m->sent, t);

	if (!r)
		return;
	r->src = m->src;
	r->dst = m->dst;
	r->tag = m->tag;
	r->msg = m->seq;
	r->hop = x->nhops;
	r->bytes = m->len;
	r->acquired = x->t_acq;
	r->flow = x->t_flow;
	r->proto = (m->flags & VC_SEND_FORCED) ? VC_PROTO_FORCED :
		   m->len > e->p.short_max ? VC_PROTO_LONG : VC_PROTO_SHORT;
	if (m->w_end > m->w_start) {
		r->cause = m->w_cause;
		r->chan = m->w_chan;
		r->holder = m->w_holder;
	}
}

/* The whole message is at the receiver: the circuit is torn down. */
void vc_xfer_deliver(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_node *d = &e->node[x->dst];
	bool flowed = !list_empty(&x->flow_link);
	struct vc_xfer *w, *tw;

	if (flowed) {
		list_del_init(&x->flow_link);
		if (e->shared_rate)
			vc_flow_unlink(e, x);
	}
	if (x->type == VC_X_DATA)
		vc_trace_msg(e, x, t);
	vc_xfer_free_chans(e, x, t);
	if (e->node[x->src].tx == x)
		e->node[x->src].tx = NULL;
	if (e->node[x->dst].rx == x)
		e->node[x->dst].rx = NULL;
	/* what waited for this body to end tries again, in order */
	list_for_each_entry_safe(w, tw, &x->dwaiters, wait_link) {
		list_del_init(&w->wait_link);
		w->wait_on = VC_ON_NONE;
		vc_wait_note(w, VC_CAUSE_DUPLEX, VC_TRACE_NONE, t);
		vc_xfer_flow(e, w, t);
	}
	if (x->sport_held)
		vc_res_put(e, &e->sport[x->src], t);
	x->sport_held = false;
	vc_res_put(e, &e->rport[x->dst], t);
	if (flowed && !e->fixed_rate)
		e->rerate = true;	/* flushed once this instant is done */
	/* Flow modes: the sender returns when its body is delivered. */
	vc_sender_done(e, x, t);
	if (x->fc)
		vc_fc_arrived(e, x, t);
	switch (x->type) {
	case VC_X_PROBE:
		/* The receiver answers once it has room for the data. */
		if (!vc_can_accept(e, d, x->msg)) {
			vc_xfer_park(e, x, VC_ON_NONE, t);
			return;
		}
		vc_xfer_begin(e, x, VC_X_REQUEST, t);
		return;
	case VC_X_REQUEST:
		vc_xfer_begin(e, x, VC_X_DATA, t);
		return;
	default:
		vc_deliver_data(e, x->msg, t);
		vc_xfer_free(e, x);
		return;
	}
}

/*
 * Can nothing parked at @n be accepted? No receive is posted there, the node
 * is bound (so none of its messages is for a binding gone), and the buffer
 * room left is less than the shortest length parked: what vc_can_accept()
 * would find for each, without asking each.
 */
static bool vc_parked_stuck(struct vc_engine *e, struct vc_node *n)
{
	return n->state != VC_UNBOUND && list_empty(&n->posted) &&
	       (!e->p.sysbuf || n->sysbuf_used > e->p.sysbuf ||
		e->p.sysbuf - n->sysbuf_used < n->parked_min);
}

/*
 * A receive was posted or buffer room freed at @n: resume what waited, in
 * the order it parked. The walk stops as soon as nothing left can go on,
 * so a receive that takes one message from a full buffer costs one step,
 * not one per transfer parked behind it.
 */
void vc_recheck_parked(struct vc_engine *e, struct vc_node *n, u64 t)
{
	struct vc_xfer *x, *tmp;
	u64 parks = n->parks, min = U64_MAX;

	if (vc_parked_stuck(e, n))
		return;
	list_for_each_entry_safe(x, tmp, &n->parked, wait_link) {
		if (!vc_can_accept(e, n, x->msg)) {
			if (x->msg->len < min)
				min = x->msg->len;
			continue;
		}
		list_del_init(&x->wait_link);
		vc_wait_note(x, VC_CAUSE_RECV, VC_TRACE_NONE, t);
		if (x->type == VC_X_PROBE) {
			vc_xfer_begin(e, x, VC_X_REQUEST, t);
		} else if (x->wait_on == VC_ON_RECV && !x->hop &&
			   !x->sport_held) {
			/* the send port again, then its path and the port */
			x->wait_on = VC_ON_NONE;
			x->sport_held = true;
			if (vc_res_take(&e->sport[x->src], x, t))
				vc_xfer_hop(e, x, t);
			else
				vc_res_wait(e, &e->sport[x->src], x,
					    VC_ON_SPORT_BACK, t);
		} else if (x->wait_on == VC_ON_RECV) {
			x->wait_on = VC_ON_NONE;
			vc_xfer_hop(e, x, t);	/* its path, then the port */
		} else {
			vc_xfer_recv(e, x, t);
		}
		if (vc_parked_stuck(e, n))
			return;
	}
	/* walked them all: the bound is exact, unless one parked meanwhile */
	if (n->parks == parks)
		n->parked_min = min;
}
