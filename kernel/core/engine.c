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
#include "engine.h"

#ifndef __KERNEL__
void (*vc_host_log)(const char *msg);	/* host builds: where vc_log goes */
unsigned long vc_alloc_fail_nth;	/* host builds: see env.h */
#endif

enum vc_kind {			/* the order of events at one instant */
	VC_EV_THROUGH,		/* the data has left: the sender goes on */
	VC_EV_RECV,		/* a node posts a receive */
	VC_EV_DELIVER,		/* a transfer is complete at its receiver */
	VC_EV_HOP,		/* a header wants its next channel or port */
	VC_EV_CREDIT,		/* a release reaches a sender (flow control) */
	VC_EV_SEND,		/* a node issues a send */
	VC_EV_TIMEOUT,		/* a node's test: all of this instant is done */
};

#define VC_NOT_QUEUED	U32_MAX

struct vc_event {
	u64 time;
	u32 kind;
	u32 node;
	u64 seq;
	u32 idx;		/* position in the event heap */
};

enum vc_xfer_type { VC_X_PROBE, VC_X_REQUEST, VC_X_DATA };
enum vc_wait_on {
	VC_ON_NONE, VC_ON_SPORT, VC_ON_CHAN, VC_ON_RPORT, VC_ON_DUPLEX,
	VC_ON_RECV,		/* parked before the port, for its receive */
	VC_ON_SPORT_BACK,	/* its receive came: the send port again */
};

/* One body's full rate, in the fixed point of rates and of work. */
#define VC_RATE_ONE	(1U << 16)

struct vc_res {
	u32 cap;		/* 0: unlimited */
	u32 count;
	u64 since;		/* when a cap-1 resource was last taken */
	u32 holder;		/* trace: the message that took it last */
	u64 bw;			/* flow modes: bandwidth, in VC_RATE_ONE units */
	/* flow modes but fixed_rate: the hops of the bodies flowing here */
	struct list_head flows;
	/* scratch of vc_rerate(): */
	u64 rem;		/* bandwidth left at level lvl */
	u32 lvl;
	u32 nfree;		/* unfrozen bodies through it */
	u32 nflows;		/* bodies through it */
	u32 mark;		/* == the engine's rgen: the filling reached it */
	/* the level it filled at when a filling last reached it; U32_MAX: none */
	u32 fill;
	bool dirty;		/* a body began or ended on it */
	bool arb_pending;	/* arb_lowest: freed with waiters, grant due */
	struct list_head arb_link;	/* in the engine's arb list */
	struct list_head waiters;
	struct vc_res_stats st;
};

struct vc_xfer {
	struct vc_event ev;
	struct list_head wait_link;	/* in a resource's waiters, or parked */
	u32 type;
	u32 cls;
	u32 src;
	u32 dst;
	u64 bytes;
	struct vc_msg *msg;
	u32 wait_on;
	struct vc_res *wait_res;
	u64 treq;		/* when it asked for what it waits for */
	u64 wseq;
	u64 t_end;
	u64 t_flow;		/* trace: when the body began to flow */
	u64 t_acq;		/* trace: its path and receiving port held */
	u32 wholder;		/* trace: what held what it waits for */
	/* flow modes: the body's progress */
	struct list_head flow_link;	/* in the engine's flowing bodies */
	u64 work;		/* left: ns at full rate, times VC_RATE_ONE */
	u64 t_rate;		/* when work was last brought up to date */
	u32 rate;		/* share of full rate, VC_RATE_ONE = all */
	u64 flow_seq;		/* its DELIVER's seq: the order it began in */
	u32 level;		/* its level in the filling (rate, unrounded) */
	u32 bneck;		/* the channel that froze it there; U32_MAX: none */
	/* scratch of vc_rerate(): */
	u8 frozen;
	struct list_head comp_link;	/* in the bodies the filling reached */
	u32 mark;		/* == the engine's rgen: the filling reached it */
	u32 new_level;
	u32 eidx;		/* its place in the engine's expect heap */
	struct vc_hop *hops;	/* !fixed_rate flow modes: one per chan */
	u64 *t_take;		/* trace: when it took each chan */
	bool sport_held;
	bool rx_due;		/* its receiver's share is paid at its HOP */
	bool fc;		/* a header holding a flow-control buffer */
	/* flow control: in the engine's headers waiting for room (fcw) */
	struct vc_hnode fcw;
	/* circuit, duplex: bodies waiting for this one to end */
	struct list_head dwaiters;
	u32 nhops;
	u32 hop;		/* channels held */
	u32 chan[];
};

/*
 * vc_rerate()'s heap entry: channel c fills at level key or later. Keys
 * only rise as bodies freeze, so an entry is brought up to date only when
 * it reaches the top.
 */
struct vc_rkey {
	u64 key;
	u32 c;
};

/* A flowing body's place in the flows list of one channel on its path. */
struct vc_hop {
	struct list_head link;
	struct vc_xfer *x;
};

struct vc_node {
	u32 id;
	u32 state;
	u64 clock;
	u64 opseq;
	u32 idx;		/* position in the running heap */
	u32 nreqs;
	u64 next_id;
	u64 posts;		/* receives posted so far */
	u32 nclass;		/* of those posted now, for a class of tags */
	u32 hs_deferred;	/* unexpected behind a handshake (vc_hs_before) */
	/* RUNNING, but out of the running heap: its idle lease ran out */
	bool idle;
	u64 sysbuf_used;
	u64 inflight;		/* bytes of its messages not yet taken */
	u32 epoch;		/* its bindings so far (0 before the first) */
	struct list_head reqs;
	struct list_head posted;	/* receives, in posting order */
	struct list_head unexpected;	/* arrived messages, in order */
	struct list_head parked;	/* transfers waiting for buffer room */
	u64 parked_min;		/* no length parked is shorter */
	u64 parks;		/* transfers parked so far */
	struct vc_event tmo;
	u64 phase;		/* noise: its first interrupt */
	u64 draws;		/* start-jitter draws made */
	struct vc_req *waiting;
	u64 blocked_at;		/* its clock when it blocked */
	s32 wake_status;
	/* circuit, duplex: the bodies flowing out of and into the node */
	struct vc_xfer *tx;
	struct vc_xfer *rx;
	struct vc_node_stats st;
};

/* A pending receive carries the event that posts it. */
struct vc_req_ev {
	struct vc_req req;
	struct vc_event ev;
};

/*
 * A table of chains that grows with what it holds (at most one entry per
 * chain on average), so a lookup walks O(1) entries expected however many
 * there are. Entries of one key keep the order they were added in: a chain
 * only appends, and growing moves each old chain, in order, into the new
 * ones. The seed is random in the kernel: no caller can choose keys that
 * collide. Nothing here decides virtual time, only how fast the same
 * answer is found.
 */
struct vc_hash {
	struct list_head *b;
	u32 mask;
	u32 count;
	u64 seed;
};

/*
 * Flow control, for one ordered pair of nodes (s, r): headers s sent to r
 * that s has not heard were freed (out, at most fc_bufs), of those the
 * ones r has freed (freed), and whether a release is on its way to s.
 */
struct vc_fc {
	u8 out;
	u8 freed;
	u8 rel;
};

/*
 * A heap element: the object's ordering key, copied in when it is queued
 * (an object changes its key only through vc_heap_fix()), so comparing
 * reads the heap's own array and never the objects.
 */
struct vc_hent {
	u64 k0, k1, k2;
	void *x;
};

struct vc_heap {
	struct vc_hent *a;
	u32 len;
	u32 cap;
	u32 idx_off;		/* offset of the object's u32 position */
};

struct vc_engine {
	const struct vcube_topo *topo;
	struct vc_params p;
	struct vc_node *node;
	struct vc_res *chan;
	struct vc_res *sport;
	struct vc_res *rport;
	u32 nres;		/* channels, or bundles in packet mode */
	u16 *winpeak;		/* per window: most transfers on one channel */
	u32 winrecord;		/* the most of any window since the reset */
	vc_notify_fn notify;	/* vc_engine_set_notify(), or NULL */
	void *notify_ctx;
	struct vc_trace_rec *trace;	/* ring of p.trace_max records */
	u64 ntrace;		/* records ever written */
	bool trace_off;		/* vc_trace_enable(): none written now */
	struct list_head flows;	/* bodies streaming, wormhole and packet */
	/*
	 * fixed_rate: no channel takes more bodies than it carries at full
	 * rate (wormhole, lanes <= 2^gamma), so every body flows at full rate
	 * from start to end: vc_rate_fresh(), not vc_rerate(), schedules
	 * those that began at this instant, fresh until then (not in flows).
	 */
	struct list_head fresh;
	bool fixed_rate;
	/*
	 * Otherwise, in the flow modes, vc_rerate() redoes only the bodies a
	 * start or end can move: the channels where one happened (dirty,
	 * ndirty of them), the lowest level it can move (l0), the channels
	 * filling at one level (rq) and the heap of channels by the level
	 * they fill at (rheap), nres long each, the bodies it reached by the
	 * level they froze at before (expect, room for every transfer), and
	 * rgen, which marks what it has reached.
	 */
	bool shared_rate;	/* flow modes, not fixed_rate */
	u32 take_off;		/* where a transfer's t_take begins in it */
	u32 hops_off;		/* where a transfer's hops begin in it */
	u32 xfer_size;		/* a transfer's bytes, its arrays included */
	u32 *dirty;
	u32 ndirty;
	u32 l0;			/* the lowest level a change can move */
	struct vc_res **rq;
	struct vc_rkey *rheap;
	u32 rlen;
	struct vc_heap expect;
	u32 rgen;
	struct list_head arb;	/* arb_lowest: resources to grant at e->now */
	bool rerate;		/* flows changed at e->now: rates to redo */
	struct vc_heap events;
	struct vc_heap running;
	u64 now;
	u64 seq;
	u32 nbound;
	u32 nrunning;
	u32 nidle;		/* running nodes whose idle lease ran out */
	u32 maxhops;
	u32 nevobj;		/* objects that may each have an event queued */
	u64 inflight;		/* bytes of messages not yet taken */
	u32 msg_cost;		/* what a message holds beside its payload */
	void (*wake)(void *ctx, u32 node);
	void *wake_ctx;
	struct vc_net_stats st;
	u64 gen;		/* bumped whenever a counter may have changed */
	struct list_head cnet_ops;	/* control network: not yet complete */
	struct vc_hash reqs;		/* requests by (node, id) */
	struct vc_hash posted;		/* posted receives by what they want */
	/*
	 * Long UNFORCED messages between their PROBE and their data's
	 * arrival, by (receiver, sender): a later message of that sender may
	 * not take a receive one of them also matches (MPI's non-overtaking;
	 * the handshake would otherwise let a short message sent after it
	 * arrive, and be matched, first).
	 */
	struct vc_hash hs;
	/*
	 * Flow control (fc_bufs): the pairs, nodes x nodes by (sender,
	 * receiver), and the headers waiting for room by (sender, receiver),
	 * each pair's in the order they were sent.
	 */
	struct vc_fc *fc;
	struct vc_hash fcw;
	struct vc_deadlock_rec *dl;	/* the last deadlock: a record per node */
	u32 ndl;			/* ... of which these are filled */
	u64 dl_time;
};

/*
 * A control-network operation. Pending (on the engine's cnet_ops) until
 * its last member enters, then done; freed when no request and no taker
 * holds it any more. Each member's operand stays in the buffer it came in
 * (the caller filled it before taking the lock), so the operation itself
 * holds only a pointer per member.
 */
struct vc_cnet_op {
	struct list_head link;
	struct list_head members;	/* requests, by their post_link */
	struct vc_cnet_args a;
	u64 len;		/* one operand's bytes; broadcast: the message */
	u64 last;		/* when the latest member entered */
	u32 entered;
	u32 refs;
	bool done;
	void *data[];		/* operands by node - first; broadcast: [0] */
};

/* ---- heaps with back-pointers ------------------------------------------ */

static u32 *vc_heap_idx(const struct vc_heap *h, void *x)
{
	return (u32 *)((char *)x + h->idx_off);
}

/* Keys compare as (k0, k1, k2), the first that differs deciding. */
static bool vc_hent_less(const struct vc_hent *a, const struct vc_hent *b)
{
	if (a->k0 != b->k0)
		return a->k0 < b->k0;
	if (a->k1 != b->k1)
		return a->k1 < b->k1;
	return a->k2 < b->k2;
}

/*
 * Four children a node: half the levels of a binary heap, and each level's
 * children share a cache line or two. Elements move into a hole, each
 * object's position written once per move. Keys are unique (every event
 * carries a sequence number of its own, every node its id), so the order
 * things come out in is the keys' and no heap shape can change it.
 */
#define VC_HEAP_D	4

static void vc_heap_place(struct vc_heap *h, u32 i, const struct vc_hent *x)
{
	h->a[i] = *x;
	*vc_heap_idx(h, x->x) = i;
}

static void vc_heap_up(struct vc_heap *h, u32 i)
{
	struct vc_hent x = h->a[i];

	while (i) {
		u32 p = (i - 1) / VC_HEAP_D;

		if (!vc_hent_less(&x, &h->a[p]))
			break;
		vc_heap_place(h, i, &h->a[p]);
		i = p;
	}
	vc_heap_place(h, i, &x);
}

static void vc_heap_down(struct vc_heap *h, u32 i)
{
	struct vc_hent x = h->a[i];

	for (;;) {
		u32 c = VC_HEAP_D * i + 1, end = c + VC_HEAP_D, m = c, k;

		if (c >= h->len)
			break;
		if (end > h->len)
			end = h->len;
		for (k = c + 1; k < end; k++)
			if (vc_hent_less(&h->a[k], &h->a[m]))
				m = k;
		if (!vc_hent_less(&h->a[m], &x))
			break;
		vc_heap_place(h, i, &h->a[m]);
		i = m;
	}
	vc_heap_place(h, i, &x);
}

/* The entry at @i has a new key: up if it is below its parent, else down. */
static void vc_heap_sift(struct vc_heap *h, u32 i)
{
	if (i && vc_hent_less(&h->a[i], &h->a[(i - 1) / VC_HEAP_D]))
		vc_heap_up(h, i);
	else
		vc_heap_down(h, i);
}

/* Double the heap's room; the elements keep their positions. */
static int vc_heap_grow(struct vc_heap *h)
{
	u32 cap = h->cap ? 2 * h->cap : 64;
	struct vc_hent *a = vc_alloc_array(cap, sizeof(*a));

	if (!a)
		return -ENOMEM;
	if (h->len)
		memcpy(a, h->a, h->len * sizeof(*a));
	vc_free(h->a);
	h->a = a;
	h->cap = cap;
	return 0;
}

static int vc_heap_push(struct vc_heap *h, void *x, u64 k0, u64 k1, u64 k2)
{
	if (h->len == h->cap && vc_heap_grow(h))
		return -ENOMEM;
	h->a[h->len] = (struct vc_hent){ .k0 = k0, .k1 = k1, .k2 = k2, .x = x };
	vc_heap_up(h, h->len++);
	return 0;
}

static void vc_heap_remove(struct vc_heap *h, void *x)
{
	u32 i = *vc_heap_idx(h, x);

	if (i == VC_NOT_QUEUED)
		return;
	*vc_heap_idx(h, x) = VC_NOT_QUEUED;
	if (i != --h->len) {
		h->a[i] = h->a[h->len];
		vc_heap_sift(h, i);
	}
}

/* @x's key is now (@k0, @k1, @k2). */
static void vc_heap_fix(struct vc_heap *h, void *x, u64 k0, u64 k1, u64 k2)
{
	u32 i = *vc_heap_idx(h, x);

	h->a[i].k0 = k0;
	h->a[i].k1 = k1;
	h->a[i].k2 = k2;
	vc_heap_sift(h, i);
}

/* The least element, or NULL. */
static void *vc_heap_top(const struct vc_heap *h)
{
	return h->len ? h->a[0].x : NULL;
}

/* Events come out by (time, kind, node, seq). */
static int vc_event_push(struct vc_engine *e, struct vc_event *ev)
{
	return vc_heap_push(&e->events, ev, ev->time,
			    (u64)ev->kind << 32 | ev->node, ev->seq);
}

/* Running nodes by (clock, id): the first is the one that can act first. */
static void vc_running_push(struct vc_engine *e, struct vc_node *n)
{
	vc_heap_push(&e->running, n, n->clock, n->id, 0);
}

/* @n's clock moved while it runs. */
static void vc_running_fix(struct vc_engine *e, struct vc_node *n)
{
	vc_heap_fix(&e->running, n, n->clock, n->id, 0);
}

/*
 * Queue an event. The heap only grows here, and growth can fail; vc_send()
 * and vc_recv() reserve room for every event a request can ever have queued
 * at once, so inside the engine this cannot fail.
 */
static void vc_schedule_seq(struct vc_engine *e, struct vc_event *ev,
			    u64 time, u32 kind, u32 node, u64 seq)
{
	ev->time = time;
	ev->kind = kind;
	ev->node = node;
	ev->seq = seq;
	if (vc_event_push(e, ev))
		vc_log("event queue full, virtual time is no longer exact\n");
}

static void vc_schedule(struct vc_engine *e, struct vc_event *ev, u64 time,
			u32 kind, u32 node)
{
	vc_schedule_seq(e, ev, time, kind, node, e->seq++);
}

/* Room in the event heap for every object that can have an event queued. */
static int vc_reserve_events(struct vc_engine *e)
{
	while (e->nevobj + 1 + e->topo->nodes > e->events.cap)
		if (vc_heap_grow(&e->events))
			return -ENOMEM;
	/* and the filling's, for every transfer that can flow */
	while (e->shared_rate && e->nevobj + 1 > e->expect.cap)
		if (vc_heap_grow(&e->expect))
			return -ENOMEM;
	return 0;
}

/* ---- nodes -------------------------------------------------------------- */

static void vc_set_running(struct vc_engine *e, struct vc_node *n)
{
	if (n->state == VC_RUNNING)
		return;
	n->state = VC_RUNNING;
	e->nrunning++;
	vc_running_push(e, n);	/* room for every node is reserved */
}

static void vc_unidle(struct vc_engine *e, struct vc_node *n);

static void vc_set_blocked(struct vc_engine *e, struct vc_node *n,
			   struct vc_req *req)
{
	vc_unidle(e, n);
	if (n->state == VC_RUNNING) {
		vc_heap_remove(&e->running, n);
		e->nrunning--;
	}
	n->state = VC_BLOCKED;
	n->waiting = req;
	n->blocked_at = n->clock;
	n->wake_status = 0;
}

/* ---- noise -------------------------------------------------------------- */

/* @t, or the end of @n's interrupt in progress at @t. */
static u64 vc_noise_resume(struct vc_engine *e, struct vc_node *n, u64 t)
{
	u64 off;

	if (!e->p.noise_period || !e->p.noise_cost || t < n->phase)
		return t;
	off = (t - n->phase) % e->p.noise_period;
	return off < e->p.noise_cost ? t - off + e->p.noise_cost : t;
}

/*
 * When @n, busy from @t, has had @work ns of CPU: interrupts met on the way
 * stretch it, each by noise_cost. Closed form, so any @work costs O(1).
 */
static u64 vc_noise_run(struct vc_engine *e, struct vc_node *n, u64 t,
			u64 work)
{
	u64 per = e->p.noise_period, c = e->p.noise_cost, next, k, rem;

	if (!per || !c)
		return t + work;
	t = vc_noise_resume(e, n, t);
	next = t < n->phase ? n->phase :
	       t - (t - n->phase) % per + per;	/* the next interrupt */
	if (t + work <= next)
		return t + work;
	work -= next - t;
	t = next + c;				/* at an interrupt's end */
	k = work / (per - c);
	rem = work % (per - c);
	if (k && !rem)				/* done as one begins */
		return t + k * per - c;
	return t + k * per + rem;
}

/*
 * A node goes on at @t after a wait, if @t is past its clock. Only such a
 * resumption meets an interrupt: a node whose busy wait ended as one began
 * goes on at that instant, whether or not it had to block first (host
 * timing decides that, never the outcome). Returns whether it moved.
 */
static bool vc_resume_at(struct vc_engine *e, struct vc_node *n, u64 t)
{
	if (t <= n->clock)
		return false;
	n->clock = vc_noise_resume(e, n, t);
	return true;
}

/*
 * @n is running and holds time again (its idle lease had run out): what
 * was committed meanwhile is its past, it starts after it.
 */
static void vc_unidle(struct vc_engine *e, struct vc_node *n)
{
	if (!n->idle)
		return;
	n->idle = false;
	e->nidle--;
	vc_resume_at(e, n, e->now);
	e->nrunning++;
	vc_running_push(e, n);
	e->gen++;
}

/* @n, bound, makes a call: running, and holding time (see vc_unidle()). */
static bool vc_running(struct vc_engine *e, struct vc_node *n)
{
	vc_unidle(e, n);
	return n->state == VC_RUNNING;
}

/* Where @n's first interrupt falls (noise off: 0). */
u64 vc_noise_phase(struct vc_engine *e, u32 node)
{
	return e->node[node].phase;
}

static void vc_wake(struct vc_engine *e, struct vc_node *n, u64 t, int status)
{
	if (n->state != VC_BLOCKED)
		return;
	vc_heap_remove(&e->events, &n->tmo);
	vc_resume_at(e, n, t);
	n->waiting = NULL;
	n->wake_status = status;
	vc_set_running(e, n);
	if (e->wake)
		e->wake(e->wake_ctx, n->id);
}

/* ---- the trace ---------------------------------------------------------- */

/* A new record in the ring (the oldest overwritten), or NULL: none kept. */
static struct vc_trace_rec *vc_trace_new(struct vc_engine *e, u32 kind,
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
static struct vc_trace_rec *vc_trace_wait(struct vc_engine *e,
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
static void vc_trace_block(struct vc_engine *e, struct vc_node *n,
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
static void vc_wait_note(struct vc_xfer *x, u32 cause, u32 chan, u64 t)
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

/* @r is done at @t (@m: its message, if any); its node goes on if it waits. */
static void vc_complete(struct vc_engine *e, struct vc_req *r,
			const struct vc_msg *m, u64 t)
{
	struct vc_node *n = &e->node[r->node];

	r->done = true;
	r->done_time = t;
	if (n->state == VC_BLOCKED && n->waiting == r) {
		vc_trace_block(e, n, r, m, t);
		vc_wake(e, n, t, 0);
	}
}

/* ---- resources ---------------------------------------------------------- */

/* @x takes @res at @t, if it may. */
static bool vc_res_take(struct vc_res *res, const struct vc_xfer *x, u64 t)
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
static void vc_res_wait(struct vc_engine *e, struct vc_res *res,
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

static void vc_res_put(struct vc_engine *e, struct vc_res *res, u64 t)
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
static void vc_arbitrate(struct vc_engine *e, u64 t)
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

/* ---- transfers ------------------------------------------------------- */

static int vc_route(struct vc_engine *e, struct vc_xfer *x)
{
	u64 cookie = (u64)x->msg->src << 40 ^ x->msg->sent ^ x->type;
	int n = vcube_topo_route(e->topo, x->src, x->dst, cookie, x->chan,
				 e->maxhops);

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
static void vc_xfer_begin(struct vc_engine *e, struct vc_xfer *x, u32 type,
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

/* ---- hash tables -------------------------------------------------------- */

static u64 vc_mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 vc_hash_of(const struct vc_hash *h, u64 a, u64 b)
{
	return vc_mix(vc_mix(a ^ h->seed) ^ b);
}

static int vc_hash_init(struct vc_hash *h, u32 size)
{
	u32 i;

	h->b = vc_alloc_array(size, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	for (i = 0; i < size; i++)
		INIT_LIST_HEAD(&h->b[i]);
	h->mask = size - 1;
	h->count = 0;
	h->seed = vc_random_u64();
	return 0;
}

static struct list_head *vc_hash_chain(const struct vc_hash *h, u64 hash)
{
	return &h->b[hash & h->mask];
}

/* Twice the chains, each old one moved in order; kept as is if no memory. */
static void vc_hash_grow(struct vc_hash *h)
{
	u32 size = 2 * (h->mask + 1), i;
	struct list_head *b;
	struct vc_hnode *x;

	if (size > (1U << 24))
		return;
	b = vc_alloc_array(size, sizeof(*b));
	if (!b)
		return;
	for (i = 0; i < size; i++)
		INIT_LIST_HEAD(&b[i]);
	for (i = 0; i <= h->mask; i++) {
		while (!list_empty(&h->b[i])) {
			x = list_first_entry(&h->b[i], struct vc_hnode, link);
			list_move_tail(&x->link, &b[x->hash & (size - 1)]);
		}
	}
	vc_free(h->b);
	h->b = b;
	h->mask = size - 1;
}

static void vc_hash_add(struct vc_hash *h, struct vc_hnode *x, u64 hash)
{
	x->hash = hash;
	list_add_tail(&x->link, vc_hash_chain(h, hash));
	if (++h->count > h->mask + 1)
		vc_hash_grow(h);
}

static void vc_hash_del(struct vc_hash *h, struct vc_hnode *x)
{
	if (list_empty(&x->link))
		return;
	list_del_init(&x->link);
	h->count--;
}

static u64 vc_hs_hash(struct vc_engine *e, u32 dst, u32 src)
{
	return vc_hash_of(&e->hs, dst, src);
}

static u64 vc_want_hash(struct vc_engine *e, u32 node, u32 src, u32 tag)
{
	return vc_hash_of(&e->posted, node, (u64)src << 32 | tag);
}

/* ---- flow control (fc_bufs) ------------------------------------------------ */

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
static void vc_fc_start(struct vc_engine *e, struct vc_xfer *x, u64 t)
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
static void vc_fc_credit(struct vc_engine *e, struct vc_xfer *x, u64 t)
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
static bool vc_fc_admit(struct vc_engine *e, struct vc_xfer *x, u64 t)
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

/* @r, a receive, is posted at @n: matched in posting order. */
static void vc_post(struct vc_engine *e, struct vc_node *n, struct vc_req *r)
{
	r->posted = n->posts++;
	n->nclass += r->want_class;
	list_add_tail(&r->post_link, &n->posted);
	vc_hash_add(&e->posted, &r->by_want,
		    vc_want_hash(e, n->id, r->want_src, r->want_tag));
}

static void vc_unpost(struct vc_engine *e, struct vc_req *r)
{
	if (!list_empty(&r->post_link))
		e->node[r->node].nclass -= r->want_class;
	list_del_init(&r->post_link);
	vc_hash_del(&e->posted, &r->by_want);
}

static bool vc_matches(const struct vc_req *r, const struct vc_msg *m)
{
	if (r->want_src != VC_ANY && r->want_src != m->src)
		return false;
	if (r->want_class)
		return (m->tag & VC_TAG_CLASS_MASK) == r->want_tag;
	return r->want_tag == VC_ANY || r->want_tag == m->tag;
}

/*
 * The first receive posted at @n that takes @m: of the kinds of receive
 * that can (this source or any; this tag, any tag, or this tag's class
 * when @n has such receives posted), the earliest posted. Each is the
 * first of its key in its chain.
 */
static struct vc_req *vc_match_posted(struct vc_engine *e, struct vc_node *n,
				      const struct vc_msg *m)
{
	const u32 cls = m->tag & VC_TAG_CLASS_MASK;
	const u32 src[6] = { m->src, m->src, VC_ANY, VC_ANY, m->src, VC_ANY };
	const u32 tag[6] = { m->tag, VC_ANY, m->tag, VC_ANY, cls, cls };
	struct vc_req *r, *best = NULL;
	u32 i, keys = n->nclass ? 6 : 4;
	u64 hash;

	if (list_empty(&n->posted))
		return NULL;
	for (i = 0; i < keys; i++) {
		hash = vc_want_hash(e, n->id, src[i], tag[i]);
		list_for_each_entry(r, vc_hash_chain(&e->posted, hash),
				    by_want.link) {
			if (r->by_want.hash != hash || r->node != n->id ||
			    r->want_src != src[i] || r->want_tag != tag[i] ||
			    r->want_class != (i >= 4))
				continue;
			if (!best || r->posted < best->posted)
				best = r;
			break;
		}
	}
	return best;
}

/*
 * Can @n take @m now: a posted receive wants it, or the system buffer has
 * room (which is then reserved for it). An unbound node takes anything and
 * discards it on arrival.
 */
static void vc_sysbuf_add(struct vc_node *n, u64 len)
{
	n->sysbuf_used += len;
	if (n->sysbuf_used > n->st.sysbuf_peak)
		n->st.sysbuf_peak = n->sysbuf_used;
}

/*
 * @m's destination is gone: unbound, or bound again since @m was sent to
 * the binding before (a message sent to an unbound node goes to whoever
 * binds it first).
 */
static bool vc_dst_gone(struct vc_engine *e, const struct vc_msg *m)
{
	const struct vc_node *d = &e->node[m->dst];

	return d->state == VC_UNBOUND || (m->epoch && m->epoch != d->epoch);
}

static bool vc_can_accept(struct vc_engine *e, struct vc_node *n,
			  struct vc_msg *m)
{
	if (vc_dst_gone(e, m) || m->reserved || vc_match_posted(e, n, m))
		return true;
	if (!e->p.sysbuf || n->sysbuf_used + m->len > e->p.sysbuf)
		return false;
	vc_sysbuf_add(n, m->len);
	m->reserved = true;
	return true;
}

static void vc_unreserve(struct vc_engine *e, struct vc_msg *m)
{
	if (m->reserved) {
		e->node[m->dst].sysbuf_used -= m->len;
		m->reserved = false;
	}
}

/*
 * fixed_rate: the bodies that began at @t flow at full rate, what
 * progressive filling would give them, since no channel holds more bodies
 * than it has full rates for; the others keep their delivery, which a new
 * rate would not move.
 */
static void vc_rate_fresh(struct vc_engine *e, u64 t)
{
	struct vc_xfer *x, *tx;

	list_for_each_entry_safe(x, tx, &e->fresh, flow_link) {
		x->rate = VC_RATE_ONE;
		vc_heap_remove(&e->events, &x->ev);
		vc_schedule(e, &x->ev, t + (x->work + VC_RATE_ONE - 1) /
				       VC_RATE_ONE, VC_EV_DELIVER, x->src);
		list_move_tail(&x->flow_link, &e->flows);
	}
}

static void vc_rheap_down(struct vc_engine *e, u32 i)
{
	struct vc_rkey *h = e->rheap, t;

	for (;;) {
		u32 l = 2 * i + 1, m = i;

		if (l < e->rlen && h[l].key < h[m].key)
			m = l;
		if (l + 1 < e->rlen && h[l + 1].key < h[m].key)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void vc_rheap_pop(struct vc_engine *e)
{
	e->rheap[0] = e->rheap[--e->rlen];
	vc_rheap_down(e, 0);
}

/*
 * The channel atop the heap, with its key brought up to date, or NULL once
 * no channel has a body rising.
 */
static struct vc_res *vc_rheap_top(struct vc_engine *e)
{
	while (e->rlen) {
		struct vc_res *r = &e->chan[e->rheap[0].c];
		u64 key;

		if (!r->nfree) {
			vc_rheap_pop(e);
			continue;
		}
		key = r->lvl + r->rem / r->nfree;
		if (key == e->rheap[0].key)
			return r;
		e->rheap[0].key = key;
		vc_rheap_down(e, 0);
	}
	return NULL;
}

/* Channel @c's flows changed at this instant: its component is redone. */
static void vc_dirty(struct vc_engine *e, u32 c)
{
	if (!e->chan[c].dirty) {
		e->chan[c].dirty = true;
		e->dirty[e->ndirty++] = c;
	}
}

/* @x, flowing from now, on its channels' lists. */
static void vc_flow_link(struct vc_engine *e, struct vc_xfer *x)
{
	u32 i;

	for (i = 0; i < x->nhops; i++) {
		x->hops[i].x = x;
		list_add_tail(&x->hops[i].link, &e->chan[x->chan[i]].flows);
		e->chan[x->chan[i]].nflows++;
		vc_dirty(e, x->chan[i]);
	}
	e->st.refill_visits += x->nhops;
	x->level = U32_MAX;	/* new: above any level */
	x->bneck = U32_MAX;
	x->eidx = VC_NOT_QUEUED;
}

/*
 * @x, just linked: no level lower than the least of its channels' equal
 * shares can be moved by it (a channel of n bodies cannot fill before
 * they all reach bw / n).
 */
static void vc_flow_bound(struct vc_engine *e, struct vc_xfer *x)
{
	u64 share = VC_RATE_ONE;
	u32 i;

	for (i = 0; i < x->nhops; i++) {
		struct vc_res *r = &e->chan[x->chan[i]];

		if (r->bw / r->nflows < share)
			share = r->bw / r->nflows;
	}
	if (share < e->l0)
		e->l0 = share;
}

/*
 * @x, delivered, off its channels' lists: no level lower than its own
 * moves, since none of its channels filled below it.
 */
static void vc_flow_unlink(struct vc_engine *e, struct vc_xfer *x)
{
	u32 i;

	for (i = 0; i < x->nhops; i++) {
		list_del(&x->hops[i].link);
		e->chan[x->chan[i]].nflows--;
		vc_dirty(e, x->chan[i]);
	}
	if (x->level < e->l0)
		e->l0 = x->level;
}

/* Bring channel @r, @nfree of its bodies rising, up to level @l. */
static void vc_res_level(struct vc_res *r, u32 l)
{
	r->rem -= (u64)(l - r->lvl) * r->nfree;
	r->lvl = l;
}

static void vc_rheap_up(struct vc_engine *e, u32 i)
{
	struct vc_rkey *h = e->rheap, t;

	while (i && h[i].key < h[(i - 1) / 2].key) {
		t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/*
 * Channel @r joins the filling at level @l: each body through it that has
 * not been reached yet is reached, rising, and expected to freeze at its
 * old level; bodies below @l that were not reached froze where they did,
 * since nothing on their channels has differed below @l.
 */
static void vc_affect(struct vc_engine *e, struct vc_res *r, u32 l,
		      struct list_head *comp)
{
	struct vc_xfer *x;
	struct vc_hop *h;

	r->mark = e->rgen;
	r->fill = U32_MAX;
	r->rem = r->bw;
	r->nfree = 0;
	e->st.refill_visits += r->nflows;
	list_for_each_entry(h, &r->flows, link) {
		x = h->x;
		if (x->mark == e->rgen) {
			if (x->frozen)
				r->rem -= x->new_level;
			else
				r->nfree++;
			continue;
		}
		if (x->level < l) {
			r->rem -= x->level;
			continue;
		}
		x->mark = e->rgen;
		x->frozen = 0;
		list_add_tail(&x->comp_link, comp);
		r->nfree++;
		if (x->level < VC_RATE_ONE &&
		    vc_heap_push(&e->expect, x, x->level, x->flow_seq, 0))
			vc_log("rate queue full, virtual time is no longer exact\n");
	}
	/* none of these filled below l: room for nfree at l */
	r->rem -= (u64)r->nfree * l;
	r->lvl = l;
	if (r->nfree) {
		e->rheap[e->rlen].key = l + r->rem / r->nfree;
		e->rheap[e->rlen].c = r - e->chan;
		vc_rheap_up(e, e->rlen++);
	}
}

/*
 * Body @x, reached and rising, stops at level @l, frozen by channel @by
 * (reached or not: one not reached fills at @l as it did). If that is not
 * where it stopped before, every channel it crosses now differs from @l
 * on and joins the filling first.
 */
static void vc_freeze(struct vc_engine *e, struct vc_xfer *x, u32 l, u32 by,
		      struct list_head *comp)
{
	struct vc_res *r;
	u32 i;

	if (x->level != l)
		for (i = 0; i < x->nhops; i++) {
			r = &e->chan[x->chan[i]];
			if (r->mark != e->rgen)
				vc_affect(e, r, l, comp);
		}
	x->new_level = l;
	x->frozen = 1;
	x->bneck = by;
	for (i = 0; i < x->nhops; i++) {
		r = &e->chan[x->chan[i]];
		if (r->mark != e->rgen)
			continue;
		vc_res_level(r, l);
		r->nfree--;
	}
}

/*
 * Body @x was reached rising and has come to its old level @l. If a channel
 * on its path that the filling has not reached filled at @l, it fills at @l
 * again and freezes @x as before. Otherwise @x rises past its old level:
 * its channels differ from @l on and join the filling.
 */
static void vc_expected(struct vc_engine *e, struct vc_xfer *x, u32 l,
			struct list_head *comp)
{
	struct vc_res *r;
	u32 i, by = U32_MAX;

	if (x->bneck != U32_MAX && e->chan[x->bneck].mark != e->rgen &&
	    e->chan[x->bneck].fill == l)
		by = x->bneck;
	for (i = 0; by == U32_MAX && i < x->nhops; i++) {
		r = &e->chan[x->chan[i]];
		if (r->mark != e->rgen && r->fill == l)
			by = x->chan[i];
	}
	if (by != U32_MAX) {
		vc_freeze(e, x, l, by, comp);
		return;
	}
	for (i = 0; i < x->nhops; i++) {
		r = &e->chan[x->chan[i]];
		if (r->mark != e->rgen)
			vc_affect(e, r, l, comp);
	}
}

#ifdef VC_RERATE_CHECK
/*
 * Host builds with -DVC_RERATE_CHECK (tests/host/sim_times.sh): after each
 * re-rate, progressive filling over every flowing body from level 0, one
 * level at a time, as the engine did before it re-rated only what a change
 * can move; any body whose level differs aborts the run.
 */
static void vc_rerate_check(struct vc_engine *e)
{
	u64 *rem = vc_alloc_array(e->nres, sizeof(*rem));
	u32 *nfree = vc_alloc_array(e->nres, sizeof(*nfree));
	u32 level = 0, inc, left = 0, i, c;
	struct vc_xfer *x;

	if (!rem || !nfree)
		abort();
	list_for_each_entry(x, &e->flows, flow_link) {
		x->new_level = U32_MAX;
		left++;
		for (i = 0; i < x->nhops; i++) {
			rem[x->chan[i]] = e->chan[x->chan[i]].bw;
			nfree[x->chan[i]]++;
		}
	}
	while (left) {
		inc = VC_RATE_ONE - level;
		list_for_each_entry(x, &e->flows, flow_link)
			for (i = 0; x->new_level == U32_MAX && i < x->nhops; i++) {
				c = x->chan[i];
				if (rem[c] / nfree[c] < inc)
					inc = rem[c] / nfree[c];
			}
		level += inc;
		list_for_each_entry(x, &e->flows, flow_link)
			for (i = 0; x->new_level == U32_MAX && i < x->nhops; i++)
				rem[x->chan[i]] -= inc;
		list_for_each_entry(x, &e->flows, flow_link) {
			if (x->new_level != U32_MAX)
				continue;
			if (level == VC_RATE_ONE)
				x->frozen = 2;
			for (i = 0; i < x->nhops && x->frozen != 2; i++)
				if (rem[x->chan[i]] < nfree[x->chan[i]])
					x->frozen = 2;
		}
		list_for_each_entry(x, &e->flows, flow_link) {
			if (x->new_level != U32_MAX || x->frozen != 2)
				continue;
			x->new_level = level;
			x->frozen = 0;
			left--;
			for (i = 0; i < x->nhops; i++)
				nfree[x->chan[i]]--;
		}
	}
	list_for_each_entry(x, &e->flows, flow_link) {
		if (x->new_level != x->level) {
			fprintf(stderr, "vc_rerate: body %u->%u at %llu: level %u, a whole filling gives %u\n",
				x->src, x->dst, (unsigned long long)e->now,
				x->level, x->new_level);
			abort();
		}
		/* what the next filling trusts: its channel fills at its level */
		for (i = 0; i < x->nhops && x->chan[i] != x->bneck; i++)
			;
		if (x->level < VC_RATE_ONE &&
		    (i == x->nhops || e->chan[x->bneck].fill != x->level)) {
			fprintf(stderr, "vc_rerate: body %u->%u at %llu: level %u, its channel %u filled at %u\n",
				x->src, x->dst, (unsigned long long)e->now,
				x->level, x->bneck, x->bneck == U32_MAX ?
				U32_MAX : e->chan[x->bneck].fill);
			abort();
		}
	}
	vc_free(rem);
	vc_free(nfree);
}
#endif

/*
 * Max-min fair rates by progressive filling: all unfrozen bodies rise
 * together until a channel (or bundle) on their path is full or they
 * reach full rate; those freeze, the rest go on. Integer arithmetic only:
 * a channel with rem left and nfree bodies rising fills at level
 * lvl + rem / nfree (rising by k takes k * nfree, and the floor of
 * (rem - k nfree) / nfree is the floor of rem / nfree less k), so a heap
 * of channels by that level gives the next to fill, and each body is
 * frozen once; every channel that fills at a level freezes all its bodies
 * together.
 *
 * Only what a change moves is redone. Below the level l0 (the least of
 * the levels of the bodies that ended and of the equal shares of those
 * that began) the filling goes exactly as it went before, so the channels
 * a body began or ended on join the filling at l0 (vc_affect()), and
 * nothing else yet. A channel the filling has not reached fills where it
 * filled before (its fill), as long as every body through it freezes
 * where it froze before (its level): the filling reaches a channel only
 * when one of its bodies departs from that, at the level it departs at,
 * by freezing below its old level (vc_freeze()) or by rising past it
 * (vc_expected(): no channel left unreached on its path fills there).
 * The bodies a reached channel carries are followed, each expected at its
 * old level in the expect heap; the others keep their rates untouched.
 * The result is the whole network's filling, to the unit (checked against
 * it with -DVC_RERATE_CHECK). A body whose rate stays keeps its delivery
 * (the work left at its rate ends at the same ns), and each delivery's
 * seq is the order its body began in, as it was when every body was
 * rescheduled: the same flows give the same times.
 */

static void vc_rerate(struct vc_engine *e, u64 t)
{
	struct vc_xfer *x, *tx;
	struct vc_hop *h;
	struct vc_res *r;
	LIST_HEAD(comp);
	u32 i, n, l;

	list_for_each_entry(x, &e->fresh, flow_link)
		vc_flow_link(e, x);
	list_for_each_entry(x, &e->fresh, flow_link)
		vc_flow_bound(e, x);
	l = e->l0;
	e->l0 = U32_MAX;
	e->rgen++;
	/*
	 * With l0 at full rate nothing can fill below it: the new bodies get
	 * full rate and no other body moves. Otherwise the new bodies are
	 * reached through their channels, but for those that have none.
	 */
	list_for_each_entry(x, &e->fresh, flow_link)
		if (l >= VC_RATE_ONE || !x->nhops) {
			x->frozen = 0;
			list_add_tail(&x->comp_link, &comp);
		}
	list_splice_tail_init(&e->fresh, &e->flows);
	e->rlen = 0;
	for (i = 0; i < e->ndirty; i++) {
		r = &e->chan[e->dirty[i]];
		r->dirty = false;
		if (l < VC_RATE_ONE && r->mark != e->rgen)
			vc_affect(e, r, l, &comp);
	}
	e->ndirty = 0;
	/*
	 * The next level: where a channel reached fills, or where a body
	 * reached comes to its old level; channels first, each level.
	 */
	for (;;) {
		u32 lc = U32_MAX, lx = U32_MAX;

		r = vc_rheap_top(e);
		if (r)
			lc = e->rheap[0].key;
		if (e->expect.len)
			lx = e->expect.a[0].k0;
		if (lc >= VC_RATE_ONE && lx >= VC_RATE_ONE)
			break;
		if (lc <= lx) {
			/* every channel that fills at lc, then all their bodies */
			n = 0;
			do {
				e->rq[n++] = r;
				vc_rheap_pop(e);
			} while ((r = vc_rheap_top(e)) && e->rheap[0].key == lc);
			for (i = 0; i < n; i++) {
				e->rq[i]->fill = lc;
				list_for_each_entry(h, &e->rq[i]->flows, link)
					if (h->x->mark == e->rgen &&
					    !h->x->frozen)
						vc_freeze(e, h->x, lc,
							  e->rq[i] - e->chan,
							  &comp);
			}
			continue;
		}
		x = vc_heap_top(&e->expect);
		vc_heap_remove(&e->expect, x);
		if (!x->frozen)
			vc_expected(e, x, lx, &comp);
	}
	e->st.refills++;
	list_for_each_entry_safe(x, tx, &comp, comp_link) {
		u64 done = (t - x->t_rate) * x->rate;
		u32 rate;

		list_del(&x->comp_link);
		x->level = x->frozen ? x->new_level : VC_RATE_ONE;
		if (!x->frozen)
			x->bneck = U32_MAX;
		rate = x->level ? x->level : 1;
		if (rate == x->rate)
			continue;
		e->st.rate_changes++;
		e->st.rate_change_hops += x->nhops;
		x->work -= done < x->work ? done : x->work;
		x->t_rate = t;
		x->rate = rate;
		vc_heap_remove(&e->events, &x->ev);
		vc_schedule_seq(e, &x->ev, t + (x->work + rate - 1) / rate,
				VC_EV_DELIVER, x->src, x->flow_seq);
	}
#ifdef VC_RERATE_CHECK
	vc_rerate_check(e);
#endif
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

/* The body flows: the circuit (or its lanes) and the receiving port held. */
static void vc_xfer_flow(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	const struct vc_cost *c = &e->p.cost[x->cls];
	struct vc_xfer *y;
	u64 dur, tail;

	if (e->p.switching != VC_SW_CIRCUIT) {
		x->t_flow = t;
		x->work = c->byte * x->bytes * VC_RATE_ONE;
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
	dur = c->base + c->byte * x->bytes;
	tail = e->p.tail < dur ? e->p.tail : dur;
	x->t_end = t + dur;
	vc_schedule(e, &x->ev, t + dur - tail, VC_EV_THROUGH, x->src);
}

/*
 * The receiving port is held: the receiver spends its share of the
 * startup (flow modes, recv), then the body flows.
 */
static void vc_xfer_recv(struct vc_engine *e, struct vc_xfer *x, u64 t)
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

static void vc_xfer_park(struct vc_engine *e, struct vc_xfer *x, u32 on,
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

static void vc_xfer_hop(struct vc_engine *e, struct vc_xfer *x, u64 t);

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
		vc_schedule(e, &x->ev, t + e->p.cost[x->cls].hop, VC_EV_HOP,
			    x->src);
		break;
	case VC_ON_RPORT:
		vc_xfer_arrive(e, x, t);
		break;
	}
	x->wait_on = VC_ON_NONE;
}

static void vc_xfer_hop(struct vc_engine *e, struct vc_xfer *x, u64 t)
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
		vc_schedule(e, &x->ev, t + e->p.cost[x->cls].hop, VC_EV_HOP,
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

static void vc_msg_free(struct vc_engine *e, struct vc_msg *m)
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

static void vc_xfer_free(struct vc_engine *e, struct vc_xfer *x)
{
	vc_free(x);
	e->nevobj--;
}

/* The sender's request for @x's data completes, if it still has one. */
static void vc_sender_done(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	if (x->type == VC_X_DATA && x->msg->sreq) {
		x->msg->sreq->smsg = NULL;
		vc_complete(e, x->msg->sreq, x->msg, t);
		x->msg->sreq = NULL;
	}
}

/*
 * The data has left the sender, whose request completes: on the iPSC/860
 * csend() returns (Seidel's s) while the circuit still carries the tail.
 */
static void vc_xfer_through(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	if (e->p.sport_early) {
		x->sport_held = false;
		vc_res_put(e, &e->sport[x->src], t);
	}
	vc_sender_done(e, x, t);
	vc_schedule(e, &x->ev, x->t_end, VC_EV_DELIVER, x->src);
}

static void vc_recv_done(struct vc_engine *e, struct vc_req *r,
			 struct vc_msg *m, u64 t)
{
	r->msg = m;
	r->status = m->len > r->cap ? -EMSGSIZE : 0;
	e->node[r->node].st.received++;
	vc_complete(e, r, m, t);
}

static void vc_recheck_parked(struct vc_engine *e, struct vc_node *n, u64 t);

/*
 * Must @m leave receive @r (NULL: any receive) to a message its sender
 * sent before it, still in its handshake, which @r also takes? Work: the
 * sender's handshakes to this receiver sent before @m, each an outstanding
 * send of the sender.
 */
static bool vc_hs_before(struct vc_engine *e, const struct vc_msg *m,
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
static void vc_unexpected_take(struct vc_engine *e, struct vc_node *d,
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
static void vc_xfer_deliver(struct vc_engine *e, struct vc_xfer *x, u64 t)
{
	struct vc_node *d = &e->node[x->dst];
	bool flowed = !list_empty(&x->flow_link);
	struct vc_xfer *w, *tw;
	u32 i;

	if (flowed) {
		list_del_init(&x->flow_link);
		if (e->shared_rate)
			vc_flow_unlink(e, x);
	}
	vc_trace_xfer(e, x, t);
	if (x->type == VC_X_DATA)
		vc_trace_msg(e, x, t);
	for (i = 0; i < x->hop; i++) {
		struct vc_res *res = &e->chan[x->chan[i]];

		if (x->type == VC_X_DATA) {
			res->st.msgs++;
			res->st.bytes += x->bytes;
		}
		vc_res_put(e, res, t);
	}
	x->hop = 0;
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
static void vc_recheck_parked(struct vc_engine *e, struct vc_node *n, u64 t)
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

/* ---- node operations as events ------------------------------------------ */

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

static void vc_cnet_abort(struct vc_engine *e, struct vc_cnet_op *op);

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
	if (say)
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

static void vc_run(struct vc_engine *e)
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

/* ---- the API -------------------------------------------------------------- */

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

struct vc_engine *vc_engine_create(const struct vcube_topo *topo,
				   const struct vc_params *p)
{
	struct vc_engine *e = vc_alloc(sizeof(*e));
	u32 i, n = topo->nodes, size;
	bool hash_ok;

	if (!e)
		return NULL;
	/* vc_delay()'s bound and vc_noise_run()'s per - c need this. */
	if (p->noise_period && p->noise_cost > p->noise_period / 2) {
		vc_free(e);
		return NULL;
	}
	e->topo = topo;
	e->p = *p;
	e->maxhops = vcube_topo_diameter(topo) + 1;
	e->events.idx_off = offsetof(struct vc_event, idx);
	e->running.idx_off = offsetof(struct vc_node, idx);
	e->expect.idx_off = offsetof(struct vc_xfer, eidx);
	e->nres = p->switching == VC_SW_PACKET ? topo->nbundles : topo->nchan;
	INIT_LIST_HEAD(&e->flows);
	INIT_LIST_HEAD(&e->fresh);
	e->fixed_rate = p->switching == VC_SW_WORMHOLE && p->lanes &&
			p->lanes <= 1U << p->gamma;
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
	if (!e->node || !e->chan || !e->sport || !e->rport || !e->running.a ||
	    !e->dl || !hash_ok || (p->window_ns && !e->winpeak) || (p->trace_max && !e->trace) ||
	    (e->shared_rate && (!e->dirty || !e->rq || !e->rheap))) {
		/* nothing is in the lists yet, nor are they initialised */
		vc_engine_free(e);
		return NULL;
	}
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

static struct vc_req *vc_req_new(struct vc_engine *e, struct vc_node *n,
				 u32 type, u64 user, size_t size)
{
	struct vc_req *r;

	if (n->nreqs >= e->p.max_reqs)
		return NULL;
	r = vc_alloc(size);
	if (!r)
		return NULL;
	r->id = n->next_id++;
	r->type = type;
	r->node = n->id;
	r->user = user;
	INIT_LIST_HEAD(&r->post_link);
	INIT_LIST_HEAD(&r->by_want.link);
	list_add_tail(&r->link, &n->reqs);
	vc_hash_add(&e->reqs, &r->by_id, vc_hash_of(&e->reqs, n->id, r->id));
	n->nreqs++;
	return r;
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

static void vc_cnet_leave(struct vc_engine *e, struct vc_req *r);

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

/* ---- the control network ------------------------------------------------- */

static const u8 vc_type_size[VC_NTYPES] = {
	[VC_TYPE_U64] = 8, [VC_TYPE_DOUBLE] = 8, [VC_TYPE_S32] = 4,
};

bool vc_cnet_present(const struct vc_params *p)
{
	return p->cnet_word != 0;
}

/* Virtual ns one operation takes once its last member is in. */
u64 vc_cnet_cost(const struct vc_params *p, const struct vc_cnet_args *a)
{
	switch (a->kind) {
	case VC_CNET_BARRIER:
		return p->cnet_word;
	case VC_CNET_BCAST:
		return p->cnet_bcast + (a->count + 3) / 4 * p->cnet_word;
	default:
		return a->count * (a->type == VC_TYPE_DOUBLE ? p->cnet_double :
				   a->type == VC_TYPE_U64 ? 2 * p->cnet_word :
							    p->cnet_word);
	}
}

int vc_cnet_check(struct vc_engine *e, u32 node, const struct vc_cnet_args *a,
		  u64 *in, u64 *out)
{
	u64 len = 0, hold;

	if (!vc_cnet_present(&e->p))
		return -EOPNOTSUPP;
	if (a->kind >= VC_NCNET || !a->nodes || a->first >= e->topo->nodes ||
	    a->nodes > e->topo->nodes - a->first || node < a->first ||
	    node - a->first >= a->nodes)
		return -EINVAL;
	switch (a->kind) {
	case VC_CNET_BARRIER:
		if (a->op || a->type || a->root || a->count)
			return -EINVAL;
		break;
	case VC_CNET_BCAST:
		if (a->op || a->type || a->root < a->first ||
		    a->root - a->first >= a->nodes)
			return -EINVAL;
		len = a->count;
		break;
	default:
		if (a->type >= VC_NTYPES || a->op >= VC_NOPS || a->root ||
		    (a->type == VC_TYPE_DOUBLE && a->op > VC_OP_MIN))
			return -EINVAL;
		if (a->count > e->p.cnet_max)
			return -EMSGSIZE;
		len = a->count * vc_type_size[a->type];
		break;
	}
	/* What the operation holds: every operand, or the message. */
	hold = a->kind == VC_CNET_BCAST ? len : len * a->nodes;
	if (len > e->p.cnet_max || hold > e->p.cnet_max)
		return -EMSGSIZE;
	*in = a->kind == VC_CNET_BARRIER ? 0 :
	      a->kind == VC_CNET_BCAST ? (node == a->root ? len : 0) : len;
	*out = a->kind == VC_CNET_REDUCE ? hold :
	       a->kind == VC_CNET_SCAN ? len * (node - a->first + 1) :
	       a->kind == VC_CNET_BCAST ? len : 0;
	return 0;
}

/* Operands an operation holds: one per member; the root's message. */
static u32 vc_cnet_nslots(const struct vc_cnet_args *a)
{
	return a->kind == VC_CNET_BARRIER ? 0 :
	       a->kind == VC_CNET_BCAST ? 1 : a->nodes;
}

/* Member @node's operand: NULL if it has none (a broadcast's non-root). */
static void **vc_cnet_slot(struct vc_cnet_op *op, u32 node)
{
	if (op->a.kind == VC_CNET_BCAST)
		return node == op->a.root ? &op->data[0] : NULL;
	return op->a.kind == VC_CNET_BARRIER ? NULL :
	       &op->data[node - op->a.first];
}

/* Member @node leaves before the operation completes: so does its operand. */
static void vc_cnet_drop(struct vc_cnet_op *op, u32 node)
{
	void **slot = vc_cnet_slot(op, node);

	if (slot) {
		vc_free(*slot);
		*slot = NULL;
	}
}

static void vc_cnet_free(struct vc_cnet_op *op)
{
	u32 i;

	if (op->refs)
		return;
	list_del_init(&op->link);
	for (i = 0; i < vc_cnet_nslots(&op->a); i++)
		vc_free(op->data[i]);
	vc_free(op);
}

/* The last member is in: every member leaves at last + the cost. */
static void vc_cnet_complete(struct vc_engine *e, struct vc_cnet_op *op)
{
	u64 cost = vc_cnet_cost(&e->p, &op->a), t = op->last + cost;
	struct vc_req *r;

	if (t >= VC_TIME_MAX)
		t = VC_TIME_MAX - 1;
	list_del_init(&op->link);
	op->done = true;
	e->st.cnet_ops[op->a.kind]++;
	e->st.cnet_bytes += op->a.kind == VC_CNET_BCAST ? op->len :
			    op->len * op->a.nodes;
	e->st.cnet_busy_ns += cost;
	e->gen++;
	list_for_each_entry(r, &op->members, post_link) {
		e->st.cnet_wait_ns += op->last - r->entered;
		vc_complete(e, r, NULL, t);
	}
}

int vc_cnet_enter(struct vc_engine *e, u32 node, const struct vc_cnet_args *a,
		  void *data, struct vc_req **reqp)
{
	struct vc_node *n = &e->node[node];
	struct vc_cnet_op *op, *found = NULL;
	struct vc_req *r;
	u64 in, out, cost;
	int ret;

	ret = vc_cnet_check(e, node, a, &in, &out);
	if (!ret && !vc_running(e, n))
		ret = -EINVAL;
	if (ret)
		goto out_free;
	cost = vc_cnet_cost(&e->p, a);
	if (n->clock + cost >= VC_TIME_MAX) {
		ret = -EOVERFLOW;
		goto out_free;
	}
	list_for_each_entry(op, &e->cnet_ops, link)
		if (op->a.first == a->first && op->a.nodes == a->nodes) {
			found = op;
			break;
		}
	if (found && memcmp(&found->a, a, sizeof(*a))) {
		ret = -EINVAL;	/* the others are in another operation */
		goto out_free;
	}
	/* a node is in one operation at a time (its own list is bounded) */
	list_for_each_entry(r, &n->reqs, link)
		if (r->type == VC_REQ_CNET && !r->done &&
		    !list_empty(&r->post_link)) {
			ret = -EBUSY;
			goto out_free;
		}
	if (n->nreqs >= e->p.max_reqs) {
		ret = -ENOBUFS;
		goto out_free;
	}
	op = found;
	if (!op) {
		/* a pointer per member: the partition is at most the nodes */
		op = vc_alloc(sizeof(*op) +
			      vc_cnet_nslots(a) * sizeof(op->data[0]));
		if (!op) {
			ret = -ENOMEM;
			goto out_free;
		}
		op->a = *a;
		op->len = a->kind == VC_CNET_BARRIER ? 0 :
			  a->kind == VC_CNET_BCAST ? a->count :
			  a->count * vc_type_size[a->type];
		INIT_LIST_HEAD(&op->members);
		list_add_tail(&op->link, &e->cnet_ops);
	}
	r = vc_req_new(e, n, VC_REQ_CNET, 0, sizeof(*r));
	if (!r) {
		vc_cnet_free(op);
		ret = -ENOMEM;
		goto out_free;
	}
	/* a node blocks in its operation, so it holds no operand here yet */
	if (in)
		*vc_cnet_slot(op, node) = data;
	else
		vc_free(data);
	r->cnet = op;
	r->entered = n->clock;
	op->refs++;
	if (!op->entered++ || n->clock > op->last)
		op->last = n->clock;
	list_add_tail(&r->post_link, &op->members);
	e->gen++;
	if (op->entered == op->a.nodes)
		vc_cnet_complete(e, op);
	*reqp = r;
	return 0;

out_free:
	vc_free(data);
	return ret;
}

/*
 * Every member leaves a pending operation (a deadlock: none of them can
 * be joined any more), their operands with them. Their requests keep
 * their references until they are freed; the partition is free for a new
 * operation at once.
 */
static void vc_cnet_abort(struct vc_engine *e, struct vc_cnet_op *op)
{
	struct vc_req *r, *tmp;

	if (op->done)
		return;
	list_for_each_entry_safe(r, tmp, &op->members, post_link) {
		list_del_init(&r->post_link);
		vc_cnet_drop(op, r->node);
	}
	op->entered = 0;
	list_del_init(&op->link);
	e->gen++;
}

/*
 * A member's request goes: before the operation completes the member
 * leaves it (a signal, its process gone), its operand with it; after a
 * deadlock it has left already.
 */
static void vc_cnet_leave(struct vc_engine *e, struct vc_req *r)
{
	struct vc_cnet_op *op = r->cnet;
	struct vc_req *w;

	if (!op->done && !list_empty(&r->post_link)) {
		list_del_init(&r->post_link);
		vc_cnet_drop(op, r->node);
		op->last = 0;
		list_for_each_entry(w, &op->members, post_link)
			if (w->entered > op->last)
				op->last = w->entered;
		if (!--op->entered)
			list_del_init(&op->link);
		e->gen++;
	}
	list_del_init(&r->post_link);
	op->refs--;
	r->cnet = NULL;
	vc_cnet_free(op);
}

struct vc_cnet_op *vc_cnet_take(struct vc_req *r, u32 *pieces, u64 *piece,
				u64 *last)
{
	struct vc_cnet_op *op = r->cnet;
	const struct vc_cnet_args *a = &op->a;

	*last = op->last;
	*piece = op->len;
	*pieces = a->kind == VC_CNET_REDUCE ? a->nodes :
		  a->kind == VC_CNET_SCAN ? r->node - a->first + 1 :
		  a->kind == VC_CNET_BCAST ? 1 : 0;
	op->refs++;
	return op;
}

const void *vc_cnet_piece(const struct vc_cnet_op *op, u32 i)
{
	return op->data[i];
}

void vc_cnet_put(struct vc_cnet_op *op)
{
	op->refs--;
	vc_cnet_free(op);
}
