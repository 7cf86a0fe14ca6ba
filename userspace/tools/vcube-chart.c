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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcube.h"

struct opts {
	const char *algo;
	uint64_t len;
	int json;
	int list;
	int usage;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vcube-chart [--len BYTES] [--list|--json|--usage] ALGO\n\n"
		"Run the complete exchange ALGO once on every node of the loaded\n"
		"hypercube (through vcube-run) and print the link-usage chart of\n"
		"Bokhari's Figs. 5-9 from the kernel's trace of channel use.\n"
		"  -l, --len BYTES  block size (default 4096)\n"
		"      --list       one line per message: src dst step channels\n"
		"      --json       the same as JSON\n"
		"      --usage      x for a link used, not its step: Fig. 5\n"
		"  -h, --help       this text\n"
		"ALGO is any of vcube-bench --list; naive needs eject=0 to match Fig. 6.\n");
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
	return r->kind == VCUBE_TRACE_DATA && r->bytes == o->len &&
	       r->msg - m0 <= INT32_MAX && r->src < n && r->dst < n &&
	       r->hop <= d;
}

/* Rank 0: turn the trace into the chart. */
static int chart(const struct opts *o, unsigned int n, unsigned int d,
		 uint32_t m0)
{
	struct vcube_trace_rec *r;
	size_t nr, i, k, nmsg = 0;
	uint64_t first = UINT64_MAX, unit = UINT64_MAX;
	unsigned int *step, *hops, maxstep = 0, s, t, c;
	int32_t *chan;		/* [pair][hop] */
	char a[16], b[16];
	int ret;

	ret = vcube_trace_read(NULL, &r, &nr);
	if (ret) {
		fprintf(stderr, "vcube-chart: reading the trace: %s\n", strerror(-ret));
		return 1;
	}
	step = calloc((size_t)n * n, sizeof(*step));
	hops = calloc((size_t)n * n, sizeof(*hops));
	chan = malloc((size_t)n * n * (d + 1) * sizeof(*chan));
	if (!step || !hops || !chan)
		return 1;
	for (i = 0; i < nr; i++) {
		if (!in_run(&r[i], o, n, d, m0))
			continue;
		if (r[i].start < first)
			first = r[i].start;
		if (r[i].end - r[i].start < unit)
			unit = r[i].end - r[i].start;
	}
	for (i = 0; i < nr; i++) {
		if (!in_run(&r[i], o, n, d, m0))
			continue;
		k = (size_t)r[i].src * n + r[i].dst;
		t = (unsigned int)((r[i].start - first + unit / 2) / unit) + 1;
		if (!hops[k])
			nmsg++;
		if (step[k] && step[k] != t)
			fprintf(stderr, "vcube-chart: %u->%u at steps %u and %u\n",
				r[i].src, r[i].dst, step[k], t);
		step[k] = t;
		chan[k * (d + 1) + r[i].hop] = (int32_t)r[i].channel;
		if (r[i].hop + 1U > hops[k])
			hops[k] = r[i].hop + 1U;
		if (t > maxstep)
			maxstep = t;
	}
	free(r);
	if (nmsg != (size_t)n * (n - 1)) {
		fprintf(stderr, "vcube-chart: the trace holds %zu of the %u messages "
			"(load the module with a larger trace=?)\n", nmsg, n * (n - 1));
		return 1;
	}
	if (o->json) {
		printf("{\"algo\":\"%s\",\"dim\":%u,\"bytes\":%" PRIu64
		       ",\"unit_ns\":%" PRIu64 ",\"steps\":%u,\"messages\":[",
		       o->algo, d, o->len, unit, maxstep);
		for (k = 0, c = 0; k < (size_t)n * n; k++) {
			if (!hops[k])
				continue;
			printf("%s\n{\"src\":%zu,\"dst\":%zu,\"step\":%u,\"channels\":[",
			       c++ ? "," : "", k / n, k % n, step[k]);
			for (t = 0; t < hops[k]; t++)
				printf("%s%d", t ? "," : "", chan[k * (d + 1) + t]);
			printf("]}");
		}
		printf("\n]}\n");
	} else if (o->list) {
		for (k = 0; k < (size_t)n * n; k++) {
			if (!hops[k])
				continue;
			printf("%zu %zu %u", k / n, k % n, step[k]);
			for (t = 0; t < hops[k]; t++)
				printf(" %d", chan[k * (d + 1) + t]);
			printf("\n");
		}
	} else {
		/* A hypercube's channel leaving node v across dimension j is
		 * v * d + j (kernel/core/topology.c); columns high to low. */
		if (o->usage)
			printf("# link usage of the complete exchange, d = %u: x where the route uses the link\n",
			       d);
		else
			printf("# %s, d = %u, %" PRIu64 "-byte blocks: %u steps of %.1f us\n",
			       o->algo, d, o->len, maxstep, unit / 1e3);
		printf("%*s", 2 * d + 3, "");
		for (c = 0; c < n; c++) {
			bin(a, c, d);
			printf(" %-*s", d, a);
		}
		printf("\n");
		for (s = 0; s < n; s++)
			for (t = 0; t < n; t++) {
				char row[4096];

				k = (size_t)s * n + t;
				memset(row, '.', (size_t)n * (d + 1));
				for (c = 0; c < n; c++)
					row[c * (d + 1)] = ' ';
				row[(size_t)n * (d + 1)] = '\0';
				for (i = 0; i < hops[k]; i++) {
					unsigned int ch = (unsigned int)chan[k * (d + 1) + i];
					unsigned int v = ch / d, j = ch % d;

					row[v * (d + 1) + 1 + (d - 1 - j)] =
						o->usage ? 'x' : mark(step[k]);
				}
				bin(a, s, d);
				bin(b, t, d);
				printf("%s->%s%s\n", a, b, row);
			}
	}
	free(step);
	free(hops);
	free(chan);
	return 0;
}

static int run(const struct opts *o)
{
	const struct vcube_node_info *in;
	struct vcube_comm *c;
	uint8_t *sb, *rb;
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
	if (in->topology != VCUBE_TOPOLOGY_HYPERCUBE || n != in->nodes) {
		if (vcube_comm_rank(c) == 0)
			fprintf(stderr, "vcube-chart: needs a hypercube, all of its nodes\n");
		return 2;
	}
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
	 * Every message sent after rank 0 read stats/messages is the run's:
	 * the second barrier keeps the exchange from starting before.
	 */
	ret = vcube_comm_barrier(c);
	if (!ret && vcube_comm_rank(c) == 0)
		ret = vcube_net_messages(NULL, &m0);
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
		out = chart(o, n, d, m0);
	free(sb);
	free(rb);
	vcube_comm_close(c);
	return out;
}

/* Not under vcube-run: start every node of the network through it. */
static int launch(int argc, char **argv)
{
	struct vcube_net_desc net;
	char self[PATH_MAX], np[16], run[PATH_MAX + 16], *slash;
	char **args;
	ssize_t l;
	int i;

	if (vcube_net_describe(NULL, &net)) {
		fprintf(stderr, "vcube-chart: no vcube network (is the module loaded?)\n");
		return 1;
	}
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

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "len", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'J' },
		{ "list", no_argument, NULL, 'L' },
		{ "usage", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct opts o = { .len = 4096 };
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "l:h", lo, NULL)) != -1) {
		switch (c) {
		case 'l':
			errno = 0;
			o.len = strtoull(optarg, &end, 0);
			if (errno || *end || !o.len || o.len > (1 << 20)) {
				fprintf(stderr, "vcube-chart: bad --len '%s' (1 .. 1048576)\n",
					optarg);
				return 2;
			}
			break;
		case 'J':
			o.json = 1;
			break;
		case 'L':
			o.list = 1;
			break;
		case 'U':
			o.usage = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	o.algo = argv[optind];
	if (vcube_algo_find(VCUBE_ALGO_XCHG, o.algo, NULL)) {
		fprintf(stderr, "vcube-chart: no algorithm '%s' (see vcube-bench --list)\n",
			o.algo);
		return 2;
	}
	if (!getenv("VCUBE_RANK"))
		return launch(argc, argv);
	return run(&o);
}
