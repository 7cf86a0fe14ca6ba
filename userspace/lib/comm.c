// SPDX-License-Identifier: MIT
/*
 * libvcube: a communicator, the processes of one program started together
 * by vcube-run, each bound to the node of its rank (node r, or the r-th of
 * vcube-run --nodes: place.h). Collective operations
 * draw their tags from a per-call sequence number, so successive calls
 * (repetitions of a benchmark) never match each other's messages.
 */
#include <errno.h>
#include <stdlib.h>

#include "comm.h"
#include "place.h"

int vcube_comm_create_tp(const struct vcube_transport *tp, void *ctx,
			 unsigned int rank, unsigned int size,
			 struct vcube_comm **commp)
{
	struct vcube_comm *c;

	if (!tp || !commp || !size || rank >= size)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->rank = rank;
	c->size = size;
	c->info.node = rank;
	c->info.nodes = size;
	c->tp = tp;
	c->tpx = ctx;
	*commp = c;
	return 0;
}

int vcube_comm_create(struct vcube_node *node, unsigned int rank,
		      unsigned int size, struct vcube_comm **commp)
{
	const struct vcube_place *place;
	struct vcube_node_info info;
	struct vcube_net_desc desc;
	struct vcube_comm *c;
	int ret;

	if (!node || !commp || !size || rank >= size)
		return -EINVAL;
	ret = vcube_node_info(node, &info);
	if (ret)
		return ret;
	place = vcube_node_place(node);
	/* under a placement the node speaks ranks, and info.node is its own */
	if (place ? vcube_node_rank(node) != rank ||
		    size > vcube_place_size(place) :
		    info.node != rank || size > info.nodes)
		return -EINVAL;
	ret = vcube_comm_create_tp(&vcube_device_transport, node, rank, size,
				   &c);
	if (ret)
		return ret;
	c->node = node;
	c->info = info;
	/* the control network takes ranks on consecutive nodes only */
	c->cnet = vcube_net_describe(NULL, &desc) == 0 && desc.cnet_word_ns &&
		  (!place || !vcube_place_span(place, 0, size, NULL));
	*commp = c;
	return 0;
}

int vcube_comm_open(struct vcube_comm **commp)
{
	struct vcube_node *node;
	unsigned int rank, size;
	int ret;

	if (!commp)
		return -EINVAL;
	ret = vcube_env_rank(&rank, &size);
	if (ret)
		return ret;
	ret = vcube_node_open(rank, &node);
	if (ret)
		return ret;
	ret = vcube_comm_create(node, rank, size, commp);
	if (ret) {
		vcube_node_close(node);
		return ret;
	}
	(*commp)->owns_node = 1;
	return 0;
}

int vcube_comm_close(struct vcube_comm *comm)
{
	int ret = 0;

	if (!comm)
		return -EINVAL;
	if (comm->owns_node)
		ret = vcube_node_close(comm->node);
	free(comm);
	return ret;
}

unsigned int vcube_comm_rank(const struct vcube_comm *comm)
{
	return comm->rank;
}

unsigned int vcube_comm_size(const struct vcube_comm *comm)
{
	return comm->size;
}

struct vcube_node *vcube_comm_node(const struct vcube_comm *comm)
{
	return comm->node;
}

int vcube_comm_cnet(const struct vcube_comm *comm)
{
	return comm ? comm->cnet : 0;
}

const struct vcube_node_info *vcube_comm_info(const struct vcube_comm *comm)
{
	return &comm->info;
}

int vcube_comm_clock(struct vcube_comm *comm, uint64_t *ns)
{
	return comm ? comm->tp->clock(comm->tpx, ns) : -EINVAL;
}

int vcube_comm_mark(struct vcube_comm *comm, const char *label)
{
	if (!comm || !label)
		return -EINVAL;
	return comm->tp->mark ? comm->tp->mark(comm->tpx, label) : -EOPNOTSUPP;
}

int vcube_comm_mark_steps(struct vcube_comm *comm, bool on)
{
	if (!comm)
		return -EINVAL;
	comm->mark_steps = on;
	return 0;
}

unsigned int vcube_comm_tag_base(struct vcube_comm *comm)
{
	comm->seq = (comm->seq + 1) & VCUBE_COLL_SEQ_MASK;
	return VCUBE_COLL_TAG | comm->seq << VCUBE_COLL_STEP_BITS;
}

/*
 * One step of most schedules: post the receive from @from, send to @to
 * (blocking), wait for the receive. @to or @from may be VCUBE_NONE.
 */
int vcube_comm_step(struct vcube_comm *comm, unsigned int tag, unsigned int to,
		    const void *sbuf, size_t slen, unsigned int from,
		    void *rbuf, size_t rlen, unsigned int flags)
{
	uint64_t rq = 0;
	size_t got;
	int ret;

	if (from != VCUBE_NONE) {
		ret = comm->tp->irecv(comm->tpx, from, tag, rbuf, rlen, &rq);
		if (ret)
			return ret;
	}
	if (to != VCUBE_NONE) {
		ret = comm->tp->send(comm->tpx, to, tag, sbuf, slen, flags);
		if (ret)
			return ret;
	}
	if (from == VCUBE_NONE)
		return 0;
	ret = comm->tp->wait(comm->tpx, rq, &got);
	if (!ret && got != rlen)
		ret = -EPROTO;
	return ret;
}
