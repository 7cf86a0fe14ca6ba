// SPDX-License-Identifier: GPL-2.0
/*
 * vcube: networks as objects. A network is made in a network namespace,
 * from the module's parameters (the default one, in the initial
 * namespace) or by netlink's net-new; it is found there by id or name,
 * and deleted by net-del, by its namespace's exit, by the close of the
 * socket that made it (destroy-on-close) or at rmmod.
 *
 * Locking: vcube_nets_lock guards vcube_nets (every network, by id, with
 * its listed flag), each namespace's counts and the pool's. It is taken
 * before a network's own lock, never inside it, and never held across a
 * network's creation or deletion work. A network's reference count is its
 * device's (struct vcube_net.dev): the registry holds one while it is
 * listed, each of its node devices one, each vcube_net_get() one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "vcube.h"

/*
 * What a network counts against the bounds, beside its max_inflight, its
 * trace and a graph's tables: an estimate of the engine's memory per node
 * and per channel (the memory cgroup is charged with the exact amount).
 */
#define VCUBE_NODE_CHARGE	4096
#define VCUBE_CHAN_CHARGE	256

/* The networks of a namespace, or of the pool, and what they hold. */
struct vcube_count {
	u32 nets;
	u32 nodes;
	u64 bytes;
};

static unsigned int vcube_pernet_id;
static DEFINE_MUTEX(vcube_nets_lock);
/* every network, by id; an entry is NULL while its creation may fail */
static DEFINE_IDR(vcube_nets);
/* networks made in namespaces of user namespaces other than the initial */
static struct vcube_count vcube_pool;
/* the bounds on each count; read-only after vcube_net_init() */
static struct vcube_count vcube_bound;

static struct vcube_count *vcube_ns_count(struct net *ns)
{
	return net_generic(ns, vcube_pernet_id);
}

/* 1 to 15 of A-Z a-z 0-9 _ -, a letter first: a path component anywhere. */
static bool vcube_name_ok(const char *name)
{
	size_t i;

	if (!isalpha(name[0]))
		return false;
	for (i = 1; name[i]; i++)
		if (i >= VCUBE_NAME_LEN - 1 ||
		    !(isalnum(name[i]) || name[i] == '_' || name[i] == '-'))
			return false;
	return true;
}

static u64 vcube_net_charge(const struct vcube_net *net)
{
	return net->params.max_inflight +
	       (u64)net->params.trace_max * sizeof(struct vc_trace_rec) +
	       (u64)net->topo.nodes * VCUBE_NODE_CHARGE +
	       (u64)net->topo.nchan * VCUBE_CHAN_CHARGE +
	       (net->topo.graph ? vcube_graph_bytes(net->topo.graph) : 0);
}

/* Room in @cnt for @net? Else -ENOSPC and which bound, in @err. */
static int vcube_count_room(const struct vcube_count *cnt, const char *whose,
			    const struct vcube_net *net, char *err,
			    size_t len)
{
	if (cnt->nets + 1 > vcube_bound.nets)
		scnprintf(err, len, "the %s has max_nets=%u networks already",
			  whose, vcube_bound.nets);
	else if (cnt->nodes + net->topo.nodes > vcube_bound.nodes)
		scnprintf(err, len,
			  "the %s has %u nodes of max_nodes=%u; this network has %u",
			  whose, cnt->nodes, vcube_bound.nodes,
			  net->topo.nodes);
	else if (cnt->bytes + net->charge > vcube_bound.bytes)
		scnprintf(err, len,
			  "the %s holds %llu MiB of max_bytes; this network needs %llu MiB more",
			  whose, cnt->bytes >> 20,
			  (cnt->bytes + net->charge - vcube_bound.bytes + SZ_1M - 1) >> 20);
	else
		return 0;
	return -ENOSPC;
}

static void vcube_count_add(struct vcube_count *cnt,
			    const struct vcube_net *net, int sign)
{
	cnt->nets += sign;
	cnt->nodes += sign * (s64)net->topo.nodes;
	cnt->bytes += sign * (s64)net->charge;
}

/* Under vcube_nets_lock: is @name any network's, listed or being made? */
static bool vcube_name_taken(const char *name)
{
	struct vcube_net *net;
	int id;

	lockdep_assert_held(&vcube_nets_lock);
	idr_for_each_entry(&vcube_nets, net, id)
		if (!strcmp(net->name, name))
			return true;
	return false;
}

/*
 * Take @net's place: its id, its name, its room in its namespace (and the
 * pool). Not yet listed: lookups do not find it.
 */
static int vcube_net_reserve(struct vcube_net *net, char *err, size_t len)
{
	struct vcube_count *cnt = vcube_ns_count(net->ns);
	int id, ret;

	mutex_lock(&vcube_nets_lock);
	if (vcube_name_taken(net->name)) {
		scnprintf(err, len, "a network named %s exists", net->name);
		ret = -EEXIST;
		goto out;
	}
	ret = vcube_count_room(cnt, "namespace", net, err, len);
	if (!ret && net->pooled)
		ret = vcube_count_room(&vcube_pool, "pool", net, err, len);
	if (ret)
		goto out;
	id = idr_alloc_cyclic(&vcube_nets, net, 0, INT_MAX, GFP_KERNEL);
	if (id < 0) {
		scnprintf(err, len, "no network number left");
		ret = id;
		goto out;
	}
	net->id = id;
	vcube_count_add(cnt, net, 1);
	if (net->pooled)
		vcube_count_add(&vcube_pool, net, 1);
out:
	mutex_unlock(&vcube_nets_lock);
	return ret;
}

/* Under vcube_nets_lock: give up @net's id, name and room. */
static void vcube_net_unreserve(struct vcube_net *net)
{
	lockdep_assert_held(&vcube_nets_lock);
	idr_remove(&vcube_nets, net->id);
	vcube_count_add(vcube_ns_count(net->ns), net, -1);
	if (net->pooled)
		vcube_count_add(&vcube_pool, net, -1);
}

/* The last reference is gone: no device, no file, no lookup has it. */
static void vcube_net_release(struct device *dev)
{
	struct vcube_net *net = to_vcube_net(dev);

	if (net->engine)
		vc_engine_destroy(net->engine);
	vcube_topo_fini(&net->topo);
	kvfree(net->nodes);
	mutex_destroy(&net->lock);
	kfree(net);
}

/* Fill @net's model from @c; -EINVAL with @err. */
static int vcube_net_model(struct vcube_net *net, struct vcube_conf *c,
			   char *err, size_t len)
{
	struct vcube_model *m;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	ret = vcube_conf_apply(c, m, err, len);
	if (!ret) {
		net->topo = m->topo;
		strscpy(net->profile, m->profile, sizeof(net->profile));
		net->params = m->params;
		net->max_msg = m->max_msg;
		net->mode = m->mode;
		net->lease = msecs_to_jiffies(m->idle_lease_ms);
	}
	kfree(m);
	return ret;
}

/**
 * vcube_net_new() - make a network, its engine and its devices
 * @ns: the network namespace it belongs to
 * @name: its name (checked here)
 * @c: its description (params.h); the shape it took is written back
 * @is_default: the module parameters' network (/dev/vcube<rank>)
 * @portid: destroy-on-close: the creator's netlink socket; 0: none
 * @err: one line saying why not, on failure
 * @len: @err's size
 *
 * Allocations are charged to the caller's memory cgroup.
 *
 * Return: the network, listed, with a reference for the caller; or an
 * ERR_PTR: -EINVAL (a bad description), -EEXIST (the name is taken),
 * -ENOSPC (past a bound), -ENOMEM.
 */
struct vcube_net *vcube_net_new(struct net *ns, const char *name,
				struct vcube_conf *c, bool is_default,
				u32 portid, char *err, size_t len)
{
	struct vcube_net *net;
	int ret;

	if (!vcube_name_ok(name)) {
		scnprintf(err, len,
			  "bad name %.16s: 1 to 15 of a-z A-Z 0-9 _ -, a letter first",
			  name);
		return ERR_PTR(-EINVAL);
	}
	/* libvcube and the tools take "default" for the module's network */
	if (!is_default && !strcmp(name, "default")) {
		scnprintf(err, len,
			  "the name default is the module parameters' network's");
		return ERR_PTR(-EINVAL);
	}
	net = kzalloc(sizeof(*net), GFP_KERNEL_ACCOUNT);
	if (!net)
		return ERR_PTR(-ENOMEM);
	mutex_init(&net->lock);
	strscpy(net->name, name, sizeof(net->name));
	net->ns = ns;
	net->is_default = is_default;
	net->portid = portid;
	net->uid = current_euid();
	net->pooled = ns->user_ns != &init_user_ns;
	/* from here on the device's release frees it */
	vcube_dev_net_init(net, vcube_net_release);
	ret = vcube_net_model(net, c, err, len);
	if (ret)
		goto err_put;
	net->charge = vcube_net_charge(net);
	ret = vcube_net_reserve(net, err, len);
	if (ret)
		goto err_put;
	net->engine = vc_engine_create(&net->topo, &net->params);
	if (!net->engine) {
		scnprintf(err, len,
			  "out of memory: %u nodes, %u channels, trace=%u (%zu KiB)",
			  net->topo.nodes, net->topo.nchan,
			  net->params.trace_max,
			  (size_t)net->params.trace_max *
			  sizeof(struct vc_trace_rec) >> 10);
		ret = -ENOMEM;
		goto err_unreserve;
	}
	ret = vcube_dev_add(net);
	if (ret) {
		scnprintf(err, len, "cannot add the network's devices: %d",
			  ret);
		goto err_unreserve;
	}
	/*
	 * Only now may a node be opened, and the network be found: until
	 * here a failure frees all under any open (which got -ENODEV).
	 */
	mutex_lock(&net->lock);
	net->ready = true;
	mutex_unlock(&net->lock);
	get_device(&net->dev);	/* the caller's; the registry keeps its own */
	mutex_lock(&vcube_nets_lock);
	net->listed = true;
	mutex_unlock(&vcube_nets_lock);
	return net;

err_unreserve:
	mutex_lock(&vcube_nets_lock);
	vcube_net_unreserve(net);
	mutex_unlock(&vcube_nets_lock);
err_put:
	put_device(&net->dev);
	return ERR_PTR(ret);
}

/**
 * vcube_net_del() - delete a network the caller holds a reference to
 * @net: the network
 *
 * Its name and id are free on return; its devices are gone; a call blocked
 * on one of its nodes returns -ENODEV, as does every later call on a node
 * still open. Its memory goes with the last reference (the last such
 * file, the caller's).
 *
 * Return: 0, or -ENOENT when it was deleted already.
 */
int vcube_net_del(struct vcube_net *net)
{
	mutex_lock(&vcube_nets_lock);
	if (!net->listed) {
		mutex_unlock(&vcube_nets_lock);
		return -ENOENT;
	}
	net->listed = false;
	vcube_net_unreserve(net);
	mutex_unlock(&vcube_nets_lock);
	vcube_dev_del(net);
	put_device(&net->dev);	/* the registry's */
	return 0;
}

/* What a lookup asks of a listed network of the namespace. */
struct vcube_net_key {
	u32 id;			/* VCUBE_NET_ANY: any */
	const char *name;	/* NULL: any */
	bool is_default;	/* only the default network */
	bool by_portid;		/* only those socket @portid is to delete */
	u32 portid;
};

static bool vcube_net_match(const struct vcube_net *net,
			    const struct vcube_net_key *k)
{
	return (k->id == VCUBE_NET_ANY || net->id == k->id) &&
	       (!k->name || !strcmp(net->name, k->name)) &&
	       (!k->is_default || net->is_default) &&
	       (!k->by_portid || net->portid == k->portid);
}

/*
 * The first listed network of @ns, in id order from @from, that matches
 * @k: with a reference (vcube_net_put()), or NULL. Every lookup is this.
 */
static struct vcube_net *vcube_net_first(struct net *ns, u32 from,
					 const struct vcube_net_key *k)
{
	struct vcube_net *net, *found = NULL;
	int i = from;

	if (from > INT_MAX)
		return NULL;
	mutex_lock(&vcube_nets_lock);
	idr_for_each_entry_continue(&vcube_nets, net, i) {
		if (net->listed && net->ns == ns && vcube_net_match(net, k)) {
			get_device(&net->dev);
			found = net;
			break;
		}
	}
	mutex_unlock(&vcube_nets_lock);
	return found;
}

/**
 * vcube_net_get() - find a network of a namespace
 * @ns: the namespace
 * @id: its id, or VCUBE_NET_ANY
 * @name: its name, or NULL
 *
 * With neither @id nor @name, the namespace's default network (the module
 * parameters'); with both, the network must have both.
 *
 * Return: the network with a reference (vcube_net_put()), or NULL.
 */
struct vcube_net *vcube_net_get(struct net *ns, u32 id, const char *name)
{
	struct vcube_net_key k = {
		.id = id, .name = name,
		.is_default = id == VCUBE_NET_ANY && !name,
	};

	return vcube_net_first(ns, 0, &k);
}

/* The first network of @ns whose id is @from or more (a dump's next). */
struct vcube_net *vcube_net_get_next(struct net *ns, u32 from)
{
	struct vcube_net_key k = { .id = VCUBE_NET_ANY };

	return vcube_net_first(ns, from, &k);
}

/* A network of @ns that the close of socket @portid is to delete. */
struct vcube_net *vcube_net_get_portid(struct net *ns, u32 portid)
{
	struct vcube_net_key k = {
		.id = VCUBE_NET_ANY, .by_portid = true, .portid = portid,
	};

	return vcube_net_first(ns, 0, &k);
}

void vcube_net_put(struct vcube_net *net)
{
	put_device(&net->dev);
}

/* A namespace going away takes its networks with it. */
static void __net_exit vcube_pernet_exit(struct net *ns)
{
	struct vcube_net *net;

	while ((net = vcube_net_get_next(ns, 0))) {
		vcube_net_del(net);
		vcube_net_put(net);
	}
}

static struct pernet_operations vcube_pernet_ops = {
	.exit = vcube_pernet_exit,
	.id = &vcube_pernet_id,
	.size = sizeof(struct vcube_count),
};

/**
 * vcube_net_init() - networks may be made, within these bounds
 * @max_nets: networks per namespace, and in the pool
 * @max_nodes: nodes of all networks per namespace, and in the pool
 * @max_bytes: what all the networks of a namespace may hold (and of the
 *	pool): their max_inflight, trace and an estimate per node and channel
 *
 * Return: 0 or -errno.
 */
int vcube_net_init(unsigned int max_nets, unsigned int max_nodes,
		   u64 max_bytes)
{
	vcube_bound = (struct vcube_count){ max_nets, max_nodes, max_bytes };
	return register_pernet_subsys(&vcube_pernet_ops);
}

/* Every network of every namespace deleted (no node may be open). */
void vcube_net_exit(void)
{
	unregister_pernet_subsys(&vcube_pernet_ops);
	WARN_ON(!idr_is_empty(&vcube_nets));
	idr_destroy(&vcube_nets);
}
