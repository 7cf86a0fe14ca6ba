// SPDX-License-Identifier: MIT
/*
 * libvcube: messages and virtual time on a bound node. Peers are ranks
 * of the job's placement where the node has one (place.h): translated to
 * nodes on the way in, sources back to ranks on the way out.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include "place.h"

/*
 * A send, receive or wait cut by a signal fails with EINTR having written
 * the id of its request into the status (or, a wait, having it in req):
 * the same call again, as it is, takes it up where it stopped, with no
 * message lost or sent twice and virtual time as if no signal had come.
 */
static int vcube_ioctl(struct vcube_node *node, unsigned long cmd, void *arg)
{
	int fd = vcube_node_fd(node);
	int ret;

	if (fd < 0)
		return -EINVAL;
	do
		ret = ioctl(fd, cmd, arg);
	while (ret && errno == EINTR);
	return ret ? -errno : 0;
}

/*
 * A member a signal interrupts has left the operation: it comes back.
 * Under a placement @op->first and a broadcast's @op->root are ranks, and
 * the partition's ranks must be on consecutive nodes, in order, as the
 * control network's partitions are (else -EOPNOTSUPP).
 */
int vcube_node_cnet(struct vcube_node *node, struct vcube_cnet *op)
{
	const struct vcube_place *place = vcube_node_place(node);
	struct vcube_cnet a;
	int ret;

	if (!op)
		return -EINVAL;
	if (!place)
		return vcube_ioctl(node, VCUBE_IOC_CNET, op);
	a = *op;
	ret = vcube_place_span(place, op->first, op->nodes, &a.first);
	if (!ret && op->kind == VCUBE_CNET_BCAST)
		ret = vcube_place_node(place, op->root, &a.root);
	ret = ret ?: vcube_ioctl(node, VCUBE_IOC_CNET, &a);
	op->time = a.time;
	op->last = a.last;
	return ret;
}

static int vcube_send_common(struct vcube_node *node, unsigned int dst,
			     unsigned int tag, const void *buf, size_t len,
			     unsigned int flags, struct vcube_send *a)
{
	memset(a, 0, sizeof(*a));
	if (vcube_node_peer(node, dst, &a->dst))
		return -EINVAL;
	a->tag = tag;
	a->flags = flags;
	a->buf = (uintptr_t)buf;
	a->len = len;
	return vcube_ioctl(node, VCUBE_IOC_SEND, a);
}

int vcube_node_send(struct vcube_node *node, unsigned int dst, unsigned int tag,
		    const void *buf, size_t len, unsigned int flags,
		    struct vcube_status *st)
{
	struct vcube_send a;
	int ret;

	if (flags & VCUBE_SEND_NONBLOCK)
		return -EINVAL;
	ret = vcube_send_common(node, dst, tag, buf, len, flags, &a);
	if (!ret && st)
		*st = a.st;
	return ret;
}

int vcube_node_isend(struct vcube_node *node, unsigned int dst,
		     unsigned int tag, const void *buf, size_t len,
		     unsigned int flags, uint64_t *req)
{
	struct vcube_send a;
	int ret;

	if (!req)
		return -EINVAL;
	ret = vcube_send_common(node, dst, tag, buf, len,
				flags | VCUBE_SEND_NONBLOCK, &a);
	if (!ret)
		*req = a.st.req;
	return ret;
}

static int vcube_recv_common(struct vcube_node *node, unsigned int src,
			     unsigned int tag, void *buf, size_t cap,
			     unsigned int flags, struct vcube_recv *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	if (vcube_node_peer(node, src, &a->src))
		return -EINVAL;
	a->tag = tag;
	a->flags = flags;
	a->buf = (uintptr_t)buf;
	a->len = cap;
	ret = vcube_ioctl(node, VCUBE_IOC_RECV, a);
	a->st.src = vcube_node_src(node, a->st.src);
	return ret;
}

int vcube_node_recv(struct vcube_node *node, unsigned int src, unsigned int tag,
		    void *buf, size_t cap, struct vcube_status *st)
{
	struct vcube_recv a;
	int ret;

	ret = vcube_recv_common(node, src, tag, buf, cap, 0, &a);
	if (!ret && st)
		*st = a.st;
	return ret ? ret : a.st.error;
}

int vcube_node_irecv(struct vcube_node *node, unsigned int src,
		     unsigned int tag, void *buf, size_t cap, uint64_t *req)
{
	struct vcube_recv a;
	int ret;

	if (!req)
		return -EINVAL;
	ret = vcube_recv_common(node, src, tag, buf, cap, VCUBE_RECV_NONBLOCK,
				&a);
	if (!ret)
		*req = a.st.req;
	return ret;
}

int vcube_node_irecv_flags(struct vcube_node *node, unsigned int src,
			   unsigned int tag, unsigned int flags, void *buf,
			   size_t cap, uint64_t *req)
{
	struct vcube_recv a;
	int ret;

	if (!req || (flags & ~VCUBE_RECV_TAGCLASS))
		return -EINVAL;
	ret = vcube_recv_common(node, src, tag, buf, cap,
				flags | VCUBE_RECV_NONBLOCK, &a);
	if (!ret)
		*req = a.st.req;
	return ret;
}

static int vcube_wait_common(struct vcube_node *node, uint64_t req,
			     unsigned int flags, struct vcube_status *st)
{
	struct vcube_wait a = { .req = req, .flags = flags };
	int ret;

	ret = vcube_ioctl(node, VCUBE_IOC_WAIT, &a);
	if (ret)
		return ret;
	a.st.src = vcube_node_src(node, a.st.src);
	if (st)
		*st = a.st;
	if (!a.st.done)
		return 0;
	return a.st.error ? a.st.error : 1;
}

int vcube_node_wait(struct vcube_node *node, uint64_t req,
		    struct vcube_status *st)
{
	int ret = vcube_wait_common(node, req, 0, st);

	return ret == 1 ? 0 : ret;
}

int vcube_node_test(struct vcube_node *node, uint64_t req,
		    struct vcube_status *st)
{
	return vcube_wait_common(node, req, VCUBE_WAIT_TEST, st);
}

int vcube_node_cancel(struct vcube_node *node, uint64_t req)
{
	return vcube_ioctl(node, VCUBE_IOC_CANCEL, &req);
}

int vcube_node_exchange(struct vcube_node *node, unsigned int partner,
			unsigned int tag, const void *sbuf, size_t slen,
			void *rbuf, size_t rcap, unsigned int flags,
			struct vcube_status *st)
{
	uint64_t rreq, sreq;
	int ret, sret;

	ret = vcube_node_irecv(node, partner, tag, rbuf, rcap, &rreq);
	if (ret)
		return ret;
	ret = vcube_node_isend(node, partner, tag, sbuf, slen, flags, &sreq);
	if (ret)
		return ret;	/* the receive stays posted; it is the caller's */
	/*
	 * The receive first: in a symmetric exchange it completes no sooner
	 * than the send goes through, so the node sleeps once, where waiting
	 * for the send first woke it only to sleep again (two process
	 * switches a message). Without noise it returns at the same clock
	 * either way; with noise, it resumes (and may meet an interrupt) once.
	 */
	ret = vcube_node_wait(node, rreq, st);
	sret = vcube_node_wait(node, sreq, NULL);
	return sret ? sret : ret;
}

int vcube_node_clock(struct vcube_node *node, uint64_t *ns)
{
	uint64_t t;
	int ret;

	if (!ns)
		return -EINVAL;
	ret = vcube_ioctl(node, VCUBE_IOC_CLOCK, &t);
	if (!ret)
		*ns = t;
	return ret;
}

int vcube_node_delay(struct vcube_node *node, uint64_t ns)
{
	return vcube_ioctl(node, VCUBE_IOC_DELAY, &ns);
}

int vcube_node_mark(struct vcube_node *node, const char *label)
{
	struct vcube_mark m = { { 0 } };
	size_t len;

	if (!label)
		return -EINVAL;
	len = strlen(label);
	if (len >= sizeof(m.label))
		return -EINVAL;
	memcpy(m.label, label, len);
	return vcube_ioctl(node, VCUBE_IOC_MARK, &m);
}

int vcube_node_jitter(struct vcube_node *node, uint64_t *ns)
{
	uint64_t v = 0;
	int ret = vcube_ioctl(node, VCUBE_IOC_JITTER, &v);

	if (!ret && ns)
		*ns = v;
	return ret;
}

int vcube_node_copy(struct vcube_node *node, uint64_t bytes, uint64_t *ns)
{
	struct vcube_copy c = { .bytes = bytes };
	int ret = vcube_ioctl(node, VCUBE_IOC_COPY, &c);

	if (!ret && ns)
		*ns = c.ns;
	return ret;
}

int vcube_node_delay_until(struct vcube_node *node, uint64_t ns)
{
	uint64_t now;
	int ret = vcube_node_clock(node, &now);

	if (ret || now >= ns)
		return ret;
	return vcube_node_delay(node, ns - now);
}
