// SPDX-License-Identifier: GPL-2.0
/*
 * vcube's generic netlink family, "vcube": the network and its counters,
 * the peak windows and the channel trace (sysfs keeps only what the
 * network is).
 * Documentation/netlink/specs/vcube.yaml describes it; the ops table and
 * the family are generated from it (netlink-gen.c), the handlers are here.
 *
 * The engine updates its counters under the network's lock, and nothing
 * else: the handlers take that same lock to read them, one dump part at a
 * time, and mark a part inconsistent (NLM_F_DUMP_INTR) when the counters'
 * generation moved since the previous part.
 */
#include <linux/mutex.h>
#include <linux/pid.h>
#include <net/genetlink.h>

#include "netlink-gen.h"
#include "vcube.h"

static_assert((int)VCUBE_TOPOLOGY_HYPERCUBE == (int)VCUBE_TOPO_HYPERCUBE);
static_assert((int)VCUBE_TOPOLOGY_MESH == (int)VCUBE_TOPO_MESH);
static_assert((int)VCUBE_TOPOLOGY_TORUS == (int)VCUBE_TOPO_TORUS);
static_assert((int)VCUBE_TOPOLOGY_FATTREE == (int)VCUBE_TOPO_FATTREE);
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

/* The one network; set before the family is registered. */
static struct vcube_net *vcube_nl_net;

static int vcube_nl_put_u64(struct sk_buff *skb, int attr, int pad, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, pad);
}

static int vcube_nl_topo_fill(struct sk_buff *skb, struct vcube_net *net)
{
	const struct vc_net_stats *st;
	char shape[64];
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

	if (mutex_lock_killable(&net->lock))
		return -EINTR;
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
			  vc_trace_enabled(net->engine));
	mutex_unlock(&net->lock);
	return ret ? -EMSGSIZE : 0;
}

/* A do command's one reply, its attributes put by @fill. */
static int vcube_nl_reply(struct genl_info *info, u8 cmd,
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
	ret = fill(msg, vcube_nl_net);
	if (ret)
		goto err_free;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return ret;
}

int vcube_nl_topo_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return vcube_nl_reply(info, VCUBE_CMD_TOPO_GET, vcube_nl_topo_fill);
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
			     p->cnet_bcast))
		return -EMSGSIZE;
	if (mutex_lock_killable(&net->lock))
		return -EINTR;
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
	mutex_unlock(&net->lock);
	return ret ? -EMSGSIZE : 0;
}

int vcube_nl_cnet_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return vcube_nl_reply(info, VCUBE_CMD_CNET_GET, vcube_nl_cnet_fill);
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
			 int (*fill)(struct sk_buff *, struct vcube_net *, u64))
{
	struct vcube_net *net = vcube_nl_net;
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

/* A dump of @count entries from 0, under the network's lock. */
static int vcube_nl_dump_all(struct sk_buff *skb, struct netlink_callback *cb,
			     u8 cmd, u32 count,
			     int (*fill)(struct sk_buff *, struct vcube_net *,
					 u64))
{
	struct vcube_net *net = vcube_nl_net;
	int ret;

	if (mutex_lock_killable(&net->lock))
		return -EINTR;
	ret = vcube_nl_dump(skb, cb, cmd, 0, count, fill);
	mutex_unlock(&net->lock);
	return ret;
}

int vcube_nl_link_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return vcube_nl_dump_all(skb, cb, VCUBE_CMD_LINK_GET,
				 vc_nchan_res(vcube_nl_net->engine),
				 vcube_nl_link_fill);
}

int vcube_nl_node_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return vcube_nl_dump_all(skb, cb, VCUBE_CMD_NODE_GET,
				 vcube_nl_net->topo.nodes, vcube_nl_node_fill);
}

int vcube_nl_window_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	return vcube_nl_dump_all(skb, cb, VCUBE_CMD_WINDOW_GET, VC_WINDOWS,
				 vcube_nl_window_fill);
}

/*
 * The trace, oldest record first. Records the ring overwrote between two
 * parts are skipped: an event wrote over them, and every event changes the
 * generation, so that part is marked NLM_F_DUMP_INTR.
 */
int vcube_nl_trace_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct vcube_net *net = vcube_nl_net;
	u64 total, first;
	int ret;

	if (mutex_lock_killable(&net->lock))
		return -EINTR;
	total = vc_trace_count(net->engine);
	first = total > net->params.trace_max ?
		total - net->params.trace_max : 0;
	ret = vcube_nl_dump(skb, cb, VCUBE_CMD_TRACE_GET, first, total,
			    vcube_nl_trace_fill);
	mutex_unlock(&net->lock);
	return ret;
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

/* The last deadlock whole (GENL_ADMIN_PERM: it names peers and tags). */
int vcube_nl_deadlock_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct vcube_net *net = vcube_nl_net;
	u64 time;
	int ret;

	if (mutex_lock_killable(&net->lock))
		return -EINTR;
	ret = vcube_nl_dump(skb, cb, VCUBE_CMD_DEADLOCK_GET, 0,
			    vc_deadlock_count(net->engine, &time),
			    vcube_nl_deadlock_fill);
	mutex_unlock(&net->lock);
	return ret;
}

/* GENL_ADMIN_PERM (the spec's admin-perm) keeps it to CAP_NET_ADMIN. */
int vcube_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vcube_net *net = vcube_nl_net;

	if (mutex_lock_killable(&net->lock))
		return -EINTR;
	vc_stats_reset(net->engine);
	mutex_unlock(&net->lock);
	return 0;
}

/* The trace records (1) or not (0); what it keeps stays. */
int vcube_nl_trace_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vcube_net *net = vcube_nl_net;

	if (GENL_REQ_ATTR_CHECK(info, VCUBE_A_TOPO_TRACE_ON))
		return -EINVAL;
	if (!net->params.trace_max) {
		NL_SET_ERR_MSG(info->extack,
			       "the module was loaded with trace=0: no trace to switch");
		return -EOPNOTSUPP;
	}
	if (mutex_lock_killable(&net->lock))
		return -EINTR;
	vc_trace_enable(net->engine,
			nla_get_u32(info->attrs[VCUBE_A_TOPO_TRACE_ON]));
	mutex_unlock(&net->lock);
	return 0;
}

/*
 * The engine's announcements, to the monitor group (in the initial network
 * namespace). Called under the network's lock, in the process whose call
 * caused them: the lock is a mutex, so GFP_KERNEL is fine. Nothing is
 * built while nobody listens; a listener too slow to read loses
 * notifications (ENOBUFS on its socket), never the engine's time.
 */
/* The largest notice: its kind and time, then a peak's window, peak, channel. */
#define VCUBE_NL_NOTICE_SIZE	(4 * nla_total_size(sizeof(u32)) + \
				 nla_total_size_64bit(sizeof(u64)))

static void vcube_nl_notify(void *ctx, const struct vc_notice *nt)
{
	bool peak = nt->kind == VC_NOTICE_PEAK;
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&vcube_nl_family, &init_net,
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
	    vcube_nl_put_u64(skb, VCUBE_A_NOTICE_TIME, VCUBE_A_NOTICE_PAD,
			     nt->time))
		goto fail;
	if (peak ? nla_put_u32(skb, VCUBE_A_NOTICE_WINDOW, nt->window) ||
		   nla_put_u32(skb, VCUBE_A_NOTICE_PEAK, nt->peak) ||
		   nla_put_u32(skb, VCUBE_A_NOTICE_CHANNEL, nt->chan) :
		   nla_put_u32(skb, VCUBE_A_NOTICE_WAITING, nt->waiting))
		goto fail;
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&vcube_nl_family, skb, 0, VCUBE_NLGRP_MONITOR,
			  GFP_KERNEL);
	return;
fail:
	nlmsg_free(skb);
}

int vcube_nl_init(struct vcube_net *net)
{
	int ret;

	vcube_nl_net = net;
	/*
	 * There is one network, not one per network namespace: the family
	 * exists in the initial namespace only (ynl-gen always writes
	 * netnsok = true; the family is still writable during module init).
	 */
	vcube_nl_family.netnsok = false;
	ret = genl_register_family(&vcube_nl_family);
	if (ret)
		return ret;
	/* the devices exist already: a node may be in a call */
	mutex_lock(&net->lock);
	vc_engine_set_notify(net->engine, vcube_nl_notify, net);
	mutex_unlock(&net->lock);
	return 0;
}

void vcube_nl_exit(void)
{
	struct vcube_net *net = vcube_nl_net;

	mutex_lock(&net->lock);
	vc_engine_set_notify(net->engine, NULL, NULL);
	mutex_unlock(&net->lock);
	genl_unregister_family(&vcube_nl_family);
	vcube_nl_net = NULL;
}
