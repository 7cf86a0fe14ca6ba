// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl windows, vcubectl trace: the peak channel sharing per window of
 * window_ns, and the record of every channel use the kernel still keeps,
 * both over generic netlink. Each value is printed once for both text and
 * JSON (print.h).
 */
#include <stdio.h>

#include "vcubectl/vcubectl.h"

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
	};

	(void)argv;
	return vc_list_run(argc, &windows);
}

static const char *trace_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		[VCUBE_TRACE_KIND_PROBE] = "probe",
		[VCUBE_TRACE_KIND_REQUEST] = "request",
		[VCUBE_TRACE_KIND_DATA] = "data",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] :
							 "unknown";
}

static void trace_print(const void *entry)
{
	const struct vcube_trace_rec *r = entry;

	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "seq", "%8llu", r->seq);
	vc_print_uint(VC_ANY, "msg", " %8llu", r->msg);
	vc_print_str(VC_ANY, "kind", " %-7s", trace_kind_name(r->kind));
	vc_print_uint(VC_ANY, "src", " %6llu", r->src);
	vc_print_uint(VC_ANY, "dst", " %6llu", r->dst);
	vc_print_uint(VC_ANY, "tag", " %10llu", r->tag);
	vc_print_uint(VC_ANY, "channel", " %7llu", r->channel);
	vc_print_uint(VC_ANY, "hop", " %3llu", r->hop);
	vc_print_uint(VC_ANY, "bytes", " %10llu", r->bytes);
	vc_print_uint(VC_JSON, "start_ns", NULL, r->start);
	vc_print_float(VC_TEXT, NULL, " %14.3f", r->start / 1e3);
	vc_print_uint(VC_JSON, "end_ns", NULL, r->end);
	vc_print_float(VC_TEXT, NULL, " %14.3f\n", r->end / 1e3);
	vc_close('{');
}

static void trace_head(void)
{
	vc_print_text("%8s %8s %-7s %6s %6s %10s %7s %3s %10s %14s %14s\n",
		      "seq", "msg", "kind", "src", "dst", "tag", "channel",
		      "hop", "bytes", "start_us", "end_us");
}

static int trace_dump(struct vcube_nl *nl, void **out, size_t *n)
{
	struct vcube_trace_rec *r = NULL;
	int ret = vcube_nl_trace_dump(nl, &r, n, NULL);

	*out = r;
	return ret;
}

int vc_cmd_trace(int argc, char **argv)
{
	static const struct vc_list trace = {
		.cmd = "trace", .size = sizeof(struct vcube_trace_rec),
		.dump = trace_dump, .head = trace_head, .print = trace_print,
	};

	(void)argv;
	return vc_list_run(argc, &trace);
}
