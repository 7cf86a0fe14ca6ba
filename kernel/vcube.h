/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube module internals shared by the Linux glue: main.c (the module),
 * netlink.c, net.c (networks), dev.c (their devices), params.c.
 * The model itself lives in core/ and knows nothing of devices or files.
 */
#ifndef _VCUBE_H
#define _VCUBE_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <linux/wait.h>
#include <linux/workqueue.h>

#include "core/engine.h"
#include "core/topology.h"
#include "params.h"

/* vcube_net_get(): any id (the name decides, or the default network) */
#define VCUBE_NET_ANY		U32_MAX
/* A network's name, with its NUL. */
#define VCUBE_NAME_LEN		16

struct vcube_net;

/**
 * struct vcube_node - one virtual node and its character device
 * @dev: the device, /dev/vcube<id> (the default network) or
 *	/dev/vcube/<network>/<id>; its release frees this structure
 * @cdev: the character device behind @dev
 * @net: the network the node belongs to
 * @id: node number
 * @minor: its device's minor number
 * @wq: where the bound process sleeps while the engine has it blocked
 * @woken: set (under &vcube_net.lock) when the engine unblocks the node;
 *	read without the lock by the sleeper
 * @op_lock: serialises the calls on this node (threads of the bound
 *	process): one operation of a node at a time, as the engine expects.
 *	Taken before &vcube_net.lock.
 * @intr: the request a signal cut the wait for (the node left blocked on
 *	it in the engine), until the call is taken up or another one gives
 *	it up; NULL if none. Under &vcube_net.lock.
 * @intr_call: @intr came from a blocking send or receive (the caller had
 *	no id for it before the signal), not from a wait. Under
 *	&vcube_net.lock.
 * @tgid: the process that bound it (its thread group, which an exec
 *	keeps), held while bound, NULL while unbound: only calls from it
 *	take part; readers see its number in their own PID namespace
 *	(pid_vnr). Under &vcube_net.lock.
 * @lease: runs when the node has made no call for &vcube_net.lease: the
 *	engine stops counting it as holding time (vc_lease_expire()).
 *	Armed at open, at the end of each call and when the node is woken
 *	outside a call (a signal cut its wait); cancelled at release.
 * @in_call: a call of the node is under way (the lease must not run
 *	out under it). Under &vcube_net.lock.
 * @lease_from: jiffies when the node last left a call, was bound or was
 *	woken outside a call: the lease runs out &vcube_net.lease after it
 *	(a @lease armed earlier only re-arms). Under &vcube_net.lock.
 */
struct vcube_node {
	struct device dev;
	struct cdev cdev;
	struct vcube_net *net;
	u32 id;
	int minor;
	wait_queue_head_t wq;
	bool woken;
	struct mutex op_lock;
	struct vc_req *intr;
	bool intr_call;
	struct pid *tgid;
	struct delayed_work lease;
	bool in_call;
	unsigned long lease_from;
};

/**
 * struct vcube_net - a network: made from the module's parameters (the
 * default one) or by netlink's net-new, in a network namespace
 * @dev: /sys/class/vcube_net/<name>, the parent of its nodes' devices
 *	(each holds a reference); its release frees the network
 * @ns: the network namespace it was made in (no reference: the
 *	namespace's exit deletes it first)
 * @id: its number, unique on the machine; read-only
 * @name: unique on the machine, as its devices' paths are; read-only
 * @is_default: made from the module's parameters: its nodes are
 *	/dev/vcube<rank> and /sys/class/vcube shows it; read-only
 * @listed: found by lookups, its name and id taken; cleared when it is
 *	deleted. Under vcube_nets_lock
 * @portid: destroy-on-close: the netlink socket whose close deletes it;
 *	0: none; read-only
 * @uid: owner of its device files (its creator); read-only
 * @charge: what it counts against its namespace's bounds, bytes; read-only
 * @pooled: made from a user namespace other than the initial one: it
 *	counts against the bounds all such networks share too; read-only
 * @topo: shape and routing; read-only
 * @profile: machine profile name; read-only
 * @params: the cost model; read-only
 * @max_msg: largest payload a send accepts, bytes; read-only
 * @mode: permissions of its device files; read-only
 * @nodes: @topo.nodes entries; each goes NULL, under @lock, as the
 *	network is deleted
 * @engine: the virtual-time engine; every call into it holds @lock
 * @lock: the network's one lock: binding, and every engine call; never
 *	held while copying to or from user memory
 * @ready: set under @lock once creation can no longer fail; until then
 *	an open gets -ENODEV
 * @dead: set under @lock when the network is deleted: every call on its
 *	nodes then fails with -ENODEV, and none blocks
 * @lease: idle_lease_ms in jiffies (0: off); read-only
 */
struct vcube_net {
	struct device dev;
	struct net *ns;
	u32 id;
	char name[VCUBE_NAME_LEN];
	bool is_default;
	bool listed;
	u32 portid;
	kuid_t uid;
	u64 charge;
	bool pooled;
	struct vcube_topo topo;
	char profile[VCUBE_PROFILE_LEN];
	struct vc_params params;
	u64 max_msg;
	umode_t mode;
	struct vcube_node **nodes;
	struct vc_engine *engine;
	struct mutex lock;
	bool ready;
	bool dead;
	unsigned long lease;
};

static inline struct vcube_net *to_vcube_net(struct device *dev)
{
	return container_of(dev, struct vcube_net, dev);
}

/* dev.c: the device classes, and a network's devices */
int vcube_dev_init(void);
void vcube_dev_exit(void);
void vcube_dev_net_init(struct vcube_net *net,
			void (*release)(struct device *dev));
int vcube_dev_add(struct vcube_net *net);
void vcube_dev_del(struct vcube_net *net);

/* net.c: the networks, each in a network namespace */
int vcube_net_init(unsigned int max_nets, unsigned int max_nodes,
		   u64 max_bytes);
void vcube_net_exit(void);
struct vcube_net *vcube_net_new(struct net *ns, const char *name,
				struct vcube_conf *c, bool is_default,
				u32 portid, char *err, size_t len);
int vcube_net_del(struct vcube_net *net);
struct vcube_net *vcube_net_get(struct net *ns, u32 id, const char *name);
struct vcube_net *vcube_net_get_next(struct net *ns, u32 from);
struct vcube_net *vcube_net_get_portid(struct net *ns, u32 portid);
void vcube_net_put(struct vcube_net *net);

/* netlink.c: the generic netlink family */
int vcube_nl_init(void);
void vcube_nl_exit(void);
void vcube_nl_attach(struct vcube_net *net);

#endif /* _VCUBE_H */
