/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of vcube's engine share, and nothing outside kernel/core
 * sees: the engine's objects (events, resources, transfers, nodes, heaps,
 * hash tables, the engine itself) and the functions one file of it calls
 * in another. engine.h is the engine's interface to its callers.
 *
 * The files, each on those below it only (tests/host/layout.sh checks
 * there is no circle):
 *
 *   heap.c    heaps with back-pointers; the event and running queues
 *   hash.c    hash tables of chains that grow with what they hold
 *   trace.c   the trace's records: messages, waits, blocks
 *   node.c    a node's states, noise, wakeups and requests
 *   rate.c    the max-min rates of bodies sharing channels (flow modes)
 *   match.c   posted receives, matching, the system buffer
 *   xfer.c    resources and transfers: the circuit, wormhole and packet
 *             switch a message's transfers go through
 *   recv.c    delivery to the receiver: the long protocol's handshake,
 *             parked transfers, flow control (fc_bufs)
 *   cnet.c    the control network's operations
 *   run.c     node operations as events, the event loop, deadlocks
 *   engine.c  the API of engine.h: create, bind, send, receive, stats
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#ifndef _VCUBE_CORE_INTERNAL_H
#define _VCUBE_CORE_INTERNAL_H

#include "engine.h"

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
	u32 nwait;		/* transfers in waiters */
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
	/* its transfers waiting for channels, and the channels they want */
	u32 dl_waits, dl_chans;
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

/* heap.c */
int vc_heap_push(struct vc_heap *h, void *x, u64 k0, u64 k1, u64 k2);
void vc_heap_remove(struct vc_heap *h, void *x);
void *vc_heap_top(const struct vc_heap *h);
int vc_event_push(struct vc_engine *e, struct vc_event *ev);
void vc_running_push(struct vc_engine *e, struct vc_node *n);
void vc_running_fix(struct vc_engine *e, struct vc_node *n);
void vc_schedule_seq(struct vc_engine *e, struct vc_event *ev,
		     u64 time, u32 kind, u32 node, u64 seq);
void vc_schedule(struct vc_engine *e, struct vc_event *ev, u64 time,
		 u32 kind, u32 node);
int vc_reserve_events(struct vc_engine *e);

/* hash.c */
u64 vc_hash_of(const struct vc_hash *h, u64 a, u64 b);
int vc_hash_init(struct vc_hash *h, u32 size);
struct list_head *vc_hash_chain(const struct vc_hash *h, u64 hash);
void vc_hash_add(struct vc_hash *h, struct vc_hnode *x, u64 hash);
void vc_hash_del(struct vc_hash *h, struct vc_hnode *x);
u64 vc_hs_hash(struct vc_engine *e, u32 dst, u32 src);
u64 vc_want_hash(struct vc_engine *e, u32 node, u32 src, u32 tag);

/* trace.c */
struct vc_trace_rec *vc_trace_new(struct vc_engine *e, u32 kind,
				  u64 start, u64 end);
struct vc_trace_rec *vc_trace_wait(struct vc_engine *e,
				   struct vc_node *n,
				   const struct vc_msg *m, u32 cause,
				   u64 from, u64 to);
void vc_trace_block(struct vc_engine *e, struct vc_node *n,
		    const struct vc_req *r, const struct vc_msg *m,
		    u64 t);
void vc_wait_note(struct vc_xfer *x, u32 cause, u32 chan, u64 t);

/* node.c */
void vc_set_running(struct vc_engine *e, struct vc_node *n);
void vc_set_blocked(struct vc_engine *e, struct vc_node *n,
		    struct vc_req *req);
u64 vc_noise_resume(struct vc_engine *e, struct vc_node *n, u64 t);
u64 vc_noise_run(struct vc_engine *e, struct vc_node *n, u64 t,
		 u64 work);
bool vc_resume_at(struct vc_engine *e, struct vc_node *n, u64 t);
void vc_unidle(struct vc_engine *e, struct vc_node *n);
bool vc_running(struct vc_engine *e, struct vc_node *n);
void vc_wake(struct vc_engine *e, struct vc_node *n, u64 t, int status);
void vc_complete(struct vc_engine *e, struct vc_req *r,
		 const struct vc_msg *m, u64 t);
struct vc_req *vc_req_new(struct vc_engine *e, struct vc_node *n,
			  u32 type, u64 user, size_t size);

/* rate.c */
void vc_rate_fresh(struct vc_engine *e, u64 t);
void vc_flow_unlink(struct vc_engine *e, struct vc_xfer *x);
void vc_rerate(struct vc_engine *e, u64 t);

/* match.c */
void vc_post(struct vc_engine *e, struct vc_node *n, struct vc_req *r);
void vc_unpost(struct vc_engine *e, struct vc_req *r);
bool vc_matches(const struct vc_req *r, const struct vc_msg *m);
struct vc_req *vc_match_posted(struct vc_engine *e, struct vc_node *n,
			       const struct vc_msg *m);
void vc_sysbuf_add(struct vc_node *n, u64 len);
bool vc_dst_gone(struct vc_engine *e, const struct vc_msg *m);
bool vc_can_accept(struct vc_engine *e, struct vc_node *n,
		   struct vc_msg *m);
void vc_unreserve(struct vc_engine *e, struct vc_msg *m);

/* xfer.c */
bool vc_res_take(struct vc_res *res, const struct vc_xfer *x, u64 t);
void vc_res_wait(struct vc_engine *e, struct vc_res *res,
		 struct vc_xfer *x, u32 on, u64 t);
void vc_res_put(struct vc_engine *e, struct vc_res *res, u64 t);
void vc_arbitrate(struct vc_engine *e, u64 t);
void vc_xfer_begin(struct vc_engine *e, struct vc_xfer *x, u32 type,
		   u64 t);
void vc_xfer_flow(struct vc_engine *e, struct vc_xfer *x, u64 t);
void vc_xfer_recv(struct vc_engine *e, struct vc_xfer *x, u64 t);
void vc_xfer_park(struct vc_engine *e, struct vc_xfer *x, u32 on,
		  u64 t);
void vc_xfer_hop(struct vc_engine *e, struct vc_xfer *x, u64 t);
u64 vc_msg_bytes(struct vc_engine *e, u64 len);
void vc_msg_free(struct vc_engine *e, struct vc_msg *m);
void vc_xfer_free(struct vc_engine *e, struct vc_xfer *x);
void vc_sender_done(struct vc_engine *e, struct vc_xfer *x, u64 t);
void vc_xfer_through(struct vc_engine *e, struct vc_xfer *x, u64 t);
void vc_xfer_free_chans(struct vc_engine *e, struct vc_xfer *x, u64 t);

/* recv.c */
void vc_fc_start(struct vc_engine *e, struct vc_xfer *x, u64 t);
void vc_fc_credit(struct vc_engine *e, struct vc_xfer *x, u64 t);
bool vc_fc_admit(struct vc_engine *e, struct vc_xfer *x, u64 t);
bool vc_hs_before(struct vc_engine *e, const struct vc_msg *m,
		  const struct vc_req *r);
void vc_unexpected_take(struct vc_engine *e, struct vc_node *d,
			struct vc_msg *m, struct vc_req *r, u64 t);
void vc_xfer_deliver(struct vc_engine *e, struct vc_xfer *x, u64 t);
void vc_recheck_parked(struct vc_engine *e, struct vc_node *n, u64 t);

/* cnet.c */
void vc_cnet_abort(struct vc_engine *e, struct vc_cnet_op *op);
void vc_cnet_leave(struct vc_engine *e, struct vc_req *r);

/* run.c */
void vc_run(struct vc_engine *e);

#endif
