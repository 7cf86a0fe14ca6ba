// SPDX-License-Identifier: MIT
/*
 * Seidel & Davis 1992's global synchronisations on the iPSC/860 (sec. 3),
 * every message a null one, and the shift on the ring the binary reflected
 * Gray code embeds in the hypercube (their sec. 4 experiments):
 *
 * - gsync (Intel NX/2): the butterfly; each rank sends to its neighbour
 *   across each dimension, the highest first, and waits for that
 *   neighbour's message before going on (sec. 3.1).
 * - sync0 (PICL): the upper half folds onto the lower, the lower half runs
 *   the butterfly with the dimensions in the other order, then unfolds
 *   (sec. 3.2).
 * - rds (sec. 3.3): a fan-in to rank 0 along the reverse of the recursive
 *   doubling tree, the broadcast down the tree (low dimensions first), then
 *   rank i busy-waits (d - |i|_1)(b_s - s), so that every rank leaves when
 *   the last broadcast message reaches rank 2^d - 1 (a->wait_ns = b_s - s,
 *   measured by vcube_costs_measure() as the paper measured it).
 */
#include "plan.h"

/* The null-message plan of a barrier: blocks of no bytes, one buffer. */
static void sync_init(struct vcube_plan *pl, unsigned int p)
{
	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	pl->nsend = 0;
	pl->nrecv = 1;
}

int vcube_plan_gsync(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	sync_init(pl, a->p);
	return vcube_plan_butterfly(pl, a->me, 0, vcube_lg(a->p), true, 0);
}

int vcube_plan_sync0(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	unsigned int d = vcube_lg(a->p), top, me = a->me;
	int ret;

	sync_init(pl, a->p);
	if (!d)
		return 0;
	top = 1U << (d - 1);
	if (me & top) {
		ret = vcube_plan_add_xfer(pl, NULL, me ^ top, 0, VCUBE_NONE, 0,
					  0x100);
		return ret ?: vcube_plan_add_xfer(pl, NULL, VCUBE_NONE, 0,
						  me ^ top, 0, 0x101);
	}
	ret = vcube_plan_add_xfer(pl, NULL, VCUBE_NONE, 0, me | top, 0, 0x100);
	ret = ret ?: vcube_plan_butterfly(pl, me, 0, d - 1, false, 0);
	return ret ?: vcube_plan_add_xfer(pl, NULL, me | top, 0, VCUBE_NONE, 0,
					  0x101);
}

/* A STEPWISE step that only posts (VCUBE_OP_POST) or waits (_WAIT). */
static int half(struct vcube_plan *pl, enum vcube_plan_op op,
		unsigned int from, unsigned int tag)
{
	return vcube_plan_add_step(pl, &(struct vcube_plan_step){
		.to = VCUBE_NONE, .from = from, .tag = tag,
		.stag = VCUBE_NONE, .nblk = 1, .op = op });
}

/*
 * The tree: rank i's parent clears its highest bit, its children set one
 * bit above it, from dimension lo up. Up messages carry tag 0, down 1.
 */
int vcube_plan_rds(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	unsigned int d = vcube_lg(a->p), me = a->me, j, lo = 0, parent = 0;
	uint64_t w;
	int ret = 0;

	sync_init(pl, a->p);
	if (me) {
		lo = 32 - __builtin_clz(me);
		parent = me ^ 1U << (lo - 1);
		ret = half(pl, VCUBE_OP_POST, parent, 1);
	}
	/* Phase 1: the fan-in, the broadcast reversed. */
	for (j = lo; j < d && !ret; j++)
		ret = half(pl, VCUBE_OP_POST, me | 1U << j, 0);
	for (j = lo; j < d && !ret; j++)
		ret = half(pl, VCUBE_OP_WAIT, me | 1U << j, 0);
	if (!ret && me)
		ret = vcube_plan_add_xfer(pl, NULL, parent, 0, VCUBE_NONE, 0, 0);
	/* Phase 2: the recursive-doubling broadcast from rank 0. */
	if (!ret && me)
		ret = half(pl, VCUBE_OP_WAIT, parent, 1);
	for (j = lo; j < d && !ret; j++)
		ret = vcube_plan_add_xfer(pl, NULL, me | 1U << j, 0, VCUBE_NONE,
					  0, 1);
	/* Phase 3: wait for the broadcast to reach rank 2^d - 1. */
	w = (uint64_t)(d - __builtin_popcount(me)) * a->wait_ns;
	if (!ret && w)
		ret = vcube_plan_add_step(pl, &(struct vcube_plan_step){
			.to = VCUBE_NONE, .from = VCUBE_NONE,
			.stag = VCUBE_NONE, .pre = VCUBE_PLAN_DELAY, .ns = w });
	return ret;
}

/*
 * Shift by a->shift places along the ring 0 = G(0), G(1), ..., G(p - 1):
 * on a hypercube each ring neighbour is a hypercube neighbour. Position i
 * sends block 0 to position i + k and receives from position i - k.
 */
int vcube_plan_shift(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	unsigned int p = a->p, pos = vcube_gray_decode(a->me), k = a->shift;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	pl->nsend = 1;
	pl->nrecv = 1;
	return vcube_plan_add_xfer(pl, NULL, vcube_gray_encode((pos + k) % p),
				   0, vcube_gray_encode((pos + p - k) % p), 1,
				   0);
}
