// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl net export --simgrid: a network as a SimGrid platform (issue
 * 47), so that a plain MPI program can run under SMPI on the network
 * vcube models.
 *
 * The network is the module parameters' words (topology=torus
 * dims=4,4,4 ...: the same words vcubectl net add and vcube-sim take,
 * with no kernel needed), or a live network's topology, shape and profile
 * as net show reads them. Its topology comes from kernel/core, linked in
 * here as in vcube-sim, and so do its routes.
 *
 * Every link has the constants of the network's profile (and its cost
 * words): bandwidth 1e12 / short_byte_ps bytes per second (short_byte_ns
 * to the ps) and latency short_hop_ns; a node's own channels, where the
 * topology has them, at inject_byte_ps and eject_byte_ps when set (a
 * cluster has one bandwidth, so those networks take the Full form). SimGrid's time for a message alone on its route is the
 * sum of its links' latencies, then its bytes at the route's bandwidth;
 * vcube's, in wormhole mode, is short_hop_ns per channel of its route,
 * then short_byte_ps per byte. A vcube route counts its node's own
 * channels (injection, ejection) where the topology has them, as
 * SimGrid's clusters give their nodes' own links the cluster's bw and
 * lat: link for channel, the same count on both sides.
 *
 * Two forms:
 *  - a <cluster> of SimGrid's TORUS, FAT_TREE or DRAGONFLY where SimGrid's
 *    routes are vcube's (a torus of dims=, a fat tree of levels= with
 *    d-mod-k routing and one link between each child and parent, a
 *    minimal dragonfly that SimGrid's wiring can have; see df_form());
 *  - otherwise a zone of routing="Full": a host per node, a router per
 *    switch, a <link> per vcube channel named after it (ch12 is channel
 *    12 of vcubectl links), and for each ordered pair of nodes a <route>
 *    that is vcube's own (vcube_topo_route()): N^2 routes, so at most
 *    VC_EXPORT_MAX_FULL nodes.
 * --hostfile writes SimGrid's host of each rank, rank i's on line i:
 * vcube's node i, renumbered for SimGrid's dragonfly, else in order.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: kernel/core's engine.h has a VC_ANY of its own, a macro */
#include "vcubectl/vcubectl.h"
#include "costs.h"
#include "graph/graph.h"
#include "profiles.h"
#include "topology.h"

/* A Full zone of N nodes has N * (N - 1) routes: 1024 is a million. */
#define VC_EXPORT_MAX_FULL	1024

struct vc_export {
	struct vcube_topo_params tp;
	struct vc_params p;
	const char *profile, *routing, *name;
	char profile_buf[16];
	bool topo_set, shaped;
	unsigned int ncost;
	struct { int i; u64 v; } cost[VC_NCOST_DEFS];
	struct vcube_netfile net;
	struct vcube_graph_desc gd;
	uint16_t *node_router, *links;
	uint32_t *costs;	/* a GraphML file's per channel, or NULL */
};

static int ex_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "vcubectl: net export: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\ntry 'vcubectl net --help'\n");
	return 2;
}

/* "a,b,c" into @v (at most @max values, each 1 .. 65536), *@n of them. */
static int ex_list(const char *s, u32 *v, u32 max, u32 *n)
{
	char *end;
	unsigned long x;

	for (*n = 0; *n < max; s = end + 1) {
		x = strtoul(s, &end, 10);
		if (end == s || *s == '-' || !x || x > 65536 ||
		    (*end && *end != ','))
			return -EINVAL;
		v[(*n)++] = (u32)x;
		if (!*end)
			return 0;
	}
	return -EINVAL;
}

/* A shape word @key=@val into @e: 0, 1 (not a shape word), -EINVAL. */
static int ex_shape_word(struct vc_export *e, const char *key, const char *val)
{
	static const char *const nums[] = { "dim", "rows", "cols", "nodes",
					    "levels", "groups", "routers",
					    "global" };
	u32 *const at[] = { &e->tp.dim, &e->tp.rows, &e->tp.cols,
			    &e->tp.nodes, &e->tp.levels, &e->tp.groups,
			    &e->tp.routers, &e->tp.global };
	unsigned long long v;
	char *end;
	size_t i;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (strcmp(key, nums[i]))
			continue;
		v = strtoull(val, &end, 10);
		if (end == val || *end || *val == '-' || !v || v > 65536)
			return -EINVAL;
		*at[i] = (u32)v;
		return 0;
	}
	if (!strcmp(key, "dims"))
		return ex_list(val, e->tp.dims, VCUBE_GRID_MAX_DIMS,
			       &e->tp.ndims);
	if (!strcmp(key, "down"))
		return ex_list(val, e->tp.down, VCUBE_FT_MAX_LEVELS,
			       &e->tp.ndown);
	if (!strcmp(key, "up"))
		return ex_list(val, e->tp.up, VCUBE_FT_MAX_LEVELS, &e->tp.nup);
	if (!strcmp(key, "links"))
		return ex_list(val, e->tp.links, VCUBE_FT_MAX_LEVELS,
			       &e->tp.nlinks);
	return 1;
}

/* A cost word @key=@val (-1: the profile's) into @e: 0, 1, -EINVAL. */
static int ex_cost_word(struct vc_export *e, const char *key, const char *val)
{
	int i = vc_cost_find(key, strlen(key));
	unsigned long long v;
	char *end;

	if (i < 0)
		return 1;
	if (!strcmp(val, "-1"))
		return 0;
	v = strtoull(val, &end, 10);
	if (end == val || *end || *val == '-' || v > vc_cost_defs[i].max)
		return -EINVAL;
	e->cost[e->ncost].i = i;
	e->cost[e->ncost++].v = v;
	return 0;
}

/* One of the module's words into @e: 0, or 2 (said). */
static int ex_word(struct vc_export *e, const char *word)
{
	const char *eq = strchr(word, '=');
	char key[24];
	int ret = -EINVAL, kind;

	if (!eq || eq == word || (size_t)(eq - word) >= sizeof(key))
		return ex_usage("'%s' is not KEY=VALUE", word);
	memcpy(key, word, (size_t)(eq - word));
	key[eq - word] = '\0';
	if (!strcmp(key, "topology")) {
		kind = vcube_topo_kind_parse(eq + 1);
		if (kind >= 0) {
			e->tp.kind = (enum vcube_topo_kind)kind;
			e->topo_set = true;
		}
		ret = kind < 0 ? -EINVAL : 0;
	} else if (!strcmp(key, "profile")) {
		e->profile = eq + 1;
		ret = 0;
	} else if (!strcmp(key, "routing")) {
		e->routing = eq + 1;
		ret = 0;
	} else if (!strcmp(key, "seed")) {
		ret = 0;	/* routes of no seeded choice are exported */
	} else if ((ret = ex_shape_word(e, key, eq + 1)) <= 0) {
		e->shaped = true;
	} else if (e->ncost < VC_NCOST_DEFS) {
		ret = ex_cost_word(e, key, eq + 1);
	}
	if (ret > 0)
		return ex_usage("'%s' is not a network word (topology, profile, dim, dims, rows, cols, nodes, levels, down, up, links, routing, groups, routers, global, seed, file, format, or a cost parameter's: modinfo vcube)",
				word);
	if (ret < 0)
		return ex_usage("bad value in '%s'", word);
	return 0;
}

/* The profile's costs and, for its own topology with no shape, its size. */
static int ex_profile(struct vc_export *e)
{
	const struct vc_profile *pr;
	int i;

	if (!e->profile && !e->topo_set)
		return ex_usage("%s", "say the network: topology=KIND and its shape (or profile=NAME, or a network's NAME)");
	if (!e->profile)
		e->profile = vc_profile_get(vc_profile_for_kind(e->tp.kind))->name;
	i = vc_profile_find(e->profile);
	if (i < 0)
		return ex_usage("no profile '%s' (ipsc860, seidel, delta, ap1000, cm5)",
				e->profile);
	pr = vc_profile_get(i);
	e->p = pr->params();
	if (!e->topo_set)
		e->tp.kind = pr->kind;
	if (e->tp.kind == pr->kind && !e->shaped) {
		e->tp.dim = pr->dim;
		e->tp.rows = pr->rows;
		e->tp.cols = pr->cols;
		e->tp.nodes = pr->nodes;
	}
	for (i = 0; i < (int)e->ncost; i++)
		vc_cost_set(&e->p, e->cost[i].i, e->cost[i].v);
	return 0;
}

/* file='s graph as the kernel takes it, into @e->tp: 0, or 1 (said). */
static int ex_graph(struct vc_export *e)
{
	struct vcube_netfile *f = &e->net;
	int ret;

	if (!f->nodes) {
		fprintf(stderr, "vcubectl: net export: topology=graph needs file=PATH [format=anynet|graphml]\n");
		return 2;
	}
	ret = vcube_netfile_costs(f, &e->costs);
	if (ret)	/* -EOPNOTSUPP: a warning */
		fprintf(stderr, "vcubectl: net export: %s\n", f->err);
	if (ret && ret != -EOPNOTSUPP)
		return ret == -ENOMEM ? 1 : 2;
	if (vcube_netfile_u16(f, &e->node_router, &e->links))
		return vc_fail("net export", -ENOMEM);
	e->gd = (struct vcube_graph_desc){ .routers = f->routers,
					   .nodes = f->nodes,
					   .nlinks = f->nlinks,
					   .node_router = e->node_router,
					   .links = e->links,
					   .costs = e->costs,
					   .nroutes = f->nroutes,
					   .routes = f->routes };
	e->tp.graph = &e->gd;
	return 0;
}

/*
 * @argc words (the module's, file= among them) into @topo and @e's
 * costs: 0, or the exit status, said.
 */
static int ex_network(struct vc_export *e, int argc, char **argv,
		      struct vcube_topo *topo)
{
	char err[160];
	int i, ret, n = argc;

	if (vcube_netfile_words(&e->net, &n, argv)) {
		fprintf(stderr, "vcubectl: net export: %s\n", e->net.err);
		return 1;
	}
	if (e->net.nodes) {
		e->tp.kind = VCUBE_TOPO_GRAPH;	/* file= is topology=graph */
		e->topo_set = true;
	}
	for (i = 0; i < n; i++)
		if ((ret = ex_word(e, argv[i])))
			return ret;
	ret = ex_profile(e);
	if (!ret && e->routing) {
		e->tp.routing = 0;
		i = vcube_topo_routing_parse(e->tp.kind, e->routing);
		if (i < 0)
			ret = ex_usage("routing=%s is not one of this topology's", e->routing);
		else
			e->tp.routing = (u32)i;
	}
	if (!ret && vc_costs_check(&e->p, err, sizeof(err)))
		ret = ex_usage("%s", err);
	if (!ret && e->tp.kind == VCUBE_TOPO_GRAPH)
		ret = ex_graph(e);
	if (!ret && vcube_topo_init(topo, &e->tp, err, sizeof(err)))
		ret = ex_usage("%s", err);
	vcube_netfile_free(&e->net);
	free(e->node_router);
	free(e->links);
	free(e->costs);
	e->costs = NULL;
	e->tp.graph = NULL;
	return ret;
}

/*
 * The live network @name's words, from net show's topology, shape and
 * profile, into @topo: 0, or the exit status, said. The costs are the
 * profile's: net-get does not send back cost words given at net add.
 */
static int ex_live(struct vc_export *e, const char *name,
		   struct vcube_topo *topo)
{
	char words[3][96], *w[12], *s, *save = NULL;
	struct vcube_nl_net *nets = NULL;
	struct vcube_nl *nl;
	size_t n = 0;
	int ret, k = 0;
	bool cm5;

	if (vc_nl_open("net export", &nl))
		return 1;
	ret = vcube_nl_net_dump(nl, name, &nets, &n);
	if (ret == -ENOENT || (!ret && !n)) {
		fprintf(stderr, "vcubectl: net export: no network named %s in this network namespace\n",
			name);
		ret = 1;
	} else if (ret) {
		ret = vc_fail_nl("net export", ret, nl);
	} else if (!strcmp(nets[0].topology, "graph")) {
		fprintf(stderr, "vcubectl: net export: %s is a graph, whose links net show does not give: export its words (file=PATH)\n",
			name);
		ret = 1;
	}
	vcube_nl_close(nl);
	if (ret) {
		free(nets);
		return ret;
	}
	snprintf(words[0], sizeof(words[0]), "topology=%s", nets[0].topology);
	snprintf(words[1], sizeof(words[1]), "profile=%s", nets[0].profile);
	snprintf(words[2], sizeof(words[2]), "%s", nets[0].shape);
	/* the CM-5's fat tree shows nodes= and the levels it took */
	cm5 = !strcmp(nets[0].topology, "fattree") &&
	      !strncmp(nets[0].shape, "nodes=", 6);
	free(nets);
	w[k++] = words[0];
	w[k++] = words[1];
	for (s = strtok_r(words[2], " ", &save); s && k < 12;
	     s = strtok_r(NULL, " ", &save))
		if (!cm5 || strncmp(s, "levels=", 7))
			w[k++] = s;
	return ex_network(e, k, w, topo);
}

/* ---- the platform ------------------------------------------------------ */

/*
 * Whether SimGrid's DRAGONFLY ("G,1;1,1;A,1;P": one chassis a group) is
 * vcube's dragonfly @df renumbered. SimGrid gives each router at most
 * one global link and puts group g's one link to group t on its router
 * t, so it needs A >= G routers; vcube joins each two groups by
 * L = floor(A * H / (G - 1)) links, H per router. With A >= G, L is 1
 * only for H = 1 and A <= 2G - 3: those (and a single group) are
 * SimGrid's; a second link between two groups (9 groups of 4 routers
 * with 2 global links each, say, or 3 of 4 with 1: L = 2) or fewer
 * routers than groups (5 groups of 4 routers, global=1) are not.
 */
static bool ex_df_cluster(const struct vcube_dragonfly *df)
{
	return df->groups == 1 || (df->links == 1 && df->global == 1 &&
				   df->routers >= df->groups);
}

/*
 * SimGrid's host of vcube's dragonfly node @x, where ex_df_cluster():
 * vcube puts group g's link to group t on router t, or t - 1 from t > g,
 * leaving router G - 1 (and those above) without one; SimGrid puts it on
 * router t, leaving router g (and those from G up) without one. The same
 * graph, a group's routers numbered otherwise, and both route minimally
 * (to the router holding the link, across it, to the target router).
 */
static u32 ex_df_host(const struct vcube_dragonfly *df, u32 x)
{
	u32 p = x % df->nodes, r = x / df->nodes % df->routers;
	u32 g = x / df->nodes / df->routers, s;

	if (r + 1 < df->groups)
		s = r < g ? r : r + 1;
	else
		s = r + 1 == df->groups ? g : r;
	return (g * df->routers + s) * df->nodes + p;
}

/*
 * SimGrid's cluster topology for @t, its topo_parameters in @par, or
 * NULL: the Full form. -EINVAL (said) for routes no fixed table holds.
 */
static const char *ex_cluster(const struct vcube_topo *t, bool full,
			      char *par, size_t len, int *err)
{
	const struct vcube_fattree *ft = &t->ft;
	size_t n = 0;
	u32 i, k;

	*err = 0;
	if ((t->kind == VCUBE_TOPO_FATTREE && ft->routing != VCUBE_FT_DMODK) ||
	    (t->kind == VCUBE_TOPO_DRAGONFLY &&
	     t->df.routing != VCUBE_DF_MINIMAL)) {
		fprintf(stderr, "vcubectl: net export: routing=%s chooses each message's route (seeded or by load); SimGrid's routes are one per pair: export routing=%s\n",
			t->kind == VCUBE_TOPO_FATTREE ?
			vcube_ft_routing_name(ft->routing) :
			vcube_df_routing_name(t->df.routing),
			t->kind == VCUBE_TOPO_FATTREE ? "dmodk" : "minimal");
		*err = -EINVAL;
		return NULL;
	}
	if (full)
		return NULL;
	if (t->kind == VCUBE_TOPO_TORUS && !t->plus_only) {
		for (i = 0; i < t->ndims && n < len; i++)
			n += snprintf(par + n, len - n, "%s%u", i ? "," : "",
				      t->size[i]);
		return "TORUS";
	}
	if (t->kind == VCUBE_TOPO_DRAGONFLY && ex_df_cluster(&t->df)) {
		snprintf(par, len, "%u,1;1,1;%u,1;%u", t->df.groups,
			 t->df.routers, t->df.nodes);
		return "DRAGONFLY";
	}
	if (t->kind != VCUBE_TOPO_FATTREE || ft->cm5)
		return NULL;
	/* SimGrid descends on link src mod p: vcube's when every p is 1 */
	for (k = 0; k < ft->levels; k++)
		if (ft->links[k] != 1)
			return NULL;
	n = snprintf(par, len, "%u", ft->levels);
	for (i = 0; i < 3; i++)
		for (k = 0; k < ft->levels && n < len; k++)
			n += snprintf(par + n, len - n, "%s%u", k ? "," : ";",
				      (i == 0 ? ft->down : i == 1 ? ft->parents :
				       ft->links)[k]);
	return "FAT_TREE";
}

/* A bandwidth of @ps a byte as SimGrid's attributes take it. */
static void ex_bw(u64 ps, char *bw, size_t len)
{
	if (1000000000000ULL % ps == 0)
		snprintf(bw, len, "%lluBps", 1000000000000ULL / ps);
	else
		snprintf(bw, len, "%.17gBps", 1e12 / (double)ps);
}

/* A link's bandwidth and latency as SimGrid's attributes take them. */
static void ex_consts(const struct vc_params *p, char *bw, char *lat,
		      size_t len)
{
	ex_bw(p->cost[VC_CLASS_SHORT].byte_ps, bw, len);
	snprintf(lat, len, "%lluns",
		 (unsigned long long)p->cost[VC_CLASS_SHORT].hop);
}

/*
 * Channel @c's own ps a byte (vc_chan_ps(): a graph file's, a node's
 * inject_byte_ps, eject_byte_ps) where it is not the links', else 0.
 */
static u64 ex_node_ps(const struct vc_params *p, const struct vcube_topo *t,
		      u32 c)
{
	u64 ps = vc_chan_ps(p, t, c);

	return ps == p->cost[VC_CLASS_SHORT].byte_ps ? 0 : ps;
}

/* The XML's opening, its comment saying which network and constants. */
static void ex_head(FILE *f, const struct vc_export *e,
		    const struct vcube_topo *t)
{
	char what[160], shape[VCUBE_SHAPE_LEN];
	const char *s;

	vcube_topo_format_shape(t, shape, sizeof(shape));
	snprintf(what, sizeof(what), "%s%s%s%s", e->name ? "network " : "",
		 e->name ? e->name : "", e->name ? ": " : "",
		 vcube_topo_kind_name(t->kind));
	fputs("<?xml version='1.0'?>\n"
	      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	      "<!-- vcube's ", f);
	/* an XML comment holds no "--" (a name may) */
	for (s = what; *s; s++)
		fputc(*s == '-' && s[1] == '-' ? '_' : *s, f);
	fprintf(f, " %s, profile %s: short_byte_ps=%llu short_hop_ns=%llu (vcubectl net export) -->\n"
		"<platform version=\"4.1\">\n"
		"  <zone id=\"world\" routing=\"Full\">\n", shape, e->profile,
		(unsigned long long)e->p.cost[VC_CLASS_SHORT].byte_ps,
		(unsigned long long)e->p.cost[VC_CLASS_SHORT].hop);
}

static int ex_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* A router per switch: every channel end above level 0, once. */
static int ex_routers(FILE *f, const struct vcube_topo *t)
{
	u64 *v = malloc(2 * (size_t)t->nchan * sizeof(*v));
	struct vcube_chan_info ci;
	size_t n = 0, i;
	u32 c;

	if (!v)
		return -ENOMEM;
	for (c = 0; c < t->nchan; c++) {
		if (vcube_topo_chan_info(t, c, &ci))
			continue;
		if (ci.from_level)
			v[n++] = (u64)ci.from_level << 32 | ci.from;
		if (ci.to_level)
			v[n++] = (u64)ci.to_level << 32 | ci.to;
	}
	qsort(v, n, sizeof(*v), ex_u64_cmp);
	for (i = 0; i < n; i++)
		if (!i || v[i] != v[i - 1])
			fprintf(f, "    <router id=\"L%u:%u\"/>\n",
				(u32)(v[i] >> 32), (u32)v[i]);
	free(v);
	return 0;
}

/*
 * The Full form: hosts, routers, a link per channel (a node's own at its
 * inject_byte_ps, eject_byte_ps), vcube's routes.
 */
static int ex_full(FILE *f, const struct vc_params *p,
		   const struct vcube_topo *t, const char *bw, const char *lat)
{
	u32 *chan = calloc(VCUBE_MAX_HOPS, sizeof(*chan));
	char nbw[48], nlat[48];
	u32 s, d, c;
	int n, k, ret;
	u64 ps;

	if (!chan)
		return -ENOMEM;
	for (s = 0; s < t->nodes; s++)
		fprintf(f, "    <host id=\"n%u\" speed=\"1Gf\"/>\n", s);
	ret = ex_routers(f, t);
	for (c = 0; c < t->nchan && !ret; c++) {
		ps = ex_node_ps(p, t, c);
		if (ps)
			ex_bw(ps, nbw, sizeof(nbw));
		if (t->graph && vcube_graph_chan_lat(t->graph, c))
			snprintf(nlat, sizeof(nlat), "%lluns",
				 (unsigned long long)p->cost[VC_CLASS_SHORT].hop +
				 vcube_graph_chan_lat(t->graph, c));
		else
			snprintf(nlat, sizeof(nlat), "%s", lat);
		fprintf(f, "    <link id=\"ch%u\" bandwidth=\"%s\" latency=\"%s\"/>\n",
			c, ps ? nbw : bw, nlat);
	}
	for (s = 0; s < t->nodes && !ret; s++)
		for (d = 0; d < t->nodes && !ret; d++) {
			if (s == d)
				continue;
			n = vcube_topo_route(t, s, d, 0, chan, VCUBE_MAX_HOPS);
			if (n < 0) {
				ret = n;
				break;
			}
			fprintf(f, "    <route src=\"n%u\" dst=\"n%u\" symmetrical=\"NO\">",
				s, d);
			for (k = 0; k < n; k++)
				fprintf(f, "<link_ctn id=\"ch%u\"/>", chan[k]);
			fputs("</route>\n", f);
		}
	free(chan);
	return ret;
}

/* @t's platform into @f, as @topo (NULL: Full) says: 0, or -errno. */
static int ex_platform(FILE *f, const struct vc_export *e,
		       const struct vcube_topo *t, const char *topo,
		       const char *par)
{
	char bw[48], lat[48];

	ex_consts(&e->p, bw, lat, sizeof(bw));
	ex_head(f, e, t);
	if (!topo)
		return ex_full(f, &e->p, t, bw, lat);
	fprintf(f, "    <cluster id=\"%s\" prefix=\"n\" suffix=\"\" radical=\"0-%u\" speed=\"1Gf\"\n"
		"             bw=\"%s\" lat=\"%s\" sharing_policy=\"SPLITDUPLEX\"\n"
		"             topology=\"%s\" topo_parameters=\"%s\"/>\n",
		e->name ? e->name : vcube_topo_kind_name(t->kind), t->nodes - 1,
		bw, lat, topo, par);
	return 0;
}

/* Rank i's SimGrid host on line i. */
static void ex_hosts(FILE *f, const struct vcube_topo *t, bool dragonfly)
{
	u32 x;

	for (x = 0; x < t->nodes; x++)
		fprintf(f, "n%u\n", dragonfly ? ex_df_host(&t->df, x) : x);
}

/* Open @path to write (NULL, "-": stdout): NULL said. */
static FILE *ex_open(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "vcubectl: net export: %s: %s\n", path,
			strerror(errno));
	return f;
}

/* Close @f (not stdout's) after writing it: 0, or 1 (said). */
static int ex_close(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f == stdout)
		bad = fflush(f) || bad;
	else
		bad = fclose(f) || bad;
	if (bad)
		fprintf(stderr, "vcubectl: net export: writing %s: %s\n",
			f == stdout ? "the standard output" : path,
			strerror(errno ? errno : EIO));
	return bad ? 1 : 0;
}

/*
 * The files for @t: the platform to @out, the hostfile to @hostf if
 * asked. 0, or the exit status, said.
 */
static int ex_write(const struct vc_export *e, const struct vcube_topo *t,
		    bool full, const char *out, const char *hostf)
{
	char par[128];
	int ret;
	const char *topo = ex_cluster(t, full, par, sizeof(par), &ret);
	FILE *f;
	u32 c;

	if (ret)
		return 1;
	/* a cluster has one bandwidth: nodes' own rates need links of theirs */
	for (c = 0; topo && c < t->nchan; c++)
		if (ex_node_ps(&e->p, t, c))
			topo = NULL;
	if (!topo && t->nodes > VC_EXPORT_MAX_FULL) {
		fprintf(stderr, "vcubectl: net export: %u nodes: SimGrid has no cluster for this network, and a Full zone lists a route for each ordered pair of nodes (%llu routes): at most %d nodes\n",
			t->nodes, (unsigned long long)t->nodes * (t->nodes - 1),
			VC_EXPORT_MAX_FULL);
		return 1;
	}
	if (!e->p.cost[VC_CLASS_SHORT].byte_ps) {
		fprintf(stderr, "vcubectl: net export: short_byte_ns=0 is a channel of unbounded bandwidth, which a SimGrid link cannot have\n");
		return 1;
	}
	f = ex_open(out);
	if (!f)
		return 1;
	ret = ex_platform(f, e, t, topo, par);
	if (ret) {
		if (f != stdout)
			fclose(f);
		return vc_fail("net export", ret);
	}
	fputs("  </zone>\n</platform>\n", f);
	if (ex_close(f, out))
		return 1;
	if (!hostf)
		return 0;
	f = ex_open(hostf);
	if (!f)
		return 1;
	ex_hosts(f, t, topo && t->kind == VCUBE_TOPO_DRAGONFLY);
	return ex_close(f, hostf);
}

static int ex_help(void)
{
	printf("usage: vcubectl net export --simgrid [--hostfile FILE] [-o FILE] [--full]\n"
	       "                          (NAME | KEY=VALUE ...)\n\n"
	       "The SimGrid platform of network NAME (as net show reads it) or of\n"
	       "the module parameters' words (topology=torus dims=4,4,4 ...; no\n"
	       "module needed), for SMPI's smpirun -platform. Every link has the\n"
	       "profile's constants: bandwidth 1e12 / short_byte_ps bytes/s, latency\n"
	       "short_hop_ns. A torus (dims=), a fat tree (levels=, d-mod-k, one\n"
	       "link per child and parent) and a dragonfly SimGrid can wire are its\n"
	       "TORUS, FAT_TREE and DRAGONFLY clusters; any other network is a Full\n"
	       "zone: a link per vcube channel (chN), vcube's own route for each\n"
	       "pair of nodes, at most %d nodes.\n"
	       "  --simgrid        SimGrid's XML (the only format)\n"
	       "  --hostfile FILE  smpirun's -hostfile: rank i's host on line i,\n"
	       "                   the host wired as vcube's node i\n"
	       "  -o FILE          the platform to FILE (default: standard output)\n"
	       "  --full           the Full zone even where a cluster would do\n",
	       VC_EXPORT_MAX_FULL);
	return 0;
}

/* The words or the NAME (net show's) into @t: 0, or the exit status. */
static int ex_source(struct vc_export *e, int argc, char **argv,
		     struct vcube_topo *t)
{
	int i, words = 0;

	for (i = 0; i < argc; i++)
		words += strchr(argv[i], '=') != NULL;
	if (!argc)
		return ex_usage("%s", "name the network: NAME, or its KEY=VALUE words");
	for (i = 0; words && words < argc && strchr(argv[i], '='); i++)
		;
	if (words && words < argc)
		return ex_usage("'%s': a network's NAME or its KEY=VALUE words, not both",
				argv[i]);
	if (!words && argc > 1)
		return ex_usage("'%s': one NAME only", argv[1]);
	if (!words) {
		e->name = argv[0];
		return ex_live(e, argv[0], t);
	}
	return ex_network(e, argc, argv, t);
}

/* vcubectl net export ...: @argv[0] is "export". */
int vc_cmd_net_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "simgrid", no_argument, NULL, 's' },
		{ "hostfile", required_argument, NULL, 'H' },
		{ "output", required_argument, NULL, 'o' },
		{ "full", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *hostf = NULL;
	struct vc_export e = { 0 };
	struct vcube_topo t = { 0 };
	bool simgrid = false, full = false;
	int c, ret;

	argv[0] = "vcubectl net export";
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': simgrid = true; break;
		case 'H': hostf = optarg; break;
		case 'o': out = optarg; break;
		case 'f': full = true; break;
		case 'h': return ex_help();
		default: return ex_usage("%s", "bad option");
		}
	}
	if (!simgrid)
		return ex_usage("%s", "say the format: --simgrid (SimGrid's platform XML, the only one)");
	ret = ex_source(&e, argc - optind, argv + optind, &t);
	if (ret)
		return ret;
	ret = ex_write(&e, &t, full, out, hostf);
	vcube_topo_fini(&t);
	return ret;
}

/*
 * The topology of the network @t describes (topo-get's kind and shape),
 * rebuilt by kernel/core for vcube_topo_distance(): a new one (free it
 * with vc_topo_live_free()), or NULL (a graph, whose links the shape
 * does not give; a shape this vcubectl does not read; no memory).
 */
void *vc_topo_live(const struct vcube_nl_topo *t)
{
	char words[2][96], *w[12], *s, *save = NULL;
	struct vc_export e = { 0 };
	struct vcube_topo *topo;
	bool cm5;
	int k = 0;

	if (t->kind >= VCUBE_TOPO_NKINDS || t->kind == VCUBE_TOPO_GRAPH)
		return NULL;
	topo = calloc(1, sizeof(*topo));
	if (!topo)
		return NULL;
	snprintf(words[0], sizeof(words[0]), "topology=%s",
		 vcube_topo_kind_name(t->kind));
	snprintf(words[1], sizeof(words[1]), "%s", t->shape);
	cm5 = t->kind == VCUBE_TOPO_FATTREE && !strncmp(t->shape, "nodes=", 6);
	w[k++] = words[0];
	for (s = strtok_r(words[1], " ", &save); s && k < 12;
	     s = strtok_r(NULL, " ", &save))
		if (!cm5 || strncmp(s, "levels=", 7))
			w[k++] = s;
	if (ex_network(&e, k, w, topo)) {
		free(topo);
		return NULL;
	}
	return topo;
}

void vc_topo_live_free(void *topo)
{
	if (topo)
		vcube_topo_fini(topo);
	free(topo);
}

/*
 * vcube_tool_minroute_fn: a dragonfly's minimal route (one global link),
 * whatever its routing=; other topologies are judged by length (-EINVAL).
 */
int vc_topo_live_minroute(void *topo, unsigned int src, unsigned int dst,
			  unsigned int *chan, unsigned int max)
{
	return topo ? vcube_df_minimal_route(topo, src, dst, chan, max) :
		      -EINVAL;
}

unsigned int vc_topo_live_distance(void *topo, unsigned int src,
				   unsigned int dst)
{
	struct vcube_topo *t = topo;

	if (!t || src >= t->nodes || dst >= t->nodes)
		return VCUBE_TRACE_NONE;
	return vcube_topo_distance(t, src, dst);
}
