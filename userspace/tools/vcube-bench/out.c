// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench: one writer of results as a table, CSV or JSON, for the
 * sweep (exchanges, irregular schedules, sums, broadcasts, FFTs) and the
 * studies (sync.c, ge.c); and the sweep's CSV read back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "vcube-bench/bench.h"

enum bench_fmt bench_out_fmt(int csv, int json)
{
	return json ? BENCH_JSON : csv ? BENCH_CSV : BENCH_TABLE;
}

void bench_out_start(struct bench_out *o, FILE *f, enum bench_fmt fmt,
		     const struct bench_col *cols, unsigned int ncols)
{
	*o = (struct bench_out){ .f = f, .fmt = fmt, .cols = cols,
				 .ncols = ncols };
	/* JSON: the object and its array of rows written as they go */
	vcube_print_init(&o->p, f, fmt == BENCH_JSON,
			 JSON_C_TO_STRING_PLAIN | VCUBE_PRINT_LINES, 2);
	/* without memory for it, the facts go first, as a comment */
	if (fmt == BENCH_CSV)
		o->tf = open_memstream(&o->trail, &o->ntrail);
}

/*
 * A CSV fact's value: as it is, or in double quotes (with \" and \\)
 * when it holds a space, a quote or a backslash, as bench_read_csv reads.
 */
static void csv_fact(FILE *f, const char *v)
{
	const char *c;

	if (!v[strcspn(v, " \t\"\\")]) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (c = v; *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

/* A CSV cell: as it is, or quoted as RFC 4180 says when it must be. */
static void csv_cell(FILE *f, const char *v)
{
	const char *c;

	if (!v[strcspn(v, ",\"\n\r")]) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (c = v; *c; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

/* Where CSV's facts go: the trailer, else straight out. */
static FILE *csv_facts(const struct bench_out *o)
{
	return o->tf ? o->tf : o->f;
}

void bench_out_note(struct bench_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->fmt != BENCH_TABLE)
		return;
	va_start(ap, fmt);
	fputs("# ", o->f);
	vfprintf(o->f, fmt, ap);
	fputc('\n', o->f);
	va_end(ap);
}

/* JSON: the document's object, opened before its first member. */
static struct vcube_print *json_begin(struct bench_out *o)
{
	if (!o->p.depth)
		vcube_print_open(&o->p, NULL, '{');
	return &o->p;
}

/*
 * Begin a CSV fact: "# " or " " before it, and its key. The stream its
 * value goes to, or NULL if it does not go in CSV.
 */
static FILE *csv_key(struct bench_out *o, unsigned int in, const char *key)
{
	if (o->fmt != BENCH_CSV || !(in & BENCH_IN_CSV))
		return NULL;
	fprintf(csv_facts(o), "%s%s=", o->nmeta++ ? " " : "# ", key);
	return csv_facts(o);
}

/* Does a meta value go in this output's JSON? */
static bool in_json(const struct bench_out *o, unsigned int in)
{
	return o->fmt == BENCH_JSON && (in & BENCH_IN_JSON);
}

void bench_out_str(struct bench_out *o, unsigned int in, const char *key,
		   const char *v)
{
	FILE *f = csv_key(o, in, key);

	if (in_json(o, in))
		vcube_print_str(json_begin(o), VCUBE_PRINT_JSON, key, NULL, v);
	else if (f)
		csv_fact(f, v);
}

void bench_out_uint(struct bench_out *o, unsigned int in, const char *key,
		    unsigned long long v)
{
	FILE *f = csv_key(o, in, key);

	if (in_json(o, in))
		vcube_print_uint(json_begin(o), VCUBE_PRINT_JSON, key, NULL, v);
	else if (f)
		fprintf(f, "%llu", v);
}

void bench_out_real(struct bench_out *o, unsigned int in, const char *key,
		    double v)
{
	FILE *f = csv_key(o, in, key);

	if (in_json(o, in))
		vcube_print_real(json_begin(o), VCUBE_PRINT_JSON, key, NULL,
				 VCUBE_PRINT_G, v);
	else if (f)
		fprintf(f, "%g", v);
}

void bench_out_bool(struct bench_out *o, unsigned int in, const char *key,
		    int v)
{
	FILE *f = csv_key(o, in, key);

	if (in_json(o, in))
		vcube_print_bool(json_begin(o), VCUBE_PRINT_JSON, key, NULL, v);
	else if (f)
		fputs(v ? "1" : "0", f);
}

void bench_out_open(struct bench_out *o, const char *key)
{
	if (o->fmt == BENCH_JSON)
		vcube_print_open(json_begin(o), key, '{');
}

void bench_out_close(struct bench_out *o)
{
	if (o->fmt == BENCH_JSON)
		vcube_print_close(&o->p);
}

/* The column's name in this format; NULL: not in it. */
static const char *col_name(const struct bench_out *o,
			    const struct bench_col *c)
{
	return o->fmt == BENCH_JSON ? c->json :
	       o->fmt == BENCH_CSV ? c->csv : c->head;
}

/* A table cell's width, its suffix included; negative: left-aligned. */
static int col_width(const struct bench_col *c)
{
	int extra = c->suffix ? (int)strlen(c->suffix) : 0;

	return c->width < 0 ? c->width - extra : c->width + extra;
}

void bench_out_rows(struct bench_out *o, const char *key)
{
	unsigned int i, n = 0;

	if (o->fmt == BENCH_JSON) {
		vcube_print_open(json_begin(o), key, '[');
		return;
	}
	if (o->fmt == BENCH_CSV && o->nmeta && !o->tf)
		fputc('\n', o->f);
	for (i = 0; i < o->ncols; i++) {
		const struct bench_col *c = &o->cols[i];

		if (!col_name(o, c))
			continue;
		if (o->fmt == BENCH_CSV)
			fprintf(o->f, "%s%s", n++ ? "," : "", c->csv);
		else
			fprintf(o->f, "%s%*s", n++ ? " " : "", col_width(c),
				c->head);
	}
	fputc('\n', o->f);
}

/* One value as CSV writes it (reals with one decimal). */
static void cell_csv(const struct bench_out *o, const struct bench_col *c,
		     const union bench_val *v)
{
	switch (c->type) {
	case BENCH_STR:
		csv_cell(o->f, v->s);
		break;
	case BENCH_UINT:
		fprintf(o->f, "%llu", v->u);
		break;
	case BENCH_REAL:
		if (!c->none_neg || v->f >= 0)
			fprintf(o->f, "%.*f", c->dprec ? c->dprec : 1, v->f);
		break;
	case BENCH_BOOL:
		fputs(v->b ? "1" : "0", o->f);
		break;
	}
}

/* One value as JSON writes it, as CSV's digits (none: null). */
static void cell_json(struct bench_out *o, const struct bench_col *c,
		      const union bench_val *v)
{
	struct vcube_print *p = &o->p;

	switch (c->type) {
	case BENCH_STR:
		vcube_print_str(p, VCUBE_PRINT_JSON, c->json, NULL, v->s);
		break;
	case BENCH_UINT:
		vcube_print_uint(p, VCUBE_PRINT_JSON, c->json, NULL, v->u);
		break;
	case BENCH_REAL:
		if (c->none_neg && v->f < 0)
			vcube_print_null(p, VCUBE_PRINT_JSON, c->json, NULL);
		else
			vcube_print_real(p, VCUBE_PRINT_JSON, c->json, NULL,
					 c->dprec ? c->dprec : 1, v->f);
		break;
	case BENCH_BOOL:
		vcube_print_bool(p, VCUBE_PRINT_JSON, c->json, NULL, v->b);
		break;
	}
}

/* One value as the table shows it. */
static void cell_table(const struct bench_out *o, const struct bench_col *c,
		       const union bench_val *v)
{
	double x = c->type == BENCH_REAL ? v->f : (double)v->u;

	if (c->type == BENCH_STR)
		fprintf(o->f, "%*s", c->width, v->s);
	else if (c->type == BENCH_REAL && c->none_neg && v->f < 0)
		fprintf(o->f, "%*s", c->width, "-");
	else if (c->type == BENCH_BOOL)
		fprintf(o->f, "%*s", c->width, v->b ? "ok" : c->no);
	else if (c->type == BENCH_REAL || c->scale)
		fprintf(o->f, "%*.*f", c->width, c->prec,
			c->scale ? x / c->scale : x);
	else
		fprintf(o->f, "%*llu", c->width, v->u);
	if (c->suffix)
		fputs(c->suffix, o->f);
}

/* A row as one JSON object, written whole in the array of rows. */
static void row_json(struct bench_out *o, const union bench_val *v)
{
	unsigned int i;

	vcube_print_open(&o->p, NULL, '{');
	for (i = 0; i < o->ncols; i++)
		if (o->cols[i].json)
			cell_json(o, &o->cols[i], &v[i]);
	vcube_print_close(&o->p);
}

void bench_out_row(struct bench_out *o, const union bench_val *v)
{
	unsigned int i, n = 0;

	if (o->fmt == BENCH_JSON) {
		row_json(o, v);
		return;
	}
	for (i = 0; i < o->ncols; i++) {
		const struct bench_col *c = &o->cols[i];

		if (!col_name(o, c))
			continue;
		fputs(n++ ? (o->fmt == BENCH_CSV ? "," : " ") : "", o->f);
		if (o->fmt == BENCH_TABLE)
			cell_table(o, c, &v[i]);
		else
			cell_csv(o, c, &v[i]);
	}
	fputc('\n', o->f);
}

void bench_out_end(struct bench_out *o)
{
	if (o->fmt == BENCH_JSON)
		vcube_print_end(&o->p);
	if (!o->tf)
		return;
	fclose(o->tf);
	if (o->ntrail)
		fprintf(o->f, "%s\n", o->trail);
	free(o->trail);
	o->tf = NULL;
	o->trail = NULL;
}

/* ---- the sweep ---------------------------------------------------------- */

static const struct bench_col sweep_cols[] = {
	{ .json = "algo", .csv = "algo", .head = "algo", .type = BENCH_STR,
	  .width = -12 },
	{ .json = "bytes", .csv = "bytes", .head = "bytes",
	  .type = BENCH_UINT, .width = 8 },
	{ .json = "min", .csv = "min_ns", .head = "min", .type = BENCH_UINT,
	  .width = 12, .prec = 1, .scale = 1e3 },
	{ .json = "avg", .csv = "avg_ns", .head = "avg", .type = BENCH_REAL,
	  .width = 12, .prec = 1, .scale = 1e3 },
	{ .json = "max", .csv = "max_ns", .head = "max", .type = BENCH_UINT,
	  .width = 12, .prec = 1, .scale = 1e3 },
	{ .json = "ok", .csv = "ok", .head = "data", .type = BENCH_BOOL,
	  .no = "BAD" },
};

/* Over MPI: what the library chose for its own operation's rows. */
static const struct bench_col via_col = {
	.json = "mpi_algo", .csv = "mpi_algo", .head = "chosen",
	.type = BENCH_STR, .width = -15,
};

/* --predict: vcube-sim's time, and measured (min) over predicted. */
static const struct bench_col pred_cols[] = {
	{ .json = "predicted", .csv = "predicted_ns", .head = "predicted",
	  .type = BENCH_REAL, .width = 12, .prec = 1, .scale = 1e3,
	  .none_neg = true },
	{ .json = "ratio", .csv = "ratio", .head = "ratio",
	  .type = BENCH_REAL, .width = 7, .prec = 2, .dprec = 4,
	  .none_neg = true },
};

/* Are @b's times real (the MPI transport) rather than virtual? */
static bool sweep_real(const struct bench *b)
{
	return !strcmp(b->net.topology, "mpi");
}

/* Over MPI, a mode with the library's own operation: its rows' choice. */
static bool sweep_via(const struct bench *b)
{
	return sweep_real(b) && !b->fft && !(b->density > 0);
}

static void sweep_notes(const struct bench *b, struct bench_out *o)
{
	if (sweep_real(b))
		bench_out_note(o, "MPI (%s), %u processes on %s, %u reps",
			       b->net.profile, b->procs, b->net.shape, b->reps);
	else
		bench_out_note(o, "%s %s (%u nodes), profile %s, %u processes, %u reps",
			       b->net.topology, b->net.shape, b->net.nodes,
			       b->net.profile, b->procs, b->reps);
	if (b->reduce)
		bench_out_note(o, "global sums of 64-bit integers; bytes per rank");
	if (b->bcast)
		bench_out_note(o, "broadcasts from rank 0; bytes");
	if (b->fft)
		bench_out_note(o, "2-D FFTs; 'bytes' is the array's edge N (N x N complex doubles), %g ns per flop",
			       b->flop_ns);
	if (b->density > 0)
		bench_out_note(o, "irregular: %.0f%% of the pairs talk (%s), seed %llu",
			       100 * b->density,
			       b->one_way ? "one-way" : "both ways",
			       (unsigned long long)b->seed);
	if (sweep_real(b))
		bench_out_note(o, "real time (CLOCK_MONOTONIC) of the slowest rank, us, after %u warm-up repetition%s",
			       b->warmup, b->warmup == 1 ? "" : "s");
	else
		bench_out_note(o, "virtual time of the slowest rank, us");
	if (b->predict)
		bench_out_note(o, "predicted: vcube-sim %s%s, every rank from time 0; ratio: min / predicted",
			       strchr(b->predict, '=') ? "" : "--profile ",
			       b->predict);
}

static void sweep_meta(const struct bench *b, struct bench_out *o)
{
	bench_out_open(o, "network");
	bench_out_str(o, BENCH_IN_BOTH, "topology", b->net.topology);
	bench_out_str(o, BENCH_IN_BOTH, "shape", b->net.shape);
	bench_out_uint(o, BENCH_IN_BOTH, "nodes", b->net.nodes);
	bench_out_str(o, BENCH_IN_BOTH, "profile", b->net.profile);
	bench_out_uint(o, BENCH_IN_BOTH, "seed", b->net.seed);
	bench_out_close(o);
	bench_out_uint(o, BENCH_IN_BOTH, "procs", b->procs);
	bench_out_uint(o, BENCH_IN_BOTH, "reps", b->reps);
	bench_out_real(o, BENCH_IN_BOTH, "density", b->density);
	bench_out_uint(o, BENCH_IN_CSV, "reduce", b->reduce);
	bench_out_uint(o, BENCH_IN_CSV, "fft", b->fft);
	bench_out_real(o, BENCH_IN_CSV, "flop_ns", b->flop_ns);
	bench_out_uint(o, BENCH_IN_CSV, "bcast", b->bcast);
	if (sweep_real(b))
		bench_out_uint(o, BENCH_IN_BOTH, "warmup", b->warmup);
	if (b->predict)
		bench_out_str(o, BENCH_IN_BOTH, "predict", b->predict);
	bench_out_str(o, BENCH_IN_JSON, "unit", "ns");
}

/*
 * The next "key=value" of a facts line at *@s (a quoted value unescaped
 * in place); false at its end.
 */
static bool fact_next(char **s, char **key, char **val)
{
	char *p = *s + strspn(*s, " \t#\r\n"), *w;

	if (!*p || !strchr(p, '='))
		return false;
	*key = p;
	p = strchr(p, '=');
	*p++ = '\0';
	*val = w = p;
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			*w++ = *p;
		}
		if (*p)
			p++;
	} else {
		while (*p && !strchr(" \t\r\n", *p))
			*w++ = *p++;
	}
	if (*p)
		p++;
	*w = '\0';
	*s = p;
	return true;
}

/* A facts line of a sweep's CSV, into @b (what it does not know, kept). */
static void read_facts(char *line, struct bench *b)
{
	char *k, *v;

	while (fact_next(&line, &k, &v)) {
		if (!strcmp(k, "topology"))
			snprintf(b->net.topology, sizeof(b->net.topology), "%s", v);
		else if (!strcmp(k, "shape"))
			snprintf(b->net.shape, sizeof(b->net.shape), "%s", v);
		else if (!strcmp(k, "profile"))
			snprintf(b->net.profile, sizeof(b->net.profile), "%s", v);
		else if (!strcmp(k, "nodes"))
			b->net.nodes = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(k, "seed"))
			b->net.seed = strtoull(v, NULL, 10);
		else if (!strcmp(k, "procs"))
			b->procs = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(k, "reps"))
			b->reps = (unsigned int)strtoul(v, NULL, 10);
		else if (!strcmp(k, "density"))
			b->density = strtod(v, NULL);
		else if (!strcmp(k, "flop_ns"))
			b->flop_ns = strtod(v, NULL);
		else if (!strcmp(k, "reduce"))
			b->reduce = atoi(v);
		else if (!strcmp(k, "fft"))
			b->fft = atoi(v);
		else if (!strcmp(k, "bcast"))
			b->bcast = atoi(v);
	}
}

FILE *bench_each_open(const char *path, const char *x)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "vcube-bench: --each %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	fprintf(f, "algo,%s,rep,ns\n", x);
	return f;
}

void bench_each_rep(FILE *f, const char *algo, uint64_t x, unsigned int rep,
		    uint64_t ns)
{
	if (f)
		fprintf(f, "%s,%" PRIu64 ",%u,%" PRIu64 "\n", algo, x, rep, ns);
}

int bench_each_close(FILE *f, const char *path)
{
	int bad;

	if (!f)
		return 1;
	bad = ferror(f);
	if (fclose(f) || bad) {
		fprintf(stderr, "vcube-bench: --each %s: could not be written\n",
			path);
		return 1;
	}
	return 0;
}

/*
 * Read a file written by --csv: its rows and its facts. -EMEDIUMTYPE: the
 * CSV of another study than a sweep, which --from cannot redraw.
 */
int bench_read_csv(const char *path, struct bench *b)
{
	char line[512], algo[24];
	struct result r, *res;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			read_facts(line, b);
			continue;
		}
		/* another study's table (a barrier's skews, GE's parts) */
		if (!strncmp(line, "algo,", 5) &&
		    strncmp(line, "algo,bytes,min_ns,avg_ns,max_ns,ok", 34)) {
			fclose(f);
			return -EMEDIUMTYPE;
		}
		memset(&r, 0, sizeof(r));
		if (sscanf(line, "%23[^,],%" SCNu64 ",%" SCNu64 ",%lf,%" SCNu64 ",%d",
			   algo, &r.bytes, &r.min, &r.avg, &r.max, &r.ok) != 6)
			continue;
		snprintf(r.algo, sizeof(r.algo), "%s", algo);
		res = realloc(b->res, (b->nres + 1) * sizeof(*b->res));
		if (!res) {
			fclose(f);
			return -ENOMEM;
		}
		b->res = res;
		b->res[b->nres++] = r;
	}
	fclose(f);
	return b->nres ? 0 : -ENODATA;
}


void bench_rows_begin(struct bench_rows *w, const struct bench *b, FILE *f)
{
	unsigned int n = ARRAY_LEN(sweep_cols);

	_Static_assert(ARRAY_LEN(sweep_cols) + 1 + ARRAY_LEN(pred_cols) <=
		       ARRAY_LEN(((struct bench_rows *)0)->cols),
		       "struct bench_rows holds every column");
	memcpy(w->cols, sweep_cols, sizeof(sweep_cols));
	if (sweep_via(b))
		w->cols[n++] = via_col;
	if (b->predict) {
		memcpy(w->cols + n, pred_cols, sizeof(pred_cols));
		n += ARRAY_LEN(pred_cols);
	}
	bench_out_start(&w->o, f, bench_out_fmt(b->csv, b->json), w->cols, n);
	sweep_notes(b, &w->o);
	sweep_meta(b, &w->o);
	bench_out_rows(&w->o, "results");
	fflush(f);
}

void bench_rows_add(struct bench_rows *w, const struct bench *b,
		    const struct result *r)
{
	union bench_val v[ARRAY_LEN(w->cols)] = {
		{ .s = r->algo }, { .u = r->bytes }, { .u = r->min },
		{ .f = r->avg }, { .u = r->max }, { .b = r->ok },
	};
	unsigned int nv = ARRAY_LEN(sweep_cols);

	if (sweep_via(b))
		v[nv++].s = r->via[0] ? r->via : "-";
	if (b->predict) {
		v[nv++].f = r->pred;
		v[nv++].f = r->pred > 0 ? r->min / r->pred : -1;
	}
	bench_out_row(&w->o, v);
	fflush(w->o.f);
}

void bench_rows_end(struct bench_rows *w)
{
	bench_out_end(&w->o);
	fflush(w->o.f);
}

void bench_write(const struct bench *b, FILE *f)
{
	struct bench_rows w;
	unsigned int i;

	bench_rows_begin(&w, b, f);
	for (i = 0; i < b->nres; i++)
		bench_rows_add(&w, b, &b->res[i]);
	bench_rows_end(&w);
}
