// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl links --svg: the network as a picture, each channel coloured by
 * its share of the counted time (grey when unused, then yellow, orange,
 * dark red), its nodes laid out by topology.
 */
#include <errno.h>
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

struct svg_layout {
	unsigned int kind;
	unsigned int rows, cols;	/* mesh, torus */
	unsigned int levels;		/* fat tree: root level */
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
	unsigned int k, span;

	switch (g->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		for (k = 0; v >> (2 * k); k++) {
			p.x += g->unit * ((v >> (2 * k)) & 1) * pow3(k);
			p.y += g->unit * ((v >> (2 * k + 1)) & 1) * pow3(k);
		}
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		p.x += g->unit * (v % g->cols);
		p.y += g->unit * (v / g->cols);
		break;
	default:
		for (span = 1, k = 0; k < level; k++)
			span *= 4;
		p.x += g->unit * (v * span + (span - 1) / 2.0);
		p.y += 110.0 * (g->levels - level);
		break;
	}
	return p;
}

static void svg_layout_init(struct svg_layout *g, const struct vcube_nl_topo *t,
			    const struct vcube_nl_link *l, size_t n)
{
	unsigned int dim = 0, k, x = 0, y = 0, c = 0, r = 0;
	size_t i;

	memset(g, 0, sizeof(*g));
	g->kind = t->kind;
	g->unit = 70;
	switch (t->kind) {
	case VCUBE_TOPOLOGY_HYPERCUBE:
		while ((1U << dim) < t->nodes)
			dim++;
		for (k = 0; 2 * k < dim; k++)
			x += pow3(k);
		for (k = 0; 2 * k + 1 < dim; k++)
			y += pow3(k);
		if (x > 40)
			g->unit = 40;
		g->w = g->unit * x;
		g->h = g->unit * y;
		break;
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		/* rows=R cols=C, or dims=C,R (X along x); dims=N is a row */
		if ((sscanf(t->shape, "rows=%u cols=%u", &r, &c) != 2 &&
		     sscanf(t->shape, "dims=%u,%u", &c, &r) != 2) || !c)
			r = 1, c = t->nodes;
		g->rows = r;
		g->cols = c;
		if (c > 16 || r > 16)
			g->unit = 40;
		g->w = g->unit * (c - 1);
		g->h = g->unit * (r - 1);
		break;
	default:
		for (i = 0; i < n; i++) {
			if (l[i].to_level > g->levels)
				g->levels = l[i].to_level;
			if (l[i].from_level > g->levels)
				g->levels = l[i].from_level;
		}
		g->unit = t->nodes <= 64 ? 36 : 2304.0 / t->nodes;
		g->w = g->unit * (t->nodes - 1);
		g->h = 110.0 * g->levels;
		break;
	}
}

/* A channel's tooltip, and its path: it bends to the right of travel. */
static void svg_link(FILE *f, const struct svg_layout *g,
		     const struct vcube_nl_topo *t,
		     const struct vcube_nl_link *l, double u, unsigned int width)
{
	struct svg_pt p = svg_pos(g, l->from_level, l->from);
	struct svg_pt q = svg_pos(g, l->to_level, l->to);
	double dx = q.x - p.x, dy = q.y - p.y, len = sqrt(dx * dx + dy * dy);
	double nx, ny, off, sw = 3;
	char colour[16], ends[64];

	if (len <= 0)
		return;
	nx = -dy / len;
	ny = dx / len;
	svg_colour(u, colour, sizeof(colour));
	vc_link_ends(t, l, ends, sizeof(ends));
	fprintf(f, "<g><title>link %u: %s; %llu messages, %llu bytes, busy %.1f%%, %llu waits</title>",
		l->id, ends, (unsigned long long)l->messages,
		(unsigned long long)l->bytes, 100 * u,
		(unsigned long long)l->waits);
	if (g->kind == VCUBE_TOPOLOGY_FATTREE) {
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
		t->kind == VCUBE_TOPOLOGY_FATTREE ? "bundles" : "channels",
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

/* Fat tree channels of one bundle, drawn once: their most used lane. */
static bool svg_same_bundle(const struct vcube_nl_link *a,
			    const struct vcube_nl_link *b)
{
	return a->from == b->from && a->to == b->to &&
	       a->from_level == b->from_level && a->to_level == b->to_level;
}

/* A mesh or torus of more than two dimensions has no picture here. */
bool vc_svg_drawable(const struct vcube_nl_topo *t)
{
	const char *comma = strchr(t->shape, ',');

	return (t->kind != VCUBE_TOPOLOGY_MESH &&
		t->kind != VCUBE_TOPOLOGY_TORUS) ||
	       !comma || !strchr(comma + 1, ',');
}

int vc_svg_write(const char *path, const struct vcube_nl_topo *t,
		 const struct vcube_nl_link *l, size_t n)
{
	struct svg_layout g;
	struct svg_pt p;
	double r = 13, u, best;
	unsigned int v, k, count, w;
	size_t i, j;
	FILE *f;

	svg_layout_init(&g, t, l, n);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (g.unit < 30)
		r = g.unit / 2.5;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"%.0f\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		fmax(g.w + 2 * SVG_MARGIN, 760), g.h + 2 * SVG_MARGIN + 75,
		r < 10 ? r : 11);
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">vcube %s %s (%s, %s switching): channel use over %.3f us, %llu messages</text>\n",
		vcube_topology_name(t->kind), t->shape, t->profile,
		vcube_switching_name(t->switching), t->elapsed / 1e3,
		(unsigned long long)t->messages);
	fprintf(f, "<text x=\"10\" y=\"38\" font-size=\"11\" fill=\"#555\">%s</text>\n",
		t->kind == VCUBE_TOPOLOGY_FATTREE ?
		"each bundle of parallel links drawn once (its busiest lane), up left of down, thicker when wider" :
		"a channel bends to the right of its direction of travel; grey: unused");
	fprintf(f, "<g transform=\"translate(0 20)\">\n");
	for (i = 0; i < n; i = j) {
		best = vc_util(&l[i], t->elapsed);
		w = l[i].width;
		j = i + 1;
		if (t->kind == VCUBE_TOPOLOGY_FATTREE && w <= 1) {
			for (; j < n && svg_same_bundle(&l[i], &l[j]); j++) {
				u = vc_util(&l[j], t->elapsed);
				if (u > best)
					best = u;
			}
			w = (unsigned int)(j - i);
		}
		svg_link(f, &g, t, &l[i], best, w);
	}
	/* the vertices: processing nodes, and the fat tree's switches */
	for (k = 0; k <= g.levels; k++) {
		count = t->nodes;
		for (v = 0; v < k; v++)
			count = (count + 3) / 4;
		for (v = 0; v < count; v++) {
			p = svg_pos(&g, k, v);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"black\"/>",
				p.x, p.y, k ? r * 0.6 : r, k ? "#eef" : "white");
			if (!k)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"central\">%u</text>",
					p.x, p.y, v);
			fputc('\n', f);
		}
	}
	fprintf(f, "</g>\n");
	svg_scale(f, t, l, n, g.h + 2 * SVG_MARGIN + 34);
	fprintf(f, "</svg>\n");
	if (fclose(f))
		return -errno;
	return 0;
}

