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

#define VCUBE_IOC_NODE_INFO	_IOR(VCUBE_IOC_MAGIC, 0x00, struct vcube_node_info)

#endif /* _UAPI_LINUX_VCUBE_H */
