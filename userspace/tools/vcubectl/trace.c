// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl windows, vcubectl trace: the peak channel sharing per window of
 * window_ns, and the record of every channel use the kernel still keeps,
 * both over generic netlink. Each value is printed once for both text and
 * JSON (print.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vcubectl/vcubectl.h"

/* Tries of a dump that saw the counters move under it. */
#define VC_DUMP_TRIES	5

static void window_print(const struct vcube_nl_window *w)
{
	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "window", "window %llu", w->index);
	vc_print_uint(VC_ANY, "peak", " peak %llu\n", w->peak);
	vc_close('{');
}

int vc_cmd_windows(int argc, char **argv)
{
	struct vcube_nl_window *w = NULL;
	struct vcube_nl *nl;
	size_t n = 0, i;
	int ret, tries = 0;

	(void)argv;
	if (vc_no_args(argc, "windows"))
		return 2;
	if (vc_nl_open("windows", &nl))
		return 1;
	do
		ret = vcube_nl_window_dump(nl, &w, &n, NULL);
	while (ret == -EAGAIN && ++tries < VC_DUMP_TRIES);
	if (ret) {
		ret = vc_fail_nl("windows", ret, nl);
	} else {
		vc_open(NULL, '[');
		for (i = 0; i < n; i++)
			window_print(&w[i]);
		vc_close('[');
		vc_end();
	}
	free(w);
	vcube_nl_close(nl);
	return ret;
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

static void trace_print(const struct vcube_trace_rec *r)
{
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

int vc_cmd_trace(int argc, char **argv)
{
	struct vcube_trace_rec *r = NULL;
	struct vcube_nl *nl;
	size_t n = 0, i;
	int ret, tries = 0;

	(void)argv;
	if (vc_no_args(argc, "trace"))
		return 2;
	if (vc_nl_open("trace", &nl))
		return 1;
	do
		ret = vcube_nl_trace_dump(nl, &r, &n, NULL);
	while (ret == -EAGAIN && ++tries < VC_DUMP_TRIES);
	if (ret) {
		ret = vc_fail_nl("trace", ret, nl);
	} else {
		vc_open(NULL, '[');
		vc_print_text("%8s %8s %-7s %6s %6s %10s %7s %3s %10s %14s %14s\n",
			      "seq", "msg", "kind", "src", "dst", "tag",
			      "channel", "hop", "bytes", "start_us", "end_us");
		for (i = 0; i < n; i++)
			trace_print(&r[i]);
		vc_close('[');
		vc_end();
	}
	free(r);
	vcube_nl_close(nl);
	return ret;
}
