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

enum vcube_topology {
	VCUBE_TOPOLOGY_HYPERCUBE = 0,	/* iPSC/860: e-cube routing */
	VCUBE_TOPOLOGY_MESH = 1,	/* Touchstone Delta: XY routing */
	VCUBE_TOPOLOGY_TORUS = 2,	/* AP1000: +x then south */
	VCUBE_TOPOLOGY_FATTREE = 3,	/* CM-5: 4-ary fat tree */
};

/**
 * struct vcube_node_info - what a bound node knows of its network
 * @node: this node's number
 * @nodes: nodes in the network
 * @topology: enum vcube_topology
 * @dim: hypercube dimension, else 0
 * @rows: mesh or torus rows, else 0
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
 * @dir: hypercube: dimension crossed; mesh/torus: enum vcube_dir;
 *	fat tree: 0 up, 1 down
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

#define VCUBE_IOC_NODE_INFO	_IOR(VCUBE_IOC_MAGIC, 0x00, struct vcube_node_info)
#define VCUBE_IOC_ROUTE		_IOWR(VCUBE_IOC_MAGIC, 0x01, struct vcube_route)

#endif /* _UAPI_LINUX_VCUBE_H */
