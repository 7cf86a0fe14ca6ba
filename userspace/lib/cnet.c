// SPDX-License-Identifier: MIT
/*
 * libvcube: the control network (the CM-5's; Ponnusamy et al. sec. 2),
 * where barriers, reductions, scans and broadcasts run apart from the data
 * network. Each algorithm here is one operation of the communicator's
 * transport (transport.h, its cnet), run for the registry (algo.c) as a
 * planner's plan is run by the executor. The network charges each
 * operation's time and hands every member the operands; the fold happens
 * here, in rank order, so every rank gets the same bits whatever the
 * operator and type.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/*
 * The communicator's partition: ranks 0 .. size - 1, as its transport
 * names them (a node under a placement turns them into nodes: place.h).
 */
static struct vcube_cnet cnet_args(const struct vcube_comm *c, unsigned int kind)
{
	struct vcube_cnet a = {
		.kind = kind,
		.first = 0,
		.nodes = c->size,
	};

	return a;
}

/* One operation through the transport's control network. */
static int cnet_enter(struct vcube_comm *c, struct vcube_cnet *a)
{
	return c->tp->cnet ? c->tp->cnet(c->tpx, a) : -EOPNOTSUPP;
}

int vcube_cnet_barrier(struct vcube_comm *comm, struct vcube_algo_call *call)
{
	struct vcube_cnet a;

	if (!comm || !call)
		return -EINVAL;
	a = cnet_args(comm, VCUBE_CNET_BARRIER);
	return cnet_enter(comm, &a);
}

/*
 * The piece of @count elements of @es bytes at byte @off of the call's
 * operand, folded into its result from the @n operands the network hands
 * back in @all; -EMSGSIZE when they do not fit its largest message.
 */
static int reduce_piece(struct vcube_comm *comm, struct vcube_cnet *a,
			const struct vcube_algo_call *call, size_t off,
			size_t count, size_t es, size_t n, uint8_t *all)
{
	size_t len = count * es, i;
	uint8_t *out;
	int ret;

	a->count = count;
	a->sbuf = (uintptr_t)((const uint8_t *)call->sbuf + off);
	a->rbuf = (uintptr_t)all;
	a->rlen = n * len;
	ret = cnet_enter(comm, a);
	if (ret || !len)
		return ret;
	out = (uint8_t *)call->rbuf + off;
	memcpy(out, all, len);
	for (i = 1; i < n; i++)
		vcube_combine(a->op, a->type, out, all + i * len, count);
	return 0;
}

/*
 * A reduction, or a scan (VCUBE_ALGO_SCAN), of the call's len / size of
 * its type elements from @call->sbuf into @call->rbuf (which may be the
 * same buffer). The network holds every member's operand at once, at most
 * max_msg bytes: a longer vector goes in pieces, which costs the same (a
 * reduction's cost is per element) and which every member cuts alike
 * (each is refused the same way). Only the VCUBE_OP_* operators: a fold of
 * the caller's own is -EOPNOTSUPP.
 */
int vcube_cnet_reduce(struct vcube_comm *comm, struct vcube_algo_call *call)
{
	size_t es, count, n, done = 0, piece;
	bool scan;
	struct vcube_cnet a;
	uint8_t *all;
	int ret = 0;

	if (!comm || !call)
		return -EINVAL;
	es = vcube_type_size(call->type);
	count = es ? call->len / es : 0;
	if (!es || vcube_op_check(call->op, call->type) ||
	    (count && (!call->sbuf || !call->rbuf)) ||
	    count > SIZE_MAX / 8 / comm->size)
		return -EINVAL;
	if (call->fold)
		return -EOPNOTSUPP;
	scan = call->kind == VCUBE_ALGO_SCAN;
	n = scan ? comm->rank + 1 : comm->size;
	all = malloc(n * es * count + 1);
	if (!all)
		return -ENOMEM;
	a = cnet_args(comm, scan ? VCUBE_CNET_SCAN : VCUBE_CNET_REDUCE);
	a.op = call->op;
	a.type = call->type;
	piece = count;
	do {
		if (piece > count - done)
			piece = count - done;
		ret = reduce_piece(comm, &a, call, done * es, piece, es, n,
				   all);
		if (ret == -EMSGSIZE && piece > 1) {
			piece = (piece + 1) / 2;
			continue;
		}
		if (ret)
			break;
		done += piece;
	} while (done < count);
	free(all);
	return ret;
}

/* The root's @call->len bytes of @call->rbuf, into every member's. */
int vcube_cnet_bcast(struct vcube_comm *comm, struct vcube_algo_call *call)
{
	struct vcube_cnet a;

	if (!comm || !call || (call->len && !call->rbuf) ||
	    call->a.root >= comm->size)
		return -EINVAL;
	a = cnet_args(comm, VCUBE_CNET_BCAST);
	a.root = a.first + call->a.root;
	a.count = call->len;
	a.sbuf = (uintptr_t)call->rbuf;
	a.rbuf = (uintptr_t)call->rbuf;
	a.rlen = call->len;
	return cnet_enter(comm, &a);
}
