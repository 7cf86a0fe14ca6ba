// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench: time complete-exchange algorithms on vcube, as the papers'
 * tables and figures do. Runs under vcube-run, one process per node:
 *
 *   vcube-run -n 32 vcube-bench --algo linear,stable,pairwise_F --sizes 1..4096
 *
 * For every algorithm and block size it runs the exchange --reps times,
 * each after a barrier, and checks every byte received. A repetition's
 * time is the slowest rank's virtual time from the barrier to the end of
 * its exchange (the papers judge by the maximum); per size the minimum,
 * average and maximum over repetitions are reported. Rank 0 prints.
 *
 * Without vcube-run, --from FILE.csv ... redraws saved results: --plot for
 * one file, --regions for one file per hypercube dimension.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "common/algos.h"

struct result {
	char algo[24];
	uint64_t bytes;
	uint64_t min, max;
	double avg;
	int ok;			/* every byte arrived intact */
};

struct bench {
	const char *algos[MAX_ALGOS];
	unsigned int nalgos;
	uint64_t sizes[MAX_SIZES];
	unsigned int nsizes;
	unsigned int reps;
	uint64_t idle_ns;
	int csv, json, quiet;
	double density;		/* > 0: irregular patterns, --algo ls,ps,bs,gs */
	int reduce;		/* global sums, --algo crossover,tree,cm5_control */
	int bcast;		/* broadcasts from rank 0, --algo tree,cm5_control */
	int fft;		/* 2-D FFTs; sizes are the array's edge */
	double flop_ns;		/* --fft: virtual ns per floating-point op */
	int one_way;
	int envelope;		/* --plot draws min, average and max */
	uint64_t seed;
	const char *plot;
	const char *regions;
	const char *title;
	struct result *res;
	unsigned int nres;
	struct vcube_net_desc net;
	unsigned int procs;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vcube-run -n N vcube-bench [OPTIONS]\n"
		"       vcube-bench --from FILE.csv --plot OUT.svg|OUT.png\n"
		"       vcube-bench --from D3.csv --from D4.csv ... --regions OUT.svg\n\n"
		"Time complete-exchange algorithms; every byte received is checked.\n"
		"  -a, --algo LIST     comma-separated algorithms (default: all that\n"
		"                      run on this network; --list shows them)\n"
		"  -s, --sizes LIST    block sizes in bytes: 1,16,256 or LO..HI (powers\n"
		"                      of two) or LO..HI:STEP (default 1..4096)\n"
		"  -r, --reps N        repetitions per point (default 3)\n"
		"      --idle-ns NS    stable's idle step (default: one send's time)\n"
		"      --density D     irregular communication instead: a random pattern\n"
		"                      with a fraction D (0..1) of the pairs talking,\n"
		"                      each a block; --algo among ls,ps,bs,gs\n"
		"      --one-way       the pattern's entries independently, not in pairs\n"
		"      --reduce        global sums instead (every rank gets the sum of\n"
		"                      64-bit integers; sizes are bytes per rank, a\n"
		"                      multiple of 8); --algo among crossover,tree,\n"
		"                      cm5_control (the control network, CM-5)\n"
		"      --bcast         broadcasts from rank 0 instead (sizes: bytes);\n"
		"                      --algo among tree,cm5_control\n"
		"      --ge            Gaussian elimination of N x (N+1) instead (--sizes\n"
		"                      are N, multiples of the ranks): each operation's\n"
		"                      time per iteration, the estimate and the measured\n"
		"                      time (Ponnusamy et al. Tables 7, 8); --algo among\n"
		"                      cm5_control,tree (the reductions and broadcast)\n"
		"      --elem-ns X     --ge: virtual ns per element update (default 0)\n"
		"      --fft           2-D FFTs of N x N complex doubles instead, the\n"
		"                      transpose by each --algo; --sizes are N (powers\n"
		"                      of two, multiples of the ranks); every output\n"
		"                      checked against the known transform\n"
		"      --flop-ns X     --fft: virtual ns per flop (5 N lg N per row\n"
		"                      transform), charged as a busy wait (default 0)\n"
		"      --seed N        the pattern's seed (default 1)\n"
		"      --barrier LIST  barriers instead (gsync,sync0,rds,dissemination,\n"
		"                      tree,cm5_control or all): cost and exit spread\n"
		"                      with one rank\n"
		"                      late by each --skew\n"
		"      --skew LIST     --barrier: the late rank's skews, ns (default\n"
		"                      0,75000,150000,300000,600000)\n"
		"      --shift LIST    a one-hop shift on the Gray-code ring after each\n"
		"                      barrier of LIST (or none, with --unforced); --sizes\n"
		"                      are its bytes; success: within 1 ms of a m + b_s\n"
		"      --unforced      --shift: the long protocol (a m + b_l), not FORCED\n"
		"      --costs         the measured b_s, s, b_l and a, and the smallest\n"
		"                      message for which RDS pays (Seidel Table III)\n"
		"      --envelope      --plot: min, average and max, not the max alone\n"
		"      --csv           CSV on stdout instead of the table\n"
		"      --json          JSON on stdout instead of the table\n"
		"  -p, --plot FILE     time against block size, log axes (gnuplot;\n"
		"                      .svg or .png)\n"
		"      --regions FILE  the best algorithm per dimension and block size,\n"
		"                      from several --from files\n"
		"      --from FILE     read results saved with --csv instead of running\n"
		"      --title TEXT    the plot's title\n"
		"  -q, --quiet         no progress bar\n"
		"  -l, --list          list the algorithms and exit\n"
		"  -h, --help          this text\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -EINVAL : 0;
}

int bench_parse_list(const char *arg, uint64_t *sizes, unsigned int *nsizes)
{
	char *copy = strdup(arg), *tok, *save, *dots, *colon;
	uint64_t lo, hi, step, v;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	*nsizes = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		dots = strstr(tok, "..");
		if (!dots) {
			ret = parse_u64(tok, &v);
			if (!ret && *nsizes < MAX_SIZES)
				sizes[(*nsizes)++] = v;
			else if (!ret)
				ret = -E2BIG;
			continue;
		}
		*dots = '\0';
		colon = strchr(dots + 2, ':');
		if (colon)
			*colon++ = '\0';
		ret = parse_u64(tok, &lo);
		if (!ret)
			ret = parse_u64(dots + 2, &hi);
		if (!ret && colon)
			ret = parse_u64(colon, &step);
		if (!ret && (hi < lo || (colon && !step) || (!colon && !lo)))
			ret = -EINVAL;
		for (v = lo; !ret && v <= hi; v = colon ? v + step : v * 2) {
			if (*nsizes == MAX_SIZES)
				ret = -E2BIG;
			else
				sizes[(*nsizes)++] = v;
		}
	}
	free(copy);
	if (!ret && !*nsizes)
		ret = -EINVAL;
	return ret;
}

static int parse_sizes(struct bench *b, const char *arg)
{
	return bench_parse_list(arg, b->sizes, &b->nsizes);
}

/* Block j of rank s for rank d: a pattern no other block shares. */
static inline uint8_t pattern_byte(unsigned int s, unsigned int d, uint64_t rep,
			  size_t i)
{
	return (uint8_t)(s * 131 + d * 31 + rep * 17 + i * 13 + (i >> 8));
}

/* The registry's kind of algorithm this run measures. */
static unsigned int bench_kind(const struct bench *b)
{
	return b->reduce ? VCUBE_ALGO_REDUCE : b->bcast ? VCUBE_ALGO_BCAST :
	       b->density > 0 ? VCUBE_ALGO_IRREGULAR : VCUBE_ALGO_XCHG;
}

/* 1 if some kind of the registry has an algorithm named @name. */
static int algo_known(const char *name)
{
	unsigned int k;

	for (k = 0; k < VCUBE_ALGO_NKINDS; k++)
		if (!vcube_algo_find(k, name, NULL))
			return 1;
	return 0;
}

/* Why vcube_algo_usable() said @err for @name of @kind, in words. */
static const char *algo_why(unsigned int kind, const char *name, int err,
			    unsigned int procs)
{
	static char why[256];
	const struct vcube_algo *a;
	size_t i, n;

	if (err == -ENOENT || vcube_algo_find(kind, name, &a)) {
		if (kind == VCUBE_ALGO_XCHG)
			return "no such algorithm (see --list)";
		/* this mode's algorithms, from the registry */
		n = (size_t)snprintf(why, sizeof(why), "not a%s %s algorithm: among ",
				     kind == VCUBE_ALGO_IRREGULAR ? "n" : "",
				     vcube_algo_kind_name(kind));
		for (i = 0; i < vcube_algo_count() && n < sizeof(why); i++)
			if (vcube_algo_get(i)->kind == kind)
				n += (size_t)snprintf(why + n, sizeof(why) - n, "%s%s",
						      why[n - 1] == ' ' ? "" : ",",
						      vcube_algo_get(i)->name);
		return why;
	}
	if ((a->needs & VCUBE_ALGO_POW2) && (procs & (procs - 1)))
		return "needs a power-of-two number of ranks";
	if (a->needs & VCUBE_ALGO_CNET)
		return "needs a control network (profile=cm5, or cnet_word_ns=)";
	return "does not run on this many ranks or this network";
}

/* One repetition of a global sum: 0 or -errno; *bad when a sum is wrong. */
static int reduce_once(struct vcube_comm *c, const char *algo, uint64_t len,
		       unsigned int rep, uint64_t *in, uint64_t *out, int *bad)
{
	unsigned int me = vcube_comm_rank(c), p = vcube_comm_size(c);
	size_t i, n = len / 8;
	int ret;

	for (i = 0; i < n; i++)
		in[i] = (uint64_t)me * 1000 + i + rep;
	ret = vcube_reduce_run(c, algo, VCUBE_OP_SUM, VCUBE_TYPE_U64, in, out, n);
	for (i = 0; !ret && i < n; i++)
		if (out[i] != 1000ULL * p * (p - 1) / 2 + (uint64_t)p * (i + rep))
			*bad = 1;
	return ret;
}

static uint8_t bcast_byte(unsigned int rep, uint64_t i)
{
	return (uint8_t)(rep * 37 + i * 11 + (i >> 8));
}

/* One repetition of a broadcast from rank 0: 0 or -errno; *bad if wrong. */
static int bcast_once(struct vcube_comm *c, const char *algo, uint64_t len,
		      unsigned int rep, uint8_t *buf, int *bad)
{
	uint64_t i;
	int ret;

	for (i = 0; i < len; i++)
		buf[i] = vcube_comm_rank(c) ? 0 : bcast_byte(rep, i);
	ret = vcube_bcast_run(c, algo, 0, buf, len);
	for (i = 0; !ret && i < len; i++)
		if (buf[i] != bcast_byte(rep, i)) {
			*bad = 1;
			break;
		}
	return ret;
}

/*
 * One repetition of a 2-D FFT of n x n: a plane wave, whose transform is n^2
 * at one frequency and 0 elsewhere. The result is transposed: this rank's
 * row cc holds column k1 = me * n / p + cc, over the row frequencies k0.
 */
static int fft_once(struct vcube_comm *c, const struct bench *b,
		    const char *algo, unsigned int n, unsigned int rep,
		    uint64_t *t, int *bad)
{
	unsigned int me = vcube_comm_rank(c), p = vcube_comm_size(c);
	unsigned int rows = n / p, r, k, f0 = (1 + rep) % n, f1 = 3 % n;
	struct vcube_fft_opts o = { .xchg = algo, .flop_ns = b->flop_ns };
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

static int bench_point(struct vcube_comm *c, struct bench *b, const char *algo,
		       uint64_t len, uint8_t *sbuf, uint8_t *rbuf,
		       struct result *r)
{
	unsigned int me = vcube_comm_rank(c), p = vcube_comm_size(c), j, rep;
	struct vcube_xchg_opts o = { .idle_ns = b->idle_ns };
	uint64_t t0, t1, v[2], m[2], sum = 0;
	struct vcube_pattern *pat = NULL;
	struct vcube_sched *sch = NULL;
	size_t i;
	int ret, bad = 0;

	if (b->density > 0) {
		/* The pattern and its schedule, built once, outside the timing */
		ret = vcube_pattern_create(p, &pat);
		if (!ret)
			ret = vcube_pattern_random(pat, b->density, (uint32_t)len,
						   !b->one_way, b->seed);
		if (!ret)
			ret = vcube_sched_build(pat, algo, &sch);
		if (ret) {
			vcube_pattern_free(pat);
			return ret;
		}
	}

	memset(r, 0, sizeof(*r));
	snprintf(r->algo, sizeof(r->algo), "%s", algo);
	r->bytes = len;
	r->min = UINT64_MAX;
	r->ok = 1;
	for (rep = 0; rep < b->reps; rep++) {
		/* blocks in rank order, each len bytes (or none, if the
		 * pattern says so): the same layout for both kinds */
		uint8_t *sp = sbuf, *rp = rbuf;

		if (b->fft) {	/* its own arrays: len is the edge N */
			ret = fft_once(c, b, algo, (unsigned int)len, rep, &v[0],
				       &bad);
			t0 = 0;
			t1 = v[0];
			goto timed;
		}
		for (j = 0; j < p; j++) {
			if (pat && !vcube_pattern_get(pat, me, j))
				continue;
			for (i = 0; i < len; i++)
				*sp++ = pattern_byte(me, j, rep, i);
		}
		memset(rbuf, 0, p * len);
		/* the seeded start jitter, if the module has any, then align */
		ret = vcube_node_jitter(vcube_comm_node(c), NULL);
		ret = ret ?: vcube_comm_barrier(c);
		if (!ret)
			ret = vcube_comm_clock(c, &t0);
		if (!ret && b->reduce)
			ret = reduce_once(c, algo, len, rep, (uint64_t *)sbuf,
					  (uint64_t *)rbuf, &bad);
		else if (!ret && b->bcast)
			ret = bcast_once(c, algo, len, rep, rbuf, &bad);
		else if (!ret)
			ret = pat ? vcube_sched_run(c, sch, pat, sbuf, rbuf) :
				    vcube_xchg_run(c, algo, sbuf, rbuf, len, &o);
		if (!ret)
			ret = vcube_comm_clock(c, &t1);
timed:
		if (ret)
			break;
		v[0] = t1 - t0;
		v[1] = bad;
		for (j = 0; j < p && !v[1] && !b->reduce && !b->bcast && !b->fft;
		     j++) {
			if (pat ? !vcube_pattern_get(pat, j, me) : 0)
				continue;
			for (i = 0; i < len; i++)
				if (*rp++ != pattern_byte(j, me, rep, i)) {
					v[1] = 1;
					break;
				}
		}
		ret = vcube_reduce_run(c, "tree", VCUBE_OP_MAX, VCUBE_TYPE_U64,
				       v, m, 2);
		if (ret)
			break;
		if (m[1])
			r->ok = 0;
		if (m[0] < r->min)
			r->min = m[0];
		if (m[0] > r->max)
			r->max = m[0];
		sum += m[0];
	}
	vcube_sched_free(sch);
	vcube_pattern_free(pat);
	r->avg = (double)sum / b->reps;
	return ret;
}

static void progress(unsigned int done, unsigned int total, const char *algo,
		     uint64_t len)
{
	int w = 30, k = (int)((uint64_t)done * w / total);

	fprintf(stderr, "\r[%.*s%*s] %u/%u %-12s %8" PRIu64 " B", k,
		"##############################", w - k, "", done, total, algo,
		len);
	if (done == total)
		fprintf(stderr, "\r%*s\r", w + 40, "");
	fflush(stderr);
}

static void print_table(const struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "# %s %s (%u nodes), profile %s, %u processes, %u reps\n",
		b->net.topology, b->net.shape, b->net.nodes, b->net.profile,
		b->procs, b->reps);
	if (b->reduce)
		fprintf(f, "# global sums of 64-bit integers; bytes per rank\n");
	if (b->bcast)
		fprintf(f, "# broadcasts from rank 0; bytes\n");
	if (b->fft)
		fprintf(f, "# 2-D FFTs; 'bytes' is the array's edge N (N x N complex doubles), %g ns per flop\n",
			b->flop_ns);
	if (b->density > 0)
		fprintf(f, "# irregular: %.0f%% of the pairs talk (%s), seed %llu\n",
			100 * b->density, b->one_way ? "one-way" : "both ways",
			(unsigned long long)b->seed);
	fprintf(f, "# virtual time of the slowest rank, us\n");
	fprintf(f, "%-12s %8s %12s %12s %12s %s\n", "algo", "bytes", "min",
		"avg", "max", "data");
	for (i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		fprintf(f, "%-12s %8" PRIu64 " %12.1f %12.1f %12.1f %s\n",
			r->algo, r->bytes, r->min / 1e3, r->avg / 1e3,
			r->max / 1e3, r->ok ? "ok" : "BAD");
	}
}

static void print_csv(const struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "# topology=%s shape=%s nodes=%u profile=%s procs=%u reps=%u density=%g reduce=%d fft=%d flop_ns=%g bcast=%d\n",
		b->net.topology, b->net.shape, b->net.nodes, b->net.profile,
		b->procs, b->reps, b->density, b->reduce, b->fft, b->flop_ns,
		b->bcast);
	fprintf(f, "algo,bytes,min_ns,avg_ns,max_ns,ok\n");
	for (i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%.1f,%" PRIu64 ",%d\n",
			r->algo, r->bytes, r->min, r->avg, r->max, r->ok);
	}
}

static void print_json(const struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "{\"network\":{\"topology\":\"%s\",\"shape\":\"%s\",\"nodes\":%u,"
		"\"profile\":\"%s\",\"seed\":%llu},\"procs\":%u,\"reps\":%u,"
		"\"density\":%g,\"unit\":\"ns\",\"results\":[",
		b->net.topology, b->net.shape, b->net.nodes, b->net.profile,
		b->net.seed, b->procs, b->reps, b->density);
	for (i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		fprintf(f, "%s\n{\"algo\":\"%s\",\"bytes\":%" PRIu64 ",\"min\":%"
			PRIu64 ",\"avg\":%.1f,\"max\":%" PRIu64 ",\"ok\":%s}",
			i ? "," : "", r->algo, r->bytes, r->min, r->avg, r->max,
			r->ok ? "true" : "false");
	}
	fprintf(f, "\n]}\n");
}

/* Read a file written by --csv. */
static int read_csv(const char *path, struct bench *b)
{
	char line[512], algo[24];
	struct result r;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			char *s = strstr(line, "shape=");

			if (s)
				sscanf(s, "shape=%63s", b->net.shape);
			s = strstr(line, "topology=");
			if (s)
				sscanf(s, "topology=%15s", b->net.topology);
			s = strstr(line, "nodes=");
			if (s)
				sscanf(s, "nodes=%u", &b->net.nodes);
			s = strstr(line, "profile=");
			if (s)
				sscanf(s, "profile=%15s", b->net.profile);
			continue;
		}
		memset(&r, 0, sizeof(r));
		if (sscanf(line, "%23[^,],%" SCNu64 ",%" SCNu64 ",%lf,%" SCNu64 ",%d",
			   algo, &r.bytes, &r.min, &r.avg, &r.max, &r.ok) != 6)
			continue;
		snprintf(r.algo, sizeof(r.algo), "%s", algo);
		b->res = realloc(b->res, (b->nres + 1) * sizeof(*b->res));
		if (!b->res) {
			fclose(f);
			return -ENOMEM;
		}
		b->res[b->nres++] = r;
	}
	fclose(f);
	return b->nres ? 0 : -ENODATA;
}

const char *bench_terminal(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (dot && !strcmp(dot, ".png"))
		return "pngcairo size 900,640 noenhanced";
	return "svg size 900,640 dynamic noenhanced";
}

/*
 * Run gnuplot on @script, which writes @out; 0 or -errno. The file is
 * created first: gnuplot would draw on standard output if it could not.
 */
int bench_gnuplot(const char *script, const char *out)
{
	FILE *g = fopen(out, "w");
	int st;

	if (!g) {
		fprintf(stderr, "vcube-bench: %s: %s\n", out, strerror(errno));
		return -errno;
	}
	fclose(g);
	g = popen("gnuplot", "w");
	if (!g)
		return -errno;
	fputs(script, g);
	st = pclose(g);
	return st ? -EIO : 0;
}

unsigned int bench_name_index(const char **names, unsigned int *n,
			      const char *name)
{
	unsigned int j;

	for (j = 0; j < *n && strcmp(names[j], name); j++)
		;
	if (j == *n && *n < MAX_ALGOS)
		names[(*n)++] = name;
	return j;
}

int bench_comm_open(struct vcube_comm **c, struct vcube_net_desc *net)
{
	int ret = vcube_comm_open(c);

	memset(net, 0, sizeof(*net));
	if (ret) {
		if (!getenv("VCUBE_RANK"))
			fprintf(stderr, "vcube-bench: not started by vcube-run (vcube-run -n N vcube-bench ...)\n");
		else
			fprintf(stderr, "vcube-bench: cannot bind to my node: %s\n",
				strerror(-ret));
		return 1;
	}
	if (vcube_comm_rank(*c) == 0 && vcube_net_describe(NULL, net))
		fprintf(stderr, "vcube-bench: cannot read the network from sysfs\n");
	return 0;
}

FILE *bench_tmpfile(char *tmpl)
{
	int fd = mkstemp(tmpl);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmpl);
		errno = ENOMEM;
	}
	return f;
}

/*
 * The papers' figure: time against block size, log axes, one line per
 * algorithm (the maximum over repetitions).
 */
static int plot(const struct bench *b, const char *out)
{
	char tmpl[] = "/tmp/vcube-bench-XXXXXX";
	unsigned int i, j, n = 0;
	const char *names[MAX_ALGOS];
	size_t cap = 4096, used = 0;
	char *s;
	FILE *d;
	int ret;

	d = bench_tmpfile(tmpl);
	if (!d)
		return -errno;
	for (i = 0; i < b->nres; i++)
		bench_name_index(names, &n, b->res[i].algo);
	for (j = 0; j < n; j++) {
		fprintf(d, "# %s\n", names[j]);
		for (i = 0; i < b->nres; i++)
			if (!strcmp(names[j], b->res[i].algo))
				fprintf(d, "%" PRIu64 " %.3f %.3f %.3f\n",
					b->res[i].bytes ? b->res[i].bytes : 1,
					b->res[i].max / 1e6,
					b->res[i].min / 1e6,
					b->res[i].avg / 1e6);
		fprintf(d, "\n\n");
	}
	fclose(d);
	s = malloc(cap);
	if (!s)
		return -ENOMEM;
	used += snprintf(s + used, cap - used,
			 "set terminal %s\nset output '%s'\n"
			 "set title \"%s\"\n%s"
			 "set xlabel 'block size (bytes)'\n"
			 "set ylabel '%s'\n"
			 "set key top left\nset grid\nplot ",
			 bench_terminal(out), out,
			 b->title ? b->title : "complete exchange",
			 b->envelope ? "" : "set logscale xy\n",
			 b->envelope ?
			 "slowest node: min, average (line) and max over the repetitions (ms)" :
			 "time of the slowest node (ms)");
	for (j = 0; j < n && used < cap; j++)
		used += b->envelope ?
			snprintf(s + used, cap - used,
				 "%s'%s' index %u using 1:3:2 with filledcurves fs transparent solid 0.25 lc %u notitle, "
				 "'%s' index %u using 1:4 with linespoints lc %u title '%s'",
				 j ? ", " : "", tmpl, j, j + 1, tmpl, j, j + 1,
				 names[j]) :
			snprintf(s + used, cap - used,
				 "%s'%s' index %u with linespoints title '%s'",
				 j ? ", " : "", tmpl, j, names[j]);
	if (used < cap)
		snprintf(s + used, cap - used, "\n");
	ret = used < cap ? bench_gnuplot(s, out) : -E2BIG;
	free(s);
	unlink(tmpl);
	return ret;
}

/*
 * Regions of optimality (Bokhari's Figs. 10-11 summary): for every
 * dimension (one --from file each) and block size, the algorithm with the
 * smallest maximum time, as a coloured grid with its name.
 */
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* One light, distinct colour per algorithm, black labels readable on all. */
static const unsigned int region_colours[] = {
	0x8dd3c7, 0xfdb462, 0xbebada, 0xfb8072, 0x80b1d3, 0xb3de69,
	0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, 0xffffb3,
};

static int plot_regions(struct bench *files, unsigned int nfiles,
			const char *out)
{
	char tmpl[] = "/tmp/vcube-regions-XXXXXX";
	const char *names[MAX_ALGOS];
	unsigned int f, i, j, n = 0, best, dim;
	char script[4096];
	FILE *d;
	int ret;

	d = bench_tmpfile(tmpl);
	if (!d)
		return -errno;
	for (f = 0; f < nfiles; f++) {
		struct bench *b = &files[f];

		for (dim = 0; (1U << dim) < b->net.nodes; dim++)
			;
		for (i = 0; i < b->nres; i++) {
			best = i;
			/* ties go to the one listed first: one per cell */
			for (j = 0; j < b->nres; j++)
				if (b->res[j].bytes == b->res[i].bytes &&
				    b->res[j].ok &&
				    (b->res[j].max < b->res[best].max ||
				     (b->res[j].max == b->res[best].max &&
				      j < best) || !b->res[best].ok))
					best = j;
			if (best != i)
				continue;
			j = bench_name_index(names, &n, b->res[i].algo);
			fprintf(d, "%u %" PRIu64 " %u \"%s\"\n", dim,
				b->res[i].bytes ? b->res[i].bytes : 1,
				region_colours[j % ARRAY_LEN(region_colours)],
				b->res[i].algo);
			printf("d=%u %8" PRIu64 " B: %s\n", dim, b->res[i].bytes,
			       b->res[i].algo);
		}
	}
	fclose(d);
	snprintf(script, sizeof(script),
		 "set terminal %s\nset output '%s'\n"
		 "set title \"%s\"\nset logscale x 2\n"
		 "set xlabel 'block size (bytes)'\nset ylabel 'hypercube dimension'\n"
		 "set ytics 1\n"
		 "set offsets graph 0.05, graph 0.05, 0.5, 0.5\n"
		 "plot '%s' using 2:1:3 with points pt 5 ps 4 lc rgb variable notitle, "
		 "'' using 2:1:4 with labels font ',7' notitle\n",
		 bench_terminal(out), out, "regions of optimality", tmpl);
	ret = bench_gnuplot(script, out);
	unlink(tmpl);
	return ret;
}

static int run(struct bench *b)
{
	unsigned int i, j, k, total, kind;
	struct vcube_comm *c;
	uint8_t *sbuf = NULL, *rbuf = NULL;
	uint64_t maxlen = 0;
	int ret, tty;

	if (bench_comm_open(&c, &b->net))
		return 1;
	b->procs = vcube_comm_size(c);
	/* by default, every algorithm of the kind that runs here */
	kind = bench_kind(b);
	for (i = 0, k = b->nalgos; !k && i < vcube_algo_count() &&
	     b->nalgos < MAX_ALGOS; i++) {
		const struct vcube_algo *a = vcube_algo_get(i);

		if (a->kind == kind && !vcube_algo_usable(c, kind, a->name))
			b->algos[b->nalgos++] = a->name;
	}
	for (i = 0; i < b->nalgos; i++) {
		ret = vcube_algo_usable(c, kind, b->algos[i]);
		if (!ret)
			continue;
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-bench: %s: %s\n", b->algos[i],
				algo_why(kind, b->algos[i], ret, b->procs));
		vcube_comm_close(c);
		return 2;
	}
	for (i = 0; i < b->nsizes; i++) {
		uint64_t s = b->sizes[i];

		if (b->fft && (!s || s > 65536 || (s & (s - 1)) ||
			       s % b->procs)) {
			if (vcube_comm_rank(c) == 0)
				fprintf(stderr, "vcube-bench: --fft: size %" PRIu64 " is not a power of two from %u (the ranks) to 65536\n",
					s, b->procs);
			vcube_comm_close(c);
			return 2;
		}
		if (b->fft)
			continue;
		if (b->sizes[i] > maxlen)
			maxlen = b->sizes[i];
		if (b->bcast && !b->sizes[i]) {
			if (vcube_comm_rank(c) == 0)
				fprintf(stderr, "vcube-bench: --bcast sizes are 1 byte or more\n");
			vcube_comm_close(c);
			return 2;
		}
		if (b->reduce && (!b->sizes[i] || b->sizes[i] % 8)) {
			if (vcube_comm_rank(c) == 0)
				fprintf(stderr, "vcube-bench: --reduce sums 64-bit integers: sizes are multiples of 8\n");
			vcube_comm_close(c);
			return 2;
		}
		if (b->density > 0 && (!b->sizes[i] || b->sizes[i] > UINT32_MAX)) {
			if (vcube_comm_rank(c) == 0)
				fprintf(stderr, "vcube-bench: irregular patterns need blocks of 1 byte to 4 GB\n");
			vcube_comm_close(c);
			return 2;
		}
	}
	if (maxlen > SIZE_MAX / b->procs / 2) {
		vcube_comm_close(c);
		return 2;
	}
	sbuf = malloc(maxlen * b->procs + 1);
	rbuf = malloc(maxlen * b->procs + 1);
	total = b->nalgos * b->nsizes;
	b->res = calloc(total, sizeof(*b->res));
	if (!sbuf || !rbuf || !b->res) {
		fprintf(stderr, "vcube-bench: out of memory\n");
		return 1;
	}
	tty = vcube_comm_rank(c) == 0 && !b->quiet && isatty(2);
	for (i = 0, k = 0; i < b->nalgos; i++)
		for (j = 0; j < b->nsizes; j++, k++) {
			if (tty)
				progress(k, total, b->algos[i], b->sizes[j]);
			ret = bench_point(c, b, b->algos[i], b->sizes[j], sbuf,
					  rbuf, &b->res[k]);
			if (ret) {
				fprintf(stderr, "vcube-bench: rank %u: %s, %" PRIu64
					" bytes: %s\n", vcube_comm_rank(c),
					b->algos[i], b->sizes[j], strerror(-ret));
				return 1;
			}
		}
	b->nres = total;
	if (tty)
		progress(total, total, "", 0);
	ret = 0;
	if (vcube_comm_rank(c) == 0) {
		if (b->json)
			print_json(b, stdout);
		else if (b->csv)
			print_csv(b, stdout);
		else
			print_table(b, stdout);
		fflush(stdout);
		if (b->plot && plot(b, b->plot)) {
			fprintf(stderr, "vcube-bench: gnuplot failed for %s\n", b->plot);
			ret = 1;
		}
		for (k = 0; k < b->nres; k++)
			if (!b->res[k].ok) {
				fprintf(stderr, "vcube-bench: %s at %" PRIu64
					" bytes delivered wrong data\n",
					b->res[k].algo, b->res[k].bytes);
				ret = 1;
			}
	}
	free(sbuf);
	free(rbuf);
	vcube_comm_close(c);
	return ret;
}

/* --barrier, --shift and --costs exclude each other (each may repeat). */
static int sync_kind_set(struct sync_study *sy, enum sync_kind kind)
{
	if (sy->kind && sy->kind != kind) {
		fprintf(stderr, "vcube-bench: one of --barrier, --shift and --costs\n");
		return -EINVAL;
	}
	sy->kind = kind;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "algo", required_argument, NULL, 'a' },
		{ "sizes", required_argument, NULL, 's' },
		{ "reps", required_argument, NULL, 'r' },
		{ "idle-ns", required_argument, NULL, 'I' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "plot", required_argument, NULL, 'p' },
		{ "regions", required_argument, NULL, 'R' },
		{ "from", required_argument, NULL, 'F' },
		{ "title", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "density", required_argument, NULL, 'D' },
		{ "one-way", no_argument, NULL, 'O' },
		{ "reduce", no_argument, NULL, 'X' },
		{ "bcast", no_argument, NULL, 'b' },
		{ "ge", no_argument, NULL, 'G' },
		{ "elem-ns", required_argument, NULL, 'e' },
		{ "fft", no_argument, NULL, 'f' },
		{ "flop-ns", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 'S' },
		{ "barrier", required_argument, NULL, 'B' },
		{ "shift", required_argument, NULL, 'H' },
		{ "skew", required_argument, NULL, 'K' },
		{ "unforced", no_argument, NULL, 'U' },
		{ "costs", no_argument, NULL, 'M' },
		{ "envelope", no_argument, NULL, 'E' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct bench b, files[16];
	static struct sync_study sy;
	static struct ge_study ge;
	int sizes_given = 0, skew_given = 0, elem_given = 0, list;
	const char *from[16];
	unsigned int nfrom = 0, i;
	char *tok, *save;
	uint64_t v;
	int c, ret;

	b.reps = 3;
	b.seed = 1;
	parse_sizes(&b, "1..4096");
	list = 0;
	while ((c = getopt_long(argc, argv, "a:s:r:p:qlh", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!algo_known(tok)) {
					fprintf(stderr, "vcube-bench: no algorithm '%s' (see --list)\n",
						tok);
					return 2;
				}
				if (b.nalgos < MAX_ALGOS)
					b.algos[b.nalgos++] = tok;
			}
			break;
		case 's':
			sizes_given = 1;
			if (parse_sizes(&b, optarg)) {
				fprintf(stderr, "vcube-bench: bad --sizes '%s'\n", optarg);
				return 2;
			}
			break;
		case 'r':
			if (parse_u64(optarg, &v) || !v || v > 100000) {
				fprintf(stderr, "vcube-bench: bad --reps '%s'\n", optarg);
				return 2;
			}
			b.reps = (unsigned int)v;
			break;
		case 'I':
			if (parse_u64(optarg, &b.idle_ns)) {
				fprintf(stderr, "vcube-bench: bad --idle-ns '%s'\n", optarg);
				return 2;
			}
			break;
		case 'C':
			b.csv = 1;
			break;
		case 'J':
			b.json = 1;
			break;
		case 'p':
			b.plot = optarg;
			break;
		case 'R':
			b.regions = optarg;
			break;
		case 'F':
			if (nfrom == 16) {
				fprintf(stderr, "vcube-bench: at most 16 --from files\n");
				return 2;
			}
			from[nfrom++] = optarg;
			break;
		case 'T':
			b.title = optarg;
			break;
		case 'q':
			b.quiet = 1;
			break;
		case 'D': {
			char *end;

			b.density = strtod(optarg, &end);
			if (*end || end == optarg || !(b.density > 0 && b.density <= 1)) {
				fprintf(stderr, "vcube-bench: bad --density '%s' (0 < D <= 1)\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'O':
			b.one_way = 1;
			break;
		case 'X':
			b.reduce = 1;
			break;
		case 'b':
			b.bcast = 1;
			break;
		case 'G':
			ge.nalgos = 1;	/* marks --ge; the list comes from --algo */
			break;
		case 'e': {
			char *end;

			ge.elem_ns = strtod(optarg, &end);
			if (*end || end == optarg || !(ge.elem_ns >= 0 && ge.elem_ns < 1e9)) {
				fprintf(stderr, "vcube-bench: bad --elem-ns '%s' (0 <= X < 1e9)\n",
					optarg);
				return 2;
			}
			elem_given = 1;
			break;
		}
		case 'f':
			b.fft = 1;
			break;
		case 'P': {
			char *end;

			b.flop_ns = strtod(optarg, &end);
			if (*end || end == optarg || !(b.flop_ns >= 0 && b.flop_ns < 1e6)) {
				fprintf(stderr, "vcube-bench: bad --flop-ns '%s' (0 <= X < 1e6)\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'S':
			if (parse_u64(optarg, &b.seed)) {
				fprintf(stderr, "vcube-bench: bad --seed '%s'\n", optarg);
				return 2;
			}
			break;
		case 'B':
		case 'H':
			if (sync_kind_set(&sy, c == 'B' ? SYNC_BARRIER : SYNC_SHIFT))
				return 2;
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!strcmp(tok, "all"))
					continue;
				if (sync_study_algo_ok(&sy, tok)) {
					fprintf(stderr, "vcube-bench: no barrier '%s' (see --list)\n",
						tok);
					return 2;
				}
				if (sy.nalgos < MAX_ALGOS)
					sy.algos[sy.nalgos++] = tok;
			}
			break;
		case 'K':
			skew_given = 1;
			if (bench_parse_list(optarg, sy.xs, &sy.nx)) {
				fprintf(stderr, "vcube-bench: bad --skew '%s'\n", optarg);
				return 2;
			}
			break;
		case 'U':
			sy.unforced = 1;
			break;
		case 'M':
			if (sync_kind_set(&sy, SYNC_COSTS))
				return 2;
			break;
		case 'E':
			b.envelope = 1;
			break;
		case 'l':
			list = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (list)
		return vcube_tool_algos_print(stdout, VCUBE_TOOL_ALL_KINDS,
					      b.json) ? 1 : 0;
	if (sy.kind) {
		if (b.reduce || b.bcast || ge.nalgos || b.fft || b.density > 0 ||
		    b.nalgos || nfrom || b.regions || b.envelope) {
			fprintf(stderr, "vcube-bench: --barrier, --shift and --costs take none of --algo, --reduce, --bcast, --ge, --fft, --density, --from, --regions, --envelope\n");
			return 2;
		}
		if (skew_given && sy.kind != SYNC_BARRIER) {
			fprintf(stderr, "vcube-bench: --skew is for --barrier\n");
			return 2;
		}
		if (sy.kind == SYNC_BARRIER && !skew_given)
			bench_parse_list("0,75000,150000,300000,600000", sy.xs,
					 &sy.nx);
		if (sy.kind == SYNC_SHIFT) {
			if (!sizes_given)
				parse_sizes(&b, "4096..65536");
			memcpy(sy.xs, b.sizes, sizeof(sy.xs));
			sy.nx = b.nsizes;
		}
		sy.reps = b.reps;
		sy.csv = b.csv;
		sy.json = b.json;
		sy.quiet = b.quiet;
		sy.plot = b.plot;
		sy.title = b.title;
		return sync_study_run(&sy);
	}
	if (ge.nalgos) {
		if (b.reduce || b.bcast || b.fft || b.density > 0 || nfrom ||
		    b.regions || b.envelope || b.plot) {
			fprintf(stderr, "vcube-bench: --ge takes none of --reduce, --bcast, --fft, --density, --from, --regions, --envelope, --plot\n");
			return 2;
		}
		ge.nalgos = 0;
		for (i = 0; i < b.nalgos; i++) {
			if (vcube_algo_find(VCUBE_ALGO_BCAST, b.algos[i], NULL)) {
				fprintf(stderr, "vcube-bench: with --ge, --algo is among cm5_control,tree\n");
				return 2;
			}
			ge.algos[ge.nalgos++] = b.algos[i];
		}
		if (!sizes_given)
			parse_sizes(&b, "64,128,256,512");
		memcpy(ge.sizes, b.sizes, sizeof(ge.sizes));
		ge.nsizes = b.nsizes;
		ge.csv = b.csv;
		ge.json = b.json;
		return ge_study_run(&ge);
	}
	if (elem_given) {
		fprintf(stderr, "vcube-bench: --elem-ns is for --ge\n");
		return 2;
	}
	if (sy.unforced || skew_given) {
		fprintf(stderr, "vcube-bench: --unforced is for --shift, --skew for --barrier\n");
		return 2;
	}
	if (b.reduce + b.bcast + b.fft + (b.density > 0) > 1) {
		fprintf(stderr, "vcube-bench: --reduce, --bcast, --fft and --density do not go together\n");
		return 2;
	}
	if (b.flop_ns > 0 && !b.fft) {
		fprintf(stderr, "vcube-bench: --flop-ns is for --fft\n");
		return 2;
	}
	if (!nfrom) {
		if (b.regions) {
			fprintf(stderr, "vcube-bench: --regions needs --from files\n");
			return 2;
		}
		return run(&b);
	}
	for (i = 0; i < nfrom; i++) {
		ret = read_csv(from[i], &files[i]);
		if (ret) {
			fprintf(stderr, "vcube-bench: %s: %s\n", from[i], strerror(-ret));
			return 1;
		}
		files[i].title = b.title;
		files[i].envelope = b.envelope;
		files[i].reps = 0;
	}
	if (b.regions)
		return plot_regions(files, nfrom, b.regions) ? 1 : 0;
	if (!b.plot || nfrom != 1) {
		fprintf(stderr, "vcube-bench: --from needs --plot (one file) or --regions\n");
		return 2;
	}
	if (b.json)
		print_json(&files[0], stdout);
	return plot(&files[0], b.plot) ? 1 : 0;
}
