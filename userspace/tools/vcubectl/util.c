// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl: what every command shares, below all of them (it calls only
 * print.c): saying why something failed, reading numbers, a subcommand's
 * usage, opening the netlink family and running a command that prints one
 * dump, and the names of vertices and links.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/routes.h"
#include "vcubectl/vcubectl.h"

int vc_fail(const char *what, int err)
{
	char who[64];

	snprintf(who, sizeof(who), "vcubectl: %s", what);
	if (err == -ENOENT)
		vcube_tool_no_net(who);
	else
		fprintf(stderr, "%s: %s\n", who, strerror(-err));
	return 1;
}

int vc_parse_uint(const char *s, const char *what, unsigned long long max,
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

int vc_no_args(int argc, const char *cmd)
{
	return argc > 1 ? vc_sub_usage(cmd, "it takes no arguments") : 0;
}

const char *vc_sub_begin(char **argv)
{
	static char name[48];
	const char *cmd = argv[0];

	snprintf(name, sizeof(name), "vcubectl %s", cmd);
	argv[0] = name;
	optind = 1;
	return cmd;
}

int vc_sub_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "vcubectl %s: ", cmd);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "try 'vcubectl %s --help'\n", cmd);
	return 2;
}

int vc_fail_nl(const char *what, int err, struct vcube_nl *nl)
{
	const char *msg = vcube_nl_errmsg(nl);

	if (err == -ENOENT)
		return vc_fail(what, err);
	fprintf(stderr, "vcubectl: %s: %s", what, strerror(-err));
	if (msg && *msg)
		fprintf(stderr, ": %s", msg);
	if (err == -EPERM)
		fprintf(stderr, " (needs CAP_NET_ADMIN)");
	fputc('\n', stderr);
	return 1;
}

int vc_nl_open(const char *what, struct vcube_nl **nl)
{
	int ret = vcube_nl_open(nl);

	/* the network VCUBE_NET (or --net) names is not in this namespace */
	if (ret == -ENODEV) {
		fprintf(stderr, "vcubectl: %s: no network named %s in this network namespace (vcubectl net show lists them)\n",
			what, vcube_env_net());
		return 1;
	}
	return ret ? vc_fail_nl(what, ret, NULL) : 0;
}

int vc_list_run(int argc, const struct vc_list *l)
{
	struct vcube_nl *nl;
	size_t n = 0, i;
	void *a = NULL;
	int ret;

	if (vc_no_args(argc, l->cmd))
		return 2;
	if (vc_nl_open(l->cmd, &nl))
		return 1;
	ret = l->dump(nl, &a, &n);
	if (ret) {
		ret = vc_fail_nl(l->cmd, ret, nl);
	} else {
		vc_open(NULL, '[');
		if (l->head)
			l->head();
		for (i = 0; i < n; i++)
			l->print((const char *)a + i * l->size);
		vc_close('[');
		vc_end();
		if (!n && l->none && !vc_json())
			fprintf(stderr, "vcubectl %s: %s\n", l->cmd, l->none);
	}
	free(a);
	vcube_nl_close(nl);
	return ret;
}

void vc_vertex(char *buf, size_t len, unsigned int level, unsigned int v)
{
	if (level)
		snprintf(buf, len, "L%u:%u", level, v);
	else
		snprintf(buf, len, "%u", v);
}

double vc_util(const struct vcube_nl_link *l, uint64_t elapsed)
{
	return elapsed ? (double)l->busy_ns / (double)elapsed : 0.0;
}

void vc_link_ends(const struct vcube_nl_topo *t,
		  const struct vcube_nl_link *l, char *buf, size_t len)
{
	vcube_tool_link_ends(buf, len, t->kind, l->from_level, l->from,
			     l->to_level, l->to, l->dir, l->lane, l->width);
}
