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

/*
 * Add the virtual time since *@mark to *@sum and move the mark: only
 * communication and the charged delays move a node's clock, so the time
 * between two laps is that of the call between them.
 */
static int ge_lap(struct vcube_comm *comm, uint64_t *mark, uint64_t *sum)
{
	uint64_t now;
	int ret = vcube_node_clock(comm->node, &now);

	if (!ret) {
		*sum += now - *mark;
		*mark = now;
	}
	return ret;
}

int vcube_ge_run(struct vcube_comm *comm, unsigned int n, double *rows,
		 double *x, const struct vcube_ge_opts *o,
		 struct vcube_ge_times *t)
{
	const char *red, *bc;
	unsigned int p, me, nl, k, j, c, owner;
	size_t w = (size_t)n + 1;
	double best, gmax, f, *piv = NULL, s;
	uint64_t t0 = 0, t1 = 0, mark = 0, charge;
	double cost;
	struct vcube_ge_times tt = { 0 };
	uint8_t *used = NULL;
	int32_t cand, prow;
	int ret;

	if (!comm || !n || !rows || !x || n > 65536)
		return -EINVAL;
	p = comm->size;
	me = comm->rank;
	if (n % p)
		return -EDOM;
	red = o && o->reduce ? o->reduce : comm->cnet ? "cm5_control" : "tree";
	bc = o && o->bcast ? o->bcast : comm->cnet ? "cm5_control" : "tree";
	ret = vcube_algo_usable(comm, VCUBE_ALGO_REDUCE, red);
	ret = ret ?: vcube_algo_usable(comm, VCUBE_ALGO_BCAST, bc);
	if (ret)
		return ret;
	nl = n / p;
	/* an iteration's charge, in whole ns of virtual time */
	cost = o ? o->elem_ns * nl * w : 0;
	if (!isfinite(cost) || cost < 0 || cost >= 0x1p62)
		return -EINVAL;
	charge = (uint64_t)(cost + 0.5);
	if (w > SIZE_MAX / sizeof(*piv) / n)
		return -ENOMEM;
	piv = malloc(w * n * sizeof(*piv));
	used = calloc(nl, 1);
	if (!piv || !used) {
		ret = -ENOMEM;
		goto out;
	}
	ret = vcube_node_clock(comm->node, &t0);
	mark = t0;
	for (k = 0; k < n && !ret; k++) {
		best = -1;
		for (j = 0; j < nl; j++)
			if (!used[j] && fabs(rows[j * w + k]) > best)
				best = fabs(rows[j * w + k]);
		ret = vcube_reduce_run(comm, red, VCUBE_OP_MAX,
				       VCUBE_TYPE_DOUBLE, &best, &gmax, 1);
		ret = ret ?: ge_lap(comm, &mark, &tt.reduce_double);
		if (ret)
			break;
		if (!(gmax > 0)) {
			ret = -ERANGE;	/* singular */
			break;
		}
		cand = -1;
		for (j = 0; j < nl; j++)
			if (!used[j] && fabs(rows[j * w + k]) == gmax)
				cand = (int32_t)(me + j * p);
		ret = vcube_reduce_run(comm, red, VCUBE_OP_MAX, VCUBE_TYPE_S32,
				       &cand, &prow, 1);
		ret = ret ?: ge_lap(comm, &mark, &tt.reduce_int);
		if (ret)
			break;
		owner = (unsigned int)prow % p;
		if (owner == me) {
			memcpy(piv + k * w, rows + (prow / p) * w, w * sizeof(*piv));
			used[prow / p] = 1;
		}
		ret = vcube_bcast_run(comm, bc, owner, piv + k * w,
				      w * sizeof(*piv));
		ret = ret ?: ge_lap(comm, &mark, &tt.bcast);
		if (ret)
			break;
		for (j = 0; j < nl; j++) {
			if (used[j])
				continue;
			f = rows[j * w + k] / piv[k * w + k];
			for (c = k; c <= n; c++)
				rows[j * w + c] -= f * piv[k * w + c];
		}
		if (charge) {
			ret = vcube_node_delay(comm->node, charge);
			ret = ret ?: ge_lap(comm, &mark, &tt.compute);
		}
	}
	ret = ret ?: vcube_node_clock(comm->node, &t1);
	if (ret)
		goto out;
	tt.total = t1 - t0;
	/* Pivot row k has zeros left of column k: back-substitute. */
	for (k = n; k-- > 0;) {
		s = piv[k * w + n];
		for (c = k + 1; c < n; c++)
			s -= piv[k * w + c] * x[c];
		x[k] = s / piv[k * w + k];
	}
	if (t)
		*t = tt;
out:
	free(piv);
	free(used);
	return ret;
}
