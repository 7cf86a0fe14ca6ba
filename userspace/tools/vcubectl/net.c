// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl net: networks made and deleted at run time, in the style of ip
 * link: net add NAME key=value..., net del NAME, net show [NAME]; and net
 * export, a network as a SimGrid platform (export.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "vcubectl/vcubectl.h"

static void net_print(const struct vcube_nl_net *n)
{
	char dev[64];

	if (vcube_node_path(n->is_default ? NULL : n->name, 0, dev,
			    sizeof(dev)))
		dev[0] = '\0';
	vc_open(NULL, '{');
	vc_print_uint(VC_ANY, "id", "%llu:", n->id);
	vc_print_str(VC_ANY, "name", " %s", n->name);
	vc_print_bool(VC_JSON, "default", NULL, n->is_default);
	vc_print_str(VC_ANY, "topology", " %s", n->topology);
	vc_print_str(VC_ANY, "shape", " %s", n->shape);
	vc_print_uint(VC_ANY, "nodes", " nodes %llu", n->nodes);
	vc_print_uint(VC_ANY, "channels", " channels %llu", n->channels);
	vc_print_str(VC_ANY, "profile", " profile %s", n->profile);
	vc_print_str(VC_ANY, "switching", " %s", n->switching);
	vc_print_uint(VC_ANY, "bound", " bound %llu", n->bound);
	vc_print_uint(VC_JSON, "mode", NULL, n->mode);
	vc_print_text(" mode %04o", n->mode);
	/* its first node's device: the rest are numbered on from it */
	vc_print_str(VC_ANY, "dev0", " %s\n", dev);
	vc_close('{');
}

static int net_usage(const char *why)
{
	if (why)
		fprintf(stderr, "vcubectl net: %s\n", why);
	fprintf(stderr, "try 'vcubectl net --help'\n");
	return 2;
}

static int net_help(void)
{
	printf("usage: vcubectl [-j] net [show [NAME]]\n"
	       "       vcubectl net add NAME [KEY=VALUE ...]\n"
	       "       vcubectl net del NAME\n"
	       "       vcubectl net export --simgrid [--hostfile FILE] [-o FILE] [--full]\n"
	       "                           (NAME | KEY=VALUE ...)\n\n"
	       "The networks of this network namespace. add makes one from the\n"
	       "module parameters' words (modinfo vcube: topology=mesh rows=4 cols=4\n"
	       "profile=delta ..., or topology=torus dims=8,8,8 for 1 to 6\n"
	       "dimensions, or topology=fattree levels=2 down=16,16 up=1,16\n"
	       "[links=1,1] [routing=dmodk|random] for SimGrid's FAT_TREE, or\n"
	       "topology=dragonfly groups=9 routers=4 nodes=2 global=2\n"
	       "[routing=minimal|valiant|ugal], or topology=graph file=PATH\n"
	       "[format=anynet|graphml] for any graph of routers read from BookSim2's\n"
	       "anynet or SST's GraphML (read here, sent as its routers, nodes and\n"
	       "links; routed by shortest path); each absent one takes the\n"
	       "parameter's default);\n"
	       "its nodes are then /dev/vcube/NAME/RANK, and vcube-run --net NAME\n"
	       "or vcubectl --net NAME use it. del deletes one: a call on its nodes\n"
	       "then fails with ENODEV. add and del need CAP_NET_ADMIN in the\n"
	       "namespace's user namespace (unshare -Urn gives it).\n"
	       "export writes a network, NAME's or the words' (no module needed),\n"
	       "as a SimGrid platform for SMPI (vcubectl net export --help).\n");
	return 0;
}

/*
 * A file's per-link latencies and bandwidths, per channel (NULL: none):
 * 0, or -errno, said. anynet's latencies are cycles, not time: warned of,
 * and the profile's costs apply.
 */
static int net_file_costs(struct vcube_netfile *f, uint32_t **costs)
{
	int ret = vcube_netfile_costs(f, costs);

	if (ret)
		fprintf(stderr, "vcubectl: net add: %s\n", f->err);
	return ret == -EOPNOTSUPP ? 0 : ret;
}

/*
 * net add: the words, a file= among them read here (topology=graph
 * implied) and sent as the graph's routers, nodes and links, and their
 * costs if it gives them.
 */
static int net_add(struct vcube_nl *nl, const char *name, int argc,
		   char **argv)
{
	struct vcube_nl_graph graph = { 0 };
	uint16_t *node_router = NULL, *links = NULL;
	uint32_t *costs = NULL;
	char **kv = calloc((size_t)argc + 2, sizeof(*kv));
	struct vcube_netfile f;
	struct vcube_nl_net made;
	int n = argc, i, ret, topo = 0;

	if (!kv)
		return vc_fail("net add", -ENOMEM);
	memcpy(kv, argv, (size_t)argc * sizeof(*kv));
	ret = vcube_netfile_words(&f, &n, kv);
	if (ret) {
		fprintf(stderr, "vcubectl: net add: %s\n", f.err);
		free(kv);
		return 1;
	}
	for (i = 0; i < n; i++)
		topo |= !strncmp(kv[i], "topology=", 9);
	if (f.nodes) {
		if (!topo)
			kv[n++] = "topology=graph";
		/* a bad file's costs: said, exit 1 */
		ret = net_file_costs(&f, &costs) ? 1 :
		      vcube_netfile_u16(&f, &node_router, &links);
		graph = (struct vcube_nl_graph){ .routers = f.routers,
						 .nodes = f.nodes,
						 .nlinks = f.nlinks,
						 .node_router = node_router,
						 .links = links,
						 .costs = costs,
						 .nroutes = f.nroutes,
						 .routes = f.routes };
	}
	if (!ret)
		ret = vcube_nl_net_new_graph(nl, name, n, kv, 0,
					     f.nodes ? &graph : NULL, &made);
	if (ret && ret != 1) {
		ret = vc_fail_nl("net add", ret, nl);
	} else if (!ret) {
		net_print(&made);
		vc_end();
	}
	vcube_netfile_free(&f);
	free(node_router);
	free(links);
	free(costs);
	free(kv);
	return ret;
}

static int net_show(struct vcube_nl *nl, const char *name)
{
	struct vcube_nl_net *nets;
	size_t n, i;
	int ret;

	ret = vcube_nl_net_dump(nl, name, &nets, &n);
	if (ret == -ENOENT && name) {
		fprintf(stderr, "vcubectl: net show: no network named %s in this network namespace\n",
			name);
		return 1;
	}
	if (ret)
		return vc_fail_nl("net show", ret, nl);
	vc_open(NULL, '[');
	for (i = 0; i < n; i++)
		net_print(&nets[i]);
	vc_close('[');
	vc_end();
	free(nets);
	return 0;
}

int vc_cmd_net(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "show";
	struct vcube_nl *nl;
	int ret;

	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") ||
	    !strcmp(sub, "help"))
		return net_help();
	if (!strcmp(sub, "export"))
		return vc_cmd_net_export(argc - 1, argv + 1);
	if (strcmp(sub, "show") && strcmp(sub, "add") && strcmp(sub, "del"))
		return net_usage("the subcommands are show, add, del and export");
	if (strcmp(sub, "show") && argc < 3)
		return net_usage("name the network");
	if ((!strcmp(sub, "show") && argc > 3) ||
	    (!strcmp(sub, "del") && argc > 3))
		return net_usage("too many arguments");
	/*
	 * The family's policy refuses a longer name before the module sees
	 * it, with netlink's "Attribute failed policy validation": say the
	 * rule the module would.
	 */
	if (argc > 2 && strlen(argv[2]) > 15) {
		fprintf(stderr, "vcubectl: net %s: bad name %s: 1 to 15 of a-z A-Z 0-9 _ -, a letter first\n",
			sub, argv[2]);
		return 1;
	}
	if (vc_nl_open("net", &nl))
		return 1;
	if (!strcmp(sub, "show")) {
		ret = net_show(nl, argc > 2 ? argv[2] : NULL);
	} else if (!strcmp(sub, "add")) {
		ret = net_add(nl, argv[2], argc - 3, argv + 3);
	} else {
		ret = vcube_nl_net_del(nl, argv[2]);
		if (ret == -ENOENT) {
			fprintf(stderr, "vcubectl: net del: no network named %s in this network namespace\n",
				argv[2]);
			ret = 1;
		} else if (ret) {
			ret = vc_fail_nl("net del", ret, nl);
		}
	}
	vcube_nl_close(nl);
	return ret;
}
