/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube module internals shared by the Linux glue (main.c, dev.c).
 * The model itself lives in core/ and knows nothing of devices or files.
 */
#ifndef _VCUBE_H
#define _VCUBE_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "core/topology.h"

#define VCUBE_PROFILE_LEN	16

struct vcube_net;

/**
 * struct vcube_node - one virtual node and its character device
 * @dev: the device, /dev/vcube<id>; its release frees this structure
 * @cdev: the character device behind @dev
 * @net: the network the node belongs to
 * @id: node number
 * @owner: thread group id of the bound process, 0 while unbound;
 *	protected by &vcube_net.lock
 */
struct vcube_node {
	struct device dev;
	struct cdev cdev;
	struct vcube_net *net;
	u32 id;
	pid_t owner;
};

/**
 * struct vcube_net - the one network a module load models
 * @topo: shape and routing; read-only after init
 * @profile: machine profile name; read-only after init
 * @devt: first device number of the node devices
 * @nodes: @topo.nodes entries
 * @lock: serialises binding and unbinding of nodes (and every later change
 *	of network state); never held while sleeping on user memory
 */
struct vcube_net {
	struct vcube_topo topo;
	char profile[VCUBE_PROFILE_LEN];
	dev_t devt;
	struct vcube_node **nodes;
	struct mutex lock;
};

umode_t vcube_dev_mode(void);
int vcube_dev_init(struct vcube_net *net);
void vcube_dev_exit(struct vcube_net *net);

#endif /* _VCUBE_H */
