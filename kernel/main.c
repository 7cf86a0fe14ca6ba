// SPDX-License-Identifier: GPL-2.0
/*
 * vcube: module parameters, validation, init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "core/profiles.h"
#include "vcube.h"

static char *topology;
module_param(topology, charp, 0444);
MODULE_PARM_DESC(topology,
		 "Network: hypercube, mesh, torus or fattree (default: the profile's; with no parameters, a hypercube of dim=5 with profile=ipsc860)");

/*
 * The shape: unset (VCUBE_UNSET) unless given, so that dim=0 is refused
 * rather than taken for "the profile's"; once loaded, what the network
 * has (0 where it does not apply).
 */
#define VCUBE_UNSET	UINT_MAX

static unsigned int dim = VCUBE_UNSET;
module_param(dim, uint, 0444);
MODULE_PARM_DESC(dim, "Hypercube dimension, 1..12 (2^dim nodes; default: the profile's, 5)");

static unsigned int rows = VCUBE_UNSET;
module_param(rows, uint, 0444);
MODULE_PARM_DESC(rows, "Mesh or torus rows (default: the profile's, delta 16, ap1000 8)");

static unsigned int cols = VCUBE_UNSET;
module_param(cols, uint, 0444);
MODULE_PARM_DESC(cols, "Mesh or torus columns (default: the profile's, delta 32, ap1000 8)");

static unsigned int nodes = VCUBE_UNSET;
module_param(nodes, uint, 0444);
MODULE_PARM_DESC(nodes, "Fat tree processors, 2..4096, a partial tree when not a power of 4 (default: the profile's, cm5 32)");

static char *profile;
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "Machine profile: ipsc860, seidel, delta, ap1000 or cm5 (default: the topology's)");

static unsigned long long seed;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "Seed of every random choice the model makes (fat tree up-routing, interrupt phases, start jitter)");

static ushort mode = 0600;
module_param(mode, ushort, 0444);
MODULE_PARM_DESC(mode, "Permissions of /dev/vcube* (default 0600)");

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
 * Cost parameters, in ns: -1 (the default) takes the profile's value.
 * An uncontended transfer of m bytes over d hops costs
 * <class>_base_ns + <class>_byte_ns * m + <class>_hop_ns * d.
 */
#define VCUBE_COST_PARAM(name, desc)					\
	static long name = -1;						\
	module_param(name, long, 0444);					\
	MODULE_PARM_DESC(name, desc " (default: the profile's)")

VCUBE_COST_PARAM(short_base_ns, "Short and FORCED messages: fixed cost");
VCUBE_COST_PARAM(short_byte_ns, "Short and FORCED messages: per byte");
VCUBE_COST_PARAM(short_hop_ns, "Short and FORCED messages: per hop");
VCUBE_COST_PARAM(ctl_base_ns, "PROBE and REQUEST: fixed cost");
VCUBE_COST_PARAM(ctl_hop_ns, "PROBE and REQUEST: per hop");
VCUBE_COST_PARAM(long_base_ns, "Data of long UNFORCED messages: fixed cost");
VCUBE_COST_PARAM(long_byte_ns, "Data of long UNFORCED messages: per byte");
VCUBE_COST_PARAM(long_hop_ns, "Data of long UNFORCED messages: per hop");
VCUBE_COST_PARAM(tail_ns, "Time from a sender's return to the receiver's completion");
VCUBE_COST_PARAM(short_max, "Largest message (bytes) sent as one packet, without PROBE/REQUEST");
VCUBE_COST_PARAM(eject, "Messages a node receives at once; 0: no limit (Bokhari's charts)");
VCUBE_COST_PARAM(sysbuf, "System buffer per node for UNFORCED messages with no receive, bytes; 0: none, every send waits for its receive");
VCUBE_COST_PARAM(lanes, "Wormhole: bodies a channel carries at once; 0: no limit");
VCUBE_COST_PARAM(gamma, "Wormhole, packet: a channel has 2^gamma times one body's bandwidth");
VCUBE_COST_PARAM(packet_payload, "Packet: payload bytes per packet");
VCUBE_COST_PARAM(partial_ns, "Packet: extra startup when the last packet is partial");
VCUBE_COST_PARAM(window_ns, "Statistics: keep the peak channel sharing of each window of this many ns (0: off)");
VCUBE_COST_PARAM(copy_byte_ps, "A node's local copy (a store-and-forward shuffle, VCUBE_IOC_COPY): ps of its processor per byte; 0: free");
VCUBE_COST_PARAM(duplex_ns, "Circuit: a node's transmit and receive overlap only when the later starts within this many ns of the earlier, else it waits for the earlier to end; 0: always overlap");
VCUBE_COST_PARAM(recv_ns, "Wormhole, packet: of a message's base cost, the part its receiver spends, holding its receive port (eject at a time) before the body flows; 0: none");
VCUBE_COST_PARAM(fc_bufs, "The iPSC/860's flow control, headers (short UNFORCED messages, PROBEs) a node may have out to one receiver before it hears they were freed; 0: off (seidel: 16, chosen)");
VCUBE_COST_PARAM(send_port_early, "1: a node may start its next send once its last one returned (tail_ns before delivery); 0: at delivery");
VCUBE_COST_PARAM(noise_period_ns, "Noise: each node is interrupted every this many ns, from a seeded phase (0: never)");
VCUBE_COST_PARAM(noise_cost_ns, "Noise: CPU time each interrupt takes, at most noise_period_ns / 2");
VCUBE_COST_PARAM(jitter_ns, "Noise: bound of the start jitter a node waits when its program asks (0: none)");
VCUBE_COST_PARAM(cnet_word_ns, "Control network: one 32-bit word through its combining tree, a barrier's cost (0: no control network; cm5: 6000)");
VCUBE_COST_PARAM(cnet_double_ns, "Control network: one double combined in a reduction or scan (cm5: 42000)");
VCUBE_COST_PARAM(cnet_bcast_ns, "Control network: a broadcast's fixed cost, beside cnet_word_ns per word (cm5: 137000)");

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

static const char *const vcube_switching_names[VC_NSWITCHING] = {
	[VC_SW_CIRCUIT] = "circuit",
	[VC_SW_WORMHOLE] = "wormhole",
	[VC_SW_PACKET] = "packet",
};

static const char *const vcube_jitter_names[VC_NJITTER] = {
	[VC_JITTER_UNIFORM] = "uniform",
	[VC_JITTER_ONE] = "one",
};

/* In the order of vc_params.arb_lowest's values. */
static const char *const vcube_arbitration_names[] = { "fifo", "lowest" };
/* Noise presets: off, or a machine's interrupts. */
enum { VCUBE_NOISE_OFF, VCUBE_NOISE_IPSC860, VCUBE_NNOISE };
static const char *const vcube_noise_names[VCUBE_NNOISE] = {
	[VCUBE_NOISE_OFF] = "off",
	[VCUBE_NOISE_IPSC860] = "ipsc860",
};

/*
 * @val's index in @names, or -EINVAL with one line:
 * "unknown param=val: use a, b or c".
 */
static int vcube_choice(const char *param, const char *val,
			const char *const names[], int n)
{
	char list[80];
	int i, len = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(val, names[i]))
			return i;
	for (i = 0; i < n; i++)
		len += scnprintf(list + len, sizeof(list) - len, "%s%s",
				 !i ? "" : i < n - 1 ? ", " : " or ", names[i]);
	pr_err("unknown %s=%s: use %s\n", param, val, list);
	return -EINVAL;
}

/* Apply one cost parameter over the profile's value, if it was given. */
static int vcube_cost_set(const char *name, long long v, u64 *field, u64 max)
{
	if (v == -1)
		return 0;
	if (v < 0 || v > max) {
		pr_err("%s=%lld is out of range (0..%llu)\n", name, v, max);
		return -EINVAL;
	}
	*field = v;
	return 0;
}

static int vcube_costs_parse(struct vc_params *p)
{
	/*
	 * At most 1000 s per transfer's fixed costs and 1 ms per byte, so one
	 * transfer of max_msg (64 MiB) costs under 2^47 ns: far from wrapping.
	 */
	const u64 ns_max = 1000000000000ULL;
	const u64 byte_max = 1000000ULL;
	u64 v;
	int ret = 0, i;

#define SET(param, field, max)						\
	do {								\
		v = field;						\
		ret = ret ?: vcube_cost_set(#param, param, &v, max);	\
		field = v;						\
	} while (0)
	SET(short_base_ns, p->cost[VC_CLASS_SHORT].base, ns_max);
	SET(short_byte_ns, p->cost[VC_CLASS_SHORT].byte, byte_max);
	SET(short_hop_ns, p->cost[VC_CLASS_SHORT].hop, ns_max);
	SET(ctl_base_ns, p->cost[VC_CLASS_CTL].base, ns_max);
	SET(ctl_hop_ns, p->cost[VC_CLASS_CTL].hop, ns_max);
	SET(long_base_ns, p->cost[VC_CLASS_LONG].base, ns_max);
	SET(long_byte_ns, p->cost[VC_CLASS_LONG].byte, byte_max);
	SET(long_hop_ns, p->cost[VC_CLASS_LONG].hop, ns_max);
	SET(tail_ns, p->tail, ns_max);
	SET(short_max, p->short_max, U32_MAX);
	SET(eject, p->eject, U32_MAX);
	SET(sysbuf, p->sysbuf, 1ULL << 40);
	SET(lanes, p->lanes, 1U << 16);
	SET(gamma, p->gamma, 8);
	SET(packet_payload, p->packet_payload, 1U << 20);
	SET(partial_ns, p->partial_ns, ns_max);
	SET(window_ns, p->window_ns, ns_max);
	SET(send_port_early, p->sport_early, 1);
	SET(copy_byte_ps, p->copy_ps, 1000000);	/* at most 1 us per byte */
	SET(duplex_ns, p->duplex, ns_max);
	SET(recv_ns, p->recv, ns_max);
	SET(fc_bufs, p->fc_bufs, VC_FC_MAX_BUFS);
	/* the preset first: noise_*_ns override it */
	if (!ret && noise) {
		i = vcube_choice("noise", noise, vcube_noise_names,
				 VCUBE_NNOISE);
		if (i < 0)
			return i;
		if (i == VCUBE_NOISE_IPSC860) {
			p->noise_period = 10000000;
			p->noise_cost = 50000;
		}
	}
	SET(noise_period_ns, p->noise_period, ns_max);
	SET(noise_cost_ns, p->noise_cost, ns_max);
	SET(jitter_ns, p->jitter, ns_max);
	/* at most 1 s each: cnet_max elements of them stay far from wrapping */
	SET(cnet_word_ns, p->cnet_word, 1000000000ULL);
	SET(cnet_double_ns, p->cnet_double, 1000000000ULL);
	SET(cnet_bcast_ns, p->cnet_bcast, 1000000000ULL);
#undef SET
	if (!ret && p->noise_cost && p->noise_cost > p->noise_period / 2) {
		pr_err("noise_cost_ns=%llu is more than half of noise_period_ns=%llu\n",
		       p->noise_cost, p->noise_period);
		return -EINVAL;
	}
	if (ret)
		return ret;
	if (jitter_dist) {
		i = vcube_choice("jitter_dist", jitter_dist, vcube_jitter_names,
				 VC_NJITTER);
		if (i < 0)
			return i;
		p->jitter_dist = i;
	}
	if (switching) {
		i = vcube_choice("switching", switching, vcube_switching_names,
				 VC_NSWITCHING);
		if (i < 0)
			return i;
		p->switching = i;
	}
	if (arbitration) {
		i = vcube_choice("arbitration", arbitration,
				 vcube_arbitration_names,
				 ARRAY_SIZE(vcube_arbitration_names));
		if (i < 0)
			return i;
		p->arb_lowest = i;
	}
	return 0;
}

static struct vcube_net *vcube_net;

umode_t vcube_dev_mode(void)
{
	return mode;
}


static int vcube_params_parse(struct vcube_net *net)
{
	bool shaped = dim != VCUBE_UNSET || rows != VCUBE_UNSET ||
		      cols != VCUBE_UNSET || nodes != VCUBE_UNSET;
	struct vcube_topo_params p = {
		.dim = dim == VCUBE_UNSET ? 0 : dim,
		.rows = rows == VCUBE_UNSET ? 0 : rows,
		.cols = cols == VCUBE_UNSET ? 0 : cols,
		.nodes = nodes == VCUBE_UNSET ? 0 : nodes,
		.seed = seed,
	};
	const struct vc_profile *pr;
	char err[128];
	int prof = -1, kind, i;

	if (mode & ~0777) {
		pr_err("mode=%#o is not a permission mask (0..0777)\n", mode);
		return -EINVAL;
	}
	if (profile) {
		prof = vc_profile_find(profile);
		if (prof < 0) {
			pr_err("unknown profile=%s: use ipsc860, seidel, delta, ap1000 or cm5\n",
			       profile);
			return -EINVAL;
		}
	}
	if (topology) {
		kind = vcube_topo_kind_parse(topology);
		if (kind < 0) {
			pr_err("unknown topology=%s: use hypercube, mesh, torus or fattree\n",
			       topology);
			return -EINVAL;
		}
	} else {
		kind = vc_profile_get(prof < 0 ? 0 : prof)->kind;
	}
	if (prof < 0) {
		for (i = VC_NPROFILES - 1; i >= 0; i--)
			if (vc_profile_get(i)->kind == kind)
				prof = i;
	}
	pr = vc_profile_get(prof);
	/* no shape given: the machine's own, if it is this topology's */
	if (!shaped && pr->kind == kind) {
		p.dim = pr->dim;
		p.rows = pr->rows;
		p.cols = pr->cols;
		p.nodes = pr->nodes;
	}
	p.kind = kind;
	if (vcube_topo_init(&net->topo, &p, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	/* /sys/module/vcube/parameters says the shape it took */
	dim = p.dim;
	rows = p.rows;
	cols = p.cols;
	nodes = p.nodes;
	strscpy(net->profile, pr->name, sizeof(net->profile));
	net->params = pr->params();
	if (vcube_costs_parse(&net->params))
		return -EINVAL;
	if (net->params.fc_bufs && net->topo.nodes > VC_FC_MAX_NODES) {
		pr_err("fc_bufs=%u needs nodes <= %u (a window per pair of nodes); this machine has %u\n",
		       net->params.fc_bufs, VC_FC_MAX_NODES, net->topo.nodes);
		return -EINVAL;
	}
	if (!max_msg || max_msg > (64ULL << 20)) {
		pr_err("max_msg=%llu is out of range (1..%llu)\n", max_msg,
		       64ULL << 20);
		return -EINVAL;
	}
	if (!max_reqs || max_reqs > 1U << 20) {
		pr_err("max_reqs=%u is out of range (1..%u)\n", max_reqs,
		       1U << 20);
		return -EINVAL;
	}
	/*
	 * Room for one message of max_msg and the engine's structures for
	 * it (its route: at most 4095 hops of 4 bytes, and the rest).
	 */
	if (max_inflight < max_msg + SZ_64K || max_inflight > 1ULL << 40) {
		pr_err("max_inflight=%llu is out of range (max_msg + 64 KiB = %llu..%llu)\n",
		       max_inflight, max_msg + SZ_64K, 1ULL << 40);
		return -EINVAL;
	}
	if (max_inflight_node < max_msg + SZ_64K ||
	    max_inflight_node > max_inflight) {
		pr_err("max_inflight_node=%llu is out of range (max_msg + 64 KiB = %llu..max_inflight=%llu)\n",
		       max_inflight_node, max_msg + SZ_64K, max_inflight);
		return -EINVAL;
	}
	/* at most 4 Mi records, 288 MiB: the trace is the largest allocation */
	if (trace > 1U << 22) {
		pr_err("trace=%u is out of range (0..%u)\n", trace, 1U << 22);
		return -EINVAL;
	}
	if (idle_lease_ms > 3600000) {
		pr_err("idle_lease_ms=%u is out of range (0..3600000)\n",
		       idle_lease_ms);
		return -EINVAL;
	}
	net->lease = msecs_to_jiffies(idle_lease_ms);
	net->max_msg = max_msg;
	net->params.cnet_max = max_msg;
	net->params.max_reqs = max_reqs;
	net->params.max_inflight = max_inflight;
	net->params.max_inflight_node = max_inflight_node;
	net->params.trace_max = trace;
	return 0;
}

static int __init vcube_init(void)
{
	struct vcube_net *net;
	char shape[48];
	int ret;

	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	mutex_init(&net->lock);

	ret = vcube_params_parse(net);
	if (ret)
		goto err_free;

	net->engine = vc_engine_create(&net->topo, &net->params);
	if (!net->engine) {
		pr_err("out of memory for the network: %u nodes, %u channels, trace=%u (%zu KiB of trace)\n",
		       net->topo.nodes, net->topo.nchan, trace,
		       (size_t)trace * sizeof(struct vc_trace_rec) >> 10);
		ret = -ENOMEM;
		goto err_free;
	}

	ret = vcube_dev_init(net);
	if (ret)
		goto err_engine;

	ret = vcube_nl_init(net);
	if (ret)
		goto err_dev;

	/*
	 * Only now may a node be opened: a failed init frees the engine and
	 * the module whatever files are open, so none may be until nothing
	 * can fail any more (opens before this get -ENODEV).
	 */
	mutex_lock(&net->lock);
	net->ready = true;
	mutex_unlock(&net->lock);

	vcube_topo_format_shape(&net->topo, shape, sizeof(shape));
	pr_info("%s %s: %u nodes, %u channels, profile %s, %s switching\n",
		vcube_topo_kind_name(net->topo.kind), shape, net->topo.nodes,
		net->topo.nchan, net->profile,
		vcube_switching_names[net->params.switching]);
	vcube_net = net;
	return 0;

err_dev:
	vcube_dev_exit(net);
err_engine:
	vc_engine_destroy(net->engine);
err_free:
	mutex_destroy(&net->lock);
	kfree(net);
	return ret;
}

static void __exit vcube_exit(void)
{
	vcube_nl_exit();
	vcube_dev_exit(vcube_net);
	vc_engine_destroy(vcube_net->engine);
	mutex_destroy(&vcube_net->lock);
	kfree(vcube_net);
}

module_init(vcube_init);
module_exit(vcube_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vcube: a virtual interconnect of parallel machines");
MODULE_AUTHOR("The vcube developers");
MODULE_VERSION(VCUBE_VERSION);
