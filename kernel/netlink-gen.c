// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/vcube.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/vcube.h>

/* VCUBE_CMD_TRACE_SET - do */
static const struct nla_policy vcube_trace_set_nl_policy[VCUBE_A_TOPO_TRACE_ON + 1] = {
	[VCUBE_A_TOPO_TRACE_ON] = NLA_POLICY_MAX(NLA_U32, 1),
};

/* Ops table for vcube */
static const struct genl_split_ops vcube_nl_ops[] = {
	{
		.cmd	= VCUBE_CMD_TOPO_GET,
		.doit	= vcube_nl_topo_get_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= VCUBE_CMD_LINK_GET,
		.dumpit	= vcube_nl_link_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= VCUBE_CMD_NODE_GET,
		.dumpit	= vcube_nl_node_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= VCUBE_CMD_STATS_RESET,
		.doit	= vcube_nl_stats_reset_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= VCUBE_CMD_CNET_GET,
		.doit	= vcube_nl_cnet_get_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= VCUBE_CMD_WINDOW_GET,
		.dumpit	= vcube_nl_window_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= VCUBE_CMD_TRACE_GET,
		.dumpit	= vcube_nl_trace_get_dumpit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= VCUBE_CMD_DEADLOCK_GET,
		.dumpit	= vcube_nl_deadlock_get_dumpit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VCUBE_CMD_TRACE_SET,
		.doit		= vcube_nl_trace_set_doit,
		.policy		= vcube_trace_set_nl_policy,
		.maxattr	= VCUBE_A_TOPO_TRACE_ON,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
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
