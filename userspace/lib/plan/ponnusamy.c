// SPDX-License-Identifier: MIT
/*
 * Ponnusamy et al. 1993's complete exchanges on the CM-5 (sec. 4): LEX,
 * and BEX, PEX on virtual numbers (physical + 1) mod p (their Table 3).
 * PEX is Thakur's (plan/thakur.c); REX forwards p / 2 blocks a step over
 * lg p steps, the dimensions from the highest (plan/forward.c).
 */
#include "plan.h"

/*
 * LEX: at step i every rank sends to rank i, which takes the messages one
 * at a time in rank order (a blocking receive each, as with
 * CMMD_receive_block).
 */
int vcube_plan_lex(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	unsigned int me = a->me, p = a->p, i, j;
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	for (i = 0; i < p && !ret; i++) {
		if (i != me) {
			ret = vcube_plan_add(pl, i, VCUBE_NONE, i,
					     VCUBE_PLAN_NONE);
			continue;
		}
		for (j = 0; j < p && !ret; j++)
			if (j != me)
				ret = vcube_plan_add(pl, VCUBE_NONE, j, i,
						     VCUBE_PLAN_NONE);
	}
	return ret;
}

int vcube_plan_bex(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return vcube_plan_xor(a->me, a->p, a->p, 1, pl);
}

int vcube_plan_rex(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return vcube_plan_forward(a->me, a->p, VCUBE_FWD_REX, false, pl);
}
