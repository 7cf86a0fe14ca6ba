/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube's virtual-time engine: conservative, deterministic discrete-event
 * simulation of message passing over a circuit-switched network.
 *
 * Nodes issue operations at their own virtual clocks; every operation and
 * every network step is an event in one queue ordered by
 * (time, kind, node, sequence). Events are committed in that order, but only
 * those earlier than the smallest clock of the running nodes, which can
 * still issue operations; when no node runs, the next event is always safe.
 * So the outcome depends on what each node did, never on host scheduling.
 *
 * The engine knows nothing of processes, files or locks: its caller holds
 * one lock around every call and sleeps where the engine says a node is
 * blocked, until the engine's wake callback names that node.
 */
#ifndef _VCUBE_CORE_ENGINE_H
#define _VCUBE_CORE_ENGINE_H

#include "env.h"
#include "topology.h"

#define VC_ANY			U32_MAX	/* any source, any tag */

/* Send flags (the same values as the UAPI's VCUBE_SEND_*). */
#define VC_SEND_FORCED		(1U << 0)
/*
 * Receive flags (the UAPI's VCUBE_RECV_*): the tag names a class, every
 * tag whose bits VC_TAG_CLASS_MASK are the tag's (its other bits zero).
 */
#define VC_RECV_TAGCLASS	(1U << 2)
#define VC_TAG_CLASS_MASK	0xffff0000U

/*
 * Cost of one transfer class: an uncontended transfer of m bytes over d
 * channels takes base + byte_ps * m / 1000 + hop * d nanoseconds (a byte's
 * cost in ps, so that today's links, tens of ps a byte, can be said). The
 * header takes hop ns per channel, holding what it has acquired; the rest
 * (base + byte_ps * m / 1000, rounded up to a whole ns) runs once the whole
 * circuit and the receiving port are held.
 */
struct vc_cost {
	u64 base;
	u64 byte_ps;
	u64 hop;
};

enum vc_class {
	VC_CLASS_SHORT,		/* FORCED messages, and UNFORCED <= short_max */
	VC_CLASS_CTL,		/* PROBE and REQUEST of the long protocol */
	VC_CLASS_LONG,		/* the data of an UNFORCED message > short_max */
	VC_NCLASSES,
};

enum vc_switching {
	VC_SW_CIRCUIT,		/* iPSC/860: the body holds the whole circuit */
	VC_SW_WORMHOLE,		/* Delta, AP1000: bodies share channel bandwidth */
	VC_SW_PACKET,		/* CM-5: packets share each bundle of links */
	VC_NSWITCHING,
};

/*
 * With wormhole and packet switching, base is the startup before the header
 * leaves (it holds no channel), hop the header's latency per channel, and
 * byte * m the body's time at full rate: it streams at the max-min fair
 * share of every channel (or bundle) on its path, re-rated whenever a
 * sharer starts or ends. A channel carries up to lanes bodies (0: any
 * number) with 2^gamma times one body's bandwidth; a fat tree bundle has
 * that times its width in links.
 */
struct vc_params {
	u32 switching;		/* enum vc_switching */
	u32 lanes;
	u32 gamma;
	u32 packet_payload;	/* packet: payload bytes per packet */
	u64 partial_ns;		/* packet: extra startup for a partial packet */
	struct vc_cost cost[VC_NCLASSES];
	u64 tail;		/* receiver-side time after the data is through */
	u32 short_max;		/* largest message sent in one packet, bytes */
	u32 eject;		/* messages a node receives at once; 0: no limit */
	/*
	 * bytes of system buffer per node; 0: none, so that every UNFORCED
	 * message waits for its receive (a synchronous send, the CM-5's);
	 * in the flow modes it waits before its header leaves
	 */
	u64 sysbuf;
	u32 max_reqs;		/* outstanding requests per node */
	/*
	 * bytes of messages sent and not yet taken by their receiver (each
	 * its payload and the engine's structures for it, vc_msg_bytes()),
	 * per network and per source node (whatever became of the sender's
	 * binding); past either, a send fails with -ENOBUFS. 0: no limit
	 */
	u64 max_inflight;
	u64 max_inflight_node;
	u64 window_ns;		/* stats: peak sharing per window; 0: off */
	u32 trace_max;		/* channel-use records kept; 0: no trace */
	u32 arb_lowest;		/* waiters served lowest source first, not FIFO */
	u32 sport_early;	/* a send port is free tail ns before delivery */
	u32 chan_early;		/* a circuit's channels, likewise */
	u64 copy_ps;		/* a node's local copy: ps per byte (vc_copy) */
	/*
	 * circuit: a node's transmit and receive bodies overlap only when the
	 * later starts within duplex ns of the earlier; else it waits for the
	 * earlier to end. 0: they always overlap.
	 */
	u64 duplex;
	/*
	 * flow modes: of a data transfer's base cost, the part its receiver's
	 * processor spends on it, holding the receiving port (eject at a
	 * time) before the body flows; the sender starts the rest before
	 */
	u64 recv;
	/* noise, from the topology's seed; all 0: none */
	u64 noise_period;	/* ns between one node's interrupts */
	u64 noise_cost;		/* ns of CPU each takes, <= noise_period / 2 */
	u64 jitter;		/* bound of a start-jitter draw, ns */
	u32 jitter_dist;	/* enum vc_jitter_dist */
	/* the control network (see enum vc_cnet_kind); cnet_word 0: none */
	u64 cnet_word;		/* one 32-bit word through its combining tree */
	u64 cnet_double;	/* one double combined */
	u64 cnet_bcast;		/* a broadcast's fixed cost */
	u64 cnet_max;		/* bytes one operation may hold */
	/*
	 * The iPSC/860's forward flow control (Seidel & Davis sec. 2.4): a
	 * node may have fc_bufs headers (short UNFORCED messages and PROBEs)
	 * out to one receiver before it hears they were freed; FORCED data,
	 * REQUESTs and long data bypass it. A header frees its buffer when it
	 * arrives; the sender hears so from the next such header coming back
	 * from that receiver, or, once its window is full, from a release
	 * message the receiver sends then (a CTL-class transfer's time,
	 * holding no channel). 0: off. Needs nodes <= VC_FC_MAX_NODES.
	 */
	u32 fc_bufs;
	/*
	 * flow modes, on topologies whose nodes hang off routers (fat tree,
	 * dragonfly, graph): ps per byte of a node's channel to its router
	 * (injection) and back (ejection), shared max-min by the bodies on
	 * it as a link is, while one body alone flows at most at its class's
	 * byte_ps; 0: as any other channel
	 */
	u64 inject_ps;
	u64 eject_ps;
};

/* Flow control keeps a few bytes per ordered pair of nodes: this many nodes. */
#define VC_FC_MAX_NODES	1024
#define VC_FC_MAX_BUFS	255

/*
 * The control network (the CM-5's, Ponnusamy et al. sec. 2): a second
 * network beside the data network, for the operations in which every node
 * of a partition (nodes first .. first + nodes - 1) takes part. It shares
 * nothing with the data network: no channel, no port, no contention. A
 * node enters an operation at its clock and blocks; once the last member
 * is in, at time L, every member leaves at L + the operation's cost:
 *   barrier        cnet_word
 *   reduce, scan   count elements of cnet_word (32-bit integers),
 *                  2 cnet_word (64-bit) or cnet_double (doubles) each
 *   broadcast      cnet_bcast + cnet_word per 32-bit word of the message
 * The network carries the operands: a reduction's member gets every
 * member's operand in node order, a scan's those of the nodes up to its
 * own, a broadcast's the root's message; the caller folds them (in node
 * order, so every member gets the same bits).
 */
enum vc_cnet_kind {
	VC_CNET_BARRIER,
	VC_CNET_REDUCE,
	VC_CNET_SCAN,
	VC_CNET_BCAST,
	VC_NCNET,
};

/* Element types and operators: the values of the UAPI's VCUBE_TYPE_*, _OP_*. */
enum vc_type { VC_TYPE_U64, VC_TYPE_DOUBLE, VC_TYPE_S32, VC_NTYPES };
enum vc_op {
	VC_OP_SUM, VC_OP_MAX, VC_OP_MIN, VC_OP_BAND, VC_OP_BOR, VC_OP_BXOR,
	VC_NOPS,
};

/* What a member asks for: every member of one operation asks the same. */
struct vc_cnet_args {
	u32 kind;		/* enum vc_cnet_kind */
	u32 op;			/* reduce, scan: enum vc_op */
	u32 type;		/* reduce, scan: enum vc_type */
	u32 root;		/* broadcast: the node that sends */
	u32 first;		/* the partition */
	u32 nodes;
	u64 count;		/* reduce, scan: elements; broadcast: bytes */
};

struct vc_cnet_op;

/*
 * Start jitter: how the k-th draw of every node is made.
 * UNIFORM: each node waits an independent uniform draw in [0, jitter] ns.
 * ONE: one node of the network, chosen at random per round, waits jitter
 * ns and the others none (Seidel & Davis sec. 3.1's one late node).
 */
enum vc_jitter_dist { VC_JITTER_UNIFORM, VC_JITTER_ONE, VC_NJITTER };

/* A mark's name: at most VC_MARK_LEN - 1 printable characters. */
#define VC_MARK_LEN	32

/* A trace field that names no message, channel or node. */
#define VC_TRACE_NONE	U32_MAX

/*
 * The trace: one record per event, of enum vc_trace_kind.
 *
 * PROBE, REQUEST, DATA: one channel's use by one transfer. Its header took
 *   it at @acquired (a circuit, or a worm, holds it from then, while its
 *   head waits further on), it carried the body from @start (the body
 *   began to flow) to @end (released at delivery); @chan and @hop are the
 *   channel and its place on the route.
 * MSG: one message, written when it is delivered: posted (its send) at
 *   @start, its data's path and receiving port held at @acquired, its body
 *   flowing from @flow, delivered at @end; @proto, @hop the channels of its
 *   route, and the longest wait any of its transfers made: @cause, with
 *   @chan and @holder as a WAIT has them (cause TRANSIT: none).
 * WAIT: node @src was blocked (or busy) from @start to @end for @cause,
 *   waiting for message @msg (VC_TRACE_NONE: none) to or from @dst. CHAN:
 *   @chan was held by message @holder (of those holding it, the last to
 *   take it); PORT, DUPLEX: @holder held the port or the other direction.
 *   COMPUTE, COPY, JITTER: @bytes is the ns of work asked, the rest of the
 *   interval interrupts (noise).
 * MARK: node @src began the phase @label at @start (== @end).
 *
 * Transfers and the message record of one message share @msg, the
 * network's messages count when it was sent.
 */
struct vc_trace_rec {
	u64 start;
	u64 end;
	u32 src;
	u32 dst;
	u32 tag;
	u32 chan;
	u16 hop;
	u16 kind;
	u32 msg;
	union {
		struct {
			u64 bytes;
			u64 acquired;
			u64 flow;
			u16 proto;
			u16 cause;
			u32 holder;
		};
		char label[VC_MARK_LEN];	/* MARK, NUL-terminated */
	};
};

enum vc_trace_kind {
	VC_TRACE_PROBE, VC_TRACE_REQUEST, VC_TRACE_DATA, VC_TRACE_MSG,
	VC_TRACE_WAIT, VC_TRACE_MARK,
};

/* How a message went: UNFORCED short, UNFORCED long (a handshake), FORCED. */
enum vc_trace_proto { VC_PROTO_SHORT, VC_PROTO_LONG, VC_PROTO_FORCED };

/*
 * Why a node waited. NOSEND: the message it waits for was not sent yet.
 * TRANSIT: the message was on its way (startup, header, body), held up by
 * nothing. CHAN: a channel on its route was held by another message. PORT:
 * a send or receive port was busy with another message (one at a time).
 * DUPLEX: a receive and a transmit at one node serialised (the iPSC/860's
 * rule). RECV: the message waited for its receive, or for buffer room, at
 * its receiver. CNET: the other members of a control-network operation.
 * COMPUTE, COPY, JITTER: the node's own work (vcube_node_delay(), a copy,
 * start jitter), stretched by noise.
 */
enum vc_trace_cause {
	VC_CAUSE_TRANSIT, VC_CAUSE_NOSEND, VC_CAUSE_CHAN, VC_CAUSE_PORT,
	VC_CAUSE_DUPLEX, VC_CAUSE_RECV, VC_CAUSE_CNET, VC_CAUSE_COMPUTE,
	VC_CAUSE_COPY, VC_CAUSE_JITTER,
};

/* Windows of vc_params.window_ns whose peak channel sharing is kept. */
#define VC_WINDOWS	4096

struct vc_engine;

enum vc_req_type { VC_REQ_SEND, VC_REQ_RECV, VC_REQ_CNET };

/*
 * An entry of a hash table of chains (engine.c): its chain, and the hash
 * of its key (kept for growing the table).
 */
struct vc_hnode {
	struct list_head link;
	u64 hash;
};

/* A node's outstanding send, receive or control-network operation. */
struct vc_req {
	struct list_head link;		/* in the node's requests */
	/* receives: in the node's posted list; operations: in the members */
	struct list_head post_link;
	struct vc_hnode by_id;		/* in the engine's requests by id */
	struct vc_hnode by_want;	/* posted: by (node, want_src, want_tag) */
	u64 posted;			/* the node's receives posted before it */
	u64 id;
	u32 type;
	u32 node;
	bool done;
	s32 status;			/* 0, -EMSGSIZE (truncated) */
	u64 done_time;
	/* receive: what it accepts, and what it got */
	u32 want_src;
	u32 want_tag;
	bool want_class;		/* want_tag is a class of tags */
	u64 cap;
	u64 len;			/* send: bytes sent */
	struct vc_msg *msg;
	/* send: the message while it is in the network */
	struct vc_msg *smsg;
	u64 user;			/* the caller's cookie (buffer address) */
	/* control network: the operation, and when this member entered it */
	struct vc_cnet_op *cnet;
	u64 entered;
};

/* A user message: identity and payload, from send to receive. */
struct vc_msg {
	struct list_head link;		/* in the receiver's unexpected list */
	u32 src;
	u32 dst;
	u32 tag;
	u32 flags;
	u64 len;
	void *data;			/* owned; freed with the message */
	struct vc_req *sreq;		/* NULL once the sender let go */
	bool reserved;			/* holds len bytes of dst's sysbuf */
	bool deferred;			/* unexpected: a handshake before it */
	u64 sent;			/* virtual time of the send */
	u64 arrived;
	u32 seq;			/* stats.messages when it was sent */
	u32 epoch;			/* dst's binding it was sent to; 0: none */
	/* in the engine's handshakes, from its PROBE to its data's arrival */
	struct vc_hnode hs;
	/* the longest wait of its transfers, for the trace */
	u64 w_start;
	u64 w_end;
	u32 w_chan;
	u32 w_holder;
	u16 w_cause;			/* enum vc_trace_cause */
};

enum vc_node_state { VC_UNBOUND, VC_RUNNING, VC_BLOCKED };

/*
 * Returned by vc_wait() and vc_test() when the node must sleep; distinct
 * from every other answer they give (vc_test() answers 0 or 1).
 */
#define VC_BLOCKED_RET	2

/* Virtual clocks stay below this (146 years), so sums of costs never wrap. */
#define VC_TIME_MAX	(1ULL << 62)

struct vc_node_stats {
	u64 sent;
	u64 received;
	u64 forced_dropped;	/* FORCED messages with no posted receive */
	u64 discarded;		/* arrived at an unbound node */
	u64 buffered;		/* UNFORCED messages kept in the system buffer */
	u64 sysbuf_peak;	/* most bytes of system buffer in use at once */
};

struct vc_res_stats {
	u64 msgs;		/* messages whose data crossed it */
	u64 bytes;		/* their payload */
	u64 uses;		/* transfers that took it: data, PROBE, REQUEST */
	u64 peak;		/* most transfers on it at once (reset-able) */
	u64 waits;		/* acquisitions that had to queue */
	u64 wait_ns;
	u64 busy_ns;
};

struct vc_net_stats {
	u64 messages;
	u64 transfers;		/* messages plus PROBEs and REQUESTs */
	u64 chan_waits;
	u64 chan_wait_ns;
	u64 port_waits;
	u64 duplex_waits;	/* bodies that waited for the other direction */
	u64 deadlocks;
	u64 leases;		/* idle leases that ran out */
	u64 events;
	u64 elapsed;		/* virtual time committed, summed over runs */
	/*
	 * Shared-rate flow modes: the max-min fillings done and the (body,
	 * channel) pairs they visited (the solver's work); the bodies whose
	 * rate changed and their channels (work no exact solver can skip:
	 * each change is a new delivery time).
	 */
	u64 refills;
	u64 refill_visits;
	u64 rate_changes;
	u64 rate_change_hops;
	/* the control network, apart from the data network's counters */
	u64 cnet_ops[VC_NCNET];	/* operations completed, by kind */
	u64 cnet_bytes;		/* operands and messages it carried */
	u64 cnet_busy_ns;	/* summed cost of the operations */
	u64 cnet_wait_ns;	/* summed time members waited for the last */
	/* flow control: headers that found their window full; releases sent */
	u64 fc_refused;
	u64 fc_releases;
};

/*
 * What the engine announces as it happens, to whoever registered with
 * vc_engine_set_notify(): a window whose peak channel sharing rose past
 * that of every window before it since the last reset (at most as many
 * as the sharing can rise, so a run cannot flood a listener), and each
 * deadlock. Called with the caller's lock held, in the engine call that
 * caused it.
 */
enum vc_notice_kind { VC_NOTICE_PEAK, VC_NOTICE_DEADLOCK };

struct vc_notice {
	u32 kind;
	u64 time;	/* virtual time, ns */
	u32 window;	/* peak: the window's number */
	u32 peak;	/* peak: transfers on the channel at once */
	u32 chan;	/* peak: the channel (its link-get id) */
	u32 waiting;	/* deadlock: the nodes left waiting */
};

typedef void (*vc_notify_fn)(void *ctx, const struct vc_notice *nt);

struct vc_engine *vc_engine_create(const struct vcube_topo *topo,
				   const struct vc_params *p);
void vc_engine_destroy(struct vc_engine *e);
void vc_engine_set_notify(struct vc_engine *e, vc_notify_fn fn, void *ctx);
void vc_engine_set_wake(struct vc_engine *e, void (*wake)(void *, u32),
			void *ctx);

int vc_bind(struct vc_engine *e, u32 node);
void vc_unbind(struct vc_engine *e, u32 node);
u64 vc_clock(struct vc_engine *e, u32 node);
int vc_delay(struct vc_engine *e, u32 node, u64 ns);
int vc_jitter(struct vc_engine *e, u32 node, u64 *ns);
/* Local copies: at most this many bytes per call (copy_ps <= 10^6). */
#define VC_COPY_MAX	(1ULL << 40)
int vc_copy(struct vc_engine *e, u32 node, u64 bytes, u64 *ns);
u64 vc_noise_phase(struct vc_engine *e, u32 node);

int vc_send(struct vc_engine *e, u32 node, u32 dst, u32 tag, u32 flags,
	    void *data, u64 len, u64 user, struct vc_req **reqp);
int vc_recv(struct vc_engine *e, u32 node, u32 src, u32 tag, u64 cap,
	    u64 user, struct vc_req **reqp);
int vc_recv_flags(struct vc_engine *e, u32 node, u32 src, u32 tag, u32 flags,
		  u64 cap, u64 user, struct vc_req **reqp);
struct vc_req *vc_req_find(struct vc_engine *e, u32 node, u64 id);
void vc_lease_expire(struct vc_engine *e, u32 node);
void vc_resume(struct vc_engine *e, u32 node);
int vc_wait(struct vc_engine *e, u32 node, struct vc_req *req);
int vc_test(struct vc_engine *e, u32 node, struct vc_req *req);
int vc_cancel(struct vc_engine *e, u32 node, struct vc_req *req);
int vc_node_status(struct vc_engine *e, u32 node);
void vc_unblock(struct vc_engine *e, u32 node);
void vc_req_free(struct vc_engine *e, struct vc_req *req);

/*
 * The control network. vc_cnet_check() validates @a for @node: 0 with the
 * bytes the member hands in (@in: an operand, or the root's message) and
 * gets back (@out), or -EOPNOTSUPP (no control network), -EINVAL, or
 * -EMSGSIZE (the operation would hold more than cnet_max bytes).
 * vc_cnet_enter() takes @data (@in bytes, owned by the engine from then
 * on, even on error; NULL when @in is 0) and returns the member's request,
 * done when every member is in; -EBUSY if the node is in an operation
 * already; -EINVAL if a member already in asked for another operation on
 * the same partition (members that disagree are an error in the program:
 * which of them is refused depends on the order they come in).
 * vc_cnet_take() hands the caller of a done request what it gets back,
 * @pieces operands of @piece bytes each in node order (vc_cnet_piece()),
 * and a reference on them that outlives the request, and when the last
 * member entered; vc_cnet_put() drops the reference.
 */
int vc_cnet_check(struct vc_engine *e, u32 node, const struct vc_cnet_args *a,
		  u64 *in, u64 *out);
int vc_cnet_enter(struct vc_engine *e, u32 node, const struct vc_cnet_args *a,
		  void *data, struct vc_req **reqp);
struct vc_cnet_op *vc_cnet_take(struct vc_req *req, u32 *pieces, u64 *piece,
				u64 *last);
const void *vc_cnet_piece(const struct vc_cnet_op *op, u32 i);
void vc_cnet_put(struct vc_cnet_op *op);
u64 vc_cnet_cost(const struct vc_params *p, const struct vc_cnet_args *a);
bool vc_cnet_present(const struct vc_params *p);
struct vc_msg *vc_req_take_msg(struct vc_engine *e, struct vc_req *r);
void vc_msg_release(struct vc_msg *m);
u64 vc_inflight(struct vc_engine *e, u32 node);
u64 vc_msg_bytes(struct vc_engine *e, u64 len);

enum vc_node_state vc_node_state(struct vc_engine *e, u32 node);
const struct vc_node_stats *vc_node_stats(struct vc_engine *e, u32 node);
const struct vc_res_stats *vc_chan_stats(struct vc_engine *e, u32 chan);
const struct vc_net_stats *vc_net_stats(struct vc_engine *e);
u64 vc_now(struct vc_engine *e);
u32 vc_nchan_res(struct vc_engine *e);
void vc_peaks_reset(struct vc_engine *e);
u64 vc_chan_busy(struct vc_engine *e, u32 chan);
void vc_stats_reset(struct vc_engine *e);
u64 vc_stats_gen(struct vc_engine *e);
u32 vc_window_peak(struct vc_engine *e, u32 window);
/*
 * The trace: records ever written (the oldest trace_max of them are
 * kept), one record by its number, and emptying it.
 */
u64 vc_trace_count(struct vc_engine *e);
int vc_trace_get(struct vc_engine *e, u64 i, struct vc_trace_rec *rec);
void vc_trace_reset(struct vc_engine *e);
/* Records are written (the default) or not; trace_max 0: never. */
void vc_trace_enable(struct vc_engine *e, bool on);
bool vc_trace_enabled(struct vc_engine *e);
/*
 * @node begins a phase named @label (NUL-terminated, at most VC_MARK_LEN -
 * 1 characters, checked by the caller) at its clock: a MARK record. Costs
 * no virtual time. 0, or -EINVAL if the node is not running.
 */
int vc_mark(struct vc_engine *e, u32 node, const char *label);

/*
 * The last deadlock, whole (the kernel log gets only the first lines of a
 * few): what each node that was told EDEADLK waited for. Kept until the
 * next deadlock or a counter reset; at most one record per node.
 */
enum vc_wait_kind {
	VC_WAIT_RECV,		/* a receive: @peer, @tag wanted (-1: any) */
	VC_WAIT_SEND,		/* its send to @peer */
	VC_WAIT_CNET,		/* a control-network operation */
};

struct vc_deadlock_rec {
	u64 clock;		/* the node's time */
	u32 node;
	u32 kind;		/* enum vc_wait_kind */
	s32 peer;
	s32 tag;
	u32 first, nodes;	/* VC_WAIT_CNET: its members */
	u32 entered;		/* VC_WAIT_CNET: how many were in */
};

u32 vc_deadlock_count(struct vc_engine *e, u64 *time);
/*
 * Of the last deadlock: the transfers that were waiting for channels held
 * by others (a routing deadlock: circuits or finite lanes on routes whose
 * channels wait on one another in a cycle; 0: the program's own), and
 * how many channels they waited for.
 */
u32 vc_deadlock_chan_waits(struct vc_engine *e, u32 *chans);
const struct vc_deadlock_rec *vc_deadlock_get(struct vc_engine *e, u32 i);

#endif /* _VCUBE_CORE_ENGINE_H */
