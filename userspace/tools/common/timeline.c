// SPDX-License-Identifier: MIT
/*
 * The time-space diagram (timeline.h). The records of one message (its
 * PROBE, REQUEST and data share a number) are grouped: the data's first
 * channel says when the sender transmitted, its last when the receiver
 * received, and the line runs from the body's start at the sender to its
 * release at the receiver. gnuplot draws eleven data blocks in one file:
 * the waits, one block per group of causes (TL_GROUPS), transmissions,
 * receptions, messages, handshakes, and the stubs of messages with one
 * end not drawn. A node's row is its place among the nodes drawn.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/timeline.h"

/* One message (or handshake transfer): its extent and end channels. */
struct tl_msg {
	uint64_t start, end;		/* body began, last channel released */
	uint64_t tx0, tx1, rx0, rx1;	/* its first and last channel's use */
	unsigned int src, dst, kind, lo, hi;
	uint32_t msg;
};

/* The waits' shading: causes grouped, a colour and a key each. */
#define TL_GROUPS	6

static const struct {
	const char *colour, *key;
} tl_groups[TL_GROUPS] = {
	{ "#dddddd", "waiting: not sent yet" },
	{ "#cfd8e3", "waiting: in transit" },
	{ "#f4a261", "waiting: a channel held" },
	{ "#c39bd3", "waiting: a port, duplex" },
	{ "#f6d860", "waiting: its receive, buffer" },
	{ "#9a9a9a", "busy, control network" },
};

static unsigned int tl_group_of(unsigned int cause)
{
	switch (cause) {
	case VCUBE_TRACE_CAUSE_NOSEND: return 0;
	case VCUBE_TRACE_CAUSE_TRANSIT: return 1;
	case VCUBE_TRACE_CAUSE_CHAN: return 2;
	case VCUBE_TRACE_CAUSE_PORT:
	case VCUBE_TRACE_CAUSE_DUPLEX: return 3;
	case VCUBE_TRACE_CAUSE_RECV: return 4;
	default: return 5;
	}
}

static bool tl_is_wait(const struct vcube_trace_rec *r)
{
	return r->kind == VCUBE_TRACE_KIND_WAIT;
}

static int tl_cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* Is @node drawn, and on which row (*@row, may be NULL)? */
static bool tl_row(const struct vcube_tl *tl, unsigned int node,
		   unsigned int *row)
{
	const unsigned int *p;

	if (node >= tl->nodes)
		return false;
	if (!tl->rows) {
		if (row)
			*row = node;
		return true;
	}
	p = bsearch(&node, tl->rows, tl->nrows, sizeof(*p), tl_cmp_uint);
	if (p && row)
		*row = (unsigned int)(p - tl->rows);
	return p != NULL;
}

/* Does [@start, @end) (virtual ns) meet the window? */
static bool tl_in_window(const struct vcube_tl *tl, uint64_t start,
			 uint64_t end)
{
	if (end <= tl->origin || end - tl->origin <= tl->from)
		return false;
	return !tl->until || start < tl->origin ||
	       start - tl->origin < tl->until;
}

bool vcube_tool_timeline_keeps(const struct vcube_tl *tl,
			       const struct vcube_trace_rec *r)
{
	if (tl_is_wait(r))
		return tl_row(tl, r->src, NULL) &&
		       tl_in_window(tl, r->start, r->end);
	/* every channel of a message: its first and last say where it ran */
	return r->kind <= VCUBE_TRACE_KIND_DATA &&
	       (tl_row(tl, r->src, NULL) || tl_row(tl, r->dst, NULL));
}

/* --timeline-nodes @list into *@rows, *@nrows (vcube_tool_timeline_opts()). */
static int tl_nodes(const char *tool, const char *list, unsigned int **rows,
		    unsigned int *nrows)
{
	unsigned int *v;
	size_t n, i;
	int ret;

	ret = vcube_nodelist_parse(list, NULL, 0, &n);
	if (ret) {
		fprintf(stderr, "%s: --timeline-nodes '%s': not a node list (like 0-15 or 0,4,8-11, each range low-high)\n",
			tool, list);
		return -EINVAL;
	}
	/* past vcube's most, a node is named twice or is past the end */
	if (n > 4096) {
		fprintf(stderr, "%s: --timeline-nodes '%s': %zu nodes, more than a network has (4096)\n",
			tool, list, n);
		return -EINVAL;
	}
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	vcube_nodelist_parse(list, v, n, &n);
	qsort(v, n, sizeof(*v), tl_cmp_uint);
	for (i = 1; i < n; i++)
		if (v[i] == v[i - 1]) {
			fprintf(stderr, "%s: --timeline-nodes '%s': node %u twice\n",
				tool, list, v[i]);
			free(v);
			return -EINVAL;
		}
	*rows = v;
	*nrows = n;
	return 0;
}

int vcube_tool_timeline_opts(const char *tool, const char *out,
			     const char *list, bool from_set, uint64_t from,
			     bool until_set, uint64_t until,
			     unsigned int **rows, unsigned int *nrows)
{
	if ((list || from_set || until_set) && !out) {
		fprintf(stderr, "%s: --%s is for --timeline\n", tool,
			list ? "timeline-nodes" : from_set ? "from" : "until");
		return -EINVAL;
	}
	if (until_set && from >= until) {
		fprintf(stderr, "%s: --from %" PRIu64 " is not before --until %" PRIu64 "\n",
			tool, from, until);
		return -EINVAL;
	}
	return list ? tl_nodes(tool, list, rows, nrows) : 0;
}

int vcube_tool_timeline_fits(const char *tool, const char *list,
			     const unsigned int *rows, unsigned int nrows,
			     unsigned int nodes)
{
	if (!rows || rows[nrows - 1] < nodes)
		return 0;
	if (tool)
		fprintf(stderr, "%s: --timeline-nodes '%s': no node %u (the network's are 0-%u)\n",
			tool, list, rows[nrows - 1], nodes - 1);
	return -EINVAL;
}

static int tl_cmp(const void *a, const void *b)
{
	const struct vcube_trace_rec *x = a, *y = b;

	if (x->msg != y->msg)
		return x->msg < y->msg ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->hop < y->hop ? -1 : x->hop > y->hop;
}

/* The records of @tl grouped into messages: *n of them in *out. */
static int tl_group(const struct vcube_tl *tl, struct tl_msg **out, size_t *n)
{
	struct vcube_trace_rec *r = malloc((tl->nrec + 1) * sizeof(*r));
	struct tl_msg *m = calloc(tl->nrec + 1, sizeof(*m)), *cur = NULL;
	size_t i;

	if (!r || !m) {
		free(r);
		free(m);
		return -ENOMEM;
	}
	size_t k = 0;

	for (i = 0; i < tl->nrec; i++)	/* the channel uses */
		if (tl->rec[i].kind <= VCUBE_TRACE_KIND_DATA)
			r[k++] = tl->rec[i];
	qsort(r, k, sizeof(*r), tl_cmp);
	*n = 0;
	for (i = 0; i < k; i++) {
		if (!cur || cur->msg != r[i].msg || cur->kind != r[i].kind) {
			cur = &m[(*n)++];
			*cur = (struct tl_msg){
				.start = r[i].start, .end = r[i].end,
				.tx0 = r[i].start, .tx1 = r[i].end,
				.src = r[i].src, .dst = r[i].dst,
				.kind = r[i].kind, .msg = r[i].msg,
				.lo = r[i].hop, .hi = r[i].hop,
			};
		}
		if (r[i].start < cur->start)
			cur->start = r[i].start;
		if (r[i].end > cur->end)
			cur->end = r[i].end;
		if (r[i].hop <= cur->lo) {
			cur->lo = r[i].hop;
			cur->tx0 = r[i].start;
			cur->tx1 = r[i].end;
		}
		if (r[i].hop >= cur->hi) {
			cur->hi = r[i].hop;
			cur->rx0 = r[i].start;
			cur->rx1 = r[i].end;
		}
	}
	free(r);
	*out = m;
	return 0;
}

/* What the data file holds, counted for the script's key and shading. */
struct tl_count {
	size_t waits[TL_GROUPS];	/* drawn, per group of causes */
	size_t msgs, ctl, stubs;	/* lines, dashed lines, stubs */
};

/*
 * The blocks of the data file, times in @unit ns: the waits by group, then
 * transmissions, receptions, messages, handshakes, stubs. Only what lies
 * in the window on the rows drawn, counted into @c.
 */
static void tl_data(FILE *d, const struct vcube_tl *tl, const struct tl_msg *m,
		    size_t n, double unit, struct tl_count *c)
{
	const double o = (double)tl->origin;
	const struct vcube_trace_rec *r;
	unsigned int g, y, ys, yd;
	bool hs, hd;
	size_t i;
	int k;

	memset(c, 0, sizeof(*c));
	for (g = 0; g < TL_GROUPS; g++) {
		fprintf(d, "%s# %s\n0 -9 0 0\n", g ? "\n\n" : "",
			tl_groups[g].key);
		for (i = 0; i < tl->nrec; i++) {
			r = &tl->rec[i];
			if (!tl_is_wait(r) || tl_group_of(r->cause) != g ||
			    !tl_row(tl, r->src, &y) ||
			    !tl_in_window(tl, r->start, r->end))
				continue;
			c->waits[g]++;
			fprintf(d, "%.6f %u %.6f %.6f\n", (r->start - o) / unit,
				y, (r->start - o) / unit, (r->end - o) / unit);
		}
	}
	for (k = 0; k < 2; k++) {
		fprintf(d, "\n\n# %s\n0 -9 0 0\n", k ? "receiving" : "transmitting");
		for (i = 0; i < n; i++)
			if (m[i].kind == VCUBE_TRACE_KIND_DATA &&
			    tl_row(tl, k ? m[i].dst : m[i].src, &y) &&
			    tl_in_window(tl, k ? m[i].rx0 : m[i].tx0,
					 k ? m[i].rx1 : m[i].tx1))
				fprintf(d, "%.6f %u %.6f %.6f\n",
					((k ? m[i].rx0 : m[i].tx0) - o) / unit, y,
					((k ? m[i].rx0 : m[i].tx0) - o) / unit,
					((k ? m[i].rx1 : m[i].tx1) - o) / unit);
	}
	/*
	 * 3: messages; 4: the long protocol's PROBE and REQUEST; 5: messages
	 * with one end drawn, half a row from it toward the other's side
	 */
	for (k = 0; k < 3; k++) {
		fprintf(d, "\n\n# %s\n0 -9 0 0\n", k == 2 ? "stubs" :
			k ? "handshakes" : "messages");
		for (i = 0; i < n; i++) {
			if ((m[i].kind == VCUBE_TRACE_KIND_DATA) == (k == 1) ||
			    !tl_in_window(tl, m[i].start, m[i].end))
				continue;
			hs = tl_row(tl, m[i].src, &ys);
			hd = tl_row(tl, m[i].dst, &yd);
			if (k < 2 && hs && hd) {
				fprintf(d, "%.6f %u %.6f %d\n", (m[i].start - o) / unit,
					ys, (m[i].end - m[i].start) / unit,
					(int)yd - (int)ys);
				*(k ? &c->ctl : &c->msgs) += 1;
			} else if (k == 2 && hs != hd) {
				fprintf(d, "%.6f %.1f %.6f %.1f\n",
					(m[i].start - o) / unit,
					hs ? ys : yd + (m[i].src < m[i].dst ? -0.5 : 0.5),
					(m[i].end - m[i].start) / unit,
					m[i].src < m[i].dst ? 0.5 : -0.5);
				c->stubs++;
			}
		}
	}
}

/* The node numbers on the rows: every @step-th row labelled. */
static void tl_ytics(FILE *g, const struct vcube_tl *tl, unsigned int nrows,
		     unsigned int step)
{
	unsigned int i;

	fprintf(g, "set ytics (");
	for (i = 0; i < nrows; i += step)
		fprintf(g, "%s\"%u\" %u", i ? ", " : "",
			tl->rows ? tl->rows[i] : i, i);
	fprintf(g, ")\n");
}

/* The lines fainter as they crowd (gnuplot: alpha 00 opaque, ff clear). */
static unsigned int tl_alpha(size_t lines)
{
	return lines > 1000 ? 0xc0 : lines > 200 ? 0x90 : 0x40;
}

/* gnuplot's commands for @tl drawn from @data into @out. */
static void tl_script(FILE *g, const struct vcube_tl *tl, const char *data,
		      const char *out, double unit, uint64_t end,
		      const struct tl_count *c)
{
	unsigned int k;
	unsigned int alpha = tl_alpha(c->msgs), salpha = tl_alpha(c->stubs);
	const char *uname = unit == 1e6 ? "ms" : "us";
	const char *dot = strrchr(out, '.');
	unsigned int nrows = tl->rows ? tl->nrows : tl->nodes;
	/* a row 14 pixels high, at least 12 and at most 80 of them */
	unsigned int h = 140 + 14 * (nrows < 12 ? 12 : nrows < 80 ? nrows : 80);
	unsigned int step = nrows <= 40 ? 1 : (nrows + 31) / 32;
	char list[160];

	fprintf(g, "set terminal %s size 900,%u noenhanced font 'sans,10'\n",
		dot && !strcmp(dot, ".png") ? "pngcairo" : "svg dynamic", h);
	fprintf(g, "set output '%s'\n", out);
	if (tl->rows && vcube_nodelist_format(tl->rows, tl->nrows, list,
					      sizeof(list)))
		snprintf(list, sizeof(list), "%u", tl->nrows);
	if (tl->title && tl->rows)
		fprintf(g, "set title \"%s\\nnodes %s of %u\"\n", tl->title,
			list, tl->nodes);
	else if (tl->title)
		fprintf(g, "set title \"%s\"\n", tl->title);
	fprintf(g, "set xlabel 'virtual time (%s)'\nset ylabel 'node'\n"
		"set yrange [%u.5:-0.8]\n"
		"set grid xtics lc rgb '#e0e0e0'\nset key outside top center horizontal\n"
		"set style fill solid 1.0 noborder\nset clip two\n", uname,
		nrows - 1);
	tl_ytics(g, tl, nrows, step);
	fprintf(g, "set xrange [%.6f:%.6f]\n", tl->from / unit, end / unit);
	/* a key only for what is drawn */
	for (k = 0; k < TL_GROUPS; k++)
		fprintf(g, "%s'%s' index %u using 1:2:3:4:($2-0.45):($2+0.45) with boxxyerror lc rgb '%s' title '%s', \\\n",
			k ? " " : "plot ", k ? "" : data, k, tl_groups[k].colour,
			c->waits[k] ? tl_groups[k].key : "");
	fprintf(g, " '' index %u using 1:($2-0.18):3:4:($2-0.32):($2-0.04) with boxxyerror lc rgb '#2b6cb0' title 'transmitting', \\\n",
		TL_GROUPS);
	fprintf(g, " '' index %u using 1:($2+0.18):3:4:($2+0.04):($2+0.32) with boxxyerror lc rgb '#2f9e44' title 'receiving', \\\n",
		TL_GROUPS + 1);
	fprintf(g, " '' index %u using 1:2:3:4 with vectors nohead lw 0.7 lc rgb '#%02xb0302a' title 'message: sent -> received', \\\n",
		TL_GROUPS + 2, alpha);
	fprintf(g, " '' index %u using 1:2:3:4 with vectors nohead dt 2 lw 0.7 lc rgb '#808080' title '%s', \\\n",
		TL_GROUPS + 3, c->ctl ? "PROBE, REQUEST" : "");
	fprintf(g, " '' index %u using 1:2:3:4 with vectors nohead lw 1.2 lc rgb '#%02x7b3294' title '%s'\n",
		TL_GROUPS + 4, salpha, c->stubs ? "message to or from a node not drawn" : "");
}

int vcube_tool_timeline_check(const char *tool, const char *out)
{
	const char *dot = strrchr(out, '.');
	FILE *f;

	if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png"))) {
		fprintf(stderr, "%s: --timeline writes .svg or .png files (%s)\n",
			tool, out);
		return -EINVAL;
	}
	f = fopen(out, "a");
	if (!f) {
		fprintf(stderr, "%s: --timeline %s: %s\n", tool, out,
			strerror(errno));
		return -errno;
	}
	fclose(f);
	return 0;
}

int vcube_tool_timeline(const struct vcube_tl *tl, const char *out)
{
	char data[] = "/tmp/vcube-timeline-XXXXXX";
	struct tl_msg *m = NULL;
	struct tl_count c;
	uint64_t last = 0, end;
	size_t n = 0, i;
	double unit;
	FILE *d, *g;
	int fd, ret, st;

	if (!tl->nodes || (tl->rows && !tl->nrows) ||
	    (tl->until && tl->from >= tl->until))
		return -EINVAL;
	ret = tl_group(tl, &m, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		last = m[i].end > last ? m[i].end : last;
	for (i = 0; i < tl->nrec; i++)
		if (tl_is_wait(&tl->rec[i]) && tl->rec[i].end > last)
			last = tl->rec[i].end;
	/* the axis's end: --until, else the run's (a window past it: 1 us) */
	end = tl->until ? tl->until : last - (last > tl->origin ? tl->origin : last);
	if (end <= tl->from)
		end = tl->from + 1000;
	unit = end - tl->from >= 10000000 ? 1e6 : 1e3;
	fd = mkstemp(data);
	d = fd < 0 ? NULL : fdopen(fd, "w");
	if (!d) {
		ret = -errno;
		free(m);
		return ret;
	}
	tl_data(d, tl, m, n, unit, &c);
	fclose(d);
	free(m);
	/* made first: gnuplot would draw on standard output if it could not */
	g = fopen(out, "w");
	if (!g) {
		ret = -errno;
		fprintf(stderr, "%s: %s\n", out, strerror(errno));
		unlink(data);
		return ret;
	}
	fclose(g);
	g = popen("gnuplot", "w");
	if (!g) {
		ret = -errno;
		unlink(data);
		return ret;
	}
	tl_script(g, tl, data, out, unit, end, &c);
	st = pclose(g);
	unlink(data);
	return st ? -EIO : 0;
}
