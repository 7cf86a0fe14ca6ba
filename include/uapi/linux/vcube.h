/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * vcube: a virtual interconnect. One character device per virtual node,
 * /dev/vcube0 .. /dev/vcube<N-1>; opening one binds the caller to that node.
 *
 * Rules of this ABI: fixed-size structures of __u32/__u64 only, explicit
 * padding that must be zero, user pointers as __u64, unknown flags rejected
 * with -EINVAL, unknown commands with -ENOTTY.
 */
#ifndef _UAPI_LINUX_VCUBE_H
#define _UAPI_LINUX_VCUBE_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define VCUBE_IOC_MAGIC		0xBC

/* ---- generic netlink: generated from Documentation/netlink/specs/vcube.yaml */
/* by scripts/ynl-gen.sh (the kernel's ynl-gen-c.py): do not edit by hand */
#define VCUBE_FAMILY_NAME	"vcube"
#define VCUBE_FAMILY_VERSION	1

/**
 * enum vcube_topology - The network's shape and routing.
 * @VCUBE_TOPOLOGY_HYPERCUBE: Binary n-cube, e-cube routing (iPSC/860).
 * @VCUBE_TOPOLOGY_MESH: Mesh of 1 to 6 dimensions, dimension-order routing
 *   (2-D: XY, the Touchstone Delta).
 * @VCUBE_TOPOLOGY_TORUS: Torus of 1 to 6 dimensions: by rows and cols, +x then
 *   south (the AP1000); by dims, dimension order the shorter way round.
 * @VCUBE_TOPOLOGY_FATTREE: Fat tree: the CM-5 data network's 4-ary one
 *   (nodes), or SimGrid's generalized one (levels, down, up, links).
 * @VCUBE_TOPOLOGY_DRAGONFLY: Dragonfly: groups of routers all-to-all by local
 *   links, nodes on routers (level 1 vertices), global links between groups in
 *   the absolute arrangement; minimal, Valiant or UGAL-L routing.
 * @VCUBE_TOPOLOGY_GRAPH: Any graph of routers (level 1 vertices), nodes on
 *   them, links between them (parallel ones allowed), read from a file by
 *   userspace and given by graph-routers, graph-nodes and graph-links;
 *   shortest-path routing, among equal paths the lowest-numbered link out of
 *   each router.
 */
enum vcube_topology {
	VCUBE_TOPOLOGY_HYPERCUBE,
	VCUBE_TOPOLOGY_MESH,
	VCUBE_TOPOLOGY_TORUS,
	VCUBE_TOPOLOGY_FATTREE,
	VCUBE_TOPOLOGY_DRAGONFLY,
	VCUBE_TOPOLOGY_GRAPH,
};

/**
 * enum vcube_switching - How a message holds the channels of its route.
 */
enum vcube_switching {
	VCUBE_SWITCHING_CIRCUIT,
	VCUBE_SWITCHING_WORMHOLE,
	VCUBE_SWITCHING_PACKET,
};

/**
 * enum vcube_node_state - Where a node is.
 * @VCUBE_NODE_STATE_UNBOUND: No process has its device open.
 * @VCUBE_NODE_STATE_RUNNING: Bound, and may issue operations at its virtual
 *   clock.
 * @VCUBE_NODE_STATE_BLOCKED: Bound, and waiting for a request to complete.
 */
enum vcube_node_state {
	VCUBE_NODE_STATE_UNBOUND,
	VCUBE_NODE_STATE_RUNNING,
	VCUBE_NODE_STATE_BLOCKED,
};

/**
 * enum vcube_trace_kind - What a trace record says.
 * @VCUBE_TRACE_KIND_PROBE: A channel carried the long protocol's PROBE.
 * @VCUBE_TRACE_KIND_REQUEST: A channel carried the long protocol's REQUEST,
 *   back from the receiver.
 * @VCUBE_TRACE_KIND_DATA: A channel carried the message itself.
 * @VCUBE_TRACE_KIND_MSG: One message, when it was delivered: posted (start),
 *   path acquired, body flowing, delivered (end), its protocol and its longest
 *   wait.
 * @VCUBE_TRACE_KIND_WAIT: A node blocked (or busy) from start to end, and why
 *   (cause).
 * @VCUBE_TRACE_KIND_MARK: A node began a phase it named (label), at start.
 */
enum vcube_trace_kind {
	VCUBE_TRACE_KIND_PROBE,
	VCUBE_TRACE_KIND_REQUEST,
	VCUBE_TRACE_KIND_DATA,
	VCUBE_TRACE_KIND_MSG,
	VCUBE_TRACE_KIND_WAIT,
	VCUBE_TRACE_KIND_MARK,
};

/**
 * enum vcube_trace_proto - How a message went (msg records).
 * @VCUBE_TRACE_PROTO_SHORT: UNFORCED, short enough to go at once.
 * @VCUBE_TRACE_PROTO_LONG: UNFORCED long, after a PROBE and a REQUEST.
 * @VCUBE_TRACE_PROTO_FORCED: FORCED, at once; lost if no receive was posted.
 */
enum vcube_trace_proto {
	VCUBE_TRACE_PROTO_SHORT,
	VCUBE_TRACE_PROTO_LONG,
	VCUBE_TRACE_PROTO_FORCED,
};

/**
 * enum vcube_trace_cause - Why a node waited (wait records), or a message's
 *   longest wait (msg).
 * @VCUBE_TRACE_CAUSE_TRANSIT: The message was on its way, held up by nothing.
 * @VCUBE_TRACE_CAUSE_NOSEND: The message waited for had not been sent.
 * @VCUBE_TRACE_CAUSE_CHAN: A channel on its route was held by another message
 *   (holder).
 * @VCUBE_TRACE_CAUSE_PORT: A send or receive port was busy with another
 *   message (holder).
 * @VCUBE_TRACE_CAUSE_DUPLEX: A receive and a transmit at one node were
 *   serialised (the iPSC/860's rule; holder went the other way).
 * @VCUBE_TRACE_CAUSE_RECV: The message waited for its receive, or buffer room,
 *   at its receiver.
 * @VCUBE_TRACE_CAUSE_CNET: The other members of a control-network operation.
 * @VCUBE_TRACE_CAUSE_COMPUTE: The node's own work (bytes is the ns asked; the
 *   rest is noise).
 * @VCUBE_TRACE_CAUSE_COPY: A copy in the node's memory (bytes is the ns
 *   asked).
 * @VCUBE_TRACE_CAUSE_JITTER: Start jitter (bytes is the ns drawn).
 */
enum vcube_trace_cause {
	VCUBE_TRACE_CAUSE_TRANSIT,
	VCUBE_TRACE_CAUSE_NOSEND,
	VCUBE_TRACE_CAUSE_CHAN,
	VCUBE_TRACE_CAUSE_PORT,
	VCUBE_TRACE_CAUSE_DUPLEX,
	VCUBE_TRACE_CAUSE_RECV,
	VCUBE_TRACE_CAUSE_CNET,
	VCUBE_TRACE_CAUSE_COMPUTE,
	VCUBE_TRACE_CAUSE_COPY,
	VCUBE_TRACE_CAUSE_JITTER,
};

/**
 * enum vcube_wait_kind - What a node of a deadlock waited for.
 * @VCUBE_WAIT_KIND_RECV: A receive.
 * @VCUBE_WAIT_KIND_SEND: Its send (the long protocol's handshake, or a full
 *   buffer).
 * @VCUBE_WAIT_KIND_CNET: A control-network operation.
 */
enum vcube_wait_kind {
	VCUBE_WAIT_KIND_RECV,
	VCUBE_WAIT_KIND_SEND,
	VCUBE_WAIT_KIND_CNET,
};

/**
 * enum vcube_notice - What the monitor group announces.
 * @VCUBE_NOTICE_PEAK: A window whose peak channel sharing rose past that of
 *   every window before it since the last reset (window-ns must be set).
 * @VCUBE_NOTICE_DEADLOCK: Every bound node waits and nothing is in flight.
 */
enum vcube_notice {
	VCUBE_NOTICE_PEAK,
	VCUBE_NOTICE_DEADLOCK,
};

enum {
	VCUBE_A_TOPO_PAD = 1,
	VCUBE_A_TOPO_KIND,
	VCUBE_A_TOPO_SHAPE,
	VCUBE_A_TOPO_PROFILE,
	VCUBE_A_TOPO_SWITCHING,
	VCUBE_A_TOPO_NODES,
	VCUBE_A_TOPO_CHANNELS,
	VCUBE_A_TOPO_LINKS,
	VCUBE_A_TOPO_DIAMETER,
	VCUBE_A_TOPO_NOW,
	VCUBE_A_TOPO_ELAPSED,
	VCUBE_A_TOPO_MESSAGES,
	VCUBE_A_TOPO_TRANSFERS,
	VCUBE_A_TOPO_WAITS,
	VCUBE_A_TOPO_WAIT_NS,
	VCUBE_A_TOPO_DEADLOCKS,
	VCUBE_A_TOPO_PORT_WAITS,
	VCUBE_A_TOPO_DUPLEX_WAITS,
	VCUBE_A_TOPO_EVENTS,
	VCUBE_A_TOPO_LEASES,
	VCUBE_A_TOPO_TRACE_MAX,
	VCUBE_A_TOPO_TRACE_ON,
	VCUBE_A_TOPO_NET_ID,
	VCUBE_A_TOPO_TRACE_SEQ,

	__VCUBE_A_TOPO_MAX,
	VCUBE_A_TOPO_MAX = (__VCUBE_A_TOPO_MAX - 1)
};

enum {
	VCUBE_A_LINK_PAD = 1,
	VCUBE_A_LINK_ID,
	VCUBE_A_LINK_FROM,
	VCUBE_A_LINK_TO,
	VCUBE_A_LINK_FROM_LEVEL,
	VCUBE_A_LINK_TO_LEVEL,
	VCUBE_A_LINK_DIR,
	VCUBE_A_LINK_LANE,
	VCUBE_A_LINK_WIDTH,
	VCUBE_A_LINK_MESSAGES,
	VCUBE_A_LINK_BYTES,
	VCUBE_A_LINK_TRANSFERS,
	VCUBE_A_LINK_BUSY_NS,
	VCUBE_A_LINK_WAITS,
	VCUBE_A_LINK_WAIT_NS,
	VCUBE_A_LINK_PEAK,
	VCUBE_A_LINK_NET_ID,

	__VCUBE_A_LINK_MAX,
	VCUBE_A_LINK_MAX = (__VCUBE_A_LINK_MAX - 1)
};

enum {
	VCUBE_A_NODE_PAD = 1,
	VCUBE_A_NODE_ID,
	VCUBE_A_NODE_STATE,
	VCUBE_A_NODE_PID,
	VCUBE_A_NODE_CLOCK,
	VCUBE_A_NODE_SENT,
	VCUBE_A_NODE_RECEIVED,
	VCUBE_A_NODE_FORCED_DROPPED,
	VCUBE_A_NODE_BUFFERED,
	VCUBE_A_NODE_DISCARDED,
	VCUBE_A_NODE_SYSBUF_PEAK,
	VCUBE_A_NODE_NET_ID,

	__VCUBE_A_NODE_MAX,
	VCUBE_A_NODE_MAX = (__VCUBE_A_NODE_MAX - 1)
};

enum {
	VCUBE_A_CNET_PAD = 1,
	VCUBE_A_CNET_PRESENT,
	VCUBE_A_CNET_WORD_NS,
	VCUBE_A_CNET_DOUBLE_NS,
	VCUBE_A_CNET_BCAST_NS,
	VCUBE_A_CNET_BARRIERS,
	VCUBE_A_CNET_REDUCTIONS,
	VCUBE_A_CNET_SCANS,
	VCUBE_A_CNET_BROADCASTS,
	VCUBE_A_CNET_BYTES,
	VCUBE_A_CNET_BUSY_NS,
	VCUBE_A_CNET_WAIT_NS,
	VCUBE_A_CNET_NET_ID,

	__VCUBE_A_CNET_MAX,
	VCUBE_A_CNET_MAX = (__VCUBE_A_CNET_MAX - 1)
};

enum {
	VCUBE_A_WINDOW_INDEX = 1,
	VCUBE_A_WINDOW_PEAK,
	VCUBE_A_WINDOW_NET_ID,

	__VCUBE_A_WINDOW_MAX,
	VCUBE_A_WINDOW_MAX = (__VCUBE_A_WINDOW_MAX - 1)
};

enum {
	VCUBE_A_TRACE_PAD = 1,
	VCUBE_A_TRACE_SEQ,
	VCUBE_A_TRACE_START,
	VCUBE_A_TRACE_END,
	VCUBE_A_TRACE_BYTES,
	VCUBE_A_TRACE_SRC,
	VCUBE_A_TRACE_DST,
	VCUBE_A_TRACE_TAG,
	VCUBE_A_TRACE_CHANNEL,
	VCUBE_A_TRACE_HOP,
	VCUBE_A_TRACE_KIND,
	VCUBE_A_TRACE_MSG,
	VCUBE_A_TRACE_ACQUIRED,
	VCUBE_A_TRACE_FLOW,
	VCUBE_A_TRACE_PROTO,
	VCUBE_A_TRACE_CAUSE,
	VCUBE_A_TRACE_HOLDER,
	VCUBE_A_TRACE_LABEL,
	VCUBE_A_TRACE_NET_ID,

	__VCUBE_A_TRACE_MAX,
	VCUBE_A_TRACE_MAX = (__VCUBE_A_TRACE_MAX - 1)
};

enum {
	VCUBE_A_DEADLOCK_PAD = 1,
	VCUBE_A_DEADLOCK_TIME,
	VCUBE_A_DEADLOCK_NODE,
	VCUBE_A_DEADLOCK_CLOCK,
	VCUBE_A_DEADLOCK_KIND,
	VCUBE_A_DEADLOCK_PEER,
	VCUBE_A_DEADLOCK_TAG,
	VCUBE_A_DEADLOCK_FIRST,
	VCUBE_A_DEADLOCK_NODES,
	VCUBE_A_DEADLOCK_ENTERED,
	VCUBE_A_DEADLOCK_NET_ID,

	__VCUBE_A_DEADLOCK_MAX,
	VCUBE_A_DEADLOCK_MAX = (__VCUBE_A_DEADLOCK_MAX - 1)
};

enum {
	VCUBE_A_NOTICE_PAD = 1,
	VCUBE_A_NOTICE_KIND,
	VCUBE_A_NOTICE_TIME,
	VCUBE_A_NOTICE_WINDOW,
	VCUBE_A_NOTICE_PEAK,
	VCUBE_A_NOTICE_CHANNEL,
	VCUBE_A_NOTICE_WAITING,
	VCUBE_A_NOTICE_NET_ID,

	__VCUBE_A_NOTICE_MAX,
	VCUBE_A_NOTICE_MAX = (__VCUBE_A_NOTICE_MAX - 1)
};

enum {
	VCUBE_A_NET_PAD = 1,
	VCUBE_A_NET_ID,
	VCUBE_A_NET_NAME,
	VCUBE_A_NET_DESTROY_ON_CLOSE,
	VCUBE_A_NET_DEFAULT,
	VCUBE_A_NET_TOPOLOGY,
	VCUBE_A_NET_DIM,
	VCUBE_A_NET_ROWS,
	VCUBE_A_NET_COLS,
	VCUBE_A_NET_NODES,
	VCUBE_A_NET_PROFILE,
	VCUBE_A_NET_SEED,
	VCUBE_A_NET_MODE,
	VCUBE_A_NET_MAX_MSG,
	VCUBE_A_NET_MAX_REQS,
	VCUBE_A_NET_MAX_INFLIGHT,
	VCUBE_A_NET_MAX_INFLIGHT_NODE,
	VCUBE_A_NET_IDLE_LEASE_MS,
	VCUBE_A_NET_TRACE,
	VCUBE_A_NET_NOISE,
	VCUBE_A_NET_JITTER_DIST,
	VCUBE_A_NET_SWITCHING,
	VCUBE_A_NET_ARBITRATION,
	VCUBE_A_NET_SHORT_BASE_NS,
	VCUBE_A_NET_SHORT_BYTE_NS,
	VCUBE_A_NET_SHORT_HOP_NS,
	VCUBE_A_NET_CTL_BASE_NS,
	VCUBE_A_NET_CTL_HOP_NS,
	VCUBE_A_NET_LONG_BASE_NS,
	VCUBE_A_NET_LONG_BYTE_NS,
	VCUBE_A_NET_LONG_HOP_NS,
	VCUBE_A_NET_TAIL_NS,
	VCUBE_A_NET_SHORT_MAX,
	VCUBE_A_NET_EJECT,
	VCUBE_A_NET_SYSBUF,
	VCUBE_A_NET_LANES,
	VCUBE_A_NET_GAMMA,
	VCUBE_A_NET_PACKET_PAYLOAD,
	VCUBE_A_NET_PARTIAL_NS,
	VCUBE_A_NET_WINDOW_NS,
	VCUBE_A_NET_SEND_PORT_EARLY,
	VCUBE_A_NET_COPY_BYTE_PS,
	VCUBE_A_NET_DUPLEX_NS,
	VCUBE_A_NET_RECV_NS,
	VCUBE_A_NET_FC_BUFS,
	VCUBE_A_NET_NOISE_PERIOD_NS,
	VCUBE_A_NET_NOISE_COST_NS,
	VCUBE_A_NET_JITTER_NS,
	VCUBE_A_NET_CNET_WORD_NS,
	VCUBE_A_NET_CNET_DOUBLE_NS,
	VCUBE_A_NET_CNET_BCAST_NS,
	VCUBE_A_NET_SHAPE,
	VCUBE_A_NET_CHANNELS,
	VCUBE_A_NET_BOUND,
	VCUBE_A_NET_DIMS,
	VCUBE_A_NET_LEVELS,
	VCUBE_A_NET_DOWN,
	VCUBE_A_NET_UP,
	VCUBE_A_NET_LINKS,
	VCUBE_A_NET_ROUTING,
	VCUBE_A_NET_GROUPS,
	VCUBE_A_NET_ROUTERS,
	VCUBE_A_NET_GLOBAL,
	VCUBE_A_NET_GRAPH_ROUTERS,
	VCUBE_A_NET_GRAPH_NODES,
	VCUBE_A_NET_GRAPH_LINKS,
	VCUBE_A_NET_SHORT_BYTE_PS,
	VCUBE_A_NET_LONG_BYTE_PS,
	VCUBE_A_NET_INJECT_BYTE_PS,
	VCUBE_A_NET_EJECT_BYTE_PS,
	VCUBE_A_NET_GRAPH_COSTS,
	VCUBE_A_NET_GRAPH_ROUTES,
	VCUBE_A_NET_CHANNEL_EARLY,

	__VCUBE_A_NET_MAX,
	VCUBE_A_NET_MAX = (__VCUBE_A_NET_MAX - 1)
};

enum {
	VCUBE_CMD_TOPO_GET = 1,
	VCUBE_CMD_LINK_GET,
	VCUBE_CMD_NODE_GET,
	VCUBE_CMD_STATS_RESET,
	VCUBE_CMD_CNET_GET,
	VCUBE_CMD_WINDOW_GET,
	VCUBE_CMD_TRACE_GET,
	VCUBE_CMD_PEAK_NTF,
	VCUBE_CMD_DEADLOCK_NTF,
	VCUBE_CMD_DEADLOCK_GET,
	VCUBE_CMD_TRACE_SET,
	VCUBE_CMD_NET_NEW,
	VCUBE_CMD_NET_DEL,
	VCUBE_CMD_NET_GET,
	VCUBE_CMD_NET_NEW_NTF,
	VCUBE_CMD_NET_DEL_NTF,

	__VCUBE_CMD_MAX,
	VCUBE_CMD_MAX = (__VCUBE_CMD_MAX - 1)
};

#define VCUBE_MCGRP_MONITOR	"monitor"
/* ---- end of generated part ---- */

/**
 * struct vcube_node_info - what a bound node knows of its network
 * @node: this node's number
 * @nodes: nodes in the network
 * @topology: enum vcube_topology
 * @dim: hypercube dimension, else 0
 * @rows: mesh or torus rows, else 0 (also for one made with dims=, whose
 *	sizes are in its shape: netlink topo-get, sysfs shape)
 * @cols: mesh or torus columns, else 0
 * @channels: directed channels (two per physical link)
 * @diameter: longest route, in channels
 * @seed: the network's random seed
 */
struct vcube_node_info {
	__u32 node;
	__u32 nodes;
	__u32 topology;
	__u32 dim;
	__u32 rows;
	__u32 cols;
	__u32 channels;
	__u32 diameter;
	__u64 seed;
};

/**
 * struct vcube_hop - one channel of a route
 * @channel: channel id, 0 .. channels-1
 * @from: vertex the channel leaves: a node number at level 0, else the
 *	index of a fat tree switch group at @from_level
 * @to: vertex the channel enters, at @to_level
 * @from_level: 0 for processing nodes; fat tree levels count up to the root
 * @to_level: see @from_level
 * @lane: fat tree: the link's index within its bundle; else 0
 * @dir: hypercube: dimension crossed; mesh/torus: 2 * dimension, + 1 the
 *	- way (enum vcube_dir in 2-D); fat tree: 0 up, 1 down
 * @pad: zero
 */
struct vcube_hop {
	__u32 channel;
	__u32 from;
	__u32 to;
	__u32 from_level;
	__u32 to_level;
	__u32 lane;
	__u32 dir;
	__u32 pad;
};

enum vcube_dir {
	VCUBE_DIR_EAST = 0,	/* column + 1 */
	VCUBE_DIR_WEST = 1,	/* column - 1 */
	VCUBE_DIR_SOUTH = 2,	/* row + 1 (row 0 is the top) */
	VCUBE_DIR_NORTH = 3,	/* row - 1 */
};

/**
 * struct vcube_route - the route from the bound node to @dst
 * @dst: destination node
 * @max_hops: room at @hops, in struct vcube_hop
 * @cookie: per-message value that, with the network's seed, fixes the
 *	fat tree's random up-routing; ignored by the other topologies
 * @hops: user pointer to @max_hops struct vcube_hop
 * @nhops: out: the route's length in channels (also when it did not fit,
 *	in which case the call fails with -EMSGSIZE)
 * @flags: must be 0
 */
struct vcube_route {
	__u32 dst;
	__u32 max_hops;
	__u64 cookie;
	__u64 hops;
	__u32 nhops;
	__u32 flags;
};

#define VCUBE_ANY		0xffffffffU	/* any source, any tag */

/* struct vcube_send flags */
#define VCUBE_SEND_FORCED	(1U << 0)	/* no handshake; dropped if no receive */
#define VCUBE_SEND_NONBLOCK	(1U << 1)	/* return a request at once */
/* struct vcube_recv flags */
#define VCUBE_RECV_NONBLOCK	(1U << 1)	/* post and return a request */
/*
 * @tag names a class: any tag whose upper 16 bits (VCUBE_TAG_CLASS_MASK)
 * are @tag's, whose lower 16 bits must be 0. Matched, like every receive,
 * in posting order (an MPI library's "any tag of this communicator").
 */
#define VCUBE_RECV_TAGCLASS	(1U << 2)
#define VCUBE_TAG_CLASS_MASK	0xffff0000U
/* struct vcube_wait flags */
/*
 * done by the node's clock? The clock does not move, but the call sleeps
 * until every node has passed that instant (an idle bound node delays it)
 */
#define VCUBE_WAIT_TEST		(1U << 0)

/**
 * struct vcube_status - how a request ended
 * @req: the request (0 for a blocking call)
 * @time: virtual time (ns) at which it completed
 * @sent: virtual time (ns) at which a received message was sent
 * @len: bytes received (may exceed the buffer: see @error) or sent
 * @src: sender of a received message
 * @tag: tag of a received message
 * @error: 0, or -EMSGSIZE when a received message was truncated
 * @done: 1 when complete (VCUBE_WAIT_TEST may answer 0)
 */
struct vcube_status {
	__u64 req;
	__u64 time;
	__u64 sent;
	__u64 len;
	__u32 src;
	__u32 tag;
	__s32 error;
	__u32 done;
};

/**
 * struct vcube_send - send @len bytes at @buf to node @dst
 * @dst: destination node
 * @tag: message tag, matched by receives
 * @flags: VCUBE_SEND_*
 * @pad: zero
 * @buf: user pointer to the payload, copied at the call
 * @len: payload bytes, at most the module's max_msg
 * @st: out; st.req is the request to wait for with VCUBE_SEND_NONBLOCK
 *
 * -ENOBUFS when the node has max_reqs requests outstanding, or when this
 * message (@len bytes and the module's bookkeeping for it) would take the
 * bytes in flight (sent, not yet received) past the module's
 * max_inflight_node from this node or max_inflight in the network.
 */
struct vcube_send {
	__u32 dst;
	__u32 tag;
	__u32 flags;
	__u32 pad;
	__u64 buf;
	__u64 len;
	struct vcube_status st;
};

/**
 * struct vcube_recv - receive a message into @buf
 * @src: source node, or VCUBE_ANY
 * @tag: tag, or VCUBE_ANY
 * @flags: VCUBE_RECV_*
 * @pad: zero
 * @buf: user pointer the payload is copied to when the receive completes
 * @len: room at @buf
 * @st: out
 */
struct vcube_recv {
	__u32 src;
	__u32 tag;
	__u32 flags;
	__u32 pad;
	__u64 buf;
	__u64 len;
	struct vcube_status st;
};

/**
 * struct vcube_wait - wait for (or test) a request
 * @req: the request, from a non-blocking send or receive
 * @flags: VCUBE_WAIT_*
 * @pad: zero
 * @st: out; a completed request is gone after this call
 */
struct vcube_wait {
	__u64 req;
	__u32 flags;
	__u32 pad;
	struct vcube_status st;
};

/*
 * The control network (the CM-5's): operations in which every node of a
 * partition takes part, apart from the data network and its contention.
 * Networks without one (every profile but cm5, unless the cnet_*_ns
 * parameters give it one) answer -EOPNOTSUPP.
 */
#define VCUBE_CNET_BARRIER	0	/* all leave once all are in */
#define VCUBE_CNET_REDUCE	1	/* every member's operand, to all */
#define VCUBE_CNET_SCAN		2	/* the operands of members up to mine */
#define VCUBE_CNET_BCAST	3	/* @root's message, to all */

/* Element types and operators of reductions and scans. */
#define VCUBE_TYPE_U64		0
#define VCUBE_TYPE_DOUBLE	1
#define VCUBE_TYPE_S32		2	/* the CM-5's int */
#define VCUBE_OP_SUM		0
#define VCUBE_OP_MAX		1
#define VCUBE_OP_MIN		2
#define VCUBE_OP_BAND		3	/* bitwise and, or, xor: integers only */
#define VCUBE_OP_BOR		4
#define VCUBE_OP_BXOR		5

/**
 * struct vcube_cnet - take part in one control-network operation
 * @kind: VCUBE_CNET_*
 * @op: reduce, scan: VCUBE_OP_*; else 0. The network carries the operands
 *	and charges the operation's time; the caller folds them (libvcube
 *	does, in node order, so every member gets the same bits)
 * @type: reduce, scan: VCUBE_TYPE_*; else 0
 * @root: broadcast: the node that sends; else 0
 * @first: the partition, nodes @first .. @first + @nodes - 1, which must
 *	hold the caller; every member passes the same arguments
 * @nodes: see @first
 * @count: reduce, scan: elements per operand; broadcast: bytes; barrier: 0
 * @sbuf: user pointer: reduce, scan: this member's @count elements;
 *	broadcast: the message (read at @root only)
 * @rbuf: user pointer, filled when the operation completes: reduce: every
 *	member's operand in node order; scan: those of nodes @first .. the
 *	caller; broadcast: the message
 * @rlen: room at @rbuf, bytes; too little: -EMSGSIZE before anything
 *	happens
 * @time: out: virtual ns at which the operation completed (every member
 *	leaves then)
 * @last: out: virtual ns at which its last member entered
 * @flags: must be 0
 * @pad: zero
 *
 * Blocks until every member is in (-EDEADLK when no member can come any
 * more; -EINTR on a signal, the caller having left the operation).
 */
struct vcube_cnet {
	__u32 kind;
	__u32 op;
	__u32 type;
	__u32 root;
	__u32 first;
	__u32 nodes;
	__u64 count;
	__u64 sbuf;
	__u64 rbuf;
	__u64 rlen;
	__u64 time;
	__u64 last;
	__u32 flags;
	__u32 pad;
};

/*
 * A local copy: the node's processor copies @bytes within its own memory
 * (the shuffle of a store-and-forward exchange), and its clock moves on by
 * the network's copy_byte_ps per byte, rounded to the nearest ns (then
 * stretched by any interrupt it meets, like a busy wait). @ns must be 0 on
 * the way in; it returns the ns charged. @bytes past 2^40: -EOVERFLOW.
 */
struct vcube_copy {
	__u64 bytes;
	__u64 ns;
};

/* A mark's name: at most VCUBE_MARK_LEN - 1 characters, then a NUL. */
#define VCUBE_MARK_LEN	32

/**
 * struct vcube_mark - the node begins a phase of its own (VCUBE_IOC_MARK)
 * @label: its name, printable ASCII (0x20..0x7e), NUL-terminated; the rest
 *	of the array is ignored
 *
 * The trace gets a mark record at the node's clock, which does not move.
 * A name with no NUL or with another character: -EINVAL.
 */
struct vcube_mark {
	char label[VCUBE_MARK_LEN];
};

#define VCUBE_IOC_NODE_INFO	_IOR(VCUBE_IOC_MAGIC, 0x00, struct vcube_node_info)
#define VCUBE_IOC_ROUTE		_IOWR(VCUBE_IOC_MAGIC, 0x01, struct vcube_route)
#define VCUBE_IOC_SEND		_IOWR(VCUBE_IOC_MAGIC, 0x02, struct vcube_send)
#define VCUBE_IOC_RECV		_IOWR(VCUBE_IOC_MAGIC, 0x03, struct vcube_recv)
#define VCUBE_IOC_WAIT		_IOWR(VCUBE_IOC_MAGIC, 0x04, struct vcube_wait)
/* The node's virtual clock, ns. */
#define VCUBE_IOC_CLOCK		_IOR(VCUBE_IOC_MAGIC, 0x05, __u64)
/* Busy-wait: advance the node's clock by this many ns. */
#define VCUBE_IOC_DELAY		_IOW(VCUBE_IOC_MAGIC, 0x06, __u64)
/*
 * Start jitter: the node waits its next seeded draw (module parameters
 * jitter_ns and jitter_dist; 0 when they are off), returned in ns. Call it
 * where a trial starts: draw k of node i depends only on the seed, i and k.
 */
#define VCUBE_IOC_JITTER	_IOR(VCUBE_IOC_MAGIC, 0x07, __u64)
#define VCUBE_IOC_CNET		_IOWR(VCUBE_IOC_MAGIC, 0x08, struct vcube_cnet)
#define VCUBE_IOC_COPY		_IOWR(VCUBE_IOC_MAGIC, 0x09, struct vcube_copy)
/*
 * Cancel a receive posted with VCUBE_RECV_NONBLOCK (the request id): it
 * goes as if never posted. -EBUSY when a message has completed it (wait
 * for it as usual: nothing is lost), -EINVAL for no such request or one
 * that is not a receive. A message it let on (a handshake it answered)
 * arrives all the same, for the next receive that matches it. Every
 * message that could have matched by the node's clock has been matched
 * when a VCUBE_WAIT_TEST answered "not done", so a test and then a
 * cancel is a deterministic probe.
 */
#define VCUBE_IOC_CANCEL	_IOW(VCUBE_IOC_MAGIC, 0x0a, __u64)
#define VCUBE_IOC_MARK		_IOW(VCUBE_IOC_MAGIC, 0x0b, struct vcube_mark)

#endif /* _UAPI_LINUX_VCUBE_H */
