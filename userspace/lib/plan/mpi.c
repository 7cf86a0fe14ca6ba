// SPDX-License-Identifier: MIT
/*
 * The baselines today's MPI libraries use, which the papers' algorithms
 * are measured against: the binomial-tree broadcast, reduction (to rank 0,
 * then the broadcast back) and barrier (a fan-in and the same tree out),
 * the dissemination barrier (Hensgen, Finkel & Manber 1988) and the
 * recursive-doubling inclusive scan (Hillis & Steele). Any number of
 * ranks.
 *
 * Blocks: a broadcast's buffer is block 0; a reduction or scan folds into
 * block 0 (the output, holding the input when the plan starts) what it
 * receives into block 1 (scratch).
 */
#include "plan.h"

/* One buffer (block 0), and @nscratch blocks of scratch after it. */
static void coll_init(struct vcube_plan *pl, unsigned int p,
		      unsigned int nscratch)
{
	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	pl->nsend = 0;
	pl->nrecv = 1;
	pl->nscratch = nscratch;
}

/*
 * Binomial tree from @root, every message under @tag: receive from the
 * parent (virtual number v with its lowest set bit cleared), then send to
 * v + m for every m below that bit, the largest first.
 */
static int bcast_tree(struct vcube_plan *pl, struct vcube_plan_range *r,
		      unsigned int me, unsigned int p, unsigned int root,
		      unsigned int tag)
{
	unsigned int v = (me + p - root) % p, m;
	int ret = 0;

	for (m = 1; m < p; m *= 2)
		if (v & m) {
			ret = vcube_plan_add_xfer(pl, r, VCUBE_NONE, 0,
						  (v - m + root) % p, 0, tag);
			break;
		}
	for (m /= 2; m >= 1 && !ret; m /= 2)
		if (v + m < p)
			ret = vcube_plan_add_xfer(pl, r, (v + m + root) % p, 0,
						  VCUBE_NONE, 0, tag);
	return ret;
}

int vcube_plan_bcast_tree(const struct vcube_plan_args *a,
			  struct vcube_plan *pl)
{
	coll_init(pl, a->p, 0);
	return bcast_tree(pl, NULL, a->me, a->p, a->root, 0);
}

/*
 * Phase k: rank me with bit k set sends its partial result to me - 2^k and
 * is done; below, it folds in the one from me + 2^k. Then the result goes
 * back down the binomial tree from rank 0 (tags 0x8000).
 */
int vcube_plan_reduce_tree(const struct vcube_plan_args *a,
			   struct vcube_plan *pl)
{
	unsigned int me = a->me, p = a->p, k, m;
	struct vcube_plan_range r = { 0 };
	int ret = 0;

	coll_init(pl, p, 1);
	for (k = 0, m = 1; m < p && !ret; k++, m *= 2) {
		if (me & m) {
			ret = vcube_plan_add_xfer(pl, &r, me - m, 0, VCUBE_NONE,
						  0, k);
			break;
		}
		if (me + m < p) {
			ret = vcube_plan_add_xfer(pl, &r, VCUBE_NONE, 0, me + m,
						  1, k);
			ret = ret ?: vcube_plan_add_fold(pl, &r, 0, 1);
		}
	}
	ret = ret ?: bcast_tree(pl, &r, me, p, 0, 0x8000);
	pl->fin = r;
	return ret;
}

/* Phase k sends the running value to me + 2^k, folds in me - 2^k's. */
int vcube_plan_scan_doubling(const struct vcube_plan_args *a,
			     struct vcube_plan *pl)
{
	unsigned int me = a->me, p = a->p, k, m;
	struct vcube_plan_range r = { 0 };
	int ret = 0;

	coll_init(pl, p, 1);
	for (k = 0, m = 1; m < p && !ret; k++, m *= 2) {
		ret = vcube_plan_add_xfer(pl, &r, me + m < p ? me + m : VCUBE_NONE,
					  0, me >= m ? me - m : VCUBE_NONE, 1,
					  k);
		if (!ret && me >= m)
			ret = vcube_plan_add_fold(pl, &r, 0, 1);
	}
	pl->fin = r;
	return ret;
}

/*
 * Round k: a null message to rank + 2^k, one from rank - 2^k; after
 * ceil(lg p) rounds every rank has heard, directly or not, from all.
 */
int vcube_plan_dissemination(const struct vcube_plan_args *a,
			     struct vcube_plan *pl)
{
	coll_init(pl, a->p, 0);
	return vcube_plan_crossover(pl, a->me, a->p, 0, false);
}

/* Fan-in: a null message from me + 2^k until bit k of me is set; out: back. */
int vcube_plan_barrier_tree(const struct vcube_plan_args *a,
			    struct vcube_plan *pl)
{
	unsigned int p = a->p, me = a->me, m, top;
	int ret = 0;

	coll_init(pl, p, 0);
	for (m = 1; m < p && !(me & m) && !ret; m <<= 1)
		if (me + m < p)
			ret = vcube_plan_add_xfer(pl, NULL, VCUBE_NONE, 0, me + m,
						  0, 0);
	top = m;
	if (!ret && me)
		ret = vcube_plan_add_xfer(pl, NULL, me - top, 0, VCUBE_NONE, 0,
					  0);
	if (!ret && me)
		ret = vcube_plan_add_xfer(pl, NULL, VCUBE_NONE, 0, me - top, 0,
					  1);
	for (m = top >> 1; m && !ret; m >>= 1)
		if (me + m < p)
			ret = vcube_plan_add_xfer(pl, NULL, me + m, 0,
						  VCUBE_NONE, 0, 1);
	return ret;
}
