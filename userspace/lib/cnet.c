// SPDX-License-Identifier: MIT
/*
 * libvcube: the control network (the CM-5's; Ponnusamy et al. sec. 2),
 * where barriers, reductions, scans and broadcasts run apart from the data
 * network. The kernel charges each operation's time and hands every member
 * the operands; the fold happens here, in rank order, so every rank gets
 * the same bits whatever the operator and type.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "comm.h"

int vcube_node_cnet(struct vcube_node *node, struct vcube_cnet *op)
{
	int fd = vcube_node_fd(node), ret;

	if (fd < 0 || !op)
		return -EINVAL;
	/* A member a signal interrupts has left the operation: come back. */
	do
		ret = ioctl(fd, VCUBE_IOC_CNET, op);
	while (ret && errno == EINTR);
	return ret ? -errno : 0;
}

/* The communicator's partition: the nodes of ranks 0 .. size - 1. */
static struct vcube_cnet cnet_args(const struct vcube_comm *c, unsigned int kind)
{
	struct vcube_cnet a = {
		.kind = kind,
		.first = c->info.node - c->rank,
		.nodes = c->size,
	};

	return a;
}

int vcube_cnet_barrier(struct vcube_comm *comm)
{
	struct vcube_cnet a;

	if (!comm)
		return -EINVAL;
	a = cnet_args(comm, VCUBE_CNET_BARRIER);
	return vcube_node_cnet(comm->node, &a);
}

/*
 * One operation over @count elements; the fold into @out. The kernel holds
 * every member's operand at once, at most max_msg bytes: a longer vector
 * goes in pieces, which costs the same (a reduction's cost is per element)
 * and which every member cuts alike (each is refused the same way).
 */
int vcube_cnet_reduce(struct vcube_comm *comm, unsigned int op,
		      unsigned int type, const void *in, void *out,
		      size_t count, int scan)
{
	size_t es = vcube_type_size(type), n, i, done = 0, piece = count, len;
	struct vcube_cnet a;
	uint8_t *all;
	int ret = 0;

	if (!comm || !es || vcube_op_check(op, type) ||
	    (count && (!in || !out)) || count > SIZE_MAX / 8 / comm->size)
		return -EINVAL;
	n = scan ? comm->rank + 1 : comm->size;
	all = malloc(n * es * count + 1);
	if (!all)
		return -ENOMEM;
	a = cnet_args(comm, scan ? VCUBE_CNET_SCAN : VCUBE_CNET_REDUCE);
	a.op = op;
	a.type = type;
	do {
		if (piece > count - done)
			piece = count - done;
		len = piece * es;
		a.count = piece;
		a.sbuf = (uintptr_t)((const uint8_t *)in + done * es);
		a.rbuf = (uintptr_t)all;
		a.rlen = n * len;
		ret = vcube_node_cnet(comm->node, &a);
		if (ret == -EMSGSIZE && piece > 1) {
			piece = (piece + 1) / 2;
			continue;
		}
		if (ret)
			break;
		if (len) {
			memcpy((uint8_t *)out + done * es, all, len);
			for (i = 1; i < n; i++)
				vcube_combine(op, type, (uint8_t *)out + done * es,
					      all + i * len, piece);
		}
		done += piece;
	} while (done < count);
	free(all);
	return ret;
}

int vcube_cnet_bcast(struct vcube_comm *comm, unsigned int root, void *buf,
		     size_t len)
{
	struct vcube_cnet a;

	if (!comm || (len && !buf) || root >= comm->size)
		return -EINVAL;
	a = cnet_args(comm, VCUBE_CNET_BCAST);
	a.root = a.first + root;
	a.count = len;
	a.sbuf = (uintptr_t)buf;
	a.rbuf = (uintptr_t)buf;
	a.rlen = len;
	return vcube_node_cnet(comm->node, &a);
}
