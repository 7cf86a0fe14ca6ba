/* SPDX-License-Identifier: MIT */
/*
 * Thakur, Choudhary & Fox's complete-exchange schedules (1993, Figs. 1, 2,
 * 4 and 5), as plain data: who a node sends to and receives from at each
 * step. One copy, used by vcube-sim and by the VM experiments, whose virtual
 * times must agree bit for bit.
 */
#ifndef VCUBE_THAKUR_H
#define VCUBE_THAKUR_H

#include <string.h>

/* Steps 1 .. vcube_thakur_steps() - 1 exist; 0 for an unknown algorithm. */
static inline unsigned int vcube_thakur_steps(const char *algo, unsigned int p)
{
	unsigned int q = 1;

	while (q < p)
		q *= 2;
	if (!strcmp(algo, "gen"))
		return p;
	if (!strcmp(algo, "pex") || !strcmp(algo, "pexgen") ||
	    !strcmp(algo, "pexgenshift"))
		return q;
	return 0;
}

/*
 * Step @i at node @me of @p: 1 with *to and *from set, 0 when the node is
 * idle. PEX and PEX-GEN exchange with me ^ i; PEX-GEN-SHIFT numbers nodes
 * me + (q - p) / 2 mod q (Fig. 3(b) numbers 0..19 as 6..25; mod p would
 * make the pairs asymmetric); GEN sends to me + i, receives from me - i.
 */
static inline int vcube_thakur_step(const char *algo, unsigned int me,
				    unsigned int p, unsigned int i,
				    unsigned int *to, unsigned int *from)
{
	unsigned int q = vcube_thakur_steps("pex", p), shift = (q - p) / 2;
	int d;

	if (!strcmp(algo, "gen")) {
		*to = (me + i) % p;
		*from = (me + p - i) % p;
		return 1;
	}
	d = !strcmp(algo, "pexgenshift") ?
	    (int)(((me + shift) % q) ^ i) - (int)shift : (int)(me ^ i);
	if (d < 0)
		d += q;
	if ((unsigned int)d >= p)
		return 0;
	*to = *from = d;
	return 1;
}

#endif /* VCUBE_THAKUR_H */
