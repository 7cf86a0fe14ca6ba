/* SPDX-License-Identifier: MIT */
/*
 * libvcube: userspace access to vcube's virtual nodes.
 *
 * Every function returns 0 (or a count) on success and -errno on failure;
 * none of them sets errno as its way of reporting.
 */
#ifndef VCUBE_H
#define VCUBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/vcube.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VCUBE_SYSFS_ROOT	"/sys/class/vcube"
#define VCUBE_DEV_FMT		"/dev/vcube%u"
/* A network made by net-new (vcubectl net add): its nodes and its facts. */
#define VCUBE_NET_DEV_FMT	"/dev/vcube/%s/%u"
#define VCUBE_NET_SYSFS_FMT	"/sys/class/vcube_net/%s"
#define VCUBE_MAX_NEIGHBORS	16

struct vcube_node;

/*
 * Networks: the module's parameters make one, "default" (its nodes are
 * /dev/vcube<rank>); netlink's net-new (vcubectl net add) makes others,
 * each named (/dev/vcube/<name>/<rank>). A function that takes a network
 * name takes NULL or "default" for the default one.
 *
 * The network the environment names: VCUBE_NET (set by vcube-run --net
 * and vcubectl --net), or NULL (the default one).
 */
const char *vcube_env_net(void);
/* The device of node @rank of network @net; -EINVAL for a bad name. */
int vcube_node_path(const char *net, unsigned int rank, char *buf,
		    size_t len);
/* The sysfs directory of network @net (for vcube_net_describe()). */
int vcube_net_sysfs_root(const char *net, char *buf, size_t len);
/* Bind the calling process to node @rank of network @net. */
int vcube_node_open_net(const char *net, unsigned int rank,
			struct vcube_node **nodep);
/* The same, on the network vcube_env_net() names. */
int vcube_node_open(unsigned int rank, struct vcube_node **nodep);
int vcube_node_close(struct vcube_node *node);
int vcube_node_fd(const struct vcube_node *node);
int vcube_node_info(struct vcube_node *node, struct vcube_node_info *info);
/*
 * The route from @node to @dst: fills up to @max hops and returns the
 * route's length (which may exceed @max: call again with more room).
 */
int vcube_node_route(struct vcube_node *node, unsigned int dst,
		     uint64_t cookie, struct vcube_hop *hops, size_t max);

/*
 * Messages. Blocking calls fill @st (which may be NULL); non-blocking ones
 * return a request id for vcube_node_wait() or vcube_node_test(). flags:
 * VCUBE_SEND_FORCED (no handshake; dropped at a node with no receive
 * posted), else UNFORCED. Every virtual time is in ns.
 */
int vcube_node_send(struct vcube_node *node, unsigned int dst, unsigned int tag,
		    const void *buf, size_t len, unsigned int flags,
		    struct vcube_status *st);
int vcube_node_isend(struct vcube_node *node, unsigned int dst,
		     unsigned int tag, const void *buf, size_t len,
		     unsigned int flags, uint64_t *req);
int vcube_node_recv(struct vcube_node *node, unsigned int src, unsigned int tag,
		    void *buf, size_t cap, struct vcube_status *st);
int vcube_node_irecv(struct vcube_node *node, unsigned int src,
		     unsigned int tag, void *buf, size_t cap, uint64_t *req);
/* The same, with VCUBE_RECV_TAGCLASS in @flags: @tag names a class. */
int vcube_node_irecv_flags(struct vcube_node *node, unsigned int src,
			   unsigned int tag, unsigned int flags, void *buf,
			   size_t cap, uint64_t *req);
int vcube_node_wait(struct vcube_node *node, uint64_t req,
		    struct vcube_status *st);
/* 1 if @req is done by the node's clock (and then gone), 0 if not. */
int vcube_node_test(struct vcube_node *node, uint64_t req,
		    struct vcube_status *st);
/*
 * Cancel a receive posted with vcube_node_irecv(): 0, or -EBUSY when a
 * message has completed it (wait for it), -EINVAL for no such receive.
 * After vcube_node_test() answered 0, a cancel is a probe's second half:
 * nothing that could have matched by the node's clock is left unmatched.
 */
int vcube_node_cancel(struct vcube_node *node, uint64_t req);
/* Send to and receive from @partner at once; @st describes the receive. */
int vcube_node_exchange(struct vcube_node *node, unsigned int partner,
			unsigned int tag, const void *sbuf, size_t slen,
			void *rbuf, size_t rcap, unsigned int flags,
			struct vcube_status *st);
int vcube_node_clock(struct vcube_node *node, uint64_t *ns);
/* Busy-wait: the node's clock advances by @ns. */
int vcube_node_delay(struct vcube_node *node, uint64_t ns);
/*
 * One control-network operation (struct vcube_cnet in <linux/vcube.h>):
 * blocks until every member of its partition is in; a signal meanwhile
 * makes it leave and enter again. -EOPNOTSUPP on a network without one.
 */
int vcube_node_cnet(struct vcube_node *node, struct vcube_cnet *op);
/*
 * Start jitter: wait the node's next seeded draw (the module's jitter_ns
 * and jitter_dist; none when they are off); the draw in *@ns if not NULL.
 */
int vcube_node_jitter(struct vcube_node *node, uint64_t *ns);
/*
 * A local copy of @bytes in the process's memory (a store-and-forward
 * shuffle): the node's clock moves on by the network's copy_byte_ps per
 * byte; the ns charged in *@ns if not NULL. Free where copy_byte_ps is 0.
 */
int vcube_node_copy(struct vcube_node *node, uint64_t bytes, uint64_t *ns);
/*
 * Busy-wait until the node's clock reads @ns (no-op if it is past); under
 * noise an interrupt met on the way may carry it a little past @ns.
 */
int vcube_node_delay_until(struct vcube_node *node, uint64_t ns);
/*
 * The node begins a phase named @label (printable ASCII, at most
 * VCUBE_MARK_LEN - 1 characters) at its clock, which does not move: the
 * trace's timelines show it. -EINVAL for a longer name or another
 * character.
 */
int vcube_node_mark(struct vcube_node *node, const char *label);

/*
 * Under vcube-run: this process's rank and the number of processes
 * (VCUBE_RANK, VCUBE_SIZE). -ENOENT when not started by vcube-run.
 */
int vcube_env_rank(unsigned int *rank, unsigned int *size);
/*
 * Under vcube-run --nodes or --rankfile: the node rank @rank runs on, the
 * @rank-th of the list in VCUBE_NODES; @rank itself when it is unset.
 * -EINVAL for a malformed list (or one naming a node twice, or of other
 * than VCUBE_SIZE entries), -ENOENT for a rank it does not have. A node
 * vcube_node_open() binds under such a list speaks ranks: see
 * vcube_node_open(3).
 */
int vcube_env_node(unsigned int rank, unsigned int *node);
/*
 * Node lists as vcube-run --nodes takes them: "8-15", "0,4,8-11" (ranges
 * low-high; the nodes in the order written). vcube_nodelist_parse()
 * stores them into @nodes (room for @max; NULL: only count them) and
 * their number in *@n: -EINVAL for a malformed list, -ERANGE for a number
 * past 4294967294, -E2BIG for more than @max. Duplicates are the caller's
 * to refuse. vcube_nodelist_format() writes @n nodes into @buf in that
 * form, each run of consecutive nodes as a range: -ENOSPC when it does
 * not fit in @len bytes.
 */
int vcube_nodelist_parse(const char *list, unsigned int *nodes, size_t max,
			 size_t *n);
int vcube_nodelist_format(const unsigned int *nodes, size_t n, char *buf,
			  size_t len);

/*
 * The network as sysfs describes it; @root NULL means the directory of the
 * network vcube_env_net() names (VCUBE_SYSFS_ROOT for the default one).
 */
struct vcube_net_desc {
	char topology[16];
	char shape[64];
	char profile[16];
	unsigned int nodes;
	unsigned int channels;
	unsigned int diameter;
	unsigned long long seed;
	/* noise: interrupts of noise_cost_ns every noise_period_ns, and the
	 * start jitter's bound and distribution ("uniform" or "one") */
	unsigned long long noise_period_ns;
	unsigned long long noise_cost_ns;
	unsigned long long jitter_ns;
	char jitter_dist[16];
	/* the control network's costs (cnet_word_ns 0: it has none) */
	unsigned long long cnet_word_ns;
	unsigned long long cnet_double_ns;
	unsigned long long cnet_bcast_ns;
	/* a local copy's cost, ps per byte (0: free) */
	unsigned long long copy_byte_ps;
};

struct vcube_node_desc {
	unsigned int node;
	char coords[32];
	unsigned int nneighbors;
	unsigned int neighbors[VCUBE_MAX_NEIGHBORS];
	int owner;		/* pid of the bound process, 0 if unbound */
};

int vcube_net_describe(const char *root, struct vcube_net_desc *desc);
int vcube_node_describe(const char *root, unsigned int node,
			struct vcube_node_desc *desc);

/*
 * The generic netlink family "vcube" (libnl-genl-3): the network and its
 * counters. Needs no bound node. Dumps that saw the counters change midway
 * fail with -EAGAIN (try again); kernel errors keep their extended-ack
 * text for vcube_nl_errmsg().
 */
struct vcube_nl;

struct vcube_nl_topo {
	unsigned int kind;		/* enum vcube_topology */
	unsigned int switching;		/* enum vcube_switching */
	unsigned int nodes;
	unsigned int channels;
	unsigned int links;		/* entries of a link dump */
	unsigned int diameter;
	char shape[64];
	char profile[16];
	uint64_t now;			/* committed virtual time, ns */
	uint64_t elapsed;		/* time the counters cover, ns */
	uint64_t messages;
	uint64_t transfers;
	uint64_t waits;
	uint64_t wait_ns;
	uint64_t deadlocks;
	uint64_t port_waits;
	uint64_t duplex_waits;		/* for a half-duplex link's other way */
	uint64_t events;		/* engine events processed */
	uint64_t leases;		/* idle leases that ran out */
	unsigned int trace_max;		/* trace records kept (trace=) */
	unsigned int trace_on;		/* 1: recording, 0: switched off */
};

struct vcube_nl_link {
	unsigned int id;
	unsigned int from, to;		/* vertices: nodes at level 0 */
	unsigned int from_level, to_level;
	unsigned int dir;		/* dimension, enum vcube_dir, 0 up 1 down */
	unsigned int lane;
	unsigned int width;
	unsigned int peak;
	uint64_t messages;
	uint64_t bytes;
	uint64_t transfers;
	uint64_t busy_ns;
	uint64_t waits;
	uint64_t wait_ns;
};

struct vcube_nl_node {
	unsigned int id;
	unsigned int state;		/* enum vcube_node_state */
	unsigned int pid;		/* 0 while unbound */
	uint64_t clock;
	uint64_t sent;
	uint64_t received;
	uint64_t forced_dropped;
	uint64_t buffered;
	uint64_t discarded;
	uint64_t sysbuf_peak;
};

/* A window of window_ns in which a channel was taken (window-get). */
struct vcube_nl_window {
	unsigned int index;
	unsigned int peak;	/* most transfers on one channel in it */
};

/*
 * One channel's use by one transfer (trace-get): the kernel keeps the last
 * trace= of them.
 */
#define VCUBE_TRACE_NONE	UINT32_MAX	/* no message, channel, node */

/*
 * One trace record (trace-get), of enum vcube_trace_kind. PROBE, REQUEST
 * and DATA: a channel's use by one transfer. MSG: a message, from its send
 * (start) to its delivery (end). WAIT: node @src blocked from start to
 * end for @cause. MARK: node @src began phase @label at start.
 * Documentation/netlink/specs/vcube.yaml says what each field is in each.
 */
struct vcube_trace_rec {
	uint64_t seq;		/* the record's number since the last reset */
	uint64_t start;		/* virtual ns the transfer's body began */
	uint64_t end;		/* virtual ns the channel was released */
	uint64_t bytes;		/* 0 for a PROBE or a REQUEST */
	unsigned int src;	/* for a REQUEST, the message's receiver */
	unsigned int dst;	/* VCUBE_TRACE_NONE: none */
	unsigned int tag;
	unsigned int channel;	/* packet switching: the bundle */
	unsigned int hop;	/* the channel's place on the route, from 0 */
	unsigned int kind;	/* enum vcube_trace_kind */
	uint32_t msg;		/* topo messages at its send, low 32 bits */
	/* a channel use: its header took it; MSG: path and port held */
	uint64_t acquired;
	/* MSG: the body began; enum vcube_trace_proto */
	uint64_t flow;
	unsigned int proto;
	unsigned int cause;	/* WAIT, MSG: enum vcube_trace_cause */
	uint32_t holder;	/* what held what it waited for, or NONE */
	char label[VCUBE_MARK_LEN];	/* MARK */
};

/*
 * One node of the last deadlock (deadlock-get): what it waited for when it
 * was told EDEADLK.
 */
struct vcube_nl_deadlock {
	uint64_t time;		/* virtual ns the deadlock was found */
	uint64_t clock;		/* the node's virtual ns */
	unsigned int node;
	unsigned int kind;	/* enum vcube_wait_kind */
	int peer;		/* RECV: source wanted (-1: any); SEND: dst */
	int tag;		/* RECV: tag wanted (-1: any) */
	unsigned int first;	/* CNET: the operation's members, */
	unsigned int nodes;
	unsigned int entered;	/* and how many had entered */
};

/* The control network (cnet-get): its costs, and what it carried. */
struct vcube_nl_cnet {
	unsigned int present;		/* 0: the network has none */
	uint64_t word_ns;
	uint64_t double_ns;
	uint64_t bcast_ns;
	uint64_t barriers;
	uint64_t reductions;
	uint64_t scans;
	uint64_t broadcasts;
	uint64_t bytes;			/* operands and messages carried */
	uint64_t busy_ns;		/* the operations' summed cost */
	uint64_t wait_ns;		/* members waiting for the last one */
};

/*
 * -ENOENT: no vcube module is loaded. The handle's commands name the
 * network vcube_env_net() names (-ENODEV if there is none such), or the
 * default one, or vcube_nl_net_use()'s.
 */
int vcube_nl_open(struct vcube_nl **nlp);
/* A network (net-get, net-new's reply). */
struct vcube_nl_net {
	unsigned int id;
	char name[16];
	bool is_default;	/* the module parameters': /dev/vcube<rank> */
	char topology[16];
	char shape[64];
	char profile[16];
	char switching[16];
	unsigned int nodes;
	unsigned int channels;
	unsigned int mode;	/* its device files' permissions */
	unsigned int bound;	/* nodes a process has bound now */
};
/* From now on the handle's commands name network @name (NULL: default). */
int vcube_nl_net_use(struct vcube_nl *nl, const char *name);
/*
 * Make network @name in the caller's network namespace from @nkv words
 * "key=value", the module parameters' (modinfo vcube; a cost of -1 is the
 * profile's, as there): 0 and *@net (may be NULL), or -errno with the
 * reason in vcube_nl_errmsg(): -EINVAL (a bad word), -EEXIST (the name is
 * taken), -ENOSPC (past the namespace's bounds), -EPERM. With
 * VCUBE_NL_DESTROY_ON_CLOSE, it is deleted when the handle is closed.
 */
#define VCUBE_NL_DESTROY_ON_CLOSE	1u
int vcube_nl_net_new(struct vcube_nl *nl, const char *name, int nkv,
		     char *const *kv, unsigned int flags,
		     struct vcube_nl_net *net);
/*
 * A network's graph (topology=graph): its routers, the router each node
 * hangs off, and the links between routers, each a pair of routers.
 */
struct vcube_nl_graph {
	unsigned int routers;		/* 1 .. 2048 */
	unsigned int nodes;		/* 2 .. 4096 */
	unsigned int nlinks;		/* 0 .. 32768 */
	const uint16_t *node_router;	/* [nodes] */
	const uint16_t *links;		/* [2 * nlinks] */
	/*
	 * NULL, or each channel's own latency (ns) and ps a byte, 0 for the
	 * profile's: [4 * (nodes + nlinks)], channels in vcube's order (node
	 * n to its router, its router to n, link i a to b, b to a)
	 */
	const uint32_t *costs;
	/*
	 * routes given (0, NULL: none): forwarding-table entries over the
	 * shortest paths, [3 * nroutes] u16s: router, destination router,
	 * the neighbour it goes to; at most 65536
	 */
	unsigned int nroutes;
	const uint16_t *routes;
};
/* vcube_nl_net_new() with @graph's routers, nodes and links (NULL: none). */
int vcube_nl_net_new_graph(struct vcube_nl *nl, const char *name, int nkv,
			   char *const *kv, unsigned int flags,
			   const struct vcube_nl_graph *graph,
			   struct vcube_nl_net *net);
/* Delete network @name: its nodes' calls fail with -ENODEV from then on. */
int vcube_nl_net_del(struct vcube_nl *nl, const char *name);
/* The networks of the namespace (only @name's if not NULL); free(*out). */
int vcube_nl_net_dump(struct vcube_nl *nl, const char *name,
		      struct vcube_nl_net **out, size_t *n);
void vcube_nl_close(struct vcube_nl *nl);
int vcube_nl_topo_get(struct vcube_nl *nl, struct vcube_nl_topo *topo);
/* Every link (every node); free(*out). @parts (may be NULL): messages. */
int vcube_nl_link_dump(struct vcube_nl *nl, struct vcube_nl_link **out,
		       size_t *n, unsigned int *parts);
int vcube_nl_node_dump(struct vcube_nl *nl, struct vcube_nl_node **out,
		       size_t *n, unsigned int *parts);
/* Needs CAP_NET_ADMIN: -EPERM otherwise. */
int vcube_nl_stats_reset(struct vcube_nl *nl);
int vcube_nl_cnet_get(struct vcube_nl *nl, struct vcube_nl_cnet *cnet);
/* The windows with a channel taken, in order; free(*out). */
int vcube_nl_window_dump(struct vcube_nl *nl, struct vcube_nl_window **out,
			 size_t *n, unsigned int *parts);
/*
 * The trace, oldest first; free(*out). A dump the counters moved under is
 * asked for again (each dump here): -EAGAIN only after 8 such in a row.
 */
/* Switch the trace on or off (needs CAP_NET_ADMIN): 0 or -errno. */
int vcube_nl_trace_set(struct vcube_nl *nl, bool on);
int vcube_nl_trace_dump(struct vcube_nl *nl, struct vcube_trace_rec **out,
			size_t *n, unsigned int *parts);
/*
 * The seq the next trace record will have: read before a run, it tells
 * the run's records (seq at least it) from those of earlier runs.
 */
int vcube_nl_trace_seq(struct vcube_nl *nl, uint64_t *seq);
/*
 * The last deadlock since the last reset, one entry per node it left
 * waiting (none: none since); free(*out). Needs CAP_NET_ADMIN.
 */
int vcube_nl_deadlock_dump(struct vcube_nl *nl, struct vcube_nl_deadlock **out,
			   size_t *n, unsigned int *parts);
/* An announcement of the monitor group (enum vcube_notice). */
struct vcube_nl_notice {
	unsigned int kind;
	uint64_t time;		/* virtual ns it happened */
	unsigned int window;	/* VCUBE_NOTICE_PEAK: the window's number, */
	unsigned int peak;	/* the transfers on one channel at once, */
	unsigned int channel;	/* and that channel (link-get's id) */
	unsigned int waiting;	/* VCUBE_NOTICE_DEADLOCK: nodes left waiting */
};
/*
 * Join the monitor group: from then on vcube_nl_notice_recv() returns the
 * module's announcements, in order.
 */
int vcube_nl_monitor(struct vcube_nl *nl);
/*
 * The next announcement, waiting up to @timeout_ms (-1: for ever): 1 with
 * @nt filled, 0 if none came in time, -ENOBUFS if the socket overflowed
 * (some were lost; the next call goes on), else -errno.
 */
int vcube_nl_notice_recv(struct vcube_nl *nl, struct vcube_nl_notice *nt,
			 int timeout_ms);
/* The kernel's extended-ack text for the last error, or "". */
const char *vcube_nl_errmsg(const struct vcube_nl *nl);
const char *vcube_switching_name(unsigned int switching);
const char *vcube_node_state_name(unsigned int state);

/*
 * Communicators: the processes one vcube-run started, rank r bound to node
 * r, or to the r-th node of vcube-run --nodes (VCUBE_NODES,
 * vcube_env_node()). Collective operations are called by every rank of the
 * communicator. Their messages use tags from 0x40000000 up; keep yours
 * below.
 */
struct vcube_comm;

/* Under vcube-run: bind to VCUBE_RANK's node, of VCUBE_SIZE ranks. */
int vcube_comm_open(struct vcube_comm **commp);
/* Over an open node (not closed by vcube_comm_close()). */
int vcube_comm_create(struct vcube_node *node, unsigned int rank,
		      unsigned int size, struct vcube_comm **commp);
int vcube_comm_close(struct vcube_comm *comm);
unsigned int vcube_comm_rank(const struct vcube_comm *comm);
unsigned int vcube_comm_size(const struct vcube_comm *comm);
struct vcube_node *vcube_comm_node(const struct vcube_comm *comm);
const struct vcube_node_info *vcube_comm_info(const struct vcube_comm *comm);
int vcube_comm_clock(struct vcube_comm *comm, uint64_t *ns);
/* 1 if the network has a control network (the CM-5's), else 0. */
int vcube_comm_cnet(const struct vcube_comm *comm);
/*
 * This rank begins a phase named @label (vcube_node_mark()): the trace's
 * timelines show it. -EOPNOTSUPP where the transport has no trace.
 */
int vcube_comm_mark(struct vcube_comm *comm, const char *label);
/*
 * With @on, every plan this rank runs marks each of its steps, "<name>
 * step <k>" (k from 1; "<name> post" for a posted plan's receives), so a
 * timeline shows the algorithm's steps. Off by default: each mark is a
 * call into the kernel and a trace record.
 */
int vcube_comm_mark_steps(struct vcube_comm *comm, bool on);
/* A dissemination barrier of zero-byte messages (any size). */
int vcube_comm_barrier(struct vcube_comm *comm);

/*
 * Message costs as Seidel & Davis measured them (Table I), timed by ranks
 * 0 and 1 (neighbours on every topology, unless vcube-run --nodes put
 * them apart) in virtual time: b_s, a null
 * message's latency; s, until a null send returns; b_l, the long
 * protocol's latency; a_ps, ps per byte. Collective; the communicator
 * keeps them for "rds".
 */
struct vcube_costs {
	uint64_t b_s;
	uint64_t s;
	uint64_t b_l;
	uint64_t a_ps;
};

int vcube_costs_measure(struct vcube_comm *comm, struct vcube_costs *out);
/*
 * Seidel & Davis Table III: the smallest m for which RDS before a shift
 * with the long protocol pays on a d-cube, (2 d b_s - b_l / 2) / a.
 */
uint64_t vcube_costs_rds_min_len(const struct vcube_costs *k, unsigned int d);

/*
 * Every algorithm the library runs is listed in one registry, by kind:
 * vcube_algo_get(0 .. vcube_algo_count() - 1), or `vcube-bench --list`.
 * Names are unique within a kind ("tree" is a barrier, a broadcast and a
 * reduction). needs: VCUBE_ALGO_POW2 (a power of two of ranks),
 * VCUBE_ALGO_GRID (a 2-D mesh or torus made with rows= and cols=, not
 * dims=, of exactly that many nodes),
 * VCUBE_ALGO_FORCED (FORCED messages after a global synchronisation),
 * VCUBE_ALGO_CNET (runs on the control network: networks that have one),
 * VCUBE_ALGO_COSTS (uses the message costs; vcube_costs_measure() runs
 * first if the communicator has none).
 */
enum vcube_algo_kind {
	VCUBE_ALGO_XCHG,	/* complete exchange: vcube_xchg_run() */
	VCUBE_ALGO_IRREGULAR,	/* irregular schedule: vcube_sched_build() */
	VCUBE_ALGO_SYNC,	/* barrier: vcube_sync_run() */
	VCUBE_ALGO_BCAST,	/* vcube_bcast_run() */
	VCUBE_ALGO_REDUCE,	/* vcube_reduce_run() */
	VCUBE_ALGO_SCAN,	/* vcube_scan_run() */
	VCUBE_ALGO_KERNEL,	/* vcube_kernel_run() */
	VCUBE_ALGO_SHIFT,	/* vcube_shift_run() */
	VCUBE_ALGO_NKINDS
};

#define VCUBE_ALGO_POW2		(1U << 0)
#define VCUBE_ALGO_GRID		(1U << 1)
#define VCUBE_ALGO_FORCED	(1U << 2)
#define VCUBE_ALGO_CNET		(1U << 3)
#define VCUBE_ALGO_COSTS	(1U << 4)

struct vcube_algo {
	const char *name;
	const char *source;	/* the paper */
	const char *summary;
	unsigned int kind;	/* enum vcube_algo_kind */
	unsigned int needs;	/* VCUBE_ALGO_* */
};

size_t vcube_algo_count(void);
const struct vcube_algo *vcube_algo_get(size_t i);
/* "xchg", "irregular", "sync", ...; NULL for no such kind. */
const char *vcube_algo_kind_name(unsigned int kind);
/* 0 and *algo (may be NULL), -EINVAL or -ENOENT (no such algorithm). */
int vcube_algo_find(unsigned int kind, const char *name,
		    const struct vcube_algo **algo);
/*
 * 0, -ENOENT (no such algorithm) or -EDOM (not on this many ranks or this
 * network); -EINVAL without a communicator or name.
 */
int vcube_algo_usable(const struct vcube_comm *comm, unsigned int kind,
		      const char *name);

/*
 * Global synchronisation (barriers, VCUBE_ALGO_SYNC): "gsync", "sync0",
 * "rds" (Seidel & Davis 1992; a power of two of ranks), "dissemination",
 * "tree" (any size) and "cm5_control" (the control network's barrier;
 * networks that have one).
 */
int vcube_sync_run(struct vcube_comm *comm, const char *name);

/*
 * Complete exchange (all-to-all personalized): @sbuf holds size blocks of
 * @len bytes, block j for rank j; rank i's block for this rank lands at
 * @rbuf + i * len. The algorithms are the registry's VCUBE_ALGO_XCHG;
 * see docs/algorithms.md.
 */
struct vcube_xchg_opts {
	/* stable's idle step; 0: as long as this rank's previous send took */
	uint64_t idle_ns;
};

int vcube_xchg_run(struct vcube_comm *comm, const char *name,
		   const void *sbuf, void *rbuf, size_t len,
		   const struct vcube_xchg_opts *opts);

/*
 * Collectives, called by every rank. Reductions combine count elements of
 * a type (VCUBE_TYPE_*: u64, double, s32) by an operator (VCUBE_OP_*: sum,
 * max, min; and, or, xor on integers) elementwise and leave the result at
 * every rank: "crossover" (lg p phases, rank + 2^k; p a power of two),
 * "tree" (binary tree to rank 0, then a broadcast) or "cm5_control" (the
 * control network; every rank gets the same bits, folded in rank order).
 * The scan is inclusive: "doubling" (Hillis & Steele, lg p phases) or
 * "cm5_control". Broadcast: "tree" (binomial) or "cm5_control". A NULL
 * scan or broadcast algorithm is the data network's. Shift moves a block k places along the
 * ring the binary reflected Gray code embeds in a hypercube.
 */
int vcube_bcast_run(struct vcube_comm *comm, const char *algo,
		    unsigned int root, void *buf, size_t len);
int vcube_reduce_run(struct vcube_comm *comm, const char *algo,
		     unsigned int op, unsigned int type, const void *in,
		     void *out, size_t count);
int vcube_scan_run(struct vcube_comm *comm, const char *algo, unsigned int op,
		   unsigned int type, const void *in, void *out, size_t count);
unsigned int vcube_gray_encode(unsigned int i);
unsigned int vcube_gray_decode(unsigned int g);
int vcube_shift_run(struct vcube_comm *comm, int k, const void *sbuf,
		    void *rbuf, size_t len);
/* Chuang & Horie's kernels: "butterfly", "crossover" or "torus". */
int vcube_kernel_run(struct vcube_comm *comm, const char *kind, void *buf,
		     size_t len, unsigned int *phases);

/*
 * Irregular communication (Ponnusamy et al., sec. 5). A pattern is an n x n
 * matrix of bytes (row: sender). A schedule is built once from a pattern by
 * "ls", "ps", "bs" or "gs" (linear, pairwise, balanced, greedy) and run as
 * often as needed: sbuf holds this rank's blocks for ranks 0..n-1 in order
 * (pattern(me, j) bytes each), rbuf receives those from ranks 0..n-1.
 */
struct vcube_pattern;
struct vcube_sched;

int vcube_pattern_create(unsigned int n, struct vcube_pattern **patp);
void vcube_pattern_free(struct vcube_pattern *pat);
unsigned int vcube_pattern_size(const struct vcube_pattern *pat);
int vcube_pattern_set(struct vcube_pattern *pat, unsigned int src,
		      unsigned int dst, uint32_t bytes);
uint32_t vcube_pattern_get(const struct vcube_pattern *pat, unsigned int src,
			   unsigned int dst);
/* round(density * cells) non-zero entries of @bytes, seeded. */
int vcube_pattern_random(struct vcube_pattern *pat, double density,
			 uint32_t bytes, int symmetric, uint64_t seed);
int vcube_pattern_complete(struct vcube_pattern *pat, uint32_t bytes);

int vcube_sched_build(const struct vcube_pattern *pat, const char *algo,
		      struct vcube_sched **schedp);
void vcube_sched_free(struct vcube_sched *sched);
unsigned int vcube_sched_steps(const struct vcube_sched *sched);
int vcube_sched_msg(const struct vcube_sched *sched, size_t k,
		    unsigned int *step, unsigned int *src, unsigned int *dst);
int vcube_sched_run(struct vcube_comm *comm, const struct vcube_sched *sched,
		    const struct vcube_pattern *pat, const void *sbuf,
		    void *rbuf);

/*
 * The 2-D FFT of Ponnusamy et al.: an n x n complex array (interleaved
 * re, im doubles), n a power of two, n / size rows per rank. Row FFTs, a
 * transpose by the complete exchange opts->xchg (default "pex"), row FFTs:
 * rank r ends with columns r n/size .. of the transform, as rows. flop_ns
 * > 0 charges 5 n lg n flops per row FFT to the virtual clock.
 */
struct vcube_fft_opts {
	const char *xchg;
	double flop_ns;
};

/* In place, one node: sign -1 forward, +1 inverse (unscaled). */
int vcube_fft_1d(double *x, unsigned int n, int sign);
int vcube_fft2d_run(struct vcube_comm *comm, unsigned int n, double *rows,
		    const struct vcube_fft_opts *opts);

/*
 * Gaussian elimination with partial pivoting (Ponnusamy et al. sec. 6.2):
 * an n x (n + 1) augmented matrix [A | b], n a multiple of the ranks, row
 * i at rank i mod size: @rows holds this rank's n / size rows in order,
 * n + 1 doubles each, and is overwritten. Every rank gets the solution of
 * A x = b in @x (n doubles). Per iteration: a reduction of doubles and one
 * of ints (opts->reduce; default "cm5_control" where the network has a
 * control network, else "tree"), a broadcast of the pivot row
 * (opts->bcast, likewise) and (n / size)(n + 1) element updates charged
 * elem_ns each. @t (may be NULL): this rank's virtual ns in each part,
 * summed over the n iterations. -ERANGE: the matrix is singular.
 */
struct vcube_ge_opts {
	const char *reduce;
	const char *bcast;
	double elem_ns;
};

struct vcube_ge_times {
	uint64_t reduce_double;
	uint64_t reduce_int;
	uint64_t bcast;
	uint64_t compute;
	uint64_t total;
};

int vcube_ge_run(struct vcube_comm *comm, unsigned int n, double *rows,
		 double *x, const struct vcube_ge_opts *opts,
		 struct vcube_ge_times *t);

const char *vcube_topology_name(unsigned int topology);
const char *vcube_dir_name(unsigned int topology, unsigned int dir);

#ifdef __cplusplus
}
#endif

#endif /* VCUBE_H */
