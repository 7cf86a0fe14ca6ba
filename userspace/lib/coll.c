// SPDX-License-Identifier: MIT
/*
 * libvcube: collectives. Global reduction by the crossover (Chuang & Horie:
 * lg p phases, rank + 2^k) or by a binary tree and a broadcast; broadcast;
 * scan (parallel prefix); shift on a ring embedded by the binary reflected
 * Gray code; and the communication kernels of Chuang & Horie's Fig. 4.
 * Each is an algorithm of the registry (algo.c): a plan run by the one
 * executor, or an operation of the control network (cnet.c); what is here
 * is argument checking (the elementwise operators the folds apply are
 * ops.c's).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "plan.h"

/*
 * Whether the registered algorithm @name of @kind (NULL: the kind's
 * first) runs here: 0, -ENOENT or -EDOM (not on this communicator).
 */
static int coll_find(const struct vcube_comm *c, unsigned int kind,
		     const char *name)
{
	const struct vcube_algo_impl *im = vcube_algo_lookup(kind, name);

	if (!im)
		return -ENOENT;
	return vcube_algo_usable(c, kind, im->a.name);
}

int vcube_bcast_run(struct vcube_comm *comm, const char *algo,
		    unsigned int root, void *buf, size_t len)
{
	struct vcube_algo_call call = {
		.kind = VCUBE_ALGO_BCAST, .name = algo, .a.root = root,
		.sbuf = buf, .rbuf = buf, .len = len,
	};
	int ret;

	if (!comm || (len && !buf) || root >= comm->size)
		return -EINVAL;
	ret = coll_find(comm, VCUBE_ALGO_BCAST, algo);
	return ret ?: vcube_algo_run(comm, &call);
}

/*
 * A reduction or scan: the output starts as the input, and the plan folds
 * what it receives into it (plan/chuang.c, plan/mpi.c); the control
 * network's folds the operands it gets from there (cnet.c).
 */
static int fold_run(struct vcube_comm *comm, unsigned int kind,
		    const char *algo, unsigned int op, unsigned int type,
		    const void *in, void *out, size_t count)
{
	struct vcube_algo_call call = {
		.kind = kind, .name = algo, .op = op, .type = type,
		.sbuf = out, .rbuf = out, .len = vcube_type_size(type) * count,
	};
	int ret;

	ret = coll_find(comm, kind, algo);
	if (ret)
		return ret;
	if (call.len)
		memmove(out, in, call.len);
	return vcube_algo_run(comm, &call);
}

int vcube_reduce_run(struct vcube_comm *comm, const char *algo,
		     unsigned int op, unsigned int type, const void *in,
		     void *out, size_t count)
{
	if (!comm || !algo || vcube_op_check(op, type) ||
	    (count && (!in || !out)) || count > SIZE_MAX / 8)
		return -EINVAL;
	return fold_run(comm, VCUBE_ALGO_REDUCE, algo, op, type, in, out,
			count);
}

/* Inclusive: rank i ends with in_0 op in_1 op ... op in_i. */
int vcube_scan_run(struct vcube_comm *comm, const char *algo, unsigned int op,
		   unsigned int type, const void *in, void *out, size_t count)
{
	if (!comm || vcube_op_check(op, type) || (count && (!in || !out)) ||
	    count > SIZE_MAX / 16)
		return -EINVAL;
	return fold_run(comm, VCUBE_ALGO_SCAN, algo, op, type, in, out, count);
}

/* Shift by @k places along the Gray code ring (plan/seidel.c). */
int vcube_shift_run(struct vcube_comm *comm, int k, const void *sbuf,
		    void *rbuf, size_t len)
{
	struct vcube_algo_call call = {
		.kind = VCUBE_ALGO_SHIFT, .sbuf = sbuf, .rbuf = rbuf, .len = len,
	};
	int p, ret;

	if (!comm || (len && (!sbuf || !rbuf)))
		return -EINVAL;
	ret = coll_find(comm, VCUBE_ALGO_SHIFT, NULL);
	if (ret)
		return ret;
	p = (int)comm->size;
	call.a.shift = (unsigned int)(((k % p) + p) % p);
	if (!call.a.shift) {
		if (len)
			memmove(rbuf, sbuf, len);
		return 0;
	}
	return vcube_algo_run(comm, &call);
}

/*
 * Chuang & Horie's communication kernels (sec. 3.1, Fig. 4; plan/chuang.c),
 * each phase one message of @len bytes from @buf; @buf ends with the last
 * one received. @phases: how many the plan has.
 */
int vcube_kernel_run(struct vcube_comm *comm, const char *kind, void *buf,
		     size_t len, unsigned int *phases)
{
	struct vcube_algo_call call = {
		.kind = VCUBE_ALGO_KERNEL, .name = kind, .sbuf = buf, .len = len,
	};
	int ret;

	if (!comm || !kind || (len && !buf))
		return -EINVAL;
	ret = coll_find(comm, VCUBE_ALGO_KERNEL, kind);
	if (ret)
		return ret;
	call.rbuf = malloc(len + 1);
	if (!call.rbuf)
		return -ENOMEM;
	ret = vcube_algo_run(comm, &call);
	if (!ret && len)
		memcpy(buf, call.rbuf, len);
	if (phases)
		*phases = call.nsteps;
	free(call.rbuf);
	return ret;
}
