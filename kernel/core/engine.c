// SPDX-License-Identifier: GPL-2.0
/*
 * vcube's virtual-time engine (see engine.h for the contract).
 *
 * A user message becomes one or three transfers: FORCED messages and short
 * UNFORCED ones are a single packet; a long UNFORCED message is a PROBE to
 * the receiver, a REQUEST back once the receiver has room for it, then the
 * data (Bokhari 1991 sec. 2.2; Seidel & Davis 1992 sec. 2.1). Every transfer
 * goes through the same circuit switch:
 *
 *   1. it takes its source's send port (one transfer at a time);
 *   2. its header acquires the route's channels one by one, hop ns apart,
 *      holding what it has while it queues for the next one (FIFO by the
 *      time it asked, ties to the lower source node); in the flow modes
 *      with no system buffer, data first waits for its receive, so that a
 *      synchronous send holds no channel and no port while it waits;
 *   3. it takes the destination's receive port (eject at a time);
 *   4. the body flows for base + byte * len ns (in the flow modes base
 *      comes before the header, but for the receiver's share, recv, spent
 *      once the port is held); tail ns before the end the data has left
 *      the sender, whose request completes;
 *   5. at the end every channel and both ports are released together and
 *      the transfer is delivered (with sport_early, the send port already
 *      when the sender's request completes).
 *
 * Noise (off unless noise_period or jitter is set) takes CPU time from a
 * node's program, never from the network: node i is interrupted for
 * noise_cost ns every noise_period ns from a seeded phase. A node cannot
 * resume from a wait inside an interrupt, and its busy waits stretch over
 * the interrupts they meet. Start jitter delays a node by a seeded draw
 * when its program asks for one (the start of a trial).
 */
#include "internal.h"
#include "costs.h"

#ifndef __KERNEL__
void (*vc_host_log)(const char *msg);	/* host builds: where vc_log goes */
unsigned long vc_alloc_fail_nth;	/* host builds: see env.h */
#endif

/* The engine's arrays and itself, whatever of them exists: nothing in them. */
static void vc_engine_free(struct vc_engine *e)
{
	vc_free(e->winpeak);
	vc_free(e->trace);
	vc_free(e->dl);
	vc_free(e->reqs.b);
	vc_free(e->posted.b);
	vc_free(e->hs.b);
	vc_free(e->fcw.b);
	vc_free(e->fc);
	vc_free(e->events.a);
	vc_free(e->running.a);
	vc_free(e->node);
	vc_free(e->chan);
	vc_free(e->sport);
	vc_free(e->rport);
	vc_free(e->dirty);
	vc_free(e->rq);
	vc_free(e->rheap);
	vc_free(e->expect.a);
	vc_free(e);
}

/* Do some channels have rates of their own (vc_chan_own_bw())? */
static bool vc_own_rates(struct vc_engine *e)
{
	return e->p.inject_ps || e->p.eject_ps ||
	       (e->topo->graph && e->topo->graph->costs);
}

/* What the engine's objects take: a transfer with its arrays, a message. */
static void vc_engine_layout(struct vc_engine *e)
{
	const struct vc_params *p = &e->p;

	e->maxhops = vcube_topo_diameter(e->topo) + 1;
	e->events.idx_off = offsetof(struct vc_event, idx);
	e->running.idx_off = offsetof(struct vc_node, idx);
	e->expect.idx_off = offsetof(struct vc_xfer, eidx);
	e->nres = p->switching == VC_SW_PACKET ? e->topo->nbundles :
						 e->topo->nchan;
	INIT_LIST_HEAD(&e->flows);
	INIT_LIST_HEAD(&e->fresh);
	e->fixed_rate = p->switching == VC_SW_WORMHOLE && p->lanes &&
			p->lanes <= 1U << p->gamma && !vc_own_rates(e);
	e->shared_rate = p->switching != VC_SW_CIRCUIT && !e->fixed_rate;
	e->l0 = U32_MAX;
	/* a transfer, then its arrays: chan, t_take, and hops if it flows */
	e->take_off = sizeof(struct vc_xfer) + e->maxhops * sizeof(u32);
	e->take_off = (e->take_off + sizeof(u64) - 1) & ~(sizeof(u64) - 1);
	e->hops_off = e->take_off + e->maxhops * sizeof(u64);
	e->hops_off = (e->hops_off + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
	e->xfer_size = e->shared_rate ?
		       e->hops_off + e->maxhops * sizeof(struct vc_hop) :
		       e->hops_off;
	/* and its transfer's room in the event heap, which doubles to grow */
	e->msg_cost = sizeof(struct vc_msg) + e->xfer_size +
		      sizeof(struct vc_req) + 2 * sizeof(struct vc_hent);
	/* flow modes sharing rates: its room in the filling's heap too */
	if (e->shared_rate)
		e->msg_cost += 2 * sizeof(struct vc_hent);
	INIT_LIST_HEAD(&e->arb);
	INIT_LIST_HEAD(&e->cnet_ops);
}

/* The engine's arrays and tables; false if one could not be had. */
static bool vc_engine_alloc(struct vc_engine *e)
{
	const struct vc_params *p = &e->p;
	u32 n = e->topo->nodes, size;
	bool hash_ok;

	e->node = vc_alloc_array(n, sizeof(*e->node));
	e->chan = vc_alloc_array(e->nres, sizeof(*e->chan));
	e->sport = vc_alloc_array(n, sizeof(*e->sport));
	e->rport = vc_alloc_array(n, sizeof(*e->rport));
	e->running.a = vc_alloc_array(n, sizeof(*e->running.a));
	e->dl = vc_alloc_array(n, sizeof(*e->dl));
	if (e->shared_rate) {
		e->dirty = vc_alloc_array(e->nres, sizeof(*e->dirty));
		e->rq = vc_alloc_array(e->nres, sizeof(*e->rq));
		e->rheap = vc_alloc_array(e->nres, sizeof(*e->rheap));
	}
	/* chains for a few requests per node; they grow with the requests */
	for (size = 64; size < 4 * n && size < (1U << 16); size *= 2)
		;
	hash_ok = !vc_hash_init(&e->reqs, size) &&
		  !vc_hash_init(&e->posted, size) &&
		  !vc_hash_init(&e->hs, size);
	if (p->fc_bufs) {
		if (n > VC_FC_MAX_NODES || p->fc_bufs > VC_FC_MAX_BUFS)
			hash_ok = false;
		else
			e->fc = vc_alloc_array((size_t)n * n, sizeof(*e->fc));
		hash_ok = hash_ok && e->fc && !vc_hash_init(&e->fcw, size);
	}
	if (p->window_ns)
		e->winpeak = vc_alloc_array(VC_WINDOWS, sizeof(*e->winpeak));
	if (p->trace_max)
		e->trace = vc_alloc_array(p->trace_max, sizeof(*e->trace));
	return e->node && e->chan && e->sport && e->rport && e->running.a &&
	       e->dl && hash_ok && (!p->window_ns || e->winpeak) &&
	       (!p->trace_max || e->trace) &&
	       (!e->shared_rate || (e->dirty && e->rq && e->rheap));
}

/*
 * A channel's own rate (vc_chan_ps()), relative to one body's (the short
 * class's byte_ps); 0 for a channel of the profile's rate.
 */
static u64 vc_chan_own_bw(struct vc_engine *e, u32 chan)
{
	u64 ps = vc_chan_ps(&e->p, e->topo, chan);
	u64 ref = e->p.cost[VC_CLASS_SHORT].byte_ps;

	if (!ps)
		return 0;
	if (!ref)	/* bytes are free: the channel is no limit */
		return VC_RATE_ONE;
	ref = ref * VC_RATE_ONE / ps;
	return ref ? ref : 1;
}

/* The channels (or bundles), the nodes and their ports, all idle. */
static void vc_engine_init(struct vc_engine *e)
{
	const struct vcube_topo *topo = e->topo;
	const struct vc_params *p = &e->p;
	u32 i, n = topo->nodes;

	e->running.cap = n;
	for (i = 0; i < e->nres; i++) {
		e->chan[i].cap = p->switching == VC_SW_CIRCUIT ? 1 :
				 p->switching == VC_SW_WORMHOLE ? p->lanes : 0;
		e->chan[i].bw = (u64)VC_RATE_ONE << p->gamma;
		INIT_LIST_HEAD(&e->chan[i].waiters);
		INIT_LIST_HEAD(&e->chan[i].flows);
		e->chan[i].fill = U32_MAX;
	}
	/* A bundle carries as many bodies at full rate as it has links. */
	for (i = 0; p->switching == VC_SW_PACKET && i < topo->nchan; i++) {
		u32 width, b = vcube_topo_bundle(topo, i, &width);

		e->chan[b].bw = ((u64)width * VC_RATE_ONE) << p->gamma;
	}
	for (i = 0; vc_own_rates(e) && i < topo->nchan; i++) {
		u32 width, b = i;
		u64 bw = vc_chan_own_bw(e, i);

		if (p->switching == VC_SW_PACKET)
			b = vcube_topo_bundle(topo, i, &width);
		else
			width = 1;
		if (bw)
			e->chan[b].bw = width * bw;
	}
	for (i = 0; i < n; i++) {
		struct vc_node *nd = &e->node[i];

		nd->id = i;
		nd->idx = VC_NOT_QUEUED;
		nd->tmo.idx = VC_NOT_QUEUED;
		nd->next_id = 1;
		if (p->noise_period)
			nd->phase = vcube_mix64(topo->seed ^
						vcube_mix64((u64)i << 8 | 1)) %
				    p->noise_period;
		INIT_LIST_HEAD(&nd->reqs);
		INIT_LIST_HEAD(&nd->posted);
		INIT_LIST_HEAD(&nd->unexpected);
		INIT_LIST_HEAD(&nd->parked);
		e->sport[i].cap = 1;
		INIT_LIST_HEAD(&e->sport[i].waiters);
		e->rport[i].cap = p->eject;
		INIT_LIST_HEAD(&e->rport[i].waiters);
	}
}

struct vc_engine *vc_engine_create(const struct vcube_topo *topo,
				   const struct vc_params *p)
{
	struct vc_engine *e = vc_alloc(sizeof(*e));

	if (!e)
		return NULL;
	/* vc_delay()'s bound and vc_noise_run()'s per - c need this. */
	if (p->noise_period && p->noise_cost > p->noise_period / 2) {
		vc_free(e);
		return NULL;
	}
	e->topo = topo;
	e->p = *p;
	vc_engine_layout(e);
	if (!vc_engine_alloc(e)) {
		/* nothing is in the lists yet, nor are they initialised */
		vc_engine_free(e);
		return NULL;
	}
	vc_engine_init(e);
	return e;
}

/* Free the transfers queued (by their wait_link) on @h, and their messages. */
static void vc_free_waiters(struct vc_engine *e, struct list_head *h)
{
	struct vc_xfer *x, *tx;

	list_for_each_entry_safe(x, tx, h, wait_link) {
		list_del_init(&x->wait_link);
		vc_msg_free(e, x->msg);
		vc_free(x);
	}
}

static void vc_free_xfer_event(struct vc_engine *e, struct vc_event *ev)
{
	struct vc_xfer *x;

	switch (ev->kind) {
	case VC_EV_THROUGH:
	case VC_EV_DELIVER:
	case VC_EV_HOP:
	case VC_EV_SEND:
		x = container_of(ev, struct vc_xfer, ev);
		/* bodies waiting for this one to end (duplex) */
		vc_free_waiters(e, &x->dwaiters);
		vc_msg_free(e, x->msg);
		vc_free(x);
		break;
	default:
		break;
	}
}

/* Frees transfers still in flight; the caller unbound every node first. */
void vc_engine_destroy(struct vc_engine *e)
{
	struct vc_msg *m, *tm;
	u32 i;

	if (!e)
		return;
	while (e->events.len) {
		struct vc_event *ev = vc_heap_top(&e->events);

		vc_heap_remove(&e->events, ev);
		vc_free_xfer_event(e, ev);
	}
	/* headers waiting for room (a release's event was dropped above) */
	for (i = 0; e->fcw.b && i <= e->fcw.mask; i++) {
		struct vc_xfer *x, *tx;

		list_for_each_entry_safe(x, tx, &e->fcw.b[i], fcw.link) {
			list_del_init(&x->fcw.link);
			vc_msg_free(e, x->msg);
			vc_free(x);
		}
	}
	for (i = 0; e->node && i < e->topo->nodes; i++) {
		vc_free_waiters(e, &e->node[i].parked);
		list_for_each_entry_safe(m, tm, &e->node[i].unexpected, link)
			vc_msg_free(e, m);
	}
	/* Transfers queued on resources have no event: free them from there. */
	for (i = 0; e->chan && i < e->nres; i++)
		vc_free_waiters(e, &e->chan[i].waiters);
	for (i = 0; e->sport && e->rport && i < e->topo->nodes; i++) {
		vc_free_waiters(e, &e->sport[i].waiters);
		vc_free_waiters(e, &e->rport[i].waiters);
	}
	vc_engine_free(e);
}

void vc_engine_set_wake(struct vc_engine *e, void (*wake)(void *, u32),
			void *ctx)
{
	e->wake = wake;
	e->wake_ctx = ctx;
}

/* A node that binds starts at the network's committed time (0 if first). */
int vc_bind(struct vc_engine *e, u32 node)
{
	struct vc_node *n = &e->node[node];

	if (n->state != VC_UNBOUND)
		return -EBUSY;
	if (!e->nbound)
		e->now = 0;
	n->clock = vc_noise_resume(e, n, e->now);
	n->opseq = 0;
	n->draws = 0;
	n->wake_status = 0;
	if (!++n->epoch)
		n->epoch = 1;
	e->nbound++;
	e->gen++;
	vc_set_running(e, n);
	return 0;
}

/*
 * The process behind @node is gone: its posted receives and everything
 * that waited for it are dropped; its messages in flight go on.
 */
void vc_unbind(struct vc_engine *e, u32 node)
{
	struct vc_node *n = &e->node[node];
	struct vc_req *r, *tr;
	struct vc_msg *m, *tm;

	if (n->state == VC_UNBOUND)
		return;
	list_for_each_entry_safe(r, tr, &n->reqs, link)
		vc_req_free(e, r);
	list_for_each_entry_safe(m, tm, &n->unexpected, link) {
		list_del_init(&m->link);
		vc_unreserve(e, m);
		vc_msg_free(e, m);
	}
	if (n->idle) {
		n->idle = false;
		e->nidle--;
	} else if (n->state == VC_RUNNING) {
		vc_heap_remove(&e->running, n);
		e->nrunning--;
	}
	vc_heap_remove(&e->events, &n->tmo);
	n->state = VC_UNBOUND;
	n->waiting = NULL;
	e->nbound--;
	e->gen++;
	/* Whatever waited for room here is taken (and discarded) now. */
	vc_recheck_parked(e, n, e->now > n->clock ? e->now : n->clock);
	vc_run(e);
}

/*
 * The idle lease (module parameter idle_lease_ms): @node, bound and
 * running, has made no call for that long (its process stopped, or
 * computes without saying so). Until its next call it stops holding
 * virtual time: events commit past its clock, and it is not counted
 * running for deadlocks either way. Its next call first goes through
 * vc_resume(), which starts it at the time committed meanwhile, if later.
 * Off by default: when it acts, virtual times depend on wall time.
 */
void vc_lease_expire(struct vc_engine *e, u32 node)
{
	struct vc_node *n = &e->node[node];

	if (n->state != VC_RUNNING || n->idle)
		return;
	vc_heap_remove(&e->running, n);
	e->nrunning--;
	n->idle = true;
	e->nidle++;
	e->st.leases++;
	e->gen++;
	vc_run(e);
}

/* @node makes a call: if its lease had run out, it holds time again. */
void vc_resume(struct vc_engine *e, u32 node)
{
	vc_unidle(e, &e->node[node]);
}

u64 vc_clock(struct vc_engine *e, u32 node)
{
	return e->node[node].clock;
}

u64 vc_now(struct vc_engine *e)
{
	return e->now;
}

/* @node is busy for @ns of work (stretched by noise), for @cause. */
static int vc_busy(struct vc_engine *e, u32 node, u64 ns, u32 cause)
{
	struct vc_node *n = &e->node[node];
	struct vc_trace_rec *r;
	u64 t;

	if (!vc_running(e, n))
		return -EINVAL;
	if (ns >= VC_TIME_MAX || n->clock + ns >= VC_TIME_MAX)
		return -EOVERFLOW;
	/* Under 2^63 (noise_cost <= noise_period / 2 at most doubles ns). */
	t = vc_noise_run(e, n, n->clock, ns);
	if (t >= VC_TIME_MAX)
		return -EOVERFLOW;
	r = vc_trace_wait(e, n, NULL, cause, n->clock, t);
	if (r)
		r->bytes = ns;
	n->clock = t;
	e->gen++;
	vc_running_fix(e, n);
	vc_run(e);
	return 0;
}

int vc_delay(struct vc_engine *e, u32 node, u64 ns)
{
	return vc_busy(e, node, ns, VC_CAUSE_COMPUTE);
}

/*
 * Start jitter: @node waits its next draw (see enum vc_jitter_dist), which
 * is returned in @ns. Draw k of node i depends only on the seed, i and k.
 */
int vc_jitter(struct vc_engine *e, u32 node, u64 *ns)
{
	struct vc_node *n = &e->node[node];
	u64 k = n->draws, h, d = 0;
	int ret;

	if (!vc_running(e, n))
		return -EINVAL;
	n->draws++;
	if (e->p.jitter) {
		h = vcube_mix64(e->topo->seed ^ vcube_mix64(k << 8 | 2));
		if (e->p.jitter_dist == VC_JITTER_ONE)
			d = h % e->topo->nodes == node ? e->p.jitter : 0;
		else
			d = vcube_mix64(h ^ (u64)node << 32) %
			    (e->p.jitter + 1);
	}
	ret = d ? vc_busy(e, node, d, VC_CAUSE_JITTER) : 0;
	*ns = ret ? 0 : d;
	return ret;
}

/*
 * @node copies @bytes within its own memory (the shuffle of a
 * store-and-forward exchange): its processor is busy for copy_ps per byte,
 * rounded to the nearest ns, and the interrupts it meets stretch that like
 * any busy wait. The ns charged (before stretching) come back in @ns.
 */
int vc_copy(struct vc_engine *e, u32 node, u64 bytes, u64 *ns)
{
	u64 t;
	int ret;

	*ns = 0;
	if (!vc_running(e, &e->node[node]))
		return -EINVAL;
	if (bytes > VC_COPY_MAX)
		return -EOVERFLOW;
	t = (bytes * e->p.copy_ps + 500) / 1000;
	ret = t ? vc_busy(e, node, t, VC_CAUSE_COPY) : 0;
	if (!ret)
		*ns = t;
	return ret;
}

/* Room for @bytes more (vc_msg_bytes()) from @n, and in the network? */
static bool vc_inflight_fits(struct vc_engine *e, struct vc_node *n,
			     u64 bytes)
{
	return (!e->p.max_inflight_node ||
		bytes <= e->p.max_inflight_node - n->inflight) &&
	       (!e->p.max_inflight || bytes <= e->p.max_inflight - e->inflight);
}

/*
 * Send @len bytes at @data (which the engine owns from now on, even on
 * error) to @dst. The request completes when the data is through.
 */
int vc_send(struct vc_engine *e, u32 node, u32 dst, u32 tag, u32 flags,
	    void *data, u64 len, u64 user, struct vc_req **reqp)
{
	struct vc_node *n = &e->node[node];
	u64 bytes = vc_msg_bytes(e, len);
	struct vc_msg *m;
	struct vc_xfer *x;
	struct vc_req *r;

	int ret = 0;

	if (dst >= e->topo->nodes || (flags & ~VC_SEND_FORCED) ||
	    !vc_running(e, n))
		ret = -EINVAL;
	else if (n->nreqs >= e->p.max_reqs || !vc_inflight_fits(e, n, bytes))
		ret = -ENOBUFS;
	else if (vc_reserve_events(e))
		ret = -ENOMEM;
	if (ret) {
		vc_free(data);
		return ret;
	}
	m = vc_alloc(sizeof(*m));
	x = vc_alloc(e->xfer_size);
	r = m && x ? vc_req_new(e, n, VC_REQ_SEND, user, sizeof(*r)) : NULL;
	if (!r) {
		vc_free(data);
		vc_free(m);
		vc_free(x);
		return -ENOMEM;
	}
	e->nevobj++;
	INIT_LIST_HEAD(&m->link);
	INIT_LIST_HEAD(&m->hs.link);
	INIT_LIST_HEAD(&x->wait_link);
	INIT_LIST_HEAD(&x->fcw.link);
	INIT_LIST_HEAD(&x->flow_link);
	INIT_LIST_HEAD(&x->dwaiters);
	x->ev.idx = VC_NOT_QUEUED;
	x->t_take = (u64 *)((char *)x + e->take_off);
	if (e->shared_rate)
		x->hops = (struct vc_hop *)((char *)x + e->hops_off);
	m->src = node;
	m->dst = dst;
	m->tag = tag;
	m->flags = flags;
	m->len = len;
	m->data = data;
	m->epoch = e->node[dst].state == VC_UNBOUND ? 0 : e->node[dst].epoch;
	n->inflight += bytes;
	e->inflight += bytes;
	m->sent = n->clock;
	m->sreq = r;
	r->smsg = m;
	r->len = len;
	x->msg = m;
	x->ev.time = n->clock;
	x->ev.kind = VC_EV_SEND;
	x->ev.node = node;
	x->ev.seq = n->opseq++;
	vc_event_push(e, &x->ev);
	*reqp = r;
	vc_run(e);
	return 0;
}

int vc_recv(struct vc_engine *e, u32 node, u32 src, u32 tag, u64 cap,
	    u64 user, struct vc_req **reqp)
{
	return vc_recv_flags(e, node, src, tag, 0, cap, user, reqp);
}

int vc_recv_flags(struct vc_engine *e, u32 node, u32 src, u32 tag, u32 flags,
		  u64 cap, u64 user, struct vc_req **reqp)
{
	struct vc_node *n = &e->node[node];
	struct vc_req_ev *re;

	if (src != VC_ANY && src >= e->topo->nodes)
		return -EINVAL;
	if (flags & ~VC_RECV_TAGCLASS)
		return -EINVAL;
	if ((flags & VC_RECV_TAGCLASS) && (tag & ~VC_TAG_CLASS_MASK))
		return -EINVAL;
	if (!vc_running(e, n))
		return -EINVAL;
	if (n->nreqs >= e->p.max_reqs)
		return -ENOBUFS;
	if (vc_reserve_events(e))
		return -ENOMEM;
	re = (struct vc_req_ev *)vc_req_new(e, n, VC_REQ_RECV, user,
					    sizeof(*re));
	if (!re)
		return -ENOMEM;
	e->nevobj++;
	re->req.want_src = src;
	re->req.want_tag = tag;
	re->req.want_class = flags & VC_RECV_TAGCLASS;
	re->req.cap = cap;
	re->ev.time = n->clock;
	re->ev.kind = VC_EV_RECV;
	re->ev.node = node;
	re->ev.seq = n->opseq++;
	vc_event_push(e, &re->ev);
	*reqp = &re->req;
	vc_run(e);
	return 0;
}

struct vc_req *vc_req_find(struct vc_engine *e, u32 node, u64 id)
{
	u64 hash = vc_hash_of(&e->reqs, node, id);
	struct vc_req *r;

	list_for_each_entry(r, vc_hash_chain(&e->reqs, hash), by_id.link)
		if (r->by_id.hash == hash && r->node == node && r->id == id)
			return r;
	return NULL;
}


/* Drop a request: done or not, the node no longer cares. */
void vc_req_free(struct vc_engine *e, struct vc_req *r)
{
	struct vc_node *n = &e->node[r->node];

	if (r->type == VC_REQ_RECV) {
		vc_heap_remove(&e->events, &((struct vc_req_ev *)r)->ev);
		e->nevobj--;
		vc_unpost(e, r);
		if (r->msg)
			vc_msg_free(e, r->msg);
	} else if (r->type == VC_REQ_CNET) {
		vc_cnet_leave(e, r);
	} else if (r->smsg) {
		r->smsg->sreq = NULL;
	}
	if (n->waiting == r)
		n->waiting = NULL;
	list_del_init(&r->link);
	vc_hash_del(&e->reqs, &r->by_id);
	n->nreqs--;
	vc_free(r);
}

/*
 * Wait for @req. Returns 0 when it is done (the node's clock is then at
 * least its completion time), VC_BLOCKED_RET when the caller must sleep
 * until the wake callback names the node and then call vc_node_status().
 */
int vc_wait(struct vc_engine *e, u32 node, struct vc_req *req)
{
	struct vc_node *n = &e->node[node];

	if (!vc_running(e, n))
		return -EINVAL;
	if (req->done) {
		if (vc_resume_at(e, n, req->done_time)) {
			vc_running_fix(e, n);
			vc_run(e);
		}
		return 0;
	}
	vc_set_blocked(e, n, req);
	vc_run(e);
	return n->state == VC_BLOCKED ? VC_BLOCKED_RET : n->wake_status;
}

/*
 * Is @req done by the node's clock? Everything up to and including that
 * instant must be committed first, so this too may block. Returns 1 (done),
 * 0 (not yet), or VC_BLOCKED_RET; after the wake, req->done answers.
 */
int vc_test(struct vc_engine *e, u32 node, struct vc_req *req)
{
	struct vc_node *n = &e->node[node];

	if (!vc_running(e, n))
		return -EINVAL;
	if (req->done)
		return 1;
	vc_set_blocked(e, n, req);
	vc_schedule(e, &n->tmo, n->clock, VC_EV_TIMEOUT, node);
	vc_run(e);
	if (n->state == VC_BLOCKED)
		return VC_BLOCKED_RET;
	return n->wake_status ? n->wake_status : req->done;
}

/*
 * Give up a receive nothing has completed: 0, -EBUSY when a message has
 * (the caller waits for it, so none is lost), -EINVAL for a request that
 * is not a receive. A message already let on for it (a handshake answered,
 * a rendezvous released) arrives all the same and waits, unexpected, for
 * the next receive that takes it. Constant work: the request's own links.
 */
int vc_cancel(struct vc_engine *e, u32 node, struct vc_req *req)
{
	if (!vc_running(e, &e->node[node]))
		return -EINVAL;
	if (req->type != VC_REQ_RECV)
		return -EINVAL;
	if (req->done)
		return -EBUSY;
	vc_req_free(e, req);
	return 0;
}

/* After a wake: 0, or -EDEADLK. A node still blocked gets -EAGAIN. */
int vc_node_status(struct vc_engine *e, u32 node)
{
	struct vc_node *n = &e->node[node];

	if (n->state == VC_BLOCKED)
		return -EAGAIN;
	return n->wake_status;
}

/* The caller stops waiting (a signal): the node runs again, unchanged. */
void vc_unblock(struct vc_engine *e, u32 node)
{
	struct vc_node *n = &e->node[node];

	if (n->state != VC_BLOCKED)
		return;
	vc_heap_remove(&e->events, &n->tmo);
	n->waiting = NULL;
	/*
	 * While it was blocked, events past its clock may have committed: it
	 * resumes at the committed time, so nothing it does lands before them.
	 */
	vc_resume_at(e, n, e->now);
	vc_set_running(e, n);
}

enum vc_node_state vc_node_state(struct vc_engine *e, u32 node)
{
	return e->node[node].state;
}

const struct vc_node_stats *vc_node_stats(struct vc_engine *e, u32 node)
{
	return &e->node[node].st;
}

const struct vc_res_stats *vc_chan_stats(struct vc_engine *e, u32 chan)
{
	return &e->chan[chan].st;
}

/* Channels, or in packet mode bundles, that vc_chan_stats() knows. */
u32 vc_nchan_res(struct vc_engine *e)
{
	return e->nres;
}

/*
 * Announce peaks and deadlocks to @fn (NULL: to nobody); the caller sets
 * it before any node binds, or under the lock it holds around every call.
 */
void vc_engine_set_notify(struct vc_engine *e, vc_notify_fn fn, void *ctx)
{
	e->notify = fn;
	e->notify_ctx = ctx;
}

/* The most transfers one channel carried, among those taken in @window. */
u32 vc_window_peak(struct vc_engine *e, u32 window)
{
	return e->winpeak && window < VC_WINDOWS ? e->winpeak[window] : 0;
}

/* Start counting the most transfers on each channel at once afresh. */
void vc_peaks_reset(struct vc_engine *e)
{
	u32 i;

	for (i = 0; i < e->nres; i++)
		e->chan[i].st.peak = e->chan[i].count;
}

/* Virtual time @chan was held, including a holding still going on. */
u64 vc_chan_busy(struct vc_engine *e, u32 chan)
{
	struct vc_res *r = &e->chan[chan];

	return r->st.busy_ns +
	       (r->count && e->now > r->since ? e->now - r->since : 0);
}

/*
 * Every counter starts afresh: channels (a channel held now counts as busy
 * from now, and its peak as what holds it), nodes, the network, the peak
 * windows and the trace, whose message numbers restart with the count.
 */
void vc_stats_reset(struct vc_engine *e)
{
	u32 i;

	for (i = 0; i < e->nres; i++) {
		struct vc_res *r = &e->chan[i];

		memset(&r->st, 0, sizeof(r->st));
		r->st.peak = r->count;
		r->since = e->now;
	}
	for (i = 0; i < e->topo->nodes; i++) {
		struct vc_node *n = &e->node[i];

		memset(&n->st, 0, sizeof(n->st));
		n->st.sysbuf_peak = n->sysbuf_used;
	}
	memset(&e->st, 0, sizeof(e->st));
	if (e->winpeak)
		memset(e->winpeak, 0, VC_WINDOWS * sizeof(*e->winpeak));
	e->winrecord = 0;
	e->ntrace = 0;
	e->ndl = 0;
	e->dl_time = 0;
	e->gen++;
}

u32 vc_deadlock_count(struct vc_engine *e, u64 *time)
{
	*time = e->dl_time;
	return e->ndl;
}

u32 vc_deadlock_chan_waits(struct vc_engine *e, u32 *chans)
{
	*chans = e->dl_chans;
	return e->dl_waits;
}

const struct vc_deadlock_rec *vc_deadlock_get(struct vc_engine *e, u32 i)
{
	return i < e->ndl ? &e->dl[i] : NULL;
}

/*
 * A number that changes whenever a counter may have: readers that take the
 * counters in several parts compare it to know they saw one state.
 */
u64 vc_stats_gen(struct vc_engine *e)
{
	return e->gen;
}

const struct vc_net_stats *vc_net_stats(struct vc_engine *e)
{
	return &e->st;
}

u64 vc_trace_count(struct vc_engine *e)
{
	return e->ntrace;
}

/* Record @i, if it is still kept: 0, else -ENOENT. */
int vc_trace_get(struct vc_engine *e, u64 i, struct vc_trace_rec *rec)
{
	if (!e->trace || i >= e->ntrace || e->ntrace - i > e->p.trace_max)
		return -ENOENT;
	*rec = e->trace[i % e->p.trace_max];
	return 0;
}

void vc_trace_reset(struct vc_engine *e)
{
	e->ntrace = 0;
}

void vc_trace_enable(struct vc_engine *e, bool on)
{
	e->trace_off = !on;
}

bool vc_trace_enabled(struct vc_engine *e)
{
	return e->trace && !e->trace_off;
}

int vc_mark(struct vc_engine *e, u32 node, const char *label)
{
	struct vc_node *n = &e->node[node];
	struct vc_trace_rec *r;
	u32 i;

	if (!vc_running(e, n))
		return -EINVAL;
	r = vc_trace_new(e, VC_TRACE_MARK, n->clock, n->clock);
	if (!r)
		return 0;
	r->src = node;
	for (i = 0; i < VC_MARK_LEN - 1 && label[i]; i++)
		r->label[i] = label[i];
	e->gen++;	/* a dump in parts sees the ring moved */
	return 0;
}
