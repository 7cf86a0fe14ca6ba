// SPDX-License-Identifier: MIT
/*
 * libvcube: Gaussian elimination with partial pivoting as Ponnusamy et al.
 * ran it on the CM-5 (sec. 6.2, the row-oriented algorithm of Wu & Shu
 * 1989): an n x (n + 1) augmented matrix, row i on rank i mod p. Each of
 * the n iterations k:
 *
 *   1. every rank finds the largest |a[i][k]| among its rows not yet used
 *      as pivots;
 *   2. a reduction of doubles with max finds the pivot's value, and one of
 *      ints with max its row (the highest-numbered row holding it);
 *   3. the row's owner broadcasts it, n + 1 doubles;
 *   4. every rank eliminates column k from its other rows, and is charged
 *      (n / p)(n + 1) element updates of elem_ns each, as Table 7 counts
 *      the computation of an iteration.
 *
 * Rows are marked, not swapped. Every rank keeps the pivot rows it was
 * sent and back-substitutes from them at the end (not timed), so every
 * rank gets the whole solution.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"

/* One elimination, at one rank. */
struct ge {
	struct vcube_comm *c;
	unsigned int n, nl;		/* the order; rows at this rank */
	size_t w;			/* n + 1 doubles a row */
	double *rows, *piv;		/* this rank's rows; every pivot row */
	uint8_t *used;			/* this rank's rows already pivots */
	const char *red, *bc;		/* the reduction and the broadcast */
	uint64_t charge, mark;		/* per iteration; the last lap */
	struct vcube_ge_times tt;
};

/*
 * Add the virtual time since the last lap to *@sum: only communication
 * and the charged delays move a node's clock, so the time between two
 * laps is that of the call between them.
 */
static int ge_lap(struct ge *g, uint64_t *sum)
{
	uint64_t now;
	int ret = g->c->tp->clock(g->c->tpx, &now);

	if (!ret) {
		*sum += now - g->mark;
		g->mark = now;
	}
	return ret;
}

/*
 * Column @k's pivot: the largest magnitude among the rows not yet used
 * (a reduction of doubles), the highest-numbered row holding it (one of
 * ints); its owner broadcasts it into piv row k. -ERANGE: singular.
 */
static int ge_pivot(struct ge *g, unsigned int k)
{
	unsigned int me = g->c->rank, p = g->c->size, j, owner;
	double best = -1, gmax;
	int32_t cand = -1, prow;
	size_t w = g->w;
	int ret;

	for (j = 0; j < g->nl; j++)
		if (!g->used[j] && fabs(g->rows[j * w + k]) > best)
			best = fabs(g->rows[j * w + k]);
	ret = vcube_reduce_run(g->c, g->red, VCUBE_OP_MAX, VCUBE_TYPE_DOUBLE,
			       &best, &gmax, 1);
	ret = ret ?: ge_lap(g, &g->tt.reduce_double);
	if (!ret && !(gmax > 0))
		ret = -ERANGE;
	if (ret)
		return ret;
	for (j = 0; j < g->nl; j++)
		if (!g->used[j] && fabs(g->rows[j * w + k]) == gmax)
			cand = (int32_t)(me + j * p);
	ret = vcube_reduce_run(g->c, g->red, VCUBE_OP_MAX, VCUBE_TYPE_S32,
			       &cand, &prow, 1);
	ret = ret ?: ge_lap(g, &g->tt.reduce_int);
	if (ret)
		return ret;
	owner = (unsigned int)prow % p;
	if (owner == me) {
		memcpy(g->piv + k * w, g->rows + (prow / p) * w,
		       w * sizeof(*g->piv));
		g->used[prow / p] = 1;
	}
	ret = vcube_bcast_run(g->c, g->bc, owner, g->piv + k * w,
			      w * sizeof(*g->piv));
	return ret ?: ge_lap(g, &g->tt.bcast);
}

/* Eliminate column @k from the rows not yet used, and charge it. */
static int ge_eliminate(struct ge *g, unsigned int k)
{
	size_t w = g->w;
	unsigned int j, c;
	double f;
	int ret;

	for (j = 0; j < g->nl; j++) {
		if (g->used[j])
			continue;
		f = g->rows[j * w + k] / g->piv[k * w + k];
		for (c = k; c <= g->n; c++)
			g->rows[j * w + c] -= f * g->piv[k * w + c];
	}
	if (!g->charge)
		return 0;
	ret = g->c->tp->delay(g->c->tpx, g->charge);
	return ret ?: ge_lap(g, &g->tt.compute);
}

/* Pivot row k has zeros left of column k: back-substitute into @x. */
static void ge_back(const struct ge *g, double *x)
{
	unsigned int k, c, n = g->n;
	size_t w = g->w;
	double s;

	for (k = n; k-- > 0;) {
		s = g->piv[k * w + n];
		for (c = k + 1; c < n; c++)
			s -= g->piv[k * w + c] * x[c];
		x[k] = s / g->piv[k * w + k];
	}
}

/* @g's algorithms and charge from @o; 0 or -errno. */
static int ge_setup(struct ge *g, const struct vcube_ge_opts *o)
{
	struct vcube_comm *c = g->c;
	double cost;
	int ret;

	g->red = o && o->reduce ? o->reduce : c->cnet ? "cm5_control" : "tree";
	g->bc = o && o->bcast ? o->bcast : c->cnet ? "cm5_control" : "tree";
	ret = vcube_algo_usable(c, VCUBE_ALGO_REDUCE, g->red);
	ret = ret ?: vcube_algo_usable(c, VCUBE_ALGO_BCAST, g->bc);
	if (ret)
		return ret;
	/* an iteration's charge, in whole ns of virtual time */
	cost = o ? o->elem_ns * g->nl * g->w : 0;
	if (!isfinite(cost) || cost < 0 || cost >= 0x1p62)
		return -EINVAL;
	g->charge = (uint64_t)(cost + 0.5);
	if (g->w > SIZE_MAX / sizeof(*g->piv) / g->n)
		return -ENOMEM;
	g->piv = malloc(g->w * g->n * sizeof(*g->piv));
	g->used = calloc(g->nl, 1);
	return g->piv && g->used ? 0 : -ENOMEM;
}

int vcube_ge_run(struct vcube_comm *comm, unsigned int n, double *rows,
		 double *x, const struct vcube_ge_opts *o,
		 struct vcube_ge_times *t)
{
	struct ge g = { .c = comm, .n = n, .w = (size_t)n + 1, .rows = rows };
	uint64_t t0 = 0, t1 = 0;
	unsigned int k;
	int ret;

	if (!comm || !n || !rows || !x || n > 65536)
		return -EINVAL;
	if (n % comm->size)
		return -EDOM;
	g.nl = n / comm->size;
	ret = ge_setup(&g, o);
	ret = ret ?: comm->tp->clock(comm->tpx, &t0);
	g.mark = t0;
	for (k = 0; k < n && !ret; k++) {
		ret = ge_pivot(&g, k);
		ret = ret ?: ge_eliminate(&g, k);
	}
	ret = ret ?: comm->tp->clock(comm->tpx, &t1);
	if (!ret) {
		g.tt.total = t1 - t0;
		ge_back(&g, x);
		if (t)
			*t = g.tt;
	}
	free(g.piv);
	free(g.used);
	return ret;
}
