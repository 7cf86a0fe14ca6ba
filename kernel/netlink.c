// SPDX-License-Identifier: GPL-2.0
/*
 * vcube's generic netlink family, "vcube": networks made and deleted at
 * run time (net-new, net-del, net-get), and each network's counters, peak
 * windows and channel trace (sysfs keeps only what a network is). Every
 * command acts in the caller's network namespace, on the network its
 * net-id names or else the namespace's default one; what needs
 * CAP_NET_ADMIN needs it in the user namespace owning that namespace, as
 * mac80211_hwsim's radios do (vcube_nl_admin()).
 * Documentation/netlink/specs/vcube.yaml describes it; the ops table and
 * the family are generated from it (netlink-gen.c), the handlers are here.
 *
 * The engine updates its counters under the network's lock, and nothing
 * else: the handlers take that same lock to read them, one dump part at a
 * time, and mark a part inconsistent (NLM_F_DUMP_INTR) when the counters'
 * generation moved since the previous part. A dump finds its network again
 * for each part: one deleted meanwhile ends it with ENODEV.
 */
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink-gen.h"
#include "vcube.h"

static_assert((int)VCUBE_TOPOLOGY_HYPERCUBE == (int)VCUBE_TOPO_HYPERCUBE);
static_assert((int)VCUBE_TOPOLOGY_MESH == (int)VCUBE_TOPO_MESH);
static_assert((int)VCUBE_TOPOLOGY_TORUS == (int)VCUBE_TOPO_TORUS);
static_assert((int)VCUBE_TOPOLOGY_FATTREE == (int)VCUBE_TOPO_FATTREE);
static_assert((int)VCUBE_TOPOLOGY_DRAGONFLY == (int)VCUBE_TOPO_DRAGONFLY);
static_assert((int)VCUBE_TOPOLOGY_GRAPH == (int)VCUBE_TOPO_GRAPH);
static_assert((int)VCUBE_SWITCHING_CIRCUIT == (int)VC_SW_CIRCUIT);
static_assert((int)VCUBE_SWITCHING_WORMHOLE == (int)VC_SW_WORMHOLE);
static_assert((int)VCUBE_SWITCHING_PACKET == (int)VC_SW_PACKET);
static_assert((int)VCUBE_NODE_STATE_UNBOUND == (int)VC_UNBOUND);
static_assert((int)VCUBE_NODE_STATE_RUNNING == (int)VC_RUNNING);
static_assert((int)VCUBE_NODE_STATE_BLOCKED == (int)VC_BLOCKED);
static_assert((int)VCUBE_TRACE_KIND_PROBE == (int)VC_TRACE_PROBE);
static_assert((int)VCUBE_TRACE_KIND_REQUEST == (int)VC_TRACE_REQUEST);
static_assert((int)VCUBE_TRACE_KIND_DATA == (int)VC_TRACE_DATA);
static_assert((int)VCUBE_TRACE_KIND_MSG == (int)VC_TRACE_MSG);
static_assert((int)VCUBE_TRACE_KIND_WAIT == (int)VC_TRACE_WAIT);
static_assert((int)VCUBE_TRACE_KIND_MARK == (int)VC_TRACE_MARK);
static_assert((int)VCUBE_TRACE_PROTO_SHORT == (int)VC_PROTO_SHORT);
static_assert((int)VCUBE_TRACE_PROTO_LONG == (int)VC_PROTO_LONG);
static_assert((int)VCUBE_TRACE_PROTO_FORCED == (int)VC_PROTO_FORCED);
static_assert((int)VCUBE_TRACE_CAUSE_TRANSIT == (int)VC_CAUSE_TRANSIT);
static_assert((int)VCUBE_TRACE_CAUSE_NOSEND == (int)VC_CAUSE_NOSEND);
static_assert((int)VCUBE_TRACE_CAUSE_CHAN == (int)VC_CAUSE_CHAN);
static_assert((int)VCUBE_TRACE_CAUSE_PORT == (int)VC_CAUSE_PORT);
static_assert((int)VCUBE_TRACE_CAUSE_DUPLEX == (int)VC_CAUSE_DUPLEX);
static_assert((int)VCUBE_TRACE_CAUSE_RECV == (int)VC_CAUSE_RECV);
static_assert((int)VCUBE_TRACE_CAUSE_CNET == (int)VC_CAUSE_CNET);
static_assert((int)VCUBE_TRACE_CAUSE_COMPUTE == (int)VC_CAUSE_COMPUTE);
static_assert((int)VCUBE_TRACE_CAUSE_COPY == (int)VC_CAUSE_COPY);
static_assert((int)VCUBE_TRACE_CAUSE_JITTER == (int)VC_CAUSE_JITTER);
static_assert((int)VCUBE_NOTICE_PEAK == (int)VC_NOTICE_PEAK);
static_assert((int)VCUBE_NOTICE_DEADLOCK == (int)VC_NOTICE_DEADLOCK);

/*
 * A network's description in net-new's attributes: the module parameters'
 * words (an absent one: the module parameter's default).
 */
static const int vcube_nl_cost_attrs[] = {
	[VCUBE_COST_SHORT_BASE_NS] = VCUBE_A_NET_SHORT_BASE_NS,
	[VCUBE_COST_SHORT_BYTE_NS] = VCUBE_A_NET_SHORT_BYTE_NS,
	[VCUBE_COST_SHORT_HOP_NS] = VCUBE_A_NET_SHORT_HOP_NS,
	[VCUBE_COST_CTL_BASE_NS] = VCUBE_A_NET_CTL_BASE_NS,
	[VCUBE_COST_CTL_HOP_NS] = VCUBE_A_NET_CTL_HOP_NS,
	[VCUBE_COST_LONG_BASE_NS] = VCUBE_A_NET_LONG_BASE_NS,
	[VCUBE_COST_LONG_BYTE_NS] = VCUBE_A_NET_LONG_BYTE_NS,
	[VCUBE_COST_LONG_HOP_NS] = VCUBE_A_NET_LONG_HOP_NS,
	[VCUBE_COST_TAIL_NS] = VCUBE_A_NET_TAIL_NS,
	[VCUBE_COST_SHORT_MAX] = VCUBE_A_NET_SHORT_MAX,
	[VCUBE_COST_EJECT] = VCUBE_A_NET_EJECT,
	[VCUBE_COST_SYSBUF] = VCUBE_A_NET_SYSBUF,
	[VCUBE_COST_LANES] = VCUBE_A_NET_LANES,
	[VCUBE_COST_GAMMA] = VCUBE_A_NET_GAMMA,
	[VCUBE_COST_PACKET_PAYLOAD] = VCUBE_A_NET_PACKET_PAYLOAD,
	[VCUBE_COST_PARTIAL_NS] = VCUBE_A_NET_PARTIAL_NS,
	[VCUBE_COST_WINDOW_NS] = VCUBE_A_NET_WINDOW_NS,
	[VCUBE_COST_SEND_PORT_EARLY] = VCUBE_A_NET_SEND_PORT_EARLY,
	[VCUBE_COST_COPY_BYTE_PS] = VCUBE_A_NET_COPY_BYTE_PS,
	[VCUBE_COST_DUPLEX_NS] = VCUBE_A_NET_DUPLEX_NS,
	[VCUBE_COST_RECV_NS] = VCUBE_A_NET_RECV_NS,
	[VCUBE_COST_FC_BUFS] = VCUBE_A_NET_FC_BUFS,
	[VCUBE_COST_NOISE_PERIOD_NS] = VCUBE_A_NET_NOISE_PERIOD_NS,
	[VCUBE_COST_NOISE_COST_NS] = VCUBE_A_NET_NOISE_COST_NS,
	[VCUBE_COST_JITTER_NS] = VCUBE_A_NET_JITTER_NS,
	[VCUBE_COST_CNET_WORD_NS] = VCUBE_A_NET_CNET_WORD_NS,
	[VCUBE_COST_CNET_DOUBLE_NS] = VCUBE_A_NET_CNET_DOUBLE_NS,
	[VCUBE_COST_CNET_BCAST_NS] = VCUBE_A_NET_CNET_BCAST_NS,
	[VCUBE_COST_SHORT_BYTE_PS] = VCUBE_A_NET_SHORT_BYTE_PS,
	[VCUBE_COST_LONG_BYTE_PS] = VCUBE_A_NET_LONG_BYTE_PS,
	[VCUBE_COST_INJECT_BYTE_PS] = VCUBE_A_NET_INJECT_BYTE_PS,
	[VCUBE_COST_EJECT_BYTE_PS] = VCUBE_A_NET_EJECT_BYTE_PS,
	[VCUBE_COST_CHANNEL_EARLY] = VCUBE_A_NET_CHANNEL_EARLY,
};

static_assert(ARRAY_SIZE(vcube_nl_cost_attrs) == VCUBE_NCOSTS);

/* CAP_NET_ADMIN in the user namespace owning the caller's namespace. */
static int vcube_nl_admin(const struct sk_buff *skb,
			  struct netlink_ext_ack *extack)
{
	if (netlink_ns_capable(skb, sock_net(skb->sk)->user_ns, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "needs CAP_NET_ADMIN in the network namespace's user namespace");
	return -EPERM;
}

/*
 * The network a request names with its net-id attribute @attr, else the
 * namespace's default one: with a reference, or NULL (-ENODEV) and why.
 */
static struct vcube_net *vcube_nl_find(const struct sk_buff *skb,
				       struct nlattr **attrs, int attr,
				       struct netlink_ext_ack *extack)
{
	u32 id = attrs && attrs[attr] ? nla_get_u32(attrs[attr]) :
					VCUBE_NET_ANY;
	struct vcube_net *net = vcube_net_get(sock_net(skb->sk), id, NULL);

	if (!net && id == VCUBE_NET_ANY)
		NL_SET_ERR_MSG(extack,
			       "no default network in this network namespace (name one: net-id)");
	else if (!net)
		NL_SET_ERR_MSG(extack,
			       "no such network in this network namespace");
	return net;
}

/* The network's lock, unless it is deleted (-ENODEV) or a fatal signal. */
static int vcube_nl_lock(struct vcube_net *net)
{
	if (mutex_lock_killable(&net->lock))
		return -EINTR;
	if (net->dead) {
		mutex_unlock(&net->lock);
		return -ENODEV;
	}
	return 0;
}

static int vcube_nl_put_u64(struct sk_buff *skb, int attr, int pad, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, pad);
}

static int vcube_nl_topo_fill(struct sk_buff *skb, struct vcube_net *net)
{
	const struct vc_net_stats *st;
	char shape[VCUBE_SHAPE_LEN];
	u64 now;
	int ret;

	if (vcube_topo_format_shape(&net->topo, shape, sizeof(shape)) < 0)
		shape[0] = '\0';
	if (nla_put_u32(skb, VCUBE_A_TOPO_KIND, net->topo.kind) ||
	    nla_put_string(skb, VCUBE_A_TOPO_SHAPE, shape) ||
	    nla_put_string(skb, VCUBE_A_TOPO_PROFILE, net->profile) ||
	    nla_put_u32(skb, VCUBE_A_TOPO_SWITCHING, net->params.switching) ||
	    nla_put_u32(skb, VCUBE_A_TOPO_NODES, net->topo.nodes) ||
	    nla_put_u32(skb, VCUBE_A_TOPO_CHANNELS, net->topo.nchan) ||
	    nla_put_u32(skb, VCUBE_A_TOPO_DIAMETER,
			vcube_topo_diameter(&net->topo)))
		return -EMSGSIZE;

	lockdep_assert_held(&net->lock);
	st = vc_net_stats(net->engine);
	now = vc_now(net->engine);
	ret = nla_put_u32(skb, VCUBE_A_TOPO_LINKS,
			  vc_nchan_res(net->engine)) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_NOW, VCUBE_A_TOPO_PAD, now) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_ELAPSED, VCUBE_A_TOPO_PAD,
			       st->elapsed) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_MESSAGES, VCUBE_A_TOPO_PAD,
			       st->messages) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_TRANSFERS, VCUBE_A_TOPO_PAD,
			       st->transfers) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_WAITS, VCUBE_A_TOPO_PAD,
			       st->chan_waits) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_WAIT_NS, VCUBE_A_TOPO_PAD,
			       st->chan_wait_ns) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_DEADLOCKS, VCUBE_A_TOPO_PAD,
			       st->deadlocks) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_PORT_WAITS, VCUBE_A_TOPO_PAD,
			       st->port_waits) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_DUPLEX_WAITS, VCUBE_A_TOPO_PAD,
			       st->duplex_waits) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_EVENTS, VCUBE_A_TOPO_PAD,
			       st->events) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_LEASES, VCUBE_A_TOPO_PAD,
			       st->leases) ||
	      nla_put_u32(skb, VCUBE_A_TOPO_TRACE_MAX, net->params.trace_max) ||
	      nla_put_u32(skb, VCUBE_A_TOPO_TRACE_ON,
			  vc_trace_enabled(net->engine)) ||
	      vcube_nl_put_u64(skb, VCUBE_A_TOPO_TRACE_SEQ, VCUBE_A_TOPO_PAD,
			       vc_trace_count(net->engine)) ||
	      nla_put_u32(skb, VCUBE_A_TOPO_NET_ID, net->id);
	return ret ? -EMSGSIZE : 0;
}

/* A do command's one reply about @net, its attributes put by @fill. */
static int vcube_nl_reply(struct genl_info *info, u8 cmd,
			  struct vcube_net *net,
			  int (*fill)(struct sk_buff *, struct vcube_net *))
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq,
			  &vcube_nl_family, 0, cmd);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	ret = fill(msg, net);
	if (ret)
		goto err_free;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return ret;
}

/* A do command on the network the request names, under its lock. */
static int vcube_nl_net_reply(struct sk_buff *skb, struct genl_info *info,
			      u8 cmd, int net_attr,
			      int (*fill)(struct sk_buff *, struct vcube_net *))
{
	struct vcube_net *net;
	int ret;

	net = vcube_nl_find(skb, info->attrs, net_attr, info->extack);
	if (!net)
		return -ENODEV;
	ret = vcube_nl_lock(net);
	if (!ret) {
		ret = vcube_nl_reply(info, cmd, net, fill);
		mutex_unlock(&net->lock);
	}
	vcube_net_put(net);
	return ret;
}

int vcube_nl_topo_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return vcube_nl_net_reply(skb, info, VCUBE_CMD_TOPO_GET,
				  VCUBE_A_TOPO_NET_ID, vcube_nl_topo_fill);
}

static int vcube_nl_cnet_fill(struct sk_buff *skb, struct vcube_net *net)
{
	const struct vc_params *p = &net->params;
	const struct vc_net_stats *st;
	int ret;

	if (nla_put_u32(skb, VCUBE_A_CNET_PRESENT, vc_cnet_present(p)) ||
	    vcube_nl_put_u64(skb, VCUBE_A_CNET_WORD_NS, VCUBE_A_CNET_PAD,
			     p->cnet_word) ||
	    vcube_nl_put_u64(skb, VCUBE_A_CNET_DOUBLE_NS, VCUBE_A_CNET_PAD,
			     p->cnet_double) ||
	    vcube_nl_put_u64(skb, VCUBE_A_CNET_BCAST_NS, VCUBE_A_CNET_PAD,
			     p->cnet_bcast) ||
	    nla_put_u32(skb, VCUBE_A_CNET_NET_ID, net->id))
		return -EMSGSIZE;
	lockdep_assert_held(&net->lock);
	st = vc_net_stats(net->engine);
	ret = vcube_nl_put_u64(skb, VCUBE_A_CNET_BARRIERS, VCUBE_A_CNET_PAD,
			       st->cnet_ops[VC_CNET_BARRIER]) ||
	      vcube_nl_put_u64(skb, VCUBE_A_CNET_REDUCTIONS, VCUBE_A_CNET_PAD,
			       st->cnet_ops[VC_CNET_REDUCE]) ||
	      vcube_nl_put_u64(skb, VCUBE_A_CNET_SCANS, VCUBE_A_CNET_PAD,
			       st->cnet_ops[VC_CNET_SCAN]) ||
	      vcube_nl_put_u64(skb, VCUBE_A_CNET_BROADCASTS, VCUBE_A_CNET_PAD,
			       st->cnet_ops[VC_CNET_BCAST]) ||
	      vcube_nl_put_u64(skb, VCUBE_A_CNET_BYTES, VCUBE_A_CNET_PAD,
			       st->cnet_bytes) ||
	      vcube_nl_put_u64(skb, VCUBE_A_CNET_BUSY_NS, VCUBE_A_CNET_PAD,
			       st->cnet_busy_ns) ||
	      vcube_nl_put_u64(skb, VCUBE_A_CNET_WAIT_NS, VCUBE_A_CNET_PAD,
			       st->cnet_wait_ns);
	return ret ? -EMSGSIZE : 0;
}

int vcube_nl_cnet_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return vcube_nl_net_reply(skb, info, VCUBE_CMD_CNET_GET,
				  VCUBE_A_CNET_NET_ID, vcube_nl_cnet_fill);
}

/* One link: a channel, or with packet switching a bundle of them. */
static int vcube_nl_link_fill(struct sk_buff *skb, struct vcube_net *net,
			      u64 id)
{
	const struct vc_res_stats *st = vc_chan_stats(net->engine, id);
	struct vcube_chan_info ci;
	u32 width = 1;
	int ret;

	lockdep_assert_held(&net->lock);
	if (net->params.switching == VC_SW_PACKET)
		ret = vcube_topo_bundle_info(&net->topo, id, &ci, &width);
	else
		ret = vcube_topo_chan_info(&net->topo, id, &ci);
	if (ret)
		return ret;
	if (nla_put_u32(skb, VCUBE_A_LINK_ID, id) ||
	    nla_put_u32(skb, VCUBE_A_LINK_FROM, ci.from) ||
	    nla_put_u32(skb, VCUBE_A_LINK_TO, ci.to) ||
	    nla_put_u32(skb, VCUBE_A_LINK_FROM_LEVEL, ci.from_level) ||
	    nla_put_u32(skb, VCUBE_A_LINK_TO_LEVEL, ci.to_level) ||
	    nla_put_u32(skb, VCUBE_A_LINK_DIR, ci.dir) ||
	    nla_put_u32(skb, VCUBE_A_LINK_LANE, ci.lane) ||
	    nla_put_u32(skb, VCUBE_A_LINK_WIDTH, width) ||
	    vcube_nl_put_u64(skb, VCUBE_A_LINK_MESSAGES, VCUBE_A_LINK_PAD,
			     st->msgs) ||
	    vcube_nl_put_u64(skb, VCUBE_A_LINK_BYTES, VCUBE_A_LINK_PAD,
			     st->bytes) ||
	    vcube_nl_put_u64(skb, VCUBE_A_LINK_TRANSFERS, VCUBE_A_LINK_PAD,
			     st->uses) ||
	    vcube_nl_put_u64(skb, VCUBE_A_LINK_BUSY_NS, VCUBE_A_LINK_PAD,
			     vc_chan_busy(net->engine, id)) ||
	    vcube_nl_put_u64(skb, VCUBE_A_LINK_WAITS, VCUBE_A_LINK_PAD,
			     st->waits) ||
	    vcube_nl_put_u64(skb, VCUBE_A_LINK_WAIT_NS, VCUBE_A_LINK_PAD,
			     st->wait_ns) ||
	    nla_put_u32(skb, VCUBE_A_LINK_PEAK, min_t(u64, st->peak, U32_MAX)))
		return -EMSGSIZE;
	return 0;
}

static int vcube_nl_node_fill(struct sk_buff *skb, struct vcube_net *net,
			      u64 id)
{
	const struct vc_node_stats *st = vc_node_stats(net->engine, id);
	struct pid *tgid = net->nodes[id]->tgid;
	/* in the reader's PID namespace (a dump runs in its calls) */
	pid_t owner = tgid ? pid_vnr(tgid) : 0;

	lockdep_assert_held(&net->lock);
	if (nla_put_u32(skb, VCUBE_A_NODE_ID, id) ||
	    nla_put_u32(skb, VCUBE_A_NODE_STATE,
			vc_node_state(net->engine, id)) ||
	    (owner && nla_put_u32(skb, VCUBE_A_NODE_PID, owner)) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_CLOCK, VCUBE_A_NODE_PAD,
			     vc_clock(net->engine, id)) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_SENT, VCUBE_A_NODE_PAD,
			     st->sent) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_RECEIVED, VCUBE_A_NODE_PAD,
			     st->received) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_FORCED_DROPPED, VCUBE_A_NODE_PAD,
			     st->forced_dropped) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_BUFFERED, VCUBE_A_NODE_PAD,
			     st->buffered) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_DISCARDED, VCUBE_A_NODE_PAD,
			     st->discarded) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NODE_SYSBUF_PEAK, VCUBE_A_NODE_PAD,
			     st->sysbuf_peak))
		return -EMSGSIZE;
	return 0;
}

/* Peak windows: only those in which a channel was taken. */
static int vcube_nl_window_fill(struct sk_buff *skb, struct vcube_net *net,
				u64 w)
{
	u32 peak = vc_window_peak(net->engine, w);

	lockdep_assert_held(&net->lock);
	if (!peak)
		return 1;
	if (nla_put_u32(skb, VCUBE_A_WINDOW_INDEX, w) ||
	    nla_put_u32(skb, VCUBE_A_WINDOW_PEAK, peak))
		return -EMSGSIZE;
	return 0;
}

/* A u32 that may name nothing (VC_TRACE_NONE): absent then. */
static int vcube_nl_put_id(struct sk_buff *skb, int attr, u32 v)
{
	return v == VC_TRACE_NONE ? 0 : nla_put_u32(skb, attr, v);
}

static int vcube_nl_trace_fill(struct sk_buff *skb, struct vcube_net *net,
			       u64 i)
{
	struct vc_trace_rec r;

	lockdep_assert_held(&net->lock);
	if (vc_trace_get(net->engine, i, &r))
		return 1;
	if (vcube_nl_put_u64(skb, VCUBE_A_TRACE_SEQ, VCUBE_A_TRACE_PAD, i) ||
	    vcube_nl_put_u64(skb, VCUBE_A_TRACE_START, VCUBE_A_TRACE_PAD,
			     r.start) ||
	    vcube_nl_put_u64(skb, VCUBE_A_TRACE_END, VCUBE_A_TRACE_PAD, r.end) ||
	    nla_put_u32(skb, VCUBE_A_TRACE_SRC, r.src) ||
	    nla_put_u32(skb, VCUBE_A_TRACE_KIND, r.kind))
		return -EMSGSIZE;
	if (r.kind == VC_TRACE_MARK) {
		r.label[VC_MARK_LEN - 1] = '\0';
		return nla_put_string(skb, VCUBE_A_TRACE_LABEL, r.label) ?
		       -EMSGSIZE : 0;
	}
	if (vcube_nl_put_u64(skb, VCUBE_A_TRACE_BYTES, VCUBE_A_TRACE_PAD,
			     r.bytes) ||
	    vcube_nl_put_id(skb, VCUBE_A_TRACE_DST, r.dst) ||
	    nla_put_u32(skb, VCUBE_A_TRACE_TAG, r.tag) ||
	    vcube_nl_put_id(skb, VCUBE_A_TRACE_CHANNEL, r.chan) ||
	    nla_put_u32(skb, VCUBE_A_TRACE_HOP, r.hop) ||
	    vcube_nl_put_id(skb, VCUBE_A_TRACE_MSG, r.msg))
		return -EMSGSIZE;
	if (r.kind != VC_TRACE_WAIT &&
	    vcube_nl_put_u64(skb, VCUBE_A_TRACE_ACQUIRED, VCUBE_A_TRACE_PAD,
			     r.acquired))
		return -EMSGSIZE;
	if (r.kind == VC_TRACE_MSG &&
	    (vcube_nl_put_u64(skb, VCUBE_A_TRACE_FLOW, VCUBE_A_TRACE_PAD,
			      r.flow) ||
	     nla_put_u32(skb, VCUBE_A_TRACE_PROTO, r.proto)))
		return -EMSGSIZE;
	if ((r.kind == VC_TRACE_MSG || r.kind == VC_TRACE_WAIT) &&
	    (nla_put_u32(skb, VCUBE_A_TRACE_CAUSE, r.cause) ||
	     vcube_nl_put_id(skb, VCUBE_A_TRACE_HOLDER, r.holder)))
		return -EMSGSIZE;
	return 0;
}

/* A dump's cursor: the next entry, in cb->args[0] (low) and [1] (high). */
static u64 vcube_nl_cursor(struct netlink_callback *cb)
{
	return (u64)(u32)cb->args[1] << 32 | (u32)cb->args[0];
}

static void vcube_nl_cursor_set(struct netlink_callback *cb, u64 i)
{
	cb->args[0] = lower_32_bits(i);
	cb->args[1] = upper_32_bits(i);
}

/*
 * One part of a dump of the entries [@first, @end): as many as fit, from
 * the cursor, each filled by @fill under the network's lock (a positive
 * return: nothing to say about that entry). Each part holds the lock for
 * what one message carries, however large the dump.
 */
static int vcube_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
			 u8 cmd, u64 first, u64 end,
			 struct vcube_net *net,
			 int (*fill)(struct sk_buff *, struct vcube_net *, u64))
{
	u64 start = max(vcube_nl_cursor(cb), first), i;
	bool put = false;
	int ret = 0;
	void *hdr;

	lockdep_assert_held(&net->lock);
	cb->seq = lower_32_bits(vc_stats_gen(net->engine)) ?: 1;
	for (i = start; i < end; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &vcube_nl_family,
				  NLM_F_MULTI, cmd);
		if (!hdr) {
			ret = -EMSGSIZE;
			break;
		}
		genl_dump_check_consistent(cb, hdr);
		ret = fill(skb, net, i);
		if (ret) {
			genlmsg_cancel(skb, hdr);
			if (ret > 0) {
				ret = 0;
				continue;
			}
			break;
		}
		genlmsg_end(skb, hdr);
		put = true;
	}
	vcube_nl_cursor_set(cb, i);
	/* Not even one entry fitted in an empty message: give up. */
	if (ret && !put)
		return ret;
	return skb->len;
}

/* Which entries a dump covers, [*@first, *@end), under the network's lock. */
typedef void (*vcube_nl_range_fn)(struct vcube_net *net, u64 *first,
				  u64 *end);

/*
 * One part of a dump of the network the request names (its net-id
 * attribute @net_attr): the entries @range gives, each filled by @fill.
 */
static int vcube_nl_dump_net(struct sk_buff *skb, struct netlink_callback *cb,
			     u8 cmd, int net_attr, vcube_nl_range_fn range,
			     int (*fill)(struct sk_buff *, struct vcube_net *,
					 u64))
{
	struct vcube_net *net;
	u64 first, end;
	int ret;

	net = vcube_nl_find(cb->skb, vcube_dump_attrs(cb), net_attr,
			    cb->extack);
	if (!net)
		return -ENODEV;
	ret = vcube_nl_lock(net);
	if (!ret) {
		range(net, &first, &end);
		ret = vcube_nl_dump(skb, cb, cmd, first, end, net, fill);
		mutex_unlock(&net->lock);
	}
	vcube_net_put(net);
	return ret;
}

static void vcube_nl_link_range(struct vcube_net *net, u64 *first, u64 *end)
{
	*first = 0;
	*end = vc_nchan_res(net->engine);
}

int vcube_nl_link_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return vcube_nl_dump_net(skb, cb, VCUBE_CMD_LINK_GET,
				 VCUBE_A_LINK_NET_ID, vcube_nl_link_range,
				 vcube_nl_link_fill);
}

static void vcube_nl_node_range(struct vcube_net *net, u64 *first, u64 *end)
{
	*first = 0;
	*end = net->topo.nodes;
}

int vcube_nl_node_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return vcube_nl_dump_net(skb, cb, VCUBE_CMD_NODE_GET,
				 VCUBE_A_NODE_NET_ID, vcube_nl_node_range,
				 vcube_nl_node_fill);
}

static void vcube_nl_window_range(struct vcube_net *net, u64 *first,
				  u64 *end)
{
	*first = 0;
	*end = VC_WINDOWS;
}

int vcube_nl_window_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	return vcube_nl_dump_net(skb, cb, VCUBE_CMD_WINDOW_GET,
				 VCUBE_A_WINDOW_NET_ID, vcube_nl_window_range,
				 vcube_nl_window_fill);
}

/*
 * The trace, oldest record first. Records the ring overwrote between two
 * parts are skipped: an event wrote over them, and every event changes the
 * generation, so that part is marked NLM_F_DUMP_INTR.
 */
static void vcube_nl_trace_range(struct vcube_net *net, u64 *first, u64 *end)
{
	*end = vc_trace_count(net->engine);
	*first = *end > net->params.trace_max ?
		 *end - net->params.trace_max : 0;
}

/* Needs CAP_NET_ADMIN: it names every message's source, tag and times. */
int vcube_nl_trace_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return vcube_nl_admin(cb->skb, cb->extack) ?:
	       vcube_nl_dump_net(skb, cb, VCUBE_CMD_TRACE_GET,
				 VCUBE_A_TRACE_NET_ID, vcube_nl_trace_range,
				 vcube_nl_trace_fill);
}

static_assert((int)VCUBE_WAIT_KIND_RECV == (int)VC_WAIT_RECV);
static_assert((int)VCUBE_WAIT_KIND_SEND == (int)VC_WAIT_SEND);
static_assert((int)VCUBE_WAIT_KIND_CNET == (int)VC_WAIT_CNET);

static int vcube_nl_deadlock_fill(struct sk_buff *skb, struct vcube_net *net,
				  u64 i)
{
	const struct vc_deadlock_rec *d = vc_deadlock_get(net->engine, i);
	u64 time;

	lockdep_assert_held(&net->lock);
	vc_deadlock_count(net->engine, &time);
	if (vcube_nl_put_u64(skb, VCUBE_A_DEADLOCK_TIME, VCUBE_A_DEADLOCK_PAD,
			     time) ||
	    nla_put_u32(skb, VCUBE_A_DEADLOCK_NODE, d->node) ||
	    vcube_nl_put_u64(skb, VCUBE_A_DEADLOCK_CLOCK, VCUBE_A_DEADLOCK_PAD,
			     d->clock) ||
	    nla_put_u32(skb, VCUBE_A_DEADLOCK_KIND, d->kind))
		return -EMSGSIZE;
	if (d->kind == VC_WAIT_CNET ?
	    nla_put_u32(skb, VCUBE_A_DEADLOCK_FIRST, d->first) ||
	    nla_put_u32(skb, VCUBE_A_DEADLOCK_NODES, d->nodes) ||
	    nla_put_u32(skb, VCUBE_A_DEADLOCK_ENTERED, d->entered) :
	    nla_put_s32(skb, VCUBE_A_DEADLOCK_PEER, d->peer) ||
	    (d->kind == VC_WAIT_RECV &&
	     nla_put_s32(skb, VCUBE_A_DEADLOCK_TAG, d->tag)))
		return -EMSGSIZE;
	return 0;
}

static void vcube_nl_deadlock_range(struct vcube_net *net, u64 *first,
				    u64 *end)
{
	u64 time;

	*first = 0;
	*end = vc_deadlock_count(net->engine, &time);
}

/* The last deadlock whole (CAP_NET_ADMIN: it names peers and tags). */
int vcube_nl_deadlock_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return vcube_nl_admin(cb->skb, cb->extack) ?:
	       vcube_nl_dump_net(skb, cb, VCUBE_CMD_DEADLOCK_GET,
				 VCUBE_A_DEADLOCK_NET_ID,
				 vcube_nl_deadlock_range,
				 vcube_nl_deadlock_fill);
}

int vcube_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vcube_net *net;
	int ret;

	ret = vcube_nl_admin(skb, info->extack);
	if (ret)
		return ret;
	net = vcube_nl_find(skb, info->attrs, VCUBE_A_TOPO_NET_ID,
			    info->extack);
	if (!net)
		return -ENODEV;
	ret = vcube_nl_lock(net);
	if (!ret) {
		vc_stats_reset(net->engine);
		mutex_unlock(&net->lock);
	}
	vcube_net_put(net);
	return ret;
}

/* The trace records (1) or not (0); what it keeps stays. */
int vcube_nl_trace_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vcube_net *net;
	int ret;

	ret = vcube_nl_admin(skb, info->extack);
	if (ret)
		return ret;
	if (GENL_REQ_ATTR_CHECK(info, VCUBE_A_TOPO_TRACE_ON))
		return -EINVAL;
	net = vcube_nl_find(skb, info->attrs, VCUBE_A_TOPO_NET_ID,
			    info->extack);
	if (!net)
		return -ENODEV;
	if (!net->params.trace_max) {
		NL_SET_ERR_MSG(info->extack,
			       "the network was made with trace=0: no trace to switch");
		ret = -EOPNOTSUPP;
	} else {
		ret = vcube_nl_lock(net);
	}
	if (!ret) {
		vc_trace_enable(net->engine,
				nla_get_u32(info->attrs[VCUBE_A_TOPO_TRACE_ON]));
		mutex_unlock(&net->lock);
	}
	vcube_net_put(net);
	return ret;
}

/*
 * The engine's announcements, to the monitor group of the network's
 * namespace. Called under the network's lock, in the process whose call
 * caused them: the lock is a mutex, so GFP_KERNEL is fine. Nothing is
 * built while nobody listens; a listener too slow to read loses
 * notifications (ENOBUFS on its socket), never the engine's time.
 */
/* The largest notice: kind, net-id and time, then a peak's window, peak, channel. */
#define VCUBE_NL_NOTICE_SIZE	(5 * nla_total_size(sizeof(u32)) + \
				 nla_total_size_64bit(sizeof(u64)))

static void vcube_nl_notify(void *ctx, const struct vc_notice *nt)
{
	bool peak = nt->kind == VC_NOTICE_PEAK;
	struct vcube_net *net = ctx;
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&vcube_nl_family, net->ns,
				VCUBE_NLGRP_MONITOR))
		return;
	skb = genlmsg_new(VCUBE_NL_NOTICE_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &vcube_nl_family, 0,
			  peak ? VCUBE_CMD_PEAK_NTF : VCUBE_CMD_DEADLOCK_NTF);
	if (!hdr)
		goto fail;
	if (nla_put_u32(skb, VCUBE_A_NOTICE_KIND, nt->kind) ||
	    nla_put_u32(skb, VCUBE_A_NOTICE_NET_ID, net->id) ||
	    vcube_nl_put_u64(skb, VCUBE_A_NOTICE_TIME, VCUBE_A_NOTICE_PAD,
			     nt->time))
		goto fail;
	if (peak ? nla_put_u32(skb, VCUBE_A_NOTICE_WINDOW, nt->window) ||
		   nla_put_u32(skb, VCUBE_A_NOTICE_PEAK, nt->peak) ||
		   nla_put_u32(skb, VCUBE_A_NOTICE_CHANNEL, nt->chan) :
		   nla_put_u32(skb, VCUBE_A_NOTICE_WAITING, nt->waiting))
		goto fail;
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&vcube_nl_family, net->ns, skb, 0,
				VCUBE_NLGRP_MONITOR, GFP_KERNEL);
	return;
fail:
	nlmsg_free(skb);
}

/* The engine's notices go to @net's namespace's monitor group. */
void vcube_nl_attach(struct vcube_net *net)
{
	mutex_lock(&net->lock);
	if (!net->dead)
		vc_engine_set_notify(net->engine, vcube_nl_notify, net);
	mutex_unlock(&net->lock);
}

/* ---- networks: net-new, net-del, net-get ------------------------------- */

/* Nodes a process has bound now. */
static u32 vcube_nl_bound(struct vcube_net *net)
{
	u32 id, n = 0;

	lockdep_assert_held(&net->lock);
	for (id = 0; id < net->topo.nodes; id++)
		n += net->nodes[id] && net->nodes[id]->tgid;
	return n;
}

static int vcube_nl_net_fill(struct sk_buff *skb, struct vcube_net *net)
{
	char shape[VCUBE_SHAPE_LEN];
	int ret;

	if (vcube_topo_format_shape(&net->topo, shape, sizeof(shape)) < 0)
		shape[0] = '\0';
	if (nla_put_u32(skb, VCUBE_A_NET_ID, net->id) ||
	    nla_put_string(skb, VCUBE_A_NET_NAME, net->name) ||
	    nla_put_u32(skb, VCUBE_A_NET_DEFAULT, net->is_default) ||
	    nla_put_string(skb, VCUBE_A_NET_TOPOLOGY,
			   vcube_topo_kind_name(net->topo.kind)) ||
	    nla_put_string(skb, VCUBE_A_NET_SHAPE, shape) ||
	    nla_put_string(skb, VCUBE_A_NET_PROFILE, net->profile) ||
	    nla_put_string(skb, VCUBE_A_NET_SWITCHING,
			   vcube_switching_name(net->params.switching)) ||
	    nla_put_u32(skb, VCUBE_A_NET_NODES, net->topo.nodes) ||
	    nla_put_u32(skb, VCUBE_A_NET_CHANNELS, net->topo.nchan) ||
	    nla_put_u32(skb, VCUBE_A_NET_MODE, net->mode))
		return -EMSGSIZE;
	ret = vcube_nl_lock(net);
	if (ret)
		return ret;
	ret = nla_put_u32(skb, VCUBE_A_NET_BOUND, vcube_nl_bound(net));
	mutex_unlock(&net->lock);
	return ret ? -EMSGSIZE : 0;
}

/* net-new-ntf, net-del-ntf: to the monitor group of @net's namespace. */
static void vcube_nl_announce(struct vcube_net *net, u8 cmd)
{
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&vcube_nl_family, net->ns,
				VCUBE_NLGRP_MONITOR))
		return;
	skb = genlmsg_new(nla_total_size(sizeof(u32)) +
			  nla_total_size(VCUBE_NAME_LEN), GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &vcube_nl_family, 0, cmd);
	if (!hdr || nla_put_u32(skb, VCUBE_A_NET_ID, net->id) ||
	    nla_put_string(skb, VCUBE_A_NET_NAME, net->name)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&vcube_nl_family, net->ns, skb, 0,
				VCUBE_NLGRP_MONITOR, GFP_KERNEL);
}

static const char *vcube_nl_str(struct nlattr **a, int attr)
{
	return a[attr] ? nla_data(a[attr]) : NULL;
}

static u32 vcube_nl_u32(struct nlattr **a, int attr, u32 dflt)
{
	return a[attr] ? nla_get_u32(a[attr]) : dflt;
}

static u64 vcube_nl_u64(struct nlattr **a, int attr, u64 dflt)
{
	return a[attr] ? nla_get_u64(a[attr]) : dflt;
}

/* net-new's attributes in the module parameters' words (params.h). */
static void vcube_nl_conf(struct nlattr **a, struct vcube_conf *c)
{
	int i;

	vcube_conf_init(c);
	c->topology = vcube_nl_str(a, VCUBE_A_NET_TOPOLOGY);
	c->profile = vcube_nl_str(a, VCUBE_A_NET_PROFILE);
	c->noise = vcube_nl_str(a, VCUBE_A_NET_NOISE);
	c->jitter_dist = vcube_nl_str(a, VCUBE_A_NET_JITTER_DIST);
	c->switching = vcube_nl_str(a, VCUBE_A_NET_SWITCHING);
	c->arbitration = vcube_nl_str(a, VCUBE_A_NET_ARBITRATION);
	c->dims = vcube_nl_str(a, VCUBE_A_NET_DIMS);
	c->down = vcube_nl_str(a, VCUBE_A_NET_DOWN);
	c->up = vcube_nl_str(a, VCUBE_A_NET_UP);
	c->links = vcube_nl_str(a, VCUBE_A_NET_LINKS);
	c->routing = vcube_nl_str(a, VCUBE_A_NET_ROUTING);
	c->levels = vcube_nl_u32(a, VCUBE_A_NET_LEVELS, c->levels);
	c->groups = vcube_nl_u32(a, VCUBE_A_NET_GROUPS, c->groups);
	c->routers = vcube_nl_u32(a, VCUBE_A_NET_ROUTERS, c->routers);
	c->global = vcube_nl_u32(a, VCUBE_A_NET_GLOBAL, c->global);
	c->dim = vcube_nl_u32(a, VCUBE_A_NET_DIM, c->dim);
	c->rows = vcube_nl_u32(a, VCUBE_A_NET_ROWS, c->rows);
	c->cols = vcube_nl_u32(a, VCUBE_A_NET_COLS, c->cols);
	c->nodes = vcube_nl_u32(a, VCUBE_A_NET_NODES, c->nodes);
	c->seed = vcube_nl_u64(a, VCUBE_A_NET_SEED, c->seed);
	c->mode = vcube_nl_u32(a, VCUBE_A_NET_MODE, c->mode);
	c->max_msg = vcube_nl_u64(a, VCUBE_A_NET_MAX_MSG, c->max_msg);
	c->max_reqs = vcube_nl_u32(a, VCUBE_A_NET_MAX_REQS, c->max_reqs);
	c->max_inflight = vcube_nl_u64(a, VCUBE_A_NET_MAX_INFLIGHT,
				       c->max_inflight);
	c->max_inflight_node = vcube_nl_u64(a, VCUBE_A_NET_MAX_INFLIGHT_NODE,
					    c->max_inflight_node);
	c->idle_lease_ms = vcube_nl_u32(a, VCUBE_A_NET_IDLE_LEASE_MS,
					c->idle_lease_ms);
	c->trace = vcube_nl_u32(a, VCUBE_A_NET_TRACE, c->trace);
	/* absent: -1, the profile's; past S64_MAX as out of range as it */
	for (i = 0; i < VCUBE_NCOSTS; i++)
		if (a[vcube_nl_cost_attrs[i]])
			c->cost[i] = min_t(u64,
					   nla_get_u64(a[vcube_nl_cost_attrs[i]]),
					   S64_MAX);
}

/* Why graph-links or graph-costs attribute @pos is refused (the ACK's). */
static void vcube_nl_gather_bad(struct genl_info *info,
				const struct nlattr *pos, bool toomany)
{
	if (nla_type(pos) == VCUBE_A_NET_GRAPH_LINKS && toomany)
		NL_SET_ERR_MSG_ATTR(info->extack, pos,
				    "a graph has at most 32768 links");
	else if (nla_type(pos) == VCUBE_A_NET_GRAPH_LINKS)
		NL_SET_ERR_MSG_ATTR(info->extack, pos,
				    "graph-links holds pairs of u16 routers");
	else if (nla_type(pos) == VCUBE_A_NET_GRAPH_ROUTES && toomany)
		NL_SET_ERR_MSG_ATTR(info->extack, pos,
				    "a graph has at most 65536 routes");
	else if (nla_type(pos) == VCUBE_A_NET_GRAPH_ROUTES)
		NL_SET_ERR_MSG_ATTR(info->extack, pos,
				    "graph-routes holds u16 triples: router, toward, next");
	else if (toomany)
		NL_SET_ERR_MSG_ATTR(info->extack, pos,
				    "graph-costs: more than a graph has channels");
	else
		NL_SET_ERR_MSG_ATTR(info->extack, pos,
				    "graph-costs holds u32 pairs: ns, ps a byte");
}

/*
 * A multi-attr of the request (graph-links, graph-costs): every @type
 * attribute, in order, into one array (kvfree()d by the caller), *@n units
 * of @unit bytes. -EINVAL, pointing at the attribute, for a length that
 * is no whole number of units or past @max units in all.
 */
static int vcube_nl_gather(struct genl_info *info, int type, size_t unit,
			   size_t max, void **out, u32 *n)
{
	const struct nlattr *pos;
	size_t total = 0, at = 0;
	int rem;

	nla_for_each_attr(pos, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(pos) != type)
			continue;
		if (nla_len(pos) % unit || total + nla_len(pos) > max * unit) {
			vcube_nl_gather_bad(info, pos, !(nla_len(pos) % unit));
			return -EINVAL;
		}
		total += nla_len(pos);
	}
	*out = kvmalloc(total ?: 1, GFP_KERNEL_ACCOUNT);
	if (!*out)
		return -ENOMEM;
	nla_for_each_attr(pos, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(pos) != type)
			continue;
		memcpy((u8 *)*out + at, nla_data(pos), nla_len(pos));
		at += nla_len(pos);
	}
	*n = total / unit;
	return 0;
}

/*
 * A graph's links (graph-links), and if given its routes (graph-routes)
 * and its channels' costs (graph-costs: a latency and a rate for every
 * channel, 2 * (nodes + links) of them) into @d; the arrays in @arr:
 * links, routes, costs.
 */
static int vcube_nl_graph_links(struct genl_info *info,
				struct vcube_graph_desc *d, void *arr[3])
{
	u32 nchan = 0;
	int ret;

	ret = vcube_nl_gather(info, VCUBE_A_NET_GRAPH_LINKS, 2 * sizeof(u16),
			      VCUBE_GRAPH_MAX_LINKS, &arr[0], &d->nlinks);
	d->links = arr[0];
	if (!ret && info->attrs[VCUBE_A_NET_GRAPH_ROUTES]) {
		ret = vcube_nl_gather(info, VCUBE_A_NET_GRAPH_ROUTES,
				      3 * sizeof(u16), VCUBE_GRAPH_MAX_ROUTES,
				      &arr[1], &d->nroutes);
		d->routes = arr[1];
	}
	if (ret || !info->attrs[VCUBE_A_NET_GRAPH_COSTS])
		return ret;
	ret = vcube_nl_gather(info, VCUBE_A_NET_GRAPH_COSTS, 2 * sizeof(u32),
			      2 * (VCUBE_MAX_NODES + VCUBE_GRAPH_MAX_LINKS),
			      &arr[2], &nchan);
	d->costs = arr[2];
	if (!ret && nchan != 2 * (d->nodes + d->nlinks)) {
		NL_SET_ERR_MSG(info->extack,
			       "graph-costs needs a pair per channel: 2 x (nodes + links)");
		ret = -EINVAL;
	}
	return ret;
}

/*
 * topology=graph's routers, nodes and links into @d, @c->graph pointing at
 * it; its links in *@links (NULL if none). Nothing given: no graph.
 */
static int vcube_nl_graph(struct genl_info *info, struct vcube_conf *c,
			  struct vcube_graph_desc *d, void *arr[3])
{
	struct nlattr **a = info->attrs;
	const struct nlattr *nodes = a[VCUBE_A_NET_GRAPH_NODES];

	memset(d, 0, sizeof(*d));
	if (!a[VCUBE_A_NET_GRAPH_ROUTERS] && !nodes &&
	    !a[VCUBE_A_NET_GRAPH_LINKS] && !a[VCUBE_A_NET_GRAPH_COSTS] &&
	    !a[VCUBE_A_NET_GRAPH_ROUTES])
		return 0;
	if (!a[VCUBE_A_NET_GRAPH_ROUTERS] || !nodes) {
		NL_SET_ERR_MSG(info->extack,
			       "a graph needs graph-routers, graph-nodes and graph-links");
		return -EINVAL;
	}
	if (nla_len(nodes) % sizeof(u16) ||
	    nla_len(nodes) > VCUBE_MAX_NODES * sizeof(u16)) {
		NL_SET_ERR_MSG_ATTR(info->extack, nodes,
				    "graph-nodes holds a u16 router for each of at most 4096 nodes");
		return -EINVAL;
	}
	d->routers = nla_get_u32(a[VCUBE_A_NET_GRAPH_ROUTERS]);
	d->nodes = nla_len(nodes) / sizeof(u16);
	d->node_router = nla_data(nodes);
	c->graph = d;
	return vcube_nl_graph_links(info, d, arr);
}

int vcube_nl_net_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	char name[VCUBE_NAME_LEN], err[160];
	struct vcube_graph_desc graph;
	struct vcube_net *net;
	void *arr[3] = { NULL, NULL, NULL };	/* links, routes, costs */
	struct vcube_conf c;
	int ret, i;

	ret = vcube_nl_admin(skb, info->extack);
	if (ret)
		return ret;
	if (GENL_REQ_ATTR_CHECK(info, VCUBE_A_NET_NAME))
		return -EINVAL;
	nla_strscpy(name, a[VCUBE_A_NET_NAME], sizeof(name));
	vcube_nl_conf(a, &c);
	ret = vcube_nl_graph(info, &c, &graph, arr);
	if (ret) {
		for (i = 0; i < ARRAY_SIZE(arr); i++)
			kvfree(arr[i]);
		return ret;
	}
	net = vcube_net_new(genl_info_net(info), name, &c, false,
			    a[VCUBE_A_NET_DESTROY_ON_CLOSE] ?
			    info->snd_portid : 0, err, sizeof(err));
	for (i = 0; i < ARRAY_SIZE(arr); i++)
		kvfree(arr[i]);	/* the network made its own tables */
	if (IS_ERR(net)) {
		vcube_extack_msg(info->extack, err, PTR_ERR(net));
		return PTR_ERR(net);
	}
	vcube_nl_attach(net);
	ret = vcube_nl_reply(info, VCUBE_CMD_NET_NEW, net, vcube_nl_net_fill);
	if (ret)	/* the creator cannot know it: nothing left behind */
		vcube_net_del(net);
	else
		vcube_nl_announce(net, VCUBE_CMD_NET_NEW_NTF);
	vcube_net_put(net);
	return ret;
}

/* The network a net-del or net-get names by id, name or both. */
static struct vcube_net *vcube_nl_named(const struct sk_buff *skb,
					struct nlattr **a,
					struct netlink_ext_ack *extack)
{
	struct vcube_net *net;

	net = vcube_net_get(sock_net(skb->sk),
			    vcube_nl_u32(a, VCUBE_A_NET_ID, VCUBE_NET_ANY),
			    vcube_nl_str(a, VCUBE_A_NET_NAME));
	if (!net)
		NL_SET_ERR_MSG(extack,
			       "no such network in this network namespace");
	return net;
}

int vcube_nl_net_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vcube_net *net;
	int ret;

	ret = vcube_nl_admin(skb, info->extack);
	if (ret)
		return ret;
	if (!info->attrs[VCUBE_A_NET_ID] && !info->attrs[VCUBE_A_NET_NAME]) {
		NL_SET_ERR_MSG(info->extack, "name the network: id or name");
		return -EINVAL;
	}
	net = vcube_nl_named(skb, info->attrs, info->extack);
	if (!net)
		return -ENOENT;
	ret = vcube_net_del(net);
	if (!ret)
		vcube_nl_announce(net, VCUBE_CMD_NET_DEL_NTF);
	vcube_net_put(net);
	return ret;
}

/* One network in a dump's part; 0, or -EMSGSIZE when it did not fit. */
static int vcube_nl_net_put(struct sk_buff *skb, struct netlink_callback *cb,
			    struct vcube_net *net)
{
	void *hdr;
	int ret;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &vcube_nl_family, NLM_F_MULTI, VCUBE_CMD_NET_GET);
	if (!hdr)
		return -EMSGSIZE;
	ret = vcube_nl_net_fill(skb, net);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		/* deleted meanwhile: as if it had gone a moment before */
		return ret == -ENODEV ? 0 : ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * The networks of the caller's namespace in id order, the next id in
 * cb->args[0]; or the one an id or name names (cb->args[1] once done).
 */
int vcube_nl_net_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **a = vcube_dump_attrs(cb);
	struct net *ns = sock_net(cb->skb->sk);
	struct vcube_net *net;
	int ret = 0;

	if (a[VCUBE_A_NET_ID] || a[VCUBE_A_NET_NAME]) {
		if (cb->args[1])
			return 0;
		net = vcube_nl_named(cb->skb, a, cb->extack);
		if (!net)
			return -ENOENT;
		ret = vcube_nl_net_put(skb, cb, net);
		vcube_net_put(net);
		cb->args[1] = 1;
		return ret ?: skb->len;
	}
	while ((net = vcube_net_get_next(ns, cb->args[0]))) {
		ret = vcube_nl_net_put(skb, cb, net);
		if (!ret)
			cb->args[0] = net->id + 1;
		vcube_net_put(net);
		if (ret)
			break;
	}
	/* a part with nothing in it while one is left: too large to send */
	return ret && !skb->len ? ret : skb->len;
}

/*
 * destroy-on-close: the close of the socket that made a network deletes it
 * (as mac80211_hwsim's radios). The netlink chain is a blocking one.
 */
static int vcube_nl_release(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	struct netlink_notify *n = data;
	struct vcube_net *net;

	if (state != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	while ((net = vcube_net_get_portid(n->net, n->portid))) {
		if (!vcube_net_del(net))
			vcube_nl_announce(net, VCUBE_CMD_NET_DEL_NTF);
		vcube_net_put(net);
	}
	return NOTIFY_DONE;
}

static struct notifier_block vcube_nl_notifier = {
	.notifier_call = vcube_nl_release,
};

int vcube_nl_init(void)
{
	int ret;

	ret = netlink_register_notifier(&vcube_nl_notifier);
	if (ret)
		return ret;
	ret = genl_register_family(&vcube_nl_family);
	if (ret)
		netlink_unregister_notifier(&vcube_nl_notifier);
	return ret;
}

void vcube_nl_exit(void)
{
	genl_unregister_family(&vcube_nl_family);
	netlink_unregister_notifier(&vcube_nl_notifier);
}
