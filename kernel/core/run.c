// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop: node operations as events, dispatching each event in
 * (time, kind, node, sequence) order while it is safe (earlier than every
 * running node's clock), and deadlocks: every bound node blocked and no
 * event left, reported once and recorded whole.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

static void vc_op_send(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_msg *m = x->msg;

	m->seq = (u32)e->st.messages++;
	e->node[m->src].st.sent++;
	if (m->flags & VC_SEND_FORCED)
		vc_xfer_begin(e, x, VC_X_DATA, t);
	else if (vc_fc_admit(e, x, t))	/* it may wait for room (fc_bufs) */
		vc_fc_start(e, x, t);
}

static void vc_op_recv(struct vc_engine *e, struct vc_req *r, u64 t)
{
	struct vc_node *n = &e->node[r->node];
	struct vc_msg *m;

	list_for_each_entry(m, &n->unexpected, link) {
		if (!vc_matches(r, m) || vc_hs_before(e, m, r))
			continue;
		vc_unexpected_take(e, n, m, r, t);
		vc_recheck_parked(e, n, t);
		return;
	}
	vc_post(e, n, r);
	vc_recheck_parked(e, n, t);
}

static void vc_dispatch(struct vc_engine *e, struct vc_event *ev)
{
	u64 t = ev->time;

	switch (ev->kind) {
	case VC_EV_THROUGH:
		vc_xfer_through(e, container_of(ev, struct vc_xfer, ev), t);
		break;
	case VC_EV_RECV:
		vc_op_recv(e, &container_of(ev, struct vc_req_ev, ev)->req, t);
		break;
	case VC_EV_DELIVER:
		vc_xfer_deliver(e, container_of(ev, struct vc_xfer, ev), t);
		break;
	case VC_EV_HOP:
		vc_xfer_hop(e, container_of(ev, struct vc_xfer, ev), t);
		break;
	case VC_EV_SEND:
		vc_op_send(e, container_of(ev, struct vc_xfer, ev), t);
		break;
	case VC_EV_CREDIT:
		vc_fc_credit(e, container_of(ev, struct vc_xfer, ev), t);
		break;
	case VC_EV_TIMEOUT:
		vc_wake(e, container_of(ev, struct vc_node, tmo), t, 0);
		break;
	}
}


/*
 * Deadlock reports, rate-limited: a program can deadlock as fast as it
 * calls, and the log must keep what matters; the count is in topo-get.
 */
static VC_REPORT_LIMIT(vc_deadlock_reports);

static void vc_deadlock_say(const struct vc_deadlock_rec *d)
{
	unsigned long long t = d->clock;

	if (d->kind == VC_WAIT_CNET)
		vc_log("  node %u waits (at %llu ns) in a control-network operation of nodes %u..%u, %u of them in\n",
		       d->node, t, d->first, d->first + d->nodes - 1,
		       d->entered);
	else if (d->kind == VC_WAIT_RECV)
		vc_log("  node %u waits (at %llu ns) to receive from node %d, tag %d (-1: any)\n",
		       d->node, t, d->peer, d->tag);
	else
		vc_log("  node %u waits (at %llu ns) for its send to node %d\n",
		       d->node, t, d->peer);
}

static void vc_deadlock(struct vc_engine *e)
{
	bool say = vc_report_ok(&vc_deadlock_reports);
	u32 i, waiting = 0;
	struct vc_deadlock_rec *d;
	struct vc_node *n;
	struct vc_req *r;

	e->st.deadlocks++;
	e->gen++;
	e->ndl = 0;
	e->dl_time = e->now;
	e->dl_waits = 0;
	e->dl_chans = 0;
	for (i = 0; i < e->nres; i++) {
		e->dl_waits += e->chan[i].nwait;
		e->dl_chans += !!e->chan[i].nwait;
	}
	if (say && e->dl_waits)
		vc_log("deadlock at %llu ns: every bound node waits, %u messages for %u channels held in a cycle (routing deadlock)\n",
		       (unsigned long long)e->now, e->dl_waits, e->dl_chans);
	else if (say)
		vc_log("deadlock at %llu ns: every bound node waits and nothing is in flight\n",
		       (unsigned long long)e->now);
	/* what each waits for, all of it before anything is undone */
	for (i = 0; i < e->topo->nodes; i++) {
		n = &e->node[i];
		r = n->waiting;
		if (n->state != VC_BLOCKED || !r)
			continue;
		d = &e->dl[e->ndl++];
		memset(d, 0, sizeof(*d));
		d->node = i;
		d->clock = n->clock;
		if (r->type == VC_REQ_CNET) {
			d->kind = VC_WAIT_CNET;
			d->first = r->cnet->a.first;
			d->nodes = r->cnet->a.nodes;
			d->entered = r->cnet->entered;
		} else if (r->type == VC_REQ_RECV) {
			d->kind = VC_WAIT_RECV;
			d->peer = (s32)r->want_src;
			d->tag = (s32)r->want_tag;
		} else {
			d->kind = VC_WAIT_SEND;
			d->peer = r->smsg ? (s32)r->smsg->dst : -1;
		}
		if (say && e->ndl <= 16)
			vc_deadlock_say(d);
	}
	if (say && e->ndl > 16)
		vc_log("  and %u more nodes (netlink's deadlock-get has them all)\n",
		       e->ndl - 16);
	for (i = 0; i < e->topo->nodes; i++) {
		n = &e->node[i];
		if (n->state != VC_BLOCKED)
			continue;
		r = n->waiting;
		/*
		 * Its operation will never complete: every member leaves it
		 * now, so that members coming back start a new one.
		 */
		if (r && r->type == VC_REQ_CNET)
			vc_cnet_abort(e, r->cnet);
		vc_wake(e, n, e->now, -EDEADLK);
		waiting++;
	}
	if (e->notify) {
		struct vc_notice nt = {
			.kind = VC_NOTICE_DEADLOCK, .time = e->now,
			.waiting = waiting,
		};

		e->notify(e->notify_ctx, &nt);
	}
}

/* Commit every event that no running node can still precede. */
/* Nothing is queued for the current instant any more. */
static bool vc_instant_drained(struct vc_engine *e)
{
	return !e->events.len || e->events.a[0].k0 > e->now;
}

void vc_run(struct vc_engine *e)
{
	struct vc_event *ev;
	struct vc_node *low;

	for (;;) {
		/*
		 * Grants of resources freed at this instant wait until no
		 * event and no running node can ask for them at it any more.
		 */
		if (!list_empty(&e->arb) && vc_instant_drained(e) &&
		    (!e->nrunning ||
		     e->running.a[0].k0 > e->now)) {
			vc_arbitrate(e, e->now);
			continue;
		}
		/*
		 * Bodies that started or ended at this instant are re-rated
		 * once, when nothing else is left at it: intermediate rates
		 * would hold for no time at all.
		 */
		if (e->rerate && vc_instant_drained(e)) {
			e->rerate = false;
			if (e->fixed_rate)
				vc_rate_fresh(e, e->now);
			else
				vc_rerate(e, e->now);
			continue;
		}
		if (!e->events.len) {
			/* an idle node may still come back: no deadlock yet */
			if (!e->nrunning && !e->nidle && e->nbound)
				vc_deadlock(e);
			if (!e->nbound)
				e->now = 0;
			return;
		}
		ev = vc_heap_top(&e->events);
		if (e->nrunning) {
			low = vc_heap_top(&e->running);
			if (ev->time >= low->clock)
				return;
		}
		/* a long run holds the lock, but never the processor */
		vc_resched();
		vc_heap_remove(&e->events, ev);
		if (ev->time > e->now) {
			e->st.elapsed += ev->time - e->now;
			e->now = ev->time;
		}
		e->st.events++;
		e->gen++;
		vc_dispatch(e, ev);
	}
}
