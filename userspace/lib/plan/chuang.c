// SPDX-License-Identifier: MIT
/*
 * Chuang & Horie 1992 on the AP1000: the all-to-all (sec. 3.4, Fig. 8) by
 * bucket passing on the crossover (plan/forward.c) and by the normal
 * torus; the global reduction by the crossover; the communication kernels
 * of their Fig. 4.
 */
#include "plan.h"

/*
 * The crossover: phase k sends the running value (block 0) to rank + 2^k,
 * receives rank - 2^k's into block 1 and folds it in; after lg p phases
 * every rank holds the whole reduction (p a power of two).
 */
int vcube_plan_reduce_crossover(const struct vcube_plan_args *a,
				struct vcube_plan *pl)
{
	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, a->p);
	pl->nsend = 0;
	pl->nrecv = 1;
	pl->nscratch = 1;
	return vcube_plan_crossover(pl, a->me, a->p, 1, true);
}

/*
 * The kernels (sec. 3.1, Fig. 4), each phase one message of block 0
 * received into block 1: the butterfly (partner rank ^ 2^k) and the
 * crossover (to rank + 2^k, from rank - 2^k), lg p phases; the torus,
 * cols phases east, then rows phases south.
 */
static void kernel_init(struct vcube_plan *pl, unsigned int p)
{
	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	pl->nsend = 1;
	pl->nrecv = 1;
}

int vcube_plan_kernel_butterfly(const struct vcube_plan_args *a,
				struct vcube_plan *pl)
{
	kernel_init(pl, a->p);
	return vcube_plan_butterfly(pl, a->me, 0, vcube_lg(a->p), false, 1);
}

int vcube_plan_kernel_crossover(const struct vcube_plan_args *a,
				struct vcube_plan *pl)
{
	kernel_init(pl, a->p);
	return vcube_plan_crossover(pl, a->me, a->p, 1, false);
}

int vcube_plan_kernel_torus(const struct vcube_plan_args *a,
			    struct vcube_plan *pl)
{
	unsigned int nx = a->cols, ny = a->rows, r = a->me / nx, c = a->me % nx;
	unsigned int i;
	int ret = 0;

	kernel_init(pl, a->p);
	for (i = 0; i < nx && !ret; i++)
		ret = vcube_plan_add_xfer(pl, NULL, r * nx + (c + 1) % nx, 0,
					  r * nx + (c + nx - 1) % nx, 1, i);
	for (; i < nx + ny && !ret; i++)
		ret = vcube_plan_add_xfer(pl, NULL, ((r + 1) % ny) * nx + c, 0,
					  ((r + ny - 1) % ny) * nx + c, 1, i);
	return ret;
}

int vcube_plan_bucket(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	return vcube_plan_forward(a->me, a->p, VCUBE_FWD_BUCKET, false, pl);
}

/*
 * One direction of the normal torus: @n1 - 1 phases to @to, from @from, each message carrying the blocks of one source for the
 * remaining distances, nearest first: the receiver keeps the first @keep_n
 * blocks (at phase t, at keep_base + ((keep_pos - t) mod n1) * keep_stride)
 * and forwards the rest unchanged. M0 holds the first message of @n2
 * blocks per distance; M0 and M1 alternate.
 */
static int torus_phases(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int n1, unsigned int n2,
			unsigned int to, unsigned int from, unsigned int tag0,
			unsigned int keep_base, unsigned int keep_stride,
			unsigned int keep_pos, unsigned int keep_n)
{
	unsigned int t, j, n, m0 = vcube_plan_scratch(pl, pl->p),
		     m1 = vcube_plan_scratch(pl, 2 * pl->p), tmp, at;
	struct vcube_plan_step st = { .to = to, .from = from,
				      .stag = VCUBE_NONE };
	int ret = 0;

	for (t = 1; t < n1 && !ret; t++) {
		n = (n1 - t) * n2;
		st.tag = tag0 + t;
		st.sblk = m0;
		st.rblk = m1;
		st.nblk = n;
		st.moves = *r;
		ret = vcube_plan_add_step(pl, &st);
		*r = (struct vcube_plan_range){ 0 };
		at = keep_base + ((keep_pos + n1 - t) % n1) * keep_stride;
		for (j = 0; j < keep_n && !ret; j++)
			ret = vcube_plan_add_move(pl, r, at + j, m1 + j);
		tmp = m0;
		m0 = m1 + n2;	/* the rest goes on */
		m1 = tmp;
	}
	return ret;
}

/*
 * The normal torus: cols - 1 phases east, then rows - 1 south, each to the
 * next node. Scratch: h[cs * rows + rd] (from (r, cs) to (rd, c), once the
 * rows are done), then the two message areas M0 and M1.
 */
int vcube_plan_torus(const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	unsigned int nx = a->cols, ny = a->rows, r = a->me / nx, c = a->me % nx;
	unsigned int e, y, cs;
	unsigned int h, m0, n = 0;
	struct vcube_plan_range rg = { 0 };
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, ny * nx);
	pl->nscratch = 3 * pl->p;
	h = vcube_plan_scratch(pl, 0);
	m0 = vcube_plan_scratch(pl, pl->p);
	for (y = 0; y < ny && !ret; y++)
		ret = vcube_plan_add_move(pl, &pl->init, h + c * ny + y,
					  y * nx + c);
	for (e = 1; e < nx && !ret; e++)
		for (y = 0; y < ny && !ret; y++)
			ret = vcube_plan_add_move(pl, &pl->init, m0 + n++,
						  y * nx + (c + e) % nx);
	ret = ret ?: torus_phases(pl, &rg, nx, ny, r * nx + (c + 1) % nx,
				  r * nx + (c + nx - 1) % nx, 0, h, ny, c, ny);
	for (cs = 0; cs < nx && !ret; cs++)
		ret = vcube_plan_add_move(pl, &rg, vcube_plan_rblk(pl, r * nx + cs),
					  h + cs * ny + r);
	for (e = 1, n = 0; e < ny && !ret; e++)
		for (cs = 0; cs < nx && !ret; cs++)
			ret = vcube_plan_add_move(pl, &rg, m0 + n++,
						  h + cs * ny + (r + e) % ny);
	ret = ret ?: torus_phases(pl, &rg, ny, nx,
				  ((r + 1) % ny) * nx + c,
				  ((r + ny - 1) % ny) * nx + c, nx,
				  vcube_plan_rblk(pl, 0), nx, r, nx);
	pl->fin = rg;
	return ret;
}
