// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's synchronisation studies (Seidel & Davis 1992):
 *
 * --barrier: every repetition aligns the ranks with RDS (dissemination on
 *   a number of ranks not a power of two), delays the last
 *   rank by the skew, lets the seeded start jitter act, and times one
 *   barrier. Its cost is the last exit minus the first entry; its spread
 *   (the paper's precision) is the last exit minus the first exit. Virtual
 *   time is global, so both are exact: the paper could only infer them.
 * --shift: every repetition posts the receive from its left neighbour on
 *   the Gray-code ring, synchronises, sends its message to the right one
 *   (FORCED, or UNFORCED with --unforced) and waits. A repetition's time is
 *   the longest rank's time from its barrier exit to its shift's end; it
 *   succeeds when that is within 1 ms of the prediction a m + b_s (FORCED)
 *   or a m + b_l (sec. 4.2), with a, b_s, b_l measured first.
 * --costs: the measured constants and Table III.
 *
 * Times are kept per repetition and reduced once at the end, so nothing
 * but the barrier and the shift runs between repetitions, as in the
 * paper's loop; --each writes every repetition's time then.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "comm.h"
#include "common/cli.h"

struct sync_result {
	char algo[24];
	uint64_t x;			/* skew or bytes */
	uint64_t min, max;		/* cost, or shift time */
	double avg;
	uint64_t smin, smax;		/* barrier exit spread */
	double savg;
	double skew;			/* measured entry spread, average */
	unsigned int ok;		/* shift: successes */
	int bad;			/* shift: wrong data */
};

static const uint64_t table3[] = { 645, 1062, 1478, 1895, 2312, 2728 };

/* The MPI library's own barrier, over MPI: MPI_Barrier; else NULL. */
static const char *sync_native(void)
{
	return bench_mpi ? bench_mpi->native_name(VCUBE_ALGO_SYNC) : NULL;
}

int sync_study_algo_ok(const struct sync_study *s, const char *name)
{
	if (s->kind == SYNC_SHIFT && !strcmp(name, "none"))
		return 0;
	if (sync_native() && !strcmp(name, sync_native()))
		return 0;
	return vcube_algo_find(VCUBE_ALGO_SYNC, name, NULL);
}

/* Barrier @algo at this rank: the registry's, or the MPI library's. */
static int sync_barrier(struct vcube_comm *c, const char *algo)
{
	struct bench_point pt = { .c = c, .algo = algo };

	if (bench_native(&pt, VCUBE_ALGO_SYNC))
		return bench_mpi->native(&pt, VCUBE_ALGO_SYNC);
	return vcube_sync_run(c, algo);
}

static unsigned int ring(unsigned int me, unsigned int p, int k)
{
	unsigned int j = vcube_gray_decode(me);

	return vcube_gray_encode((j + p + k) % p);
}

static uint8_t shift_byte(unsigned int src, unsigned int rep, size_t i)
{
	return (uint8_t)(src * 131 + rep * 29 + i * 7 + (i >> 8));
}

/*
 * One repetition at this rank: the aligning barrier (barrier study, then
 * the late rank's skew) or the shift's receive, the barrier timed, then
 * the shift. v[rep], v[n + rep], v[2n + rep], v[3n + rep]: entry, exit,
 * shift time, wrong data.
 */
static int sync_rep(struct vcube_comm *c, const struct sync_study *s,
		    const char *algo, uint64_t x, unsigned int rep,
		    uint8_t *sbuf, uint8_t *rbuf, uint64_t *v)
{
	unsigned int me = vcube_comm_rank(c), p = vcube_comm_size(c);
	unsigned int n = s->reps, left = ring(me, p, -1), right = ring(me, p, 1);
	struct vcube_node *node = vcube_comm_node(c);
	const char *align = p & (p - 1) ? "dissemination" : "rds";
	uint64_t rq = 0, te = 0, tx = 0, t1;
	struct vcube_status st;
	size_t i;
	int ret;

	if (s->kind == SYNC_BARRIER) {
		ret = vcube_sync_run(c, align);
		/* the transport's delay: the node's, or a real busy wait */
		if (!ret && me == p - 1 && x)
			ret = c->tp->delay(c->tpx, x);
	} else {
		for (i = 0; i < x; i++)
			sbuf[i] = shift_byte(me, rep, i);
		memset(rbuf, 0, x);
		ret = vcube_node_irecv(node, left, rep & 0xffff, rbuf, x, &rq);
	}
	if (node)
		ret = ret ?: vcube_node_jitter(node, NULL);
	ret = ret ?: vcube_comm_clock(c, &te);
	if (!ret && strcmp(algo, "none"))
		ret = sync_barrier(c, algo);
	ret = ret ?: vcube_comm_clock(c, &tx);
	t1 = tx;
	if (!ret && s->kind == SYNC_SHIFT) {
		ret = vcube_node_send(node, right, rep & 0xffff, sbuf, x,
				      s->unforced ? 0 : VCUBE_SEND_FORCED, NULL);
		ret = ret ?: vcube_node_wait(node, rq, &st);
		ret = ret ?: vcube_node_clock(node, &t1);
		if (!ret && st.len != x)
			v[3 * n + rep] = 1;
		for (i = 0; !ret && i < x; i++)
			if (rbuf[i] != shift_byte(left, rep, i)) {
				v[3 * n + rep] = 1;
				break;
			}
	}
	v[rep] = te;
	v[n + rep] = tx;
	v[2 * n + rep] = t1 - tx;
	return ret;
}

/* Repetition @rep's time: a barrier's cost, or the shift's. */
static uint64_t sync_cost(const struct sync_study *s, const uint64_t *hi,
			  const uint64_t *lo, unsigned int rep)
{
	unsigned int n = s->reps;

	return s->kind == SYNC_BARRIER ? hi[n + rep] - lo[rep] :
	       hi[2 * n + rep];
}

/* @r from the ranks' maxima @hi and minima @lo of sync_rep()'s values. */
static void sync_summarise(const struct sync_study *s,
			   const struct vcube_costs *k, const uint64_t *hi,
			   const uint64_t *lo, struct sync_result *r)
{
	uint64_t pred, sum = 0, ssum = 0, cost, spread;
	unsigned int n = s->reps, rep;
	double dsum = 0;

	r->min = r->smin = UINT64_MAX;
	pred = (s->unforced ? k->b_l : k->b_s) + k->a_ps * r->x / 1000;
	for (rep = 0; rep < n; rep++) {
		cost = sync_cost(s, hi, lo, rep);
		spread = hi[n + rep] - lo[n + rep];
		r->min = cost < r->min ? cost : r->min;
		r->max = cost > r->max ? cost : r->max;
		r->smin = spread < r->smin ? spread : r->smin;
		r->smax = spread > r->smax ? spread : r->smax;
		sum += cost;
		ssum += spread;
		dsum += (double)(hi[rep] - lo[rep]);
		if (s->kind == SYNC_SHIFT && cost <= pred + 1000000)
			r->ok++;
		r->bad |= (int)hi[3 * n + rep];
	}
	r->avg = (double)sum / n;
	r->savg = (double)ssum / n;
	r->skew = dsum / n;
}

/* One point: reps repetitions of one barrier or one shift. */
static int sync_point(struct vcube_comm *c, const struct sync_study *s,
		      const struct vcube_costs *k, const char *algo,
		      uint64_t x, uint8_t *sbuf, uint8_t *rbuf,
		      struct sync_result *r)
{
	unsigned int n = s->reps, rep;
	uint64_t *v, *hi, *lo;
	int ret = 0;

	/* v: this rank's values; hi: their maxima over the ranks; lo: the
	 * minima of the entries and exits */
	v = calloc(4 * (size_t)n, sizeof(*v));
	hi = calloc(4 * (size_t)n, sizeof(*hi));
	lo = calloc(2 * (size_t)n, sizeof(*lo));
	if (!v || !hi || !lo)
		ret = -ENOMEM;
	for (rep = 0; rep < n && !ret; rep++)
		ret = sync_rep(c, s, algo, x, rep, sbuf, rbuf, v);
	/* An error here leaves the others to the kernel's deadlock report. */
	if (ret)
		fprintf(stderr, "vcube-bench: rank %u: %s: %s\n",
			vcube_comm_rank(c), algo, strerror(-ret));
	ret = ret ?: vcube_reduce_run(c, "tree", VCUBE_OP_MAX, VCUBE_TYPE_U64,
				      v, hi, 4 * (size_t)n);
	ret = ret ?: vcube_reduce_run(c, "tree", VCUBE_OP_MIN, VCUBE_TYPE_U64,
				      v, lo, 2 * (size_t)n);
	if (!ret) {
		memset(r, 0, sizeof(*r));
		snprintf(r->algo, sizeof(r->algo), "%s", algo);
		r->x = x;
		sync_summarise(s, k, hi, lo, r);
		for (rep = 0; s->each_f && rep < n; rep++)
			bench_each_rep(s->each_f, algo, x, rep,
				       sync_cost(s, hi, lo, rep));
		if (s->each_f)
			fflush(s->each_f);
	}
	free(v);
	free(hi);
	free(lo);
	return ret;
}

/* The table's notes on the network, the noise and the measured costs. */
static void sync_notes(const struct sync_study *s,
		       const struct vcube_net_desc *net, unsigned int p,
		       const struct vcube_costs *k, struct bench_out *o)
{
	if (bench_mpi) {
		bench_out_note(o, "MPI (%s), %u processes on %s, %u reps; real time (CLOCK_MONOTONIC)%s",
			       net->profile, p, net->shape, s->reps,
			       net->nodes > 1 ? ": the spreads compare clocks of different hosts" : "");
		bench_out_note(o, "measured over MPI: b_s %.3f us, s %.3f us, b_l %.3f us, a %.6f us/byte",
			       k->b_s / 1e3, k->s / 1e3, k->b_l / 1e3,
			       k->a_ps / 1e6);
		return;
	}
	bench_out_note(o, "%s %s (%u nodes), profile %s, seed %llu, %u processes, %u reps",
		       net->topology, net->shape, net->nodes, net->profile,
		       net->seed, p, s->reps);
	if (net->noise_period_ns && net->noise_cost_ns)
		bench_out_note(o, "noise: interrupts of %llu ns every %llu ns; start jitter %llu ns (%s)",
			       net->noise_cost_ns, net->noise_period_ns,
			       net->jitter_ns, net->jitter_dist);
	else
		bench_out_note(o, "noise: no interrupts; start jitter %llu ns (%s)",
			       net->jitter_ns, net->jitter_dist);
	bench_out_note(o, "measured: b_s %.1f us, s %.1f us, b_l %.1f us, a %.4f us/byte",
		       k->b_s / 1e3, k->s / 1e3, k->b_l / 1e3, k->a_ps / 1e6);
}

/* b_s, s, b_l and a, as vcube_costs_measure() found them. */
static void sync_costs_meta(const struct vcube_costs *k, unsigned int in,
			    struct bench_out *o)
{
	bench_out_uint(o, in, "b_s", k->b_s);
	bench_out_uint(o, in, "s", k->s);
	bench_out_uint(o, in, "b_l", k->b_l);
	bench_out_uint(o, in, "a_ps_per_byte", k->a_ps);
}

static const struct bench_col costs_cols[] = {
	{ .json = "d", .csv = "d", .head = "d", .type = BENCH_UINT,
	  .width = -3 },
	{ .json = "bytes", .csv = "bytes", .head = "vcube",
	  .type = BENCH_UINT, .width = 8 },
	{ .json = "paper", .csv = "paper", .head = "paper",
	  .type = BENCH_UINT, .width = 8 },
};

/* --costs: Table I's costs and Table III's crossover, beside the paper's. */
static void print_costs(const struct sync_study *s,
			const struct vcube_net_desc *net, unsigned int p,
			const struct vcube_costs *k)
{
	struct bench_out o;
	unsigned int d;

	bench_out_start(&o, stdout, bench_out_fmt(s->csv, s->json),
			costs_cols, ARRAY_LEN(costs_cols));
	sync_notes(s, net, p, k, &o);
	bench_out_note(&o, "Seidel & Davis Table I: b_s 75, s 44, b_l 136 us, a 0.36 us/byte");
	bench_out_note(&o, "Table III: smallest m (bytes) for which RDS before a long shift pays");
	bench_out_str(&o, BENCH_IN_CSV, "kind", "costs");
	bench_out_str(&o, BENCH_IN_BOTH, "profile", net->profile);
	bench_out_str(&o, BENCH_IN_JSON, "unit", "ns");
	sync_costs_meta(k, BENCH_IN_BOTH, &o);
	bench_out_rows(&o, "rds_min_len");
	for (d = 2; d <= 7; d++) {
		union bench_val v[] = {
			{ .u = d }, { .u = vcube_costs_rds_min_len(k, d) },
			{ .u = table3[d - 2] },
		};

		bench_out_row(&o, v);
	}
	bench_out_end(&o);
}

/* The columns of both studies, in CSV's order; the table shows some. */
enum { C_ALGO, C_X, C_MIN, C_AVG, C_MAX, C_SMIN, C_SAVG, C_SMAX, C_SKEW,
       C_OK, C_SUCCESS, C_DATA, C_DELTA, C_NCOLS };

#define SYNC_NS(j, c, h, t, w)						\
	{ .json = j, .csv = c, .head = h, .type = t, .width = w,	\
	  .prec = 1, .scale = 1e3 }

static const struct bench_col barrier_cols[C_NCOLS] = {
	[C_ALGO] = { .json = "algo", .csv = "algo", .head = "barrier",
		     .type = BENCH_STR, .width = -14 },
	[C_X] = SYNC_NS("skew", "skew_ns", "skew", BENCH_UINT, 9),
	[C_MIN] = SYNC_NS("min", "min_ns", NULL, BENCH_UINT, 9),
	[C_AVG] = SYNC_NS("avg", "avg_ns", "cost", BENCH_REAL, 9),
	[C_MAX] = SYNC_NS("max", "max_ns", "cost max", BENCH_UINT, 9),
	[C_SMIN] = SYNC_NS("spread_min", "spread_min_ns", NULL, BENCH_UINT, 9),
	[C_SAVG] = SYNC_NS("spread_avg", "spread_avg_ns", "spread",
			   BENCH_REAL, 9),
	[C_SMAX] = SYNC_NS("spread_max", "spread_max_ns", "sprd max",
			   BENCH_UINT, 9),
	[C_SKEW] = SYNC_NS("entry_skew_avg", "entry_skew_avg_ns", "entry",
			   BENCH_REAL, 9),
	[C_OK] = { .json = "successes", .csv = "successes",
		   .type = BENCH_UINT },
	[C_SUCCESS] = { .type = BENCH_REAL },
	[C_DATA] = { .json = "ok", .csv = "ok", .type = BENCH_BOOL },
	[C_DELTA] = SYNC_NS(NULL, NULL, "d(bs-s)", BENCH_REAL, 9),
};

static const struct bench_col shift_cols[C_NCOLS] = {
	[C_ALGO] = { .json = "algo", .csv = "algo", .head = "barrier",
		     .type = BENCH_STR, .width = -14 },
	[C_X] = { .json = "bytes", .csv = "bytes", .head = "bytes",
		  .type = BENCH_UINT, .width = 9 },
	[C_MIN] = SYNC_NS("min", "min_ns", "min", BENCH_UINT, 9),
	[C_AVG] = SYNC_NS("avg", "avg_ns", "avg", BENCH_REAL, 9),
	[C_MAX] = SYNC_NS("max", "max_ns", "max", BENCH_UINT, 9),
	[C_SMIN] = SYNC_NS("spread_min", "spread_min_ns", NULL, BENCH_UINT, 9),
	[C_SAVG] = SYNC_NS("spread_avg", "spread_avg_ns", "spread",
			   BENCH_REAL, 9),
	[C_SMAX] = SYNC_NS("spread_max", "spread_max_ns", NULL, BENCH_UINT, 9),
	[C_SKEW] = SYNC_NS("entry_skew_avg", "entry_skew_avg_ns", NULL,
			   BENCH_REAL, 9),
	[C_OK] = { .json = "successes", .csv = "successes",
		   .type = BENCH_UINT },
	[C_SUCCESS] = { .head = "success", .type = BENCH_REAL, .width = 7,
			.suffix = "%" },
	[C_DATA] = { .json = "ok", .csv = "ok", .head = "data",
		     .type = BENCH_BOOL, .width = 9, .no = "BAD" },
	[C_DELTA] = { .type = BENCH_REAL },
};

/* The run's facts: JSON's keys, CSV's comment line. */
static void sync_meta(const struct sync_study *s,
		      const struct vcube_net_desc *net, unsigned int p,
		      const struct vcube_costs *k, struct bench_out *o)
{
	bench_out_str(o, BENCH_IN_BOTH, "kind",
		      s->kind == SYNC_BARRIER ? "barrier" : "shift");
	bench_out_open(o, "network");
	bench_out_str(o, BENCH_IN_JSON, "topology", net->topology);
	bench_out_str(o, BENCH_IN_JSON, "shape", net->shape);
	bench_out_str(o, BENCH_IN_BOTH, "profile", net->profile);
	bench_out_uint(o, BENCH_IN_BOTH, "seed", net->seed);
	bench_out_uint(o, BENCH_IN_BOTH, "noise_period_ns",
		       net->noise_period_ns);
	bench_out_uint(o, BENCH_IN_BOTH, "noise_cost_ns", net->noise_cost_ns);
	bench_out_uint(o, BENCH_IN_BOTH, "jitter_ns", net->jitter_ns);
	bench_out_str(o, BENCH_IN_JSON, "jitter_dist", net->jitter_dist);
	bench_out_close(o);
	bench_out_uint(o, BENCH_IN_BOTH, "procs", p);
	bench_out_uint(o, BENCH_IN_BOTH, "reps", s->reps);
	bench_out_bool(o, BENCH_IN_BOTH, "forced", !s->unforced);
	bench_out_str(o, BENCH_IN_JSON, "unit", "ns");
	bench_out_open(o, "costs");
	sync_costs_meta(k, BENCH_IN_JSON, o);
	bench_out_close(o);
}

static void print_results(const struct sync_study *s,
			  const struct vcube_net_desc *net, unsigned int p,
			  const struct vcube_costs *k,
			  const struct sync_result *res, unsigned int nres)
{
	struct bench_out o;
	unsigned int i, d = 0;

	while ((1U << d) < p)
		d++;
	bench_out_start(&o, stdout, bench_out_fmt(s->csv, s->json),
			s->kind == SYNC_BARRIER ? barrier_cols : shift_cols,
			C_NCOLS);
	sync_notes(s, net, p, k, &o);
	if (s->kind == SYNC_BARRIER)
		bench_out_note(&o, "one rank late by the skew; cost: last exit - first entry; spread: last exit - first exit; entry: the entries' average skew (us)");
	else
		bench_out_note(&o, "%s shift on the Gray-code ring; time: slowest rank, barrier exit to shift end (us)",
			       s->unforced ? "UNFORCED (long protocol)" : "FORCED");
	if (s->kind == SYNC_BARRIER && sync_native()) {
		char via[32];

		bench_mpi->native_algo(VCUBE_ALGO_SYNC, p, 0, via, sizeof(via));
		if (via[0])
			bench_out_note(&o, "%s: Open MPI's tuned picks %s at %u ranks",
				       sync_native(), via, p);
	}
	sync_meta(s, net, p, k, &o);
	bench_out_rows(&o, "results");
	for (i = 0; i < nres; i++) {
		const struct sync_result *r = &res[i];
		union bench_val v[C_NCOLS] = {
			[C_ALGO] = { .s = r->algo }, [C_X] = { .u = r->x },
			[C_MIN] = { .u = r->min }, [C_AVG] = { .f = r->avg },
			[C_MAX] = { .u = r->max }, [C_SMIN] = { .u = r->smin },
			[C_SAVG] = { .f = r->savg },
			[C_SMAX] = { .u = r->smax },
			[C_SKEW] = { .f = r->skew }, [C_OK] = { .u = r->ok },
			[C_SUCCESS] = { .f = 100.0 * r->ok / s->reps },
			[C_DATA] = { .b = !r->bad },
			[C_DELTA] = { .f = d * ((double)k->b_s -
						(double)k->s) },
		};

		bench_out_row(&o, v);
	}
	bench_out_end(&o);
}

/* Barrier: cost and spread against skew; shift: success against size. */
static int sync_plot(const struct sync_study *s, const struct sync_result *res,
		     unsigned int nres)
{
	char tmpl[] = "/tmp/vcube-bench-XXXXXX", script[4096];
	unsigned int i, j, k, n = 0, used;
	const char *names[MAX_ALGOS];
	FILE *d;
	int ret;

	d = bench_tmpfile(tmpl);
	if (!d)
		return -errno;
	for (i = 0; i < nres; i++)
		bench_name_index(names, &n, res[i].algo);
	for (j = 0; j < n; j++) {
		fprintf(d, "# %s\n", names[j]);
		for (i = 0; i < nres; i++)
			if (!strcmp(names[j], res[i].algo))
				fprintf(d, "%.3f %.3f %.3f %.3f\n",
					s->kind == SYNC_BARRIER ?
					res[i].x / 1e3 : (double)res[i].x,
					res[i].avg / 1e3, res[i].savg / 1e3,
					100.0 * res[i].ok / s->reps);
		fprintf(d, "\n\n");
	}
	fclose(d);
	if (s->kind == SYNC_BARRIER)
		used = snprintf(script, sizeof(script),
				"set terminal %s\nset output '%s'\n"
				"set multiplot layout 1,2 title \"%s\"\n"
				"set xlabel 'skew of one rank (us)'\nset grid\n"
				"set key top left\nset ylabel 'cost (us)'\n",
				bench_terminal(s->plot), s->plot,
				s->title ? s->title : "barriers against skew");
	else
		used = snprintf(script, sizeof(script),
				"set terminal %s\nset output '%s'\n"
				"set title \"%s\"\nset logscale x 2\n"
				"set xlabel 'message (bytes)'\nset grid\n"
				"set ylabel 'concurrent shifts (%% of %u)'\n"
				"set yrange [0:105]\nset key bottom left\n",
				bench_terminal(s->plot), s->plot,
				s->title ? s->title : "shift after a barrier",
				s->reps);
	/*
	 * cost and spread side by side, or the success rate. Algorithms often
	 * tie (rds and dissemination cost the same): each is drawn thinner
	 * than the one before it, in its own dash, so one that coincides with
	 * another still shows around it.
	 */
	for (k = s->kind == SYNC_BARRIER ? 2 : 4;
	     k <= 4 && used < sizeof(script); k++) {
		if (k == 3)
			used += snprintf(script + used, sizeof(script) - used,
					 "set ylabel 'exit spread (us)'\nset key bottom right\n");
		for (j = 0; j < n && used < sizeof(script); j++)
			used += snprintf(script + used, sizeof(script) - used,
					 "%s'%s' index %u using 1:%u with linespoints lw %.1f dt %u ps %.1f title '%s'",
					 j ? ", " : "plot ", tmpl, j, k,
					 1.2 + 1.2 * (n - 1 - j), j % 5 + 1,
					 0.8 + 0.3 * (n - 1 - j), names[j]);
		if (used < sizeof(script))
			used += snprintf(script + used, sizeof(script) - used,
					 "\n");
		if (s->kind == SYNC_BARRIER && k == 3)
			break;
	}
	ret = used < sizeof(script) ? bench_gnuplot(script, s->plot) : -E2BIG;
	unlink(tmpl);
	return ret;
}

/* Why barrier @name cannot run in @s on @c (-errno @err), in words. */
static const char *sync_why(const struct vcube_comm *c, const char *name,
			    int err)
{
	const struct vcube_algo *a;

	if (err == -EPROTO)
		return "FORCED shifts need a barrier (their receives must be posted first); use --unforced";
	if (err == -ENOENT || vcube_algo_find(VCUBE_ALGO_SYNC, name, &a))
		return "no such barrier";
	if ((a->needs & VCUBE_ALGO_CNET) && !vcube_comm_cnet(c))
		return "needs a control network (profile=cm5, or cnet_word_ns=)";
	return "needs a power-of-two number of ranks";
}

/*
 * The barriers to run: those named (or, for a shift, none), or every one
 * that runs on this many ranks; 0, or 2 (said at rank 0).
 */
static int sync_algos(struct vcube_comm *c, struct sync_study *s)
{
	unsigned int i, p = vcube_comm_size(c), given = s->nalgos;
	int ret, none;

	for (i = 0; !given && i < vcube_algo_count(); i++) {
		const struct vcube_algo *a = vcube_algo_get(i);

		if (a->kind == VCUBE_ALGO_SYNC &&
		    !vcube_algo_usable(c, VCUBE_ALGO_SYNC, a->name))
			s->algos[s->nalgos++] = a->name;
	}
	if (!given && sync_native() && s->kind == SYNC_BARRIER &&
	    s->nalgos < MAX_ALGOS)
		s->algos[s->nalgos++] = sync_native();
	for (i = 0; i < s->nalgos; i++) {
		if (sync_native() && !strcmp(s->algos[i], sync_native()))
			continue;
		none = !strcmp(s->algos[i], "none");
		ret = none ? 0 : vcube_algo_usable(c, VCUBE_ALGO_SYNC,
						   s->algos[i]);
		if (!ret && s->kind == SYNC_SHIFT && (p & (p - 1)))
			ret = -EDOM;
		if (!ret && none && !s->unforced)
			ret = -EPROTO;
		if (!ret)
			continue;
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-bench: %s: %s\n", s->algos[i],
				sync_why(c, s->algos[i], ret));
		return 2;
	}
	return 0;
}

/* Every point into @res (*nres of them); 0 or -errno. */
static int sync_points(struct vcube_comm *c, const struct sync_study *s,
		       const struct vcube_costs *k, struct sync_result *res,
		       unsigned int *nres)
{
	struct vcube_tool_progress pg;
	unsigned int i, j;
	uint64_t maxlen = 0;
	uint8_t *sbuf, *rbuf;
	int ret = 0;

	for (i = 0; s->kind == SYNC_SHIFT && i < s->nx; i++)
		maxlen = s->xs[i] > maxlen ? s->xs[i] : maxlen;
	sbuf = malloc(maxlen + 1);
	rbuf = malloc(maxlen + 1);
	if (!sbuf || !rbuf)
		ret = -ENOMEM;
	vcube_tool_progress_init(&pg, "vcube-bench", s->nalgos * s->nx,
				 s->quiet || vcube_comm_rank(c));
	for (i = 0; i < s->nalgos && !ret; i++)
		for (j = 0; j < s->nx && !ret; j++, (*nres)++) {
			vcube_tool_progress_step(&pg, *nres, 0, "%s, %" PRIu64,
						 s->algos[i], s->xs[j]);
			ret = sync_point(c, s, k, s->algos[i], s->xs[j], sbuf,
					 rbuf, &res[*nres]);
		}
	vcube_tool_progress_end(&pg);
	free(sbuf);
	free(rbuf);
	return ret;
}

/* Rank 0: the results and the figure; 1 if either failed or data was wrong. */
static int sync_report(const struct sync_study *s,
		       const struct vcube_net_desc *net, unsigned int p,
		       const struct vcube_costs *k,
		       const struct sync_result *res, unsigned int nres)
{
	unsigned int i;
	int status = 0;

	print_results(s, net, p, k, res, nres);
	fflush(stdout);
	if (s->plot && sync_plot(s, res, nres)) {
		fprintf(stderr, "vcube-bench: gnuplot failed for %s\n", s->plot);
		status = 1;
	}
	for (i = 0; i < nres; i++)
		if (res[i].bad) {
			fprintf(stderr, "vcube-bench: %s at %" PRIu64
				" bytes delivered wrong data\n", res[i].algo,
				res[i].x);
			status = 1;
		}
	return status;
}

/* Rank 0: --each's file ended; 1 if it could not be written whole. */
static int sync_each_close(struct sync_study *s)
{
	int ret = s->each ? bench_each_close(s->each_f, s->each) : 0;

	s->each_f = NULL;
	return ret;
}

int sync_study_run(struct sync_study *s)
{
	struct vcube_net_desc net = { 0 };
	struct sync_result *res = NULL;
	unsigned int nres = 0, me, p;
	struct vcube_costs k;
	struct vcube_comm *c;
	int ret, status = 0;

	if (bench_comm_open(&c, &net))
		return 1;
	me = vcube_comm_rank(c);
	p = vcube_comm_size(c);
	if (p < 2 && me == 0)
		fprintf(stderr, "vcube-bench: --barrier, --shift and --costs need at least 2 ranks\n");
	status = p < 2 ? 2 : sync_algos(c, s);
	ret = status ? 0 : vcube_costs_measure(c, &k);
	if (ret) {
		fprintf(stderr, "vcube-bench: rank %u: measuring the costs: %s\n",
			me, strerror(-ret));
		status = 1;
	}
	if (!status && s->kind == SYNC_COSTS && me == 0)
		print_costs(s, &net, p, &k);
	if (!status && s->kind != SYNC_COSTS) {
		/* a file that cannot be made is said now, and fails the run
		 * at its end: the ranks go on together */
		if (me == 0 && s->each)
			s->each_f = bench_each_open(s->each,
						    s->kind == SYNC_BARRIER ?
						    "skew_ns" : "bytes");
		res = calloc((size_t)s->nalgos * s->nx + 1, sizeof(*res));
		ret = res ? sync_points(c, s, &k, res, &nres) : -ENOMEM;
		if (ret)
			fprintf(stderr, "vcube-bench: rank %u: %s\n", me,
				strerror(-ret));
		if (!ret && me == 0)
			status = sync_report(s, &net, p, &k, res, nres);
		else if (ret)
			status = 1;
		if (me == 0 && sync_each_close(s) && !status)
			status = 1;
	}
	free(res);
	/* a rank's own failure (ret) leaves the others waiting: end them */
	return bench_comm_close(c, status, !ret || status == 2);
}
