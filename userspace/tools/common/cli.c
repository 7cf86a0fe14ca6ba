// SPDX-License-Identifier: MIT
/*
 * The command-line habits every vcube tool shares (cli.h).
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cli.h"
#include "vcube.h"

#ifndef VCUBE_VERSION
#error "VCUBE_VERSION comes from the Makefile"
#endif

void vcube_tool_name(char **argv, const char *tool)
{
	argv[0] = (char *)tool;
}

int vcube_tool_version(const char *tool)
{
	printf("%s (vcube) %s\n", tool, VCUBE_VERSION);
	return VCUBE_EXIT_OK;
}

int vcube_tool_try_help(const char *tool)
{
	fprintf(stderr, "try '%s --help'\n", tool);
	return VCUBE_EXIT_USAGE;
}

void vcube_tool_no_net(const char *who)
{
	if (vcube_env_net())
		fprintf(stderr, "%s: no network named %s (vcubectl net show lists them)\n",
			who, vcube_env_net());
	else
		fprintf(stderr, "%s: no vcube network is loaded (insmod vcube.ko ...)\n",
			who);
}

int vcube_tool_net(const char *tool, struct vcube_net_desc *net)
{
	int ret = vcube_net_describe(NULL, net);

	if (ret == -ENOENT)
		vcube_tool_no_net(tool);
	else if (ret)
		fprintf(stderr, "%s: the vcube network: %s\n", tool,
			strerror(-ret));
	return ret ? VCUBE_EXIT_FAIL : 0;
}

static double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void vcube_tool_progress_init(struct vcube_tool_progress *p, const char *tool,
			      unsigned int total, bool quiet)
{
	p->tool = tool;
	p->total = total;
	p->mode = quiet ? VCUBE_PROGRESS_OFF : isatty(STDERR_FILENO) ?
		  VCUBE_PROGRESS_TTY : VCUBE_PROGRESS_LINES;
	p->width = 0;
	p->last = progress_now();
}

void vcube_tool_progress_step(struct vcube_tool_progress *p, unsigned int done,
			      double every_s, const char *fmt, ...)
{
	char what[160], head[64] = "";
	double now;
	va_list ap;

	if (p->mode == VCUBE_PROGRESS_OFF)
		return;
	now = progress_now();
	if (every_s > 0 && now - p->last <
	    (p->mode == VCUBE_PROGRESS_TTY ? every_s / 10 : every_s))
		return;
	p->last = now;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->total)
		snprintf(head, sizeof(head), "[%u/%u] ", done + 1, p->total);
	if (p->mode == VCUBE_PROGRESS_LINES) {
		fprintf(stderr, "%s: %s%s\n", p->tool, head, what);
		return;
	}
	if (p->total) {	/* a bar, then "k/n" */
		int w = 20, k = (int)((unsigned long long)done * w / p->total);

		snprintf(head, sizeof(head), "[%.*s%*s] %u/%u ", k,
			 "####################", w - k, "", done + 1, p->total);
	}
	fprintf(stderr, "\r%*s\r", p->width, "");
	p->width = fprintf(stderr, "%s: %s%s", p->tool, head, what);
	fflush(stderr);
}

void vcube_tool_progress_end(struct vcube_tool_progress *p)
{
	if (p->mode == VCUBE_PROGRESS_TTY && p->width > 0) {
		fprintf(stderr, "\r%*s\r", p->width, "");
		fflush(stderr);
	}
	p->width = 0;
}
