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

static void ge_print(const struct ge_study *s, const struct vcube_net_desc *net,
		     unsigned int p, const struct ge_result *res,
		     unsigned int nres)
{
	unsigned int i;

	if (s->csv) {
		printf("# kind=ge profile=%s procs=%u elem_ns=%g cnet_word_ns=%llu cnet_double_ns=%llu cnet_bcast_ns=%llu\n",
		       net->profile, p, s->elem_ns, net->cnet_word_ns,
		       net->cnet_double_ns, net->cnet_bcast_ns);
		printf("algo,n,reduce_double_ns,reduce_int_ns,bcast_ns,compute_ns,iteration_ns,estimated_ns,measured_ns,ok\n");
		for (i = 0; i < nres; i++)
			printf("%s,%u,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%" PRIu64
			       ",%d\n", res[i].algo, res[i].n, res[i].op[0],
			       res[i].op[1], res[i].op[2], res[i].op[3],
			       res[i].iteration, res[i].estimated,
			       res[i].measured, res[i].ok);
		return;
	}
	if (s->json) {
		printf("{\"kind\":\"ge\",\"network\":{\"topology\":\"%s\",\"shape\":\"%s\",\"profile\":\"%s\"},"
		       "\"procs\":%u,\"elem_ns\":%g,\"unit\":\"ns\",\"results\":[",
		       net->topology, net->shape, net->profile, p, s->elem_ns);
		for (i = 0; i < nres; i++)
			printf("%s\n{\"algo\":\"%s\",\"n\":%u,\"reduce_double_ns\":%.1f,"
			       "\"reduce_int_ns\":%.1f,\"bcast_ns\":%.1f,\"compute_ns\":%.1f,"
			       "\"iteration_ns\":%.1f,\"estimated_ns\":%.1f,\"measured_ns\":%"
			       PRIu64 ",\"ok\":%s}", i ? "," : "", res[i].algo,
			       res[i].n, res[i].op[0], res[i].op[1],
			       res[i].op[2], res[i].op[3], res[i].iteration,
			       res[i].estimated, res[i].measured,
			       res[i].ok ? "true" : "false");
		printf("\n]}\n");
		return;
	}
	printf("# %s %s (%u nodes), profile %s, %u processes; %g ns per element update\n",
	       net->topology, net->shape, net->nodes, net->profile, p,
	       s->elem_ns);
	printf("# Gaussian elimination of n x (n+1), n iterations; per iteration (rank 0) and in all, ms\n");
	printf("%-12s %5s %9s %9s %9s %9s %9s %11s %11s %s\n", "algo", "n",
	       "red.dbl", "red.int", "bcast", "compute", "iteration",
	       "estimated", "measured", "solution");
	for (i = 0; i < nres; i++)
		printf("%-12s %5u %9.3f %9.3f %9.3f %9.3f %9.3f %11.1f %11.1f %s\n",
		       res[i].algo, res[i].n, res[i].op[0] / 1e6,
		       res[i].op[1] / 1e6, res[i].op[2] / 1e6,
		       res[i].op[3] / 1e6, res[i].iteration / 1e6,
		       res[i].estimated / 1e6, res[i].measured / 1e6,
		       res[i].ok ? "ok" : "WRONG");
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
				"not both a reduction and a broadcast (see --list)");
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
