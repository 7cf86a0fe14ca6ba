// SPDX-License-Identifier: MIT
/*
 * The time-space diagram (timeline.h). The records of one message (its
 * PROBE, REQUEST and data share a number) are grouped: the data's first
 * channel says when the sender transmitted, its last when the receiver
 * received, and the line runs from the body's start at the sender to its
 * release at the receiver. gnuplot draws ten data blocks in one file:
 * the waits, one block per group of causes (TL_GROUPS), transmissions,
 * receptions, messages, handshakes.
 */
#include <errno.h>
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

/*
 * The blocks of the data file, times in @unit ns: the waits by group, then
 * transmissions, receptions, messages, handshakes. The waits in each group
 * that lie in the diagram, counted into @nw.
 */
static void tl_data(FILE *d, const struct vcube_tl *tl, const struct tl_msg *m,
		    size_t n, double unit, size_t nw[TL_GROUPS])
{
	const double o = (double)tl->origin;
	const struct vcube_trace_rec *r;
	unsigned int g;
	size_t i;
	int k;

	for (g = 0; g < TL_GROUPS; g++) {
		fprintf(d, "%s# %s\n0 -9 0 0\n", g ? "\n\n" : "",
			tl_groups[g].key);
		nw[g] = 0;
		for (i = 0; i < tl->nrec; i++) {
			r = &tl->rec[i];
			if (!tl_is_wait(r) || tl_group_of(r->cause) != g ||
			    r->src >= tl->nodes || r->end <= tl->origin)
				continue;
			nw[g]++;
			fprintf(d, "%.6f %u %.6f %.6f\n", (r->start - o) / unit,
				r->src, (r->start - o) / unit,
				(r->end - o) / unit);
		}
	}
	for (k = 0; k < 2; k++) {
		fprintf(d, "\n\n# %s\n0 -9 0 0\n", k ? "receiving" : "transmitting");
		for (i = 0; i < n; i++)
			if (m[i].kind == VCUBE_TRACE_KIND_DATA)
				fprintf(d, "%.6f %u %.6f %.6f\n",
					((k ? m[i].rx0 : m[i].tx0) - o) / unit,
					k ? m[i].dst : m[i].src,
					((k ? m[i].rx0 : m[i].tx0) - o) / unit,
					((k ? m[i].rx1 : m[i].tx1) - o) / unit);
	}
	/* 3: messages; 4: the long protocol's PROBE and REQUEST */
	for (k = 0; k < 2; k++) {
		fprintf(d, "\n\n# %s\n0 -9 0 0\n", k ? "handshakes" : "messages");
		for (i = 0; i < n; i++)
			if ((m[i].kind == VCUBE_TRACE_KIND_DATA) == !k)
				fprintf(d, "%.6f %u %.6f %d\n", (m[i].start - o) / unit,
					m[i].src, (m[i].end - m[i].start) / unit,
					(int)m[i].dst - (int)m[i].src);
	}
}

/* gnuplot's commands for @tl drawn from @data into @out. */
static void tl_script(FILE *g, const struct vcube_tl *tl, const char *data,
		      const char *out, double unit, const size_t nw[TL_GROUPS],
		      size_t nmsg, size_t nctl)
{
	unsigned int k;
	/* the lines fainter as they crowd (gnuplot: alpha 00 opaque, ff clear) */
	unsigned int alpha = nmsg > 1000 ? 0xc0 : nmsg > 200 ? 0x90 : 0x40;
	const char *uname = unit == 1e6 ? "ms" : "us";
	const char *dot = strrchr(out, '.');
	unsigned int h = 140 + 14 * (tl->nodes < 80 ? tl->nodes : 80);
	unsigned int step = tl->nodes <= 40 ? 1 : (tl->nodes + 31) / 32;

	fprintf(g, "set terminal %s size 900,%u noenhanced font 'sans,10'\n",
		dot && !strcmp(dot, ".png") ? "pngcairo" : "svg dynamic", h);
	fprintf(g, "set output '%s'\n", out);
	if (tl->title)
		fprintf(g, "set title \"%s\"\n", tl->title);
	fprintf(g, "set xlabel 'virtual time (%s)'\nset ylabel 'node'\n"
		"set yrange [%u.5:-0.8]\nset ytics %u\n"
		"set grid xtics lc rgb '#e0e0e0'\nset key outside top center horizontal\n"
		"set style fill solid 1.0 noborder\n", uname, tl->nodes - 1,
		step);
	if (tl->until)
		fprintf(g, "set xrange [0:%.6f]\n", tl->until / unit);
	else
		fprintf(g, "set xrange [0:*]\n");
	/* a key only for the groups drawn */
	for (k = 0; k < TL_GROUPS; k++)
		fprintf(g, "%s'%s' index %u using 1:2:3:4:($2-0.45):($2+0.45) with boxxyerror lc rgb '%s' title '%s', \\\n",
			k ? " " : "plot ", k ? "" : data, k, tl_groups[k].colour,
			nw[k] ? tl_groups[k].key : "");
	fprintf(g, " '' index %u using 1:($2-0.18):3:4:($2-0.32):($2-0.04) with boxxyerror lc rgb '#2b6cb0' title 'transmitting', \\\n",
		TL_GROUPS);
	fprintf(g, " '' index %u using 1:($2+0.18):3:4:($2+0.04):($2+0.32) with boxxyerror lc rgb '#2f9e44' title 'receiving', \\\n",
		TL_GROUPS + 1);
	fprintf(g, " '' index %u using 1:2:3:4 with vectors nohead lw 0.7 lc rgb '#%02xb0302a' title 'message: sent -> received', \\\n",
		TL_GROUPS + 2, alpha);
	fprintf(g, " '' index %u using 1:2:3:4 with vectors nohead dt 2 lw 0.7 lc rgb '#808080' title '%s'\n",
		TL_GROUPS + 3, nctl ? "PROBE, REQUEST" : "");
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
	uint64_t last = 0;
	size_t n = 0, nctl = 0, i, nw[TL_GROUPS];
	double unit;
	FILE *d, *g;
	int fd, ret, st;

	if (!tl->nodes)
		return -EINVAL;
	ret = tl_group(tl, &m, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		last = m[i].end > last ? m[i].end : last;
		nctl += m[i].kind != VCUBE_TRACE_KIND_DATA;
	}
	for (i = 0; i < tl->nrec; i++)
		if (tl_is_wait(&tl->rec[i]) && tl->rec[i].end > last)
			last = tl->rec[i].end;
	last = tl->until ? tl->until : last - (last > tl->origin ? tl->origin : last);
	unit = last >= 10000000 ? 1e6 : 1e3;
	fd = mkstemp(data);
	d = fd < 0 ? NULL : fdopen(fd, "w");
	if (!d) {
		ret = -errno;
		free(m);
		return ret;
	}
	tl_data(d, tl, m, n, unit, nw);
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
	tl_script(g, tl, data, out, unit, nw, n - nctl, nctl);
	st = pclose(g);
	unlink(data);
	return st ? -EIO : 0;
}
