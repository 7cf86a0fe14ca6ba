// SPDX-License-Identifier: GPL-2.0
/*
 * vcube: the module: its parameters (the default network, and the bounds
 * on every network), init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/net_namespace.h>

#include "vcube.h"

static char *topology;
module_param(topology, charp, 0444);
MODULE_PARM_DESC(topology,
		 "Network: hypercube, mesh, torus, fattree or dragonfly (default: the profile's; with no parameters, a hypercube of dim=5 with profile=ipsc860)");

/* The shape: unset (VCUBE_UNSET) unless given; once loaded, what it took. */
static unsigned int dim = VCUBE_UNSET;
module_param(dim, uint, 0444);
MODULE_PARM_DESC(dim, "Hypercube dimension, 1..12 (2^dim nodes; default: the profile's, 5)");

static unsigned int rows = VCUBE_UNSET;
module_param(rows, uint, 0444);
MODULE_PARM_DESC(rows, "Mesh or torus rows (default: the profile's, delta 16, ap1000 8)");

static unsigned int cols = VCUBE_UNSET;
module_param(cols, uint, 0444);
MODULE_PARM_DESC(cols, "Mesh or torus columns (default: the profile's, delta 32, ap1000 8)");

static char *dims;
module_param(dims, charp, 0444);
MODULE_PARM_DESC(dims, "Mesh or torus of 1 to 6 dimensions, in place of rows and cols: sizes X,Y,... (each 2 or more, X varying fastest in the node label; dims=C,R is rows=R cols=C); a torus routes the shorter way round in each dimension, a tie (size/2) the + way");

static unsigned int nodes = VCUBE_UNSET;
module_param(nodes, uint, 0444);
MODULE_PARM_DESC(nodes, "Fat tree processors, 2..4096, a partial tree when not a power of 4 (default: the profile's, cm5 32); dragonfly: nodes per router, 1..16");

static unsigned int levels = VCUBE_UNSET;
module_param(levels, uint, 0444);
MODULE_PARM_DESC(levels, "Fat tree in SimGrid's FAT_TREE notation levels;down;up;links, in place of nodes: its switch levels, 1..6, with down= and up= (and links=)");

/* down, up: the kernel's semaphore calls have the names */
static char *ft_down;
module_param_named(down, ft_down, charp, 0444);
MODULE_PARM_DESC(down, "Fat tree with levels=: m1,...,mL, each level's switches' children (processors: their product)");

static char *ft_up;
module_param_named(up, ft_up, charp, 0444);
MODULE_PARM_DESC(up, "Fat tree with levels=: w1,...,wL, each level's parents of a node below it");

static char *links;
module_param(links, charp, 0444);
MODULE_PARM_DESC(links, "Fat tree with levels=: p1,...,pL, parallel links between such a child and parent (default: 1 each)");

static char *routing;
module_param(routing, charp, 0444);
MODULE_PARM_DESC(routing, "Fat tree up-routing: dmodk (the port (dst / (w1...wk)) mod (w * p) at level k) or random (seeded; default with nodes=; dmodk with levels=). Dragonfly: minimal (default; link src % L of the L joining two groups), valiant (through a seeded intermediate group) or ugal (UGAL-L: the one with less load x hops at injection)");

static char *profile;
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "Machine profile: ipsc860, seidel, delta, ap1000, cm5 or slingshot (default: the topology's machine of 1991)");

static unsigned long long seed;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "Seed of every random choice the model makes (fat tree up-routing, interrupt phases, start jitter)");

static ushort mode = 0600;
module_param(mode, ushort, 0444);
MODULE_PARM_DESC(mode, "Permissions of the default network's /dev/vcube* (default 0600; other networks: net-new's mode)");

static unsigned long long max_msg = 1 << 20;
module_param(max_msg, ullong, 0444);
MODULE_PARM_DESC(max_msg, "Largest message payload, bytes (default 1 MiB, at most 64 MiB)");

static unsigned int max_reqs = 4096;
module_param(max_reqs, uint, 0444);
MODULE_PARM_DESC(max_reqs, "Outstanding requests per node (default 4096)");

/*
 * Messages sent and not yet received: kernel memory a sender pins (the
 * payload and the engine's structures for it), charged to its memory
 * cgroup, whatever becomes of its process.
 */
static unsigned long long max_inflight = 256ULL << 20;
module_param(max_inflight, ullong, 0444);
MODULE_PARM_DESC(max_inflight, "Bytes of messages in flight in the network (payloads and their bookkeeping), sent and not yet received; past it a send fails with ENOBUFS (default 256 MiB)");

static unsigned long long max_inflight_node = 64ULL << 20;
module_param(max_inflight_node, ullong, 0444);
MODULE_PARM_DESC(max_inflight_node, "Bytes of messages in flight from one node (payloads and their bookkeeping), sent and not yet received, across its bindings; past it its sends fail with ENOBUFS (default 64 MiB)");

/*
 * D5: a bound process outside vcube's calls counts as running and holds
 * every node's virtual time. With a lease, one that makes no call for
 * that long stops holding it until its next call (virtual times then
 * depend on wall time: off by default).
 */
static unsigned int idle_lease_ms;
module_param(idle_lease_ms, uint, 0444);
MODULE_PARM_DESC(idle_lease_ms, "A bound node that makes no call for this long (ms) stops holding virtual time until its next call, which starts at the time committed meanwhile (default 0: off; at most 3600000)");

static unsigned int trace = 65536;
module_param(trace, uint, 0444);
MODULE_PARM_DESC(trace, "Trace records (channel uses, messages, waits, marks) kept for the netlink trace dump (default 65536, at most 4194304, 72 bytes each; 0: off)");
static_assert(sizeof(struct vc_trace_rec) == 72);

/*
 * Cost parameters: -1 (the default) takes the profile's value. An
 * uncontended transfer of m bytes over d hops costs
 * <class>_base_ns + <class>_byte_ns * m + <class>_hop_ns * d.
 */
static long vcube_cost_param[VCUBE_NCOSTS] = {
	[0 ... VCUBE_NCOSTS - 1] = -1
};

#define VCUBE_COST_PARAM(name, id, desc)				\
	module_param_named(name, vcube_cost_param[VCUBE_COST_##id], long, \
			   0444);					\
	MODULE_PARM_DESC(name, desc " (-1, the default: the profile's)")

VCUBE_COST_PARAM(short_base_ns, SHORT_BASE_NS,
		 "Short and FORCED messages: fixed cost");
VCUBE_COST_PARAM(short_byte_ns, SHORT_BYTE_NS,
		 "Short and FORCED messages: per byte");
VCUBE_COST_PARAM(short_hop_ns, SHORT_HOP_NS,
		 "Short and FORCED messages: per hop");
VCUBE_COST_PARAM(ctl_base_ns, CTL_BASE_NS,
		 "PROBE and REQUEST: fixed cost");
VCUBE_COST_PARAM(ctl_hop_ns, CTL_HOP_NS,
		 "PROBE and REQUEST: per hop");
VCUBE_COST_PARAM(long_base_ns, LONG_BASE_NS,
		 "Data of long UNFORCED messages: fixed cost");
VCUBE_COST_PARAM(long_byte_ns, LONG_BYTE_NS,
		 "Data of long UNFORCED messages: per byte");
VCUBE_COST_PARAM(long_hop_ns, LONG_HOP_NS,
		 "Data of long UNFORCED messages: per hop");
VCUBE_COST_PARAM(tail_ns, TAIL_NS,
		 "Time from a sender's return to the receiver's completion");
VCUBE_COST_PARAM(short_max, SHORT_MAX,
		 "Largest message (bytes) sent as one packet, without PROBE/REQUEST");
VCUBE_COST_PARAM(eject, EJECT,
		 "Messages a node receives at once; 0: no limit (Bokhari's charts)");
VCUBE_COST_PARAM(sysbuf, SYSBUF,
		 "System buffer per node for UNFORCED messages with no receive, bytes; 0: none, every send waits for its receive");
VCUBE_COST_PARAM(lanes, LANES,
		 "Wormhole: bodies a channel carries at once; 0: no limit");
VCUBE_COST_PARAM(gamma, GAMMA,
		 "Wormhole, packet: a channel has 2^gamma times one body's bandwidth");
VCUBE_COST_PARAM(packet_payload, PACKET_PAYLOAD,
		 "Packet: payload bytes per packet");
VCUBE_COST_PARAM(partial_ns, PARTIAL_NS,
		 "Packet: extra startup when the last packet is partial");
VCUBE_COST_PARAM(window_ns, WINDOW_NS,
		 "Statistics: keep the peak channel sharing of each window of this many ns (0: off)");
VCUBE_COST_PARAM(send_port_early, SEND_PORT_EARLY,
		 "1: a node may start its next send once its last one returned (tail_ns before delivery); 0: at delivery");
VCUBE_COST_PARAM(copy_byte_ps, COPY_BYTE_PS,
		 "A node's local copy (a store-and-forward shuffle, VCUBE_IOC_COPY): ps of its processor per byte; 0: free");
VCUBE_COST_PARAM(duplex_ns, DUPLEX_NS,
		 "Circuit: a node's transmit and receive overlap only when the later starts within this many ns of the earlier, else it waits for the earlier to end; 0: always overlap");
VCUBE_COST_PARAM(recv_ns, RECV_NS,
		 "Wormhole, packet: of a message's base cost, the part its receiver spends, holding its receive port (eject at a time) before the body flows; 0: none");
VCUBE_COST_PARAM(fc_bufs, FC_BUFS,
		 "The iPSC/860's flow control, headers (short UNFORCED messages, PROBEs) a node may have out to one receiver before it hears they were freed; 0: off (seidel: 16, chosen)");
VCUBE_COST_PARAM(noise_period_ns, NOISE_PERIOD_NS,
		 "Noise: each node is interrupted every this many ns, from a seeded phase (0: never)");
VCUBE_COST_PARAM(noise_cost_ns, NOISE_COST_NS,
		 "Noise: CPU time each interrupt takes, at most noise_period_ns / 2");
VCUBE_COST_PARAM(jitter_ns, JITTER_NS,
		 "Noise: bound of the start jitter a node waits when its program asks (0: none)");
VCUBE_COST_PARAM(cnet_word_ns, CNET_WORD_NS,
		 "Control network: one 32-bit word through its combining tree, a barrier's cost (0: no control network; cm5: 6000)");
VCUBE_COST_PARAM(cnet_double_ns, CNET_DOUBLE_NS,
		 "Control network: one double combined in a reduction or scan (cm5: 42000)");
VCUBE_COST_PARAM(cnet_bcast_ns, CNET_BCAST_NS,
		 "Control network: a broadcast's fixed cost, beside cnet_word_ns per word (cm5: 137000)");
VCUBE_COST_PARAM(short_byte_ps, SHORT_BYTE_PS,
		 "Short and FORCED messages: per byte, in ps (short_byte_ns to the ps; give one)");
VCUBE_COST_PARAM(long_byte_ps, LONG_BYTE_PS,
		 "Data of long UNFORCED messages: per byte, in ps (long_byte_ns to the ps; give one)");
VCUBE_COST_PARAM(inject_byte_ps, INJECT_BYTE_PS,
		 "Wormhole, packet; fattree, dragonfly, graph: a node's channel to its router carries a byte in this many ps, shared max-min (0: as any channel)");
VCUBE_COST_PARAM(eject_byte_ps, EJECT_BYTE_PS,
		 "Wormhole, packet; fattree, dragonfly, graph: a router's channel to its node carries a byte in this many ps (0: as any channel)");
VCUBE_COST_PARAM(channel_early, CHANNEL_EARLY,
		 "Circuit: 1, a circuit's channels are free once its sender returned (tail_ns before delivery); 0 (every profile's): when the receiver has the whole message");

static char *noise;
module_param(noise, charp, 0444);
MODULE_PARM_DESC(noise, "Noise preset: off (default) or ipsc860 (50 us every 10 ms, Seidel & Davis Fig. 3-9); noise_*_ns override it");

static char *jitter_dist;
module_param(jitter_dist, charp, 0444);
MODULE_PARM_DESC(jitter_dist, "Start jitter: uniform (each node in [0, jitter_ns]; default) or one (one random node late by jitter_ns)");

static char *switching;
module_param(switching, charp, 0444);
MODULE_PARM_DESC(switching, "circuit, wormhole or packet (default: the profile's)");

static char *arbitration;
module_param(arbitration, charp, 0444);
MODULE_PARM_DESC(arbitration, "Who gets a busy channel first: fifo (the earliest request; default) or lowest (the lowest-numbered source, Bokhari's assumption)");

static bool default_net = true;
module_param(default_net, bool, 0444);
MODULE_PARM_DESC(default_net, "Make the network the other parameters describe, named default, its nodes /dev/vcube<rank> (default 1; 0: none, networks come from netlink's net-new)");

static unsigned int max_nets = 16;
module_param(max_nets, uint, 0444);
MODULE_PARM_DESC(max_nets, "Networks per network namespace, and in all user namespaces but the initial one together (default 16)");

static unsigned int max_nodes = 65536;
module_param(max_nodes, uint, 0444);
MODULE_PARM_DESC(max_nodes, "Nodes of all networks per network namespace, and in all user namespaces but the initial one together (default 65536)");

static unsigned long long max_bytes = 2ULL << 30;
module_param(max_bytes, ullong, 0444);
MODULE_PARM_DESC(max_bytes, "Bytes the networks of a network namespace may hold (their max_inflight, trace records, a graph's tables, and 4 KiB a node, 256 B a channel), and those of all user namespaces but the initial one together (default 2 GiB)");

static unsigned int groups = VCUBE_UNSET;
module_param(groups, uint, 0444);
MODULE_PARM_DESC(groups, "Dragonfly groups, at most routers*global+1 (each group has a global link to every other: the absolute arrangement, SST's global_route_mode=absolute)");

static unsigned int routers = VCUBE_UNSET;
module_param(routers, uint, 0444);
MODULE_PARM_DESC(routers, "Dragonfly routers per group, all-to-all by local links (nodes= is then the nodes per router, 1..16; groups*routers*nodes <= 4096)");

static unsigned int global = VCUBE_UNSET;
module_param(global, uint, 0444);
MODULE_PARM_DESC(global, "Dragonfly global links per router");

/* The module parameters' network, in the words every network uses. */
static void vcube_conf_from_params(struct vcube_conf *c)
{
	int i;

	vcube_conf_init(c);
	c->topology = topology;
	c->profile = profile;
	c->noise = noise;
	c->jitter_dist = jitter_dist;
	c->switching = switching;
	c->arbitration = arbitration;
	c->dim = dim;
	c->rows = rows;
	c->cols = cols;
	c->dims = dims;
	c->nodes = nodes;
	c->levels = levels;
	c->down = ft_down;
	c->up = ft_up;
	c->links = links;
	c->routing = routing;
	c->seed = seed;
	c->mode = mode;
	c->max_msg = max_msg;
	c->max_reqs = max_reqs;
	c->max_inflight = max_inflight;
	c->max_inflight_node = max_inflight_node;
	c->idle_lease_ms = idle_lease_ms;
	c->trace = trace;
	for (i = 0; i < VCUBE_NCOSTS; i++)
		c->cost[i] = vcube_cost_param[i];
	c->groups = groups;
	c->routers = routers;
	c->global = global;
}

/* The default network; its shape goes into /sys/module/vcube/parameters. */
static int __init vcube_default_net(void)
{
	struct vcube_net *net;
	struct vcube_conf c;
	char err[160], shape[VCUBE_SHAPE_LEN];

	vcube_conf_from_params(&c);
	net = vcube_net_new(&init_net, "default", &c, true, 0, err,
			    sizeof(err));
	if (IS_ERR(net)) {
		pr_err("%s\n", err);
		return PTR_ERR(net);
	}
	dim = c.dim;
	rows = c.rows;
	cols = c.cols;
	nodes = c.nodes;
	levels = c.levels;
	vcube_topo_format_shape(&net->topo, shape, sizeof(shape));
	pr_info("%s %s: %u nodes, %u channels, profile %s, %s switching\n",
		vcube_topo_kind_name(net->topo.kind), shape, net->topo.nodes,
		net->topo.nchan, net->profile,
		vcube_switching_name(net->params.switching));
	vcube_nl_attach(net);
	vcube_net_put(net);
	return 0;
}

static int __init vcube_init(void)
{
	int ret;

	ret = vcube_dev_init();
	if (ret)
		return ret;
	ret = vcube_net_init(max_nets, max_nodes, max_bytes);
	if (ret)
		goto err_dev;
	ret = vcube_nl_init();
	if (ret)
		goto err_net;
	if (default_net) {
		ret = vcube_default_net();
		if (ret)
			goto err_nl;
	}
	return 0;

err_nl:
	vcube_nl_exit();
err_net:
	vcube_net_exit();
err_dev:
	vcube_dev_exit();
	return ret;
}

/* No node is open (each open file holds the module): every network goes. */
static void __exit vcube_exit(void)
{
	vcube_nl_exit();
	vcube_net_exit();
	vcube_dev_exit();
}

module_init(vcube_init);
module_exit(vcube_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vcube: a virtual interconnect of parallel machines");
MODULE_AUTHOR("The vcube developers");
MODULE_VERSION(VCUBE_VERSION);
