// SPDX-License-Identifier: MIT
/*
 * libvcube: the 2-D FFT of Ponnusamy et al. (sec. 6): an n x n complex
 * array distributed by rows, n / p rows per rank. Each rank transforms its
 * rows, the array is transposed by a complete exchange (any of libvcube's
 * algorithms), and each rank transforms its rows again. The result is the
 * transpose of the 2-D transform: rank r ends with its columns r n/p ..
 * (r + 1) n/p - 1 as rows, as in the paper (no transpose back).
 *
 * Complex numbers are interleaved doubles (re, im). Virtual time moves
 * only with messages, unless opts->flop_ns charges the arithmetic
 * (5 n lg n flops per row transform) as a busy wait.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"

/* In place, radix 2, n a power of two; @sign -1 forward, +1 inverse. */
int vcube_fft_1d(double *x, unsigned int n, int sign)
{
	unsigned int i, j, k, m, h;

	if (!x || !n || (n & (n - 1)) || (sign != 1 && sign != -1))
		return -EINVAL;
	for (i = 1, j = 0; i < n; i++) {	/* bit reversal */
		for (k = n >> 1; j & k; k >>= 1)
			j ^= k;
		j |= k;
		if (i < j) {
			double tr = x[2 * i], ti = x[2 * i + 1];

			x[2 * i] = x[2 * j];
			x[2 * i + 1] = x[2 * j + 1];
			x[2 * j] = tr;
			x[2 * j + 1] = ti;
		}
	}
	for (m = 2; m <= n; m *= 2) {
		double a = sign * 2 * M_PI / m;

		h = m / 2;
		for (k = 0; k < h; k++) {
			double wr = cos(a * k), wi = sin(a * k);

			for (i = k; i < n; i += m) {
				double *u = x + 2 * i, *v = x + 2 * (i + h);
				double tr = wr * v[0] - wi * v[1];
				double ti = wr * v[1] + wi * v[0];

				v[0] = u[0] - tr;
				v[1] = u[1] - ti;
				u[0] += tr;
				u[1] += ti;
			}
		}
	}
	return 0;
}

static int rows_fft(struct vcube_comm *c, double *rows, unsigned int nrows,
		    unsigned int n, double flop_ns)
{
	unsigned int r, lg = 0;
	int ret = 0;

	while ((1U << lg) < n)
		lg++;
	for (r = 0; r < nrows && !ret; r++)
		ret = vcube_fft_1d(rows + 2 * (size_t)r * n, n, -1);
	if (!ret && flop_ns > 0)
		ret = c->tp->delay(c->tpx, (uint64_t)(flop_ns * 5.0 * n *
						      lg * nrows + 0.5));
	return ret;
}

int vcube_fft2d_run(struct vcube_comm *comm, unsigned int n, double *rows,
		    const struct vcube_fft_opts *opts)
{
	const char *xchg = opts && opts->xchg ? opts->xchg : "pex";
	double flop_ns = opts ? opts->flop_ns : 0;
	unsigned int p, b, me, j, rr, cc;
	size_t blk, cplx = 2 * sizeof(double);
	double *sb, *rb;
	int ret;

	if (!comm || !rows || !n || (n & (n - 1)))
		return -EINVAL;
	p = comm->size;
	me = comm->rank;
	if (n % p)
		return -EDOM;
	ret = vcube_algo_usable(comm, VCUBE_ALGO_XCHG, xchg);
	if (ret)
		return ret;
	b = n / p;
	blk = (size_t)b * b * cplx;
	sb = malloc(2 * blk * p + 1);
	if (!sb)
		return -ENOMEM;
	rb = sb + 2 * (size_t)b * b * p;
	ret = rows_fft(comm, rows, b, n, flop_ns);
	if (ret)
		goto out;
	/* Block for rank j, transposed: [c][r] = rows[r][j b + c]. */
	for (j = 0; j < p; j++)
		for (cc = 0; cc < b; cc++)
			for (rr = 0; rr < b; rr++)
				memcpy(sb + 2 * (((size_t)j * b + cc) * b + rr),
				       rows + 2 * ((size_t)rr * n + j * b + cc), cplx);
	ret = vcube_xchg_run(comm, xchg, sb, rb, blk, NULL);
	if (ret)
		goto out;
	/* From rank j: my row c, columns j b .. j b + b - 1. */
	for (j = 0; j < p; j++)
		for (cc = 0; cc < b; cc++)
			memcpy(rows + 2 * ((size_t)cc * n + j * b),
			       rb + 2 * ((size_t)j * b + cc) * b, b * cplx);
	ret = rows_fft(comm, rows, b, n, flop_ns);
	(void)me;
out:
	free(sb);
	return ret;
}
