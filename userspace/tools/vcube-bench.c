// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench: time complete-exchange algorithms on vcube, as the papers'
 * tables and figures do. Runs under vcube-run, one process per node:
 *
 *   vcube-run -n 32 vcube-bench exchange --algo linear,stable --sizes 1..4096
 *
 * For every algorithm and block size it runs the exchange --reps times,
 * each after a barrier, and checks every byte received. A repetition's
 * time is the slowest rank's virtual time from the barrier to the end of
 * its exchange (the papers judge by the maximum); per size the minimum,
 * average and maximum over repetitions are reported. Rank 0 prints.
 *
 * Without vcube-run, vcube-bench redraw --from FILE.csv ... redraws saved
 * results: --plot for one file, --regions for one file per hypercube
 * dimension.
 *
 * This file reads the command line: a subcommand (the table cmds[], as
 * wg(8) has), each with the options it takes, and runs the sweep
 * (vcube-bench/sweep.c, over the modes of xchg.c, coll.c and fft.c), a
 * study (sync.c, ge.c) or a redraw (plot.c), all in vcube-bench/. The
 * flags that chose them before subcommands (--reduce, --barrier LIST,
 * --from...) are still read, with a one-line notice, for this release.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcube-bench/bench.h"
#include "common/algos.h"
#include "common/cli.h"

/* Each option's help, by its getopt code, in the order --help lists them. */
static const struct opt_help {
	int c;
	const char *text;
} opt_help[] = {
	{ 'a', "  -a, --algo LIST     comma-separated algorithms (default, or all: every\n"
	       "                      one of the subcommand's kind that runs on this\n"
	       "                      network; vcube-bench list shows them)\n" },
	{ 'Z', "      --transport T   vcube (default: the vcube device, virtual time,\n"
	       "                      under vcube-run) or mpi (MPI point-to-point, real\n"
	       "                      time, under mpirun: the same plans, and the MPI's\n"
	       "                      own MPI_Alltoall, MPI_Allreduce, MPI_Bcast or\n"
	       "                      MPI_Barrier)\n" },
	{ 'Y', "      --predict PROF  beside each point, vcube-sim's time for it on a\n"
	       "                      profile (ipsc860, seidel, delta, ap1000, cm5,\n"
	       "                      slingshot), a\n"
	       "                      profile file, or a network in the module's words\n"
	       "                      ('topology=torus dims=4,4,4 profile=ap1000', as\n"
	       "                      many nodes as ranks), and measured / predicted\n" },
	{ 'w', "      --warmup N      unmeasured repetitions per point (default: 1 over\n"
	       "                      MPI, 0 on vcube)\n" },
	{ 'g', "      --mark          every rank marks each step of each plan in the\n"
	       "                      trace (\"pex step 3\"), for vcubectl trace's\n"
	       "                      timelines\n" },
	{ 's', "  -s, --sizes LIST    sizes: 1,16,256 or LO..HI (powers of two) or\n"
	       "                      LO..HI:STEP (the default is the subcommand's)\n" },
	{ 'r', "  -r, --reps N        repetitions per point (default 3)\n" },
	{ 'x', "      --each FILE     every repetition's time into FILE, a CSV line\n"
	       "                      each: algo,bytes,rep,ns (barrier: algo,skew_ns,\n"
	       "                      rep,ns), as the repetitions end\n" },
	{ 'I', "      --idle-ns NS    stable's idle step (default: one send's time)\n" },
	{ 'D', "      --density D     the fraction (0..1] of the pairs that talk, each\n"
	       "                      a block (required)\n" },
	{ 'O', "      --one-way       the pattern's entries independently, not in pairs\n" },
	{ 'S', "      --seed N        the pattern's seed (default 1)\n" },
	{ 'P', "      --flop-ns X     virtual ns per flop (5 N lg N per row transform),\n"
	       "                      charged as a busy wait (default 0)\n" },
	{ 'e', "      --elem-ns X     virtual ns per element update (default 0)\n" },
	{ 'K', "      --skew LIST     the late rank's skews, ns (default\n"
	       "                      0,75000,150000,300000,600000)\n" },
	{ 'U', "      --unforced      the long protocol (a m + b_l), not FORCED\n" },
	{ 'F', "      --from FILE     results saved with --csv (one per dimension for\n"
	       "                      --regions)\n" },
	{ 'R', "      --regions FILE  the best algorithm per dimension and block size\n" },
	{ 'W', "      --paper FILE    on --regions, mark the paper's winners: lines\n"
	       "                      'D BYTES ALGO[|ALGO...]'\n" },
	{ 'E', "      --envelope      --plot: min, average and max, not the max alone\n" },
	{ 'C', "      --csv           CSV on stdout instead of the table\n" },
	{ 'J', "  -j, --json          JSON on stdout instead of the table\n" },
	{ 'p', "      --plot FILE     time against block size, log axes (gnuplot;\n"
	       "                      .svg or .png)\n" },
	{ 'T', "      --title TEXT    the plot's title\n" },
	{ 'q', "  -q, --quiet         no progress (on stderr)\n" },
};

/* The options every sweep over the registry's algorithms takes. */
#define SWEEP_OPTS	"asrxwgYZCJjpTqE"

struct cli;

/* A subcommand: the options it takes (getopt codes) and what it runs. */
struct bench_cmd {
	const char *name;
	const char *args;	/* its synopsis after the name */
	const char *what;	/* what it does, for its --help */
	const char *opts;
	int kind;		/* the registry's kind it runs, or -1 */
	int (*run)(struct cli *o);
};

static void usage(FILE *f);
static void cmd_usage(FILE *f, const struct bench_cmd *cmd);
static const struct bench_cmd *cmd_find(const char *name);

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
	const struct bench_cmd *cmd;	/* NULL: the flags' old spelling */
	unsigned char seen[128];	/* the options given, by getopt code */
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
			fprintf(stderr, "vcube-bench: no algorithm '%s' (vcube-bench list)\n",
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
			fprintf(stderr, "vcube-bench: no barrier '%s' (vcube-bench list)\n",
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
	case 'x': b->each = arg; break;
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
	{ "each", required_argument, NULL, 'x' },
	{ "envelope", no_argument, NULL, 'E' },
	{ "mark", no_argument, NULL, 'g' },
	{ "list", no_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 }
};

/* The long name of option @c ("json" for -j too). */
static const char *opt_name(int c)
{
	const struct option *op;

	if (c == 'j')
		c = 'J';
	for (op = opts; op->name; op++)
		if (op->val == c)
			return op->name;
	return "?";
}

/* One option of the command line into @o; 0, or -ENOENT: try --help. */
static int parse_one(struct cli *o, int c, char *arg)
{
	int ret;

	/* barrier and shift take their barriers as --algo */
	if (c == 'a' && o->cmd && o->cmd->kind == VCUBE_ALGO_SYNC)
		ret = opt_names(o, !strcmp(o->cmd->name, "shift") ? 'H' : 'B',
				arg);
	else if (c == 'a' || c == 'B' || c == 'H')
		ret = opt_names(o, c, arg);
	else if ((ret = opt_number(o, c, arg)) == -ENOENT)
		ret = opt_flag(o, c, arg);
	/* the numbers whose parser does not say what was wrong itself */
	if (ret == -EINVAL && c > 0 && strchr("srISKw", c))
		fprintf(stderr, "vcube-bench: bad --%s '%s'\n", opt_name(c), arg);
	if (!ret && c >= 0 && (size_t)c < sizeof(o->seen))
		o->seen[c] = 1;
	return ret;
}

/*
 * The command line into @o: 0, 1 (--help or --version: exit 0) or 2 (exit
 * 2). A first word that is not an option names the subcommand.
 */
static int parse(int argc, char **argv, struct cli *o)
{
	int c, ret;

	vcube_tool_name(argv, "vcube-bench");
	if (argc > 1 && argv[1][0] != '-') {
		o->cmd = cmd_find(argv[1]);
		if (!o->cmd) {
			fprintf(stderr, "vcube-bench: no command '%s'\n", argv[1]);
			return vcube_tool_try_help("vcube-bench");
		}
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	while ((c = getopt_long(argc, argv, "a:s:r:jqlhV", opts, NULL)) != -1) {
		if (c == 'h') {
			if (o->cmd)
				cmd_usage(stdout, o->cmd);
			else
				usage(stdout);
			return 1;
		}
		if (c == 'V') {
			vcube_tool_version("vcube-bench");
			return 1;
		}
		ret = parse_one(o, c, optarg);
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

/* --barrier, --shift or --costs: Seidel & Davis's studies (vcube-bench/sync.c). */
static int run_sync(struct cli *o)
{
	struct sync_study *sy = &o->sy;
	struct bench *b = &o->b;

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
	sy->each = b->each;
	return sync_study_run(sy);
}

static int run_barrier(struct cli *o)
{
	o->sy.kind = SYNC_BARRIER;
	return run_sync(o);
}

static int run_shift(struct cli *o)
{
	o->sy.kind = SYNC_SHIFT;
	return run_sync(o);
}

/* Seidel's costs; over MPI, a ping-pong fitted into a profile. */
static int run_costs(struct cli *o)
{
	if (bench_mpi) {
		if (!o->sizes_given)
			parse_sizes(&o->b, "1..65536");
		return bench_mpi->costs(o->reps_given ? o->b.reps : 50,
					o->b.sizes, o->b.nsizes);
	}
	o->sy.kind = SYNC_COSTS;
	return run_sync(o);
}

/* Ponnusamy et al.'s Gaussian elimination (vcube-bench/ge.c). */
static int run_ge(struct cli *o)
{
	struct ge_study *ge = &o->ge;
	struct bench *b = &o->b;
	unsigned int i;

	ge->nalgos = 0;
	for (i = 0; i < b->nalgos; i++) {
		if (vcube_algo_find(VCUBE_ALGO_BCAST, b->algos[i], NULL)) {
			fprintf(stderr, "vcube-bench: ge's --algo is among cm5_control,tree\n");
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

/* Sweep the registry's algorithms of the command's kind (vcube-bench/sweep.c). */
static int run_sweep(struct cli *o)
{
	struct bench *b = &o->b;

	b->reduce = !strcmp(o->cmd->name, "reduce");
	b->bcast = !strcmp(o->cmd->name, "bcast");
	b->fft = !strcmp(o->cmd->name, "fft");
	return bench_sweep_run(b);
}

static int run_list(struct cli *o)
{
	return vcube_tool_algos_print(stdout, VCUBE_TOOL_ALL_KINDS,
				      o->b.json) ? 1 : 0;
}

/* redraw: saved results (vcube-bench/plot.c). */
static int run_from(struct cli *o)
{
	static struct bench files[16];
	struct bench *b = &o->b;
	unsigned int i;
	int ret;

	if (b->paper && !b->regions) {
		fprintf(stderr, "vcube-bench: --paper marks the cells of --regions: it needs --regions\n");
		return 2;
	}
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
	/* --each's file: probed as --plot's, so a bad path fails now */
	if (o->b.each) {
		f = fopen(o->b.each, "a");
		if (!f) {
			snprintf(why, sizeof(why), "--each %.256s: %s",
				 o->b.each, strerror(errno));
			*status = 1;
			return why;
		}
		fclose(f);
	}
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
	fprintf(stderr, "vcube-bench: --transport mpi runs %s: %s%s\n",
		slash ? path : "vcube-bench-mpi", slash ? strerror(errno) :
		"where is vcube-bench?", errno == ENOENT ?
		" (Debian: the vcube-tools-mpi package)" : "");
	return 1;
}

/* What vcube-bench-mpi runs: the sweep, or --costs; 0 to go on. */

#define SWEEP_ARGS	"[--algo LIST] [--sizes LIST] [--reps N] [--csv|--json] [--plot FILE]"

static const struct bench_cmd cmds[] = {
	{ "exchange", SWEEP_ARGS,
	  "Time complete exchanges: for every algorithm and block size, --reps\n"
	  "exchanges, each after a barrier; a repetition's time is the slowest\n"
	  "rank's. Block sizes default to 1..4096.",
	  SWEEP_OPTS "I", VCUBE_ALGO_XCHG, run_sweep },
	{ "irregular", "--density D [--one-way] [--seed N] [--algo ls,ps,bs,gs] ...",
	  "Irregular communication: a seeded random pattern in which a fraction\n"
	  "D of the pairs talk, each a block, scheduled by the linear, pairwise,\n"
	  "balanced or greedy scheduler (Ponnusamy et al., sec. 5), then run.",
	  SWEEP_OPTS "DOS", VCUBE_ALGO_IRREGULAR, run_sweep },
	{ "reduce", SWEEP_ARGS,
	  "Global sums: every rank gets the sum of 64-bit integers; sizes are\n"
	  "bytes per rank, a multiple of 8.",
	  SWEEP_OPTS, VCUBE_ALGO_REDUCE, run_sweep },
	{ "bcast", SWEEP_ARGS,
	  "Broadcasts from rank 0; sizes are bytes.",
	  SWEEP_OPTS, VCUBE_ALGO_BCAST, run_sweep },
	{ "fft", "[--flop-ns X] " SWEEP_ARGS,
	  "2-D FFTs of N x N complex doubles, the transpose by each --algo;\n"
	  "--sizes are N (powers of two, multiples of the ranks); every output\n"
	  "is checked against the known transform.",
	  SWEEP_OPTS "P", VCUBE_ALGO_XCHG, run_sweep },
	{ "ge", "[--algo cm5_control,tree] [--sizes N,...] [--elem-ns X] [--csv|--json]",
	  "Gaussian elimination of N x (N+1) (--sizes are N, multiples of the\n"
	  "ranks; default 64,128,256,512): each operation's time per iteration,\n"
	  "the estimate and the measured time (Ponnusamy et al. Tables 7, 8),\n"
	  "with --algo's reductions and broadcast.",
	  "aseCJjqZ", VCUBE_ALGO_BCAST, run_ge },
	{ "barrier", "[--algo LIST] [--skew LIST] [--reps N] [--csv|--json] [--plot FILE]",
	  "Barriers (Seidel & Davis): the cost and the exit spread with one rank\n"
	  "late by each --skew; over MPI also MPI_Barrier.",
	  "aKrxCJjpTqZ", VCUBE_ALGO_SYNC, run_barrier },
	{ "shift", "[--algo LIST|none] [--unforced] [--sizes LIST] ...",
	  "A one-hop shift on the Gray-code ring after each barrier of --algo\n"
	  "(or none); --sizes are its bytes (default 4096..65536); success:\n"
	  "within 1 ms of a m + b_s (b_l with --unforced).",
	  "asrxUCJjpTqZ", VCUBE_ALGO_SYNC, run_shift },
	{ "costs", "[--sizes LIST] [--reps N] [--csv|--json]",
	  "The measured b_s, s, b_l and a, and the smallest message for which\n"
	  "RDS pays (Seidel Table III); over MPI (mpirun -n 2 ... --transport\n"
	  "mpi > FILE.profile): a ping-pong of ranks 0 and 1 over --sizes\n"
	  "(default 1..65536, --reps 50), alpha and beta fitted on every other\n"
	  "size, written as a profile for --predict.",
	  "srCJjqZ", -1, run_costs },
	{ "redraw", "--from FILE.csv... [--plot OUT|--regions OUT [--paper FILE]]",
	  "Redraw results saved with --csv, without running: the table (text,\n"
	  "--csv, --json) and --plot for one file; --regions for one file per\n"
	  "hypercube dimension.",
	  "FpRWTECJj", -1, run_from },
	{ "list", "[--json]",
	  "List the algorithms of every kind, with what each needs.",
	  "Jj", -1, run_list },
};

#define NCMDS	(sizeof(cmds) / sizeof(cmds[0]))

static const struct bench_cmd *cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* The flags that chose a command before subcommands, and the command. */
static const struct {
	int c;
	const char *cmd;
} old_modes[] = {
	{ 'l', "list" }, { 'F', "redraw" }, { 'B', "barrier" },
	{ 'H', "shift" }, { 'M', "costs" }, { 'G', "ge" }, { 'X', "reduce" },
	{ 'b', "bcast" }, { 'f', "fft" }, { 'D', "irregular" },
};

/* Rank 0's, or a lone process's: one line for the job, not one a rank. */
static int first_rank(void)
{
	static const char *const vars[] = {
		"VCUBE_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
	};
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		v = getenv(vars[i]);
		if (v && strcmp(v, "0"))
			return 0;
	}
	return 1;
}

/*
 * No subcommand: the flags' old spelling. Its mode flag (one at most)
 * names the command, and a notice says how it is spelt now.
 */
static int old_spelling(struct cli *o)
{
	const char *name = "exchange";
	int mode = 0;
	size_t i;

	for (i = 0; i < sizeof(old_modes) / sizeof(old_modes[0]); i++) {
		if (!o->seen[old_modes[i].c])
			continue;
		if (mode) {
			fprintf(stderr, "vcube-bench: --%s and --%s: one at a time (now subcommands: vcube-bench --help)\n",
				opt_name(mode), opt_name(old_modes[i].c));
			return -EINVAL;
		}
		mode = old_modes[i].c;
		name = old_modes[i].cmd;
	}
	if ((mode == 'B' || mode == 'H') && o->seen['a']) {
		fprintf(stderr, "vcube-bench: --%s takes the barriers, not --algo\n",
			opt_name(mode));
		return -EINVAL;
	}
	o->cmd = cmd_find(name);
	if (mode != 'D' && mode != 'F')	/* options of their commands too */
		o->seen[mode] = 0;
	o->seen['B'] = o->seen['H'] = 0;	/* the barriers: --algo's */
	if (first_rank())
		fprintf(stderr, "vcube-bench: this is 'vcube-bench %s' now: the flags' old spelling goes in the next release\n",
			name);
	return 0;
}

/* Every option given is one of the command's, or it is said. */
static int cmd_check(struct cli *o)
{
	char with[160];
	size_t c, i;

	if (!o->cmd && old_spelling(o))
		return -EINVAL;
	for (c = 0; c < sizeof(o->seen); c++) {
		if (!o->seen[c] || strchr(o->cmd->opts, (int)c))
			continue;
		with[0] = '\0';
		for (i = 0; i < NCMDS; i++)
			if (strchr(cmds[i].opts, (int)c) &&
			    strlen(with) + strlen(cmds[i].name) + 2 < sizeof(with))
				sprintf(with + strlen(with), "%s%s",
					with[0] ? ", " : "", cmds[i].name);
		fprintf(stderr, "vcube-bench %s: --%s is not one of its options%s%s%s\n",
			o->cmd->name, opt_name((int)c),
			with[0] ? " (it is of: " : "", with, with[0] ? ")" : "");
		return -EINVAL;
	}
	/* what a command cannot run without */
	if (!strcmp(o->cmd->name, "irregular") && !o->seen['D']) {
		fprintf(stderr, "vcube-bench: irregular needs --density D\n");
		return -EINVAL;
	}
	if (!strcmp(o->cmd->name, "redraw") && !o->seen['F']) {
		fprintf(stderr, "vcube-bench: redraw needs --from FILE.csv\n");
		return -EINVAL;
	}
	return 0;
}

/* What vcube-bench-mpi runs: the sweeps, barrier and costs. */
static const char *mpi_conflict(struct cli *o)
{
	if (!bench_mpi)
		return NULL;
	if (!strcmp(o->cmd->name, "shift"))
		return "shift runs on the vcube device only (vcube-run, not --transport mpi)";
	if (!strcmp(o->cmd->name, "ge"))
		return "ge runs on the vcube device only (vcube-run, not --transport mpi)";
	return NULL;
}

/* vcube-bench --help: the subcommands. */
static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: vcube-run -n N vcube-bench COMMAND [OPTIONS]\n"
		"       mpirun -n N vcube-bench COMMAND --transport mpi [OPTIONS]\n"
		"       vcube-bench redraw --from FILE.csv ... [OPTIONS]\n\n"
		"Time the papers' communication algorithms on vcube; every byte\n"
		"received is checked. COMMAND is one of:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].args);
	fprintf(f,
		"\n'vcube-bench COMMAND --help' lists a command's options.\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n");
}

/* vcube-bench CMD --help: what @cmd does and the options it takes. */
static void cmd_usage(FILE *f, const struct bench_cmd *cmd)
{
	size_t i;

	fprintf(f, "usage: vcube-bench %s %s\n\n%s\n", cmd->name, cmd->args,
		cmd->what);
	for (i = 0; i < sizeof(opt_help) / sizeof(opt_help[0]); i++)
		if (strchr(cmd->opts, opt_help[i].c))
			fputs(opt_help[i].text, f);
	fputs("  -h, --help          this text\n", f);
	if (cmd->kind >= 0) {
		fputc('\n', f);
		vcube_tool_algos_names(f, "algorithms:", 1U << cmd->kind);
	}
}



/* The command line read and checked: -1 to run it, else the exit status. */
static int setup(int argc, char **argv, struct cli *o)
{
	const char *why;
	int ret;

	o->b.reps = 3;
	o->b.seed = 1;
	parse_sizes(&o->b, "1..4096");
	ret = parse(argc, argv, o);
	if (ret)
		return ret == 1 ? 0 : 2;
	if (cmd_check(o))
		return 2;
	why = mpi_conflict(o);
	if (why) {
		fprintf(stderr, "vcube-bench: %s\n", why);
		return 2;
	}
	if (bench_mpi && !o->warmup_given)
		o->b.warmup = 1;
	why = output_conflict(o, &ret);
	if (why) {
		fprintf(stderr, "vcube-bench: %s\n", why);
		return ret;
	}
	return -1;
}

/*
 * Every rank reads the same command line and finds the same fault in it:
 * rank 0 says it and the others keep quiet, so that a job says it once,
 * not once per rank. (What goes wrong while running is each rank's own.)
 */
int main(int argc, char **argv)
{
	static struct cli o;
	int saved = -1, null = -1, ret;

	ret = transport(argc, argv);
	if (ret)
		return ret;
	if (!first_rank()) {
		fflush(stderr);
		saved = dup(STDERR_FILENO);
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (saved >= 0 && null >= 0)
			dup2(null, STDERR_FILENO);
	}
	ret = setup(argc, argv, &o);
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (null >= 0)
		close(null);
	return ret >= 0 ? ret : o.cmd->run(&o);
}
