// SPDX-License-Identifier: GPL-2.0
/*
 * vcube: a network's devices: its nodes (/dev/vcubeN for the default
 * network, /dev/vcube/<network>/N for the others), their ioctls, and its
 * sysfs facts (/sys/class/vcube_net/<network>; /sys/class/vcube for the
 * default network, as before networks were objects).
 *
 * Node devices hold a reference to their network's device, which frees
 * the network; the classes, the device numbers (one region of minors,
 * handed out by an IDA) and nothing else are the module's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/lockdep.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vcube.h>

#include "compat.h"
#include "vcube.h"

static_assert((int)VCUBE_TOPOLOGY_HYPERCUBE == (int)VCUBE_TOPO_HYPERCUBE);
static_assert((int)VCUBE_TOPOLOGY_MESH == (int)VCUBE_TOPO_MESH);
static_assert((int)VCUBE_TOPOLOGY_TORUS == (int)VCUBE_TOPO_TORUS);
static_assert((int)VCUBE_TOPOLOGY_FATTREE == (int)VCUBE_TOPO_FATTREE);
static_assert((int)VCUBE_TOPOLOGY_DRAGONFLY == (int)VCUBE_TOPO_DRAGONFLY);
static_assert((int)VCUBE_TOPOLOGY_GRAPH == (int)VCUBE_TOPO_GRAPH);
static_assert(VCUBE_CNET_BCAST == VC_CNET_BCAST && VCUBE_CNET_SCAN == VC_CNET_SCAN);
static_assert(VCUBE_RECV_TAGCLASS == VC_RECV_TAGCLASS);
static_assert(VCUBE_TAG_CLASS_MASK == VC_TAG_CLASS_MASK);
static_assert(VCUBE_CNET_BARRIER == VC_CNET_BARRIER);
static_assert(VCUBE_CNET_REDUCE == VC_CNET_REDUCE);
static_assert(VCUBE_TYPE_S32 == VC_TYPE_S32 && VCUBE_TYPE_DOUBLE == VC_TYPE_DOUBLE);
static_assert(VCUBE_TYPE_U64 == VC_TYPE_U64 && VCUBE_OP_BXOR == VC_OP_BXOR);
static_assert(VCUBE_OP_MIN == VC_OP_MIN && VCUBE_OP_BAND == VC_OP_BAND);
static_assert(VCUBE_OP_SUM == VC_OP_SUM && VCUBE_OP_MAX == VC_OP_MAX);
static_assert(VCUBE_OP_BOR == VC_OP_BOR);
static_assert((int)VCUBE_DIR_EAST == (int)VCUBE_TOPO_EAST);
static_assert((int)VCUBE_DIR_WEST == (int)VCUBE_TOPO_WEST);
static_assert((int)VCUBE_DIR_SOUTH == (int)VCUBE_TOPO_SOUTH);
static_assert((int)VCUBE_DIR_NORTH == (int)VCUBE_TOPO_NORTH);

/* Minors of every network's nodes: one region, an IDA over it. */
#define VCUBE_MINORS	(MINORMASK + 1)
static dev_t vcube_devt;
static DEFINE_IDA(vcube_minors);

static struct vcube_node *to_vcube_node(struct device *dev)
{
	return container_of(dev, struct vcube_node, dev);
}

/* ---- binding ---------------------------------------------------------- */

static int vcube_node_bind(struct vcube_node *node)
{
	int ret;

	lockdep_assert_held(&node->net->lock);
	if (node->tgid)
		return -EBUSY;
	ret = vc_bind(node->net->engine, node->id);
	if (ret)
		return ret;
	node->tgid = get_pid(task_tgid(current));
	return 0;
}

/* Whatever the process left behind is dropped; its messages go on. */
static void vcube_node_unbind(struct vcube_node *node)
{
	lockdep_assert_held(&node->net->lock);
	vc_unbind(node->net->engine, node->id);	/* frees its requests */
	node->intr = NULL;
	put_pid(node->tgid);
	node->tgid = NULL;
}

/*
 * The idle lease (D5) runs from now: at open, at the end of each call,
 * when the node is woken outside a call. Under the network lock.
 */
static void vcube_lease_arm(struct vcube_node *node)
{
	struct vcube_net *net = node->net;

	lockdep_assert_held(&net->lock);
	if (!net->lease)
		return;
	node->lease_from = jiffies;
	mod_delayed_work(system_wq, &node->lease, net->lease);
}

/* The engine's wake callback, called with the network lock held. */
static void vcube_wake(void *ctx, u32 id)
{
	struct vcube_net *net = ctx;
	struct vcube_node *node = net->nodes[id];

	lockdep_assert_held(&net->lock);
	if (!node)	/* the network is being deleted */
		return;
	WRITE_ONCE(node->woken, true);
	wake_up(&node->wq);
	/*
	 * Running again with its process away (a signal cut its wait, and
	 * it may be stopped): the idle lease runs from now.
	 */
	if (!node->in_call && node->tgid)
		vcube_lease_arm(node);
}

/*
 * Sleep while the engine keeps @node blocked on @r. Called and returns
 * with the network lock held; @ret is what the engine call answered.
 * Returns 0 or -EDEADLK; when a signal comes first, -ERESTARTSYS, the node
 * left blocked in the engine and @r its @intr, so that the call, restarted
 * (or a wait for @r), takes up where it stopped and virtual time is as if
 * no signal had come (see vcube_intr_drop()). With no @r (a
 * control-network operation), -EINTR: the node runs on as if it had not
 * waited. On a network deleted meanwhile, -ENODEV at once.
 */
static int vcube_block(struct vcube_node *node, int ret, struct vc_req *r)
{
	struct vcube_net *net = node->net;
	int err;

	lockdep_assert_held(&net->lock);
	while (ret == VC_BLOCKED_RET) {
		/* vcube_dev_del() sets it, then wakes every node */
		if (net->dead)
			return -ENODEV;
		mutex_unlock(&net->lock);
		err = wait_event_interruptible(node->wq, READ_ONCE(node->woken));
		mutex_lock(&net->lock);
		if (net->dead)
			return -ENODEV;
		ret = vc_node_status(net->engine, node->id);
		if (ret == -EAGAIN) {
			if (err && r) {
				node->intr = r;
				return -ERESTARTSYS;
			}
			if (err) {
				vc_unblock(net->engine, node->id);
				return -EINTR;
			}
			WRITE_ONCE(node->woken, false);
			ret = VC_BLOCKED_RET;
		}
	}
	return ret;
}

/*
 * The idle lease (D5): a node that makes no call for &vcube_net.lease
 * stops holding virtual time until its next call. Its timer runs from
 * the end of each call (and from the open); a call takes the node back.
 */
static void vcube_lease_work(struct work_struct *work)
{
	struct vcube_node *node = container_of(to_delayed_work(work),
					       struct vcube_node, lease);
	struct vcube_net *net = node->net;

	mutex_lock(&net->lock);
	/* armed for an earlier binding or call: the lease runs from the last */
	if (node->tgid && !node->in_call && !net->dead) {
		unsigned long end = node->lease_from + net->lease;

		if (time_before(jiffies, end))
			mod_delayed_work(system_wq, &node->lease, end - jiffies);
		else
			vc_lease_expire(net->engine, node->id);
	}
	mutex_unlock(&net->lock);
}

static void vcube_lease_enter(struct vcube_node *node)
{
	struct vcube_net *net = node->net;

	if (!net->lease)
		return;
	mutex_lock(&net->lock);
	node->in_call = true;
	vc_resume(net->engine, node->id);
	mutex_unlock(&net->lock);
}

static void vcube_lease_leave(struct vcube_node *node)
{
	struct vcube_net *net = node->net;

	if (!net->lease)
		return;
	mutex_lock(&net->lock);
	node->in_call = false;
	vcube_lease_arm(node);
	mutex_unlock(&net->lock);
}

static int vcube_open(struct inode *inode, struct file *file)
{
	struct vcube_node *node = container_of(inode->i_cdev,
					       struct vcube_node, cdev);
	int ret;

	mutex_lock(&node->net->lock);
	ret = node->net->ready && !node->net->dead ? vcube_node_bind(node) :
							    -ENODEV;
	if (!ret)	/* not for a refused open: the binding is another's */
		vcube_lease_arm(node);
	mutex_unlock(&node->net->lock);
	if (ret)
		return ret;
	get_device(&node->dev);
	file->private_data = node;
	return nonseekable_open(inode, file);
}

static int vcube_release(struct inode *inode, struct file *file)
{
	struct vcube_node *node = file->private_data;

	/*
	 * Not under the lock (the work takes it). A wake may arm it again
	 * before the unbind: the work then finds the node unbound (and does
	 * nothing) or bound again (and waits out that binding's lease).
	 */
	cancel_delayed_work_sync(&node->lease);
	mutex_lock(&node->net->lock);
	vcube_node_unbind(node);
	mutex_unlock(&node->net->lock);
	put_device(&node->dev);
	return 0;
}

/*
 * The call @node->intr was cut from will not be taken up: another call
 * than its own came first. The node leaves its wait (at the time committed
 * by now) and, when that call was a blocking send or receive, its request
 * goes as it would have at the signal: the send's message goes on, a
 * receive not yet done is cancelled. A receive done, its message in, and a
 * non-blocking request stay the caller's to wait for (by the id the cut
 * call handed back): no message is dropped.
 */
static void vcube_intr_drop(struct vcube_node *node)
{
	struct vc_engine *e = node->net->engine;
	struct vc_req *r = node->intr;

	lockdep_assert_held(&node->net->lock);
	if (!r)
		return;
	node->intr = NULL;
	if (vc_node_state(e, node->id) == VC_BLOCKED)
		vc_unblock(e, node->id);
	if (node->intr_call && !(r->type == VC_REQ_RECV && r->done))
		vc_req_free(e, r);
}

/*
 * Take up the wait for @node->intr where a signal cut it; returns what the
 * engine would answer (for vcube_block()): the node is still blocked on
 * it unless it has been woken since.
 */
static int vcube_intr_resume(struct vcube_node *node)
{
	struct vc_engine *e = node->net->engine;

	lockdep_assert_held(&node->net->lock);
	node->intr = NULL;
	if (vc_node_state(e, node->id) == VC_BLOCKED)
		return VC_BLOCKED_RET;
	return vc_node_status(e, node->id);
}

/* ---- ioctls ----------------------------------------------------------- */

static int vcube_node_info(struct vcube_node *node, void __user *argp)
{
	const struct vcube_topo *t = &node->net->topo;
	struct vcube_node_info info = {
		.node = node->id,
		.nodes = t->nodes,
		.topology = t->kind,
		.dim = t->dim,
		.rows = t->rows,
		.cols = t->cols,
		.channels = t->nchan,
		.diameter = vcube_topo_diameter(t),
		.seed = t->seed,
	};

	if (copy_to_user(argp, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/* Route from the bound node; the same computation the engine will use. */
static int vcube_node_route(struct vcube_node *node, void __user *argp)
{
	const struct vcube_topo *t = &node->net->topo;
	struct vcube_hop __user *uhops;
	struct vcube_chan_info ci;
	struct vcube_route r;
	struct vcube_hop hop;
	u32 *chan;
	int n, i, ret = 0;

	if (copy_from_user(&r, argp, sizeof(r)))
		return -EFAULT;
	if (r.flags || r.dst >= t->nodes)
		return -EINVAL;
	chan = kmalloc_array(vcube_topo_diameter(t) + 1, sizeof(*chan),
			     GFP_KERNEL);
	if (!chan)
		return -ENOMEM;
	n = vcube_topo_route(t, node->id, r.dst, r.cookie, chan,
			     vcube_topo_diameter(t) + 1);
	if (n < 0) {
		ret = n;
		goto out;
	}
	r.nhops = n;
	if (r.max_hops < (u32)n) {
		ret = copy_to_user(argp, &r, sizeof(r)) ? -EFAULT : -EMSGSIZE;
		goto out;
	}
	uhops = u64_to_user_ptr(r.hops);
	for (i = 0; i < n; i++) {
		vcube_topo_chan_info(t, chan[i], &ci);
		hop = (struct vcube_hop) {
			.channel = chan[i], .from = ci.from, .to = ci.to,
			.from_level = ci.from_level, .to_level = ci.to_level,
			.lane = ci.lane, .dir = ci.dir,
		};
		if (copy_to_user(&uhops[i], &hop, sizeof(hop))) {
			ret = -EFAULT;
			goto out;
		}
	}
	if (copy_to_user(argp, &r, sizeof(r)))
		ret = -EFAULT;
out:
	kfree(chan);
	return ret;
}

/*
 * A request is done: fill @st, take its message, free it. The caller copies
 * the payload out once the lock is dropped and then releases the message.
 */
static struct vc_msg *vcube_req_finish(struct vcube_net *net, struct vc_req *r,
				       struct vcube_status *st, u64 *user,
				       u64 *cap)
{
	struct vc_msg *m;

	lockdep_assert_held(&net->lock);
	m = vc_req_take_msg(net->engine, r);
	st->req = r->id;
	st->time = r->done_time;
	st->done = 1;
	st->error = r->status;
	st->len = r->len;
	if (m) {
		st->len = m->len;
		st->src = m->src;
		st->tag = m->tag;
		st->sent = m->sent;
	}
	*user = r->user;
	*cap = r->cap;
	vc_req_free(net->engine, r);
	return m;
}

static int vcube_copy_payload(struct vc_msg *m, u64 user, u64 cap)
{
	int ret = 0;

	if (m && copy_to_user(u64_to_user_ptr(user), m->data,
			      min(m->len, cap)))
		ret = -EFAULT;
	if (m)
		vc_msg_release(m);
	return ret;
}

/*
 * The engine took request @r for a send or receive ioctl: hand out its id
 * (non-blocking), or wait for it, fill @st and take its message. Called
 * with the network lock held, which it drops; then copies the payload out.
 * A blocking call cut by a signal returns -ERESTARTSYS with @st->req set:
 * the same call again (as the kernel restarts it, or as libvcube retries
 * it), or a wait for that id, takes it up (vcube_call_again()).
 */
static int vcube_req_settle(struct vcube_node *node, struct vc_req *r,
			    bool nonblock, bool again, int ret,
			    struct vcube_status *st)
{
	struct vcube_net *net = node->net;
	struct vc_msg *m = NULL;
	u64 user, cap;

	lockdep_assert_held(&net->lock);
	if (nonblock) {
		st->req = r->id;
		ret = 0;
	} else {
		if (!again) {
			WRITE_ONCE(node->woken, false);
			ret = vc_wait(net->engine, node->id, r);
		}
		ret = vcube_block(node, ret, r);
		if (!ret) {
			m = vcube_req_finish(net, r, st, &user, &cap);
		} else if (ret == -ERESTARTSYS) {
			node->intr_call = true;
			st->req = r->id;
		} else {	/* a send goes on without us; a receive is cancelled */
			vc_req_free(net->engine, r);
		}
	}
	mutex_unlock(&net->lock);
	if (m)
		ret = vcube_copy_payload(m, user, cap);
	return ret;
}

/*
 * Under the network lock, before a send or receive: is it the blocking
 * call a signal cut, again (its status, as that call left it, names
 * @node->intr)? Then it goes on: its request in *@rp, the engine's answer
 * in *@ret, and true. Else whatever was cut is given up.
 */
static bool vcube_call_again(struct vcube_node *node, u64 req,
			     struct vc_req **rp, int *ret)
{
	struct vc_req *r = node->intr;

	lockdep_assert_held(&node->net->lock);
	if (r && node->intr_call && req && req == r->id) {
		*rp = r;
		*ret = vcube_intr_resume(node);
		return true;
	}
	vcube_intr_drop(node);
	return false;
}

static int vcube_node_send(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vcube_send a;
	struct vc_req *r;
	bool again;
	void *data;
	u64 req;
	int ret;

	if (copy_from_user(&a, argp, sizeof(a)))
		return -EFAULT;
	if (a.pad || (a.flags & ~(VCUBE_SEND_FORCED | VCUBE_SEND_NONBLOCK)))
		return -EINVAL;
	if (a.dst >= net->topo.nodes)
		return -EINVAL;
	if (a.len > net->max_msg)
		return -EMSGSIZE;
	data = kvmalloc(a.len ? a.len : 1, GFP_KERNEL_ACCOUNT);
	if (!data)
		return -ENOMEM;
	if (copy_from_user(data, u64_to_user_ptr(a.buf), a.len)) {
		kvfree(data);
		return -EFAULT;
	}
	req = a.st.req;
	memset(&a.st, 0, sizeof(a.st));
	mutex_lock(&net->lock);
	again = !(a.flags & VCUBE_SEND_NONBLOCK) &&
		vcube_call_again(node, req, &r, &ret);
	if (again)	/* its message is in flight already */
		kvfree(data);
	else
		ret = vc_send(net->engine, node->id, a.dst, a.tag,
			      a.flags & VCUBE_SEND_FORCED ? VC_SEND_FORCED : 0,
			      data, a.len, 0, &r);
	if (ret < 0) {
		mutex_unlock(&net->lock);
		return ret;
	}
	ret = vcube_req_settle(node, r, a.flags & VCUBE_SEND_NONBLOCK, again,
			       ret, &a.st);
	if ((!ret || ret == -ERESTARTSYS) && copy_to_user(argp, &a, sizeof(a)))
		ret = -EFAULT;
	return ret;
}

static int vcube_node_recv(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vcube_recv a;
	struct vc_req *r;
	bool again;
	u64 req;
	int ret;

	if (copy_from_user(&a, argp, sizeof(a)))
		return -EFAULT;
	if (a.pad || (a.flags & ~(VCUBE_RECV_NONBLOCK | VCUBE_RECV_TAGCLASS)))
		return -EINVAL;
	if ((a.flags & VCUBE_RECV_TAGCLASS) && (a.tag & ~VCUBE_TAG_CLASS_MASK))
		return -EINVAL;
	if (a.src != VCUBE_ANY && a.src >= net->topo.nodes)
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(a.buf), a.len))
		return -EFAULT;
	req = a.st.req;
	memset(&a.st, 0, sizeof(a.st));
	mutex_lock(&net->lock);
	again = !(a.flags & VCUBE_RECV_NONBLOCK) &&
		vcube_call_again(node, req, &r, &ret);
	if (!again)
		ret = vc_recv_flags(net->engine, node->id, a.src, a.tag,
				    a.flags & VCUBE_RECV_TAGCLASS, a.len, a.buf,
				    &r);
	if (ret < 0) {
		mutex_unlock(&net->lock);
		return ret;
	}
	ret = vcube_req_settle(node, r, a.flags & VCUBE_RECV_NONBLOCK, again,
			       ret, &a.st);
	if ((!ret || ret == -ERESTARTSYS) && copy_to_user(argp, &a, sizeof(a)))
		ret = -EFAULT;
	return ret;
}

static int vcube_node_wait(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vcube_wait a;
	struct vc_msg *m = NULL;
	struct vc_req *r;
	u64 user, cap;
	int ret;

	if (copy_from_user(&a, argp, sizeof(a)))
		return -EFAULT;
	if (a.pad || (a.flags & ~VCUBE_WAIT_TEST))
		return -EINVAL;
	memset(&a.st, 0, sizeof(a.st));
	mutex_lock(&net->lock);
	r = vc_req_find(net->engine, node->id, a.req);
	if (!r) {
		ret = -EINVAL;
		goto out;
	}
	if (r == node->intr) {		/* a wait a signal cut, again */
		ret = vcube_intr_resume(node);
	} else {
		vcube_intr_drop(node);
		WRITE_ONCE(node->woken, false);
		if (a.flags & VCUBE_WAIT_TEST)
			ret = vc_test(net->engine, node->id, r);
		else
			ret = vc_wait(net->engine, node->id, r);
	}
	ret = vcube_block(node, ret, r);
	if (ret == -ERESTARTSYS)	/* now the caller's, named */
		node->intr_call = false;
	if (ret < 0)
		goto out;
	ret = 0;
	if (!r->done) {
		a.st.req = r->id;
		goto out;
	}
	m = vcube_req_finish(net, r, &a.st, &user, &cap);
out:
	mutex_unlock(&net->lock);
	if (m)
		ret = vcube_copy_payload(m, user, cap);
	if (!ret && copy_to_user(argp, &a, sizeof(a)))
		ret = -EFAULT;
	return ret;
}

/*
 * A control-network operation: the operand is copied in before the lock
 * (the engine keeps that buffer), the node blocks until every member is
 * in, and what it gets back, the members' operands, is copied out with
 * the lock dropped while a reference holds them.
 */
static int vcube_node_cnet(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vc_cnet_args ca;
	struct vc_cnet_op *op = NULL;
	struct vcube_cnet a;
	void __user *rbuf;
	void *data = NULL;
	struct vc_req *r;
	u64 in, out, piece;
	u32 i, pieces;
	int ret;

	if (copy_from_user(&a, argp, sizeof(a)))
		return -EFAULT;
	if (a.pad || a.flags)
		return -EINVAL;
	ca = (struct vc_cnet_args){
		.kind = a.kind, .op = a.op, .type = a.type, .root = a.root,
		.first = a.first, .nodes = a.nodes, .count = a.count,
	};
	/* the parameters and topology it reads never change after init */
	ret = vc_cnet_check(net->engine, node->id, &ca, &in, &out);
	if (ret)
		return ret;
	if (a.rlen < out)
		return -EMSGSIZE;
	rbuf = u64_to_user_ptr(a.rbuf);
	if (out && !access_ok(rbuf, out))
		return -EFAULT;
	if (in) {
		data = kvmalloc(in, GFP_KERNEL_ACCOUNT);
		if (!data)
			return -ENOMEM;
		if (copy_from_user(data, u64_to_user_ptr(a.sbuf), in)) {
			kvfree(data);
			return -EFAULT;
		}
	}
	mutex_lock(&net->lock);
	vcube_intr_drop(node);
	ret = vc_cnet_enter(net->engine, node->id, &ca, data, &r);
	if (ret) {
		mutex_unlock(&net->lock);
		return ret;
	}
	WRITE_ONCE(node->woken, false);
	ret = vcube_block(node, vc_wait(net->engine, node->id, r), NULL);
	if (!ret) {
		a.time = r->done_time;
		op = vc_cnet_take(r, &pieces, &piece, &a.last);
	}
	/* done, or left: a signal, or no member can come any more */
	vc_req_free(net->engine, r);
	mutex_unlock(&net->lock);
	if (!op)
		return ret;
	for (i = 0; i < pieces && piece && !ret; i++)
		if (copy_to_user(rbuf + i * piece, vc_cnet_piece(op, i), piece))
			ret = -EFAULT;
	mutex_lock(&net->lock);
	vc_cnet_put(op);
	mutex_unlock(&net->lock);
	if (!ret && copy_to_user(argp, &a, sizeof(a)))
		ret = -EFAULT;
	return ret;
}

/* Cancel a posted receive (VCUBE_IOC_CANCEL). */
static int vcube_node_cancel(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vc_req *r;
	u64 req;
	int ret;

	if (get_user(req, (u64 __user *)argp))
		return -EFAULT;
	mutex_lock(&net->lock);
	vcube_intr_drop(node);	/* first: it may free what a signal cut */
	r = vc_req_find(net->engine, node->id, req);
	ret = r ? vc_cancel(net->engine, node->id, r) : -EINVAL;
	mutex_unlock(&net->lock);
	return ret;
}

/* A local copy: the node's processor is busy copy_byte_ps per byte. */
static int vcube_node_copy(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vcube_copy c;
	int ret;

	if (copy_from_user(&c, argp, sizeof(c)))
		return -EFAULT;
	if (c.ns)	/* out only: must come in as 0 */
		return -EINVAL;
	/* a bad pointer must not cost the node its time */
	if (!access_ok(argp, sizeof(c)))
		return -EFAULT;
	mutex_lock(&net->lock);
	vcube_intr_drop(node);
	ret = vc_copy(net->engine, node->id, c.bytes, &c.ns);
	mutex_unlock(&net->lock);
	if (!ret && copy_to_user(argp, &c, sizeof(c)))
		return -EFAULT;
	return ret;
}

/* A phase of the node's own, in the trace (VCUBE_IOC_MARK). */
static int vcube_node_mark(struct vcube_node *node, void __user *argp)
{
	struct vcube_net *net = node->net;
	struct vcube_mark m;
	size_t i;
	int ret;

	static_assert(VCUBE_MARK_LEN == VC_MARK_LEN);
	if (copy_from_user(&m, argp, sizeof(m)))
		return -EFAULT;
	for (i = 0; i < sizeof(m.label) && m.label[i]; i++)
		if (m.label[i] < 0x20 || m.label[i] > 0x7e)
			return -EINVAL;
	if (i == sizeof(m.label))
		return -EINVAL;
	mutex_lock(&net->lock);
	vcube_intr_drop(node);
	ret = vc_mark(net->engine, node->id, m.label);
	mutex_unlock(&net->lock);
	return ret;
}

static long vcube_node_op(struct vcube_node *node, unsigned int cmd,
			  void __user *argp)
{
	struct vcube_net *net = node->net;
	u64 t;
	int ret;

	lockdep_assert_held(&node->op_lock);
	switch (cmd) {
	case VCUBE_IOC_SEND:
		return vcube_node_send(node, argp);
	case VCUBE_IOC_RECV:
		return vcube_node_recv(node, argp);
	case VCUBE_IOC_WAIT:
		return vcube_node_wait(node, argp);
	case VCUBE_IOC_CLOCK:
		mutex_lock(&net->lock);
		t = vc_clock(net->engine, node->id);
		mutex_unlock(&net->lock);
		return put_user(t, (u64 __user *)argp);
	case VCUBE_IOC_DELAY:
		if (get_user(t, (u64 __user *)argp))
			return -EFAULT;
		mutex_lock(&net->lock);
		vcube_intr_drop(node);
		ret = vc_delay(net->engine, node->id, t);
		mutex_unlock(&net->lock);
		return ret;
	case VCUBE_IOC_CNET:
		return vcube_node_cnet(node, argp);
	case VCUBE_IOC_COPY:
		return vcube_node_copy(node, argp);
	case VCUBE_IOC_CANCEL:
		return vcube_node_cancel(node, argp);
	case VCUBE_IOC_MARK:
		return vcube_node_mark(node, argp);
	case VCUBE_IOC_JITTER:
		/* a bad pointer must not cost the node its draw */
		if (!access_ok(argp, sizeof(u64)))
			return -EFAULT;
		mutex_lock(&net->lock);
		vcube_intr_drop(node);
		ret = vc_jitter(net->engine, node->id, &t);
		mutex_unlock(&net->lock);
		if (!ret && put_user(t, (u64 __user *)argp))
			return -EFAULT;
		return ret;
	default:
		return -ENOTTY;
	}
}

static long vcube_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vcube_node *node = file->private_data;
	void __user *argp = (void __user *)arg;
	long ret;

	/* deleted: every call fails (one racing the deletion may not) */
	if (READ_ONCE(node->net->dead))
		return -ENODEV;
	switch (cmd) {
	case VCUBE_IOC_NODE_INFO:
		return vcube_node_info(node, argp);
	case VCUBE_IOC_ROUTE:
		return vcube_node_route(node, argp);
	case VCUBE_IOC_SEND:
	case VCUBE_IOC_RECV:
	case VCUBE_IOC_WAIT:
	case VCUBE_IOC_CLOCK:
	case VCUBE_IOC_DELAY:
	case VCUBE_IOC_JITTER:
	case VCUBE_IOC_CNET:
	case VCUBE_IOC_COPY:
	case VCUBE_IOC_CANCEL:
	case VCUBE_IOC_MARK:
		/* Read-only, a node may be looked at, not take part. */
		if (!(file->f_mode & FMODE_WRITE))
			return -EBADF;
		/*
		 * Nor from another process than the one that bound it (a fork,
		 * a descriptor passed on; it may exec, as under vcube-run): a
		 * receive's payload goes, at the wait, into the caller's memory.
		 */
		if (task_tgid(current) != node->tgid)
			return -EPERM;
		/* A request must not be waited for by two callers at once. */
		if (mutex_lock_interruptible(&node->op_lock))
			return -ERESTARTSYS;
		vcube_lease_enter(node);
		ret = vcube_node_op(node, cmd, argp);
		vcube_lease_leave(node);
		mutex_unlock(&node->op_lock);
		return ret;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations vcube_fops = {
	.owner = THIS_MODULE,
	.open = vcube_open,
	.release = vcube_release,
	.unlocked_ioctl = vcube_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* ---- sysfs: per node -------------------------------------------------- */

static ssize_t node_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", to_vcube_node(dev)->id);
}
static DEVICE_ATTR_RO(node);

static ssize_t coords_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct vcube_node *node = to_vcube_node(dev);
	char c[32];

	vcube_topo_format_coords(&node->net->topo, node->id, c, sizeof(c));
	return sysfs_emit(buf, "%s\n", c);
}
static DEVICE_ATTR_RO(coords);

static ssize_t neighbors_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct vcube_node *node = to_vcube_node(dev);
	u32 nb[VCUBE_TOPO_MAX_NEIGHBORS];
	int n, i, len = 0;

	n = vcube_topo_neighbors(&node->net->topo, node->id, nb,
				 ARRAY_SIZE(nb));
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, i ? " %u" : "%u", nb[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(neighbors);

static ssize_t owner_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vcube_node *node = to_vcube_node(dev);
	pid_t owner;

	/* as the reader's PID namespace numbers it (0: not visible there) */
	if (mutex_lock_killable(&node->net->lock))
		return -EINTR;
	owner = node->tgid ? pid_vnr(node->tgid) : 0;
	mutex_unlock(&node->net->lock);
	return sysfs_emit(buf, "%d\n", owner);
}
static DEVICE_ATTR_RO(owner);

/* Noise: when the node's first interrupt falls (fixed for the module). */
static ssize_t noise_phase_ns_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct vcube_node *node = to_vcube_node(dev);

	return sysfs_emit(buf, "%llu\n", (unsigned long long)
			  vc_noise_phase(node->net->engine, node->id));
}
static DEVICE_ATTR_RO(noise_phase_ns);

static struct attribute *vcube_node_attrs[] = {
	&dev_attr_node.attr,
	&dev_attr_coords.attr,
	&dev_attr_neighbors.attr,
	&dev_attr_owner.attr,
	&dev_attr_noise_phase_ns.attr,
	NULL
};
static const struct attribute_group vcube_node_group = {
	.attrs = vcube_node_attrs,
};

static const struct attribute_group *vcube_node_groups[] = {
	&vcube_node_group,
	NULL
};

/* /dev/vcube<id> for the default network, /dev/vcube/<name>/<id> else. */
static char *vcube_node_devnode(vcube_devnode_device *dev, umode_t *mode,
				kuid_t *uid, kgid_t *gid)
{
	const struct vcube_node *node = container_of(dev, struct vcube_node,
						     dev);
	const struct vcube_net *net = node->net;

	if (mode)
		*mode = net->mode;
	if (uid)
		*uid = net->uid;
	if (net->is_default)
		return NULL;
	return kasprintf(GFP_KERNEL, "vcube/%s/%u", net->name, node->id);
}

static const struct device_type vcube_node_type = {
	.name = "vcube_node",
	.groups = vcube_node_groups,
	.devnode = vcube_node_devnode,
};

/* ---- sysfs: the network ------------------------------------------------ */

/*
 * Each fact of a network is shown in its own directory,
 * /sys/class/vcube_net/<name>/, and for the default network also in
 * /sys/class/vcube/, where it was before networks were objects.
 */
static int vcube_is_default(struct device *dev, const void *data)
{
	return to_vcube_net(dev)->is_default;
}

static struct class vcube_net_class;

static ssize_t vcube_default_show(char *buf,
				  ssize_t (*show)(const struct vcube_net *,
						  char *))
{
	struct device *dev = class_find_device(&vcube_net_class, NULL, NULL,
					       vcube_is_default);
	ssize_t ret;

	if (!dev)
		return -ENODEV;
	ret = show(to_vcube_net(dev), buf);
	put_device(dev);
	return ret;
}

#define VCUBE_NET_SHOW(name, fmt, ...)					\
static ssize_t vcube_net_##name(const struct vcube_net *net, char *buf) \
{									\
	return sysfs_emit(buf, fmt "\n", __VA_ARGS__);			\
}									\
VCUBE_NET_ATTRS(name)

#define VCUBE_NET_ATTRS(name)						\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return vcube_net_##name(to_vcube_net(dev), buf);		\
}									\
static DEVICE_ATTR_RO(name);						\
static ssize_t class_##name##_show(vcube_class_const struct class *class, \
			vcube_class_const struct class_attribute *attr,	\
			char *buf)					\
{									\
	return vcube_default_show(buf, vcube_net_##name);		\
}									\
static struct class_attribute class_attr_##name =			\
	__ATTR(name, 0444, class_##name##_show, NULL)

VCUBE_NET_SHOW(id, "%u", net->id);
VCUBE_NET_SHOW(mode, "%#o", net->mode);
VCUBE_NET_SHOW(topology, "%s", vcube_topo_kind_name(net->topo.kind));
VCUBE_NET_SHOW(nodes, "%u", net->topo.nodes);
VCUBE_NET_SHOW(channels, "%u", net->topo.nchan);
VCUBE_NET_SHOW(diameter, "%u", vcube_topo_diameter(&net->topo));
VCUBE_NET_SHOW(profile, "%s", net->profile);
VCUBE_NET_SHOW(arbitration, "%s", net->params.arb_lowest ? "lowest" : "fifo");
VCUBE_NET_SHOW(switching, "%s", vcube_switching_name(net->params.switching));
VCUBE_NET_SHOW(lanes, "%u", net->params.lanes);
VCUBE_NET_SHOW(gamma, "%u", net->params.gamma);
VCUBE_NET_SHOW(seed, "%llu", (unsigned long long)net->topo.seed);
VCUBE_NET_SHOW(noise_period_ns, "%llu",
	       (unsigned long long)net->params.noise_period);
VCUBE_NET_SHOW(noise_cost_ns, "%llu",
	       (unsigned long long)net->params.noise_cost);
VCUBE_NET_SHOW(jitter_ns, "%llu", (unsigned long long)net->params.jitter);
VCUBE_NET_SHOW(jitter_dist, "%s",
	       net->params.jitter_dist == VC_JITTER_ONE ? "one" : "uniform");
VCUBE_NET_SHOW(send_port_early, "%u", net->params.sport_early);
VCUBE_NET_SHOW(channel_early, "%u", net->params.chan_early);
VCUBE_NET_SHOW(copy_byte_ps, "%llu", (unsigned long long)net->params.copy_ps);
VCUBE_NET_SHOW(duplex_ns, "%llu", (unsigned long long)net->params.duplex);
VCUBE_NET_SHOW(recv_ns, "%llu", (unsigned long long)net->params.recv);
VCUBE_NET_SHOW(fc_bufs, "%u", net->params.fc_bufs);
VCUBE_NET_SHOW(eject, "%u", net->params.eject);
VCUBE_NET_SHOW(sysbuf, "%llu", (unsigned long long)net->params.sysbuf);
VCUBE_NET_SHOW(cnet_word_ns, "%llu",
	       (unsigned long long)net->params.cnet_word);
VCUBE_NET_SHOW(cnet_double_ns, "%llu",
	       (unsigned long long)net->params.cnet_double);
VCUBE_NET_SHOW(cnet_bcast_ns, "%llu",
	       (unsigned long long)net->params.cnet_bcast);
VCUBE_NET_SHOW(short_byte_ps, "%llu",
	       (unsigned long long)net->params.cost[VC_CLASS_SHORT].byte_ps);
VCUBE_NET_SHOW(inject_byte_ps, "%llu",
	       (unsigned long long)net->params.inject_ps);
VCUBE_NET_SHOW(eject_byte_ps, "%llu",
	       (unsigned long long)net->params.eject_ps);
VCUBE_NET_SHOW(max_msg, "%llu", (unsigned long long)net->max_msg);

static ssize_t vcube_net_shape(const struct vcube_net *net, char *buf)
{
	int len = vcube_topo_format_shape(&net->topo, buf, PAGE_SIZE - 1);

	return len < 0 ? len : len + sysfs_emit_at(buf, len, "\n");
}
VCUBE_NET_ATTRS(shape);

static struct attribute *vcube_class_attrs[] = {
	&class_attr_id.attr,
	&class_attr_mode.attr,
	&class_attr_topology.attr,
	&class_attr_nodes.attr,
	&class_attr_channels.attr,
	&class_attr_diameter.attr,
	&class_attr_shape.attr,
	&class_attr_profile.attr,
	&class_attr_switching.attr,
	&class_attr_arbitration.attr,
	&class_attr_lanes.attr,
	&class_attr_gamma.attr,
	&class_attr_seed.attr,
	&class_attr_noise_period_ns.attr,
	&class_attr_noise_cost_ns.attr,
	&class_attr_jitter_ns.attr,
	&class_attr_jitter_dist.attr,
	&class_attr_send_port_early.attr,
	&class_attr_channel_early.attr,
	&class_attr_copy_byte_ps.attr,
	&class_attr_duplex_ns.attr,
	&class_attr_recv_ns.attr,
	&class_attr_fc_bufs.attr,
	&class_attr_eject.attr,
	&class_attr_sysbuf.attr,
	&class_attr_cnet_word_ns.attr,
	&class_attr_cnet_double_ns.attr,
	&class_attr_cnet_bcast_ns.attr,
	&class_attr_short_byte_ps.attr,
	&class_attr_inject_byte_ps.attr,
	&class_attr_eject_byte_ps.attr,
	&class_attr_max_msg.attr,
	NULL
};
ATTRIBUTE_GROUPS(vcube_class);

static struct attribute *vcube_net_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_mode.attr,
	&dev_attr_topology.attr,
	&dev_attr_nodes.attr,
	&dev_attr_channels.attr,
	&dev_attr_diameter.attr,
	&dev_attr_shape.attr,
	&dev_attr_profile.attr,
	&dev_attr_switching.attr,
	&dev_attr_arbitration.attr,
	&dev_attr_lanes.attr,
	&dev_attr_gamma.attr,
	&dev_attr_seed.attr,
	&dev_attr_noise_period_ns.attr,
	&dev_attr_noise_cost_ns.attr,
	&dev_attr_jitter_ns.attr,
	&dev_attr_jitter_dist.attr,
	&dev_attr_send_port_early.attr,
	&dev_attr_channel_early.attr,
	&dev_attr_copy_byte_ps.attr,
	&dev_attr_duplex_ns.attr,
	&dev_attr_recv_ns.attr,
	&dev_attr_fc_bufs.attr,
	&dev_attr_eject.attr,
	&dev_attr_sysbuf.attr,
	&dev_attr_cnet_word_ns.attr,
	&dev_attr_cnet_double_ns.attr,
	&dev_attr_cnet_bcast_ns.attr,
	&dev_attr_short_byte_ps.attr,
	&dev_attr_inject_byte_ps.attr,
	&dev_attr_eject_byte_ps.attr,
	&dev_attr_max_msg.attr,
	NULL
};
ATTRIBUTE_GROUPS(vcube_net);

/* The default network's nodes, and its facts (/sys/class/vcube). */
static struct class vcube_class = {
	.name = "vcube",
	.class_groups = vcube_class_groups,
};

/* Every network: /sys/class/vcube_net/<name>. */
static struct class vcube_net_class = {
	.name = "vcube_net",
	.dev_groups = vcube_net_groups,
};

/* ---- creation and removal ----------------------------------------------- */

static void vcube_node_release(struct device *dev)
{
	struct vcube_node *node = to_vcube_node(dev);
	struct vcube_net *net = node->net;

	mutex_destroy(&node->op_lock);
	if (node->minor >= 0)
		ida_free(&vcube_minors, node->minor);
	kfree(node);
	put_device(&net->dev);
}

static int vcube_node_add(struct vcube_net *net, u32 id)
{
	struct vcube_node *node;
	int ret;

	node = kzalloc(sizeof(*node), GFP_KERNEL_ACCOUNT);
	if (!node)
		return -ENOMEM;
	node->net = net;
	node->id = id;
	init_waitqueue_head(&node->wq);
	mutex_init(&node->op_lock);
	INIT_DELAYED_WORK(&node->lease, vcube_lease_work);
	device_initialize(&node->dev);
	get_device(&net->dev);	/* the node's release puts it */
	node->dev.release = vcube_node_release;
	node->dev.type = &vcube_node_type;
	node->dev.parent = &net->dev;
	/* the default network's nodes are /sys/class/vcube/vcube<id> */
	if (net->is_default)
		node->dev.class = &vcube_class;
	node->minor = ida_alloc_max(&vcube_minors, VCUBE_MINORS - 1,
				    GFP_KERNEL);
	if (node->minor < 0) {
		ret = node->minor;
		goto err_put;
	}
	node->dev.devt = MKDEV(MAJOR(vcube_devt), node->minor);
	ret = dev_set_name(&node->dev, "vcube%u", id);
	if (ret)
		goto err_put;
	cdev_init(&node->cdev, &vcube_fops);
	node->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&node->cdev, &node->dev);
	if (ret)
		goto err_put;
	net->nodes[id] = node;
	return 0;

err_put:
	put_device(&node->dev);
	return ret;
}

/* Nodes 0 .. @n - 1 go: their devices, and the network's hold on them. */
static void vcube_nodes_del(struct vcube_net *net, u32 n)
{
	struct vcube_node *node;
	u32 id;

	for (id = 0; id < n; id++) {
		node = net->nodes[id];
		cdev_device_del(&node->cdev, &node->dev);
		mutex_lock(&net->lock);
		net->nodes[id] = NULL;
		mutex_unlock(&net->lock);
		put_device(&node->dev);
	}
}

/* A network made, before vcube_dev_add(): its device, not yet added. */
void vcube_dev_net_init(struct vcube_net *net,
			void (*release)(struct device *dev))
{
	device_initialize(&net->dev);
	net->dev.class = &vcube_net_class;
	net->dev.release = release;
}

/**
 * vcube_dev_add() - a network's devices: its own and its nodes'
 * @net: the network, its engine made
 *
 * Return: 0, or -errno with nothing added.
 */
int vcube_dev_add(struct vcube_net *net)
{
	u32 n = net->topo.nodes, id;
	int ret;

	net->nodes = kvcalloc(n, sizeof(*net->nodes), GFP_KERNEL_ACCOUNT);
	if (!net->nodes)
		return -ENOMEM;
	vc_engine_set_wake(net->engine, vcube_wake, net);
	ret = dev_set_name(&net->dev, "%s", net->name);
	if (!ret)
		ret = device_add(&net->dev);
	if (ret)
		return ret;
	for (id = 0; id < n; id++) {
		ret = vcube_node_add(net, id);
		if (ret)
			goto err_nodes;
	}
	return 0;

err_nodes:
	vcube_nodes_del(net, id);
	device_del(&net->dev);
	return ret;
}

/**
 * vcube_dev_del() - a network is deleted: its devices go
 * @net: the network, added by vcube_dev_add()
 *
 * Every call blocked on one of its nodes is woken to fail with -ENODEV,
 * as every later one does; files still open keep the nodes (and the
 * network) until they are closed.
 */
void vcube_dev_del(struct vcube_net *net)
{
	u32 id;

	mutex_lock(&net->lock);
	WRITE_ONCE(net->dead, true);
	vc_engine_set_notify(net->engine, NULL, NULL);
	for (id = 0; id < net->topo.nodes; id++) {
		WRITE_ONCE(net->nodes[id]->woken, true);
		wake_up(&net->nodes[id]->wq);
	}
	mutex_unlock(&net->lock);
	vcube_nodes_del(net, net->topo.nodes);
	device_del(&net->dev);
}

/* The classes and the device numbers, for every network to come. */
int vcube_dev_init(void)
{
	int ret;

	ret = class_register(&vcube_class);
	if (ret)
		return ret;
	ret = class_register(&vcube_net_class);
	if (ret)
		goto err_class;
	ret = alloc_chrdev_region(&vcube_devt, 0, VCUBE_MINORS, "vcube");
	if (ret)
		goto err_net_class;
	return 0;

err_net_class:
	class_unregister(&vcube_net_class);
err_class:
	class_unregister(&vcube_class);
	return ret;
}

/* Every network is gone. */
void vcube_dev_exit(void)
{
	unregister_chrdev_region(vcube_devt, VCUBE_MINORS);
	class_unregister(&vcube_net_class);
	class_unregister(&vcube_class);
	WARN_ON(!ida_is_empty(&vcube_minors));
	ida_destroy(&vcube_minors);
}
