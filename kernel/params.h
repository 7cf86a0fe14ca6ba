/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network's description in the module parameters' words: what the
 * module's parameters and a netlink net-new give alike, and the one
 * function that checks it and turns it into a network's model.
 */
#ifndef _VCUBE_PARAMS_H
#define _VCUBE_PARAMS_H

#include <linux/types.h>

#include "core/costs.h"
#include "core/engine.h"
#include "core/topology.h"

/* A shape parameter not given (so that dim=0 is refused, not defaulted). */
#define VCUBE_UNSET		U32_MAX
#define VCUBE_PROFILE_LEN	16


/*
 * The cost parameters, in the order they are applied over the profile's
 * values (kernel/core/costs.c's table's). Unset (-1 as a module parameter, absent from a net-new) takes the
 * profile's value.
 */
enum {
	VCUBE_COST_SHORT_BASE_NS,
	VCUBE_COST_SHORT_BYTE_NS,
	VCUBE_COST_SHORT_HOP_NS,
	VCUBE_COST_CTL_BASE_NS,
	VCUBE_COST_CTL_HOP_NS,
	VCUBE_COST_LONG_BASE_NS,
	VCUBE_COST_LONG_BYTE_NS,
	VCUBE_COST_LONG_HOP_NS,
	VCUBE_COST_TAIL_NS,
	VCUBE_COST_SHORT_MAX,
	VCUBE_COST_EJECT,
	VCUBE_COST_SYSBUF,
	VCUBE_COST_LANES,
	VCUBE_COST_GAMMA,
	VCUBE_COST_PACKET_PAYLOAD,
	VCUBE_COST_PARTIAL_NS,
	VCUBE_COST_WINDOW_NS,
	VCUBE_COST_SEND_PORT_EARLY,
	VCUBE_COST_COPY_BYTE_PS,
	VCUBE_COST_DUPLEX_NS,
	VCUBE_COST_RECV_NS,
	VCUBE_COST_FC_BUFS,
	VCUBE_COST_NOISE_PERIOD_NS,
	VCUBE_COST_NOISE_COST_NS,
	VCUBE_COST_JITTER_NS,
	VCUBE_COST_CNET_WORD_NS,
	VCUBE_COST_CNET_DOUBLE_NS,
	VCUBE_COST_CNET_BCAST_NS,
	VCUBE_COST_SHORT_BYTE_PS,
	VCUBE_COST_LONG_BYTE_PS,
	VCUBE_COST_INJECT_BYTE_PS,
	VCUBE_COST_EJECT_BYTE_PS,
	VCUBE_COST_CHANNEL_EARLY,
	VCUBE_NCOSTS
};

/**
 * struct vcube_conf - a network as its creator describes it
 * @topology: hypercube, mesh, torus, fattree, dragonfly or graph; NULL: the
 *	profile's
 * @profile: a machine profile's name; NULL: the topology's
 * @noise: a noise preset (off, ipsc860); NULL: off
 * @jitter_dist: uniform or one; NULL: the profile's
 * @switching: circuit, wormhole or packet; NULL: the profile's
 * @arbitration: fifo or lowest; NULL: the profile's
 * @dim: hypercube dimension, or VCUBE_UNSET (and @rows, @cols, @nodes)
 * @rows: mesh or torus rows (a 2-D one; the AP1000's routing on a torus)
 * @cols: mesh or torus columns
 * @dims: mesh or torus sizes, "X,Y,Z" (1 to 6, X varying fastest in the
 *	node label; on a torus the shorter way round); NULL: not given
 * @nodes: fat tree processors: the CM-5's tree; dragonfly nodes per router
 * @seed: every random choice the model makes
 * @mode: permissions of the device files
 * @max_msg: largest payload, bytes
 * @max_reqs: outstanding requests per node
 * @max_inflight: bytes in flight in the network
 * @max_inflight_node: bytes in flight from one node
 * @idle_lease_ms: the idle lease; 0: off
 * @trace: trace records kept
 * @cost: the cost parameters, VCUBE_COSTS order; -1: the profile's
 * @levels: fat tree in SimGrid's FAT_TREE notation, in place of @nodes:
 *	its levels, or VCUBE_UNSET
 * @down: "m1,...,mL": each level's switches' children; NULL: not given
 * @up: "w1,...,wL": each level's parents of a node below it
 * @links: "p1,...,pL": parallel links between such a child and parent;
 *	NULL: one each
 * @routing: fat tree up-routing, dmodk or random; NULL: the form's
 *	(nodes=: random; levels=: dmodk); dragonfly routing, minimal,
 *	valiant or ugal; NULL: minimal
 * @groups: dragonfly groups, or VCUBE_UNSET (and @routers, @global)
 * @routers: dragonfly routers per group
 * @global: dragonfly global links per router
 * @graph: topology=graph's routers, nodes and links (netlink's net-new
 *	only); NULL: none
 *
 * vcube_conf_apply() writes the shape it took back into @dim, @rows,
 * @cols, @nodes and @levels.
 */
struct vcube_conf {
	const char *topology, *profile, *noise, *jitter_dist, *switching;
	const char *arbitration, *dims;
	u32 dim, rows, cols, nodes;
	u64 seed;
	u32 mode;
	u64 max_msg;
	u32 max_reqs;
	u64 max_inflight, max_inflight_node;
	u32 idle_lease_ms, trace;
	s64 cost[VCUBE_NCOSTS];
	u32 levels;
	const char *down, *up, *links, *routing;
	u32 groups, routers, global;
	const struct vcube_graph_desc *graph;
};

/* What vcube_conf_apply() makes of a description. */
struct vcube_model {
	struct vcube_topo topo;
	char profile[VCUBE_PROFILE_LEN];
	struct vc_params params;
	u64 max_msg;
	u32 idle_lease_ms;
	umode_t mode;
};

void vcube_conf_init(struct vcube_conf *c);
int vcube_conf_apply(struct vcube_conf *c, struct vcube_model *m,
		     char *err, size_t len);
const char *vcube_switching_name(u32 sw);

#endif /* _VCUBE_PARAMS_H */
