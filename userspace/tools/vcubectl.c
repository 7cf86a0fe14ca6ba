// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl: look at a loaded vcube network.
 *
 *   vcubectl [-j] show                 the network: topology, shape, size
 *   vcubectl [-j] nodes                every node, its place and neighbours
 *   vcubectl [-j] route SRC DST        the channels a message would cross
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int cmd_nodes(int argc, char **argv)
{
	struct vcube_node_desc n;
	struct vcube_net_desc d;
	unsigned int i, k;
	int ret;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "vcubectl nodes: takes no arguments\n");
		return 2;
	}
	ret = vcube_net_describe(sysfs_root, &d);
	if (ret)
		return fail("nodes", ret);
	if (json)
		putchar('[');
	for (i = 0; i < d.nodes; i++) {
		ret = vcube_node_describe(sysfs_root, i, &n);
		if (ret) {
			if (json)
				printf("]\n");
			return fail("nodes", ret);
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

static int cmd_help(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *desc;
} cmds[] = {
	{ "show", cmd_show, "the network: topology, shape, size, profile, seed" },
	{ "nodes", cmd_nodes, "every node with its place and its neighbours" },
	{ "route", cmd_route, "SRC DST: the channels a message crosses" },
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
		    cmds[i].fn != cmd_route) {
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
