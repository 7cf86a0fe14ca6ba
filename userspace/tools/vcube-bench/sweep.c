// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's sweep: for every algorithm and size, --reps repetitions of
 * one mode (bench.h), each timed from an aligned start; a repetition's
 * time is the slowest rank's (the papers judge by the maximum), and per
 * point the minimum, average and maximum over the repetitions are kept,
 * with whether every byte arrived intact. Rank 0 writes each point's row
 * as the point ends, and with --each every repetition's time as it ends.
 *
 * SIGINT or SIGTERM (vcube-run forwards them to every rank) stops the
 * sweep between repetitions: a rank that caught one says so in the
 * reduction that ends each repetition, so every rank learns it at the
 * same repetition and leaves the point there, none left waiting for
 * another. The point cut short has no row; rank 0 ends its output as a
 * whole run's (JSON's array and object closed, CSV's facts), draws the
 * figure of the rows done, and exits 128 + the signal; the others, 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcube-bench/bench.h"
#include "common/cli.h"

/* Why vcube_algo_usable() said @err for @name of @kind, in words. */
static const char *algo_why(unsigned int kind, const char *name, int err,
			    unsigned int procs)
{
	static char why[256];
	const struct vcube_algo *a;
	size_t i, n;

	if (err == -ENOENT || vcube_algo_find(kind, name, &a)) {
		if (kind == VCUBE_ALGO_XCHG)
			return "no such algorithm (vcube-bench list)";
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

/* The mode @b measures. */
static const struct bench_mode *bench_mode_of(const struct bench *b)
{
	return b->reduce ? &bench_reduce_mode : b->bcast ? &bench_bcast_mode :
	       b->fft ? &bench_fft_mode :
	       b->density > 0 ? &bench_irregular_mode : &bench_xchg_mode;
}

int bench_timed(struct bench_point *pt, unsigned int rep, uint64_t *ns,
		int *bad,
		int (*op)(struct bench_point *pt, unsigned int rep, int *bad))
{
	uint64_t t0, t1;
	int ret = 0;

	if (vcube_comm_node(pt->c))
		ret = vcube_node_jitter(vcube_comm_node(pt->c), NULL);
	ret = ret ?: vcube_comm_barrier(pt->c);
	ret = ret ?: vcube_comm_clock(pt->c, &t0);
	ret = ret ?: op(pt, rep, bad);
	ret = ret ?: vcube_comm_clock(pt->c, &t1);
	if (!ret)
		*ns = t1 - t0;
	return ret;
}

/*
 * In a repetition's reduction, beside "wrong data" (0 or 1): a rank caught
 * signal S, as STOP_SEEN | S. The maximum carries it to every rank.
 */
#define STOP_SEEN	0x100U
#define STOP_SIG	0xffU

/*
 * The one measure loop: the repetitions of one point into @r. *@stop: the
 * signal the ranks agreed to stop on (the point unfinished), else 0.
 */
static int measure(struct bench_point *pt, const struct bench_mode *m,
		   struct result *r, int *stop)
{
	uint64_t v[2], mx[2], sum = 0;
	unsigned int rep;
	int ret, bad = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->algo, sizeof(r->algo), "%s", pt->algo);
	r->bytes = pt->len;
	r->min = UINT64_MAX;
	r->ok = 1;
	*stop = 0;
	ret = m->setup ? m->setup(pt) : 0;
	/* warm-up: caches, the MPI's connections; not kept */
	for (rep = 0; !ret && rep < pt->b->warmup; rep++)
		ret = m->once(pt, rep, &v[0], &bad);
	bad = 0;
	for (rep = 0; !ret && rep < pt->b->reps; rep++) {
		ret = m->once(pt, rep, &v[0], &bad);
		v[1] = bench_stop ? STOP_SEEN | (bench_stop & STOP_SIG) : !!bad;
		/*
		 * the slowest rank's time, whether any saw wrong data, and
		 * whether any was told to stop
		 */
		ret = ret ?: vcube_reduce_run(pt->c, "tree", VCUBE_OP_MAX,
					      VCUBE_TYPE_U64, v, mx, 2);
		if (ret)
			break;
		if (mx[1] & STOP_SEEN) {
			*stop = (int)(mx[1] & STOP_SIG);
			break;
		}
		if (mx[1])
			r->ok = 0;
		if (mx[0] < r->min)
			r->min = mx[0];
		if (mx[0] > r->max)
			r->max = mx[0];
		sum += mx[0];
		bench_each_rep(pt->b->each_f, pt->algo, pt->len, rep, mx[0]);
	}
	if (m->teardown)
		m->teardown(pt);
	r->avg = (double)sum / pt->b->reps;
	return ret;
}

/*
 * The algorithms to run: those named, or every one of the mode's kind that
 * runs here; 0, or 2 (said at rank 0) if one does not run here.
 */
static int sweep_algos(struct vcube_comm *c, struct bench *b)
{
	const struct bench_mode *m = bench_mode_of(b);
	unsigned int i, kind = m->kind, named = b->nalgos;
	const char *native = bench_mpi && m->native ?
			     bench_mpi->native_name(kind) : NULL;
	int ret;

	/* --algo all: as none named */
	if (named == 1 && !strcmp(b->algos[0], "all"))
		named = b->nalgos = 0;
	for (i = 0; !named && i < vcube_algo_count() &&
	     b->nalgos < MAX_ALGOS; i++) {
		const struct vcube_algo *a = vcube_algo_get(i);

		if (a->kind == kind && !vcube_algo_usable(c, kind, a->name))
			b->algos[b->nalgos++] = a->name;
	}
	/* the MPI library's own, last */
	if (!named && native && b->nalgos < MAX_ALGOS)
		b->algos[b->nalgos++] = native;
	for (i = 0; i < b->nalgos; i++) {
		if (native && !strcmp(b->algos[i], native))
			continue;
		if (!strcmp(b->algos[i], "all")) {
			if (vcube_comm_rank(c) == 0)
				fprintf(stderr, "vcube-bench: --algo all stands alone\n");
			return 2;
		}
		ret = vcube_algo_usable(c, kind, b->algos[i]);
		if (!ret)
			continue;
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-bench: %s: %s\n", b->algos[i],
				algo_why(kind, b->algos[i], ret, b->procs));
		return 2;
	}
	return 0;
}

/* Why size @s does not fit @b's mode, or NULL. */
static const char *size_why(const struct bench *b, uint64_t s)
{
	if (b->fft)
		return !s || s > 65536 || (s & (s - 1)) || s % b->procs ?
		       "--fft: the size is not a power of two from the ranks to 65536" :
		       NULL;
	if (b->bcast && !s)
		return "--bcast sizes are 1 byte or more";
	if (b->reduce && (!s || s % 8))
		return "--reduce sums 64-bit integers: sizes are multiples of 8";
	if (b->density > 0 && (!s || s > UINT32_MAX))
		return "irregular patterns need blocks of 1 byte to 4 GB";
	/* a plan's message is fewer than p blocks; MPI counts in an int */
	if (bench_mpi && s > INT_MAX / b->procs)
		return "over MPI a message holds at most 2 GiB (an int count): blocks of at most 2 GiB / ranks";
	return NULL;
}

/*
 * Whether each rank's two buffers of @maxlen blocks for every rank fit in
 * this machine's memory: 0, or 2 said once by rank 0 (every rank finds
 * the same), where a failed malloc on each rank would say "out of memory"
 * once per rank and not how much.
 */
static int sweep_fits(struct vcube_comm *c, const struct bench *b,
		      uint64_t maxlen)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double need = 2.0 * (double)maxlen * b->procs;
	double have = pages > 0 && page > 0 ? (double)pages * page : 0;

	if (need < (double)(SIZE_MAX / 2) && (!have || need <= have))
		return 0;
	if (vcube_comm_rank(c) == 0)
		fprintf(stderr, "vcube-bench: blocks of %" PRIu64 " B need 2 buffers of %u x %" PRIu64 " B (%.3g GB) on each rank, more than this machine's %.3g GB\n",
			maxlen, b->procs, maxlen, need / 1e9, have / 1e9);
	return 2;
}

/* The largest block, if every size fits the mode: 0, or 2 (said). */
static int sweep_sizes(struct vcube_comm *c, const struct bench *b,
		       uint64_t *maxlen)
{
	const char *why;
	unsigned int i;

	for (i = 0, *maxlen = 0; i < b->nsizes; i++) {
		why = size_why(b, b->sizes[i]);
		if (why) {
			if (vcube_comm_rank(c) == 0)
				fprintf(stderr, "vcube-bench: %s (%" PRIu64 ")\n",
					why, b->sizes[i]);
			return 2;
		}
		if (!b->fft && b->sizes[i] > *maxlen)
			*maxlen = b->sizes[i];
	}
	return sweep_fits(c, b, *maxlen);
}

/* --predict: vcube-sim's time for @r's point into r->pred; 0 or -errno. */
static int predict_point(const struct bench *b, struct result *r)
{
	unsigned int kind = bench_mode_of(b)->kind;
	struct bench_point pt = { .algo = r->algo };
	const char *algo = r->algo;
	char via[24];

	if (bench_native(&pt, kind))
		algo = bench_mpi->native_algo(kind, b->procs, r->bytes, via,
					      sizeof(via));
	if (!algo)
		return 0;
	return bench_predict(b->predict, kind, algo, b->procs, r->bytes,
			     &r->pred);
}

/*
 * Rank 0: the row of the point just ended, with --predict's time (after
 * a failure, said once, the rest have none and the run fails: *@nopred).
 * A prediction cut by the signal that stops the run: no row.
 */
static void sweep_row(struct bench *b, struct bench_rows *w, struct result *r,
		      struct vcube_tool_progress *pg, bool *nopred)
{
	if (b->predict && !*nopred && predict_point(b, r)) {
		if (bench_stop)
			return;
		r->pred = -1;
		*nopred = true;
	}
	vcube_tool_progress_end(pg);	/* the bar off the terminal's line */
	bench_rows_add(w, b, r);
	b->nres++;
}

/*
 * Every point, in order, into b->res (b->nres: those ended), rank 0
 * writing each one's row into @w as it ends (NULL: rows at the end); 0,
 * 1 (said), or 128 + the signal the ranks stopped on.
 */
static int sweep_points(struct vcube_comm *c, struct bench *b, uint8_t *sbuf,
			uint8_t *rbuf, struct bench_rows *w)
{
	const struct bench_mode *m = bench_mode_of(b);
	unsigned int i, j, k, total = b->nalgos * b->nsizes;
	struct vcube_tool_progress pg;
	bool nopred = false;
	int ret, stop;

	vcube_tool_progress_init(&pg, "vcube-bench", total,
				 b->quiet || vcube_comm_rank(c));

	b->nres = 0;
	for (i = 0, k = 0; i < b->nalgos; i++)
		for (j = 0; j < b->nsizes; j++, k++) {
			struct bench_point pt = {
				.c = c, .b = b, .algo = b->algos[i],
				.len = b->sizes[j], .sbuf = sbuf, .rbuf = rbuf,
			};
			struct result *r = &b->res[b->nres];

			vcube_tool_progress_step(&pg, k, 0, "%s, %" PRIu64
						 " B", b->algos[i],
						 b->sizes[j]);
			ret = measure(&pt, m, r, &stop);
			if (b->each_f)
				fflush(b->each_f);
			r->pred = -1;
			if (ret) {
				vcube_tool_progress_end(&pg);
				fprintf(stderr, "vcube-bench: rank %u: %s, %" PRIu64
					" bytes: %s\n", vcube_comm_rank(c),
					b->algos[i], b->sizes[j], strerror(-ret));
				return 1;
			}
			if (stop) {
				vcube_tool_progress_end(&pg);
				return 128 + stop;
			}
			if (bench_native(&pt, m->kind) &&
			    vcube_comm_rank(c) == 0)
				bench_mpi->native_algo(m->kind, b->procs,
						       pt.len, r->via,
						       sizeof(r->via));
			if (w)
				sweep_row(b, w, r, &pg, &nopred);
			else
				b->nres++;
		}
	vcube_tool_progress_end(&pg);
	return nopred ? 1 : 0;
}

/*
 * Rank 0, --predict over MPI, after the run: vcube-sim's time beside each
 * point (a native row's: the registry's nearest plan to what the MPI
 * chose, where there is one); 1 if one failed (said), the rest left none.
 */
static int sweep_predict(struct bench *b)
{
	struct vcube_tool_progress pg;
	unsigned int k;

	vcube_tool_progress_init(&pg, "vcube-bench", b->nres, b->quiet);
	for (k = 0; k < b->nres; k++) {
		vcube_tool_progress_step(&pg, k, 0, "predicting %s, %" PRIu64
					 " B", b->res[k].algo, b->res[k].bytes);
		if (predict_point(b, &b->res[k])) {
			vcube_tool_progress_end(&pg);
			return 1;
		}
	}
	vcube_tool_progress_end(&pg);
	return 0;
}

/*
 * Rank 0, the run over with @status (0, 1, or 128 + a signal): the rows
 * if they were not written as they came (@written), the figure of those
 * there are; 1 if either failed or data was wrong, else @status.
 */
static int sweep_report(struct bench *b, bool written, int status)
{
	unsigned int k, total = b->nalgos * b->nsizes;
	int ret = 0;

	if (!written) {
		if (b->predict && sweep_predict(b))
			ret = 1;
		bench_write(b, stdout);
		fflush(stdout);
	}
	if (status > 128)
		fprintf(stderr, "vcube-bench: %s: stopped after %u of %u points%s\n",
			status - 128 == SIGINT ? "SIGINT" : "SIGTERM", b->nres,
			total, !b->plot ? "" : b->nres ?
			"; the figure has those" : "; no figure");
	if (b->plot && b->nres && bench_plot(b, b->plot)) {
		fprintf(stderr, "vcube-bench: gnuplot failed for %s\n", b->plot);
		ret = 1;
	}
	if (b->each && bench_each_close(b->each_f, b->each))
		ret = 1;
	b->each_f = NULL;
	for (k = 0; k < b->nres; k++)
		if (!b->res[k].ok) {
			fprintf(stderr, "vcube-bench: %s at %" PRIu64
				" bytes delivered wrong data\n",
				b->res[k].algo, b->res[k].bytes);
			ret = 1;
		}
	return status ?: ret;
}

int bench_sweep_run(struct bench *b)
{
	uint8_t *sbuf = NULL, *rbuf = NULL;
	struct bench_rows rows, *w = NULL;
	struct vcube_comm *c;
	unsigned int me;
	uint64_t maxlen;
	bool agreed;
	int ret;

	if (bench_comm_open(&c, &b->net))
		return 1;
	bench_stop_catch();
	me = vcube_comm_rank(c);
	b->procs = vcube_comm_size(c);
	ret = sweep_algos(c, b);
	ret = ret ?: sweep_sizes(c, b, &maxlen);
	if (!ret) {
		sbuf = malloc(maxlen * b->procs + 1);
		rbuf = malloc(maxlen * b->procs + 1);
		b->res = calloc((size_t)b->nalgos * b->nsizes + 1,
				sizeof(*b->res));
		if (!sbuf || !rbuf || !b->res) {
			fprintf(stderr, "vcube-bench: out of memory\n");
			ret = 1;
		}
	}
	agreed = ret != 1;	/* 2: every rank found the same fault */
	if (!ret) {
		/*
		 * Rank 0 writes each row as its point ends, but over MPI
		 * --predict forks vcube-sim, which not every MPI allows while
		 * it runs: then the rows wait for the run's end.
		 */
		if (me == 0 && !(b->predict && bench_mpi)) {
			w = &rows;
			bench_rows_begin(w, b, stdout);
		}
		/* a file that cannot be made is said now, and fails the run
		 * at its end: the ranks go on together */
		if (me == 0 && b->each)
			b->each_f = bench_each_open(b->each, "bytes");
		ret = sweep_points(c, b, sbuf, rbuf, w);
		/* a signal after the last point's agreement still counts */
		if (!ret && bench_stop)
			ret = 128 + bench_stop;
		agreed = ret != 1;
		if (w)
			bench_rows_end(w);
	}
	free(sbuf);
	free(rbuf);
	/*
	 * Every rank done, the run ends (MPI_Finalize) before rank 0
	 * reports: --predict forks vcube-sim, which not every MPI allows
	 * while it runs.
	 */
	ret = bench_comm_close(c, ret, agreed);
	/*
	 * Rank 0 speaks for a stopped run (mpirun would end it, still
	 * drawing the figure, on another rank's 130): the others exit 0.
	 */
	if (me != 0)
		return ret > 128 ? 0 : ret;
	return ret && ret < 128 ? ret : sweep_report(b, w != NULL, ret);
}
