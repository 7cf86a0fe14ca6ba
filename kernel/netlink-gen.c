// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/vcube.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/vcube.h>

/* VCUBE_CMD_TOPO_GET - do */
static const struct nla_policy vcube_topo_get_nl_policy[VCUBE_A_TOPO_NET_ID + 1] = {
	[VCUBE_A_TOPO_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_LINK_GET - dump */
static const struct nla_policy vcube_link_get_nl_policy[VCUBE_A_LINK_NET_ID + 1] = {
	[VCUBE_A_LINK_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_NODE_GET - dump */
static const struct nla_policy vcube_node_get_nl_policy[VCUBE_A_NODE_NET_ID + 1] = {
	[VCUBE_A_NODE_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_STATS_RESET - do */
static const struct nla_policy vcube_stats_reset_nl_policy[VCUBE_A_TOPO_NET_ID + 1] = {
	[VCUBE_A_TOPO_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_CNET_GET - do */
static const struct nla_policy vcube_cnet_get_nl_policy[VCUBE_A_CNET_NET_ID + 1] = {
	[VCUBE_A_CNET_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_WINDOW_GET - dump */
static const struct nla_policy vcube_window_get_nl_policy[VCUBE_A_WINDOW_NET_ID + 1] = {
	[VCUBE_A_WINDOW_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_TRACE_GET - dump */
static const struct nla_policy vcube_trace_get_nl_policy[VCUBE_A_TRACE_NET_ID + 1] = {
	[VCUBE_A_TRACE_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_DEADLOCK_GET - dump */
static const struct nla_policy vcube_deadlock_get_nl_policy[VCUBE_A_DEADLOCK_NET_ID + 1] = {
	[VCUBE_A_DEADLOCK_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_TRACE_SET - do */
static const struct nla_policy vcube_trace_set_nl_policy[VCUBE_A_TOPO_NET_ID + 1] = {
	[VCUBE_A_TOPO_TRACE_ON] = NLA_POLICY_MAX(NLA_U32, 1),
	[VCUBE_A_TOPO_NET_ID] = { .type = NLA_U32, },
};

/* VCUBE_CMD_NET_NEW - do */
static const struct nla_policy vcube_net_new_nl_policy[VCUBE_A_NET_CHANNEL_EARLY + 1] = {
	[VCUBE_A_NET_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_DESTROY_ON_CLOSE] = { .type = NLA_FLAG, },
	[VCUBE_A_NET_TOPOLOGY] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_DIM] = { .type = NLA_U32, },
	[VCUBE_A_NET_ROWS] = { .type = NLA_U32, },
	[VCUBE_A_NET_COLS] = { .type = NLA_U32, },
	[VCUBE_A_NET_NODES] = { .type = NLA_U32, },
	[VCUBE_A_NET_PROFILE] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_SEED] = { .type = NLA_U64, },
	[VCUBE_A_NET_MODE] = { .type = NLA_U32, },
	[VCUBE_A_NET_MAX_MSG] = { .type = NLA_U64, },
	[VCUBE_A_NET_MAX_REQS] = { .type = NLA_U32, },
	[VCUBE_A_NET_MAX_INFLIGHT] = { .type = NLA_U64, },
	[VCUBE_A_NET_MAX_INFLIGHT_NODE] = { .type = NLA_U64, },
	[VCUBE_A_NET_IDLE_LEASE_MS] = { .type = NLA_U32, },
	[VCUBE_A_NET_TRACE] = { .type = NLA_U32, },
	[VCUBE_A_NET_NOISE] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_JITTER_DIST] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_SWITCHING] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_ARBITRATION] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_SHORT_BASE_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_SHORT_BYTE_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_SHORT_HOP_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_CTL_BASE_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_CTL_HOP_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_LONG_BASE_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_LONG_BYTE_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_LONG_HOP_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_TAIL_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_SHORT_MAX] = { .type = NLA_U64, },
	[VCUBE_A_NET_EJECT] = { .type = NLA_U64, },
	[VCUBE_A_NET_SYSBUF] = { .type = NLA_U64, },
	[VCUBE_A_NET_LANES] = { .type = NLA_U64, },
	[VCUBE_A_NET_GAMMA] = { .type = NLA_U64, },
	[VCUBE_A_NET_PACKET_PAYLOAD] = { .type = NLA_U64, },
	[VCUBE_A_NET_PARTIAL_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_WINDOW_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_SEND_PORT_EARLY] = { .type = NLA_U64, },
	[VCUBE_A_NET_COPY_BYTE_PS] = { .type = NLA_U64, },
	[VCUBE_A_NET_DUPLEX_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_RECV_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_FC_BUFS] = { .type = NLA_U64, },
	[VCUBE_A_NET_NOISE_PERIOD_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_NOISE_COST_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_JITTER_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_CNET_WORD_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_CNET_DOUBLE_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_CNET_BCAST_NS] = { .type = NLA_U64, },
	[VCUBE_A_NET_DIMS] = { .type = NLA_NUL_STRING, .len = 63, },
	[VCUBE_A_NET_LEVELS] = { .type = NLA_U32, },
	[VCUBE_A_NET_DOWN] = { .type = NLA_NUL_STRING, .len = 63, },
	[VCUBE_A_NET_UP] = { .type = NLA_NUL_STRING, .len = 63, },
	[VCUBE_A_NET_LINKS] = { .type = NLA_NUL_STRING, .len = 63, },
	[VCUBE_A_NET_ROUTING] = { .type = NLA_NUL_STRING, .len = 15, },
	[VCUBE_A_NET_GROUPS] = { .type = NLA_U32, },
	[VCUBE_A_NET_ROUTERS] = { .type = NLA_U32, },
	[VCUBE_A_NET_GLOBAL] = { .type = NLA_U32, },
	[VCUBE_A_NET_GRAPH_ROUTERS] = { .type = NLA_U32, },
	[VCUBE_A_NET_GRAPH_NODES] = { .type = NLA_BINARY, },
	[VCUBE_A_NET_GRAPH_LINKS] = { .type = NLA_BINARY, },
	[VCUBE_A_NET_SHORT_BYTE_PS] = { .type = NLA_U64, },
	[VCUBE_A_NET_LONG_BYTE_PS] = { .type = NLA_U64, },
	[VCUBE_A_NET_INJECT_BYTE_PS] = { .type = NLA_U64, },
	[VCUBE_A_NET_EJECT_BYTE_PS] = { .type = NLA_U64, },
	[VCUBE_A_NET_GRAPH_COSTS] = { .type = NLA_BINARY, },
	[VCUBE_A_NET_GRAPH_ROUTES] = { .type = NLA_BINARY, },
	[VCUBE_A_NET_CHANNEL_EARLY] = { .type = NLA_U64, },
};

/* VCUBE_CMD_NET_DEL - do */
static const struct nla_policy vcube_net_del_nl_policy[VCUBE_A_NET_NAME + 1] = {
	[VCUBE_A_NET_ID] = { .type = NLA_U32, },
	[VCUBE_A_NET_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* VCUBE_CMD_NET_GET - dump */
static const struct nla_policy vcube_net_get_nl_policy[VCUBE_A_NET_NAME + 1] = {
	[VCUBE_A_NET_ID] = { .type = NLA_U32, },
	[VCUBE_A_NET_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* Ops table for vcube */
static const struct genl_split_ops vcube_nl_ops[] = {
	{
		.cmd		= VCUBE_CMD_TOPO_GET,
		.doit		= vcube_nl_topo_get_doit,
		.policy		= vcube_topo_get_nl_policy,
		.maxattr	= VCUBE_A_TOPO_NET_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VCUBE_CMD_LINK_GET,
		.dumpit		= vcube_nl_link_get_dumpit,
		.policy		= vcube_link_get_nl_policy,
		.maxattr	= VCUBE_A_LINK_NET_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VCUBE_CMD_NODE_GET,
		.dumpit		= vcube_nl_node_get_dumpit,
		.policy		= vcube_node_get_nl_policy,
		.maxattr	= VCUBE_A_NODE_NET_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VCUBE_CMD_STATS_RESET,
		.doit		= vcube_nl_stats_reset_doit,
		.policy		= vcube_stats_reset_nl_policy,
		.maxattr	= VCUBE_A_TOPO_NET_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VCUBE_CMD_CNET_GET,
		.doit		= vcube_nl_cnet_get_doit,
		.policy		= vcube_cnet_get_nl_policy,
		.maxattr	= VCUBE_A_CNET_NET_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VCUBE_CMD_WINDOW_GET,
		.dumpit		= vcube_nl_window_get_dumpit,
		.policy		= vcube_window_get_nl_policy,
		.maxattr	= VCUBE_A_WINDOW_NET_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VCUBE_CMD_TRACE_GET,
		.dumpit		= vcube_nl_trace_get_dumpit,
		.policy		= vcube_trace_get_nl_policy,
		.maxattr	= VCUBE_A_TRACE_NET_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VCUBE_CMD_DEADLOCK_GET,
		.dumpit		= vcube_nl_deadlock_get_dumpit,
		.policy		= vcube_deadlock_get_nl_policy,
		.maxattr	= VCUBE_A_DEADLOCK_NET_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VCUBE_CMD_TRACE_SET,
		.doit		= vcube_nl_trace_set_doit,
		.policy		= vcube_trace_set_nl_policy,
		.maxattr	= VCUBE_A_TOPO_NET_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VCUBE_CMD_NET_NEW,
		.doit		= vcube_nl_net_new_doit,
		.policy		= vcube_net_new_nl_policy,
		.maxattr	= VCUBE_A_NET_CHANNEL_EARLY,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VCUBE_CMD_NET_DEL,
		.doit		= vcube_nl_net_del_doit,
		.policy		= vcube_net_del_nl_policy,
		.maxattr	= VCUBE_A_NET_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VCUBE_CMD_NET_GET,
		.dumpit		= vcube_nl_net_get_dumpit,
		.policy		= vcube_net_get_nl_policy,
		.maxattr	= VCUBE_A_NET_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
};

static const struct genl_multicast_group vcube_nl_mcgrps[] = {
	[VCUBE_NLGRP_MONITOR] = { "monitor", },
};

struct genl_family vcube_nl_family __ro_after_init = {
	.name		= VCUBE_FAMILY_NAME,
	.version	= VCUBE_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= vcube_nl_ops,
	.n_split_ops	= ARRAY_SIZE(vcube_nl_ops),
	.mcgrps		= vcube_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(vcube_nl_mcgrps),
};
