// SPDX-License-Identifier: MIT
/*
 * libvcube: the generic netlink family "vcube", with libnl-genl-3.
 *
 * Each call sends one request and reads the answer datagram by datagram
 * (one datagram is one part of a dump), so a dump knows its parts and an
 * error keeps the kernel's extended-ack text.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "vcube.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

struct vcube_nl {
	struct nl_sock *sk;
	int family;
	unsigned int seq;		/* of the request in flight */
	char errmsg[256];
	/* the network the commands name (net-id); none: the default one */
	bool net_set;
	uint32_t net_id;
};

/* libnl's error codes, as errno values. */
static int vcube_nl_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_DUMP_INTR:
		return -EAGAIN;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	default:
		return -EIO;
	}
}

int vcube_nl_open(struct vcube_nl **nlp)
{
	struct vcube_nl *nl;
	int one = 1, ret;

	if (!nlp)
		return -EINVAL;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		free(nl);
		return -ENOMEM;
	}
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = vcube_nl_errno(ret);
		goto err_sock;
	}
	/* Error text from the kernel (best effort: old kernels lack it). */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	/* Whole datagrams, however large the kernel made a dump part. */
	nl_socket_enable_msg_peek(nl->sk);
	/* Acks only where asked for: a do answers with its reply alone. */
	nl_socket_disable_auto_ack(nl->sk);
	nl->family = genl_ctrl_resolve(nl->sk, VCUBE_FAMILY_NAME);
	if (nl->family < 0) {
		ret = nl->family == -NLE_OBJ_NOTFOUND ? -ENOENT :
			vcube_nl_errno(nl->family);
		goto err_sock;
	}
	/*
	 * The network the environment names (VCUBE_NET), else the default
	 * one if there is one (its notices are told from others' by id;
	 * without it, or on a module older than net-get, commands name no
	 * network and the kernel takes its default).
	 */
	ret = vcube_nl_net_use(nl, vcube_env_net());
	if (ret && vcube_env_net())
		goto err_sock;
	nl->errmsg[0] = '\0';
	*nlp = nl;
	return 0;

err_sock:
	nl_socket_free(nl->sk);
	free(nl);
	return ret;
}

void vcube_nl_close(struct vcube_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

const char *vcube_nl_errmsg(const struct vcube_nl *nl)
{
	return nl ? nl->errmsg : "";
}

/* The attribute by which command @cmd names its network (0: none). */
static int vcube_nl_net_attr(uint8_t cmd)
{
	switch (cmd) {
	case VCUBE_CMD_TOPO_GET:
	case VCUBE_CMD_STATS_RESET:
	case VCUBE_CMD_TRACE_SET:
		return VCUBE_A_TOPO_NET_ID;
	case VCUBE_CMD_LINK_GET:
		return VCUBE_A_LINK_NET_ID;
	case VCUBE_CMD_NODE_GET:
		return VCUBE_A_NODE_NET_ID;
	case VCUBE_CMD_CNET_GET:
		return VCUBE_A_CNET_NET_ID;
	case VCUBE_CMD_WINDOW_GET:
		return VCUBE_A_WINDOW_NET_ID;
	case VCUBE_CMD_TRACE_GET:
		return VCUBE_A_TRACE_NET_ID;
	case VCUBE_CMD_DEADLOCK_GET:
		return VCUBE_A_DEADLOCK_NET_ID;
	default:
		return 0;
	}
}

/* A request's head, naming the network the handle uses; NULL: ENOMEM. */
/* A request of @cmd, room for @size bytes (0: a page). */
static struct nl_msg *vcube_nl_msg_size(struct vcube_nl *nl, uint8_t cmd,
					int flags, size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();
	int attr = vcube_nl_net_attr(cmd);

	if (!msg)
		return NULL;
	nl->errmsg[0] = '\0';
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, VCUBE_FAMILY_VERSION) ||
	    (attr && nl->net_set && nla_put_u32(msg, attr, nl->net_id))) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static struct nl_msg *vcube_nl_msg(struct vcube_nl *nl, uint8_t cmd,
				   int flags)
{
	return vcube_nl_msg_size(nl, cmd, flags, 0);
}

/* Send @msg (and free it): 0 or -errno. */
static int vcube_nl_msg_send(struct vcube_nl *nl, struct nl_msg *msg)
{
	int ret = nl_send_auto(nl->sk, msg);

	nl->seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	return ret < 0 ? vcube_nl_errno(ret) : 0;
}

static int vcube_nl_send(struct vcube_nl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = vcube_nl_msg(nl, cmd, flags);

	return msg ? vcube_nl_msg_send(nl, msg) : -ENOMEM;
}

/* An NLMSG_ERROR: its errno, and the extended-ack text if there is one. */
static int vcube_nl_error(struct vcube_nl *nl, struct nlmsghdr *h)
{
	struct nlmsgerr *e = nlmsg_data(h);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e);

	if (h->nlmsg_len < (unsigned int)nlmsg_size(sizeof(*e)))
		return -EIO;
	if (!e->error)
		return 0;
	/* without NLM_F_CAPPED the request is echoed before the TLVs */
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    off < (size_t)nlmsg_datalen(h) &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX,
		       (struct nlattr *)((char *)e + off),
		       nlmsg_datalen(h) - (int)off, NULL) &&
	    tb[NLMSGERR_ATTR_MSG]) {
		strncpy(nl->errmsg, nla_get_string(tb[NLMSGERR_ATTR_MSG]),
			sizeof(nl->errmsg) - 1);
	}
	return e->error;
}

/*
 * Read the answer to the last request: @parse for each vcube message, until
 * the ack or the end of the dump. An interrupted dump is read to its end,
 * then reported as -EAGAIN.
 */
static int vcube_nl_recv(struct vcube_nl *nl, bool dump,
			 int (*parse)(struct nlattr **tb, void *arg),
			 int maxattr, void *arg, unsigned int *parts)
{
	struct nlattr *tb[VCUBE_A_NET_MAX + 1];
	struct sockaddr_nl who;
	unsigned char *buf = NULL;
	bool intr = false;
	int len, ret = 0;

	if (maxattr >= (int)(sizeof(tb) / sizeof(tb[0])))
		return -EINVAL;
	if (parts)
		*parts = 0;
	for (;;) {
		struct nlmsghdr *h;

		len = nl_recv(nl->sk, &who, &buf, NULL);
		if (len <= 0)
			return len < 0 ? vcube_nl_errno(len) : -EIO;
		if (parts)
			(*parts)++;
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, len);
		     h = nlmsg_next(h, &len)) {
			if (h->nlmsg_seq != nl->seq)	/* an older answer */
				continue;
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (h->nlmsg_type == NLMSG_DONE) {
				/* a dump that failed says why here */
				if (nlmsg_datalen(h) >= (int)sizeof(int) &&
				    *(int *)nlmsg_data(h) < 0 && !ret)
					ret = *(int *)nlmsg_data(h);
				goto out;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				ret = vcube_nl_error(nl, h);
				goto out;
			}
			if (h->nlmsg_type != nl->family)
				continue;
			if (genlmsg_parse(h, 0, tb, maxattr, NULL)) {
				ret = -EIO;
				goto out;
			}
			if (!ret)
				ret = parse(tb, arg);
			if (ret)
				goto out;
			if (!dump)	/* the one reply */
				goto out;
		}
		free(buf);
		buf = NULL;
	}
out:
	free(buf);
	if (!ret && intr)
		ret = -EAGAIN;
	return ret;
}

#define U32(tb, a)	((tb)[a] ? nla_get_u32((tb)[a]) : 0)
#define U64(tb, a)	((tb)[a] ? nla_get_u64((tb)[a]) : 0)

static void vcube_nl_copy_str(char *dst, size_t len, struct nlattr *a)
{
	dst[0] = '\0';
	if (a)
		strncpy(dst, nla_get_string(a), len - 1);
	dst[len - 1] = '\0';
}

static int vcube_nl_topo_parse(struct nlattr **tb, void *arg)
{
	struct vcube_nl_topo *t = arg;

	if (!tb[VCUBE_A_TOPO_NODES] || !tb[VCUBE_A_TOPO_KIND])
		return -EIO;
	t->kind = U32(tb, VCUBE_A_TOPO_KIND);
	t->trace_max = U32(tb, VCUBE_A_TOPO_TRACE_MAX);
	t->trace_on = U32(tb, VCUBE_A_TOPO_TRACE_ON);
	t->switching = U32(tb, VCUBE_A_TOPO_SWITCHING);
	t->nodes = U32(tb, VCUBE_A_TOPO_NODES);
	t->channels = U32(tb, VCUBE_A_TOPO_CHANNELS);
	t->links = U32(tb, VCUBE_A_TOPO_LINKS);
	t->diameter = U32(tb, VCUBE_A_TOPO_DIAMETER);
	vcube_nl_copy_str(t->shape, sizeof(t->shape), tb[VCUBE_A_TOPO_SHAPE]);
	vcube_nl_copy_str(t->profile, sizeof(t->profile),
			  tb[VCUBE_A_TOPO_PROFILE]);
	t->now = U64(tb, VCUBE_A_TOPO_NOW);
	t->elapsed = U64(tb, VCUBE_A_TOPO_ELAPSED);
	t->messages = U64(tb, VCUBE_A_TOPO_MESSAGES);
	t->transfers = U64(tb, VCUBE_A_TOPO_TRANSFERS);
	t->waits = U64(tb, VCUBE_A_TOPO_WAITS);
	t->wait_ns = U64(tb, VCUBE_A_TOPO_WAIT_NS);
	t->deadlocks = U64(tb, VCUBE_A_TOPO_DEADLOCKS);
	t->port_waits = U64(tb, VCUBE_A_TOPO_PORT_WAITS);
	t->duplex_waits = U64(tb, VCUBE_A_TOPO_DUPLEX_WAITS);
	t->events = U64(tb, VCUBE_A_TOPO_EVENTS);
	t->leases = U64(tb, VCUBE_A_TOPO_LEASES);
	return 0;
}

int vcube_nl_topo_get(struct vcube_nl *nl, struct vcube_nl_topo *topo)
{
	int ret;

	if (!nl || !topo)
		return -EINVAL;
	memset(topo, 0, sizeof(*topo));
	nl->errmsg[0] = '\0';
	ret = vcube_nl_send(nl, VCUBE_CMD_TOPO_GET, 0);
	if (ret)
		return ret;
	ret = vcube_nl_recv(nl, false, vcube_nl_topo_parse, VCUBE_A_TOPO_MAX,
			    topo, NULL);
	if (!ret && !topo->nodes)
		ret = -EIO;
	return ret;
}

static int vcube_nl_trace_seq_parse(struct nlattr **tb, void *arg)
{
	if (!tb[VCUBE_A_TOPO_TRACE_SEQ])
		return -EIO;
	*(uint64_t *)arg = U64(tb, VCUBE_A_TOPO_TRACE_SEQ);
	return 0;
}

int vcube_nl_trace_seq(struct vcube_nl *nl, uint64_t *seq)
{
	int ret;

	if (!nl || !seq)
		return -EINVAL;
	ret = vcube_nl_send(nl, VCUBE_CMD_TOPO_GET, 0);
	return ret ?: vcube_nl_recv(nl, false, vcube_nl_trace_seq_parse,
				    VCUBE_A_TOPO_MAX, seq, NULL);
}

static int vcube_nl_cnet_parse(struct nlattr **tb, void *arg)
{
	struct vcube_nl_cnet *c = arg;

	if (!tb[VCUBE_A_CNET_PRESENT])
		return -EIO;
	c->present = U32(tb, VCUBE_A_CNET_PRESENT);
	c->word_ns = U64(tb, VCUBE_A_CNET_WORD_NS);
	c->double_ns = U64(tb, VCUBE_A_CNET_DOUBLE_NS);
	c->bcast_ns = U64(tb, VCUBE_A_CNET_BCAST_NS);
	c->barriers = U64(tb, VCUBE_A_CNET_BARRIERS);
	c->reductions = U64(tb, VCUBE_A_CNET_REDUCTIONS);
	c->scans = U64(tb, VCUBE_A_CNET_SCANS);
	c->broadcasts = U64(tb, VCUBE_A_CNET_BROADCASTS);
	c->bytes = U64(tb, VCUBE_A_CNET_BYTES);
	c->busy_ns = U64(tb, VCUBE_A_CNET_BUSY_NS);
	c->wait_ns = U64(tb, VCUBE_A_CNET_WAIT_NS);
	return 0;
}

int vcube_nl_cnet_get(struct vcube_nl *nl, struct vcube_nl_cnet *cnet)
{
	int ret;

	if (!nl || !cnet)
		return -EINVAL;
	memset(cnet, 0, sizeof(*cnet));
	nl->errmsg[0] = '\0';
	ret = vcube_nl_send(nl, VCUBE_CMD_CNET_GET, 0);
	if (ret)
		return ret;
	return vcube_nl_recv(nl, false, vcube_nl_cnet_parse, VCUBE_A_CNET_MAX,
			     cnet, NULL);
}

/* A growing array of dump entries. */
struct vcube_nl_vec {
	void *a;
	size_t n, cap, size;
	int (*fill)(struct nlattr **tb, void *entry);
};

static int vcube_nl_vec_parse(struct nlattr **tb, void *arg)
{
	struct vcube_nl_vec *v = arg;

	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;
		void *a = realloc(v->a, cap * v->size);

		if (!a)
			return -ENOMEM;
		v->a = a;
		v->cap = cap;
	}
	memset((char *)v->a + v->n * v->size, 0, v->size);
	if (v->fill(tb, (char *)v->a + v->n * v->size))
		return -EIO;
	v->n++;
	return 0;
}

/* A dump the counters moved under is read again, up to this many times. */
#define VCUBE_NL_DUMP_TRIES	8

static int vcube_nl_dump(struct vcube_nl *nl, uint8_t cmd, int maxattr,
			 struct vcube_nl_vec *v, void **out, size_t *n,
			 unsigned int *parts)
{
	int ret, tries = 0;

	if (!nl || !out || !n)
		return -EINVAL;
	do {
		v->n = 0;
		nl->errmsg[0] = '\0';
		ret = vcube_nl_send(nl, cmd, NLM_F_DUMP);
		if (!ret)
			ret = vcube_nl_recv(nl, true, vcube_nl_vec_parse,
					    maxattr, v, parts);
	} while (ret == -EAGAIN && ++tries < VCUBE_NL_DUMP_TRIES);
	if (ret) {
		free(v->a);
		return ret;
	}
	*out = v->a;
	*n = v->n;
	return 0;
}

static int vcube_nl_link_fill(struct nlattr **tb, void *entry)
{
	struct vcube_nl_link *l = entry;

	if (!tb[VCUBE_A_LINK_ID])
		return -EIO;
	l->id = U32(tb, VCUBE_A_LINK_ID);
	l->from = U32(tb, VCUBE_A_LINK_FROM);
	l->to = U32(tb, VCUBE_A_LINK_TO);
	l->from_level = U32(tb, VCUBE_A_LINK_FROM_LEVEL);
	l->to_level = U32(tb, VCUBE_A_LINK_TO_LEVEL);
	l->dir = U32(tb, VCUBE_A_LINK_DIR);
	l->lane = U32(tb, VCUBE_A_LINK_LANE);
	l->width = U32(tb, VCUBE_A_LINK_WIDTH);
	l->peak = U32(tb, VCUBE_A_LINK_PEAK);
	l->messages = U64(tb, VCUBE_A_LINK_MESSAGES);
	l->bytes = U64(tb, VCUBE_A_LINK_BYTES);
	l->transfers = U64(tb, VCUBE_A_LINK_TRANSFERS);
	l->busy_ns = U64(tb, VCUBE_A_LINK_BUSY_NS);
	l->waits = U64(tb, VCUBE_A_LINK_WAITS);
	l->wait_ns = U64(tb, VCUBE_A_LINK_WAIT_NS);
	return 0;
}

int vcube_nl_link_dump(struct vcube_nl *nl, struct vcube_nl_link **out,
		       size_t *n, unsigned int *parts)
{
	struct vcube_nl_vec v = { .size = sizeof(**out),
				  .fill = vcube_nl_link_fill };

	return vcube_nl_dump(nl, VCUBE_CMD_LINK_GET, VCUBE_A_LINK_MAX, &v,
			     (void **)out, n, parts);
}

static int vcube_nl_node_fill(struct nlattr **tb, void *entry)
{
	struct vcube_nl_node *d = entry;

	if (!tb[VCUBE_A_NODE_ID] || !tb[VCUBE_A_NODE_STATE])
		return -EIO;
	d->id = U32(tb, VCUBE_A_NODE_ID);
	d->state = U32(tb, VCUBE_A_NODE_STATE);
	d->pid = U32(tb, VCUBE_A_NODE_PID);
	d->clock = U64(tb, VCUBE_A_NODE_CLOCK);
	d->sent = U64(tb, VCUBE_A_NODE_SENT);
	d->received = U64(tb, VCUBE_A_NODE_RECEIVED);
	d->forced_dropped = U64(tb, VCUBE_A_NODE_FORCED_DROPPED);
	d->buffered = U64(tb, VCUBE_A_NODE_BUFFERED);
	d->discarded = U64(tb, VCUBE_A_NODE_DISCARDED);
	d->sysbuf_peak = U64(tb, VCUBE_A_NODE_SYSBUF_PEAK);
	return 0;
}

int vcube_nl_node_dump(struct vcube_nl *nl, struct vcube_nl_node **out,
		       size_t *n, unsigned int *parts)
{
	struct vcube_nl_vec v = { .size = sizeof(**out),
				  .fill = vcube_nl_node_fill };

	return vcube_nl_dump(nl, VCUBE_CMD_NODE_GET, VCUBE_A_NODE_MAX, &v,
			     (void **)out, n, parts);
}

static int vcube_nl_window_fill(struct nlattr **tb, void *entry)
{
	struct vcube_nl_window *w = entry;

	if (!tb[VCUBE_A_WINDOW_INDEX])
		return -EIO;
	w->index = U32(tb, VCUBE_A_WINDOW_INDEX);
	w->peak = U32(tb, VCUBE_A_WINDOW_PEAK);
	return 0;
}

int vcube_nl_window_dump(struct vcube_nl *nl, struct vcube_nl_window **out,
			 size_t *n, unsigned int *parts)
{
	struct vcube_nl_vec v = { .size = sizeof(**out),
				  .fill = vcube_nl_window_fill };

	return vcube_nl_dump(nl, VCUBE_CMD_WINDOW_GET, VCUBE_A_WINDOW_MAX, &v,
			     (void **)out, n, parts);
}

/* A u32 that may name nothing: VCUBE_TRACE_NONE when absent. */
static uint32_t vcube_nl_id(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u32(tb[a]) : VCUBE_TRACE_NONE;
}

static int vcube_nl_trace_fill(struct nlattr **tb, void *entry)
{
	struct vcube_trace_rec *r = entry;

	if (!tb[VCUBE_A_TRACE_SEQ] || !tb[VCUBE_A_TRACE_KIND])
		return -EIO;
	r->seq = U64(tb, VCUBE_A_TRACE_SEQ);
	r->start = U64(tb, VCUBE_A_TRACE_START);
	r->end = U64(tb, VCUBE_A_TRACE_END);
	r->bytes = U64(tb, VCUBE_A_TRACE_BYTES);
	r->src = U32(tb, VCUBE_A_TRACE_SRC);
	r->dst = vcube_nl_id(tb, VCUBE_A_TRACE_DST);
	r->tag = U32(tb, VCUBE_A_TRACE_TAG);
	r->channel = vcube_nl_id(tb, VCUBE_A_TRACE_CHANNEL);
	r->hop = U32(tb, VCUBE_A_TRACE_HOP);
	r->kind = U32(tb, VCUBE_A_TRACE_KIND);
	r->msg = vcube_nl_id(tb, VCUBE_A_TRACE_MSG);
	r->acquired = U64(tb, VCUBE_A_TRACE_ACQUIRED);
	r->flow = U64(tb, VCUBE_A_TRACE_FLOW);
	r->proto = U32(tb, VCUBE_A_TRACE_PROTO);
	r->cause = U32(tb, VCUBE_A_TRACE_CAUSE);
	r->holder = vcube_nl_id(tb, VCUBE_A_TRACE_HOLDER);
	if (tb[VCUBE_A_TRACE_LABEL])
		nla_strlcpy(r->label, tb[VCUBE_A_TRACE_LABEL],
			    sizeof(r->label));
	return 0;
}

int vcube_nl_trace_dump(struct vcube_nl *nl, struct vcube_trace_rec **out,
			size_t *n, unsigned int *parts)
{
	struct vcube_nl_vec v = { .size = sizeof(**out),
				  .fill = vcube_nl_trace_fill };

	return vcube_nl_dump(nl, VCUBE_CMD_TRACE_GET, VCUBE_A_TRACE_MAX, &v,
			     (void **)out, n, parts);
}

static int vcube_nl_deadlock_fill(struct nlattr **tb, void *entry)
{
	struct vcube_nl_deadlock *d = entry;

	if (!tb[VCUBE_A_DEADLOCK_NODE] || !tb[VCUBE_A_DEADLOCK_KIND])
		return -EIO;
	d->time = U64(tb, VCUBE_A_DEADLOCK_TIME);
	d->clock = U64(tb, VCUBE_A_DEADLOCK_CLOCK);
	d->node = U32(tb, VCUBE_A_DEADLOCK_NODE);
	d->kind = U32(tb, VCUBE_A_DEADLOCK_KIND);
	d->peer = tb[VCUBE_A_DEADLOCK_PEER] ?
		  (int)nla_get_s32(tb[VCUBE_A_DEADLOCK_PEER]) : -1;
	d->tag = tb[VCUBE_A_DEADLOCK_TAG] ?
		 (int)nla_get_s32(tb[VCUBE_A_DEADLOCK_TAG]) : -1;
	d->first = U32(tb, VCUBE_A_DEADLOCK_FIRST);
	d->nodes = U32(tb, VCUBE_A_DEADLOCK_NODES);
	d->entered = U32(tb, VCUBE_A_DEADLOCK_ENTERED);
	return 0;
}

int vcube_nl_deadlock_dump(struct vcube_nl *nl, struct vcube_nl_deadlock **out,
			   size_t *n, unsigned int *parts)
{
	struct vcube_nl_vec v = { .size = sizeof(**out),
				  .fill = vcube_nl_deadlock_fill };

	return vcube_nl_dump(nl, VCUBE_CMD_DEADLOCK_GET, VCUBE_A_DEADLOCK_MAX,
			     &v, (void **)out, n, parts);
}

static int vcube_nl_nothing(struct nlattr **tb, void *arg)
{
	(void)tb;
	(void)arg;
	return 0;
}

int vcube_nl_stats_reset(struct vcube_nl *nl)
{
	int ret;

	if (!nl)
		return -EINVAL;
	nl->errmsg[0] = '\0';
	ret = vcube_nl_send(nl, VCUBE_CMD_STATS_RESET, NLM_F_ACK);
	return ret ? ret : vcube_nl_recv(nl, false, vcube_nl_nothing, 0, NULL,
					 NULL);
}

int vcube_nl_trace_set(struct vcube_nl *nl, bool on)
{
	struct nl_msg *msg;
	int ret;

	if (!nl)
		return -EINVAL;
	msg = vcube_nl_msg(nl, VCUBE_CMD_TRACE_SET, NLM_F_ACK);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, VCUBE_A_TOPO_TRACE_ON, on)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ret = vcube_nl_msg_send(nl, msg);
	return ret ?: vcube_nl_recv(nl, false, vcube_nl_nothing, 0, NULL, NULL);
}

const char *vcube_switching_name(unsigned int switching)
{
	static const char *const names[] = {
		[VCUBE_SWITCHING_CIRCUIT] = "circuit",
		[VCUBE_SWITCHING_WORMHOLE] = "wormhole",
		[VCUBE_SWITCHING_PACKET] = "packet",
	};

	return switching < sizeof(names) / sizeof(names[0]) ?
	       names[switching] : "unknown";
}

const char *vcube_node_state_name(unsigned int state)
{
	static const char *const names[] = {
		[VCUBE_NODE_STATE_UNBOUND] = "unbound",
		[VCUBE_NODE_STATE_RUNNING] = "running",
		[VCUBE_NODE_STATE_BLOCKED] = "blocked",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] :
							  "unknown";
}

int vcube_nl_monitor(struct vcube_nl *nl)
{
	int grp, ret;

	if (!nl)
		return -EINVAL;
	grp = genl_ctrl_resolve_grp(nl->sk, VCUBE_FAMILY_NAME,
				    VCUBE_MCGRP_MONITOR);
	if (grp < 0)	/* a module from before the group */
		return grp == -NLE_OBJ_NOTFOUND ? -ENOENT : vcube_nl_errno(grp);
	ret = nl_socket_add_membership(nl->sk, grp);
	return ret < 0 ? vcube_nl_errno(ret) : 0;
}

static int vcube_nl_notice_parse(struct nlattr **tb, void *arg)
{
	struct vcube_nl_notice *nt = arg;

	if (!tb[VCUBE_A_NOTICE_KIND] || !tb[VCUBE_A_NOTICE_TIME])
		return -EIO;
	memset(nt, 0, sizeof(*nt));
	nt->kind = U32(tb, VCUBE_A_NOTICE_KIND);
	nt->time = U64(tb, VCUBE_A_NOTICE_TIME);
	nt->window = U32(tb, VCUBE_A_NOTICE_WINDOW);
	nt->peak = U32(tb, VCUBE_A_NOTICE_PEAK);
	nt->channel = U32(tb, VCUBE_A_NOTICE_CHANNEL);
	nt->waiting = U32(tb, VCUBE_A_NOTICE_WAITING);
	return 0;
}

/* A notice about another network than the one the handle uses. */
static bool vcube_nl_other_net(const struct vcube_nl *nl, struct nlattr *id)
{
	return nl->net_set && id && nla_get_u32(id) != nl->net_id;
}

/*
 * The kernel sends each notification as its own datagram, with sequence
 * number 0; anything else on the socket (a late answer) is skipped.
 */
int vcube_nl_notice_recv(struct vcube_nl *nl, struct vcube_nl_notice *nt,
			 int timeout_ms)
{
	struct nlattr *tb[VCUBE_A_NOTICE_MAX + 1];
	struct pollfd pfd;
	struct sockaddr_nl who;
	unsigned char *buf;
	struct nlmsghdr *h;
	int len, ret;

	if (!nl || !nt)
		return -EINVAL;
	pfd.fd = nl_socket_get_fd(nl->sk);
	pfd.events = POLLIN;
	for (;;) {
		ret = poll(&pfd, 1, timeout_ms);
		if (ret < 0)
			return -errno;
		if (!ret)
			return 0;
		buf = NULL;
		errno = 0;
		len = nl_recv(nl->sk, &who, &buf, NULL);
		if (len <= 0) {
			free(buf);
			if (errno == ENOBUFS)
				return -ENOBUFS;
			return len < 0 ? vcube_nl_errno(len) : -EIO;
		}
		ret = 0;
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, len);
		     h = nlmsg_next(h, &len)) {
			if (h->nlmsg_type != nl->family || h->nlmsg_seq)
				continue;
			if (genlmsg_parse(h, 0, tb, VCUBE_A_NOTICE_MAX, NULL))
				ret = -EIO;
			else if (vcube_nl_other_net(nl, tb[VCUBE_A_NOTICE_NET_ID]))
				continue;
			else
				ret = vcube_nl_notice_parse(tb, nt);
			ret = ret ? ret : 1;
			break;
		}
		free(buf);
		if (ret)
			return ret;
	}
}

/* ---- networks: net-new, net-del, net-get --------------------------------- */

static int vcube_nl_net_parse(struct nlattr **tb, void *entry)
{
	struct vcube_nl_net *n = entry;

	if (!tb[VCUBE_A_NET_ID] || !tb[VCUBE_A_NET_NAME])
		return -EIO;
	n->id = U32(tb, VCUBE_A_NET_ID);
	vcube_nl_copy_str(n->name, sizeof(n->name), tb[VCUBE_A_NET_NAME]);
	n->is_default = U32(tb, VCUBE_A_NET_DEFAULT);
	vcube_nl_copy_str(n->topology, sizeof(n->topology),
			  tb[VCUBE_A_NET_TOPOLOGY]);
	vcube_nl_copy_str(n->shape, sizeof(n->shape), tb[VCUBE_A_NET_SHAPE]);
	vcube_nl_copy_str(n->profile, sizeof(n->profile),
			  tb[VCUBE_A_NET_PROFILE]);
	vcube_nl_copy_str(n->switching, sizeof(n->switching),
			  tb[VCUBE_A_NET_SWITCHING]);
	n->nodes = U32(tb, VCUBE_A_NET_NODES);
	n->channels = U32(tb, VCUBE_A_NET_CHANNELS);
	n->mode = U32(tb, VCUBE_A_NET_MODE);
	n->bound = U32(tb, VCUBE_A_NET_BOUND);
	return 0;
}

/* Ask net-get for the network @name (NULL: every one of the namespace). */
static int vcube_nl_net_get(struct vcube_nl *nl, const char *name,
			    struct vcube_nl_vec *v)
{
	struct nl_msg *msg = vcube_nl_msg(nl, VCUBE_CMD_NET_GET, NLM_F_DUMP);
	int ret;

	if (!msg)
		return -ENOMEM;
	if (name && nla_put_string(msg, VCUBE_A_NET_NAME, name)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ret = vcube_nl_msg_send(nl, msg);
	return ret ?: vcube_nl_recv(nl, true, vcube_nl_vec_parse,
				    VCUBE_A_NET_MAX, v, NULL);
}

int vcube_nl_net_dump(struct vcube_nl *nl, const char *name,
		      struct vcube_nl_net **out, size_t *n)
{
	struct vcube_nl_vec v = {
		.size = sizeof(**out), .fill = vcube_nl_net_parse,
	};
	int ret;

	if (!nl || !out || !n)
		return -EINVAL;
	ret = vcube_nl_net_get(nl, name, &v);
	if (ret) {
		free(v.a);
		return ret;
	}
	*out = v.a;
	*n = v.n;
	return 0;
}

int vcube_nl_net_use(struct vcube_nl *nl, const char *name)
{
	struct vcube_nl_net *nets;
	size_t n, i;
	int ret;

	if (!nl)
		return -EINVAL;
	if (name && !strcmp(name, "default"))
		name = NULL;
	ret = vcube_nl_net_dump(nl, name, &nets, &n);
	if (ret == -ENOENT)
		ret = 0, n = 0, nets = NULL;
	if (ret)
		return ret;
	for (i = 0; i < n && !name && !nets[i].is_default; i++)
		;
	nl->net_set = i < n;
	if (nl->net_set)
		nl->net_id = nets[i].id;
	else if (name)
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "no network named %s in this network namespace", name);
	else
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "no default network in this network namespace");
	free(nets);
	return nl->net_set ? 0 : -ENODEV;
}

enum vcube_nl_kind { VCUBE_NL_STR, VCUBE_NL_U32, VCUBE_NL_U64, VCUBE_NL_COST };

/* net-new's words: the module parameters', and their attributes. */
static const struct {
	const char *key;
	int attr;
	enum vcube_nl_kind kind;
} vcube_nl_net_keys[] = {
	{ "topology", VCUBE_A_NET_TOPOLOGY, VCUBE_NL_STR },
	{ "dim", VCUBE_A_NET_DIM, VCUBE_NL_U32 },
	{ "rows", VCUBE_A_NET_ROWS, VCUBE_NL_U32 },
	{ "cols", VCUBE_A_NET_COLS, VCUBE_NL_U32 },
	{ "dims", VCUBE_A_NET_DIMS, VCUBE_NL_STR },
	{ "nodes", VCUBE_A_NET_NODES, VCUBE_NL_U32 },
	{ "profile", VCUBE_A_NET_PROFILE, VCUBE_NL_STR },
	{ "seed", VCUBE_A_NET_SEED, VCUBE_NL_U64 },
	{ "mode", VCUBE_A_NET_MODE, VCUBE_NL_U32 },
	{ "max_msg", VCUBE_A_NET_MAX_MSG, VCUBE_NL_U64 },
	{ "max_reqs", VCUBE_A_NET_MAX_REQS, VCUBE_NL_U32 },
	{ "max_inflight", VCUBE_A_NET_MAX_INFLIGHT, VCUBE_NL_U64 },
	{ "max_inflight_node", VCUBE_A_NET_MAX_INFLIGHT_NODE, VCUBE_NL_U64 },
	{ "idle_lease_ms", VCUBE_A_NET_IDLE_LEASE_MS, VCUBE_NL_U32 },
	{ "trace", VCUBE_A_NET_TRACE, VCUBE_NL_U32 },
	{ "noise", VCUBE_A_NET_NOISE, VCUBE_NL_STR },
	{ "jitter_dist", VCUBE_A_NET_JITTER_DIST, VCUBE_NL_STR },
	{ "switching", VCUBE_A_NET_SWITCHING, VCUBE_NL_STR },
	{ "arbitration", VCUBE_A_NET_ARBITRATION, VCUBE_NL_STR },
	{ "short_base_ns", VCUBE_A_NET_SHORT_BASE_NS, VCUBE_NL_COST },
	{ "short_byte_ns", VCUBE_A_NET_SHORT_BYTE_NS, VCUBE_NL_COST },
	{ "short_hop_ns", VCUBE_A_NET_SHORT_HOP_NS, VCUBE_NL_COST },
	{ "ctl_base_ns", VCUBE_A_NET_CTL_BASE_NS, VCUBE_NL_COST },
	{ "ctl_hop_ns", VCUBE_A_NET_CTL_HOP_NS, VCUBE_NL_COST },
	{ "long_base_ns", VCUBE_A_NET_LONG_BASE_NS, VCUBE_NL_COST },
	{ "long_byte_ns", VCUBE_A_NET_LONG_BYTE_NS, VCUBE_NL_COST },
	{ "long_hop_ns", VCUBE_A_NET_LONG_HOP_NS, VCUBE_NL_COST },
	{ "tail_ns", VCUBE_A_NET_TAIL_NS, VCUBE_NL_COST },
	{ "short_max", VCUBE_A_NET_SHORT_MAX, VCUBE_NL_COST },
	{ "eject", VCUBE_A_NET_EJECT, VCUBE_NL_COST },
	{ "sysbuf", VCUBE_A_NET_SYSBUF, VCUBE_NL_COST },
	{ "lanes", VCUBE_A_NET_LANES, VCUBE_NL_COST },
	{ "gamma", VCUBE_A_NET_GAMMA, VCUBE_NL_COST },
	{ "packet_payload", VCUBE_A_NET_PACKET_PAYLOAD, VCUBE_NL_COST },
	{ "partial_ns", VCUBE_A_NET_PARTIAL_NS, VCUBE_NL_COST },
	{ "window_ns", VCUBE_A_NET_WINDOW_NS, VCUBE_NL_COST },
	{ "send_port_early", VCUBE_A_NET_SEND_PORT_EARLY, VCUBE_NL_COST },
	{ "copy_byte_ps", VCUBE_A_NET_COPY_BYTE_PS, VCUBE_NL_COST },
	{ "duplex_ns", VCUBE_A_NET_DUPLEX_NS, VCUBE_NL_COST },
	{ "recv_ns", VCUBE_A_NET_RECV_NS, VCUBE_NL_COST },
	{ "fc_bufs", VCUBE_A_NET_FC_BUFS, VCUBE_NL_COST },
	{ "noise_period_ns", VCUBE_A_NET_NOISE_PERIOD_NS, VCUBE_NL_COST },
	{ "noise_cost_ns", VCUBE_A_NET_NOISE_COST_NS, VCUBE_NL_COST },
	{ "jitter_ns", VCUBE_A_NET_JITTER_NS, VCUBE_NL_COST },
	{ "cnet_word_ns", VCUBE_A_NET_CNET_WORD_NS, VCUBE_NL_COST },
	{ "cnet_double_ns", VCUBE_A_NET_CNET_DOUBLE_NS, VCUBE_NL_COST },
	{ "cnet_bcast_ns", VCUBE_A_NET_CNET_BCAST_NS, VCUBE_NL_COST },
	{ "short_byte_ps", VCUBE_A_NET_SHORT_BYTE_PS, VCUBE_NL_COST },
	{ "long_byte_ps", VCUBE_A_NET_LONG_BYTE_PS, VCUBE_NL_COST },
	{ "inject_byte_ps", VCUBE_A_NET_INJECT_BYTE_PS, VCUBE_NL_COST },
	{ "eject_byte_ps", VCUBE_A_NET_EJECT_BYTE_PS, VCUBE_NL_COST },
	{ "channel_early", VCUBE_A_NET_CHANNEL_EARLY, VCUBE_NL_COST },
	{ "levels", VCUBE_A_NET_LEVELS, VCUBE_NL_U32 },
	{ "down", VCUBE_A_NET_DOWN, VCUBE_NL_STR },
	{ "up", VCUBE_A_NET_UP, VCUBE_NL_STR },
	{ "links", VCUBE_A_NET_LINKS, VCUBE_NL_STR },
	{ "groups", VCUBE_A_NET_GROUPS, VCUBE_NL_U32 },
	{ "routers", VCUBE_A_NET_ROUTERS, VCUBE_NL_U32 },
	{ "global", VCUBE_A_NET_GLOBAL, VCUBE_NL_U32 },
	{ "routing", VCUBE_A_NET_ROUTING, VCUBE_NL_STR },
};

/* One key=value into @msg; -EINVAL with nl's message for a bad one. */
static int vcube_nl_net_put_kv(struct vcube_nl *nl, struct nl_msg *msg,
			       const char *kv)
{
	const char *eq = strchr(kv, '='), *val;
	unsigned long long v;
	size_t i, klen;
	char *end;

	if (!eq || eq == kv) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "'%s' is not key=value", kv);
		return -EINVAL;
	}
	klen = (size_t)(eq - kv);
	val = eq + 1;
	for (i = 0; i < sizeof(vcube_nl_net_keys) / sizeof(vcube_nl_net_keys[0]); i++)
		if (strlen(vcube_nl_net_keys[i].key) == klen &&
		    !strncmp(vcube_nl_net_keys[i].key, kv, klen))
			break;
	if (i == sizeof(vcube_nl_net_keys) / sizeof(vcube_nl_net_keys[0])) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "unknown parameter %.*s (the module parameters' words: modinfo vcube)",
			 (int)klen, kv);
		return -EINVAL;
	}
	if (vcube_nl_net_keys[i].kind == VCUBE_NL_STR)
		return nla_put_string(msg, vcube_nl_net_keys[i].attr, val) ?
		       -EMSGSIZE : 0;
	/* -1: the profile's value, as for the module parameter */
	if (vcube_nl_net_keys[i].kind == VCUBE_NL_COST && !strcmp(val, "-1"))
		return 0;
	errno = 0;
	v = strtoull(val, &end, 0);
	if (!*val || *val == '-' || *end || errno ||
	    (vcube_nl_net_keys[i].kind == VCUBE_NL_U32 && v > UINT32_MAX)) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "%.*s=%s is not a number%s", (int)klen, kv, val,
			 vcube_nl_net_keys[i].kind == VCUBE_NL_U32 ?
			 " up to 4294967295" : "");
		return -EINVAL;
	}
	if (vcube_nl_net_keys[i].kind == VCUBE_NL_U32)
		return nla_put_u32(msg, vcube_nl_net_keys[i].attr,
				   (uint32_t)v) ? -EMSGSIZE : 0;
	return nla_put_u64(msg, vcube_nl_net_keys[i].attr, v) ? -EMSGSIZE : 0;
}

/* Links per graph-links attribute: its length, with its header, a u16. */
#define VCUBE_NL_GRAPH_CHUNK	16382u
/* Channels per graph-costs attribute: two u32s each. */
#define VCUBE_NL_COSTS_CHUNK	8191u
/* Routes per graph-routes attribute: three u16s each. */
#define VCUBE_NL_ROUTES_CHUNK	10922u

/*
 * @g into @msg: graph-routers, graph-nodes, and graph-links in as many
 * attributes as it takes. The kernel checks the values.
 */
static int vcube_nl_graph_put(struct nl_msg *msg, const struct vcube_nl_graph *g)
{
	unsigned int at, n;

	if (g->nodes > 4096 || g->nlinks > 32768 || (g->nodes && !g->node_router) ||
	    (g->nlinks && !g->links) || g->nroutes > 65536 ||
	    (g->nroutes && !g->routes))
		return -EINVAL;
	if (nla_put_u32(msg, VCUBE_A_NET_GRAPH_ROUTERS, g->routers) ||
	    nla_put(msg, VCUBE_A_NET_GRAPH_NODES,
		    (int)(g->nodes * sizeof(uint16_t)), g->node_router))
		return -EMSGSIZE;
	for (at = 0; at < g->nlinks; at += n) {
		n = g->nlinks - at < VCUBE_NL_GRAPH_CHUNK ? g->nlinks - at :
							    VCUBE_NL_GRAPH_CHUNK;
		if (nla_put(msg, VCUBE_A_NET_GRAPH_LINKS,
			    (int)(2 * n * sizeof(uint16_t)), g->links + 2 * at))
			return -EMSGSIZE;
	}
	for (at = 0; g->routes && at < g->nroutes; at += n) {
		n = g->nroutes - at < VCUBE_NL_ROUTES_CHUNK ? g->nroutes - at :
							      VCUBE_NL_ROUTES_CHUNK;
		if (nla_put(msg, VCUBE_A_NET_GRAPH_ROUTES,
			    (int)(3 * n * sizeof(uint16_t)), g->routes + 3 * at))
			return -EMSGSIZE;
	}
	for (at = 0; g->costs && at < 2 * (g->nodes + g->nlinks); at += n) {
		n = 2 * (g->nodes + g->nlinks) - at;
		n = n < VCUBE_NL_COSTS_CHUNK ? n : VCUBE_NL_COSTS_CHUNK;
		if (nla_put(msg, VCUBE_A_NET_GRAPH_COSTS,
			    (int)(2 * n * sizeof(uint32_t)), g->costs + 2 * at))
			return -EMSGSIZE;
	}
	return 0;
}

int vcube_nl_net_new(struct vcube_nl *nl, const char *name, int nkv,
		     char *const *kv, unsigned int flags,
		     struct vcube_nl_net *net)
{
	return vcube_nl_net_new_graph(nl, name, nkv, kv, flags, NULL, net);
}

int vcube_nl_net_new_graph(struct vcube_nl *nl, const char *name, int nkv,
			   char *const *kv, unsigned int flags,
			   const struct vcube_nl_graph *graph,
			   struct vcube_nl_net *net)
{
	struct vcube_nl_net made;
	struct nl_msg *msg;
	size_t size = 0;
	int ret = 0, i;

	if (!nl || !name || (nkv && !kv) || (flags & ~VCUBE_NL_DESTROY_ON_CLOSE))
		return -EINVAL;
	if (graph) {
		/* the words' room, and the graph's: up to 140 KiB, its costs 576 */
		size = 8192 + (graph->nodes + 2 * (size_t)graph->nlinks) *
			      sizeof(uint16_t) +
		       (graph->nlinks / VCUBE_NL_GRAPH_CHUNK + 2) * 8;
		size += 3 * (size_t)graph->nroutes * sizeof(uint16_t) +
			(graph->nroutes / VCUBE_NL_ROUTES_CHUNK + 1) * 8;
		if (graph->costs)
			size += 4 * (graph->nodes + (size_t)graph->nlinks) *
				sizeof(uint32_t) +
				(2 * (graph->nodes + graph->nlinks) /
				 VCUBE_NL_COSTS_CHUNK + 2) * 8;
		/* grown past libnl's 32 KiB only, never shrunk */
		if (size > 32768 &&
		    setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_SNDBUF,
			       &(int){ (int)size }, sizeof(int)))
			return -errno;
	}
	msg = vcube_nl_msg_size(nl, VCUBE_CMD_NET_NEW, 0, size);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, VCUBE_A_NET_NAME, name) ||
	    ((flags & VCUBE_NL_DESTROY_ON_CLOSE) &&
	     nla_put_flag(msg, VCUBE_A_NET_DESTROY_ON_CLOSE)))
		ret = -EMSGSIZE;
	for (i = 0; i < nkv && !ret; i++)
		ret = vcube_nl_net_put_kv(nl, msg, kv[i]);
	if (!ret && graph)
		ret = vcube_nl_graph_put(msg, graph);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	ret = vcube_nl_msg_send(nl, msg);
	return ret ?: vcube_nl_recv(nl, false, vcube_nl_net_parse,
				    VCUBE_A_NET_MAX, net ? net : &made, NULL);
}

int vcube_nl_net_del(struct vcube_nl *nl, const char *name)
{
	struct nl_msg *msg;
	int ret;

	if (!nl || !name)
		return -EINVAL;
	msg = vcube_nl_msg(nl, VCUBE_CMD_NET_DEL, NLM_F_ACK);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, VCUBE_A_NET_NAME, name)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	ret = vcube_nl_msg_send(nl, msg);
	return ret ?: vcube_nl_recv(nl, false, vcube_nl_nothing, 0, NULL, NULL);
}
