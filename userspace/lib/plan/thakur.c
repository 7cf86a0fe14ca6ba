// SPDX-License-Identifier: MIT
/*
 * Thakur, Choudhary & Fox 1993's complete exchanges on the Touchstone
 * Delta (Figs. 1, 2, 4 and 5), step by step, UNFORCED: PEX (also
 * Ponnusamy's), PEX-GEN, PEX-GEN-SHIFT and GEN.
 */
#include "plan.h"

/*
 * Pairwise exchange over virtual numbers: rank me is (me + off) mod m and
 * at step i (1 .. q - 1, q the power of two at or above p) exchanges with
 * the rank whose virtual number is its own XOR i, if that is a rank.
 * PEX and PEX-GEN: off 0, m = q; PEX-GEN-SHIFT: off (q - p) / 2, m = q
 * (its Fig. 3(b) numbers 0..19 as 6..25; mod p would make the pairs
 * asymmetric); Ponnusamy's BEX: off 1, m = p.
 */
int vcube_plan_xor(unsigned int me, unsigned int p, unsigned int m,
		   unsigned int off, struct vcube_plan *pl)
{
	unsigned int q = 1U << vcube_lg(p), i, w, d;
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	for (i = 1; i < q && !ret; i++) {
		w = ((me + off) % m) ^ i;
		if (w >= m)
			continue;
		d = (w + m - off) % m;
		if (d < p)
			ret = vcube_plan_add(pl, d, d, i, VCUBE_PLAN_NONE);
	}
	return ret;
}

int vcube_plan_pex(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return vcube_plan_xor(a->me, a->p, 1U << vcube_lg(a->p), 0, pl);
}

int vcube_plan_pexgen(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return vcube_plan_pex(a, pl);
}

int vcube_plan_pexgenshift(const struct vcube_plan_args *a,
			   struct vcube_plan *pl)
{
	unsigned int q = 1U << vcube_lg(a->p);

	return vcube_plan_xor(a->me, a->p, q, (q - a->p) / 2, pl);
}

/* GEN: at step i send to me + i and receive from me - i (Fig. 5). */
int vcube_plan_gen(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	unsigned int me = a->me, p = a->p, i;
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	for (i = 1; i < p && !ret; i++)
		ret = vcube_plan_add(pl, (me + i) % p, (me + p - i) % p, i,
				     VCUBE_PLAN_NONE);
	return ret;
}
