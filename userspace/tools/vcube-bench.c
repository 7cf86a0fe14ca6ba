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
 *
 * This file reads the command line and picks the sweep (bench/sweep.c,
 * over the modes of bench/xchg.c, coll.c and fft.c), a study
 * (bench/sync.c, bench/ge.c) or a redraw (bench/plot.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "common/algos.h"
#include "common/cli.h"

static void usage_studies(FILE *f);

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vcube-run -n N vcube-bench [OPTIONS]\n"
		"       mpirun -n N vcube-bench --transport mpi [OPTIONS]\n"
		"       mpirun -n 2 vcube-bench --transport mpi --costs > FILE.profile\n"
		"       vcube-bench --from FILE.csv --plot OUT.svg|OUT.png\n"
		"       vcube-bench --from D3.csv --from D4.csv ... --regions OUT.svg\n\n"
		"Time complete-exchange algorithms; every byte received is checked.\n"
		"  -a, --algo LIST     comma-separated algorithms (default, or all: every\n"
		"                      one that runs on this network; --list shows them)\n"
		"      --transport T   vcube (default: the vcube device, virtual time,\n"
		"                      under vcube-run) or mpi (MPI point-to-point, real\n"
		"                      time, under mpirun: the same plans, and the MPI's\n"
		"                      own MPI_Alltoall, MPI_Allreduce or MPI_Bcast)\n"
		"      --predict PROF  beside each point, vcube-sim's time for it on a\n"
		"                      profile (ipsc860, seidel, delta, ap1000, cm5) or a\n"
		"                      profile file, and measured / predicted\n"
		"      --warmup N      unmeasured repetitions per point (default: 1 over\n"
		"                      MPI, 0 on vcube)\n"
		"      --mark          every rank marks each step of each plan in the\n"
		"                      trace (\"pex step 3\"), for vcubectl trace's\n"
		"                      timelines\n"
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
		"      --seed N        the pattern's seed (default 1)\n");
	usage_studies(f);
}

/* The studies, the outputs and the registry's names: usage()'s end. */
static void usage_studies(FILE *f)
{
	fprintf(f,
		"      --barrier LIST  barriers instead (gsync,sync0,rds,dissemination,\n"
		"                      tree,cm5_control or all; over MPI also\n"
		"                      MPI_Barrier): cost and exit spread with one rank\n"
		"                      late by each --skew\n"
		"      --skew LIST     --barrier: the late rank's skews, ns (default\n"
		"                      0,75000,150000,300000,600000)\n"
		"      --shift LIST    a one-hop shift on the Gray-code ring after each\n"
		"                      barrier of LIST (or none, with --unforced); --sizes\n"
		"                      are its bytes; success: within 1 ms of a m + b_s\n"
		"      --unforced      --shift: the long protocol (a m + b_l), not FORCED\n"
		"      --costs         the measured b_s, s, b_l and a, and the smallest\n"
		"                      message for which RDS pays (Seidel Table III);\n"
		"                      over MPI: a ping-pong of ranks 0 and 1 over\n"
		"                      --sizes (default 1..65536, --reps 50), alpha and\n"
		"                      beta fitted on every other size, written as a\n"
		"                      profile for --predict\n"
		"      --envelope      --plot: min, average and max, not the max alone\n"
		"      --csv           CSV on stdout instead of the table\n"
		"  -j, --json          JSON on stdout instead of the table\n"
		"      --plot FILE     time against block size, log axes (gnuplot;\n"
		"                      .svg or .png)\n"
		"      --regions FILE  the best algorithm per dimension and block size,\n"
		"                      from several --from files\n"
		"      --paper FILE    on --regions, mark the paper's winners: lines\n"
		"                      'D BYTES ALGO[|ALGO...]'\n"
		"      --from FILE     read results saved with --csv instead of running\n"
		"      --title TEXT    the plot's title\n"
		"  -q, --quiet         no progress (on stderr)\n"
		"  -l, --list          list the algorithms and exit (with --json: as JSON)\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n\n");
	vcube_tool_algos_names(f, "complete exchanges:", 1U << VCUBE_ALGO_XCHG);
	vcube_tool_algos_names(f, "irregular:         ", 1U << VCUBE_ALGO_IRREGULAR);
	vcube_tool_algos_names(f, "barriers:          ", 1U << VCUBE_ALGO_SYNC);
	vcube_tool_algos_names(f, "reductions:        ", 1U << VCUBE_ALGO_REDUCE);
	vcube_tool_algos_names(f, "broadcasts:        ", 1U << VCUBE_ALGO_BCAST);
}

/*
 * 1 if some kind of the registry has an algorithm named @name, or it is
 * "all", or the MPI library's own operation of a kind.
 */
static int algo_known(const char *name)
{
	unsigned int k;

	if (!strcmp(name, "all"))
		return 1;
	for (k = 0; k < VCUBE_ALGO_NKINDS; k++)
		if (!vcube_algo_find(k, name, NULL) ||
		    (bench_mpi && bench_mpi->native_name(k) &&
		     !strcmp(name, bench_mpi->native_name(k))))
			return 1;
	return 0;
}


/* What the command line asked for. */
struct cli {
	struct bench b;
	struct sync_study sy;
	struct ge_study ge;
	const char *from[16];
	unsigned int nfrom;
	int sizes_given, skew_given, elem_given, list, reps_given;
	int warmup_given;
};

static int parse_sizes(struct bench *b, const char *arg)
{
	return bench_parse_list(arg, b->sizes, &b->nsizes);
}

/* A real number in [lo, hi) for option @name, or -EINVAL (said). */
static int parse_real(const char *name, const char *arg, double lo, double hi,
		      const char *range, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (*end || end == arg || !(*v >= lo && *v < hi)) {
		fprintf(stderr, "vcube-bench: bad --%s '%s' (%s)\n", name, arg,
			range);
		return -EINVAL;
	}
	return 0;
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

/* --algo, --barrier, --shift: comma-separated names. */
static int opt_names(struct cli *o, int c, char *arg)
{
	char *tok, *save;

	if (c != 'a' && sync_kind_set(&o->sy, c == 'B' ? SYNC_BARRIER :
						       SYNC_SHIFT))
		return -EINVAL;
	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (c == 'a' && !algo_known(tok)) {
			fprintf(stderr, "vcube-bench: no algorithm '%s' (see --list)\n",
				tok);
			return -EINVAL;
		}
		if (c == 'a') {
			if (o->b.nalgos < MAX_ALGOS)
				o->b.algos[o->b.nalgos++] = tok;
			continue;
		}
		if (!strcmp(tok, "all"))
			continue;
		if (sync_study_algo_ok(&o->sy, tok)) {
			fprintf(stderr, "vcube-bench: no barrier '%s' (see --list)\n",
				tok);
			return -EINVAL;
		}
		if (o->sy.nalgos < MAX_ALGOS)
			o->sy.algos[o->sy.nalgos++] = tok;
	}
	return 0;
}

/* The options with a number or a list of numbers; -ENOENT: not one. */
static int opt_number(struct cli *o, int c, const char *arg)
{
	struct bench *b = &o->b;
	uint64_t v;

	switch (c) {
	case 's':
		o->sizes_given = 1;
		return parse_sizes(b, arg) ? -EINVAL : 0;
	case 'r':
		if (bench_parse_u64(arg, &v) || !v || v > 100000)
			return -EINVAL;
		b->reps = (unsigned int)v;
		o->reps_given = 1;
		return 0;
	case 'w':
		if (bench_parse_u64(arg, &v) || v > 1000)
			return -EINVAL;
		b->warmup = (unsigned int)v;
		o->warmup_given = 1;
		return 0;
	case 'I':
		return bench_parse_u64(arg, &b->idle_ns);
	case 'S':
		return bench_parse_u64(arg, &b->seed);
	case 'K':
		o->skew_given = 1;
		return bench_parse_list(arg, o->sy.xs, &o->sy.nx) ? -EINVAL : 0;
	case 'D':
		/* (0, 1]: 1 is every pair */
		if (parse_real("density", arg, 0, 2, "0 < D <= 1", &b->density))
			return -EINVAL;
		if (b->density > 0 && b->density <= 1)
			return 0;
		fprintf(stderr, "vcube-bench: bad --density '%s' (0 < D <= 1)\n",
			arg);
		return -EINVAL;
	case 'e':
		o->elem_given = 1;
		return parse_real("elem-ns", arg, 0, 1e9, "0 <= X < 1e9",
				  &o->ge.elem_ns);
	case 'P':
		return parse_real("flop-ns", arg, 0, 1e6, "0 <= X < 1e6",
				  &b->flop_ns);
	}
	return -ENOENT;
}

/* The options that set a flag or take a name; -ENOENT: not one. */
static int opt_flag(struct cli *o, int c, const char *arg)
{
	struct bench *b = &o->b;

	switch (c) {
	case 'C': b->csv = 1; break;
	case 'J':
	case 'j': b->json = 1; break;
	case 'p': b->plot = arg; break;
	case 'R': b->regions = arg; break;
	case 'W': b->paper = arg; break;
	case 'T': b->title = arg; break;
	case 'Y': b->predict = arg; break;
	case 'Z': break;	/* --transport: main() took it */
	case 'q': b->quiet = 1; break;
	case 'O': b->one_way = 1; break;
	case 'X': b->reduce = 1; break;
	case 'b': b->bcast = 1; break;
	case 'G': o->ge.nalgos = 1; break;	/* marks --ge; --algo names them */
	case 'f': b->fft = 1; break;
	case 'U': o->sy.unforced = 1; break;
	case 'M': return sync_kind_set(&o->sy, SYNC_COSTS);
	case 'E': b->envelope = 1; break;
	case 'g': bench_marks = true; break;
	case 'l': o->list = 1; break;
	case 'F':
		if (o->nfrom == 16) {
			fprintf(stderr, "vcube-bench: at most 16 --from files\n");
			return -EINVAL;
		}
		o->from[o->nfrom++] = arg;
		break;
	default:
		return -ENOENT;
	}
	return 0;
}

static const char *const long_names[] = {
	['s'] = "sizes", ['r'] = "reps", ['I'] = "idle-ns", ['S'] = "seed",
	['K'] = "skew", ['w'] = "warmup",
};

/* The command line into @o: 0, 1 (--help: exit 0) or 2 (exit 2). */
static int parse(int argc, char **argv, struct cli *o)
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
		{ "paper", required_argument, NULL, 'W' },
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
		{ "transport", required_argument, NULL, 'Z' },
		{ "predict", required_argument, NULL, 'Y' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "envelope", no_argument, NULL, 'E' },
		{ "mark", no_argument, NULL, 'g' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int c, ret;

	vcube_tool_name(argv, "vcube-bench");
	while ((c = getopt_long(argc, argv, "a:s:r:jqlhV", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == 'V') {
			vcube_tool_version("vcube-bench");
			return 1;
		}
		if (c == 'a' || c == 'B' || c == 'H')
			ret = opt_names(o, c, optarg);
		else if ((ret = opt_number(o, c, optarg)) == -ENOENT)
			ret = opt_flag(o, c, optarg);
		if (ret == -EINVAL && c >= 0 &&
		    (size_t)c < sizeof(long_names) / sizeof(long_names[0]) &&
		    long_names[c])
			fprintf(stderr, "vcube-bench: bad --%s '%s'\n",
				long_names[c], optarg);
		if (ret == -ENOENT)
			return vcube_tool_try_help("vcube-bench");
		if (ret)
			return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "vcube-bench: unexpected argument '%s'\n",
			argv[optind]);
		return vcube_tool_try_help("vcube-bench");
	}
	return 0;
}

/* --barrier, --shift or --costs: Seidel & Davis's studies (bench/sync.c). */
static int run_sync(struct cli *o)
{
	struct sync_study *sy = &o->sy;
	struct bench *b = &o->b;

	if (b->reduce || b->bcast || o->ge.nalgos || b->fft || b->density > 0 ||
	    b->nalgos || o->nfrom || b->regions || b->envelope || b->predict) {
		fprintf(stderr, "vcube-bench: --barrier, --shift and --costs take none of --algo, --reduce, --bcast, --ge, --fft, --density, --from, --regions, --envelope, --predict\n");
		return 2;
	}
	if (o->skew_given && sy->kind != SYNC_BARRIER) {
		fprintf(stderr, "vcube-bench: --skew is for --barrier\n");
		return 2;
	}
	if (sy->kind == SYNC_BARRIER && !o->skew_given)
		bench_parse_list("0,75000,150000,300000,600000", sy->xs, &sy->nx);
	if (sy->kind == SYNC_SHIFT) {
		if (!o->sizes_given)
			parse_sizes(b, "4096..65536");
		memcpy(sy->xs, b->sizes, sizeof(sy->xs));
		sy->nx = b->nsizes;
	}
	sy->reps = b->reps;
	sy->csv = b->csv;
	sy->json = b->json;
	sy->quiet = b->quiet;
	sy->plot = b->plot;
	sy->title = b->title;
	return sync_study_run(sy);
}

/* --ge: Ponnusamy et al.'s Gaussian elimination (bench/ge.c). */
static int run_ge(struct cli *o)
{
	struct ge_study *ge = &o->ge;
	struct bench *b = &o->b;
	unsigned int i;

	if (b->reduce || b->bcast || b->fft || b->density > 0 || o->nfrom ||
	    b->regions || b->envelope || b->plot) {
		fprintf(stderr, "vcube-bench: --ge takes none of --reduce, --bcast, --fft, --density, --from, --regions, --envelope, --plot\n");
		return 2;
	}
	ge->nalgos = 0;
	for (i = 0; i < b->nalgos; i++) {
		if (vcube_algo_find(VCUBE_ALGO_BCAST, b->algos[i], NULL)) {
			fprintf(stderr, "vcube-bench: with --ge, --algo is among cm5_control,tree\n");
			return 2;
		}
		ge->algos[ge->nalgos++] = b->algos[i];
	}
	if (!o->sizes_given)
		parse_sizes(b, "64,128,256,512");
	memcpy(ge->sizes, b->sizes, sizeof(ge->sizes));
	ge->nsizes = b->nsizes;
	ge->csv = b->csv;
	ge->json = b->json;
	return ge_study_run(ge);
}

/* --from: redraw saved results (bench/plot.c). */
static int run_from(struct cli *o)
{
	static struct bench files[16];
	struct bench *b = &o->b;
	unsigned int i;
	int ret;

	for (i = 0; i < o->nfrom; i++) {
		ret = bench_read_csv(o->from[i], &files[i]);
		if (ret == -EMEDIUMTYPE) {
			fprintf(stderr, "vcube-bench: %s: not a sweep's CSV (algo,bytes,...): --from redraws sweeps only\n",
				o->from[i]);
			return 1;
		}
		if (ret) {
			fprintf(stderr, "vcube-bench: %s: %s\n", o->from[i],
				strerror(-ret));
			return 1;
		}
		files[i].title = b->title;
		files[i].envelope = b->envelope;
	}
	if (b->regions)
		return bench_plot_regions(files, o->nfrom, b->regions,
					  b->paper) ? 1 : 0;
	if (o->nfrom != 1) {
		fprintf(stderr, "vcube-bench: %u --from files: one, or several with --regions\n",
			o->nfrom);
		return 2;
	}
	/* the table as the run printed it (text, --csv, --json), the figure */
	files[0].csv = b->csv;
	files[0].json = b->json;
	bench_write(&files[0], stdout);
	fflush(stdout);
	return b->plot && bench_plot(&files[0], b->plot) ? 1 : 0;
}

/*
 * Output options that contradict each other (*status 2) or cannot be
 * written (*status 1): the message, or NULL. The figure's file is made
 * now (gnuplot fills it at the end), so a bad path fails before the run
 * rather than after.
 */
static const char *output_conflict(const struct cli *o, int *status)
{
	const char *plot = o->b.plot, *dot;
	static char why[320];
	FILE *f;

	*status = 2;
	if (o->b.csv && o->b.json)
		return "--csv and --json: one or the other";
	if (!plot)
		return NULL;
	dot = strrchr(plot, '.');
	if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
		return "--plot writes .svg or .png files";
	f = fopen(plot, "a");
	if (!f) {
		snprintf(why, sizeof(why), "--plot %.256s: %s", plot,
			 strerror(errno));
		*status = 1;
		return why;
	}
	/*
	 * Not removed if it was made here: every rank of a run probes it,
	 * and one rank's unlink under another's open fails that open.
	 */
	fclose(f);
	return NULL;
}

/* What the sweep cannot take: the message, or NULL. */
static const char *sweep_conflict(const struct cli *o)
{
	const struct bench *b = &o->b;

	if (o->elem_given)
		return "--elem-ns is for --ge";
	if (o->sy.unforced || o->skew_given)
		return "--unforced is for --shift, --skew for --barrier";
	if (b->reduce + b->bcast + b->fft + (b->density > 0) > 1)
		return "--reduce, --bcast, --fft and --density do not go together";
	if (b->flop_ns > 0 && !b->fft)
		return "--flop-ns is for --fft";
	if (!o->nfrom && b->regions)
		return "--regions needs --from files";
	if (b->paper && !b->regions)
		return "--paper marks the cells of --regions: it needs --regions";
	return NULL;
}

/*
 * --transport: on "mpi", vcube-bench becomes vcube-bench-mpi (the same
 * program built with MPI, in ../libexec/vcube), so that runs on the
 * device never load an MPI library; 0 to go on here, else the exit status.
 */
static int transport(int argc, char **argv)
{
	char path[PATH_MAX], *slash;
	const char *t = NULL;
	ssize_t n;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--transport") && i + 1 < argc)
			t = argv[i + 1];
		else if (!strncmp(argv[i], "--transport=", 12))
			t = argv[i] + 12;
	}
	if (!t || !strcmp(t, bench_mpi ? "mpi" : "vcube"))
		return 0;
	if (strcmp(t, "mpi") && strcmp(t, "vcube")) {
		fprintf(stderr, "vcube-bench: bad --transport '%s' (vcube or mpi)\n",
			t);
		return 2;
	}
	if (bench_mpi) {
		fprintf(stderr, "vcube-bench-mpi: --transport vcube is vcube-bench's (under vcube-run)\n");
		return 2;
	}
	n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	slash = n > 0 ? (path[n] = '\0', strrchr(path, '/')) : NULL;
	if (slash) {
		strcpy(slash + 1, "../libexec/vcube/vcube-bench-mpi");
		execv(path, argv);
	}
	fprintf(stderr, "vcube-bench: --transport mpi runs %s: %s\n",
		slash ? path : "vcube-bench-mpi", slash ? strerror(errno) :
		"where is vcube-bench?");
	return 1;
}

/* What vcube-bench-mpi runs: the sweep, or --costs; 0 to go on. */
static const char *mpi_conflict(struct cli *o)
{
	if (!bench_mpi)
		return NULL;
	if (o->nfrom || o->list)
		return NULL;
	if (o->sy.kind == SYNC_SHIFT)
		return "--shift runs on the vcube device only (vcube-run, not --transport mpi)";
	if (o->ge.nalgos)
		return "--ge runs on the vcube device only (vcube-run, not --transport mpi)";
	return NULL;
}

int main(int argc, char **argv)
{
	static struct cli o;
	const char *why;
	int ret;

	ret = transport(argc, argv);
	if (ret)
		return ret;
	o.b.reps = 3;
	o.b.seed = 1;
	parse_sizes(&o.b, "1..4096");
	ret = parse(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	why = mpi_conflict(&o);
	if (why) {
		fprintf(stderr, "vcube-bench: %s\n", why);
		return 2;
	}
	if (bench_mpi && !o.warmup_given)
		o.b.warmup = 1;
	if (bench_mpi && o.sy.kind == SYNC_COSTS) {
		if (!o.sizes_given)
			parse_sizes(&o.b, "1..65536");
		return bench_mpi->costs(o.reps_given ? o.b.reps : 50,
					o.b.sizes, o.b.nsizes);
	}
	why = output_conflict(&o, &ret);
	if (why) {
		fprintf(stderr, "vcube-bench: %s\n", why);
		return ret;
	}
	if (o.list)
		return vcube_tool_algos_print(stdout, VCUBE_TOOL_ALL_KINDS,
					      o.b.json) ? 1 : 0;
	if (o.sy.kind)
		return run_sync(&o);
	if (o.ge.nalgos)
		return run_ge(&o);
	why = sweep_conflict(&o);
	if (why) {
		fprintf(stderr, "vcube-bench: %s\n", why);
		return 2;
	}
	return o.nfrom ? run_from(&o) : bench_sweep_run(&o.b);
}
