// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl over generic netlink (libvcube's client, libnl-genl-3): the
 * network's counters (topo), every channel's (links, watch), every node's
 * (nodes), the control network's (cnet), and reset; the peak windows and
 * the trace are in trace.c. Each value is printed once for both text and
 * JSON (print.h).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vcubectl/vcubectl.h"

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

/*
 * One channel: its counters, in us and per cent in text, one column per
 * field: the ends (a fat tree's switches as Llevel:index), the dimension
 * (hypercube) or direction, and on a fat tree the lane and its width.
 */
static void link_print(const struct vcube_nl_topo *t,
		       const struct vcube_nl_link *l)
{
	double u = vc_util(l, t->elapsed);
	char from[24], to[24];

	vc_vertex(from, sizeof(from), l->from_level, l->from);
	vc_vertex(to, sizeof(to), l->to_level, l->to);
	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "id", "%6llu", l->id);
	vc_print_str(VC_TEXT, NULL, " %7s", from);
	vc_print_str(VC_TEXT, NULL, " %7s", to);
	if (t->kind == VCUBE_TOPOLOGY_HYPERCUBE)
		vc_print_uint(VC_TEXT, NULL, " %4llu", l->dir);
	else
		vc_print_str(VC_TEXT, NULL, " %4s",
			     vcube_dir_name(t->kind, l->dir));
	if (t->kind == VCUBE_TOPOLOGY_FATTREE) {
		vc_print_uint(VC_TEXT, NULL, " %4llu", l->lane);
		vc_print_uint(VC_TEXT, NULL, " %5llu", l->width);
	}
	vc_print_uint(VC_JSON, "from", NULL, l->from);
	vc_print_uint(VC_JSON, "to", NULL, l->to);
	vc_print_uint(VC_JSON, "from_level", NULL, l->from_level);
	vc_print_uint(VC_JSON, "to_level", NULL, l->to_level);
	vc_print_uint(VC_JSON, "dir", NULL, l->dir);
	vc_print_uint(VC_JSON, "lane", NULL, l->lane);
	vc_print_uint(VC_JSON, "width", NULL, l->width);
	vc_print_uint(VC_ANY, "messages", " %8llu", l->messages);
	vc_print_uint(VC_ANY, "bytes", " %12llu", l->bytes);
	vc_print_uint(VC_JSON, "transfers", NULL, l->transfers);
	vc_print_uint(VC_JSON, "busy_ns", NULL, l->busy_ns);
	vc_print_float(VC_TEXT, NULL, " %12.3f", l->busy_ns / 1e3);
	vc_print_float(VC_JSON, "util", NULL, u);
	vc_print_float(VC_TEXT, NULL, " %5.1f%%", 100.0 * u);
	vc_print_uint(VC_ANY, "waits", " %7llu", l->waits);
	vc_print_uint(VC_JSON, "wait_ns", NULL, l->wait_ns);
	vc_print_float(VC_TEXT, NULL, " %12.3f", l->wait_ns / 1e3);
	vc_print_uint(VC_ANY, "peak", " %5llu\n", l->peak);
	vc_close('{');
}

/* @n channels, under @key (NULL: the whole output). */
static void links_print(const struct vcube_nl_topo *t,
			const struct vcube_nl_link *l, size_t n,
			const char *key)
{
	size_t i;

	vc_open(key, '[');
	vc_print_text("%6s %7s %7s %4s", "link", "from", "to",
		      t->kind == VCUBE_TOPOLOGY_HYPERCUBE ? "dim" : "dir");
	if (t->kind == VCUBE_TOPOLOGY_FATTREE)
		vc_print_text(" %4s %5s", "lane", "width");
	vc_print_text(" %8s %12s %12s %6s %7s %12s %5s\n", "messages", "bytes",
		      "busy_us", "util", "waits", "wait_us", "peak");
	for (i = 0; i < n; i++)
		link_print(t, &l[i]);
	vc_close('[');
}

/* The network and its counters, under @key (NULL: the whole output). */
static void topo_print(const struct vcube_nl_topo *t, const char *key)
{
	vc_open(key, '{');
	vc_print_str(VC_ANY, "topology", "%s", vcube_topology_name(t->kind));
	vc_print_str(VC_ANY, "shape", " %s", t->shape);
	vc_print_str(VC_JSON, "profile", NULL, t->profile);
	vc_print_str(VC_JSON, "switching", NULL,
		     vcube_switching_name(t->switching));
	/* a fat tree's shape already says nodes= */
	vc_print_uint(strstr(t->shape, "nodes=") ? VC_JSON : VC_ANY, "nodes",
		      " nodes %llu", t->nodes);
	vc_print_uint(VC_ANY, "channels", " channels %llu", t->channels);
	vc_print_uint(VC_ANY, "links", " links %llu", t->links);
	vc_print_uint(VC_ANY, "diameter", " diameter %llu", t->diameter);
	vc_print_str(VC_TEXT, NULL, " profile %s", t->profile);
	vc_print_str(VC_TEXT, NULL, " switching %s\n",
		     vcube_switching_name(t->switching));
	vc_print_uint(VC_JSON, "now_ns", NULL, t->now);
	vc_print_float(VC_TEXT, NULL, "    now %.3f us", t->now / 1e3);
	vc_print_uint(VC_JSON, "elapsed_ns", NULL, t->elapsed);
	vc_print_float(VC_TEXT, NULL, " elapsed %.3f us", t->elapsed / 1e3);
	vc_print_uint(VC_ANY, "messages", " messages %llu", t->messages);
	vc_print_uint(VC_ANY, "transfers", " transfers %llu", t->transfers);
	vc_print_uint(VC_ANY, "waits", " waits %llu", t->waits);
	vc_print_uint(VC_JSON, "wait_ns", NULL, t->wait_ns);
	vc_print_float(VC_TEXT, NULL, " wait %.3f us", t->wait_ns / 1e3);
	vc_print_uint(VC_ANY, "deadlocks", " deadlocks %llu\n", t->deadlocks);
	vc_print_uint(VC_ANY, "port_waits", "    port_waits %llu",
		      t->port_waits);
	vc_print_uint(VC_ANY, "duplex_waits", " duplex_waits %llu",
		      t->duplex_waits);
	vc_print_uint(VC_ANY, "events", " events %llu", t->events);
	vc_print_uint(VC_ANY, "leases", " leases %llu\n", t->leases);
	vc_print_uint(VC_ANY, "trace_max", "    trace_max %llu", t->trace_max);
	vc_print_bool(VC_JSON, "trace_on", NULL, t->trace_on);
	vc_print_text(" trace %s\n", t->trace_on ? "on" : "off");
	vc_close('{');
}

int vc_cmd_topo(int argc, char **argv)
{
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	int ret;

	(void)argv;
	if (vc_no_args(argc, "topo"))
		return 2;
	if (vc_nl_open("topo", &nl))
		return 1;
	ret = vcube_nl_topo_get(nl, &t);
	if (ret) {
		ret = vc_fail_nl("topo", ret, nl);
	} else {
		topo_print(&t, NULL);
		vc_end();
	}
	vcube_nl_close(nl);
	return ret;
}

/* The control network's costs and counters; text says none if absent. */
static void cnet_print(const struct vcube_nl_cnet *c)
{
	enum vc_out any = c->present ? VC_ANY : VC_JSON;
	enum vc_out text = c->present ? VC_TEXT : 0;

	vc_open(NULL, '{');
	vc_print_bool(VC_JSON, "present", NULL, c->present);
	if (!c->present)
		vc_print_text("control network: none (profile=cm5 has one, or cnet_word_ns=)\n");
	vc_print_uint(VC_JSON, "word_ns", NULL, c->word_ns);
	vc_print_float(text, NULL, "control network: word %.3f us",
		       c->word_ns / 1e3);
	vc_print_uint(VC_JSON, "double_ns", NULL, c->double_ns);
	vc_print_float(text, NULL, " double %.3f us", c->double_ns / 1e3);
	vc_print_uint(VC_JSON, "bcast_ns", NULL, c->bcast_ns);
	vc_print_float(text, NULL, " broadcast %.3f us + a word per 4 bytes\n",
		       c->bcast_ns / 1e3);
	vc_print_uint(any, "barriers", "    barriers %llu", c->barriers);
	vc_print_uint(any, "reductions", " reductions %llu", c->reductions);
	vc_print_uint(any, "scans", " scans %llu", c->scans);
	vc_print_uint(any, "broadcasts", " broadcasts %llu", c->broadcasts);
	vc_print_uint(any, "bytes", " bytes %llu", c->bytes);
	vc_print_uint(VC_JSON, "busy_ns", NULL, c->busy_ns);
	vc_print_float(text, NULL, " busy %.3f us", c->busy_ns / 1e3);
	vc_print_uint(VC_JSON, "wait_ns", NULL, c->wait_ns);
	vc_print_float(text, NULL, " wait %.3f us\n", c->wait_ns / 1e3);
	vc_close('{');
	vc_end();
}

int vc_cmd_cnet(int argc, char **argv)
{
	struct vcube_nl_cnet c;
	struct vcube_nl *nl;
	int ret;

	(void)argv;
	if (vc_no_args(argc, "cnet"))
		return 2;
	if (vc_nl_open("cnet", &nl))
		return 1;
	ret = vcube_nl_cnet_get(nl, &c);
	if (ret)
		ret = vc_fail_nl("cnet", ret, nl);
	else
		cnet_print(&c);
	vcube_nl_close(nl);
	return ret;
}

static const char links_usage[] =
	"usage: vcubectl [-j] links [--sort id|busy|waits|bytes|messages] [--top K]\n"
	"                          [--svg FILE] [ID...]\n"
	"Every channel (with packet switching, every bundle of links), or those\n"
	"with the IDs given, and its counters since the last reset: messages and\n"
	"bytes whose data crossed it, virtual time it was held (busy) and its share\n"
	"of the network's time (util), headers that queued for it and how long,\n"
	"most holders at once.\n"
	"  --sort KEY   largest first (default: busy; id: in id order)\n"
	"  --top K      only the first K\n"
	"  --svg FILE   draw the network into FILE instead, each channel coloured\n"
	"               by its use (no --sort, --top or ID: every channel)\n";

/* What links and watch take; -1 or NULL when not given. */
struct view_opts {
	unsigned long long top;
	unsigned long long count;
	double interval;
	const char *svg;
	bool picked;		/* --sort or --top given */
	char **ids;		/* links: the IDs asked for (nids of them) */
	int nids;
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
	const char *cmd = vc_sub_begin(argv);
	unsigned long long id;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, watch ? "s:t:i:c:h" : "s:t:g:h",
				opts, NULL)) != -1) {
		if ((c == 'g' && watch) || ((c == 'i' || c == 'c') && !watch))
			return vc_sub_usage(cmd, "--%s is not one of its options",
					    c == 'g' ? "svg" :
					    c == 'i' ? "interval" : "count");
		switch (c) {
		case 's':
			if (parse_sort(optarg, &link_sort_key))
				return 2;
			o->picked = true;
			break;
		case 't':
			if (vc_parse_uint(optarg, "--top", UINT32_MAX, &o->top))
				return 2;
			o->picked = true;
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
			if (vc_parse_uint(optarg, "--count", UINT32_MAX, &o->count))
				return 2;
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			return vc_sub_usage(cmd, NULL);
		}
	}
	if (optind != argc && watch)
		return vc_sub_usage(cmd, "'%s': it takes no arguments",
				    argv[optind]);
	o->ids = argv + optind;
	o->nids = argc - optind;
	if (o->svg && (o->picked || o->nids))
		return vc_sub_usage(cmd, "--svg draws every channel: no --sort, --top or ID with it");
	for (c = 0; c < o->nids; c++)
		if (vc_parse_uint(o->ids[c], "ID", UINT32_MAX, &id))
			return 2;
	return 0;
}

/*
 * links ID...: keep in @l (*n entries, in id order) those asked for, in
 * the order asked; 0, or 2 (said) for an ID that is not a link.
 */
static int links_pick(struct vcube_nl_link *l, size_t *n,
		      const struct view_opts *o)
{
	struct vcube_nl_link *all;
	unsigned long long id;
	int i;

	if (!o->nids)
		return 0;
	all = malloc(*n * sizeof(*all) + 1);
	if (!all)
		return vc_fail("links", -ENOMEM);
	memcpy(all, l, *n * sizeof(*all));
	for (i = 0; i < o->nids; i++) {
		if (vc_parse_uint(o->ids[i], "ID", UINT32_MAX, &id)) {
			free(all);
			return 2;
		}
		if (id >= *n || all[id].id != id) {
			fprintf(stderr, "vcubectl: links: no link %llu (the network has 0..%zu)\n",
				id, *n - 1);
			free(all);
			return 2;
		}
		l[i] = all[id];
	}
	free(all);
	*n = (size_t)o->nids;
	return 0;
}

int vc_cmd_links(int argc, char **argv)
{
	struct view_opts o = { .top = 0 };
	struct vcube_nl_link *l = NULL;
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	size_t n = 0;
	int ret;

	link_sort_key = SORT_BUSY;
	ret = view_opts_parse(argc, argv, false, links_usage, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (vc_nl_open("links", &nl))
		return 1;
	ret = vcube_nl_topo_get(nl, &t);
	if (!ret)
		ret = vcube_nl_link_dump(nl, &l, &n, NULL);
	if (ret) {
		ret = vc_fail_nl("links", ret, nl);
	} else if (o.svg && !vc_svg_drawable(&t)) {
		fprintf(stderr, "vcubectl: links: --svg draws meshes and tori of 1 or 2 dimensions only, not %s %s\n",
			vcube_topology_name(t.kind), t.shape);
		ret = 2;
	} else if (o.svg) {
		/* the picture instead of the table */
		ret = vc_svg_write(o.svg, &t, l, n);
		if (ret)
			fprintf(stderr, "vcubectl: links: cannot write %s: %s\n",
				o.svg, strerror(-ret));
		ret = ret ? 1 : 0;
	} else if (o.nids && o.nids > (int)n) {
		fprintf(stderr, "vcubectl: links: %d IDs, but the network has %zu links\n",
			o.nids, n);
		ret = 2;
	} else if (!(ret = links_pick(l, &n, &o))) {
		if (!o.nids)
			qsort(l, n, sizeof(*l), link_cmp);
		links_print(&t, l, o.top && o.top < n ? o.top : n, NULL);
		vc_end();
	}
	free(l);
	vcube_nl_close(nl);
	return ret;
}

/* One node's state, clock and counters. */
static void node_print(const void *entry)
{
	const struct vcube_nl_node *d = entry;

	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "node", "%6llu", d->id);
	vc_print_str(VC_ANY, "state", " %-8s", vcube_node_state_name(d->state));
	vc_print_uint(VC_ANY, "pid", " %8llu", d->pid);
	vc_print_uint(VC_JSON, "clock_ns", NULL, d->clock);
	vc_print_float(VC_TEXT, NULL, " %14.3f", d->clock / 1e3);
	vc_print_uint(VC_ANY, "sent", " %10llu", d->sent);
	vc_print_uint(VC_ANY, "received", " %10llu", d->received);
	vc_print_uint(VC_ANY, "forced_dropped", " %8llu", d->forced_dropped);
	vc_print_uint(VC_ANY, "buffered", " %8llu", d->buffered);
	vc_print_uint(VC_ANY, "discarded", " %9llu", d->discarded);
	vc_print_uint(VC_ANY, "sysbuf_peak", " %12llu\n", d->sysbuf_peak);
	vc_close('{');
}

static void node_head(void)
{
	vc_print_text("%6s %-8s %8s %14s %10s %10s %8s %8s %9s %12s\n",
		      "node", "state", "pid", "clock_us", "sent", "received",
		      "dropped", "buffered", "discarded", "sysbuf_peak");
}

static int node_dump(struct vcube_nl *nl, void **out, size_t *n)
{
	struct vcube_nl_node *d = NULL;
	int ret = vcube_nl_node_dump(nl, &d, n, NULL);

	*out = d;
	return ret;
}

int vc_cmd_nodes(int argc, char **argv)
{
	static const struct vc_list nodes = {
		.cmd = "nodes", .size = sizeof(struct vcube_nl_node),
		.dump = node_dump, .head = node_head, .print = node_print,
	};

	(void)argv;
	return vc_list_run(argc, &nodes);
}

int vc_cmd_reset(int argc, char **argv)
{
	struct vcube_nl *nl;
	int ret;

	(void)argv;
	if (vc_no_args(argc, "reset"))
		return 2;
	if (vc_nl_open("reset", &nl))
		return 1;
	ret = vcube_nl_stats_reset(nl);
	if (ret)
		ret = vc_fail_nl("reset", ret, nl);
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

/* One refresh: the network and its busiest links. */
static int watch_once(struct vcube_nl *nl, const struct view_opts *o, bool tty)
{
	struct vcube_nl_link *l = NULL;
	struct vcube_nl_topo t;
	size_t n;
	int ret;

	ret = vcube_nl_topo_get(nl, &t);
	if (!ret)
		ret = vcube_nl_link_dump(nl, &l, &n, NULL);
	if (ret)
		return vc_fail_nl("watch", ret, nl);
	qsort(l, n, sizeof(*l), link_cmp);
	if (o->top < n)
		n = o->top;
	if (tty)
		vc_print_text("\033[H\033[2J");
	vc_open(NULL, '{');
	topo_print(&t, "topo");
	vc_print_text("\n");
	links_print(&t, l, n, "links");
	vc_close('{');
	vc_end();
	if (!tty)
		vc_print_text("\n");
	fflush(stdout);
	free(l);
	return 0;
}

int vc_cmd_watch(int argc, char **argv)
{
	struct view_opts o = { .top = 10, .interval = 1.0 };
	bool tty = isatty(STDOUT_FILENO);
	unsigned long long iter;
	struct vcube_nl *nl;
	struct timespec ts;
	int ret;

	link_sort_key = SORT_BUSY;
	ret = view_opts_parse(argc, argv, true, watch_usage, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (vc_nl_open("watch", &nl))
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
		ret = watch_once(nl, &o, tty);
		if (ret)
			break;
	}
	vcube_nl_close(nl);
	return ret;
}

static const char monitor_usage[] =
	"usage: vcubectl [-j] monitor [--count N]\n"
	"Print the module's announcements as they come, from the netlink group\n"
	"\"monitor\" (ip monitor's habit): each window whose peak channel sharing\n"
	"rose past every earlier window's since the last reset (the module needs\n"
	"window_ns=), and each deadlock. Until interrupted, or N of them. With -j,\n"
	"one JSON object per line.\n"
	"  --count N     stop after N announcements (default: never)\n";

/* One announcement; @l (@n links, id order) names a peak's channel. */
static void notice_print(const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l, size_t n,
			 const struct vcube_nl_notice *nt)
{
	bool peak = nt->kind == VCUBE_NOTICE_PEAK;
	char ends[64];

	vc_open(NULL, '{');
	vc_print_str(VC_ANY, "event", "%s", peak ? "peak" : "deadlock");
	vc_print_uint(VC_JSON, "time_ns", NULL, nt->time);
	vc_print_float(VC_TEXT, NULL, " at %.3f us", nt->time / 1e3);
	if (peak) {
		vc_print_uint(VC_ANY, "window", ": window %llu", nt->window);
		vc_print_uint(VC_ANY, "peak", ", %llu at once", nt->peak);
		vc_print_uint(VC_ANY, "link", " on link %llu", nt->channel);
		if (nt->channel < n && l[nt->channel].id == nt->channel) {
			vc_link_ends(t, &l[nt->channel], ends, sizeof(ends));
			vc_print_str(VC_TEXT, NULL, " (%s)", ends);
		}
	} else {
		vc_print_uint(VC_ANY, "waiting", ": %llu nodes woken with EDEADLK",
			      nt->waiting);
	}
	vc_close('{');
	vc_end();
	vc_print_text("\n");
}

int vc_cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct vcube_nl_link *l = NULL;
	struct vcube_nl_notice nt;
	unsigned long long count = 0, seen = 0;
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	size_t n = 0;
	int c, ret;

	vc_sub_begin(argv);
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (vc_parse_uint(optarg, "--count", UINT32_MAX, &count))
				return 2;
			break;
		case 'h':
			fputs(monitor_usage, stdout);
			return 0;
		default:
			return vc_sub_usage("monitor", NULL);
		}
	}
	if (optind != argc)
		return vc_sub_usage("monitor", "'%s': it takes no arguments",
				    argv[optind]);
	if (vc_nl_open("monitor", &nl))
		return 1;
	ret = vcube_nl_topo_get(nl, &t);
	if (!ret)
		ret = vcube_nl_link_dump(nl, &l, &n, NULL);
	if (!ret)
		ret = vcube_nl_monitor(nl);
	if (ret) {
		ret = vc_fail_nl("monitor", ret, nl);
		goto out;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, watch_signal);
	signal(SIGTERM, watch_signal);
	while (!watch_stop && (!count || seen < count)) {
		ret = vcube_nl_notice_recv(nl, &nt, -1);
		if (ret == -EINTR)
			continue;
		if (ret == -ENOBUFS) {
			fprintf(stderr, "vcubectl monitor: announcements were lost: the socket overflowed\n");
			continue;
		}
		if (ret < 0) {
			ret = vc_fail_nl("monitor", ret, nl);
			goto out;
		}
		notice_print(&t, l, n, &nt);
		seen++;
	}
	ret = 0;
out:
	free(l);
	vcube_nl_close(nl);
	return ret;
}
