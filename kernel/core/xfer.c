// SPDX-License-Identifier: GPL-2.0
/*
 * Transfers through the switch: the resources (channels, send and receive
 * ports) a transfer's header takes and queues for, their grants
 * (arb_lowest), the transfer's route, startup and hops, its body flowing
 * (circuit, wormhole, packet) and its arrival; the messages transfers
 * carry, counted and freed.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

/* @x takes @res at @t, if it may. */
bool vc_res_take(struct vc_res *res, const struct vc_xfer *x, u64 t)
{
	if (res->cap && res->count >= res->cap)
		return false;
	if (res->arb_pending)	/* freed at this instant: all ask first */
		return false;
	res->holder = x->msg->seq;
	if (!res->count)
		res->since = t;
	res->count++;
	res->st.uses++;
	if (res->count > res->st.peak)
		res->st.peak = res->count;
	return true;
}

/*
 * Queue @x for @res: FIFO by request time, ties to the lower source; or,
 * with arb_lowest, lowest source first (Bokhari's charts), ties by time.
 */
void vc_res_wait(struct vc_engine *e, struct vc_res *res,
		 struct vc_xfer *x, u32 on, u64 t)
{
	struct vc_xfer *w;
	struct list_head *pos = &res->waiters;

	x->wait_on = on;
	x->wait_res = res;
	x->treq = t;
	x->wholder = res->holder;
	x->wseq = e->seq++;
	res->st.waits++;
	res->nwait++;
	/*
	 * The waiters are sorted by that order: x goes after the last one it
	 * does not precede, found from the tail, where a waiter that asks
	 * later (or, by lowest source, as late from the same source) goes at
	 * once; the same place a search from the head would find.
	 */
	list_for_each_entry_reverse(w, &res->waiters, wait_link) {
		if (!(e->p.arb_lowest ? x->src < w->src ||
				(x->src == w->src && x->treq < w->treq) :
				x->treq < w->treq ||
				(x->treq == w->treq && x->src < w->src))) {
			pos = &w->wait_link;
			break;
		}
	}
	list_add(&x->wait_link, pos);
	if (on == VC_ON_CHAN)
		e->st.chan_waits++;
	else
		e->st.port_waits++;
}

/*
 * The header's time over the channel it just took: the profile's per hop,
 * and the channel's own latency (a graph file's).
 */
static u64 vc_hop_ns(struct vc_engine *e, struct vc_xfer *x)
{
	u64 ns = e->p.cost[x->cls].hop;

	if (e->topo->graph)
		ns += vcube_graph_chan_lat(e->topo->graph,
					   x->chan[x->hop - 1]);
	return ns;
}

static void vc_granted(struct vc_engine *e, struct vc_xfer *x, u64 t);

/* A channel was taken at @t: note its sharing in the window of @t. */
static void vc_window_note(struct vc_engine *e, struct vc_res *res, u64 t)
{
	u64 w;

	if (!e->winpeak)
		return;
	w = t / e->p.window_ns;
	if (w >= VC_WINDOWS || res->count <= e->winpeak[w])
		return;
	e->winpeak[w] = res->count > U16_MAX ? U16_MAX : res->count;
	if (e->winpeak[w] > e->winrecord) {
		e->winrecord = e->winpeak[w];
		if (e->notify) {
			struct vc_notice nt = {
				.kind = VC_NOTICE_PEAK, .time = t, .window = w,
				.peak = e->winrecord, .chan = res - e->chan,
			};

			e->notify(e->notify_ctx, &nt);
		}
	}
}

/* @res is free: its first waiter takes it. */
static void vc_res_grant(struct vc_engine *e, struct vc_res *res, u64 t)
{
	struct vc_xfer *x;

	x = list_first_entry(&res->waiters, struct vc_xfer, wait_link);
	list_del_init(&x->wait_link);
	res->nwait--;
	vc_res_take(res, x, t);
	if (x->wait_on == VC_ON_CHAN)
		vc_wait_note(x, VC_CAUSE_CHAN, res - e->chan, t);
	else
		vc_wait_note(x, VC_CAUSE_PORT, VC_TRACE_NONE, t);
	res->st.wait_ns += t - x->treq;
	if (x->wait_on == VC_ON_CHAN)
		e->st.chan_wait_ns += t - x->treq;
	vc_granted(e, x, t);
}

void vc_res_put(struct vc_engine *e, struct vc_res *res, u64 t)
{
	res->count--;
	if (!res->count)
		res->st.busy_ns += t - res->since;
	if (list_empty(&res->waiters))
		return;
	if (e->p.arb_lowest) {
		/* granted once every request of this instant is in */
		if (!res->arb_pending) {
			res->arb_pending = true;
			list_add_tail(&res->arb_link, &e->arb);
		}
		return;
	}
	vc_res_grant(e, res, t);
}

/*
 * arb_lowest: at the end of an instant, grant each resource freed in it to
 * its waiters in order (lowest source first), as far as its capacity goes.
 */
void vc_arbitrate(struct vc_engine *e, u64 t)
{
	struct vc_res *res;

	while (!list_empty(&e->arb)) {
		res = list_first_entry(&e->arb, struct vc_res, arb_link);
		list_del_init(&res->arb_link);
		res->arb_pending = false;
		while (!list_empty(&res->waiters) &&
		       (!res->cap || res->count < res->cap))
			vc_res_grant(e, res, t);
	}
}


/*
 * The load a dragonfly's UGAL-L weighs a channel by, as the engine knows
 * it when the route is chosen: the transfers holding it and waiting for
 * it (in packet switching, its bundle's).
 */
static u32 vc_chan_load(void *ctx, u32 chan)
{
	struct vc_engine *e = ctx;
	u32 width;
	struct vc_res *r;

	if (e->p.switching == VC_SW_PACKET)
		chan = vcube_topo_bundle(e->topo, chan, &width);
	r = &e->chan[chan];
	return r->count + r->nwait;
}

static int vc_route(struct vc_engine *e, struct vc_xfer *x)
{
	u64 cookie = (u64)x->msg->src << 40 ^ x->msg->sent ^ x->type;
	int n = vcube_topo_route_load(e->topo, x->src, x->dst, cookie,
				      vc_chan_load, e, x->chan, e->maxhops);
	u32 i, width;

	x->nhops = n < 0 ? 0 : n;
	x->hop = 0;
	if (e->p.switching == VC_SW_PACKET)
		for (i = 0; i < x->nhops; i++)
			x->chan[i] = vcube_topo_bundle(e->topo, x->chan[i],
						       &width);
	return n;
}

/*
 * Flow modes: the part of @x's base cost its receiver spends (recv), on
 * data only; the rest is the sender's.
 */
static u64 vc_recv_share(struct vc_engine *e, struct vc_xfer *x)
{
	u64 base = e->p.cost[x->cls].base;

	if (e->p.switching == VC_SW_CIRCUIT || x->type != VC_X_DATA)
		return 0;
	return e->p.recv < base ? e->p.recv : base;
}

/* Flow modes: the startup before the header leaves, holding no channel. */
static u64 vc_startup(struct vc_engine *e, struct vc_xfer *x)
{
	u64 t = e->p.cost[x->cls].base - vc_recv_share(e, x);

	if (e->p.switching == VC_SW_CIRCUIT)
		return 0;
	if (e->p.switching == VC_SW_PACKET && e->p.packet_payload &&
	    x->bytes % e->p.packet_payload)
		t += e->p.partial_ns;
	return t;
}

/* A transfer starts at its source: it needs the send port. */
void vc_xfer_begin(struct vc_engine *e, struct vc_xfer *x, u32 type,
		   u64 t)
{
	struct vc_msg *m = x->msg;

	x->type = type;
	if (type == VC_X_REQUEST) {
		x->src = m->dst;
		x->dst = m->src;
	} else {
		x->src = m->src;
		x->dst = m->dst;
	}
	x->bytes = type == VC_X_DATA ? m->len : 0;
	if (type != VC_X_DATA)
		x->cls = VC_CLASS_CTL;
	else if ((m->flags & VC_SEND_FORCED) || m->len <= e->p.short_max)
		x->cls = VC_CLASS_SHORT;
	else
		x->cls = VC_CLASS_LONG;
	vc_route(e, x);
	e->st.transfers++;
	x->sport_held = true;
	if (vc_res_take(&e->sport[x->src], x, t))
		vc_schedule(e, &x->ev, t + vc_startup(e, x), VC_EV_HOP, x->src);
	else
		vc_res_wait(e, &e->sport[x->src], x, VC_ON_SPORT, t);
}

/*
 * Circuit, duplex (Bokhari sec. 5: "A receive and a transmit occurring
 * nearly simultaneously at a processor can proceed concurrently, while a
 * short delay causes them to be carried out serially"): the body that
 * would keep data @x from flowing at @t, one going the other way at either
 * end that began more than duplex ns ago; NULL if none.
 */
static struct vc_xfer *vc_duplex_blocker(struct vc_engine *e,
					 struct vc_xfer *x, u64 t)
{
	struct vc_xfer *y;

	if (!e->p.duplex || x->type != VC_X_DATA)
		return NULL;
	y = e->node[x->src].rx;
	if (y && t - y->t_flow > e->p.duplex)
		return y;
	y = e->node[x->dst].tx;
	if (y && t - y->t_flow > e->p.duplex)
		return y;
	return NULL;
}

/*
 * @bytes at @ps a byte: in ns times VC_RATE_ONE (@ps <= VCUBE_BYTE_PS_MAX
 * and @bytes <= max_msg keep ps * bytes under 2^57, and the ns it makes
 * times VC_RATE_ONE under 2^63).
 */
static u64 vc_work(u64 ps, u64 bytes)
{
	u64 all = ps * bytes;

	return all / 1000 * VC_RATE_ONE + all % 1000 * VC_RATE_ONE / 1000;
}

/* The body flows: the circuit (or its lanes) and the receiving port held. */
void vc_xfer_flow(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	const struct vc_cost *c = &e->p.cost[x->cls];
	struct vc_xfer *y;
	u64 dur, tail;

	if (e->p.switching != VC_SW_CIRCUIT) {
		x->t_flow = t;
		x->work = vc_work(c->byte_ps, x->bytes);
		x->t_rate = t;
		x->rate = 0;
		x->flow_seq = e->seq++;
		list_add_tail(&x->flow_link, &e->fresh);
		e->rerate = true;	/* flushed once this instant is done */
		return;
	}
	y = vc_duplex_blocker(e, x, t);
	if (y) {
		/* it waits, its circuit held, for @y to end */
		x->wait_on = VC_ON_DUPLEX;
		x->treq = t;
		x->wholder = y->msg->seq;
		list_add_tail(&x->wait_link, &y->dwaiters);
		e->st.duplex_waits++;
		return;
	}
	x->t_flow = t;
	if (x->type == VC_X_DATA) {
		e->node[x->src].tx = x;
		e->node[x->dst].rx = x;
	}
	dur = c->base + (c->byte_ps * x->bytes + 999) / 1000;
	tail = e->p.tail < dur ? e->p.tail : dur;
	x->t_end = t + dur;
	vc_schedule(e, &x->ev, t + dur - tail, VC_EV_THROUGH, x->src);
}

/*
 * The receiving port is held: the receiver spends its share of the
 * startup (flow modes, recv), then the body flows.
 */
void vc_xfer_recv(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	u64 rx = vc_recv_share(e, x);

	if (!rx) {
		vc_xfer_flow(e, x, t);
		return;
	}
	x->rx_due = true;
	vc_schedule(e, &x->ev, t + rx, VC_EV_HOP, x->src);
}

/* Must short UNFORCED data wait for a receive or buffer room at its end? */
static bool vc_xfer_must_park(struct vc_engine *e, struct vc_xfer *x)
{
	return x->type == VC_X_DATA && x->cls == VC_CLASS_SHORT &&
	       !(x->msg->flags & VC_SEND_FORCED) &&
	       !vc_can_accept(e, &e->node[x->dst], x->msg);
}

/*
 * Flow modes with no system buffer: a send is a rendezvous, waiting for its
 * receive before its header leaves.
 */
static bool vc_rendezvous(struct vc_engine *e)
{
	return e->p.switching != VC_SW_CIRCUIT && !e->p.sysbuf;
}

void vc_xfer_park(struct vc_engine *e, struct vc_xfer *x, u32 on,
		  u64 t)
{
	struct vc_node *d = &e->node[x->dst];

	x->wait_on = on;
	x->treq = t;
	x->wholder = VC_TRACE_NONE;
	if (list_empty(&d->parked) || x->msg->len < d->parked_min)
		d->parked_min = x->msg->len;
	d->parks++;
	list_add_tail(&x->wait_link, &d->parked);
}

/* Short UNFORCED data needs a receive or buffer room before it flows. */
static void vc_xfer_arrive(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	x->t_acq = t;
	if (!vc_xfer_must_park(e, x)) {
		vc_xfer_recv(e, x, t);
	} else if (vc_rendezvous(e)) {
		/* its receive went to another: it gives the port back */
		vc_xfer_park(e, x, VC_ON_RECV, t);
		vc_res_put(e, &e->rport[x->dst], t);
	} else {
		vc_xfer_park(e, x, VC_ON_NONE, t);
	}
}

/* At the end of its path: the receiving port, then the body. */
static void vc_xfer_port(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_res *res = &e->rport[x->dst];

	if (!vc_res_take(res, x, t)) {
		vc_res_wait(e, res, x, VC_ON_RPORT, t);
		return;
	}
	vc_xfer_arrive(e, x, t);
}


static void vc_granted(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	switch (x->wait_on) {
	case VC_ON_SPORT:
		vc_schedule(e, &x->ev, t + vc_startup(e, x), VC_EV_HOP, x->src);
		break;
	case VC_ON_SPORT_BACK:	/* its startup was spent before it parked */
		x->wait_on = VC_ON_NONE;
		vc_xfer_hop(e, x, t);
		return;
	case VC_ON_CHAN:
		vc_window_note(e, x->wait_res, t);
		x->t_take[x->hop++] = t;
		vc_schedule(e, &x->ev, t + vc_hop_ns(e, x), VC_EV_HOP,
			    x->src);
		break;
	case VC_ON_RPORT:
		vc_xfer_arrive(e, x, t);
		break;
	}
	x->wait_on = VC_ON_NONE;
}

void vc_xfer_hop(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_res *res;

	if (x->rx_due) {
		x->rx_due = false;
		vc_xfer_flow(e, x, t);
		return;
	}
	/*
	 * Flow modes with no system buffer: once its sender's startup is
	 * spent, the message waits for its receive (a rendezvous) before its
	 * header takes a channel or the port, which it would block.
	 */
	if (!x->hop && vc_rendezvous(e) && vc_xfer_must_park(e, x)) {
		/*
		 * Waiting, it holds no port: the node's next message may go
		 * (MPI's progress rule: an isend whose receive is posted
		 * completes though an earlier isend's is not).
		 */
		if (x->sport_held) {
			x->sport_held = false;
			vc_res_put(e, &e->sport[x->src], t);
		}
		vc_xfer_park(e, x, VC_ON_RECV, t);
		return;
	}
	if (x->hop < x->nhops) {
		res = &e->chan[x->chan[x->hop]];
		if (!vc_res_take(res, x, t)) {
			vc_res_wait(e, res, x, VC_ON_CHAN, t);
			return;
		}
		vc_window_note(e, res, t);
		x->t_take[x->hop++] = t;
		vc_schedule(e, &x->ev, t + vc_hop_ns(e, x), VC_EV_HOP,
			    x->src);
		return;
	}
	vc_xfer_port(e, x, t);
}

/*
 * The memory a message of @len payload bytes holds until its receiver
 * takes it: the payload and the engine's own structures for it (message,
 * transfer with its route, request), so that empty messages count too.
 */
u64 vc_msg_bytes(struct vc_engine *e, u64 len)
{
	return len + e->msg_cost;
}

/* @m is no longer the engine's to hold: uncount it. */
static void vc_msg_uncount(struct vc_engine *e, struct vc_msg *m)
{
	u64 bytes = vc_msg_bytes(e, m->len);

	vc_hash_del(&e->hs, &m->hs);	/* dropped on its way */
	if (m->deferred) {
		m->deferred = false;
		e->node[m->dst].hs_deferred--;
	}
	e->inflight -= bytes;
	e->node[m->src].inflight -= bytes;
}

void vc_msg_free(struct vc_engine *e, struct vc_msg *m)
{
	vc_msg_uncount(e, m);
	vc_msg_release(m);
}

/*
 * A done receive's message, taken out of @r (NULL if none): from now on
 * the caller holds it (to copy it out without the lock) and must give it
 * to vc_msg_release().
 */
struct vc_msg *vc_req_take_msg(struct vc_engine *e, struct vc_req *r)
{
	struct vc_msg *m = r->msg;

	if (m)
		vc_msg_uncount(e, m);
	r->msg = NULL;
	return m;
}

void vc_msg_release(struct vc_msg *m)
{
	vc_free(m->data);
	vc_free(m);
}

/*
 * Bytes of messages in flight (vc_msg_bytes()) from @node, or in the whole
 * network (U32_MAX).
 */
u64 vc_inflight(struct vc_engine *e, u32 node)
{
	return node == U32_MAX ? e->inflight : e->node[node].inflight;
}

void vc_xfer_free(struct vc_engine *e, struct vc_xfer *x)
{
	vc_free(x);
	e->nevobj--;
}

/* The sender's request for @x's data completes, if it still has one. */
void vc_sender_done(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	if (x->type == VC_X_DATA && x->msg->sreq) {
		x->msg->sreq->smsg = NULL;
		vc_complete(e, x->msg->sreq, x->msg, t);
		x->msg->sreq = NULL;
	}
}

/* Note each channel @x held, in the trace's ring (oldest overwritten). */
static void vc_trace_xfer(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_trace_rec *r;
	u32 i;

	for (i = 0; i < x->hop; i++) {
		r = vc_trace_new(e, x->type == VC_X_PROBE ? VC_TRACE_PROBE :
				 x->type == VC_X_REQUEST ? VC_TRACE_REQUEST :
							   VC_TRACE_DATA,
				 x->t_flow, t);
		if (!r)
			return;
		r->bytes = x->bytes;
		r->acquired = x->t_take[i];
		r->src = x->src;
		r->dst = x->dst;
		r->tag = x->msg->tag;
		r->chan = x->chan[i];
		r->hop = i;
		r->msg = x->msg->seq;
	}
}

/*
 * @x's channels are free at @t: noted in the trace, counted on each, and
 * given to what waits for them. At delivery, or with channel_early when its
 * sender returns; a second call finds none.
 */
void vc_xfer_free_chans(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	u32 i;

	vc_trace_xfer(e, x, t);
	for (i = 0; i < x->hop; i++) {
		struct vc_res *res = &e->chan[x->chan[i]];

		if (x->type == VC_X_DATA) {
			res->st.msgs++;
			res->st.bytes += x->bytes;
		}
		vc_res_put(e, res, t);
	}
	x->hop = 0;
}

/*
 * The data has left the sender, whose request completes: on the iPSC/860
 * csend() returns (Seidel's s) while the circuit still carries the tail.
 */
void vc_xfer_through(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	if (e->p.sport_early) {
		x->sport_held = false;
		vc_res_put(e, &e->sport[x->src], t);
	}
	if (e->p.chan_early)
		vc_xfer_free_chans(e, x, t);
	vc_sender_done(e, x, t);
	vc_schedule(e, &x->ev, x->t_end, VC_EV_DELIVER, x->src);
}
