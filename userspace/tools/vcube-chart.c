// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-chart: Bokhari's link-usage chart (1991, Figs. 5-9) of a complete
 * exchange, from what the kernel recorded. One row per source->destination
 * pair, one column per channel (grouped by the node it leaves, dimensions
 * high to low); each mark is the time step at which the channel carried
 * that message: 1 + the message's start after the first one, in units of
 * the shortest transfer (the time of one block), rounded.
 *
 *   vcube-chart naive --len 4096          (starts itself under vcube-run)
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "common/algos.h"
#include "common/cli.h"
#include "common/json_print.h"
#include "common/timeline.h"
#include "vcube.h"

struct opts {
	const char *algo;
	const char *timeline;	/* --timeline FILE */
	const char *tl_nodes;	/* --timeline-nodes LIST */
	unsigned int *rows, nrows;	/* its nodes, ascending */
	uint64_t from, until;	/* --from NS, --until NS; until 0: none */
	uint64_t len;
	int json;
	int list;
	int usage;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vcube-chart [--len BYTES] [--list|-j|--usage] ALGO\n"
		"       vcube-chart [--len BYTES] --timeline FILE [--timeline-nodes LIST]\n"
		"                   [--from NS] [--until NS] ALGO\n\n"
		"Run the complete exchange ALGO once on every node of the loaded\n"
		"hypercube (through vcube-run) and print the link-usage chart of\n"
		"Bokhari's Figs. 5-9 from the kernel's trace of channel use.\n"
		"      --len BYTES  block size (default 4096)\n"
		"      --timeline FILE  instead, on any network: the run's time-space\n"
		"                   diagram (.svg or .png, gnuplot), nodes against\n"
		"                   virtual time, each message a line from sender to\n"
		"                   receiver, transmissions and receptions as bars\n"
		"      --timeline-nodes LIST  only these nodes' rows (0-15, 0,4,8-11);\n"
		"                   a message to or from a node not drawn is a stub\n"
		"      --from NS, --until NS  the time axis's start and end, virtual\n"
		"                   ns from the run's first transfer\n"
		"  -l, --list       one line per message: src dst step channels\n"
		"  -j, --json       the same as JSON\n"
		"      --usage      x for a link used, not its step: Fig. 5\n"
		"  -h, --help       this text\n"
		"  -V, --version    the version\n"
		"naive needs eject=0 to match Fig. 6. ALGO, a complete exchange:\n");
	vcube_tool_algos_names(f, " ", 1U << VCUBE_ALGO_XCHG);
}

/* --@name's @arg, virtual ns: 0 (--until: 1) .. 2^50, into *@v. */
static int chart_ns(const char *name, const char *arg, uint64_t *v)
{
	uint64_t min = name[0] == 'u';
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-' || *v < min ||
	    *v > (1ULL << 50)) {
		fprintf(stderr, "vcube-chart: bad --%s '%s' (%" PRIu64 " .. %llu)\n",
			name, arg, min, 1ULL << 50);
		return -EINVAL;
	}
	return 0;
}

static char mark(unsigned int step)
{
	static const char digits[] = "123456789abcdefghijklmnopqrstuvwxyz";

	return step >= 1 && step <= 35 ? digits[step - 1] : '#';
}

static void bin(char *s, unsigned int v, unsigned int d)
{
	unsigned int i;

	for (i = 0; i < d; i++)
		s[i] = v >> (d - 1 - i) & 1 ? '1' : '0';
	s[d] = '\0';
}

/* A data transfer of the run: its block size, a message sent after m0. */
static int in_run(const struct vcube_trace_rec *r, const struct opts *o,
		  unsigned int n, unsigned int d, uint32_t m0)
{
	return r->kind == VCUBE_TRACE_KIND_DATA && r->bytes == o->len &&
	       r->msg - m0 <= INT32_MAX && r->src < n && r->dst < n &&
	       r->hop <= d;
}

/* The run's messages: per pair (src * n + dst), its step and channels. */
struct chart {
	unsigned int n, d;
	unsigned int *step, *hops;	/* per pair; hops 0: no message */
	int32_t *chan;			/* [pair][hop] */
	uint64_t unit;			/* the shortest transfer, ns */
	unsigned int maxstep;
	size_t nmsg;
};

/*
 * Each transfer of the run in the trace @r: its pair's step (1 + its start
 * after the first, in units of the shortest transfer) and its channels.
 */
static void chart_collect(struct chart *ch, const struct opts *o,
			  const struct vcube_trace_rec *r, size_t nr,
			  uint32_t m0)
{
	unsigned int n = ch->n, d = ch->d, t;
	uint64_t first = UINT64_MAX;
	size_t i, k;

	ch->unit = UINT64_MAX;
	for (i = 0; i < nr; i++) {
		if (!in_run(&r[i], o, n, d, m0))
			continue;
		if (r[i].start < first)
			first = r[i].start;
		if (r[i].end - r[i].start < ch->unit)
			ch->unit = r[i].end - r[i].start;
	}
	for (i = 0; i < nr; i++) {
		if (!in_run(&r[i], o, n, d, m0))
			continue;
		k = (size_t)r[i].src * n + r[i].dst;
		t = (unsigned int)((r[i].start - first + ch->unit / 2) /
				   ch->unit) + 1;
		if (!ch->hops[k])
			ch->nmsg++;
		if (ch->step[k] && ch->step[k] != t)
			fprintf(stderr, "vcube-chart: %u->%u at steps %u and %u\n",
				r[i].src, r[i].dst, ch->step[k], t);
		ch->step[k] = t;
		ch->chan[k * (d + 1) + r[i].hop] = (int32_t)r[i].channel;
		if (r[i].hop + 1U > ch->hops[k])
			ch->hops[k] = r[i].hop + 1U;
		if (t > ch->maxstep)
			ch->maxstep = t;
	}
}

/* One message's line of --list, or its object in --json's array. */
static void chart_message(struct vcube_print *p, const struct chart *ch,
			  size_t k)
{
	unsigned int t;

	vcube_print_open(p, NULL, '{');
	vcube_print_uint(p, VCUBE_PRINT_ANY, "src", "%llu", k / ch->n);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "dst", " %llu", k % ch->n);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "step", " %llu", ch->step[k]);
	vcube_print_open(p, "channels", '[');
	for (t = 0; t < ch->hops[k]; t++)
		vcube_print_int(p, VCUBE_PRINT_ANY, NULL, " %lld",
				ch->chan[k * (ch->d + 1) + t]);
	vcube_print_close(p);
	vcube_print_text(p, "\n");
	vcube_print_close(p);
}

/* --json, or --list (one line per message: src dst step channels). */
static void chart_messages(const struct chart *ch, const struct opts *o)
{
	struct vcube_print p;
	size_t k;

	/* JSON: the object and its messages written as they go */
	vcube_print_init(&p, stdout, o->json,
			 JSON_C_TO_STRING_PLAIN | VCUBE_PRINT_LINES, 2);
	vcube_print_open(&p, NULL, '{');
	vcube_print_str(&p, VCUBE_PRINT_JSON, "algo", NULL, o->algo);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "dim", NULL, ch->d);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "bytes", NULL, o->len);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "unit_ns", NULL, ch->unit);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "steps", NULL, ch->maxstep);
	vcube_print_open(&p, "messages", '[');
	for (k = 0; k < (size_t)ch->n * ch->n; k++)
		if (ch->hops[k])
			chart_message(&p, ch, k);
	vcube_print_end(&p);
}

/*
 * The chart: a row per pair, a column per channel. A hypercube's channel
 * leaving node v across dimension j is v * d + j (kernel/core/topology.c);
 * columns high to low.
 */
static void chart_grid(const struct chart *ch, const struct opts *o)
{
	unsigned int n = ch->n, d = ch->d, s, t, c, cn, v, j;
	char a[16], b[16], row[4096];
	size_t i, k;

	if (o->usage)
		printf("# link usage of the complete exchange, d = %u: x where the route uses the link\n",
		       d);
	else
		printf("# %s, d = %u, %" PRIu64 "-byte blocks: %u steps of %.1f us\n",
		       o->algo, d, o->len, ch->maxstep, ch->unit / 1e3);
	printf("%*s", 2 * d + 3, "");
	for (c = 0; c < n; c++) {
		bin(a, c, d);
		printf(" %-*s", d, a);
	}
	printf("\n");
	for (s = 0; s < n; s++)
		for (t = 0; t < n; t++) {
			k = (size_t)s * n + t;
			memset(row, '.', (size_t)n * (d + 1));
			for (c = 0; c < n; c++)
				row[c * (d + 1)] = ' ';
			row[(size_t)n * (d + 1)] = '\0';
			for (i = 0; i < ch->hops[k]; i++) {
				cn = (unsigned int)ch->chan[k * (d + 1) + i];
				v = cn / d;
				j = cn % d;
				row[v * (d + 1) + 1 + (d - 1 - j)] =
					o->usage ? 'x' : mark(ch->step[k]);
			}
			bin(a, s, d);
			bin(b, t, d);
			printf("%s->%s%s\n", a, b, row);
		}
}

/*
 * Before the run: messages sent so far (topo-get), low 32 bits as trace
 * records say it, and the seq the run's first trace record will have.
 */
static int net_marks(uint32_t *m0, uint64_t *s0)
{
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	int ret;

	ret = vcube_nl_open(&nl);
	if (ret)
		return ret;
	ret = vcube_nl_topo_get(nl, &t);
	if (!ret)
		ret = vcube_nl_trace_seq(nl, s0);
	vcube_nl_close(nl);
	if (!ret)
		*m0 = (uint32_t)t.messages;
	return ret;
}

/*
 * The trace (trace-get). Nodes leaving as the run ends change it: libvcube
 * reads it again until one dump saw it whole.
 */
static int read_trace(struct vcube_trace_rec **r, size_t *nr)
{
	struct vcube_nl *nl;
	int ret;

	ret = vcube_nl_open(&nl);
	if (ret)
		return ret;
	ret = vcube_nl_trace_dump(nl, r, nr, NULL);
	vcube_nl_close(nl);
	return ret;
}

/* A record of the run: a message sent after m0, between its nodes. */
static int of_run(const struct vcube_trace_rec *r, unsigned int n, uint32_t m0)
{
	return r->msg - m0 <= INT32_MAX && r->src < n && r->dst < n;
}

/*
 * Rank 0, --timeline: the run's records, drawn from its first start. Every
 * run starts at virtual time 0: the waits of earlier runs overlap this
 * one's in time, and only their seq (below @s0) tells them apart.
 */
static int timeline(const struct opts *o, unsigned int n, uint32_t m0,
		    uint64_t s0)
{
	struct vcube_trace_rec *r;
	char title[160];
	struct vcube_tl tl = { .nodes = n, .title = title,
			       .origin = UINT64_MAX, .rows = o->rows,
			       .nrows = o->nrows, .from = o->from,
			       .until = o->until };
	size_t nr, i, k = 0;
	int ret;

	ret = read_trace(&r, &nr);
	if (ret) {
		fprintf(stderr, "vcube-chart: reading the trace: %s\n", strerror(-ret));
		return 1;
	}
	/*
	 * From the first message's send; the waits from then on. Of those,
	 * only what the diagram draws is kept (--timeline-nodes, --from).
	 */
	for (i = 0; i < nr; i++)
		if (r[i].kind != VCUBE_TRACE_KIND_WAIT && of_run(&r[i], n, m0) &&
		    r[i].start < tl.origin)
			tl.origin = r[i].start;
	for (i = 0; i < nr; i++)
		if ((r[i].kind == VCUBE_TRACE_KIND_WAIT ?
		     r[i].src < n && r[i].end > tl.origin && r[i].seq >= s0 &&
		     tl.origin != UINT64_MAX : of_run(&r[i], n, m0)) &&
		    vcube_tool_timeline_keeps(&tl, &r[i])) {
			r[k] = r[i];
			if (r[k].start < tl.origin)
				r[k].start = tl.origin;
			k++;
		}
	if (tl.origin == UINT64_MAX) {
		fprintf(stderr, "vcube-chart: the trace holds none of the run's messages (load the module with trace=N)\n");
		free(r);
		return 1;
	}
	snprintf(title, sizeof(title), "%s, %u nodes, %" PRIu64 " B per block (vcube module)",
		 o->algo, n, o->len);
	tl.rec = r;
	tl.nrec = k;
	ret = vcube_tool_timeline(&tl, o->timeline);
	if (ret)
		fprintf(stderr, "vcube-chart: --timeline %s: %s\n", o->timeline,
			strerror(-ret));
	free(r);
	return ret ? 1 : 0;
}

/* Rank 0: turn the trace into the chart. */
static int chart(const struct opts *o, unsigned int n, unsigned int d,
		 uint32_t m0)
{
	struct chart ch = { .n = n, .d = d };
	struct vcube_trace_rec *r;
	size_t nr;
	int ret;

	ret = read_trace(&r, &nr);
	if (ret) {
		fprintf(stderr, "vcube-chart: reading the trace: %s\n", strerror(-ret));
		return 1;
	}
	ch.step = calloc((size_t)n * n, sizeof(*ch.step));
	ch.hops = calloc((size_t)n * n, sizeof(*ch.hops));
	ch.chan = malloc((size_t)n * n * (d + 1) * sizeof(*ch.chan));
	ret = ch.step && ch.hops && ch.chan ? 0 : 1;
	if (!ret)
		chart_collect(&ch, o, r, nr, m0);
	free(r);
	if (!ret && ch.nmsg != (size_t)n * (n - 1)) {
		fprintf(stderr, "vcube-chart: the trace holds %zu of the %u messages "
			"(load the module with a larger trace=?)\n", ch.nmsg,
			n * (n - 1));
		ret = 1;
	}
	if (!ret && (o->json || o->list))
		chart_messages(&ch, o);
	else if (!ret)
		chart_grid(&ch, o);
	free(ch.step);
	free(ch.hops);
	free(ch.chan);
	return ret;
}

static int run(const struct opts *o)
{
	const struct vcube_node_info *in;
	struct vcube_comm *c;
	uint8_t *sb, *rb;
	uint64_t s0 = 0;
	uint32_t m0 = 0;
	unsigned int n, d = 0;
	int ret, out = 0;

	ret = vcube_comm_open(&c);
	if (ret) {
		fprintf(stderr, "vcube-chart: %s\n", strerror(-ret));
		return 1;
	}
	in = vcube_comm_info(c);
	n = vcube_comm_size(c);
	while ((1U << d) < n)
		d++;
	if ((!o->timeline && in->topology != VCUBE_TOPOLOGY_HYPERCUBE) ||
	    n != in->nodes) {
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-chart: needs %s, all of its nodes\n",
				o->timeline ? "the network" : "a hypercube (or --timeline)");
		return 2;
	}
	/* launch() said it; started by hand under vcube-run, rank 0 does */
	if (vcube_tool_timeline_fits(vcube_comm_rank(c) ? NULL : "vcube-chart",
				     o->tl_nodes, o->rows, o->nrows, n))
		return 2;
	ret = vcube_algo_usable(c, VCUBE_ALGO_XCHG, o->algo);
	if (ret) {
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-chart: %s: %s\n", o->algo,
				ret == -ENOENT ? "no such algorithm" : "does not run here");
		return 2;
	}
	sb = calloc(n, o->len + 1);
	rb = calloc(n, o->len + 1);
	if (!sb || !rb)
		return 1;
	/*
	 * Every message sent after rank 0 read the count is the run's:
	 * the second barrier keeps the exchange from starting before.
	 */
	ret = vcube_comm_barrier(c);
	if (!ret && vcube_comm_rank(c) == 0)
		ret = net_marks(&m0, &s0);
	if (!ret)
		ret = vcube_comm_barrier(c);
	if (!ret)
		ret = vcube_xchg_run(c, o->algo, sb, rb, o->len, NULL);
	if (!ret)
		ret = vcube_comm_barrier(c);
	if (ret) {
		fprintf(stderr, "vcube-chart: rank %u: %s\n", vcube_comm_rank(c),
			strerror(-ret));
		return 1;
	}
	if (vcube_comm_rank(c) == 0)
		out = o->timeline ? timeline(o, n, m0, s0) :
				    chart(o, n, d, m0);
	free(sb);
	free(rb);
	vcube_comm_close(c);
	return out;
}

/* Not under vcube-run: start every node of the network through it. */
static int launch(const struct opts *o, int argc, char **argv)
{
	struct vcube_net_desc net;
	char self[PATH_MAX], np[16], run[PATH_MAX + 16], *slash;
	char **args;
	ssize_t l;
	int i;

	if (vcube_tool_net("vcube-chart", &net))
		return 1;
	/* the nodes drawn are the network's, said before it runs */
	if (vcube_tool_timeline_fits("vcube-chart", o->tl_nodes, o->rows,
				     o->nrows, net.nodes))
		return 2;
	l = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (l <= 0)
		return 1;
	self[l] = '\0';
	snprintf(np, sizeof(np), "%u", net.nodes);
	/* vcube-run from the same directory, else from PATH */
	snprintf(run, sizeof(run), "%s", self);
	slash = strrchr(run, '/');
	strcpy(slash + 1, "vcube-run");
	args = calloc(argc + 5, sizeof(*args));
	if (!args)
		return 1;
	args[0] = run;
	args[1] = "-n";
	args[2] = np;
	args[3] = self;
	for (i = 1; i < argc; i++)
		args[3 + i] = argv[i];
	if (access(run, X_OK))
		args[0] = "vcube-run";
	execvp(args[0], args);
	fprintf(stderr, "vcube-chart: cannot start vcube-run: %s\n", strerror(errno));
	return 1;
}

/*
 * The options against each other, the node list's form (its nodes against
 * the network's in launch()), the output and the algorithm: 0, or the
 * exit status, said.
 */
static int chart_check(struct opts *o, bool from_set, bool until_set)
{
	int ret;

	if (o->timeline && (o->json || o->list || o->usage)) {
		fprintf(stderr, "vcube-chart: --timeline draws the run; --list, -j and --usage print the chart\n");
		return 2;
	}
	/* the list's form here, its nodes against the network's in launch() */
	ret = vcube_tool_timeline_opts("vcube-chart", o->timeline, o->tl_nodes,
				       from_set, o->from, until_set, o->until,
				       &o->rows, &o->nrows);
	if (ret)
		return ret == -ENOMEM ? 1 : 2;
	/* once, before vcube-run starts the nodes */
	if (o->timeline && !getenv("VCUBE_RANK") &&
	    vcube_tool_timeline_check("vcube-chart", o->timeline))
		return 2;
	if (vcube_algo_find(VCUBE_ALGO_XCHG, o->algo, NULL)) {
		fprintf(stderr, "vcube-chart: no algorithm '%s' (see vcube-bench --list)\n",
			o->algo);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "len", required_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'J' },
		{ "list", no_argument, NULL, 'L' },
		{ "usage", no_argument, NULL, 'U' },
		{ "timeline", required_argument, NULL, 'T' },
		{ "timeline-nodes", required_argument, NULL, 'R' },
		{ "from", required_argument, NULL, 'F' },
		{ "until", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct opts o = { .len = 4096 };
	bool from_set = false, until_set = false;
	char *end;
	int c, ret;

	vcube_tool_name(argv, "vcube-chart");
	while ((c = getopt_long(argc, argv, "jlhV", lo, NULL)) != -1) {
		switch (c) {
		case 'N':
			errno = 0;
			o.len = strtoull(optarg, &end, 0);
			if (errno || *end || !o.len || o.len > (1 << 20)) {
				fprintf(stderr, "vcube-chart: bad --len '%s' (1 .. 1048576)\n",
					optarg);
				return 2;
			}
			break;
		case 'J':
		case 'j':
			o.json = 1;
			break;
		case 'L':
		case 'l':
			o.list = 1;
			break;
		case 'U':
			o.usage = 1;
			break;
		case 'T':
			o.timeline = optarg;
			break;
		case 'R':
			o.tl_nodes = optarg;
			break;
		case 'F':
		case 'X':
			if (chart_ns(c == 'F' ? "from" : "until", optarg,
				     c == 'F' ? &o.from : &o.until))
				return 2;
			from_set |= c == 'F';
			until_set |= c == 'X';
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return vcube_tool_version("vcube-chart");
		default:
			return vcube_tool_try_help("vcube-chart");
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "vcube-chart: %s\n", optind == argc ?
			"which algorithm? (vcube-chart --list)" :
			"one algorithm at a time");
		return vcube_tool_try_help("vcube-chart");
	}
	o.algo = argv[optind];
	ret = chart_check(&o, from_set, until_set);
	if (ret)
		return ret;
	ret = getenv("VCUBE_RANK") ? run(&o) : launch(&o, argc, argv);
	free(o.rows);
	return ret;
}
