/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernel lines vcube builds against (Debian 12 ships
 * 6.1 and 6.12). Every version test lives here and nowhere else.
 */
#ifndef _VCUBE_COMPAT_H
#define _VCUBE_COMPAT_H

#include <linux/netlink.h>
#include <linux/version.h>

/* 6.2 made struct class's devnode() take a const device. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define vcube_devnode_device const struct device
#else
#define vcube_devnode_device struct device
#endif

/* 6.4 made class attribute callbacks take a const class and attribute. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define vcube_class_const const
#else
#define vcube_class_const
#endif

/*
 * 6.2 split generic netlink ops into do and dump entries. Before, the
 * generated table (netlink-gen.c, compiled with this header forced in) is a
 * table of plain ops: each vcube command has only a do or only a dump, so
 * the two read the same.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define genl_split_ops genl_ops
#define split_ops ops
#define n_split_ops n_ops
#endif

/*
 * A dump's request attributes: 6.5 put a struct genl_info in the dump's
 * state. Before 6.3 an extended ACK's message cannot be formatted: the
 * reason is then a fixed sentence, the attribute is not pointed at.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define vcube_dump_attrs(cb)	(genl_info_dump(cb)->attrs)
#else
#define vcube_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

static inline void vcube_extack_msg(struct netlink_ext_ack *extack,
				    const char *msg, int err)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	NL_SET_ERR_MSG_FMT(extack, "%s", msg);
#else
	if (err == -ENOSPC)
		NL_SET_ERR_MSG(extack,
			       "past a bound of the namespace or the pool: max_nets, max_nodes or max_bytes");
	else if (err == -EEXIST)
		NL_SET_ERR_MSG(extack, "a network of that name exists");
	else
		NL_SET_ERR_MSG(extack,
			       "a bad word; Linux before 6.3 cannot say which here: insmod with the same words says it");
#endif
}

#endif /* _VCUBE_COMPAT_H */
