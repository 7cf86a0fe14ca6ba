// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl links --svg: the network as a picture, each channel coloured by
 * its share of the counted time (grey when unused, then yellow, orange,
 * dark red), its nodes laid out by topology. Beyond SVG_SMALL nodes only
 * the part holding every used channel is drawn, and a part too big for
 * 2,000 px becomes a heat map of the whole network (vcubectl(8), links).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcubectl/vcubectl.h"

#define SVG_MARGIN	70.0

struct svg_pt {
	double x, y;
};

/* Use 0..1 as a colour: grey when unused, then yellow, orange, dark red. */
static void svg_colour(double u, char *buf, size_t len)
{
	static const double stop[3][3] = {
		{ 255, 220, 100 }, { 245, 120, 40 }, { 150, 0, 30 },
	};
	double f;
	int i, c[3], k;

	if (u <= 0) {
		snprintf(buf, len, "#cfcfcf");
		return;
	}
	if (u > 1)
		u = 1;
	i = u < 0.5 ? 0 : 1;
	f = (u - 0.5 * i) / 0.5;
	for (k = 0; k < 3; k++)
		c[k] = (int)(stop[i][k] + f * (stop[i + 1][k] - stop[i][k]) + 0.5);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

#define SVG_SPAN	1780.0	/* px the nodes may span: 2,000 in all */
#define SVG_SMALL	256	/* nodes drawn with their unused channels */
#define SVG_GRID_MAX	64	/* mesh, torus: rows or columns drawn */
#define SVG_COLS	256	/* heat map: most columns */
#define SVG_HEAT_W	1792.0	/* heat map: px its columns share */
#define SVG_FT_LEVELS	8	/* fat tree: levels of switches at most */

/*
 * What is drawn: the part of the network that holds every used channel
 * (the whole network when it is small or nothing was used), node by node,
 * or, when that part is too big to draw so, a heat map of the whole.
 */
struct svg_layout {
	unsigned int kind;
	unsigned int nodes;		/* in the network */
	unsigned int rows, cols;	/* mesh, torus: the network's grid */
	unsigned int r0, c0, nr, nc;	/* mesh, torus: the rectangle drawn */
	unsigned int mask, base;	/* hypercube: the subcube drawn */
	unsigned int levels;		/* fat tree: the root level drawn */
	unsigned int span[SVG_FT_LEVELS + 1];	/* fat tree: processors
						 * under a tree node of each
						 * level
						 */
	unsigned int root;		/* fat tree: the tree node at it */
	unsigned int leaf0, leaves;	/* fat tree: processors under it */
	bool switches;			/* fat tree: a vertex is switches */
	/*
	 * Dragonfly, graph: clusters (a dragonfly's groups of @per routers,
	 * a graph's routers, @per 1) on a ring, the nodes by their router
	 */
	unsigned int clusters, per, routers;
	unsigned int ring;		/* clusters drawn */
	unsigned int *slot;		/* [clusters]: place, or UINT_MAX */
	unsigned int *router;		/* [nodes]: the node's router */
	unsigned int *idx;		/* [nodes]: its place on it */
	unsigned int *count;		/* [routers]: nodes on each */
	double R, rr, rn, rc;		/* ring, routers, nodes, cluster */
	unsigned int drawn;		/* nodes drawn */
	bool part;			/* less than the whole network */
	bool grey;			/* unused channels drawn too */
	bool heat;			/* a heat map, not a graph */
	double unit;			/* px between neighbouring nodes */
	double w, h;
};

static unsigned int pow3(unsigned int k)
{
	unsigned int p = 1;

	while (k--)
		p *= 3;
	return p;
}

static bool svg_used(const struct vcube_nl_link *l)
{
	return l->transfers || l->busy_ns;
}

/* The bits of @v under @mask, packed together (a subcube's own index). */
static unsigned int svg_pext(unsigned int v, unsigned int mask)
{
	unsigned int r = 0, k = 0, b;

	for (b = 0; mask >> b; b++)
		if ((mask >> b) & 1)
			r |= ((v >> b) & 1) << k++;
	return r;
}

/* The reverse: @i's bits spread over @mask. */
static unsigned int svg_pdep(unsigned int i, unsigned int mask)
{
	unsigned int r = 0, k = 0, b;

	for (b = 0; mask >> b; b++)
		if ((mask >> b) & 1)
			r |= ((i >> k++) & 1) << b;
	return r;
}

static unsigned int svg_bits(unsigned int mask)
{
	unsigned int k = 0;

	for (; mask; mask &= mask - 1)
		k++;
	return k;
}

/* Processors under fat tree vertex @v of @level: [*lo, *hi]. */
static void svg_leaves(const struct svg_layout *g, unsigned int level,
		       unsigned int v, unsigned int *lo, unsigned int *hi)
{
	*lo = v * g->span[level];
	*hi = (v + 1) * g->span[level] - 1;
	if (*hi >= g->nodes)
		*hi = g->nodes - 1;
}

/* Is vertex @v of @level in the part drawn? */
static bool svg_has(const struct svg_layout *g, unsigned int level,
		    unsigned int v)
{
	unsigned int r, c;

	switch (g->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		return (v & ~g->mask) == g->base;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		r = v / g->cols;
		c = v % g->cols;
		return r >= g->r0 && r < g->r0 + g->nr && c >= g->c0 &&
		       c < g->c0 + g->nc;
	case VCUBE_TOPOLOGY_DRAGONFLY:
	case VCUBE_TOPOLOGY_GRAPH:
		r = level ? v : v < g->nodes ? g->router[v] : g->routers;
		return r < g->routers && g->slot[r / g->per] != UINT_MAX;
	default:
		return level <= g->levels &&
		       v * g->span[level] / g->span[g->levels] == g->root;
	}
}

static bool svg_in(const struct svg_layout *g, const struct vcube_nl_link *l)
{
	return svg_has(g, l->from_level, l->from) &&
	       svg_has(g, l->to_level, l->to);
}

/* The centre of cluster @c, and its angle on the ring. */
static struct svg_pt svg_cluster_pos(const struct svg_layout *g,
				     unsigned int c, double *theta)
{
	double h = g->unit * (g->R + g->rc + 18);
	struct svg_pt p = { SVG_MARGIN + h, SVG_MARGIN + h };

	*theta = -M_PI / 2 + 2 * M_PI * g->slot[c] / g->ring;
	p.x += g->unit * g->R * cos(*theta);
	p.y += g->unit * g->R * sin(*theta);
	return p;
}

/*
 * Dragonfly, graph: cluster by cluster round the ring from the top,
 * clockwise; a dragonfly group's routers round its centre, the first
 * facing the ring's centre; a router's nodes on an arc just outside it.
 */
static struct svg_pt svg_ring_pos(const struct svg_layout *g,
				  unsigned int level, unsigned int v)
{
	unsigned int r = level ? v : g->router[v], k, m;
	double theta, phi, d;
	struct svg_pt p = svg_cluster_pos(g, r / g->per, &theta);

	phi = theta + M_PI + 2 * M_PI * (r % g->per + 0.5) / g->per;
	if (level) {
		p.x += g->unit * g->rr * cos(phi);
		p.y += g->unit * g->rr * sin(phi);
		return p;
	}
	k = g->idx[v];
	m = g->count[r];
	d = fmin(2 * M_PI / g->per / m, 7 / g->rn);
	phi += (k - (m - 1) / 2.0) * d;
	p.x += g->unit * g->rn * cos(phi);
	p.y += g->unit * g->rn * sin(phi);
	return p;
}

/*
 * Where a vertex goes. Hypercube: a recursive 2-D layout, even dimensions
 * along x and odd ones along y, each twice as far (in base 3) as the one
 * below, so every subcube is a block of its own. Mesh and torus: their
 * grid. Fat tree: levels as rows, each tree node over its subtree.
 */
static struct svg_pt svg_pos(const struct svg_layout *g, unsigned int level,
			     unsigned int v)
{
	struct svg_pt p = { SVG_MARGIN, SVG_MARGIN };
	unsigned int k;

	switch (g->kind) {
	case VCUBE_TOPOLOGY_DRAGONFLY:
	case VCUBE_TOPOLOGY_GRAPH:
		return svg_ring_pos(g, level, v);
	case VCUBE_TOPOLOGY_HYPERCUBE:
		v = svg_pext(v, g->mask);
		for (k = 0; v >> (2 * k); k++) {
			p.x += g->unit * ((v >> (2 * k)) & 1) * pow3(k);
			p.y += g->unit * ((v >> (2 * k + 1)) & 1) * pow3(k);
		}
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		p.x += g->unit * (v % g->cols - g->c0);
		p.y += g->unit * (v / g->cols - g->r0);
		break;
	default:
		p.x += g->unit * ((double)v * g->span[level] - g->leaf0 +
				  (g->span[level] - 1) / 2.0);
		p.y += 110.0 * (g->levels - level);
		break;
	}
	return p;
}

/* Hypercube: the subcube of every used channel, or the whole. */
static void svg_cube_init(struct svg_layout *g, const struct vcube_nl_link *l,
			  size_t n)
{
	unsigned int x = 0, y = 0, k, m;
	bool any = false;
	size_t i;

	g->mask = g->nodes - 1;
	for (i = 0; g->nodes > SVG_SMALL && i < n; i++) {
		if (!svg_used(&l[i]))
			continue;
		if (!any)
			g->base = l[i].from, g->mask = 0, any = true;
		g->mask |= (l[i].from ^ g->base) | (l[i].to ^ g->base);
	}
	g->base &= ~g->mask;
	m = svg_bits(g->mask);
	g->drawn = 1U << m;
	if (m > 8) {
		g->heat = true;
		return;
	}
	for (k = 0; 2 * k < m; k++)
		x += pow3(k);
	for (k = 0; 2 * k + 1 < m; k++)
		y += pow3(k);
	if (x && g->unit * x > SVG_SPAN)
		g->unit = SVG_SPAN / x;
	g->w = g->unit * x;
	g->h = g->unit * y;
}

/* Mesh, torus: the rectangle of every used channel, or the whole grid. */
static void svg_grid_init(struct svg_layout *g, const struct vcube_nl_topo *t,
			  const struct vcube_nl_link *l, size_t n)
{
	unsigned int r = 0, c = 0, r1 = 0, c1 = 0, e[2], k, span;
	bool any = false;
	size_t i;

	/* rows=R cols=C, or dims=C,R (X along x); dims=N is a row */
	if ((sscanf(t->shape, "rows=%u cols=%u", &r, &c) != 2 &&
	     sscanf(t->shape, "dims=%u,%u", &c, &r) != 2) || !c)
		r = 1, c = t->nodes;
	g->rows = g->nr = r;
	g->cols = g->nc = c;
	for (i = 0; g->nodes > SVG_SMALL && i < n; i++) {
		if (!svg_used(&l[i]))
			continue;
		e[0] = l[i].from;
		e[1] = l[i].to;
		for (k = 0; k < 2; k++) {
			r = e[k] / g->cols;
			c = e[k] % g->cols;
			if (!any || r < g->r0)
				g->r0 = r;
			if (!any || c < g->c0)
				g->c0 = c;
			if (!any || r > r1)
				r1 = r;
			if (!any || c > c1)
				c1 = c;
			any = true;
		}
	}
	if (any) {
		g->nr = r1 - g->r0 + 1;
		g->nc = c1 - g->c0 + 1;
	}
	g->drawn = g->nr * g->nc;
	if (g->nr > SVG_GRID_MAX || g->nc > SVG_GRID_MAX) {
		g->heat = true;
		return;
	}
	if (g->nc > 16 || g->nr > 16)
		g->unit = 40;
	span = (g->nc > g->nr ? g->nc : g->nr) - 1;
	if (span && g->unit * span > SVG_SPAN)
		g->unit = SVG_SPAN / span;
	g->w = g->unit * (g->nc - 1);
	g->h = g->unit * (g->nr - 1);
}

/*
 * Fat tree: the processors under a tree node of each level, from the
 * shape's down= (SimGrid's, levels=), or 4 times as many a level up (the
 * CM-5's, nodes=).
 */
static void svg_tree_spans(struct svg_layout *g, const struct vcube_nl_topo *t)
{
	const char *s = strstr(t->shape, " down=");
	unsigned int down[SVG_FT_LEVELS] = { 0 }, k, nd = 0;
	char *e;

	for (s = s ? s + 6 : NULL; s && nd < SVG_FT_LEVELS; s = e + 1) {
		down[nd++] = (unsigned int)strtoul(s, &e, 10);
		if (*e != ',')
			break;
	}
	g->switches = nd > 0;
	g->span[0] = 1;
	for (k = 0; k < SVG_FT_LEVELS; k++)
		g->span[k + 1] = g->span[k] *
				 (k < nd && down[k] ? down[k] : nd ? 1 : 4);
}

/* Fat tree: the subtree of every used link, or the whole tree. */
static void svg_tree_init(struct svg_layout *g, const struct vcube_nl_topo *t,
			  const struct vcube_nl_link *l, size_t n)
{
	unsigned int lo = 0, hi = 0, a, b, top = 0, whole;
	bool any = false;
	size_t i;

	svg_tree_spans(g, t);

	for (i = 0; i < n; i++) {
		if (l[i].to_level > g->levels)
			g->levels = l[i].to_level;
		if (l[i].from_level > g->levels)
			g->levels = l[i].from_level;
	}
	if (g->levels > SVG_FT_LEVELS)
		g->levels = SVG_FT_LEVELS;
	for (i = 0; i < n; i++) {
	}
	whole = g->levels;
	g->leaves = g->nodes;
	for (i = 0; g->nodes > SVG_SMALL && i < n; i++) {
		if (!svg_used(&l[i]))
			continue;
		svg_leaves(g, l[i].from_level, l[i].from, &a, &b);
		lo = !any || a < lo ? a : lo;
		hi = !any || b > hi ? b : hi;
		svg_leaves(g, l[i].to_level, l[i].to, &a, &b);
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
		top = l[i].from_level > top ? l[i].from_level : top;
		top = l[i].to_level > top ? l[i].to_level : top;
		any = true;
	}
	if (any) {
		while (top < g->levels &&
		       lo / g->span[top] != hi / g->span[top])
			top++;
		g->levels = top;
		g->root = lo / g->span[top];
		g->leaf0 = g->root * g->span[top];
		g->leaves = g->nodes - g->leaf0;
		if (g->leaves > g->span[top])
			g->leaves = g->span[top];
	}
	g->drawn = g->leaves;
	if (g->leaves > SVG_SMALL) {
		/* the heat map shows the whole tree */
		g->heat = true;
		g->levels = whole;
		return;
	}
	g->unit = g->leaves <= 64 ? 36 : 2304.0 / g->leaves;
	if (g->leaves > 1 && g->unit * (g->leaves - 1) > SVG_SPAN)
		g->unit = SVG_SPAN / (g->leaves - 1);
	g->w = g->unit * (g->leaves - 1);
	g->h = 110.0 * g->levels;
}

/*
 * A bundle's tooltip: its channels' ids (one, but for parallel links),
 * ends, counts summed and the busiest one's use.
 */
static void svg_title(FILE *f, const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *const *b, size_t k,
		      double u, unsigned int width)
{
	unsigned long long messages = 0, bytes = 0, waits = 0;
	struct vcube_nl_link one = *b[0];
	char ends[64];
	size_t i;

	fprintf(f, "<g><title>link ");
	for (i = 0; i < k; i++) {
		fprintf(f, "%s%u", i ? ", " : "", b[i]->id);
		messages += b[i]->messages;
		bytes += b[i]->bytes;
		waits += b[i]->waits;
	}
	if (k > 1)
		one.width = width;
	vc_link_ends(t, &one, ends, sizeof(ends));
	fprintf(f, ": %s; %llu messages, %llu bytes, busy %.1f%%%s, %llu waits</title>",
		ends, messages, bytes, 100 * u, k > 1 ? " (the busiest)" : "",
		waits);
}

/* A bundle's tooltip, and its path: it bends to the right of travel. */
static void svg_link(FILE *f, const struct svg_layout *g,
		     const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *const *b, size_t k, double u,
		     unsigned int width)
{
	const struct vcube_nl_link *l = b[0];
	struct svg_pt p = svg_pos(g, l->from_level, l->from);
	struct svg_pt q = svg_pos(g, l->to_level, l->to);
	double dx = q.x - p.x, dy = q.y - p.y, len = sqrt(dx * dx + dy * dy);
	double nx, ny, off, sw = 3;
	char colour[16];

	if (len <= 0)
		return;
	nx = -dy / len;
	ny = dx / len;
	svg_colour(u, colour, sizeof(colour));
	svg_title(f, t, b, k, u, width);
	if (g->kind == VCUBE_TOPOLOGY_DRAGONFLY ||
	    g->kind == VCUBE_TOPOLOGY_GRAPH) {
		/* a node's channels thin, router links thicker when wider */
		sw = l->from_level && l->to_level ?
		     (1.5 + log2(width ? width : 1)) * fmax(g->unit, 0.6) :
		     1.2 * g->unit;
		off = (l->from_level && l->to_level ? 5 : 1.6) * g->unit;
		fprintf(f, "<path d=\"M%.1f %.1fQ%.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
			p.x, p.y, (p.x + q.x) / 2 + off * nx,
			(p.y + q.y) / 2 + off * ny, q.x, q.y, colour, sw);
	} else if (g->kind == VCUBE_TOPOLOGY_FATTREE) {
		sw = 1.5 + log2(width ? width : 1);
		off = 2 + sw / 2;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
			p.x + off * nx, p.y + off * ny, q.x + off * nx,
			q.y + off * ny, colour, sw);
	} else if (len > g->unit * 1.5 && g->kind == VCUBE_TOPOLOGY_TORUS) {
		/* a wrap-around channel: a stub out of each end */
		double ux = 0, uy = 0, s = g->unit * 0.45;

		switch (l->dir) {
		case VCUBE_DIR_EAST:
			ux = 1;
			break;
		case VCUBE_DIR_WEST:
			ux = -1;
			break;
		case VCUBE_DIR_SOUTH:
			uy = 1;
			break;
		default:
			uy = -1;
			break;
		}
		nx = -uy * 4;
		ny = ux * 4;
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-dasharray=\"4 2\"/>",
			p.x + nx, p.y + ny, p.x + nx + s * ux,
			p.y + ny + s * uy, q.x + nx - s * ux,
			q.y + ny - s * uy, q.x + nx, q.y + ny, colour, sw);
	} else {
		/* long hypercube edges bend more, but not in proportion */
		off = g->kind == VCUBE_TOPOLOGY_HYPERCUBE ?
		      6 + 14 * log2(1 + len / g->unit) : 6;
		fprintf(f, "<path d=\"M%.1f %.1fQ%.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
			p.x, p.y, (p.x + q.x) / 2 + off * nx,
			(p.y + q.y) / 2 + off * ny, q.x, q.y, colour, sw);
	}
	fprintf(f, "</g>\n");
}

/*
 * The least and most busy of the channels a run used, marked on the scale
 * (whose 0..100% spans @w from @x0) and said beside it.
 */
static void svg_range(FILE *f, const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *l, size_t n, double x0,
		      double y, double w)
{
	double u, lo = 2, hi = -1;
	size_t i, used = 0;

	for (i = 0; i < n; i++) {
		if (!l[i].transfers && !l[i].busy_ns)
			continue;
		u = vc_util(&l[i], t->elapsed);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
		used++;
	}
	if (!used) {
		fprintf(f, "<text x=\"10\" y=\"%.1f\" fill=\"#555\">no channel used yet</text>\n",
			y + 40);
		return;
	}
	fprintf(f, "<path d=\"M%.1f %.1fl-4 -7h8zM%.1f %.1fl-4 -7h8z\" fill=\"black\"/>",
		x0 + w * lo, y - 1, x0 + w * hi, y - 1);
	fprintf(f, "<text x=\"10\" y=\"%.1f\" fill=\"#555\">\u25bc this run: %zu of %zu %s used, each busy %.1f%% to %.1f%% of the time</text>\n",
		y + 40, used, n,
		t->switching == VCUBE_SWITCHING_PACKET ? "bundles" : "channels",
		100 * lo, 100 * hi);
}

/*
 * The scale at height @y, ticked every 25%, and where this run's channels
 * fall on it: a run that loads every channel alike is one colour, and
 * says so.
 */
static void svg_scale(FILE *f, const struct vcube_nl_topo *t,
		      const struct vcube_nl_link *l, size_t n, double y)
{
	char colour[16];
	struct svg_pt p;
	unsigned int k;
	size_t i;

	p.x = 10;
	p.y = y;
	for (i = 0; i <= 20; i++) {
		svg_colour(i / 20.0, colour, sizeof(colour));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\"/>",
			p.x + 60 + 12 * i, p.y - 10, colour);
	}
	fprintf(f, "\n<text x=\"%.1f\" y=\"%.1f\">busy</text>", p.x, p.y);
	for (k = 0; k <= 4; k++)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%u%%</text>",
			p.x + 66 + 60.0 * k, p.y, p.x + 66 + 60.0 * k, p.y + 4,
			p.x + 66 + 60.0 * k, p.y + 16, 25 * k);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">of the time</text>\n",
		p.x + 60 + 12 * 21 + 10, p.y);
	svg_range(f, t, l, n, p.x + 66, p.y - 10, 240);
}

/*
 * Channels in bundle order: parallel ones (the same ends and direction:
 * a fat tree bundle's lanes) together, each bundle by id.
 */
static int svg_bundle_cmp(const void *a, const void *b)
{
	const struct vcube_nl_link *x = *(const struct vcube_nl_link *const *)a;
	const struct vcube_nl_link *y = *(const struct vcube_nl_link *const *)b;

	if (x->from_level != y->from_level)
		return x->from_level < y->from_level ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to_level != y->to_level)
		return x->to_level < y->to_level ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static bool svg_same_bundle(const struct vcube_nl_link *a,
			    const struct vcube_nl_link *b)
{
	return a->from == b->from && a->to == b->to &&
	       a->from_level == b->from_level &&
	       a->to_level == b->to_level && a->dir == b->dir;
}

/*
 * Dragonfly, graph: which router each node is on (a graph's from its
 * injection channels), and the clusters holding every used channel, or
 * all of them.
 */
static int svg_ring_map(struct svg_layout *g, const struct vcube_nl_topo *t,
			const struct vcube_nl_link *l, size_t n)
{
	unsigned int G = 0, A = 0, P = 0, v, e[2], k;
	size_t i;

	if (t->kind == VCUBE_TOPOLOGY_DRAGONFLY) {
		if (sscanf(t->shape, "groups=%u routers=%u nodes=%u", &G, &A,
			   &P) != 3 || !G || !A || !P)
			G = 1, A = 1, P = g->nodes;
		g->clusters = G;
		g->per = A;
	} else if (sscanf(t->shape, "routers=%u", &G) != 1 || !G) {
		G = 1;
	}
	if (t->kind == VCUBE_TOPOLOGY_GRAPH) {
		g->clusters = G;
		g->per = 1;
	}
	g->routers = g->clusters * g->per;
	g->slot = calloc(g->clusters, sizeof(*g->slot));
	g->router = calloc(g->nodes, sizeof(*g->router));
	g->idx = calloc(g->nodes, sizeof(*g->idx));
	g->count = calloc(g->routers, sizeof(*g->count));
	if (!g->slot || !g->router || !g->idx || !g->count)
		return -ENOMEM;
	for (v = 0; P && v < g->nodes; v++)
		g->router[v] = v / P < g->routers ? v / P : g->routers - 1;
	for (i = 0; !P && i < n; i++)
		if (!l[i].from_level && l[i].to_level == 1 &&
		    l[i].from < g->nodes && l[i].to < g->routers)
			g->router[l[i].from] = l[i].to;
	for (v = 0; v < g->nodes; v++)
		g->idx[v] = g->count[g->router[v]]++;
	/* a small network whole; else the clusters of the used channels */
	for (i = 0; i < g->clusters; i++)
		g->slot[i] = g->nodes > SVG_SMALL ? UINT_MAX : 0;
	for (i = 0; g->nodes > SVG_SMALL && i < n; i++) {
		if (!svg_used(&l[i]))
			continue;
		e[0] = l[i].from_level ? l[i].from : g->router[l[i].from];
		e[1] = l[i].to_level ? l[i].to : g->router[l[i].to];
		for (k = 0; k < 2; k++)
			if (e[k] < g->routers)
				g->slot[e[k] / g->per] = 0;
	}
	for (k = 0; k < g->clusters; k++)
		if (g->slot[k] != UINT_MAX)
			g->slot[k] = g->ring++;
	if (!g->ring)
		for (k = 0; k < g->clusters; k++)
			g->slot[k] = g->ring++;
	return 0;
}

/*
 * Dragonfly, graph: the ring's size for the clusters drawn, at most
 * SVG_SPAN, else a heat map. Routers 8 px, nodes 7 px apart.
 */
static int svg_ring_init(struct svg_layout *g, const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l, size_t n)
{
	unsigned int k, most = 1, drawn = 0;
	double gap = g->per > 1 ? 28 : 6, side;
	int ret = svg_ring_map(g, t, l, n);

	if (ret)
		return ret;
	for (k = 0; k < g->routers; k++) {
		most = g->count[k] > most ? g->count[k] : most;
		if (g->slot[k / g->per] != UINT_MAX)
			drawn += g->count[k];
	}
	g->drawn = drawn;
	g->rr = g->per > 1 ? fmax(30, 13 / sin(M_PI / g->per)) : 0;
	g->rn = fmax(g->rr + 16, g->per * most * 7 / (1.8 * M_PI));
	g->rc = g->rn + 5;
	g->R = g->ring < 2 ? 0 : (g->rc + gap / 2) / sin(M_PI / g->ring);
	if (g->ring > 1)
		g->R = fmax(g->R, g->per > 1 ? 3 * g->rc : 150);
	side = 2 * (g->R + g->rc + 18);
	/* a small ring larger, up to 860 px, a large one within SVG_SPAN */
	g->unit = side > SVG_SPAN ? SVG_SPAN / side :
		  fmax(1, fmin(860 / side, 1.6));
	if (g->unit < 0.45) {
		g->heat = true;
		return 0;
	}
	g->w = g->h = side * g->unit;
	return 0;
}

static void svg_layout_fini(struct svg_layout *g)
{
	free(g->slot);
	free(g->router);
	free(g->idx);
	free(g->count);
}

static int svg_layout_init(struct svg_layout *g, const struct vcube_nl_topo *t,
			   const struct vcube_nl_link *l, size_t n)
{
	int ret = 0;

	memset(g, 0, sizeof(*g));
	g->kind = t->kind;
	g->nodes = t->nodes ? t->nodes : 1;
	g->unit = 70;
	switch (t->kind) {
	case VCUBE_TOPOLOGY_DRAGONFLY:
	case VCUBE_TOPOLOGY_GRAPH:
		ret = svg_ring_init(g, t, l, n);
		break;
	case VCUBE_TOPOLOGY_HYPERCUBE:
		svg_cube_init(g, l, n);
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		svg_grid_init(g, t, l, n);
		break;
	default:
		svg_tree_init(g, t, l, n);
		break;
	}
	g->part = g->drawn < g->nodes;
	g->grey = g->drawn <= SVG_SMALL;
	return ret;
}

/* A heat map cell: the channels it stands for and what they did. */
struct svg_cell {
	unsigned int n, used;
	double best;
	unsigned long long messages, bytes;
};

static void svg_cell_add(struct svg_cell *c, const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l)
{
	double u = vc_util(l, t->elapsed);

	c->n++;
	if (!svg_used(l))
		return;
	c->used++;
	c->best = u > c->best ? u : c->best;
	c->messages += l->messages;
	c->bytes += l->bytes;
}

/* Cell @c at (@x, @y), @w by @h, its title saying @where it is. */
static void svg_cell_draw(FILE *f, const struct vcube_nl_topo *t,
			  const struct svg_cell *c, double x, double y,
			  double w, double h, const char *where)
{
	char colour[16];

	if (!c->n)
		return;
	/* a used cell is never grey, however little its busiest channel was */
	svg_colour(c->used ? fmax(c->best, 0.001) : 0, colour, sizeof(colour));
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
		x, y, w > 1.5 ? w - 1 : w, h - 1, colour);
	fprintf(f, "<title>%s: %u of %u %s used, busiest %.1f%%, %llu messages, %llu bytes</title></rect>\n",
		where, c->used, c->n,
		t->switching == VCUBE_SWITCHING_PACKET ? "bundles" : "channels",
		100 * c->best, c->messages, c->bytes);
}

/* A label at the left of a heat map row whose top is @y, @h high. */
static void svg_row_label(FILE *f, double y, double h, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"central\">%s</text>\n",
		SVG_MARGIN - 6, y + h / 2, text);
}

/* Below a heat map whose columns are @cols blocks of @b nodes, @cw px each. */
static void svg_node_axis(FILE *f, unsigned int cols, unsigned int b,
			  double cw, double y, const char *what)
{
	unsigned int k, step = cols >= 8 ? cols / 8 : 1;

	for (k = 0; k < cols; k += step)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/><text x=\"%.1f\" y=\"%.1f\">%u</text>",
			SVG_MARGIN + k * cw, y, SVG_MARGIN + k * cw, y + 5,
			SVG_MARGIN + k * cw + 2, y + 15, k * b);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		SVG_MARGIN - 6, y + 15, what);
}

#define SVG_ROW_H	22.0

/* A heat map of @rows rows of @cols cells: its size; a cell's width. */
static double svg_heat_size(struct svg_layout *g, unsigned int cols,
			    unsigned int rows)
{
	double cw = fmin(floor(SVG_HEAT_W / cols), 28);

	g->w = cw * cols;
	g->h = SVG_ROW_H * rows + 20;
	return cw;
}

/*
 * Hypercube heat map: a row per dimension, a column per block of nodes
 * (at most SVG_COLS of them), each cell the block's channels along the
 * dimension.
 */
static int svg_cube_heat(FILE *f, struct svg_layout *g,
			 const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l, size_t n, bool draw)
{
	unsigned int dim = 0, s = 0, cols, k, j;
	struct svg_cell *c;
	char where[64];
	double cw;
	size_t i;

	while ((1U << dim) < g->nodes)
		dim++;
	while ((g->nodes >> s) > SVG_COLS)
		s++;
	cols = (g->nodes + (1U << s) - 1) >> s;
	cw = svg_heat_size(g, cols, dim);
	if (!draw)
		return 0;
	c = calloc((size_t)dim * cols + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (l[i].dir < dim && l[i].from < g->nodes)
			svg_cell_add(&c[l[i].dir * cols + (l[i].from >> s)], t,
				     &l[i]);
	for (k = 0; k < dim; k++) {
		snprintf(where, sizeof(where), "dim %u", k);
		svg_row_label(f, SVG_MARGIN + SVG_ROW_H * k, SVG_ROW_H, where);
		for (j = 0; j < cols; j++) {
			snprintf(where, sizeof(where), "dim %u, nodes %u-%u", k,
				 j << s, ((j + 1) << s) - 1);
			svg_cell_draw(f, t, &c[k * cols + j],
				      SVG_MARGIN + cw * j,
				      SVG_MARGIN + SVG_ROW_H * k, cw, SVG_ROW_H,
				      where);
		}
	}
	svg_node_axis(f, cols, 1U << s, cw, SVG_MARGIN + SVG_ROW_H * dim + 2,
		      "node");
	free(c);
	return 0;
}

/*
 * Mesh, torus heat map: the grid in blocks of b x b nodes (b as small as
 * keeps it within SVG_COLS / 2 blocks a side), each cell the channels
 * out of its block.
 */
static int svg_grid_heat(FILE *f, struct svg_layout *g,
			 const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l, size_t n, bool draw)
{
	unsigned int b = 1, cr, cc, r, c, r1, c1;
	struct svg_cell *cell;
	char where[80];
	double px;
	size_t i;

	while ((g->rows + b - 1) / b > SVG_COLS / 2 ||
	       (g->cols + b - 1) / b > SVG_COLS / 2)
		b++;
	cr = (g->rows + b - 1) / b;
	cc = (g->cols + b - 1) / b;
	px = floor(SVG_HEAT_W / (cr > cc ? cr : cc));
	if (px > 28)
		px = 28;
	g->w = px * cc;
	g->h = px * cr + 20;
	if (!draw)
		return 0;
	cell = calloc((size_t)cr * cc + 1, sizeof(*cell));
	if (!cell)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (l[i].from < g->rows * g->cols)
			svg_cell_add(&cell[l[i].from / g->cols / b * cc +
					   l[i].from % g->cols / b], t, &l[i]);
	for (r = 0; r < cr; r += 8) {
		snprintf(where, sizeof(where), "%u", r * b);
		svg_row_label(f, SVG_MARGIN + px * r, px, where);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">row</text>\n",
		SVG_MARGIN - 6, SVG_MARGIN - 8);
	svg_node_axis(f, cc, b, px, SVG_MARGIN + px * cr + 2, "col");
	for (r = 0; r < cr; r++) {
		for (c = 0; c < cc; c++) {
			r1 = (r + 1) * b > g->rows ? g->rows : (r + 1) * b;
			c1 = (c + 1) * b > g->cols ? g->cols : (c + 1) * b;
			if (b == 1)
				snprintf(where, sizeof(where),
					 "node %u (row %u, col %u)",
					 r * g->cols + c, r, c);
			else
				snprintf(where, sizeof(where),
					 "rows %u-%u, cols %u-%u", r * b,
					 r1 - 1, c * b, c1 - 1);
			svg_cell_draw(f, t, &cell[r * cc + c],
				      SVG_MARGIN + px * c, SVG_MARGIN + px * r,
				      px, px, where);
		}
	}
	free(cell);
	return 0;
}

/*
 * Fat tree heat map: for each level of links two rows (up, down), the
 * root's at the top; a column per block of processors (those under a tree
 * node of the lowest level that keeps to SVG_COLS columns), each cell the links out of the tree nodes over
 * it (wider cells higher up, where a tree node spans several blocks).
 */
static int svg_tree_heat(FILE *f, struct svg_layout *g,
			 const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l, size_t n, bool draw)
{
	unsigned int b = 1, cols, lv, d, k, span, lo, hi, low, v, row;
	struct svg_cell *c;
	char where[80];
	double cw, y;
	size_t i;

	for (k = 0; k < g->levels && (g->nodes + b - 1) / b > SVG_COLS; k++)
		b = g->span[k + 1];
	cols = (g->nodes + b - 1) / b;
	cw = svg_heat_size(g, cols, 2 * g->levels);
	if (!draw)
		return 0;
	/* cell (level, up or down, column of its first processor) */
	c = calloc((size_t)g->levels * 2 * cols + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		low = l[i].from_level < l[i].to_level ? l[i].from_level :
							 l[i].to_level;
		v = l[i].from_level < l[i].to_level ? l[i].from : l[i].to;
		if (low >= g->levels || l[i].from_level == l[i].to_level)
			continue;
		svg_leaves(g, low, v, &lo, &hi);
		span = g->span[low] > b ? g->span[low] : b;
		svg_cell_add(&c[(low * 2 + (l[i].from_level > low)) * cols +
				lo / span * span / b], t, &l[i]);
	}
	for (lv = 0; lv < g->levels; lv++) {
		span = g->span[lv] > b ? g->span[lv] : b;
		for (d = 0; d < 2; d++) {
			row = 2 * (g->levels - 1 - lv) + d;
			y = SVG_MARGIN + SVG_ROW_H * row;
			snprintf(where, sizeof(where), "L%u-%u %s", lv, lv + 1,
				 d ? "down" : "up");
			svg_row_label(f, y, SVG_ROW_H, where);
			for (k = 0; k * span < g->nodes; k++) {
				lo = k * span;
				hi = lo + span;
				hi = hi > g->nodes ? g->nodes : hi;
				snprintf(where, sizeof(where),
					 "L%u-%u %s, processors %u-%u", lv,
					 lv + 1, d ? "down" : "up", lo, hi - 1);
				svg_cell_draw(f, t,
					      &c[(lv * 2 + d) * cols + lo / b],
					      SVG_MARGIN + cw * (lo / b), y,
					      cw * ((hi - lo + b - 1) / b),
					      SVG_ROW_H, where);
			}
		}
	}
	svg_node_axis(f, cols, b, cw,
		      SVG_MARGIN + SVG_ROW_H * 2 * g->levels + 2, "processor");
	free(c);
	return 0;
}

/*
 * Dragonfly, graph heat map: a row per kind of channel (inject, eject,
 * and a dragonfly's local and global or a graph's links), a column per
 * block of routers (at most SVG_COLS), each cell the channels of its kind
 * into or out of the block's routers.
 */
static int svg_ring_heat(FILE *f, struct svg_layout *g,
			 const struct vcube_nl_topo *t,
			 const struct vcube_nl_link *l, size_t n, bool draw)
{
	unsigned int b = 1, cols, rows, k, j, r;
	struct svg_cell *c;
	char where[80];
	double cw;
	size_t i;

	rows = g->kind == VCUBE_TOPOLOGY_DRAGONFLY ? 4 : 3;
	while ((g->routers + b - 1) / b > SVG_COLS)
		b++;
	cols = (g->routers + b - 1) / b;
	cw = svg_heat_size(g, cols, rows);
	if (!draw)
		return 0;
	c = calloc((size_t)rows * cols + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* an injection channel's router is where it goes */
		r = l[i].from_level ? l[i].from : l[i].to;
		if (l[i].dir < rows && r < g->routers)
			svg_cell_add(&c[l[i].dir * cols + r / b], t, &l[i]);
	}
	for (k = 0; k < rows; k++) {
		svg_row_label(f, SVG_MARGIN + SVG_ROW_H * k, SVG_ROW_H,
			      vcube_dir_name(t->kind, k));
		for (j = 0; j < cols; j++) {
			if (b == 1)
				snprintf(where, sizeof(where), "%s, router %u",
					 vcube_dir_name(t->kind, k), j);
			else
				snprintf(where, sizeof(where),
					 "%s, routers %u-%u",
					 vcube_dir_name(t->kind, k), j * b,
					 (j + 1) * b > g->routers ?
					 g->routers - 1 : (j + 1) * b - 1);
			svg_cell_draw(f, t, &c[k * cols + j],
				      SVG_MARGIN + cw * j,
				      SVG_MARGIN + SVG_ROW_H * k, cw, SVG_ROW_H,
				      where);
		}
	}
	svg_node_axis(f, cols, b, cw, SVG_MARGIN + SVG_ROW_H * rows + 2,
		      "router");
	free(c);
	return 0;
}

static int svg_heat(FILE *f, struct svg_layout *g,
		    const struct vcube_nl_topo *t,
		    const struct vcube_nl_link *l, size_t n, bool draw)
{
	switch (g->kind) {
	case VCUBE_TOPOLOGY_DRAGONFLY:
	case VCUBE_TOPOLOGY_GRAPH:
		return svg_ring_heat(f, g, t, l, n, draw);
	case VCUBE_TOPOLOGY_HYPERCUBE:
		return svg_cube_heat(f, g, t, l, n, draw);
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		return svg_grid_heat(f, g, t, l, n, draw);
	default:
		return svg_tree_heat(f, g, t, l, n, draw);
	}
}

/* "0-4, 11": the dimensions in @mask. */
static void svg_dims(unsigned int mask, char *buf, size_t len)
{
	unsigned int k, e;
	size_t o = 0;

	buf[0] = 0;
	for (k = 0; mask >> k && o < len; k = e) {
		if (!((mask >> k) & 1)) {
			e = k + 1;
			continue;
		}
		for (e = k; (mask >> e) & 1; e++)
			;
		o += snprintf(buf + o, len - o, "%s%u", o ? ", " : "", k);
		if (e - 1 > k && o < len)
			o += snprintf(buf + o, len - o, "-%u", e - 1);
	}
}

/* What the picture shows, under its title: two lines. */
static void svg_caption(FILE *f, const struct svg_layout *g,
			const struct vcube_nl_topo *t)
{
	const char *what = t->switching == VCUBE_SWITCHING_PACKET ? "bundle" :
								     "channel";
	char dims[64];

	fprintf(f, "<text x=\"10\" y=\"38\" font-size=\"11\" fill=\"#555\">");
	if (g->heat) {
		fprintf(f, "too many nodes to draw: each cell stands for the %ss %s, coloured by its busiest (hover for counts); grey: none used",
			what,
			g->kind == VCUBE_TOPOLOGY_HYPERCUBE ?
			"of one dimension out of a block of nodes" :
			g->kind == VCUBE_TOPOLOGY_FATTREE ?
			"one way between two levels over a block of processors" :
			g->kind == VCUBE_TOPOLOGY_DRAGONFLY ||
			g->kind == VCUBE_TOPOLOGY_GRAPH ?
			"of one kind into or out of a router or block of routers" :
			"out of a node or block of nodes");
	} else if (g->kind == VCUBE_TOPOLOGY_FATTREE) {
		fprintf(f, "each bundle of parallel links drawn once (its busiest lane), up left of down, thicker when wider%s%s",
			g->grey ? "" : "; unused ones left out",
			!g->switches ? "" :
			"; a vertex above the processors stands for the switches serving the same processors");
	} else {
		if (g->kind == VCUBE_TOPOLOGY_DRAGONFLY)
			fprintf(f, "groups clockwise from g0 at the top: routers (numbered) with local links, nodes as dots; global links between groups; ");
		else if (g->kind == VCUBE_TOPOLOGY_GRAPH)
			fprintf(f, "routers clockwise from 0 at the top, nodes as dots by them; links as chords, parallel ones as one, thicker; ");
		fprintf(f, "a channel bends to the right of its %s; %s",
			g->kind == VCUBE_TOPOLOGY_DRAGONFLY ||
			g->kind == VCUBE_TOPOLOGY_GRAPH ? "travel" :
			"direction of travel",
			g->grey ? "grey: unused" : "unused ones left out");
	}
	fprintf(f, "</text>\n");
	if (!g->part || g->heat)
		return;
	fprintf(f, "<text x=\"10\" y=\"54\" font-size=\"11\" fill=\"#555\">");
	switch (g->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		svg_dims(g->mask, dims, sizeof(dims));
		fprintf(f, "only the smallest subcube holding every used channel: %u of %u nodes, dimensions %s through node %u",
			g->drawn, g->nodes, dims, g->base);
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		fprintf(f, "only the smallest rectangle holding every used channel: rows %u-%u, cols %u-%u (%u of %u nodes)",
			g->r0, g->r0 + g->nr - 1, g->c0, g->c0 + g->nc - 1,
			g->drawn, g->nodes);
		break;
	case VCUBE_TOPOLOGY_DRAGONFLY:
	case VCUBE_TOPOLOGY_GRAPH:
		fprintf(f, "only the %s holding every used channel: %u of %u (%u of %u nodes)",
			g->per > 1 ? "groups" : "routers", g->ring,
			g->clusters, g->drawn, g->nodes);
		break;
	default:
		fprintf(f, "only the smallest subtree holding every used link: under L%u:%u, processors %u-%u (%u of %u)",
			g->levels, g->root, g->leaf0, g->leaf0 + g->leaves - 1,
			g->drawn, g->nodes);
		break;
	}
	fprintf(f, "</text>\n");
}

/* Mesh, torus drawn as dots: every 8th row and column numbered. */
static void svg_grid_axes(FILE *f, const struct svg_layout *g)
{
	struct svg_pt p;
	unsigned int k;

	for (k = 0; k < g->nc; k += 8) {
		p = svg_pos(g, 0, g->r0 * g->cols + g->c0 + k);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%u</text>",
			p.x, p.y - 10, g->c0 + k);
	}
	for (k = 0; k < g->nr; k += 8) {
		p = svg_pos(g, 0, (g->r0 + k) * g->cols + g->c0);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"central\">%u</text>",
			p.x - 10, p.y, g->r0 + k);
	}
	fprintf(f, "<text x=\"10\" y=\"%.1f\">row \u2193 col \u2192</text>\n",
		SVG_MARGIN - 25);
}

/* A bundle: its channels in bundle order, and their busiest's use. */
struct svg_bundle {
	size_t first, n;
	double best;
	unsigned int width;
};

/* Bundles by use, so the busiest are drawn last, over the rest. */
static int svg_use_cmp(const void *a, const void *b)
{
	const struct svg_bundle *x = a, *y = b;

	if (x->best != y->best)
		return x->best < y->best ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The part in @g's bundles (a channel, or parallel ones drawn once, as
 * their busiest), the least used first.
 */
static int svg_bundles(FILE *f, const struct svg_layout *g,
		       const struct vcube_nl_topo *t,
		       const struct vcube_nl_link *l, size_t n)
{
	const struct vcube_nl_link **b = calloc(n + 1, sizeof(*b));
	struct svg_bundle *u = calloc(n + 1, sizeof(*u));
	size_t i, j, k = 0;
	bool used;

	if (!b || !u) {
		free(b);
		free(u);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		b[i] = &l[i];
	qsort(b, n, sizeof(*b), svg_bundle_cmp);
	for (i = 0; i < n; i = j) {
		u[k] = (struct svg_bundle){ .first = i };
		used = false;
		for (j = i; j < n && svg_same_bundle(b[i], b[j]); j++) {
			u[k].best = fmax(u[k].best, vc_util(b[j], t->elapsed));
			used |= svg_used(b[j]);
			u[k].width += b[j]->width ? b[j]->width : 1;
		}
		u[k].n = j - i;
		if (svg_in(g, b[i]) && (used || g->grey))
			k++;
	}
	qsort(u, k, sizeof(*u), svg_use_cmp);
	for (i = 0; i < k; i++)
		svg_link(f, g, t, b + u[i].first, u[i].n, u[i].best,
			 u[i].width);
	free(u);
	free(b);
	return 0;
}

/* Dragonfly: each group drawn, a disc named round its edge. */
static void svg_ring_discs(FILE *f, const struct svg_layout *g)
{
	unsigned int c;
	struct svg_pt p;
	double theta, d = g->unit * (g->rc + 9);

	for (c = 0; g->per > 1 && c < g->clusters; c++) {
		if (g->slot[c] == UINT_MAX)
			continue;
		p = svg_cluster_pos(g, c, &theta);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#f2f4fa\" stroke=\"#c8cce0\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#446\">g%u</text>\n",
			p.x, p.y, g->unit * g->rc, p.x + d * cos(theta),
			p.y + d * sin(theta), c);
	}
}

/* Dragonfly, graph: the routers drawn, numbered, and their nodes. */
static void svg_ring_vertices(FILE *f, const struct svg_layout *g)
{
	double r = 8 * g->unit;
	unsigned int v;
	struct svg_pt p;

	for (v = 0; v < g->routers; v++) {
		if (!svg_has(g, 1, v))
			continue;
		p = svg_pos(g, 1, v);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#eef\" stroke=\"black\"><title>router %u</title></circle>",
			p.x, p.y, r, v);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"%.1f\">%u</text>\n",
			p.x, p.y, r * (v > 999 ? 0.7 : v > 99 ? 0.85 : 1.1), v);
	}
	for (v = 0; v < g->nodes; v++) {
		if (!svg_has(g, 0, v))
			continue;
		p = svg_pos(g, 0, v);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"white\" stroke=\"black\" stroke-width=\"0.8\"><title>node %u</title></circle>\n",
			p.x, p.y, 2.6 * g->unit, v);
	}
}

/* The part in @g, bundle by bundle, and its nodes. */
static int svg_graph(FILE *f, const struct svg_layout *g,
		     const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, size_t n)
{
	double r = 13;
	unsigned int v, k, count, first, end;
	struct svg_pt p;
	int ret;

	if (g->unit < 30)
		r = g->unit / 2.5;
	if (g->kind == VCUBE_TOPOLOGY_DRAGONFLY ||
	    g->kind == VCUBE_TOPOLOGY_GRAPH) {
		svg_ring_discs(f, g);
		ret = svg_bundles(f, g, t, l, n);
		if (!ret)
			svg_ring_vertices(f, g);
		return ret;
	}
	ret = svg_bundles(f, g, t, l, n);
	if (ret)
		return ret;
	if (!g->grey && g->kind != VCUBE_TOPOLOGY_FATTREE &&
	    g->kind != VCUBE_TOPOLOGY_HYPERCUBE)
		svg_grid_axes(f, g);
	/* the vertices: processing nodes, and the fat tree's switches */
	for (k = 0; k <= g->levels; k++) {
		first = 0;
		end = t->nodes;
		if (g->kind == VCUBE_TOPOLOGY_FATTREE) {
			count = (t->nodes + g->span[k] - 1) / g->span[k];
			first = g->root * (g->span[g->levels] / g->span[k]);
			end = (g->root + 1) * (g->span[g->levels] / g->span[k]);
			end = end < count ? end : count;
		} else if (g->kind == VCUBE_TOPOLOGY_HYPERCUBE) {
			end = g->drawn;
		}
		for (v = first; v < end; v++) {
			unsigned int node = v;

			if (g->kind == VCUBE_TOPOLOGY_HYPERCUBE)
				node = g->base | svg_pdep(v, g->mask);
			else if (g->kind != VCUBE_TOPOLOGY_FATTREE &&
				 !svg_has(g, 0, node))
				continue;
			p = svg_pos(g, k, node);
			if (!g->grey) {
				/* many nodes: a dot, named when pointed at */
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\"><title>node %u</title></circle>\n",
					p.x, p.y, node);
				continue;
			}
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"black\"/>",
				p.x, p.y, k ? r * 0.6 : r, k ? "#eef" : "white");
			/* four digits (a part of a big network) fit smaller */
			if (!k && node > 999 && r >= 10)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"%.1f\">%u</text>",
					p.x, p.y, r * 0.65, node);
			else if (!k)
				/* small circles, small numbers */
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"%.0f\">%u</text>",
					p.x, p.y, fmin(r, 11), node);
			fputc('\n', f);
		}
	}
	return 0;
}

/*
 * The network as a picture: the part holding every used channel (all of
 * a small network) node by node, or, when that part is too big, a heat
 * map of the whole; the rule is the man page's (vcubectl(8), links).
 */
/* A mesh or torus of more than two dimensions has no picture here. */
bool vc_svg_drawable(const struct vcube_nl_topo *t)
{
	const char *comma = strchr(t->shape, ',');

	switch (t->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		return true;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		return !comma || !strchr(comma + 1, ',');
	case VCUBE_TOPOLOGY_FATTREE:
	case VCUBE_TOPOLOGY_DRAGONFLY:
	case VCUBE_TOPOLOGY_GRAPH:
		return true;
	default:
		return false;
	}
}

int vc_svg_write(const char *path, const struct vcube_nl_topo *t,
		 const struct vcube_nl_link *l, size_t n)
{
	struct svg_layout g;
	FILE *f;
	int ret = 0;

	ret = svg_layout_init(&g, t, l, n);
	if (!ret && g.heat)
		svg_heat(NULL, &g, t, l, n, false);
	f = ret ? NULL : fopen(path, "w");
	if (!f) {
		ret = ret ? ret : -errno;
		svg_layout_fini(&g);
		return ret;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		/* room for a dragonfly's or graph's longer lines of text */
		fmax(g.w + 2 * SVG_MARGIN, g.slot && !g.heat ? 1000 : 760),
		g.h + 2 * SVG_MARGIN + 75);
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">vcube %s %s (%s, %s switching): channel use over %.3f us, %llu messages</text>\n",
		vcube_topology_name(t->kind), t->shape, t->profile,
		vcube_switching_name(t->switching), t->elapsed / 1e3,
		(unsigned long long)t->messages);
	svg_caption(f, &g, t);
	fprintf(f, "<g transform=\"translate(0 20)\">\n");
	if (g.heat)
		ret = svg_heat(f, &g, t, l, n, true);
	else
		ret = svg_graph(f, &g, t, l, n);
	fprintf(f, "</g>\n");
	svg_scale(f, t, l, n, g.h + 2 * SVG_MARGIN + 34);
	fprintf(f, "</svg>\n");
	if (fclose(f) && !ret)
		ret = -errno;
	svg_layout_fini(&g);
	return ret;
}
