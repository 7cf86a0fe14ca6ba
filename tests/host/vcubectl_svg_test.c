// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl links --svg without the module: the link dump made from
 * kernel/core's topology as the kernel's link-get fills it, its counters
 * from messages routed over it, and libvcube's netlink calls stood in for
 * here, so vcubectl's own links command runs on it. With --svg it writes
 * the picture and prints nothing; a small network is drawn whole; at
 * 4,096 nodes (hypercube dim=12, 64x64 mesh and torus, fat tree) the
 * picture stays under 2,000 px and every used channel shows, drawn or
 * counted in a cell, while unused ones are left out or only counted.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "check.h"
#include "topology.h"
#include "vcubectl/vcubectl.h"

#define MAX_PX		2000
#define MAX_BYTES	(4u << 20)

/* Where the pictures go: a directory of their own, or $VCUBECTL_SVG_KEEP. */
static char svg_dir[512];

/* The network the stand-ins serve. */
static struct vcube_nl_topo cur_topo;
static struct vcube_nl_link *cur_links;
static size_t cur_n;

int vcube_nl_open(struct vcube_nl **nlp)
{
	static int token;

	*nlp = (struct vcube_nl *)&token;
	return 0;
}

void vcube_nl_close(struct vcube_nl *nl)
{
	(void)nl;
}

int vcube_nl_topo_get(struct vcube_nl *nl, struct vcube_nl_topo *topo)
{
	(void)nl;
	*topo = cur_topo;
	return 0;
}

int vcube_nl_link_dump(struct vcube_nl *nl, struct vcube_nl_link **out,
		       size_t *n, unsigned int *parts)
{
	(void)nl;
	*out = malloc(cur_n * sizeof(**out) + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, cur_links, cur_n * sizeof(**out));
	*n = cur_n;
	if (parts)
		*parts = 1;
	return 0;
}

/* What nl.c calls but links never does. */
int vcube_nl_node_dump(struct vcube_nl *nl, struct vcube_nl_node **out,
		       size_t *n, unsigned int *parts)
{
	(void)nl, (void)out, (void)n, (void)parts;
	return -EOPNOTSUPP;
}

int vcube_nl_stats_reset(struct vcube_nl *nl)
{
	(void)nl;
	return -EOPNOTSUPP;
}

int vcube_nl_cnet_get(struct vcube_nl *nl, struct vcube_nl_cnet *cnet)
{
	(void)nl, (void)cnet;
	return -EOPNOTSUPP;
}

int vcube_nl_monitor(struct vcube_nl *nl)
{
	(void)nl;
	return -EOPNOTSUPP;
}

int vcube_nl_notice_recv(struct vcube_nl *nl, struct vcube_nl_notice *nt,
			 int timeout_ms)
{
	(void)nl, (void)nt, (void)timeout_ms;
	return -EOPNOTSUPP;
}

const char *vcube_nl_errmsg(const struct vcube_nl *nl)
{
	(void)nl;
	return NULL;
}

const char *vcube_switching_name(unsigned int switching)
{
	return switching == VCUBE_SWITCHING_PACKET ? "packet" : "circuit";
}

const char *vcube_node_state_name(unsigned int state)
{
	(void)state;
	return "unbound";
}

struct net {
	struct vcube_topo topo;
	bool packet;
	struct vcube_nl_topo t;
	struct vcube_nl_link *l;
	size_t n;
};

/* @p's network, every counter 0, as a link dump gives it; 0 or -errno. */
static int net_make(struct net *x, const struct vcube_topo_params *p,
		    bool packet)
{
	static const unsigned int kinds[] = {
		[VCUBE_TOPO_HYPERCUBE] = VCUBE_TOPOLOGY_HYPERCUBE,
		[VCUBE_TOPO_MESH] = VCUBE_TOPOLOGY_MESH,
		[VCUBE_TOPO_TORUS] = VCUBE_TOPOLOGY_TORUS,
		[VCUBE_TOPO_FATTREE] = VCUBE_TOPOLOGY_FATTREE,
		[VCUBE_TOPO_DRAGONFLY] = VCUBE_TOPOLOGY_DRAGONFLY,
		[VCUBE_TOPO_GRAPH] = VCUBE_TOPOLOGY_GRAPH,
	};
	struct vcube_chan_info ci;
	char err[128];
	u32 w;
	size_t i;
	int ret;

	memset(x, 0, sizeof(*x));
	ret = vcube_topo_init(&x->topo, p, err, sizeof(err));
	if (ret)
		return ret;
	x->packet = packet;
	x->t.kind = kinds[p->kind];
	x->t.switching = packet ? VCUBE_SWITCHING_PACKET :
				  VCUBE_SWITCHING_CIRCUIT;
	x->t.nodes = x->topo.nodes;
	x->t.channels = x->topo.nchan;
	x->t.links = packet ? x->topo.nbundles : x->topo.nchan;
	vcube_topo_format_shape(&x->topo, x->t.shape, sizeof(x->t.shape));
	snprintf(x->t.profile, sizeof(x->t.profile), "test");
	x->t.elapsed = 1000000;
	x->n = x->t.links;
	x->l = calloc(x->n, sizeof(*x->l));
	if (!x->l)
		return -ENOMEM;
	for (i = 0; i < x->n; i++) {
		w = 1;
		ret = packet ? vcube_topo_bundle_info(&x->topo, i, &ci, &w) :
			       vcube_topo_chan_info(&x->topo, i, &ci);
		if (ret)
			return ret;
		x->l[i] = (struct vcube_nl_link){
			.id = i, .from = ci.from, .to = ci.to,
			.from_level = ci.from_level, .to_level = ci.to_level,
			.dir = ci.dir, .lane = ci.lane, .width = w,
		};
	}
	return 0;
}

/* A message of @bytes from @src to @dst: 10 ns a byte on every hop. */
static void net_send(struct net *x, u32 src, u32 dst, u64 bytes)
{
	static u32 chan[VCUBE_MAX_HOPS];
	struct vcube_nl_link *l;
	u32 w;
	int k, i;

	k = vcube_topo_route(&x->topo, src, dst, x->t.messages, chan,
			     VCUBE_MAX_HOPS);
	CHECK(k >= 0, "route %u -> %u: %d", src, dst, k);
	for (i = 0; i < k; i++) {
		l = &x->l[x->packet ? vcube_topo_bundle(&x->topo, chan[i], &w) :
				      chan[i]];
		l->messages++;
		l->bytes += bytes;
		l->transfers++;
		l->busy_ns += 10 * bytes;
		if (l->busy_ns > x->t.elapsed)
			l->busy_ns = x->t.elapsed;
	}
	x->t.messages++;
}

/* Every node of @nodes.. sends to every other: a job's exchange. */
static void net_exchange(struct net *x, u32 first, u32 nodes)
{
	u32 s, d;

	for (s = first; s < first + nodes; s++)
		for (d = first; d < first + nodes; d++)
			if (s != d)
				net_send(x, s, d, 64);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static size_t count(const char *s, const char *what)
{
	size_t k = 0;

	for (; (s = strstr(s, what)); s++)
		k++;
	return k;
}

struct seen {
	size_t bytes;
	double w, h;
	size_t used;		/* channels with any use */
	size_t drawn_used;	/* used ones with a title of their own */
	size_t drawn_unused;	/* unused ones with one */
	size_t counted;		/* used ones counted in a cell's title */
	size_t circles;
	size_t titles;		/* links drawn: a channel, or a bundle */
};

/*
 * Run "vcubectl links --svg @path" on @x; what stdout got goes to *@out
 * (malloc'd). The exit status.
 */
static int run_links(struct net *x, const char *path, char **out)
{
	char tmp[] = "/tmp/vcubectl-svg-out-XXXXXX";
	char *argv[] = { "links", "--svg", (char *)path, NULL };
	int fd = mkstemp(tmp), saved, ret;
	size_t len;

	cur_topo = x->t;
	cur_links = x->l;
	cur_n = x->n;
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	ret = vc_cmd_links(path ? 3 : 1, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	*out = slurp(tmp, &len);
	unlink(tmp);
	return ret;
}

/* Draw @x into @name in svg_dir through the links command, read it back. */
static void draw(struct net *x, const char *name, struct seen *s)
{
	char *svg, *out = NULL, *p, *e, *q, path[PATH_MAX];
	xmlDocPtr doc;
	bool *titled;
	unsigned int id;
	size_t i, a, b;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%s", svg_dir, name);
	ret = run_links(x, path, &out);
	CHECK(ret == 0, "%s: links --svg exit %d", path, ret);
	CHECK(out && !*out, "%s: links --svg printed %zu bytes", path,
	      out ? strlen(out) : 0);
	free(out);
	svg = slurp(path, &s->bytes);
	CHECK(svg, "%s: not written", path);
	if (!svg)
		return;
	doc = xmlReadMemory(svg, (int)s->bytes, path, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING);
	CHECK(doc, "%s: not well-formed XML", path);
	xmlFreeDoc(doc);
	p = strstr(svg, "<svg ");
	CHECK(p && sscanf(p, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%lf\" height=\"%lf\"",
			  &s->w, &s->h) == 2, "%s: no size", path);
	s->circles = count(svg, "<circle");
	s->titles = count(svg, "<title>link ");
	/*
	 * One pass over the titles: a channel's ("link ID: ..."), or a
	 * cell's ("...: A of B channels used, ...").
	 */
	titled = calloc(x->n + 1, sizeof(*titled));
	CHECK(titled, "calloc");
	for (p = svg; titled && (p = strstr(p, "<title>")); p = e) {
		e = strstr(p, "</title>");
		if (!e)
			break;
		*e = 0;
		if (!strncmp(p, "<title>link ", 12)) {
			/* a bundle's: "link ID, ID, ...: ends; ..." */
			q = p + 12;
			do {
				id = (unsigned int)strtoul(q, &q, 10);
				if (id < x->n)
					titled[id] = true;
			} while (!strncmp(q, ", ", 2) && (q += 2));
		} else if ((q = strstr(p, ": ")) &&
			 (sscanf(q, ": %zu of %zu channels used", &a, &b) == 2 ||
			  sscanf(q, ": %zu of %zu bundles used", &a, &b) == 2))
			s->counted += a;
		e++;
	}
	for (i = 0; titled && i < x->n; i++) {
		bool used = x->l[i].transfers || x->l[i].busy_ns;

		s->used += used;
		if (titled[x->l[i].id])
			*(used ? &s->drawn_used : &s->drawn_unused) += 1;
	}
	free(titled);
	free(svg);
}

static void free_net(struct net *x)
{
	free(x->l);
	x->l = NULL;
	vcube_topo_fini(&x->topo);
}

/* A big network's picture: bounded, and every used channel shows. */
static void check_big(const char *what, const struct seen *s, bool each)
{
	printf("%s: %.0f x %.0f px, %zu bytes, %zu used, %zu drawn (%zu unused), %zu in cells, %zu circles\n",
	       what, s->w, s->h, s->bytes, s->used, s->drawn_used,
	       s->drawn_unused, s->counted, s->circles);
	CHECK(s->w > 0 && s->w <= MAX_PX, "%s: %.0f px wide", what, s->w);
	CHECK(s->h > 0 && s->h <= MAX_PX, "%s: %.0f px high", what, s->h);
	CHECK(s->bytes <= MAX_BYTES, "%s: %zu bytes", what, s->bytes);
	CHECK(s->used > 0, "%s: nothing used", what);
	if (each)
		CHECK(s->drawn_used == s->used && !s->counted,
		      "%s: %zu of %zu used channels drawn", what, s->drawn_used,
		      s->used);
	else
		CHECK(s->counted == s->used && !s->drawn_used && !s->drawn_unused,
		      "%s: %zu of %zu used channels in cells, %zu drawn", what,
		      s->counted, s->used, s->drawn_used + s->drawn_unused);
}

/* Small networks: drawn whole, as before (tests/vm/netlink.sh counts d5). */
static void check_small(void)
{
	struct vcube_topo_params p;
	struct net x;
	struct seen s;
	char *out = NULL;
	int ret;

	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_HYPERCUBE, .dim = 5 };
	CHECK(!net_make(&x, &p, false), "dim=5");
	net_exchange(&x, 0, 32);
	draw(&x, "d5.svg", &s);
	CHECK(s.drawn_used == 160 && s.circles == 32 && s.w <= MAX_PX,
	      "dim=5: %zu channels, %zu circles, %.0f px", s.drawn_used,
	      s.circles, s.w);
	/* without --svg the table: a header and a line per channel */
	ret = run_links(&x, NULL, &out);
	CHECK(ret == 0 && out && count(out, "\n") == 161,
	      "links: exit %d, %zu lines", ret, out ? count(out, "\n") : 0);
	free(out);
	free_net(&x);

	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_TORUS, .rows = 4,
					.cols = 4 };
	CHECK(!net_make(&x, &p, false), "4x4");
	net_exchange(&x, 0, 8);
	draw(&x, "t4.svg", &s);
	CHECK(s.drawn_used + s.drawn_unused == 64 && s.circles == 16,
	      "4x4 torus: %zu channels", s.drawn_used + s.drawn_unused);
	free_net(&x);
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_FATTREE, .nodes = 64 };
	CHECK(!net_make(&x, &p, true), "64 fat tree");
	net_exchange(&x, 0, 64);
	draw(&x, "ft64.svg", &s);
	CHECK(s.circles == 64 + 16 + 4 + 1, "64 fat tree: %zu circles", s.circles);
	free_net(&x);
}

/* --svg draws every channel: no --top, --sort or ID beside it. */
static void check_usage(void)
{
	char f[] = "x.svg";
	char *bad[][5] = {
		{ "links", "--svg", f, "--top", "3" },
		{ "links", "--svg", f, "--sort", "id" },
		{ "links", "--svg", f, "7", NULL },
	};
	int i, ret;

	for (i = 0; i < 3; i++) {
		ret = vc_cmd_links(i < 2 ? 5 : 4, bad[i]);
		CHECK(ret == 2, "links --svg F %s: exit %d", bad[i][3], ret);
	}
}

/* Hypercube dim=12: a job's subcube, else a heat map. */
static void check_cube(void)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_HYPERCUBE, .dim = 12 };
	struct net x;
	struct seen s;
	u32 v;

	/* a 32-node job on 0..31: its subcube, nodes by number */
	CHECK(!net_make(&x, &p, false), "dim=12");
	net_exchange(&x, 0, 32);
	draw(&x, "d12-job.svg", &s);
	check_big("dim=12, 32-node job", &s, true);
	CHECK(s.circles == 32 && s.drawn_unused == 0,
	      "dim=12 job: %zu circles, %zu unused drawn", s.circles,
	      s.drawn_unused);
	/* and a job on 4064..4095 too: no small subcube holds both */
	net_exchange(&x, 4064, 32);
	net_send(&x, 0, 4095, 64);
	draw(&x, "d12-two.svg", &s);
	check_big("dim=12, two jobs", &s, false);
	free_net(&x);
	/* every node to its successor */
	CHECK(!net_make(&x, &p, false), "dim=12");
	for (v = 0; v < 4096; v++)
		net_send(&x, v, (v + 1) % 4096, 1024);
	draw(&x, "d12-shift.svg", &s);
	check_big("dim=12, shift", &s, false);
	free_net(&x);
	/* 0 to 2049 (dimensions 0 and 11): a square of 4 nodes */
	CHECK(!net_make(&x, &p, false), "dim=12");
	net_send(&x, 0, 2049, 64);
	net_send(&x, 2049, 0, 64);
	draw(&x, "d12-pair.svg", &s);
	check_big("dim=12, 0 <-> 2049", &s, true);
	CHECK(s.circles == 4 && s.drawn_used + s.drawn_unused == 8,
	      "dim=12 pair: %zu circles, %zu channels", s.circles,
	      s.drawn_used + s.drawn_unused);
	free_net(&x);
}

/* 4,096-node meshes and torus: the used channels, else cells. */
static void check_grid(void)
{
	struct vcube_topo_params p;
	struct net x;
	struct seen s, d;
	u32 v, i;

	/* 64x64: a third of the nodes to their east and 7th south neighbour */
	for (i = 0; i < 2; i++) {
		p = (struct vcube_topo_params){
			.kind = i ? VCUBE_TOPO_TORUS : VCUBE_TOPO_MESH,
			.rows = 64, .cols = 64,
		};
		CHECK(!net_make(&x, &p, false), "64x64");
		for (v = 0; v < 4096; v += 3) {
			net_send(&x, v, (v + 1) % 4096, 256);
			net_send(&x, v, (v + 64 * 7) % 4096, 256);
		}
		draw(&x, i ? "torus64.svg" : "mesh64.svg", &s);
		check_big(i ? "torus 64x64" : "mesh 64x64", &s, true);
		CHECK(!s.drawn_unused, "64x64: %zu unused channels drawn",
		      s.drawn_unused);
		free_net(&x);
	}
	/* 32x128, every other node to its east neighbour: cells */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_MESH, .rows = 32,
					.cols = 128 };
	CHECK(!net_make(&x, &p, false), "32x128");
	for (v = 0; v < 4096; v += 2)
		net_send(&x, v, v % 128 == 127 ? v - 127 : v + 1, 256);
	draw(&x, "mesh32x128.svg", &s);
	check_big("mesh 32x128", &s, false);
	free_net(&x);
	/* a 32-node job on a 64x64 mesh: the rectangle it used */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_MESH, .rows = 64,
					.cols = 64 };
	CHECK(!net_make(&x, &p, false), "64x64");
	net_exchange(&x, 0, 32);
	draw(&x, "mesh64-job.svg", &s);
	check_big("mesh 64x64, 32-node job", &s, true);
	CHECK(s.circles == 32, "mesh job: %zu circles", s.circles);
	free_net(&x);
	/* the same job on dims=64,64: the same picture as rows=64 cols=64 */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_MESH, .ndims = 2,
					.dims = { 64, 64 } };
	CHECK(!net_make(&x, &p, false), "dims=64,64");
	net_exchange(&x, 0, 32);
	draw(&x, "mesh64-dims-job.svg", &d);
	CHECK(d.w == s.w && d.h == s.h && d.circles == s.circles &&
	      d.drawn_used == s.drawn_used,
	      "dims=64,64 job: %.0fx%.0f px, %zu circles; rows/cols: %.0fx%.0f px, %zu",
	      d.w, d.h, d.circles, s.w, s.h, s.circles);
	free_net(&x);
}

/* A fat tree of 4,096 nodes: a job's subtree, else a heat map. */
static void check_tree(void)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_FATTREE,
				       .nodes = 4096 };
	struct net x;
	struct seen s;
	u32 v, i;

	/* both ways of counting: channels, bundles */
	for (i = 0; i < 2; i++) {
		CHECK(!net_make(&x, &p, i), "fat tree");
		for (v = 0; v < 4096; v += 5)
			net_send(&x, v, (v * 97 + 13) % 4096, 512);
		draw(&x, i ? "ft4096-packet.svg" : "ft4096.svg", &s);
		check_big(i ? "fat tree 4096, packet" : "fat tree 4096", &s,
			  false);
		free_net(&x);
	}
	/* a 32-node job on it: the subtree it used */
	CHECK(!net_make(&x, &p, false), "fat tree");
	CHECK(vc_svg_drawable(&x.t), "nodes=4096 not drawable");
	net_exchange(&x, 0, 32);
	draw(&x, "ft4096-job.svg", &s);
	check_big("fat tree 4096, 32-node job", &s, true);
	/* its 64-processor subtree: a line per bundle, not per lane */
	CHECK(s.titles == 2 * (64 + 16 + 4), "fat tree job: %zu lines",
	      s.titles);
	free_net(&x);
	/* a grid of 3 dimensions has no picture: refused, not drawn wrong */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_TORUS, .ndims = 3,
					.dims = { 4, 4, 4 } };
	CHECK(!net_make(&x, &p, false), "dims=4,4,4");
	CHECK(!vc_svg_drawable(&x.t), "%s drawable", x.t.shape);
	free_net(&x);
}

/*
 * @name drawn again is the same file, byte for byte; and the busiest
 * channels (@x's traffic saturates some: busy the whole time) are the
 * darkest red, each in a line of its own colour, drawn over the rest.
 */
static void check_again(struct net *x, const char *name)
{
	char *a, *b, *p, *e, *q, again[256], path[PATH_MAX];
	size_t la, lb, dark = 0, last = 0;
	unsigned int id;
	double u, most;
	struct seen s;
	int k = 0;

	snprintf(again, sizeof(again), "again-%s", name);
	draw(x, again, &s);
	snprintf(path, sizeof(path), "%s/%s", svg_dir, name);
	a = slurp(path, &la);
	snprintf(path, sizeof(path), "%s/%s", svg_dir, again);
	b = slurp(path, &lb);
	CHECK(a && b && la == lb && !memcmp(a, b, la),
	      "%s: not the same drawn twice", name);
	for (p = a; a && (p = strstr(p, "<title>link ")); p = e) {
		e = strstr(p, "</title>");
		q = e ? strstr(e, "stroke=\"") : NULL;
		if (!q)
			break;
		most = 0;
		p += 12;
		do {
			id = (unsigned int)strtoul(p, &p, 10);
			u = id < x->n ? (double)x->l[id].busy_ns / x->t.elapsed : 0;
			most = u > most ? u : most;
		} while (!strncmp(p, ", ", 2) && (p += 2));
		/* 100%: the scale's end, #96001e */
		CHECK((most >= 1) == !strncmp(q + 8, "#96001e", 7),
		      "%s: a link busy %.0f%% drawn %.7s", name, 100 * most,
		      q + 8);
		dark += most >= 1;
		last = ++k;
		if (most < 1)
			last = 0;
	}
	CHECK(dark > 0 && last, "%s: %zu busiest drawn, the last %s", name,
	      dark, last ? "busiest" : "not");
	free(a);
	free(b);
}

/* The traffic of @x saturating the route from @src to @dst. */
static void net_hot(struct net *x, u32 src, u32 dst)
{
	net_send(x, src, dst, 1 << 20);
}

/*
 * Dragonflies: groups round a ring, routers and local links within, global
 * links across; beyond 256 nodes the groups used, else a heat map.
 */
static void check_dragonfly(void)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_DRAGONFLY,
				       .groups = 9, .routers = 4,
				       .nodes = 2, .global = 2 };
	struct net x;
	struct seen s;
	u32 v, i;

	for (i = 0; i < 2; i++) {
		CHECK(!net_make(&x, &p, i), "dragonfly");
		CHECK(vc_svg_drawable(&x.t), "%s not drawable", x.t.shape);
		net_exchange(&x, 0, 24);
		net_hot(&x, 3, 60);
		draw(&x, i ? "df9-packet.svg" : "df9.svg", &s);
		/* 9 group discs, 36 routers, 72 nodes; every channel */
		CHECK(s.circles == 9 + 36 + 72 && s.titles == x.n &&
		      s.drawn_used + s.drawn_unused == x.n && s.w <= MAX_PX &&
		      s.h <= MAX_PX,
		      "9x4x2: %zu circles, %zu lines, %zu + %zu of %zu channels, %.0fx%.0f px",
		      s.circles, s.titles, s.drawn_used, s.drawn_unused, x.n,
		      s.w, s.h);
		check_again(&x, i ? "df9-packet.svg" : "df9.svg");
		free_net(&x);
	}
	/* 4 links join each pair of groups: parallel ones are one line */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_DRAGONFLY,
					.groups = 3, .routers = 2,
					.nodes = 2, .global = 4 };
	CHECK(!net_make(&x, &p, false), "3x2x2 H=4");
	net_exchange(&x, 0, 12);
	net_hot(&x, 0, 11);
	draw(&x, "df3.svg", &s);
	CHECK(s.drawn_used + s.drawn_unused == x.n && s.titles < x.n,
	      "3x2x2: %zu lines for %zu channels", s.titles, x.n);
	check_again(&x, "df3.svg");
	free_net(&x);
	/* 1,056 nodes: a job's two groups, then every group */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_DRAGONFLY,
					.groups = 33, .routers = 8,
					.nodes = 4, .global = 4 };
	CHECK(!net_make(&x, &p, false), "33x8x4");
	net_exchange(&x, 0, 64);
	draw(&x, "df33-job.svg", &s);
	check_big("dragonfly 33x8x4, 64-node job", &s, true);
	CHECK(s.circles == 2 + 16 + 64, "33x8x4 job: %zu circles", s.circles);
	for (v = 0; v < x.t.nodes; v += 7)
		net_send(&x, v, (v + 100) % x.t.nodes, 256);
	draw(&x, "df33.svg", &s);
	check_big("dragonfly 33x8x4, shift", &s, true);
	free_net(&x);
	/* 129 groups do not fit: a heat map */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_DRAGONFLY,
					.groups = 129, .routers = 8,
					.nodes = 2, .global = 16 };
	CHECK(!net_make(&x, &p, true), "129x8x2");
	for (v = 0; v < x.t.nodes; v += 3)
		net_send(&x, v, (v * 97 + 13) % x.t.nodes, 256);
	draw(&x, "df129.svg", &s);
	check_big("dragonfly 129x8x2", &s, false);
	free_net(&x);
}

/*
 * Graphs: routers round a ring in order, links as chords, parallel ones
 * one line; beyond 256 nodes the routers used, else a heat map.
 */
static void check_graph(void)
{
	static u16 nr[4096], links[2 * 4096];
	struct vcube_graph_desc d = { .routers = 12, .nodes = 30,
				      .node_router = nr, .links = links };
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_GRAPH,
				       .graph = &d };
	struct net x;
	struct seen s;
	u32 v;

	/* a ring of 12 and 4 chords, 0-1 doubled; 3 nodes on 0-5, 2 on 6-11 */
	for (v = 0; v < 30; v++)
		nr[v] = v < 18 ? v / 3 : 6 + (v - 18) / 2;
	for (v = 0; v < 12; v++) {
		links[2 * v] = v;
		links[2 * v + 1] = (v + 1) % 12;
	}
	for (v = 0; v < 4; v++) {
		links[24 + 2 * v] = v;
		links[24 + 2 * v + 1] = v + 6;
	}
	links[32] = 0;
	links[33] = 1;
	d.nlinks = 17;
	CHECK(!net_make(&x, &p, false), "graph");
	CHECK(vc_svg_drawable(&x.t), "%s not drawable", x.t.shape);
	net_exchange(&x, 0, 30);
	net_hot(&x, 0, 20);
	draw(&x, "graph12.svg", &s);
	/* 12 routers, 30 nodes; the doubled link one line each way */
	CHECK(s.circles == 12 + 30 && s.titles == x.n - 2 &&
	      s.drawn_used + s.drawn_unused == x.n,
	      "graph: %zu circles, %zu lines, %zu of %zu channels", s.circles,
	      s.titles, s.drawn_used + s.drawn_unused, x.n);
	check_again(&x, "graph12.svg");
	free_net(&x);
	/* 2,048 routers of 2 nodes, a ring with chords 64 apart */
	d = (struct vcube_graph_desc){ .routers = 2048, .nodes = 4096,
				       .nlinks = 4096, .node_router = nr,
				       .links = links };
	for (v = 0; v < 4096; v++)
		nr[v] = v / 2;
	for (v = 0; v < 2048; v++) {
		links[2 * v] = v;
		links[2 * v + 1] = (v + 1) % 2048;
		links[4096 + 2 * v] = v;
		links[4096 + 2 * v + 1] = (v + 64) % 2048;
	}
	CHECK(!net_make(&x, &p, false), "graph of 2048 routers");
	net_exchange(&x, 0, 32);
	draw(&x, "graph2048-job.svg", &s);
	check_big("graph 2048 routers, 32-node job", &s, true);
	CHECK(s.circles == 16 + 32, "graph job: %zu circles", s.circles);
	for (v = 0; v < 4096; v += 3)
		net_send(&x, v, (v * 97 + 13) % 4096, 256);
	draw(&x, "graph2048.svg", &s);
	check_big("graph 2048 routers", &s, false);
	free_net(&x);
}

/*
 * SimGrid's fat trees (levels=): drawn as the CM-5's, a tree node (the
 * switches serving the same processors) by its down= children, each
 * bundle (up to w x p parallel links) one line.
 */
static void check_simgrid(void)
{
	struct vcube_topo_params p = { .kind = VCUBE_TOPO_FATTREE,
				       .levels = 2, .ndown = 2,
				       .down = { 16, 16 }, .nup = 2,
				       .up = { 1, 16 } };
	struct net x;
	struct seen s;
	u32 v, i;

	CHECK(!net_make(&x, &p, false), "levels=2 fat tree");
	CHECK(vc_svg_drawable(&x.t), "%s not drawable", x.t.shape);
	net_exchange(&x, 0, 20);
	draw(&x, "sg256.svg", &s);
	CHECK(s.circles == 256 + 16 + 1 && s.titles == 2 * (256 + 16) &&
	      s.drawn_used == s.used && s.w <= MAX_PX && s.h <= MAX_PX,
	      "levels=2: %zu circles, %zu lines, %zu of %zu used drawn",
	      s.circles, s.titles, s.drawn_used, s.used);
	free_net(&x);
	/* parallel links (links=) and switches of several parents */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_FATTREE,
					.levels = 3, .ndown = 3,
					.down = { 4, 4, 4 }, .nup = 3,
					.up = { 1, 2, 2 }, .nlinks = 3,
					.links = { 1, 2, 1 } };
	for (i = 0; i < 2; i++) {
		CHECK(!net_make(&x, &p, i), "levels=3 fat tree");
		net_exchange(&x, 0, 64);
		draw(&x, i ? "sg64-packet.svg" : "sg64.svg", &s);
		CHECK(s.circles == 64 + 16 + 4 + 1 &&
		      s.titles == 2 * (64 + 16 + 4) && s.drawn_used == s.used,
		      "levels=3: %zu circles, %zu lines, %zu of %zu used drawn",
		      s.circles, s.titles, s.drawn_used, s.used);
		free_net(&x);
	}
	/* 4,096 processors: a job's subtree of 256, else a heat map */
	p = (struct vcube_topo_params){ .kind = VCUBE_TOPO_FATTREE,
					.levels = 3, .ndown = 3,
					.down = { 16, 16, 16 }, .nup = 3,
					.up = { 1, 4, 4 } };
	CHECK(!net_make(&x, &p, false), "levels=3 4096");
	net_exchange(&x, 0, 32);
	draw(&x, "sg4096-job.svg", &s);
	check_big("levels=3 4096, 32-node job", &s, true);
	CHECK(s.circles == 256 + 16 + 1, "levels=3 job: %zu circles",
	      s.circles);
	for (v = 0; v < 4096; v += 5)
		net_send(&x, v, (v * 97 + 13) % 4096, 512);
	draw(&x, "sg4096.svg", &s);
	check_big("levels=3 4096", &s, false);
	free_net(&x);
}

int main(void)
{
	const char *keep = getenv("VCUBECTL_SVG_KEEP");
	struct dirent *e;
	DIR *d;

	snprintf(svg_dir, sizeof(svg_dir), "%s",
		 keep ? keep : "/tmp/vcubectl-svg-XXXXXX");
	if (!keep && !mkdtemp(svg_dir))
		return 77;
	check_small();
	check_usage();
	check_cube();
	check_grid();
	check_tree();
	check_simgrid();
	check_dragonfly();
	check_graph();
	d = keep ? NULL : opendir(svg_dir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d) {
		closedir(d);
		rmdir(svg_dir);
	}
	return check_done("vcubectl_svg_test");
}
