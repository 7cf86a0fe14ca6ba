// SPDX-License-Identifier: MIT
/*
 * Bokhari 1991's complete exchanges on the iPSC/860 (sec. 4, Figs. 6-9):
 * naive, linear, pairwise, stable and pairwise_F post every receive, meet
 * at a global synchronisation and send FORCED in schedule order;
 * pairwise_U is the pairwise schedule step by step, UNFORCED; standard_F
 * and standard_U forward p / 2 blocks a phase over lg p phases
 * (plan/forward.c), standard_F synchronised as the FORCED family is.
 */
#include "plan.h"

/* The destination at step i (sec. 4; stable: Fig. 4). */
static unsigned int forced_dest(char kind, unsigned int me, unsigned int p,
				unsigned int i)
{
	switch (kind) {
	case 'n':		/* naive: everyone to 0, then 1, ... */
		return i;
	case 'l':		/* linear */
		return (me + i) % p;
	case 's':		/* stable: the lower half sends to odd ranks first */
		return me < p / 2 ? (2 * me + 1 + i) % p : (2 * me - p + i) % p;
	default:		/* pairwise */
		return me ^ i;
	}
}

/*
 * Every receive posted in rank order, then the steps from 0 (naive,
 * stable) or 1; stable idles at its own step. @psync: a zero-byte pairwise
 * synchronisation (tag 1) before each block.
 */
static int forced(unsigned int me, unsigned int p, struct vcube_plan *pl,
		  char kind, bool psync)
{
	unsigned int i, d, first = kind == 'n' || kind == 's' ? 0 : 1;
	struct vcube_plan_step s = { .from = VCUBE_NONE, .nblk = 1,
				     .stag = psync ? 1 : VCUBE_NONE };
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_POSTED, p);
	for (i = 0; i < p && !ret; i++)
		if (i != me)
			ret = vcube_plan_add_post(pl, &(struct vcube_plan_post){
				.from = i, .stag = s.stag,
				.rblk = vcube_plan_rblk(pl, i), .nblk = 1 });
	for (i = first; i < p && !ret; i++) {
		d = forced_dest(kind, me, p, i);
		if (d >= p || (d == me && kind != 's'))
			continue;
		s.to = d == me ? VCUBE_NONE : d;
		s.sblk = d;
		s.pre = d == me ? VCUBE_PLAN_IDLE : VCUBE_PLAN_NONE;
		ret = vcube_plan_add_step(pl, &s);
	}
	return ret;
}

int vcube_plan_naive(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return forced(a->me, a->p, pl, 'n', false);
}

int vcube_plan_linear(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return forced(a->me, a->p, pl, 'l', false);
}

int vcube_plan_pairwise(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return forced(a->me, a->p, pl, 'p', false);
}

int vcube_plan_stable(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return forced(a->me, a->p, pl, 's', false);
}

int vcube_plan_pairwise_F(const struct vcube_plan_args *a,
			  struct vcube_plan *pl)
{
	return forced(a->me, a->p, pl, 'p', true);
}

int vcube_plan_pairwise_U(const struct vcube_plan_args *a,
			  struct vcube_plan *pl)
{
	return vcube_plan_pex(a, pl);
}

int vcube_plan_standard_F(const struct vcube_plan_args *a,
			  struct vcube_plan *pl)
{
	return vcube_plan_forward(a->me, a->p, VCUBE_FWD_STANDARD, true, pl);
}

int vcube_plan_standard_U(const struct vcube_plan_args *a,
			  struct vcube_plan *pl)
{
	return vcube_plan_forward(a->me, a->p, VCUBE_FWD_STANDARD, false, pl);
}
