// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl: look at a loaded vcube network.
 *
 *   vcubectl [-j] show                 the network: topology, shape, size
 *   vcubectl [-j] places               every node, its place and neighbours
 *   vcubectl [-j] route SRC DST        the channels a message would cross
 * and over generic netlink (libnl-genl-3):
 *   vcubectl [-j] topo                 the network and its counters
 *   vcubectl [-j] links [--sort K] [--top N] [--svg FILE]
 *   vcubectl [-j] nodes                every node's state and counters
 *   vcubectl reset                     counters afresh (CAP_NET_ADMIN)
 *   vcubectl [-j] watch                a live view of the busiest links
 * Exit status: 0 done, 1 failed (no network, kernel error), 2 bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vcube.h"

static bool json;
static const char *sysfs_root;

static void json_str(const char *key, const char *val, bool last)
{
	const char *p;

	printf("\"%s\":\"", key);
	for (p = val; *p; p++) {
		if (*p == '"' || *p == '\\')
			putchar('\\');
		if ((unsigned char)*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	printf("\"%s", last ? "" : ",");
}

static int fail(const char *what, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "vcubectl: %s: no vcube network is loaded (insmod vcube.ko ...)\n",
			what);
	else
		fprintf(stderr, "vcubectl: %s: %s\n", what, strerror(-err));
	return 1;
}

static int parse_uint(const char *s, const char *what, unsigned long long max,
		      unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (*s == '-' || !*s || *end || errno || *out > max) {
		fprintf(stderr, "vcubectl: %s: '%s' is not a number up to %llu\n",
			what, s, max);
		return -EINVAL;
	}
	return 0;
}

static int cmd_show(int argc, char **argv)
{
	struct vcube_net_desc d;
	int ret;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "vcubectl show: takes no arguments\n");
		return 2;
	}
	ret = vcube_net_describe(sysfs_root, &d);
	if (ret)
		return fail("show", ret);
	if (json) {
		putchar('{');
		json_str("topology", d.topology, false);
		json_str("shape", d.shape, false);
		printf("\"nodes\":%u,\"channels\":%u,\"diameter\":%u,",
		       d.nodes, d.channels, d.diameter);
		json_str("profile", d.profile, false);
		printf("\"seed\":%llu}\n", d.seed);
	} else {
		printf("%s %s nodes %u channels %u diameter %u profile %s seed %llu\n",
		       d.topology, d.shape, d.nodes, d.channels, d.diameter,
		       d.profile, d.seed);
	}
	return 0;
}

static int cmd_places(int argc, char **argv)
{
	struct vcube_node_desc n;
	struct vcube_net_desc d;
	unsigned int i, k;
	int ret;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "vcubectl places: takes no arguments\n");
		return 2;
	}
	ret = vcube_net_describe(sysfs_root, &d);
	if (ret)
		return fail("places", ret);
	if (json)
		putchar('[');
	for (i = 0; i < d.nodes; i++) {
		ret = vcube_node_describe(sysfs_root, i, &n);
		if (ret) {
			if (json)
				printf("]\n");
			return fail("places", ret);
		}
		if (json) {
			printf("%s{\"node\":%u,", i ? "," : "", n.node);
			json_str("coords", n.coords, false);
			printf("\"neighbors\":[");
			for (k = 0; k < n.nneighbors; k++)
				printf("%s%u", k ? "," : "", n.neighbors[k]);
			printf("],\"owner\":%d}", n.owner);
			continue;
		}
		printf("node %u coords %s neighbors", n.node, n.coords);
		for (k = 0; k < n.nneighbors; k++)
			printf(" %u", n.neighbors[k]);
		if (n.owner)
			printf(" owner %d", n.owner);
		putchar('\n');
	}
	if (json)
		printf("]\n");
	return 0;
}

static void vertex(char *buf, size_t len, unsigned int level, unsigned int v)
{
	if (level)
		snprintf(buf, len, "L%u:%u", level, v);
	else
		snprintf(buf, len, "%u", v);
}

static int cmd_route(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cookie", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long src, dst, cookie = 0;
	struct vcube_node_info info;
	struct vcube_hop *hops = NULL;
	struct vcube_node *node;
	char from[24], to[24];
	int c, n, i, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_uint(optarg, "--cookie", UINT64_MAX, &cookie))
				return 2;
			break;
		case 'h':
			printf("usage: vcubectl route [--cookie N] SRC DST\n"
			       "The channels a message from SRC to DST crosses. Binds node SRC\n"
			       "for the moment of the query, so SRC must not be in use.\n"
			       "--cookie N: per-message value that, with the seed, fixes the fat\n"
			       "            tree's random up-routing (default 0)\n");
			return 0;
		default:
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: vcubectl route [--cookie N] SRC DST\n");
		return 2;
	}
	if (parse_uint(argv[optind], "SRC", UINT32_MAX, &src) ||
	    parse_uint(argv[optind + 1], "DST", UINT32_MAX, &dst))
		return 2;
	ret = vcube_node_open((unsigned int)src, &node);
	if (ret)
		return fail("route: binding the source node", ret);
	ret = vcube_node_info(node, &info);
	if (!ret && dst >= info.nodes) {
		fprintf(stderr, "vcubectl: route: DST %llu is not a node (0..%u)\n",
			dst, info.nodes - 1);
		vcube_node_close(node);
		return 2;
	}
	if (!ret) {
		hops = calloc(info.diameter + 1, sizeof(*hops));
		ret = hops ? 0 : -ENOMEM;
	}
	n = ret ? ret : vcube_node_route(node, (unsigned int)dst, cookie, hops,
					 info.diameter + 1);
	vcube_node_close(node);
	if (n < 0) {
		free(hops);
		return fail("route", n);
	}
	if (json) {
		printf("{\"src\":%llu,\"dst\":%llu,\"cookie\":%llu,\"hops\":[",
		       src, dst, cookie);
		for (i = 0; i < n; i++)
			printf("%s{\"channel\":%u,\"from\":%u,\"from_level\":%u,\"to\":%u,\"to_level\":%u,\"lane\":%u,\"dir\":%u}",
			       i ? "," : "", hops[i].channel, hops[i].from,
			       hops[i].from_level, hops[i].to, hops[i].to_level,
			       hops[i].lane, hops[i].dir);
		printf("]}\n");
	} else {
		printf("%llu", src);
		for (i = 0; i < n; i++) {
			vertex(to, sizeof(to), hops[i].to_level, hops[i].to);
			printf(" -> %s", to);
		}
		printf("  (%d hop%s)\n", n, n == 1 ? "" : "s");
		for (i = 0; i < n; i++) {
			vertex(from, sizeof(from), hops[i].from_level,
			       hops[i].from);
			vertex(to, sizeof(to), hops[i].to_level, hops[i].to);
			printf("  channel %u: %s -> %s %s %u", hops[i].channel,
			       from, to,
			       vcube_dir_name(info.topology, hops[i].dir),
			       info.topology == VCUBE_TOPOLOGY_FATTREE ?
			       hops[i].lane : hops[i].dir);
			putchar('\n');
		}
	}
	free(hops);
	return 0;
}


/* ---- over generic netlink ---------------------------------------------- */

static int fail_nl(const char *what, int err, struct vcube_nl *nl)
{
	const char *msg = vcube_nl_errmsg(nl);

	if (err == -ENOENT) {
		fprintf(stderr, "vcubectl: %s: no vcube network is loaded (insmod vcube.ko ...)\n",
			what);
		return 1;
	}
	fprintf(stderr, "vcubectl: %s: %s", what, strerror(-err));
	if (msg && *msg)
		fprintf(stderr, ": %s", msg);
	if (err == -EPERM)
		fprintf(stderr, " (needs CAP_NET_ADMIN)");
	fputc('\n', stderr);
	return 1;
}

static int nl_open(const char *what, struct vcube_nl **nl)
{
	int ret = vcube_nl_open(nl);

	return ret ? fail_nl(what, ret, NULL) : 0;
}

/* A dump, tried again (up to 5 times) while the counters move under it. */
static int dump_links(struct vcube_nl *nl, struct vcube_nl_link **l,
		      size_t *n)
{
	int ret, tries = 0;

	do
		ret = vcube_nl_link_dump(nl, l, n, NULL);
	while (ret == -EAGAIN && ++tries < 5);
	return ret;
}

enum link_sort { SORT_ID, SORT_BUSY, SORT_WAITS, SORT_BYTES, SORT_MESSAGES };

static enum link_sort link_sort_key;

static int link_cmp(const void *a, const void *b)
{
	const struct vcube_nl_link *x = a, *y = b;
	uint64_t u = 0, v = 0;

	switch (link_sort_key) {
	case SORT_BUSY:
		u = x->busy_ns, v = y->busy_ns;
		break;
	case SORT_WAITS:
		u = x->wait_ns, v = y->wait_ns;
		if (u == v)
			u = x->waits, v = y->waits;
		break;
	case SORT_BYTES:
		u = x->bytes, v = y->bytes;
		break;
	case SORT_MESSAGES:
		u = x->messages, v = y->messages;
		break;
	case SORT_ID:
		break;
	}
	if (u != v)
		return u < v ? 1 : -1;		/* largest first */
	return x->id < y->id ? -1 : x->id > y->id;
}

static int parse_sort(const char *s, enum link_sort *key)
{
	static const char *const names[] = { "id", "busy", "waits", "bytes",
					     "messages" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*key = (enum link_sort)i;
			return 0;
		}
	}
	fprintf(stderr, "vcubectl: --sort: '%s' is not one of id, busy, waits, bytes, messages\n",
		s);
	return -EINVAL;
}

/* The share of the counted time the link was held. */
static double util(const struct vcube_nl_link *l, uint64_t elapsed)
{
	return elapsed ? (double)l->busy_ns / (double)elapsed : 0.0;
}

static void link_ends(const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *l, char *buf, size_t len)
{
	char from[24], to[24];

	vertex(from, sizeof(from), l->from_level, l->from);
	vertex(to, sizeof(to), l->to_level, l->to);
	if (t->kind == VCUBE_TOPOLOGY_FATTREE)
		snprintf(buf, len, "%s->%s %s %s %u", from, to,
			 vcube_dir_name(t->kind, l->dir),
			 l->width > 1 ? "width" : "lane",
			 l->width > 1 ? l->width : l->lane);
	else if (t->kind == VCUBE_TOPOLOGY_HYPERCUBE)
		snprintf(buf, len, "%s->%s dim %u", from, to, l->dir);
	else
		snprintf(buf, len, "%s->%s %s", from, to,
			 vcube_dir_name(t->kind, l->dir));
}

static void links_print(const struct vcube_nl_topo *t,
			const struct vcube_nl_link *l, size_t n, const char *end)
{
	char ends[64];
	size_t i;

	if (json) {
		putchar('[');
		for (i = 0; i < n; i++)
			printf("%s{\"id\":%u,\"from\":%u,\"to\":%u,\"from_level\":%u,\"to_level\":%u,\"dir\":%u,\"lane\":%u,\"width\":%u,\"messages\":%llu,\"bytes\":%llu,\"transfers\":%llu,\"busy_ns\":%llu,\"util\":%.6f,\"waits\":%llu,\"wait_ns\":%llu,\"peak\":%u}",
			       i ? "," : "", l[i].id, l[i].from, l[i].to,
			       l[i].from_level, l[i].to_level, l[i].dir,
			       l[i].lane, l[i].width,
			       (unsigned long long)l[i].messages,
			       (unsigned long long)l[i].bytes,
			       (unsigned long long)l[i].transfers,
			       (unsigned long long)l[i].busy_ns,
			       util(&l[i], t->elapsed),
			       (unsigned long long)l[i].waits,
			       (unsigned long long)l[i].wait_ns, l[i].peak);
		printf("]%s", end);
		return;
	}
	printf("%6s  %-24s %8s %12s %12s %6s %7s %12s %5s\n", "link", "ends",
	       "messages", "bytes", "busy_us", "util", "waits", "wait_us",
	       "peak");
	for (i = 0; i < n; i++) {
		link_ends(t, &l[i], ends, sizeof(ends));
		printf("%6u  %-24s %8llu %12llu %12.3f %5.1f%% %7llu %12.3f %5u\n",
		       l[i].id, ends, (unsigned long long)l[i].messages,
		       (unsigned long long)l[i].bytes, l[i].busy_ns / 1e3,
		       100.0 * util(&l[i], t->elapsed),
		       (unsigned long long)l[i].waits, l[i].wait_ns / 1e3,
		       l[i].peak);
	}
}

static void topo_print(const struct vcube_nl_topo *t, const char *end)
{
	if (json) {
		printf("{\"topology\":\"%s\",", vcube_topology_name(t->kind));
		json_str("shape", t->shape, false);
		json_str("profile", t->profile, false);
		printf("\"switching\":\"%s\",\"nodes\":%u,\"channels\":%u,\"links\":%u,\"diameter\":%u,\"now_ns\":%llu,\"elapsed_ns\":%llu,\"messages\":%llu,\"transfers\":%llu,\"waits\":%llu,\"wait_ns\":%llu,\"deadlocks\":%llu}",
		       vcube_switching_name(t->switching), t->nodes,
		       t->channels, t->links, t->diameter,
		       (unsigned long long)t->now,
		       (unsigned long long)t->elapsed,
		       (unsigned long long)t->messages,
		       (unsigned long long)t->transfers,
		       (unsigned long long)t->waits,
		       (unsigned long long)t->wait_ns,
		       (unsigned long long)t->deadlocks);
		fputs(end, stdout);
		return;
	}
	printf("%s %s nodes %u channels %u links %u diameter %u profile %s switching %s\n",
	       vcube_topology_name(t->kind), t->shape, t->nodes, t->channels,
	       t->links, t->diameter, t->profile,
	       vcube_switching_name(t->switching));
	printf("    now %.3f us elapsed %.3f us messages %llu transfers %llu waits %llu wait %.3f us deadlocks %llu\n",
	       t->now / 1e3, t->elapsed / 1e3, (unsigned long long)t->messages,
	       (unsigned long long)t->transfers, (unsigned long long)t->waits,
	       t->wait_ns / 1e3, (unsigned long long)t->deadlocks);
}

static int no_args(int argc, const char *cmd)
{
	if (argc > 1) {
		fprintf(stderr, "vcubectl %s: takes no arguments\n", cmd);
		return 2;
	}
	return 0;
}

static int cmd_topo(int argc, char **argv)
{
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	int ret;

	(void)argv;
	if (no_args(argc, "topo"))
		return 2;
	if (nl_open("topo", &nl))
		return 1;
	ret = vcube_nl_topo_get(nl, &t);
	if (ret) {
		ret = fail_nl("topo", ret, nl);
	} else {
		topo_print(&t, "\n");
	}
	vcube_nl_close(nl);
	return ret;
}

static int svg_write(const char *path, const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, size_t n);

static int cmd_cnet(int argc, char **argv)
{
	struct vcube_nl_cnet c;
	struct vcube_nl *nl;
	int ret;

	(void)argv;
	if (no_args(argc, "cnet"))
		return 2;
	if (nl_open("cnet", &nl))
		return 1;
	ret = vcube_nl_cnet_get(nl, &c);
	if (ret) {
		ret = fail_nl("cnet", ret, nl);
	} else if (json) {
		printf("{\"present\":%s,\"word_ns\":%llu,\"double_ns\":%llu,\"bcast_ns\":%llu,\"barriers\":%llu,\"reductions\":%llu,\"scans\":%llu,\"broadcasts\":%llu,\"bytes\":%llu,\"busy_ns\":%llu,\"wait_ns\":%llu}\n",
		       c.present ? "true" : "false",
		       (unsigned long long)c.word_ns,
		       (unsigned long long)c.double_ns,
		       (unsigned long long)c.bcast_ns,
		       (unsigned long long)c.barriers,
		       (unsigned long long)c.reductions,
		       (unsigned long long)c.scans,
		       (unsigned long long)c.broadcasts,
		       (unsigned long long)c.bytes,
		       (unsigned long long)c.busy_ns,
		       (unsigned long long)c.wait_ns);
	} else if (!c.present) {
		printf("control network: none (profile=cm5 has one, or cnet_word_ns=)\n");
	} else {
		printf("control network: word %.3f us double %.3f us broadcast %.3f us + a word per 4 bytes\n",
		       c.word_ns / 1e3, c.double_ns / 1e3, c.bcast_ns / 1e3);
		printf("    barriers %llu reductions %llu scans %llu broadcasts %llu bytes %llu busy %.3f us wait %.3f us\n",
		       (unsigned long long)c.barriers,
		       (unsigned long long)c.reductions,
		       (unsigned long long)c.scans,
		       (unsigned long long)c.broadcasts,
		       (unsigned long long)c.bytes, c.busy_ns / 1e3,
		       c.wait_ns / 1e3);
	}
	vcube_nl_close(nl);
	return ret;
}

static const char links_usage[] =
	"usage: vcubectl [-j] links [--sort id|busy|waits|bytes|messages] [--top K]\n"
	"                          [--svg FILE]\n"
	"Every channel (with packet switching, every bundle of links) and its\n"
	"counters since the last reset: messages and bytes whose data crossed it,\n"
	"virtual time it was held (busy) and its share of the network's time\n"
	"(util), headers that queued for it and how long, most holders at once.\n"
	"  --sort KEY   largest first (default: id order)\n"
	"  --top K      only the first K\n"
	"  --svg FILE   also draw the network, each channel coloured by its use\n";

/* What links and watch take; -1 or NULL when not given. */
struct view_opts {
	unsigned long long top;
	unsigned long long count;
	double interval;
	const char *svg;
};

/*
 * The options of links (@watch false: --sort --top --svg) and of watch
 * (--sort --top --interval --count): 0, 1 after --help, or 2 (bad usage).
 */
static int view_opts_parse(int argc, char **argv, bool watch,
			   const char *usage, struct view_opts *o)
{
	static const struct option opts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "top", required_argument, NULL, 't' },
		{ "svg", required_argument, NULL, 'g' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, watch ? "s:t:i:c:h" : "s:t:g:h",
				opts, NULL)) != -1) {
		if ((c == 'g' && watch) || ((c == 'i' || c == 'c') && !watch)) {
			fprintf(stderr, "vcubectl %s: --%s is not one of its options\n",
				argv[0], c == 'g' ? "svg" :
				c == 'i' ? "interval" : "count");
			c = '?';
		}
		switch (c) {
		case 's':
			if (parse_sort(optarg, &link_sort_key))
				return 2;
			break;
		case 't':
			if (parse_uint(optarg, "--top", UINT32_MAX, &o->top))
				return 2;
			break;
		case 'g':
			o->svg = optarg;
			break;
		case 'i':
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (*end || errno ||
			    !(o->interval > 0 && o->interval <= 3600)) {
				fprintf(stderr, "vcubectl: --interval: '%s' is not a number of seconds in (0, 3600]\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			if (parse_uint(optarg, "--count", UINT32_MAX, &o->count))
				return 2;
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fputs(usage, stderr);
		return 2;
	}
	return 0;
}

static int cmd_links(int argc, char **argv)
{
	struct view_opts o = { .top = 0 };
	struct vcube_nl_link *l = NULL;
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	size_t n = 0;
	int ret;

	link_sort_key = SORT_ID;
	ret = view_opts_parse(argc, argv, false, links_usage, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (nl_open("links", &nl))
		return 1;
	ret = vcube_nl_topo_get(nl, &t);
	if (!ret)
		ret = dump_links(nl, &l, &n);
	if (ret) {
		ret = fail_nl("links", ret, nl);
		goto out;
	}
	if (o.svg && svg_write(o.svg, &t, l, n)) {
		fprintf(stderr, "vcubectl: links: cannot write %s: %s\n", o.svg,
			strerror(errno));
		ret = 1;
		goto out;
	}
	qsort(l, n, sizeof(*l), link_cmp);
	links_print(&t, l, o.top && o.top < n ? o.top : n, "\n");
out:
	free(l);
	vcube_nl_close(nl);
	return ret;
}

static int cmd_nodes(int argc, char **argv)
{
	struct vcube_nl_node *d = NULL;
	struct vcube_nl *nl;
	size_t n = 0, i;
	int ret, tries = 0;

	(void)argv;
	if (no_args(argc, "nodes"))
		return 2;
	if (nl_open("nodes", &nl))
		return 1;
	do
		ret = vcube_nl_node_dump(nl, &d, &n, NULL);
	while (ret == -EAGAIN && ++tries < 5);
	if (ret) {
		ret = fail_nl("nodes", ret, nl);
		goto out;
	}
	if (json)
		putchar('[');
	else
		printf("%6s %-8s %8s %14s %10s %10s %8s %8s %9s %12s\n", "node",
		       "state", "pid", "clock_us", "sent", "received",
		       "dropped", "buffered", "discarded", "sysbuf_peak");
	for (i = 0; i < n; i++) {
		if (json) {
			printf("%s{\"node\":%u,\"state\":\"%s\",\"pid\":%u,\"clock_ns\":%llu,\"sent\":%llu,\"received\":%llu,\"forced_dropped\":%llu,\"buffered\":%llu,\"discarded\":%llu,\"sysbuf_peak\":%llu}",
			       i ? "," : "", d[i].id,
			       vcube_node_state_name(d[i].state), d[i].pid,
			       (unsigned long long)d[i].clock,
			       (unsigned long long)d[i].sent,
			       (unsigned long long)d[i].received,
			       (unsigned long long)d[i].forced_dropped,
			       (unsigned long long)d[i].buffered,
			       (unsigned long long)d[i].discarded,
			       (unsigned long long)d[i].sysbuf_peak);
			continue;
		}
		printf("%6u %-8s %8u %14.3f %10llu %10llu %8llu %8llu %9llu %12llu\n",
		       d[i].id, vcube_node_state_name(d[i].state), d[i].pid,
		       d[i].clock / 1e3, (unsigned long long)d[i].sent,
		       (unsigned long long)d[i].received,
		       (unsigned long long)d[i].forced_dropped,
		       (unsigned long long)d[i].buffered,
		       (unsigned long long)d[i].discarded,
		       (unsigned long long)d[i].sysbuf_peak);
	}
	if (json)
		printf("]\n");
out:
	free(d);
	vcube_nl_close(nl);
	return ret;
}

static int cmd_reset(int argc, char **argv)
{
	struct vcube_nl *nl;
	int ret;

	(void)argv;
	if (no_args(argc, "reset"))
		return 2;
	if (nl_open("reset", &nl))
		return 1;
	ret = vcube_nl_stats_reset(nl);
	if (ret)
		ret = fail_nl("reset", ret, nl);
	vcube_nl_close(nl);
	return ret;
}

static volatile sig_atomic_t watch_stop;

static void watch_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

static const char watch_usage[] =
	"usage: vcubectl [-j] watch [--interval SECONDS] [--count N] [--top K]\n"
	"                          [--sort busy|waits|bytes|messages|id]\n"
	"Refresh the network's counters and its busiest links until interrupted\n"
	"(or N times): run it beside a benchmark. With -j, one JSON object per\n"
	"refresh, on its own line.\n"
	"  --interval S  seconds between refreshes (default 1; fractions allowed)\n"
	"  --count N     stop after N refreshes (default: never)\n"
	"  --top K       links shown (default 10)\n"
	"  --sort KEY    default busy\n";

static int cmd_watch(int argc, char **argv)
{
	struct view_opts o = { .top = 10, .interval = 1.0 };
	bool tty = isatty(STDOUT_FILENO);
	struct vcube_nl_link *l;
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	unsigned long long iter;
	struct timespec ts;
	size_t n;
	int ret;

	link_sort_key = SORT_BUSY;
	ret = view_opts_parse(argc, argv, true, watch_usage, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (nl_open("watch", &nl))
		return 1;
	signal(SIGINT, watch_signal);
	signal(SIGTERM, watch_signal);
	ts.tv_sec = (time_t)o.interval;
	ts.tv_nsec = (long)((o.interval - (double)ts.tv_sec) * 1e9);
	for (iter = 0; !watch_stop && (!o.count || iter < o.count); iter++) {
		if (iter)
			nanosleep(&ts, NULL);
		if (watch_stop)
			break;
		l = NULL;
		ret = vcube_nl_topo_get(nl, &t);
		if (!ret)
			ret = dump_links(nl, &l, &n);
		if (ret) {
			ret = fail_nl("watch", ret, nl);
			break;
		}
		qsort(l, n, sizeof(*l), link_cmp);
		if (o.top < n)
			n = o.top;
		if (json) {
			printf("{\"topo\":");
			topo_print(&t, "");
			printf(",\"links\":");
			links_print(&t, l, n, "");
			printf("}\n");
		} else {
			if (tty)
				fputs("\033[H\033[2J", stdout);
			topo_print(&t, "\n");
			putchar('\n');
			links_print(&t, l, n, "\n");
			if (!tty)
				putchar('\n');
		}
		fflush(stdout);
		free(l);
	}
	vcube_nl_close(nl);
	return ret;
}

/* ---- the network as a picture (links --svg) ----------------------------- */

#define SVG_MARGIN	70.0

struct svg_pt {
	double x, y;
};

/* Use 0..1 as a colour: grey when unused, then yellow, orange, dark red. */
static void svg_colour(double u, char *buf, size_t len)
{
	static const double stop[3][3] = {
		{ 255, 220, 100 }, { 245, 120, 40 }, { 150, 0, 30 },
	};
	double f;
	int i, c[3], k;

	if (u <= 0) {
		snprintf(buf, len, "#cfcfcf");
		return;
	}
	if (u > 1)
		u = 1;
	i = u < 0.5 ? 0 : 1;
	f = (u - 0.5 * i) / 0.5;
	for (k = 0; k < 3; k++)
		c[k] = (int)(stop[i][k] + f * (stop[i + 1][k] - stop[i][k]) + 0.5);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

struct svg_layout {
	unsigned int kind;
	unsigned int rows, cols;	/* mesh, torus */
	unsigned int levels;		/* fat tree: root level */
	double unit;			/* px between neighbouring nodes */
	double w, h;
};

static unsigned int pow3(unsigned int k)
{
	unsigned int p = 1;

	while (k--)
		p *= 3;
	return p;
}

/*
 * Where a vertex goes. Hypercube: a recursive 2-D layout, even dimensions
 * along x and odd ones along y, each twice as far (in base 3) as the one
 * below, so every subcube is a block of its own. Mesh and torus: their
 * grid. Fat tree: levels as rows, each tree node over its subtree.
 */
static struct svg_pt svg_pos(const struct svg_layout *g, unsigned int level,
			     unsigned int v)
{
	struct svg_pt p = { SVG_MARGIN, SVG_MARGIN };
	unsigned int k, span;

	switch (g->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		for (k = 0; v >> (2 * k); k++) {
			p.x += g->unit * ((v >> (2 * k)) & 1) * pow3(k);
			p.y += g->unit * ((v >> (2 * k + 1)) & 1) * pow3(k);
		}
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		p.x += g->unit * (v % g->cols);
		p.y += g->unit * (v / g->cols);
		break;
	default:
		for (span = 1, k = 0; k < level; k++)
			span *= 4;
		p.x += g->unit * (v * span + (span - 1) / 2.0);
		p.y += 110.0 * (g->levels - level);
		break;
	}
	return p;
}

static void svg_layout_init(struct svg_layout *g, const struct vcube_nl_topo *t,
			    const struct vcube_nl_link *l, size_t n)
{
	unsigned int dim = 0, k, x = 0, y = 0, c = 0, r = 0;
	size_t i;

	memset(g, 0, sizeof(*g));
	g->kind = t->kind;
	g->unit = 70;
	switch (t->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		while ((1U << dim) < t->nodes)
			dim++;
		for (k = 0; 2 * k < dim; k++)
			x += pow3(k);
		for (k = 0; 2 * k + 1 < dim; k++)
			y += pow3(k);
		if (x > 40)
			g->unit = 40;
		g->w = g->unit * x;
		g->h = g->unit * y;
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		if (sscanf(t->shape, "rows=%u cols=%u", &r, &c) != 2 || !c)
			r = 1, c = t->nodes;
		g->rows = r;
		g->cols = c;
		if (c > 16 || r > 16)
			g->unit = 40;
		g->w = g->unit * (c - 1);
		g->h = g->unit * (r - 1);
		break;
	default:
		for (i = 0; i < n; i++) {
			if (l[i].to_level > g->levels)
				g->levels = l[i].to_level;
			if (l[i].from_level > g->levels)
				g->levels = l[i].from_level;
		}
		g->unit = t->nodes <= 64 ? 36 : 2304.0 / t->nodes;
		g->w = g->unit * (t->nodes - 1);
		g->h = 110.0 * g->levels;
		break;
	}
}

/* A channel's tooltip, and its path: it bends to the right of travel. */
static void svg_link(FILE *f, const struct svg_layout *g,
		     const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, double u, unsigned int width)
{
	struct svg_pt p = svg_pos(g, l->from_level, l->from);
	struct svg_pt q = svg_pos(g, l->to_level, l->to);
	double dx = q.x - p.x, dy = q.y - p.y, len = sqrt(dx * dx + dy * dy);
	double nx, ny, off, sw = 3;
	char colour[16], ends[64];

	if (len <= 0)
		return;
	nx = -dy / len;
	ny = dx / len;
	svg_colour(u, colour, sizeof(colour));
	link_ends(t, l, ends, sizeof(ends));
	fprintf(f, "<g><title>link %u: %s; %llu messages, %llu bytes, busy %.1f%%, %llu waits</title>",
		l->id, ends, (unsigned long long)l->messages,
		(unsigned long long)l->bytes, 100 * u,
		(unsigned long long)l->waits);
	if (g->kind == VCUBE_TOPOLOGY_FATTREE) {
		sw = 1.5 + log2(width ? width : 1);
		off = 2 + sw / 2;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
			p.x + off * nx, p.y + off * ny, q.x + off * nx,
			q.y + off * ny, colour, sw);
	} else if (len > g->unit * 1.5 && g->kind == VCUBE_TOPOLOGY_TORUS) {
		/* a wrap-around channel: a stub out of each end */
		double ux = 0, uy = 0, s = g->unit * 0.45;

		switch (l->dir) {
		case VCUBE_DIR_EAST:
			ux = 1;
			break;
		case VCUBE_DIR_WEST:
			ux = -1;
			break;
		case VCUBE_DIR_SOUTH:
			uy = 1;
			break;
		default:
			uy = -1;
			break;
		}
		nx = -uy * 4;
		ny = ux * 4;
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-dasharray=\"4 2\"/>",
			p.x + nx, p.y + ny, p.x + nx + s * ux,
			p.y + ny + s * uy, q.x + nx - s * ux,
			q.y + ny - s * uy, q.x + nx, q.y + ny, colour, sw);
	} else {
		/* long hypercube edges bend more, but not in proportion */
		off = g->kind == VCUBE_TOPOLOGY_HYPERCUBE ?
		      6 + 14 * log2(1 + len / g->unit) : 6;
		fprintf(f, "<path d=\"M%.1f %.1fQ%.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
			p.x, p.y, (p.x + q.x) / 2 + off * nx,
			(p.y + q.y) / 2 + off * ny, q.x, q.y, colour, sw);
	}
	fprintf(f, "</g>\n");
}

/* Fat tree channels of one bundle, drawn once: their most used lane. */
static bool svg_same_bundle(const struct vcube_nl_link *a,
			    const struct vcube_nl_link *b)
{
	return a->from == b->from && a->to == b->to &&
	       a->from_level == b->from_level && a->to_level == b->to_level;
}

static int svg_write(const char *path, const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, size_t n)
{
	struct svg_layout g;
	struct svg_pt p;
	double r = 13, u, best;
	unsigned int v, k, count, w;
	size_t i, j;
	char colour[16];
	FILE *f;

	svg_layout_init(&g, t, l, n);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (g.unit < 30)
		r = g.unit / 2.5;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"%.0f\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		fmax(g.w + 2 * SVG_MARGIN, 760), g.h + 2 * SVG_MARGIN + 50,
		r < 10 ? r : 11);
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">vcube %s %s (%s, %s switching): channel use over %.3f us, %llu messages</text>\n",
		vcube_topology_name(t->kind), t->shape, t->profile,
		vcube_switching_name(t->switching), t->elapsed / 1e3,
		(unsigned long long)t->messages);
	fprintf(f, "<text x=\"10\" y=\"38\" font-size=\"11\" fill=\"#555\">%s</text>\n",
		t->kind == VCUBE_TOPOLOGY_FATTREE ?
		"each bundle of parallel links drawn once (its busiest lane), up left of down, thicker when wider" :
		"a channel bends to the right of its direction of travel; grey: unused");
	fprintf(f, "<g transform=\"translate(0 20)\">\n");
	for (i = 0; i < n; i = j) {
		best = util(&l[i], t->elapsed);
		w = l[i].width;
		j = i + 1;
		if (t->kind == VCUBE_TOPOLOGY_FATTREE && w <= 1) {
			for (; j < n && svg_same_bundle(&l[i], &l[j]); j++) {
				u = util(&l[j], t->elapsed);
				if (u > best)
					best = u;
			}
			w = (unsigned int)(j - i);
		}
		svg_link(f, &g, t, &l[i], best, w);
	}
	/* the vertices: processing nodes, and the fat tree's switches */
	for (k = 0; k <= g.levels; k++) {
		count = t->nodes;
		for (v = 0; v < k; v++)
			count = (count + 3) / 4;
		for (v = 0; v < count; v++) {
			p = svg_pos(&g, k, v);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"black\"/>",
				p.x, p.y, k ? r * 0.6 : r, k ? "#eef" : "white");
			if (!k)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"central\">%u</text>",
					p.x, p.y, v);
			fputc('\n', f);
		}
	}
	fprintf(f, "</g>\n");
	/* the scale */
	p.x = 10;
	p.y = g.h + 2 * SVG_MARGIN + 40;
	for (i = 0; i <= 20; i++) {
		svg_colour(i / 20.0, colour, sizeof(colour));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\"/>",
			p.x + 60 + 12 * i, p.y - 10, colour);
	}
	fprintf(f, "\n<text x=\"%.1f\" y=\"%.1f\">busy</text><text x=\"%.1f\" y=\"%.1f\">0%%</text><text x=\"%.1f\" y=\"%.1f\">100%% of the time</text>\n",
		p.x, p.y, p.x + 40, p.y, p.x + 60 + 12 * 21 + 4, p.y);
	fprintf(f, "</svg>\n");
	if (fclose(f))
		return -errno;
	return 0;
}

static int cmd_help(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *desc;
} cmds[] = {
	{ "show", cmd_show, "the network: topology, shape, size, profile, seed" },
	{ "topo", cmd_topo, "the network and its counters, over netlink" },
	{ "links", cmd_links, "every channel's counters [--sort K] [--top N] [--svg F]" },
	{ "nodes", cmd_nodes, "every node's state, clock and counters" },
	{ "cnet", cmd_cnet, "the control network's costs and counters (CM-5)" },
	{ "places", cmd_places, "every node with its place and its neighbours" },
	{ "route", cmd_route, "SRC DST: the channels a message crosses" },
	{ "reset", cmd_reset, "start every counter afresh (CAP_NET_ADMIN)" },
	{ "watch", cmd_watch, "a live view of the busiest links" },
	{ "help", cmd_help, "this text" },
};

static int cmd_help(int argc, char **argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	printf("usage: vcubectl [-j|--json] [--sysfs DIR] [COMMAND [ARGS]]\n\n"
	       "Look at the vcube network the module models. Without a command: show.\n\n"
	       "commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		printf("  %-8s %s\n", cmds[i].name, cmds[i].desc);
	printf("\noptions:\n"
	       "  -j, --json     print JSON instead of text\n"
	       "  --sysfs DIR    read network facts from DIR instead of %s\n"
	       "  -h, --help     this text\n", VCUBE_SYSFS_ROOT);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	size_t i;
	int c;

	while ((c = getopt_long(argc, argv, "+jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 's':
			sysfs_root = optarg;
			break;
		case 'h':
			return cmd_help(0, NULL);
		default:
			fprintf(stderr, "try 'vcubectl --help'\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		return cmd_show(0, NULL);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[0], cmds[i].name))
			continue;
		if (argc > 1 && (!strcmp(argv[1], "--help") ||
				 !strcmp(argv[1], "-h")) &&
		    cmds[i].fn != cmd_route && cmds[i].fn != cmd_links &&
		    cmds[i].fn != cmd_watch) {
			printf("usage: vcubectl [-j] %s\n%s\n", cmds[i].name,
			       cmds[i].desc);
			return 0;
		}
		return cmds[i].fn(argc, argv);
	}
	fprintf(stderr, "vcubectl: unknown command '%s'; try 'vcubectl --help'\n",
		argv[0]);
	return 2;
}
