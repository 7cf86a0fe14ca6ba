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
 *
 * This file holds the commands on the device and sysfs and the command
 * table; the netlink commands are vcubectl/nl.c, the printing of text and
 * JSON vcubectl/print.c, the picture vcubectl/svg.c, what every command
 * shares vcubectl/util.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "vcubectl/vcubectl.h"

static const char *sysfs_root;

static int cmd_show(int argc, char **argv)
{
	struct vcube_net_desc d;
	int ret;

	(void)argv;
	if (vc_no_args(argc, "show"))
		return 2;
	ret = vcube_net_describe(sysfs_root, &d);
	if (ret)
		return vc_fail("show", ret);
	vc_open(NULL, '{');
	vc_print_str(VC_ANY, "topology", "%s", d.topology);
	vc_print_str(VC_ANY, "shape", " %s", d.shape);
	/* a fat tree's shape already says nodes= */
	vc_print_uint(strstr(d.shape, "nodes=") ? VC_JSON : VC_ANY, "nodes",
		      " nodes %llu", d.nodes);
	vc_print_uint(VC_ANY, "channels", " channels %llu", d.channels);
	vc_print_uint(VC_ANY, "diameter", " diameter %llu", d.diameter);
	vc_print_str(VC_ANY, "profile", " profile %s", d.profile);
	vc_print_uint(VC_ANY, "seed", " seed %llu\n", d.seed);
	vc_close('{');
	vc_end();
	return 0;
}

/* One node: its place, its neighbours and who holds it (text: if any). */
static void place_print(const struct vcube_node_desc *n)
{
	unsigned int k;

	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "node", "node %llu", n->node);
	vc_print_str(VC_ANY, "coords", " coords %s neighbors", n->coords);
	vc_open("neighbors", '[');
	for (k = 0; k < n->nneighbors; k++)
		vc_print_uint(VC_ANY, NULL, " %llu", n->neighbors[k]);
	vc_close('[');
	vc_print_int(n->owner ? VC_ANY : VC_JSON, "owner", " owner %lld",
		     n->owner);
	vc_print_text("\n");
	vc_close('{');
}

static int cmd_places(int argc, char **argv)
{
	struct vcube_node_desc n;
	struct vcube_net_desc d;
	unsigned int i;
	int ret;

	(void)argv;
	if (vc_no_args(argc, "places"))
		return 2;
	ret = vcube_net_describe(sysfs_root, &d);
	if (ret)
		return vc_fail("places", ret);
	vc_open(NULL, '[');
	for (i = 0; i < d.nodes && !ret; i++) {
		ret = vcube_node_describe(sysfs_root, i, &n);
		if (!ret)
			place_print(&n);
	}
	vc_close('[');
	vc_end();
	return ret ? vc_fail("places", ret) : 0;
}

/*
 * A route: the vertices it passes (text), then each hop's channel, ends
 * and direction (or fat-tree lane).
 */
static void route_print(const struct vcube_node_info *info,
			unsigned long long src, unsigned long long dst,
			unsigned long long cookie,
			const struct vcube_hop *hops, int n)
{
	char from[24], to[24];
	int i;

	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "src", "%llu", src);
	vc_print_uint(VC_JSON, "dst", NULL, dst);
	vc_print_uint(VC_JSON, "cookie", NULL, cookie);
	for (i = 0; i < n; i++) {
		vc_vertex(to, sizeof(to), hops[i].to_level, hops[i].to);
		vc_print_str(VC_TEXT, NULL, " -> %s", to);
	}
	vc_print_text("  (%d hop%s)\n", n, n == 1 ? "" : "s");
	vc_open("hops", '[');
	for (i = 0; i < n; i++) {
		const struct vcube_hop *h = &hops[i];

		vc_vertex(from, sizeof(from), h->from_level, h->from);
		vc_vertex(to, sizeof(to), h->to_level, h->to);
		vc_open(NULL, '{');
		vc_print_uint(VC_ANY, "channel", "  channel %llu:", h->channel);
		vc_print_uint(VC_JSON, "from", NULL, h->from);
		vc_print_uint(VC_JSON, "from_level", NULL, h->from_level);
		vc_print_uint(VC_JSON, "to", NULL, h->to);
		vc_print_uint(VC_JSON, "to_level", NULL, h->to_level);
		vc_print_uint(VC_JSON, "lane", NULL, h->lane);
		vc_print_uint(VC_JSON, "dir", NULL, h->dir);
		vc_print_text(" %s -> %s %s %u\n", from, to,
			      vcube_dir_name(info->topology, h->dir),
			      info->topology == VCUBE_TOPOLOGY_FATTREE ?
			      h->lane : h->dir);
		vc_close('{');
	}
	vc_close('[');
	vc_close('{');
	vc_end();
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
	int c, n, ret;

	vc_sub_begin(argv);
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (vc_parse_uint(optarg, "--cookie", UINT64_MAX, &cookie))
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
			return vc_sub_usage("route", NULL);
		}
	}
	if (argc - optind < 2)
		return vc_sub_usage("route", "SRC and DST are needed");
	if (argc - optind > 2)
		return vc_sub_usage("route", "'%s': one argument too many",
				    argv[optind + 2]);
	if (vc_parse_uint(argv[optind], "SRC", UINT32_MAX, &src) ||
	    vc_parse_uint(argv[optind + 1], "DST", UINT32_MAX, &dst))
		return 2;
	/* node numbers, never a job's ranks (vcube-run --nodes) */
	ret = vcube_node_open_net(vcube_env_net(), (unsigned int)src, &node);
	if (ret)
		return vc_fail("route: binding the source node", ret);
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
		return vc_fail("route", n);
	}
	route_print(&info, src, dst, cookie, hops, n);
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
	{ "topo", vc_cmd_topo, "the network and its counters, over netlink" },
	{ "links", vc_cmd_links, "every channel's counters [--sort K] [--top N] [--svg F]" },
	{ "nodes", vc_cmd_nodes, "every node's state, clock and counters" },
	{ "cnet", vc_cmd_cnet, "the control network's costs and counters (CM-5)" },
	{ "places", cmd_places, "every node with its place and its neighbours" },
	{ "route", cmd_route, "SRC DST: the channels a message crosses" },
	{ "reset", vc_cmd_reset, "start every counter afresh (CAP_NET_ADMIN)" },
	{ "watch", vc_cmd_watch, "a live view of the busiest links" },
	{ "monitor", vc_cmd_monitor, "window peaks and deadlocks as they happen [--count N]" },
	{ "windows", vc_cmd_windows, "the peak channel sharing per window of window_ns" },
	{ "trace", vc_cmd_trace, "every record kept, oldest first [--format perfetto|paje] [-o F]; on|off" },
	{ "deadlock", vc_cmd_deadlock, "what every node of the last deadlock waited for (CAP_NET_ADMIN)" },
	{ "net", vc_cmd_net, "[show [NAME] | add NAME KEY=VALUE... | del NAME | export]: the networks" },
	{ "help", cmd_help, "this text" },
};

static int cmd_help(int argc, char **argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	printf("usage: vcubectl [-j|--json] [--net NAME] [--sysfs DIR] [COMMAND [ARGS]]\n\n"
	       "Look at a vcube network: the default one (the module parameters'),\n"
	       "or NAME's (vcubectl net). Without a command: show.\n\n"
	       "commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		printf("  %-8s %s\n", cmds[i].name, cmds[i].desc);
	printf("\noptions:\n"
	       "  -j, --json     print JSON instead of text\n"
	       "  -p, --pretty   JSON, indented (implies -j)\n"
	       "  --net NAME     the network NAME (default: VCUBE_NET, else the\n"
	       "                 module parameters' network)\n"
	       "  --sysfs DIR    read network facts from DIR instead of the\n"
	       "                 network's (%s for the default one)\n"
	       "  -h, --help     this text\n"
	       "  -V, --version  the version\n\n"
	       "A command may be shortened to any prefix, as ip's are: the first in\n"
	       "the list above that starts so is taken (l: links, t: topo, w: watch).\n",
	       VCUBE_SYSFS_ROOT);
	return 0;
}

/* The first command, in the table's order, that @word starts: ip's habit. */
static int cmd_find(const char *word)
{
	size_t i, n = strlen(word);

	for (i = 0; n && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strncmp(word, cmds[i].name, n))
			return (int)i;
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "net", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char path[64];
	int c, i;

	vcube_tool_name(argv, "vcubectl");
	while ((c = getopt_long(argc, argv, "+jphV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			vc_print_mode(true);
			break;
		case 'p':
			vc_print_mode(true);
			vc_print_pretty(true);
			break;
		case 's':
			sysfs_root = optarg;
			break;
		case 'n':
			/* libvcube's calls (netlink, sysfs, devices) follow it */
			if (vcube_node_path(optarg, 0, path, sizeof(path))) {
				fprintf(stderr, "vcubectl: --net: '%s' is not a network name\n",
					optarg);
				return 2;
			}
			setenv("VCUBE_NET", optarg, 1);
			break;
		case 'h':
			return cmd_help(0, NULL);
		case 'V':
			return vcube_tool_version("vcubectl");
		default:
			return vcube_tool_try_help("vcubectl");
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		return cmd_show(0, NULL);
	i = cmd_find(argv[0]);
	if (i < 0) {
		fprintf(stderr, "vcubectl: unknown command '%s'\n", argv[0]);
		return vcube_tool_try_help("vcubectl");
	}
	argv[0] = (char *)cmds[i].name;
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) &&
	    cmds[i].fn != cmd_route && cmds[i].fn != vc_cmd_links &&
	    cmds[i].fn != vc_cmd_watch && cmds[i].fn != vc_cmd_trace &&
	    cmds[i].fn != vc_cmd_monitor && cmds[i].fn != vc_cmd_net) {
		printf("usage: vcubectl [-j] %s\n%s\n", cmds[i].name,
		       cmds[i].desc);
		return 0;
	}
	return cmds[i].fn(argc, argv);
}
