// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl windows, vcubectl trace: the peak channel sharing per window of
 * window_ns, and the record of every channel use the kernel still keeps,
 * both over generic netlink, as text or JSON (print.h), the trace also for
 * Perfetto (perfetto.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/routes.h"
#include "vcubectl/vcubectl.h"

/* The routes of the trace's messages, for its MSG records' lines. */
static struct {
	struct vcube_tool_route *rt;
	size_t n;
	struct vcube_nl_topo topo;
	struct vcube_nl_link *links;
	size_t nlinks;
} trace_routes;

static void window_print(const void *entry)
{
	const struct vcube_nl_window *w = entry;

	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "window", "window %llu", w->index);
	vc_print_uint(VC_ANY, "peak", " peak %llu\n", w->peak);
	vc_close('{');
}

static int window_dump(struct vcube_nl *nl, void **out, size_t *n)
{
	struct vcube_nl_window *w = NULL;
	int ret = vcube_nl_window_dump(nl, &w, n, NULL);

	*out = w;
	return ret;
}

int vc_cmd_windows(int argc, char **argv)
{
	static const struct vc_list windows = {
		.cmd = "windows", .size = sizeof(struct vcube_nl_window),
		.dump = window_dump, .print = window_print,
		.none = "none recorded: windows are counted only on a network with window_ns= set, from its first transfer",
	};

	(void)argv;
	return vc_list_run(argc, &windows);
}

static void deadlock_print(const void *entry)
{
	const struct vcube_nl_deadlock *d = entry;
	static const char *const kinds[] = {
		[VCUBE_WAIT_KIND_RECV] = "recv",
		[VCUBE_WAIT_KIND_SEND] = "send",
		[VCUBE_WAIT_KIND_CNET] = "cnet",
	};
	const char *kind = d->kind < sizeof(kinds) / sizeof(kinds[0]) ?
			   kinds[d->kind] : "unknown";

	vc_open(NULL, '{');
	vc_print_uint(VC_JSON, "time_ns", NULL, d->time);
	vc_print_uint(VC_ANY, "node", "node %llu", d->node);
	vc_print_uint(VC_JSON, "clock_ns", NULL, d->clock);
	vc_print_float(VC_TEXT, NULL, " at %.3f us", d->clock / 1e3);
	vc_print_str(VC_JSON, "kind", NULL, kind);
	if (d->kind == VCUBE_WAIT_KIND_CNET) {
		vc_print_uint(VC_ANY, "first", " waits in a control-network operation of nodes %llu",
			      d->first);
		vc_print_uint(VC_ANY, "nodes", "..+%llu", d->nodes);
		vc_print_uint(VC_ANY, "entered", ", %llu of them in\n",
			      d->entered);
	} else if (d->kind == VCUBE_WAIT_KIND_RECV) {
		vc_print_int(VC_JSON, "peer", NULL, d->peer);
		vc_print_int(VC_JSON, "tag", NULL, d->tag);
		if (d->peer < 0)
			vc_print_text(" waits to receive from any node");
		else
			vc_print_text(" waits to receive from node %d", d->peer);
		if (d->tag < 0)
			vc_print_text(", any tag\n");
		else
			vc_print_text(", tag %d\n", d->tag);
	} else {
		vc_print_int(VC_ANY, "peer", " waits for its send to node %lld\n",
			     d->peer);
	}
	vc_close('{');
}

static int deadlock_dump(struct vcube_nl *nl, void **out, size_t *n)
{
	struct vcube_nl_deadlock *d = NULL;
	int ret = vcube_nl_deadlock_dump(nl, &d, n, NULL);

	*out = d;
	if (!ret && *n)
		vc_print_text("deadlock at %.3f us: %zu nodes waited\n",
			      d[0].time / 1e3, *n);
	else if (!ret)
		vc_print_text("no deadlock since the last reset\n");
	return ret;
}

int vc_cmd_deadlock(int argc, char **argv)
{
	static const struct vc_list deadlock = {
		.cmd = "deadlock", .size = sizeof(struct vcube_nl_deadlock),
		.dump = deadlock_dump, .print = deadlock_print,
	};

	(void)argv;
	return vc_list_run(argc, &deadlock);
}

/* A number that may name nothing: "-" in text, absent in JSON. */
static void trace_id(const char *key, const char *fmt, const char *none,
		     uint32_t v)
{
	if (v != VCUBE_TRACE_NONE)
		vc_print_uint(VC_ANY, key, fmt, v);
	else
		vc_print_text(none, "-");
}

/* Channel @chan's ends, as vcubectl links shows them. */
static void trace_chan_name(void *ctx, unsigned int chan, char *buf,
			    size_t len)
{
	(void)ctx;
	if (chan < trace_routes.nlinks &&
	    trace_routes.links[chan].id == chan)
		vc_link_ends(&trace_routes.topo, &trace_routes.links[chan],
			     buf, len);
	else
		snprintf(buf, len, "%u", chan);
}

/* A MSG record's route: its channels, hops, the fewest, minimal or not. */
static void trace_route_print(const struct vcube_trace_rec *r)
{
	const struct vcube_tool_route *rt;

	rt = vcube_tool_route_find(trace_routes.rt, trace_routes.n, r->msg);
	if (rt)
		vcube_tool_route_print(vc_printer(), rt, trace_routes.links ?
				       trace_chan_name : NULL, NULL);
}

/*
 * One record: the columns every kind has, then what its kind says (text:
 * one "what" column of words; JSON: its own keys).
 */
static void trace_print(const void *entry)
{
	const struct vcube_trace_rec *r = entry;

	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "seq", "%8llu", r->seq);
	vc_print_str(VC_ANY, "kind", " %-7s", vc_trace_kind_name(r->kind));
	vc_print_uint(VC_ANY, "src", " %6llu", r->src);
	vc_print_uint(VC_JSON, "start_ns", NULL, r->start);
	vc_print_float(VC_TEXT, NULL, " %14.3f", r->start / 1e3);
	vc_print_uint(VC_JSON, "end_ns", NULL, r->end);
	vc_print_float(VC_TEXT, NULL, " %14.3f", r->end / 1e3);
	if (r->kind == VCUBE_TRACE_KIND_MARK) {
		vc_print_text(" %8s %6s %10s %7s %3s %10s", "-", "-", "-", "-",
			      "-", "-");
		vc_print_str(VC_ANY, "label", " %s\n", r->label);
		vc_close('{');
		return;
	}
	trace_id("msg", " %8llu", " %8s", r->msg);
	trace_id("dst", " %6llu", " %6s", r->dst);
	vc_print_uint(VC_ANY, "tag", " %10llu", r->tag);
	trace_id("channel", " %7llu", " %7s", r->channel);
	vc_print_uint(VC_ANY, "hop", " %3llu", r->hop);
	vc_print_uint(VC_ANY, "bytes", " %10llu", r->bytes);
	if (vc_trace_is_chan(r)) {
		vc_print_uint(VC_JSON, "acquired_ns", NULL, r->acquired);
		vc_print_float(VC_TEXT, NULL, " taken %.3f", r->acquired / 1e3);
	}
	if (r->kind == VCUBE_TRACE_KIND_MSG) {
		vc_print_str(VC_ANY, "proto", " %s", vc_trace_proto_name(r->proto));
		vc_print_uint(VC_JSON, "acquired_ns", NULL, r->acquired);
		vc_print_float(VC_TEXT, NULL, " acquired %.3f", r->acquired / 1e3);
		vc_print_uint(VC_JSON, "flow_ns", NULL, r->flow);
		vc_print_float(VC_TEXT, NULL, " flow %.3f", r->flow / 1e3);
	}
	if (r->kind == VCUBE_TRACE_KIND_MSG || r->kind == VCUBE_TRACE_KIND_WAIT) {
		vc_print_str(VC_ANY, "cause", " %s",
			     vc_trace_cause_name(r->cause));
		if (r->holder != VCUBE_TRACE_NONE)
			vc_print_uint(VC_ANY, "holder", " held by msg %llu",
				      r->holder);
	}
	if (r->kind == VCUBE_TRACE_KIND_MSG)
		trace_route_print(r);
	vc_print_text("\n");
	vc_close('{');
}

static void trace_head(void)
{
	vc_print_text("%8s %-7s %6s %14s %14s %8s %6s %10s %7s %3s %10s %s\n",
		      "seq", "kind", "src", "start_us", "end_us", "msg", "dst",
		      "tag", "channel", "hop", "bytes", "what");
}

/*
 * Records are numbered from the last reset and the ring keeps the newest:
 * the first one's number is how many went before it. Said on stderr, so
 * that no output is cut short in silence and none changes its shape.
 */
static void trace_dropped(const struct vcube_trace_rec *r, size_t n)
{
	if (n && r[0].seq)
		fprintf(stderr, "vcubectl: trace: the first %" PRIu64 " records since the last reset are gone (the module keeps the last trace= of them)\n",
			r[0].seq);
}

/*
 * Each message's route in @r (@n), its minimal hop count by the live
 * network's topology (rebuilt: not for a graph), its channels named by
 * the link dump; what cannot be had is left out, not an error.
 */
static void trace_routes_read(struct vcube_nl *nl,
			      const struct vcube_trace_rec *r, size_t n)
{
	void *topo = NULL;

	if (!vcube_nl_topo_get(nl, &trace_routes.topo)) {
		topo = vc_topo_live(&trace_routes.topo);
		if (vcube_nl_link_dump(nl, &trace_routes.links,
				       &trace_routes.nlinks, NULL))
			trace_routes.links = NULL;
	}
	if (vcube_tool_routes(r, n, topo ? &(struct vcube_tool_route_ops){
				      .dist = vc_topo_live_distance,
				      .minroute = vc_topo_live_minroute,
				      .ctx = topo } : NULL,
			      &trace_routes.rt, &trace_routes.n))
		trace_routes.n = 0;
	vc_topo_live_free(topo);
}

static void trace_routes_free(void)
{
	vcube_tool_routes_free(trace_routes.rt, trace_routes.n);
	free(trace_routes.links);
	memset(&trace_routes, 0, sizeof(trace_routes));
}

static int trace_dump(struct vcube_nl *nl, void **out, size_t *n)
{
	struct vcube_trace_rec *r = NULL;
	int ret = vcube_nl_trace_dump(nl, &r, n, NULL);

	if (!ret) {
		trace_dropped(r, *n);
		trace_routes_read(nl, r, *n);
	}
	*out = r;
	return ret;
}

static const char trace_usage[] =
	"usage: vcubectl [-j] trace [--format text|perfetto|paje] [-o FILE]\n"
	"       vcubectl trace on|off\n"
	"Every record the kernel still keeps, oldest first (text, or JSON with\n"
	"-j): each channel use (probe, request, data), each message (msg: sent,\n"
	"path acquired, body flowing, delivered, its protocol), each interval a\n"
	"node waited and why (wait), each phase a program marked (mark).\n"
	"A msg record also gives the route its data took: the channels in\n"
	"order (vcubectl links' ids; JSON: route, route_links their ends),\n"
	"hops, min (the fewest between its ends, for the network rebuilt from\n"
	"its shape; not for a graph) and minimal yes or no (JSON: minimal,\n"
	"true, false or null: not known).\n"
	"--format perfetto writes Chrome trace-event JSON for ui.perfetto.dev: a\n"
	"track per link and per node, each message a flow from its sender\n"
	"through its links to its receiver, each wait with its cause; --format\n"
	"paje the same in SimGrid's Paje format, for ViTE and pajeng (pj_dump).\n"
	"on, off: switch recording on or off (CAP_NET_ADMIN); what is kept\n"
	"stays, vcubectl reset empties it.\n"
	"  --format F      text (the default), perfetto or paje\n"
	"  -o, --output F  write to F instead of standard output\n";

/* vcubectl trace on|off. */
static int trace_switch(bool on)
{
	struct vcube_nl *nl;
	int ret;

	if (vc_nl_open("trace", &nl))
		return 1;
	ret = vcube_nl_trace_set(nl, on);
	ret = ret ? vc_fail_nl("trace", ret, nl) : 0;
	vcube_nl_close(nl);
	return ret;
}

/* The network, its links in id order and the trace; 0 or -errno. */
static int trace_read_all(struct vcube_nl *nl, struct vcube_nl_topo *t,
			  struct vcube_nl_link **l, size_t *nl_n,
			  struct vcube_trace_rec **r, size_t *n)
{
	int ret = vcube_nl_topo_get(nl, t);

	ret = ret ?: vcube_nl_link_dump(nl, l, nl_n, NULL);
	return ret ?: vcube_nl_trace_dump(nl, r, n, NULL);
}

/* --format perfetto or paje: the whole record into @out (NULL: stdout). */
static int trace_export(const char *out, bool paje)
{
	struct vcube_nl_link *l = NULL;
	struct vcube_trace_rec *r = NULL;
	struct vcube_nl_topo t;
	struct vcube_nl *nl;
	size_t nlinks = 0, n = 0;
	FILE *f = stdout;
	int ret;

	if (vc_nl_open("trace", &nl))
		return 1;
	ret = trace_read_all(nl, &t, &l, &nlinks, &r, &n);
	if (ret) {
		ret = vc_fail_nl("trace", ret, nl);
		goto out;
	}
	trace_dropped(r, n);
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "vcubectl: trace: %s: %s\n", out, strerror(errno));
		ret = 1;
		goto out;
	}
	ret = (paje ? vc_paje_write : vc_perfetto_write)(f, &t, l, nlinks, r,
							 n);
	if ((f != stdout && fclose(f)) || ret) {
		fprintf(stderr, "vcubectl: trace: writing %s failed\n",
			out ? out : "the output");
		ret = 1;
	}
out:
	free(l);
	free(r);
	vcube_nl_close(nl);
	return ret;
}

int vc_cmd_trace(int argc, char **argv)
{
	static const struct vc_list trace = {
		.cmd = "trace", .size = sizeof(struct vcube_trace_rec),
		.dump = trace_dump, .head = trace_head, .print = trace_print,
	};
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL;
	bool perfetto = false, paje = false;
	int c;

	vc_sub_begin(argv);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "perfetto") &&
			    strcmp(optarg, "paje")) {
				fprintf(stderr, "vcubectl trace: --format: '%s' is not text, perfetto or paje\n",
					optarg);
				return 2;
			}
			perfetto = !strcmp(optarg, "perfetto");
			paje = !strcmp(optarg, "paje");
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(trace_usage, stdout);
			return 0;
		default:
			return vc_sub_usage("trace", NULL);
		}
	}
	if (optind + 1 == argc && !out && !perfetto && !paje &&
	    (!strcmp(argv[optind], "on") || !strcmp(argv[optind], "off")))
		return trace_switch(!strcmp(argv[optind], "on"));
	if (optind != argc)
		return vc_sub_usage("trace", "'%s': it takes on, off or no argument",
				    argv[optind]);
	if (perfetto || paje)
		return trace_export(out, paje);
	if (out && !freopen(out, "w", stdout)) {
		fprintf(stderr, "vcubectl: trace: %s: %s\n", out, strerror(errno));
		return 1;
	}
	c = vc_list_run(1, &trace);
	trace_routes_free();
	return c;
}
