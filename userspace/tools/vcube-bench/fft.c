// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's 2-D FFTs (--fft, Ponnusamy et al. sec. 6.1): the transpose
 * by each complete exchange, every output checked against the known
 * transform.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "vcube-bench/bench.h"

/*
 * One repetition of a 2-D FFT of n x n: a plane wave, whose transform is n^2
 * at one frequency and 0 elsewhere. The result is transposed: this rank's
 * row cc holds column k1 = me * n / p + cc, over the row frequencies k0.
 * The FFT has its own arrays (the size is the edge n) and starts after a
 * barrier alone: the sweep's start jitter is for the exchanges.
 */
static int fft_once(struct bench_point *pt, unsigned int rep, uint64_t *t,
		    int *bad)
{
	struct vcube_comm *c = pt->c;
	unsigned int me = vcube_comm_rank(c), p = vcube_comm_size(c);
	unsigned int n = (unsigned int)pt->len, rows = n / p, r, k;
	unsigned int f0 = (1 + rep) % n, f1 = 3 % n;
	struct vcube_fft_opts o = { .xchg = pt->algo, .flop_ns = pt->b->flop_ns };
	double *x = malloc((size_t)rows * n * 2 * sizeof(double) + 1);
	double tol = 1e-6 * (double)n * n, w, re, im;
	uint64_t t0, t1;
	int ret;

	if (!x)
		return -ENOMEM;
	for (r = 0; r < rows; r++)
		for (k = 0; k < n; k++) {
			w = 2 * M_PI * (double)(((uint64_t)f0 * (me * rows + r) +
						 (uint64_t)f1 * k) % n) / n;
			x[2 * ((size_t)r * n + k)] = cos(w);
			x[2 * ((size_t)r * n + k) + 1] = sin(w);
		}
	ret = vcube_comm_barrier(c);
	if (!ret)
		ret = vcube_comm_clock(c, &t0);
	if (!ret)
		ret = vcube_fft2d_run(c, n, x, &o);
	if (!ret)
		ret = vcube_comm_clock(c, &t1);
	for (r = 0; !ret && r < rows && !*bad; r++)
		for (k = 0; k < n; k++) {
			re = x[2 * ((size_t)r * n + k)];
			im = x[2 * ((size_t)r * n + k) + 1];
			if (me * rows + r == f1 && k == f0)
				re -= (double)n * n;
			if (fabs(re) > tol || fabs(im) > tol) {
				*bad = 1;
				break;
			}
		}
	if (!ret)
		*t = t1 - t0;
	free(x);
	return ret;
}


/* the FFT transposes by a complete exchange */
const struct bench_mode bench_fft_mode = {
	.kind = VCUBE_ALGO_XCHG, .once = fft_once,
};
