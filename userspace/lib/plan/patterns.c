// SPDX-License-Identifier: MIT
/*
 * The patterns several papers' algorithms share, in Chuang & Horie's
 * names (sec. 3.1): the butterfly (phase k: exchange with rank ^ 2^k) and
 * the crossover (phase k: send to rank + 2^k, receive from rank - 2^k).
 * gsync and sync0 are butterflies of null messages, the dissemination
 * barrier a crossover of them; the kernels and the crossover reduction
 * send block 0 and receive into block 1.
 */
#include "plan.h"

int vcube_plan_butterfly(struct vcube_plan *pl, unsigned int me,
			 unsigned int lo, unsigned int hi, bool down,
			 unsigned int rblk)
{
	unsigned int i, k;
	int ret = 0;

	for (i = lo; i < hi && !ret; i++) {
		k = down ? hi - 1 - (i - lo) : i;
		ret = vcube_plan_add_xfer(pl, NULL, me ^ 1U << k, 0,
					  me ^ 1U << k, rblk, k);
	}
	return ret;
}

int vcube_plan_crossover(struct vcube_plan *pl, unsigned int me,
			 unsigned int p, unsigned int rblk, bool fold)
{
	struct vcube_plan_range r = { 0 };
	unsigned int k, m;
	int ret = 0;

	for (k = 0, m = 1; m < p && !ret; k++, m *= 2) {
		ret = vcube_plan_add_xfer(pl, &r, (me + m) % p, 0,
					  (me + p - m) % p, rblk, k);
		if (!ret && fold)
			ret = vcube_plan_add_fold(pl, &r, 0, rblk);
	}
	pl->fin = r;
	return ret;
}
