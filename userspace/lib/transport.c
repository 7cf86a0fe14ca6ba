// SPDX-License-Identifier: MIT
/*
 * libvcube: the vcube device as a transport (transport.h): each operation
 * is the node's ioctl.
 */
#include "comm.h"

static int dev_send(void *ctx, unsigned int to, unsigned int tag,
		    const void *buf, size_t len, unsigned int flags)
{
	return vcube_node_send(ctx, to, tag, buf, len, flags, NULL);
}

static int dev_irecv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		     size_t cap, uint64_t *req)
{
	return vcube_node_irecv(ctx, from, tag, buf, cap, req);
}

static int dev_wait(void *ctx, uint64_t req, size_t *len)
{
	struct vcube_status st;
	int ret = vcube_node_wait(ctx, req, &st);

	if (!ret && len)
		*len = st.len;
	return ret;
}

static int dev_recv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		    size_t cap)
{
	return vcube_node_recv(ctx, from, tag, buf, cap, NULL);
}

static int dev_isend(void *ctx, unsigned int to, unsigned int tag,
		     const void *buf, size_t len, unsigned int flags,
		     uint64_t *req)
{
	return vcube_node_isend(ctx, to, tag, buf, len, flags, req);
}

static int dev_test(void *ctx, uint64_t req, size_t *len)
{
	struct vcube_status st;
	int ret = vcube_node_test(ctx, req, &st);

	if (ret == 1 && len)
		*len = st.len;
	return ret;
}

static int dev_clock(void *ctx, uint64_t *ns)
{
	return vcube_node_clock(ctx, ns);
}

static int dev_delay(void *ctx, uint64_t ns)
{
	return vcube_node_delay(ctx, ns);
}

static int dev_mark(void *ctx, const char *label)
{
	return vcube_node_mark(ctx, label);
}

static int dev_copy(void *ctx, uint64_t bytes)
{
	return vcube_node_copy(ctx, bytes, NULL);
}

static int dev_cnet(void *ctx, struct vcube_cnet *op)
{
	return vcube_node_cnet(ctx, op);
}

const struct vcube_transport vcube_device_transport = {
	.send = dev_send, .irecv = dev_irecv, .wait = dev_wait,
	.recv = dev_recv, .clock = dev_clock, .delay = dev_delay,
	.copy = dev_copy, .mark = dev_mark, .cnet = dev_cnet,
	.isend = dev_isend, .test = dev_test,
};
