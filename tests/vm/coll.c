// SPDX-License-Identifier: GPL-2.0
/*
 * The collectives of libvcube, every result checked at every rank against
 * what it must be. Run under vcube-run; prints "ok"/"not ok" lines from
 * rank 0 and exits non-zero when any rank saw a wrong value.
 *
 *   vcube-run -n N coll
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcube.h"

static unsigned int me, np;
static int failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "rank %u: ", me);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			failed = 1;					\
		}							\
	} while (0)

/* Every algorithm: 0 where it runs; -EDOM for cm5_control without one. */
static int unusable(struct vcube_comm *c, const char *algo, int ret)
{
	const struct vcube_algo *a;

	if (vcube_algo_find(VCUBE_ALGO_BCAST, algo, &a) &&
	    vcube_algo_find(VCUBE_ALGO_REDUCE, algo, &a))
		return 0;
	if (!(a->needs & VCUBE_ALGO_CNET) || vcube_comm_cnet(c))
		return 0;
	CHECK(ret == -EDOM, "%s without a control network: %d, not -EDOM",
	      algo, ret);
	return 1;
}

/* s32 and the bitwise operators: what every rank must get. */
static void int_ops(struct vcube_comm *c, const char *algo)
{
	static const unsigned int ops[] = { VCUBE_OP_SUM, VCUBE_OP_MAX,
		VCUBE_OP_MIN, VCUBE_OP_BAND, VCUBE_OP_BOR, VCUBE_OP_BXOR };
	int32_t in[2] = { (int32_t)me * 3 - 40, (int32_t)(0x10101 << (me % 8)) };
	int32_t out[2], want[2] = { 0, 0 };
	uint64_t uin = 0xf0ULL << (me % 56) | 1, uout, uwant = 0;
	unsigned int k, i;
	int ret;

	for (k = 0; k < 6; k++) {
		for (i = 0; i < np; i++) {
			int32_t v0 = (int32_t)i * 3 - 40;
			int32_t v1 = (int32_t)(0x10101 << (i % 8));
			uint64_t u = 0xf0ULL << (i % 56) | 1;

			if (!i) {
				want[0] = v0;
				want[1] = v1;
				uwant = u;
				continue;
			}
			switch (ops[k]) {
			case VCUBE_OP_SUM: want[0] += v0; want[1] += v1; uwant += u; break;
			case VCUBE_OP_MAX: want[0] = v0 > want[0] ? v0 : want[0];
				want[1] = v1 > want[1] ? v1 : want[1];
				uwant = u > uwant ? u : uwant; break;
			case VCUBE_OP_MIN: want[0] = v0 < want[0] ? v0 : want[0];
				want[1] = v1 < want[1] ? v1 : want[1];
				uwant = u < uwant ? u : uwant; break;
			case VCUBE_OP_BAND: want[0] &= v0; want[1] &= v1; uwant &= u; break;
			case VCUBE_OP_BOR: want[0] |= v0; want[1] |= v1; uwant |= u; break;
			default: want[0] ^= v0; want[1] ^= v1; uwant ^= u; break;
			}
		}
		ret = vcube_reduce_run(c, algo, ops[k], VCUBE_TYPE_S32, in, out, 2);
		CHECK(!ret && out[0] == want[0] && out[1] == want[1],
		      "%s s32 op %u: %d, %d %d != %d %d", algo, ops[k], ret,
		      out[0], out[1], want[0], want[1]);
		ret = vcube_reduce_run(c, algo, ops[k], VCUBE_TYPE_U64, &uin,
				       &uout, 1);
		CHECK(!ret && uout == uwant, "%s u64 op %u: %d", algo, ops[k],
		      ret);
	}
	CHECK(vcube_reduce_run(c, algo, VCUBE_OP_BAND, VCUBE_TYPE_DOUBLE,
			       in, out, 1) == -EINVAL, "%s: and of doubles", algo);
}

static void reductions(struct vcube_comm *c)
{
	static const char *const algos[] = { "crossover", "tree", "cm5_control" };
	uint64_t in[3], out[3], sum = 0, mx = 0, i;
	double din[2], dout[2];
	unsigned int a;
	int ret;

	for (i = 0; i < np; i++) {
		sum += i * i + 1;
		if (i * 7 % np > mx)
			mx = i * 7 % np;
	}
	for (a = 0; a < 3; a++) {
		in[0] = (uint64_t)me * me + 1;
		in[1] = me * 7 % np;
		in[2] = 1000 + me;
		ret = vcube_reduce_run(c, algos[a], VCUBE_OP_SUM, VCUBE_TYPE_U64,
				       in, out, 1);
		if (unusable(c, algos[a], ret))
			continue;
		if ((np & (np - 1)) && a == 0) {
			CHECK(ret == -EDOM, "crossover on %u ranks: %d, not -EDOM",
			      np, ret);
			continue;
		}
		CHECK(!ret && out[0] == sum, "%s sum: %d, %llu != %llu",
		      algos[a], ret, (unsigned long long)out[0],
		      (unsigned long long)sum);
		ret = vcube_reduce_run(c, algos[a], VCUBE_OP_MAX, VCUBE_TYPE_U64,
				       in, out, 3);
		CHECK(!ret && out[1] == mx && out[2] == 999 + np,
		      "%s max: %d, %llu %llu", algos[a], ret,
		      (unsigned long long)out[1], (unsigned long long)out[2]);
		ret = vcube_reduce_run(c, algos[a], VCUBE_OP_MIN, VCUBE_TYPE_U64,
				       in, out, 3);
		CHECK(!ret && out[0] == 1 && out[2] == 1000, "%s min: %d",
		      algos[a], ret);
		din[0] = 0.5 * me;
		din[1] = -1.0 * me;
		ret = vcube_reduce_run(c, algos[a], VCUBE_OP_SUM,
				       VCUBE_TYPE_DOUBLE, din, dout, 2);
		CHECK(!ret && dout[0] == 0.25 * np * (np - 1) &&
		      dout[1] == -0.5 * np * (np - 1), "%s double sum: %d %g",
		      algos[a], ret, dout[0]);
		din[0] = me == np / 2 ? 1e300 : -1.0 * me;
		ret = vcube_reduce_run(c, algos[a], VCUBE_OP_MAX,
				       VCUBE_TYPE_DOUBLE, din, dout, 1);
		CHECK(!ret && dout[0] == 1e300, "%s double max: %d", algos[a],
		      ret);
		ret = vcube_reduce_run(c, algos[a], VCUBE_OP_MIN,
				       VCUBE_TYPE_DOUBLE, din, dout, 1);
		CHECK(!ret && dout[0] == -1.0 * (np - 1 == np / 2 ? np - 2 : np - 1),
		      "%s double min: %d %g", algos[a], ret, dout[0]);
		int_ops(c, algos[a]);
	}
	CHECK(vcube_reduce_run(c, "nosuch", 0, 0, in, out, 1) == -ENOENT,
	      "unknown reduction accepted");
	CHECK(vcube_reduce_run(c, "tree", 7, 0, in, out, 1) == -EINVAL,
	      "bad op accepted");
	CHECK(vcube_reduce_run(c, "tree", 0, 9, in, out, 1) == -EINVAL,
	      "bad type accepted");
}

static void scans(struct vcube_comm *c)
{
	static const char *const algos[] = { "doubling", "cm5_control" };
	uint64_t in[2] = { me + 1, 5 }, out[2];
	int32_t si = (int32_t)me - 3, so;
	double d = 0.5 * me, dout;
	unsigned int a;
	int ret;

	for (a = 0; a < 2; a++) {
		ret = vcube_scan_run(c, algos[a], VCUBE_OP_SUM, VCUBE_TYPE_U64,
				     in, out, 2);
		if (unusable(c, algos[a], ret))
			continue;
		CHECK(!ret && out[0] == (uint64_t)(me + 1) * (me + 2) / 2 &&
		      out[1] == 5ULL * (me + 1), "%s scan: %d, %llu", algos[a],
		      ret, (unsigned long long)out[0]);
		ret = vcube_scan_run(c, algos[a], VCUBE_OP_MAX, VCUBE_TYPE_U64,
				     in, out, 1);
		CHECK(!ret && out[0] == me + 1, "%s scan max: %d", algos[a], ret);
		ret = vcube_scan_run(c, algos[a], VCUBE_OP_MIN, VCUBE_TYPE_S32,
				     &si, &so, 1);
		CHECK(!ret && so == -3, "%s scan s32 min: %d %d", algos[a], ret,
		      so);
		ret = vcube_scan_run(c, algos[a], VCUBE_OP_SUM,
				     VCUBE_TYPE_DOUBLE, &d, &dout, 1);
		CHECK(!ret && dout == 0.25 * me * (me + 1), "%s scan double: %d",
		      algos[a], ret);
	}
	CHECK(vcube_scan_run(c, "nosuch", 0, 0, in, out, 1) == -ENOENT,
	      "unknown scan accepted");
}

static void broadcasts(struct vcube_comm *c)
{
	static const char *const algos[] = { "tree", "cm5_control" };
	unsigned int root, i, a;
	uint8_t buf[777];
	int ret;

	for (a = 0; a < 2; a++)
		for (root = 0; root < np; root += (np > 4 ? np / 4 : 1) + 1) {
			for (i = 0; i < sizeof(buf); i++)
				buf[i] = me == root ? (uint8_t)(i * 3 + root) : 0;
			ret = vcube_bcast_run(c, algos[a], root, buf, sizeof(buf));
			if (unusable(c, algos[a], ret))
				break;
			for (i = 0; i < sizeof(buf) && !ret; i++)
				if (buf[i] != (uint8_t)(i * 3 + root))
					break;
			CHECK(!ret && i == sizeof(buf),
			      "%s bcast from %u: %d, byte %u", algos[a], root,
			      ret, i);
		}
	CHECK(vcube_bcast_run(c, NULL, np, buf, 1) == -EINVAL,
	      "bad root accepted");
	CHECK(vcube_bcast_run(c, "nosuch", 0, buf, 1) == -ENOENT,
	      "unknown broadcast accepted");
}

static void shifts(struct vcube_comm *c)
{
	unsigned int pos = vcube_gray_decode(me), i, n, s, d;
	int k, ret;
	uint32_t sb[64], rb[64];

	if (np & (np - 1)) {
		CHECK(vcube_shift_run(c, 1, sb, rb, sizeof(sb)) == -EDOM,
		      "shift on %u ranks", np);
		return;
	}
	for (i = 0; i < 64; i++)
		CHECK(vcube_gray_decode(vcube_gray_encode(i)) == i &&
		      __builtin_popcount(vcube_gray_encode(i) ^
					 vcube_gray_encode((i + 1) % 64)) == 1,
		      "gray code at %u", i);
	for (k = -1; k <= 3; k++) {
		for (i = 0; i < 64; i++)
			sb[i] = pos * 1000 + i;
		ret = vcube_shift_run(c, k, sb, rb, sizeof(sb));
		n = (pos + np - (unsigned int)((k + (int)np) % (int)np)) % np;
		for (i = 0; i < 64 && !ret; i++)
			if (rb[i] != n * 1000 + i)
				break;
		CHECK(!ret && i == 64, "shift %d: %d, got %u from position %u",
		      k, ret, rb[0], n);
	}
	/* a shift by one crosses exactly one hypercube link */
	s = vcube_gray_encode(pos);
	d = vcube_gray_encode((pos + 1) % np);
	CHECK(np < 2 || __builtin_popcount(s ^ d) == 1, "ring edge %u-%u", s, d);
}

static void kernels(struct vcube_comm *c)
{
	const struct vcube_node_info *in = vcube_comm_info(c);
	unsigned int ph, lg = 0;
	uint8_t buf[64] = { 0 };
	int ret;

	while ((1U << lg) < np)
		lg++;
	ret = vcube_kernel_run(c, "butterfly", buf, sizeof(buf), &ph);
	if (np & (np - 1))
		CHECK(ret == -EDOM, "butterfly on %u ranks: %d", np, ret);
	else
		CHECK(!ret && ph == lg, "butterfly: %d, %u phases", ret, ph);
	ret = vcube_kernel_run(c, "crossover", buf, sizeof(buf), &ph);
	if (!(np & (np - 1)))
		CHECK(!ret && ph == lg, "crossover: %d, %u phases", ret, ph);
	ret = vcube_kernel_run(c, "torus", buf, sizeof(buf), &ph);
	if (in->rows && in->rows * in->cols == np)
		CHECK(!ret && ph == in->rows + in->cols, "torus: %d, %u", ret, ph);
	else
		CHECK(ret == -EDOM, "torus kernel off a grid: %d", ret);
	CHECK(vcube_kernel_run(c, "nosuch", buf, 1, NULL) == -ENOENT,
	      "unknown kernel");
}

/* The distributed 2-D FFT against the same transform done here alone. */
static void ffts(struct vcube_comm *c)
{
	static const char *const xs[] = { "pex", "gen", "standard_U", "bucket" };
	unsigned int n = np < 16 ? 16 : np, b = n / np, i, j, x, bad;
	double *full, *rows, *col, err;
	int ret;

	if (np & (np - 1)) {
		double one[2];

		CHECK(vcube_fft2d_run(c, 16, one, NULL) == -EDOM,
		      "fft on %u ranks", np);
		return;
	}
	full = calloc(2 * (size_t)n * n, sizeof(double));
	rows = calloc(2 * (size_t)b * n, sizeof(double));
	col = calloc(2 * (size_t)n, sizeof(double));
	/* reference: rows, then columns */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			full[2 * (i * n + j)] = sin(0.3 * i + 0.7 * j * j) + (i == j);
			full[2 * (i * n + j) + 1] = cos(1.1 * i * j) * 0.5;
		}
	for (i = 0; i < n; i++)
		vcube_fft_1d(full + 2 * i * n, n, -1);
	for (j = 0; j < n; j++) {
		for (i = 0; i < n; i++)
			memcpy(col + 2 * i, full + 2 * (i * n + j), 16);
		vcube_fft_1d(col, n, -1);
		for (i = 0; i < n; i++)
			memcpy(full + 2 * (i * n + j), col + 2 * i, 16);
	}
	for (x = 0; x < 4; x++) {
		struct vcube_fft_opts o = { .xchg = xs[x] };

		for (i = 0; i < b; i++)
			for (j = 0; j < n; j++) {
				unsigned int gi = me * b + i;

				rows[2 * (i * n + j)] = sin(0.3 * gi + 0.7 * j * j) + (gi == j);
				rows[2 * (i * n + j) + 1] = cos(1.1 * gi * j) * 0.5;
			}
		ret = vcube_fft2d_run(c, n, rows, &o);
		for (i = 0, bad = 0, err = 0; i < b && !ret; i++)
			for (j = 0; j < n; j++) {
				/* my row i is column me b + i of the transform */
				const double *w = full + 2 * ((size_t)j * n + me * b + i);
				double d = hypot(rows[2 * (i * n + j)] - w[0],
						 rows[2 * (i * n + j) + 1] - w[1]);

				if (d > err)
					err = d;
				bad += d > 1e-9 * n;
			}
		CHECK(!ret && !bad, "fft %ux%u over %s: %d, %u wrong, error %g",
		      n, n, xs[x], ret, bad, err);
	}
	free(full);
	free(rows);
	free(col);
}

int main(int argc, char **argv)
{
	struct vcube_comm *c;
	uint64_t v, m;
	int ret;

	if (argc > 1) {
		printf("usage: vcube-run -n N coll\n");
		return !strcmp(argv[1], "--help") ? 0 : 2;
	}
	ret = vcube_comm_open(&c);
	if (ret) {
		fprintf(stderr, "coll: %s\n", strerror(-ret));
		return 1;
	}
	me = vcube_comm_rank(c);
	np = vcube_comm_size(c);
	reductions(c);
	scans(c);
	broadcasts(c);
	shifts(c);
	kernels(c);
	ffts(c);
	v = failed;
	ret = vcube_reduce_run(c, "tree", VCUBE_OP_MAX, VCUBE_TYPE_U64, &v, &m, 1);
	if (me == 0)
		printf("%s collectives on %u ranks\n", !ret && !m ? "ok" : "not ok",
		       np);
	vcube_comm_close(c);
	return failed || ret || m;
}
