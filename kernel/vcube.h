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

#include <linux/wait.h>
#include <linux/workqueue.h>

#include "core/engine.h"
#include "core/topology.h"

#define VCUBE_PROFILE_LEN	16

struct vcube_net;

/**
 * struct vcube_node - one virtual node and its character device
 * @dev: the device, /dev/vcube<id>; its release frees this structure
 * @cdev: the character device behind @dev
 * @net: the network the node belongs to
 * @id: node number
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
 * struct vcube_net - the one network a module load models
 * @topo: shape and routing; read-only after init
 * @profile: machine profile name; read-only after init
 * @devt: first device number of the node devices
 * @nodes: @topo.nodes entries
 * @params: the cost model; read-only after init
 * @max_msg: largest payload a send accepts, bytes
 * @engine: the virtual-time engine; every call into it holds @lock
 * @lock: the network's one lock: binding, and every engine call; never
 *	held while copying to or from user memory
 * @ready: set under @lock once init can no longer fail; until then an
 *	open gets -ENODEV (a failed init frees all under any open file)
 * @lease: idle_lease_ms in jiffies (0: off); read-only after init
 */
struct vcube_net {
	struct vcube_topo topo;
	char profile[VCUBE_PROFILE_LEN];
	dev_t devt;
	struct vcube_node **nodes;
	struct vc_params params;
	u64 max_msg;
	struct vc_engine *engine;
	struct mutex lock;
	bool ready;
	unsigned long lease;
};

umode_t vcube_dev_mode(void);
int vcube_dev_init(struct vcube_net *net);
void vcube_dev_exit(struct vcube_net *net);
int vcube_nl_init(struct vcube_net *net);
void vcube_nl_exit(void);

#endif /* _VCUBE_H */
