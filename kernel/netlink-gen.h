/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/vcube.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_VCUBE_GEN_H
#define _LINUX_VCUBE_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/vcube.h>

int vcube_nl_topo_get_doit(struct sk_buff *skb, struct genl_info *info);
int vcube_nl_link_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int vcube_nl_node_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int vcube_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int vcube_nl_cnet_get_doit(struct sk_buff *skb, struct genl_info *info);
int vcube_nl_window_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int vcube_nl_trace_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int vcube_nl_deadlock_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int vcube_nl_trace_set_doit(struct sk_buff *skb, struct genl_info *info);
int vcube_nl_net_new_doit(struct sk_buff *skb, struct genl_info *info);
int vcube_nl_net_del_doit(struct sk_buff *skb, struct genl_info *info);
int vcube_nl_net_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

enum {
	VCUBE_NLGRP_MONITOR,
};

extern struct genl_family vcube_nl_family;

#endif /* _LINUX_VCUBE_GEN_H */
