// SPDX-License-Identifier: GPL-2.0
/*
 * Networks read from files (userspace/tools/graph): BookSim2's anynet
 * grammar and SST anytopo's GraphML, what they mean (routers, nodes, links,
 * latencies, bandwidths), and every way a file can be wrong, each refused
 * with its line; and examples/booksim-ring.anynet routed by kernel/core's
 * graph as worked by hand.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph/graph.h"
#include "../../kernel/core/graph.h"
#include "../../kernel/core/topology.h"

/* the reader refuses what the module would: the same bounds */
_Static_assert(VCUBE_NETFILE_MAX_NODES == VCUBE_MAX_NODES, "nodes");
_Static_assert(VCUBE_NETFILE_MAX_ROUTERS == VCUBE_GRAPH_MAX_ROUTERS, "routers");
_Static_assert(VCUBE_NETFILE_MAX_LINKS == VCUBE_GRAPH_MAX_LINKS, "links");

static int parse(struct vcube_netfile *g, const char *text, const char *fmt)
{
	return vcube_netfile_parse(g, "t", text, strlen(text), fmt);
}

/* @text is refused with a message holding @want. */
static void refused(const char *text, const char *fmt, const char *want)
{
	struct vcube_netfile g;
	int ret = parse(&g, text, fmt);

	CHECK(ret < 0, "accepted: %s", text);
	CHECK(strstr(g.err, want), "'%s': said '%s', not '%s'", text, g.err,
	      want);
	CHECK(!g.links && !g.node_router && !g.routers,
	      "'%s': something kept after a refusal", text);
}

static const struct vcube_netfile_link *link_of(const struct vcube_netfile *g,
					      uint32_t a, uint32_t b)
{
	uint32_t i;

	for (i = 0; i < g->nlinks; i++)
		if ((g->links[i].a == a && g->links[i].b == b) ||
		    (g->links[i].a == b && g->links[i].b == a))
			return &g->links[i];
	return NULL;
}

/* The README's example (src/examples/anynet/README's grammar). */
static void check_anynet(void)
{
	struct vcube_netfile g;
	const struct vcube_netfile_link *l;
	uint32_t i;

	CHECK(!parse(&g, "router 0 node 0 node 1 node 2 router 1\n"
			 "router 1 node 3 node 4 node 5\n"
			 "router 2 node 6 node 7 node 8 router 1 router 0\n", NULL),
	      "%s", g.err);
	CHECK(!strcmp(g.format, "anynet"), "format %s", g.format);
	CHECK(g.routers == 3 && g.nodes == 9 && g.nlinks == 3,
	      "%u routers, %u nodes, %u links", g.routers, g.nodes, g.nlinks);
	for (i = 0; i < 9; i++)
		CHECK(g.node_router[i] == i / 3, "node %u on %u", i,
		      g.node_router[i]);
	CHECK(link_of(&g, 0, 1) && link_of(&g, 1, 2) && link_of(&g, 0, 2),
	      "the triangle");
	vcube_netfile_free(&g);

	/* latencies: one way for routers, both ways for a node; last wins */
	CHECK(!parse(&g, "router 0 router 1 15 router 2 node 0 node 1 5\n"
			 "Router 1 node 2 Router 0 3\n"
			 "node 3 router 2 # a comment\n"
			 "\n   \t\n"
			 "router 2 router 0 7 router 0 9\n", "anynet"), "%s", g.err);
	CHECK(g.routers == 3 && g.nodes == 4 && g.nlinks == 2, "%u %u %u",
	      g.routers, g.nodes, g.nlinks);
	l = link_of(&g, 0, 1);
	CHECK(l && l->a == 0 && l->lat[0] == 15 && l->lat[1] == 3,
	      "0-1: %u %u", l ? l->lat[0] : 0, l ? l->lat[1] : 0);
	l = link_of(&g, 0, 2);
	CHECK(l && l->lat[0] == 0 && l->lat[1] == 9, "0-2: %u %u",
	      l ? l->lat[0] : 0, l ? l->lat[1] : 0);
	CHECK(g.node_lat[0] == 0 && g.node_lat[1] == 5 && g.node_router[3] == 2,
	      "node latencies %u %u", g.node_lat[0], g.node_lat[1]);
	vcube_netfile_free(&g);

	/* one router with every node: no links, still a network */
	CHECK(!parse(&g, "router 0 node 0 node 1\n", NULL), "%s", g.err);
	CHECK(g.routers == 1 && g.nodes == 2 && !g.nlinks, "single router");
	vcube_netfile_free(&g);

	refused("router 0 node 0 node 1\nrouter 1 node 1\n", NULL,
		"t:2: node 1 is on router 0 and router 1");
	refused("router 0 node 0 router 2\nrouter 2 node 1\n", NULL,
		"router 1 is never named");
	refused("router 0 node 0 node 2\n", NULL, "node 1 is on no router");
	refused("router 0 node 0 node 1\nrouter 1 node 2\n", NULL,
		"router 1 cannot be reached from router 0");
	refused("router 0 node 0 node 1\nnode 0 node 1\n", NULL,
		"t:2: node 0 linked to node 1");
	refused("router 0 router 0 node 0\n", NULL, "router 0 is linked to itself");
	refused("router 0 switch 1\n", NULL, "t:1: 'switch' where 'router' or 'node' belongs");
	refused("router 0 node\n", NULL, "t:1: 'node' without an id");
	refused("router x node 0\n", NULL, "t:1: 'x' is not a router id");
	refused("router 0 node -1\n", NULL, "'-1' is not a node id");
	refused("router 0 node 4096\n", NULL, "'4096' is not a node id (0..4095)");
	refused("router 0 node 0 node 1 0\n", NULL, "t:1: a latency of 0 cycles");
	refused("router 0 node 0 node 1 1000000001\n", NULL, "not a latency in cycles");
	refused("router 0 node 0 node 1 5 6\n", NULL, "'6' where 'router' or 'node' belongs");
	refused("node 3\n", NULL, "t:1: node 3 names no router");
	refused("router 0 node 0\n", NULL, "1 nodes: a network needs at least 2");
	refused("# nothing\n", NULL, "no 'router' line");
	refused("", "anynet", "no 'router' line");
	refused("router 0 node 0", "dot", "unknown format 'dot'");
}

static const char *gml_head =
	"<?xml version='1.0' encoding='utf-8'?>\n"
	"<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
	"<key id=\"d0\" for=\"node\" attr.name=\"endpoints\" attr.type=\"long\"/>\n"
	"<key id=\"d1\" for=\"edge\" attr.name=\"latency\" attr.type=\"string\"/>\n"
	"<key id=\"d2\" for=\"edge\" attr.name=\"bandwidth\" attr.type=\"double\">"
	"<default>1e9</default></key>\n";

static char *gml(const char *graph)
{
	static char b[4096];

	snprintf(b, sizeof(b), "%s%s</graphml>\n", gml_head, graph);
	return b;
}

static void check_graphml(void)
{
	struct vcube_netfile g;
	const struct vcube_netfile_link *l;

	/* networkx's way: string ids, parallel edges of a MultiGraph */
	CHECK(!parse(&g, gml("<graph edgedefault=\"undirected\">\n"
			     "<edge source=\"s1\" target=\"s0\"><data key=\"d1\">100ns</data></edge>\n"
			     "<node id=\"s0\"><data key=\"d0\">2</data></node>\n"
			     "<node id=\"s1\"><data key=\"d0\">0</data></node>\n"
			     "<node id=\"s2\"><data key=\"d0\">3</data></node>\n"
			     "<edge source=\"s1\" target=\"s2\" id=\"0\"><data key=\"d1\">1.5us</data>"
			     "<data key=\"d2\">100Gb/s</data></edge>\n"
			     "<edge source=\"s1\" target=\"s2\" id=\"1\"><data key=\"d1\">250</data></edge>\n"
			     "</graph>\n"), NULL), "%s", g.err);
	CHECK(!strcmp(g.format, "graphml"), "format %s", g.format);
	CHECK(g.routers == 3 && g.nodes == 5 && g.nlinks == 3, "%u %u %u",
	      g.routers, g.nodes, g.nlinks);
	CHECK(g.node_router[0] == 0 && g.node_router[1] == 0 &&
	      g.node_router[2] == 2 && g.node_router[4] == 2, "nodes in vertex order");
	l = &g.links[0];
	CHECK(l->a == 1 && l->b == 0 && l->lat[0] == 100 && l->lat[1] == 100 &&
	      l->bw == 1000000000ULL, "edge 0: %u %u %u %llu", l->a, l->b,
	      l->lat[0], (unsigned long long)l->bw);
	CHECK(g.links[1].lat[0] == 1500 && g.links[1].bw == 12500000000ULL,
	      "edge 1: %u %llu", g.links[1].lat[0],
	      (unsigned long long)g.links[1].bw);
	CHECK(g.links[2].lat[0] == 250 && g.links[2].a == 1 && g.links[2].b == 2,
	      "edge 2, parallel: %u", g.links[2].lat[0]);
	vcube_netfile_free(&g);

	refused(gml("<graph edgedefault=\"directed\"><node id=\"a\"><data key=\"d0\">2</data></node></graph>"),
		NULL, "edgedefault='directed': links go both ways");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<node id=\"b\"><data key=\"d0\">1</data></node>"
		    "<edge source=\"a\" target=\"b\" directed=\"true\"/></graph>"),
		NULL, "a directed edge");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"/></graph>"),
		NULL, "a vertex without an 'endpoints' attribute");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">two</data></node></graph>"),
		NULL, "endpoints='two' is not a count");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">5000</data></node></graph>"),
		NULL, "past its limits");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<node id=\"a\"><data key=\"d0\">1</data></node></graph>"),
		NULL, "two vertices with id 'a'");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<node id=\"b\"><data key=\"d0\">1</data></node>"
		    "<edge source=\"a\" target=\"c\"/></graph>"),
		NULL, "an edge from 'a' to 'c': no such vertex");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">2</data></node>"
		    "<edge source=\"a\" target=\"a\"/></graph>"),
		NULL, "vertex 'a' is linked to itself");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<node id=\"b\"><data key=\"d0\">1</data></node>"
		    "<edge source=\"a\" target=\"b\"><data key=\"d1\">fast</data></edge></graph>"),
		NULL, "latency 'fast' is not a time");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<node id=\"b\"><data key=\"d0\">1</data></node>"
		    "<edge source=\"a\" target=\"b\"><data key=\"d2\">-3</data></edge></graph>"),
		NULL, "bandwidth '-3' is not a rate");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<node id=\"b\"><data key=\"d0\">1</data></node></graph>"),
		NULL, "router 1 cannot be reached from router 0");
	refused(gml("<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">1</data></node>"
		    "<hyperedge/></graph>"), NULL, "a hyperedge");
	refused(gml("<graph edgedefault=\"undirected\"/><graph edgedefault=\"undirected\"/>"),
		NULL, "a second <graph>");
	refused(gml(""), NULL, "no <graph>");
	refused(gml("<graph edgedefault=\"undirected\"></graph>"), NULL, "no vertices");
	refused("<graphml><graph edgedefault=\"undirected\"><node id=\"a\">\n", NULL,
		"not well-formed XML");
	refused("<svg/>", NULL, "not GraphML (its root element is <svg>)");
	/* no entity is expanded, no DTD fetched */
	refused("<?xml version=\"1.0\"?>\n<!DOCTYPE g [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
		"<graphml><key id=\"d0\" for=\"node\" attr.name=\"endpoints\"/>"
		"<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"d0\">&x;</data></node>"
		"</graph></graphml>", NULL, "endpoints='' is not a count");
}

static void check_files(void)
{
	struct vcube_netfile g;
	int ret;

	ret = vcube_netfile_load(&g, "/nonexistent/net.graphml", NULL);
	CHECK(ret == -ENOENT && strstr(g.err, "/nonexistent/net.graphml: No such file"),
	      "%d %s", ret, g.err);
	ret = vcube_netfile_load(&g, "/dev/null", NULL);
	CHECK(ret == -EINVAL && strstr(g.err, "/dev/null: no 'router' line"), "%d %s",
	      ret, g.err);
}

/* kernel/core/engine.c's, which this test does not link (env.h) */
unsigned long vc_alloc_fail_nth;

/*
 * examples/booksim-ring.anynet through kernel/core's graph: 8 routers in
 * a ring with chords 0-4 and 2-6, nodes 2r and 2r + 1 on router r. Its
 * lengths (channels: in, the router hops, out) are worked by hand.
 */
static void check_example_routes(void)
{
	static const struct { u32 src, dst, len; } want[] = {
		{ 0, 1, 2 },	/* one router */
		{ 0, 8, 3 },	/* r0-r4, the chord */
		{ 0, 6, 4 },	/* r0-r4-r3, not r0-r1-r2-r3 */
		{ 2, 12, 4 },	/* r1-r2-r6 */
		{ 2, 10, 5 },	/* r1 to r5: 3 hops either way round */
		{ 6, 14, 5 },	/* r3 to r7: likewise */
		{ 15, 3, 4 },	/* r7-r0-r1 */
	};
	/* r1 to r5 over the lower link first: r1-r0 (link 0-1), r0-r4, r4-r5 */
	static const u32 via[] = { 0, 4, 5 };
	struct vcube_netfile f;
	struct vcube_graph gr = { 0 };
	struct vcube_graph_desc d;
	uint16_t *nr = NULL, *links = NULL;
	u32 chan[8], i, to, dir;
	u8 lf, lt;
	char err[128] = "";
	int n;

	n = vcube_netfile_load(&f, VCUBE_TOP "/examples/booksim-ring.anynet", NULL);
	CHECK(!n && f.routers == 8 && f.nodes == 16 && f.nlinks == 10,
	      "%s: %u routers, %u nodes, %u links", f.err, f.routers, f.nodes,
	      f.nlinks);
	if (n || vcube_netfile_u16(&f, &nr, &links))
		goto out;
	d = (struct vcube_graph_desc){ .routers = f.routers, .nodes = f.nodes,
				       .nlinks = f.nlinks, .node_router = nr,
				       .links = links };
	n = vcube_graph_init(&gr, &d, err, sizeof(err));
	CHECK(!n, "%s", err);
	if (n)
		goto out;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(vcube_graph_distance(&gr, want[i].src, want[i].dst) == want[i].len,
		      "node %u to %u: %u channels, not %u", want[i].src,
		      want[i].dst, vcube_graph_distance(&gr, want[i].src, want[i].dst),
		      want[i].len);
	CHECK(gr.diameter == 5, "diameter %u, not 5", gr.diameter);
	n = vcube_graph_route(&gr, 2, 10, chan, 8);
	CHECK(n == 5, "node 2 to 10: a route of %d channels", n);
	for (i = 0; n == 5 && i < 3; i++) {
		vcube_graph_chan(&gr, chan[i + 1], &(u32){ 0 }, &lf, &to, &lt, &dir);
		CHECK(to == via[i] && lt == 1, "node 2 to 10: hop %u to router %u, not %u",
		      i + 1, to, via[i]);
	}
	vcube_graph_fini(&gr);
out:
	vcube_netfile_free(&f);
	free(nr);
	free(links);
}

int main(void)
{
	check_anynet();
	check_graphml();
	check_files();
	check_example_routes();
	return check_done("graph_test");
}
