// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench --ge: Ponnusamy et al.'s Gaussian elimination (sec. 6.2,
 * Tables 7 and 8). For each matrix size n (an n x (n + 1) system with a
 * known solution) and each algorithm (the reductions and the broadcast on
 * the control network, "cm5_control", or on the data network, "tree"), one
 * elimination: the time of each operation per iteration (rank 0's, as
 * Table 7 gives them), the time per iteration, the paper's estimate (n
 * times that) and the measured time (the slowest rank), with the solution
 * checked at every rank.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct ge_result {
	const char *algo;
	unsigned int n;
	double op[4];		/* per iteration: reduce double, int, bcast, compute */
	double iteration;
	double estimated;	/* n * iteration */
	uint64_t measured;	/* the slowest rank's whole elimination */
	int ok;
};

/* Row i of a well-conditioned system with solution x_j = 1 + j mod 7. */
static void ge_row(unsigned int n, unsigned int i, double *row)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL * (i + 1);
	unsigned int j;
	double b = 0;

	for (j = 0; j < n; j++) {
		h ^= h >> 29;
		h *= 0xbf58476d1ce4e5b9ULL;
		row[j] = (double)(h >> 11) / 9007199254740992.0 - 0.5;
		if (j == (i + 1) % n)
			row[j] += n;	/* a dominant entry, off the diagonal */
		b += row[j] * (1 + j % 7);
	}
	row[n] = b;
}

static int ge_point(struct vcube_comm *c, const struct ge_study *s,
		    const char *algo, unsigned int n, struct ge_result *r)
{
	unsigned int me = vcube_comm_rank(c), p = vcube_comm_size(c), j, k;
	struct vcube_ge_opts o = { .reduce = algo, .bcast = algo,
				   .elem_ns = s->elem_ns };
	struct vcube_ge_times t;
	size_t w = (size_t)n + 1;
	double *rows = malloc((n / p) * w * sizeof(double) + 1);
	double *x = malloc(n * sizeof(double) + 1);
	uint64_t v[3], m[3];
	int ret, err = 0, bad = 0;

	if (!rows || !x)
		err = -ENOMEM;
	for (j = 0; !err && j < n / p; j++)
		ge_row(n, me + j * p, rows + j * w);
	err = err ?: vcube_comm_barrier(c);
	err = err ?: vcube_ge_run(c, n, rows, x, &o, &t);
	for (k = 0; !err && k < n; k++)
		if (fabs(x[k] - (1 + k % 7)) > 1e-9 * (1 + k % 7))
			bad = 1;
	/*
	 * Every rank joins the closing reduction, failed or not, so that one
	 * rank's error reaches all of them instead of leaving them waiting.
	 */
	v[0] = err ? 0 : t.total;
	v[1] = bad;
	v[2] = (uint64_t)-err;
	ret = vcube_reduce_run(c, "tree", VCUBE_OP_MAX, VCUBE_TYPE_U64, v, m,
			       3);
	if (!ret && m[2])
		ret = -(int)m[2];
	if (ret)
		goto out;
	r->algo = algo;
	r->n = n;
	r->op[0] = (double)t.reduce_double / n;
	r->op[1] = (double)t.reduce_int / n;
	r->op[2] = (double)t.bcast / n;
	r->op[3] = (double)t.compute / n;
	r->iteration = r->op[0] + r->op[1] + r->op[2] + r->op[3];
	r->estimated = n * r->iteration;
	r->measured = m[0];
	r->ok = !m[1];
out:
	free(rows);
	free(x);
	return ret;
}

#define GE_MS(j, h, w, p)						\
	{ .json = j, .csv = j, .head = h, .type = BENCH_REAL, .width = w, \
	  .prec = p, .scale = 1e6 }

static const struct bench_col ge_cols[] = {
	{ .json = "algo", .csv = "algo", .head = "algo", .type = BENCH_STR,
	  .width = -12 },
	{ .json = "n", .csv = "n", .head = "n", .type = BENCH_UINT,
	  .width = 5 },
	GE_MS("reduce_double_ns", "red.dbl", 9, 3),
	GE_MS("reduce_int_ns", "red.int", 9, 3),
	GE_MS("bcast_ns", "bcast", 9, 3),
	GE_MS("compute_ns", "compute", 9, 3),
	GE_MS("iteration_ns", "iteration", 9, 3),
	GE_MS("estimated_ns", "estimated", 11, 1),
	{ .json = "measured_ns", .csv = "measured_ns", .head = "measured",
	  .type = BENCH_UINT, .width = 11, .prec = 1, .scale = 1e6 },
	{ .json = "ok", .csv = "ok", .head = "solution", .type = BENCH_BOOL,
	  .no = "WRONG" },
};

static void ge_print(const struct ge_study *s, const struct vcube_net_desc *net,
		     unsigned int p, const struct ge_result *res,
		     unsigned int nres)
{
	struct bench_out o;
	unsigned int i;

	bench_out_start(&o, stdout, bench_out_fmt(s->csv, s->json), ge_cols,
			ARRAY_LEN(ge_cols));
	bench_out_note(&o, "%s %s (%u nodes), profile %s, %u processes; %g ns per element update",
		       net->topology, net->shape, net->nodes, net->profile, p,
		       s->elem_ns);
	bench_out_note(&o, "Gaussian elimination of n x (n+1), n iterations; per iteration (rank 0) and in all, ms");
	bench_out_str(&o, BENCH_IN_BOTH, "kind", "ge");
	bench_out_open(&o, "network");
	bench_out_str(&o, BENCH_IN_JSON, "topology", net->topology);
	bench_out_str(&o, BENCH_IN_JSON, "shape", net->shape);
	bench_out_str(&o, BENCH_IN_BOTH, "profile", net->profile);
	bench_out_close(&o);
	bench_out_uint(&o, BENCH_IN_BOTH, "procs", p);
	bench_out_real(&o, BENCH_IN_BOTH, "elem_ns", s->elem_ns);
	bench_out_uint(&o, BENCH_IN_CSV, "cnet_word_ns", net->cnet_word_ns);
	bench_out_uint(&o, BENCH_IN_CSV, "cnet_double_ns", net->cnet_double_ns);
	bench_out_uint(&o, BENCH_IN_CSV, "cnet_bcast_ns", net->cnet_bcast_ns);
	bench_out_str(&o, BENCH_IN_JSON, "unit", "ns");
	bench_out_rows(&o, "results");
	for (i = 0; i < nres; i++) {
		const struct ge_result *r = &res[i];
		union bench_val v[] = {
			{ .s = r->algo }, { .u = r->n }, { .f = r->op[0] },
			{ .f = r->op[1] }, { .f = r->op[2] }, { .f = r->op[3] },
			{ .f = r->iteration }, { .f = r->estimated },
			{ .u = r->measured }, { .b = r->ok },
		};

		bench_out_row(&o, v);
	}
	bench_out_end(&o);
}

/*
 * The algorithms (each a reduction and a broadcast): those named, or every
 * broadcast that runs here, the control network's first and then the data
 * network's as its ablation; 0, or 2 (said at rank 0).
 */
static int ge_algos(struct vcube_comm *c, struct ge_study *s)
{
	unsigned int i, pass, given = s->nalgos;
	const struct vcube_algo *a;
	int ret;

	for (pass = 0; !given && pass < 2; pass++)
		for (i = 0; i < vcube_algo_count(); i++) {
			a = vcube_algo_get(i);
			if (a->kind == VCUBE_ALGO_BCAST &&
			    !!(a->needs & VCUBE_ALGO_CNET) == !pass &&
			    !vcube_algo_usable(c, VCUBE_ALGO_BCAST, a->name))
				s->algos[s->nalgos++] = a->name;
		}
	for (i = 0; i < s->nalgos; i++) {
		ret = vcube_algo_usable(c, VCUBE_ALGO_REDUCE, s->algos[i]);
		ret = ret ?: vcube_algo_usable(c, VCUBE_ALGO_BCAST, s->algos[i]);
		if (!ret)
			continue;
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-bench: %s: %s\n", s->algos[i],
				ret == -EDOM ? "needs a control network (profile=cm5, or cnet_word_ns=)" :
				"not both a reduction and a broadcast (vcube-bench list)");
		return 2;
	}
	return 0;
}

int ge_study_run(struct ge_study *s)
{
	struct ge_result *res = NULL;
	struct vcube_net_desc net = { 0 };
	unsigned int i, j, nres = 0, me, p;
	struct vcube_comm *c;
	int ret = 0, status = 0;

	if (bench_comm_open(&c, &net))
		return 1;
	me = vcube_comm_rank(c);
	p = vcube_comm_size(c);
	ret = ge_algos(c, s);
	if (ret) {
		vcube_comm_close(c);
		return ret;
	}
	for (i = 0; i < s->nsizes; i++)
		if (!s->sizes[i] || s->sizes[i] > 4096 || s->sizes[i] % p) {
			if (me == 0)
				fprintf(stderr, "vcube-bench: --ge: n = %" PRIu64 " is not a multiple of the %u ranks up to 4096\n",
					s->sizes[i], p);
			vcube_comm_close(c);
			return 2;
		}
	res = calloc((size_t)s->nalgos * s->nsizes, sizeof(*res));
	if (!res) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < s->nalgos && !ret; i++)
		for (j = 0; j < s->nsizes && !ret; j++)
			ret = ge_point(c, s, s->algos[i],
				       (unsigned int)s->sizes[j], &res[nres++]);
	if (ret)
		goto out;
	if (me == 0) {
		ge_print(s, &net, p, res, nres);
		for (i = 0; i < nres; i++)
			if (!res[i].ok) {
				fprintf(stderr, "vcube-bench: %s, n = %u: a wrong solution\n",
					res[i].algo, res[i].n);
				status = 1;
			}
	}
out:
	if (ret) {
		fprintf(stderr, "vcube-bench: rank %u: %s\n", me, strerror(-ret));
		status = 1;
	}
	free(res);
	vcube_comm_close(c);
	return status;
}
