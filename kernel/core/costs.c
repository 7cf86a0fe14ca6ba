// SPDX-License-Identifier: GPL-2.0
/*
 * The cost parameters' table (costs.h).
 */
#include "costs.h"

#define VC_COST_SCALED(n, field, mx, d, sc)				\
	{ #n, offsetof(struct vc_params, field),			\
	  sizeof(((struct vc_params *)0)->field), mx, d, sc }
#define VC_COST(n, field, mx, d)	VC_COST_SCALED(n, field, mx, d, 1)

/* The module parameters' order (kernel/params.h's enum follows it). */
const struct vc_cost_def vc_cost_defs[VC_NCOST_DEFS] = {
	VC_COST(short_base_ns, cost[VC_CLASS_SHORT].base, VCUBE_NS_MAX, true),
	VC_COST_SCALED(short_byte_ns, cost[VC_CLASS_SHORT].byte_ps,
		       VCUBE_BYTE_MAX, true, 1000),
	VC_COST(short_hop_ns, cost[VC_CLASS_SHORT].hop, VCUBE_NS_MAX, true),
	VC_COST(ctl_base_ns, cost[VC_CLASS_CTL].base, VCUBE_NS_MAX, true),
	VC_COST(ctl_hop_ns, cost[VC_CLASS_CTL].hop, VCUBE_NS_MAX, true),
	VC_COST(long_base_ns, cost[VC_CLASS_LONG].base, VCUBE_NS_MAX, true),
	VC_COST_SCALED(long_byte_ns, cost[VC_CLASS_LONG].byte_ps,
		       VCUBE_BYTE_MAX, true, 1000),
	VC_COST(long_hop_ns, cost[VC_CLASS_LONG].hop, VCUBE_NS_MAX, true),
	VC_COST(tail_ns, tail, VCUBE_NS_MAX, true),
	VC_COST(short_max, short_max, U32_MAX, true),
	VC_COST(eject, eject, U32_MAX, true),
	VC_COST(sysbuf, sysbuf, 1ULL << 40, true),
	VC_COST(lanes, lanes, 1U << 16, true),
	VC_COST(gamma, gamma, 8, true),
	VC_COST(packet_payload, packet_payload, 1U << 20, true),
	VC_COST(partial_ns, partial_ns, VCUBE_NS_MAX, true),
	VC_COST(window_ns, window_ns, VCUBE_NS_MAX, false),
	VC_COST(send_port_early, sport_early, 1, true),
	VC_COST(copy_byte_ps, copy_ps, 1000000, true),
	VC_COST(duplex_ns, duplex, VCUBE_NS_MAX, true),
	VC_COST(recv_ns, recv, VCUBE_NS_MAX, true),
	VC_COST(fc_bufs, fc_bufs, VC_FC_MAX_BUFS, true),
	VC_COST(noise_period_ns, noise_period, VCUBE_NS_MAX, true),
	VC_COST(noise_cost_ns, noise_cost, VCUBE_NS_MAX, true),
	VC_COST(jitter_ns, jitter, VCUBE_NS_MAX, true),
	VC_COST(cnet_word_ns, cnet_word, VCUBE_CNET_MAX, false),
	VC_COST(cnet_double_ns, cnet_double, VCUBE_CNET_MAX, false),
	VC_COST(cnet_bcast_ns, cnet_bcast, VCUBE_CNET_MAX, false),
	/* a byte's costs to the ps, for links of tens of ps a byte */
	VC_COST(short_byte_ps, cost[VC_CLASS_SHORT].byte_ps, VCUBE_BYTE_PS_MAX,
		true),
	VC_COST(long_byte_ps, cost[VC_CLASS_LONG].byte_ps, VCUBE_BYTE_PS_MAX,
		true),
	VC_COST(inject_byte_ps, inject_ps, VCUBE_BYTE_PS_MAX, true),
	VC_COST(eject_byte_ps, eject_ps, VCUBE_BYTE_PS_MAX, true),
	VC_COST(channel_early, chan_early, 1, true),
};

int vc_cost_twin(int i)
{
	int k;

	for (k = 0; k < VC_NCOST_DEFS; k++)
		if (k != i && vc_cost_defs[k].off == vc_cost_defs[i].off)
			return k;
	return -1;
}

void vc_cost_set(struct vc_params *p, int i, u64 v)
{
	void *field = (char *)p + vc_cost_defs[i].off;

	v *= vc_cost_defs[i].scale;
	if (vc_cost_defs[i].size == sizeof(u32))
		*(u32 *)field = v;
	else
		*(u64 *)field = v;
}

int vc_costs_check(const struct vc_params *p, char *err, size_t len)
{
	if (p->noise_cost && p->noise_cost > p->noise_period / 2)
		return vcube_fail(err, len,
				  "noise_cost_ns=%llu is more than half of noise_period_ns=%llu",
				  (unsigned long long)p->noise_cost,
				  (unsigned long long)p->noise_period);
	/*
	 * The sender returns tail ns before its receiver completes; more
	 * than a short message's startup would have it return before its
	 * message began (the engine would clamp it, silently).
	 */
	if (p->tail > p->cost[VC_CLASS_SHORT].base)
		return vcube_fail(err, len,
				  "tail_ns=%llu is more than short_base_ns=%llu: a sender cannot return before its message starts",
				  (unsigned long long)p->tail,
				  (unsigned long long)p->cost[VC_CLASS_SHORT].base);
	if ((p->inject_ps || p->eject_ps) && p->switching == VC_SW_CIRCUIT)
		return vcube_fail(err, len,
				  "inject_byte_ps=, eject_byte_ps= are for wormhole and packet, not circuit");
	return 0;
}

u64 vc_chan_ps(const struct vc_params *p, const struct vcube_topo *t,
	       u32 chan)
{
	struct vcube_chan_info ci;
	u64 ps = 0;

	if (t->graph)
		ps = vcube_graph_chan_ps(t->graph, chan);
	if (!ps && (p->inject_ps || p->eject_ps) &&
	    !vcube_topo_chan_info(t, chan, &ci)) {
		if (!ci.from_level && ci.to_level)
			ps = p->inject_ps;
		else if (ci.from_level && !ci.to_level)
			ps = p->eject_ps;
	}
	return ps;
}

int vc_costs_check_topo(const struct vc_params *p, const struct vcube_topo *t,
			char *err, size_t len)
{
	if ((p->inject_ps || p->eject_ps) &&
	    (t->kind == VCUBE_TOPO_HYPERCUBE || t->kind == VCUBE_TOPO_MESH ||
	     t->kind == VCUBE_TOPO_TORUS))
		return vcube_fail(err, len,
				  "inject_byte_ps=, eject_byte_ps= need a fattree, dragonfly or graph");
	return 0;
}

int vc_cost_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < VC_NCOST_DEFS; i++)
		if (strlen(vc_cost_defs[i].name) == len &&
		    !strncmp(vc_cost_defs[i].name, name, len))
			return i;
	return -EINVAL;
}
