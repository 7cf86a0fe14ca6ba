// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's one writer (userspace/tools/vcube-bench/out.c): the sweep's
 * table, CSV and JSON byte for byte as recorded (tests/data/
 * bench-sweep-out.txt: the table and JSON as the earlier writer wrote
 * them; CSV since it starts with its heading and ends with its facts), a
 * CSV read back (--from) giving the same JSON, every field kept, strings
 * escaped (json-c reads a name with controls and UTF-8 back); and the writer's rules on a small study: meta values where
 * they are asked for, nested JSON objects that CSV flattens, columns
 * shown in only some formats, scaled, suffixed and boolean cells.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "vcube-bench/bench.h"
#include "check.h"

#ifndef VCUBE_TOP
#define VCUBE_TOP "."
#endif

/* What @fn writes, as a malloc'd string. */
static char *capture(void (*fn)(FILE *f, void *arg), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, arg);
	fclose(f);
	return buf;
}

/* Every sweep kind in every format, as the earlier writer was run. */
static void sweep_all(FILE *f, void *arg)
{
	struct result res[3] = {
		{ "pairwise", 64, 1000, 2000, 1500.25, 1, -1, "" },
		{ "lex_F", 4096, 123456789, 223456789, 1.5e8, 0, -1, "" },
		{ "a_long_name_x", 1ULL << 40, 1, 2, 1.05, 1, -1, "" },
	};
	struct bench b;
	int fmt, flags;

	(void)arg;
	for (flags = 0; flags < 5; flags++)
		for (fmt = 0; fmt < 3; fmt++) {
			memset(&b, 0, sizeof(b));
			strcpy(b.net.topology, "hypercube");
			strcpy(b.net.shape, "dim=5");
			b.net.nodes = 32;
			strcpy(b.net.profile, "ipsc860");
			b.net.seed = 42;
			b.procs = 32;
			b.reps = 3;
			b.res = res;
			b.nres = 3;
			b.csv = fmt == 1;
			b.json = fmt == 2;
			b.reduce = flags == 1;
			b.bcast = flags == 2;
			if (flags == 3) {
				b.fft = 1;
				b.flop_ns = 12.5;
			}
			if (flags == 4) {
				b.density = 0.25;
				b.one_way = 1;
				b.seed = 7;
			}
			bench_write(&b, f);
		}
}

/* A network whose shape has a space, and a name that needs escaping. */
static void odd_bench(struct bench *b, struct result *r, int fmt)
{
	memset(b, 0, sizeof(*b));
	strcpy(b->net.topology, "mesh");
	strcpy(b->net.shape, "rows=4 cols=4");
	b->net.nodes = 16;
	strcpy(b->net.profile, "delta");
	b->net.seed = 1234567890123ULL;
	b->procs = 16;
	b->reps = 5;
	b->density = 0.5;
	b->res = r;
	b->nres = 2;
	b->csv = fmt == BENCH_CSV;
	b->json = fmt == BENCH_JSON;
}

static void odd_json(FILE *f, void *arg)
{
	struct result r[2] = {
		{ "gen", 256, 10, 30, 20.5, 1, -1, "" },
		{ "q\"uo\\te", 1024, 40, 60, 50, 0, -1, "" },
	};
	struct bench b;

	odd_bench(&b, r, BENCH_JSON);
	b.nres = arg ? 1 : 2;
	bench_write(&b, f);
}

static void odd_csv(FILE *f, void *arg)
{
	struct result r[2] = { { "gen", 256, 10, 30, 20.5, 1, -1, "" } };
	struct bench b;

	(void)arg;
	odd_bench(&b, r, BENCH_CSV);
	b.nres = 1;
	bench_write(&b, f);
}

/* A name with a control character, a tab and non-ASCII letters. */
#define ODD_NAME "c\x01t\t\"\\\xc3\xa9\xcf\x80"

static void odd_chars(FILE *f, void *arg)
{
	struct result r[1] = { { ODD_NAME, 8, 1, 3, 2, 1, -1, "" } };
	struct bench b;

	(void)arg;
	odd_bench(&b, r, BENCH_JSON);
	b.nres = 1;
	bench_write(&b, f);
}

/* json-c reads @s back: its first result's algo is ODD_NAME. */
static bool odd_read_back(const char *s)
{
	struct json_object *d = s ? json_tokener_parse(s) : NULL, *res, *a;
	bool ok = json_object_object_get_ex(d, "results", &res) &&
		  json_object_object_get_ex(json_object_array_get_idx(res, 0),
					    "algo", &a) &&
		  !strcmp(json_object_get_string(a), ODD_NAME);

	json_object_put(d);
	return ok;
}

/* CSV written, read back as --from reads it, and written as JSON. */
static void round_trip(FILE *f, void *arg)
{
	char path[] = "/tmp/bench_out_test-XXXXXX";
	struct bench b = { 0 };
	char *csv = capture(odd_csv, NULL);
	int fd = mkstemp(path);
	FILE *t = fd >= 0 ? fdopen(fd, "w") : NULL;

	(void)arg;
	if (!csv || !t) {
		free(csv);
		return;
	}
	fputs(csv, t);
	fclose(t);
	free(csv);
	if (!bench_read_csv(path, &b)) {
		b.json = 1;
		bench_write(&b, f);
	}
	free(b.res);
	unlink(path);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static const struct bench_col cols[] = {
	{ .json = "name", .csv = "name", .head = "who", .type = BENCH_STR,
	  .width = -6 },
	{ .json = "t", .csv = "t_ns", .head = "t", .type = BENCH_UINT,
	  .width = 7, .prec = 2, .scale = 1e3 },
	{ .json = "raw", .csv = "raw", .type = BENCH_REAL },
	{ .head = "share", .type = BENCH_REAL, .width = 4, .suffix = "%" },
	{ .json = "ok", .csv = "ok", .head = "data", .type = BENCH_BOOL,
	  .no = "BAD" },
};

static void small(FILE *f, void *arg)
{
	union bench_val v[2][5] = {
		{ { .s = "a" }, { .u = 1500 }, { .f = 2.25 }, { .f = 50 },
		  { .b = 1 } },
		{ { .s = "bb" }, { .u = 7 }, { .f = 0.04 }, { .f = 100 },
		  { .b = 0 } },
	};
	struct bench_out o;
	unsigned int i;

	bench_out_start(&o, f, *(enum bench_fmt *)arg, cols, ARRAY_LEN(cols));
	bench_out_note(&o, "a note, %d", 1);
	bench_out_str(&o, BENCH_IN_BOTH, "kind", "test");
	bench_out_open(&o, "net");
	bench_out_uint(&o, BENCH_IN_BOTH, "nodes", 8);
	bench_out_real(&o, BENCH_IN_JSON, "x", 0.5);
	bench_out_close(&o);
	bench_out_bool(&o, BENCH_IN_BOTH, "forced", 1);
	bench_out_str(&o, BENCH_IN_CSV, "only", "csv");
	bench_out_open(&o, "empty");
	bench_out_close(&o);
	bench_out_rows(&o, "rows");
	for (i = 0; i < 2; i++)
		bench_out_row(&o, v[i]);
	bench_out_end(&o);
}

int main(void)
{
	static const char *const want[] = {
		[BENCH_TABLE] =
			"# a note, 1\n"
			"who          t share data\n"
			"a         1.50   50% ok\n"
			"bb        0.01  100% BAD\n",
		[BENCH_CSV] =
			"name,t_ns,raw,ok\n"
			"a,1500,2.2,1\n"
			"bb,7,0.0,0\n"
			"# kind=test nodes=8 forced=1 only=csv\n",
		[BENCH_JSON] =
			"{\"kind\":\"test\",\"net\":{\"nodes\":8,\"x\":0.5},"
			"\"forced\":true,\"empty\":{},\"rows\":[\n"
			"{\"name\":\"a\",\"t\":1500,\"raw\":2.2,\"ok\":true},\n"
			"{\"name\":\"bb\",\"t\":7,\"raw\":0.0,\"ok\":false}\n"
			"]}\n",
	};
	char *got, *old;
	enum bench_fmt fmt;

	got = capture(sweep_all, NULL);
	old = slurp(VCUBE_TOP "/tests/data/bench-sweep-out.txt");
	CHECK(got && old, "outputs");
	CHECK(got && old && !strcmp(got, old),
	      "the sweep's table, CSV and JSON are what they were");
	free(got);
	free(old);
	for (fmt = BENCH_TABLE; fmt <= BENCH_JSON; fmt++) {
		got = capture(small, &fmt);
		CHECK(got && !strcmp(got, want[fmt]), "format %d:\n%s", fmt,
		      got ? got : "");
		free(got);
	}
	got = capture(round_trip, NULL);
	old = capture(odd_json, (void *)1);
	CHECK(got && old && !strcmp(got, old),
	      "CSV read back gives the same JSON:\n%s\n%s", got ? got : "",
	      old ? old : "");
	free(got);
	free(old);
	got = capture(odd_csv, NULL);
	CHECK(got && !strncmp(got, "algo,", 5), "CSV starts with its heading");
	CHECK(got && strstr(got, "shape=\"rows=4 cols=4\""),
	      "a fact with a space is quoted: %s", got ? got : "");
	free(got);
	got = capture(odd_json, NULL);
	CHECK(got && strstr(got, "\"algo\":\"q\\\"uo\\\\te\""),
	      "JSON strings are escaped: %s", got ? got : "");
	free(got);
	got = capture(odd_chars, NULL);
	CHECK(odd_read_back(got), "controls and UTF-8 read back: %s",
	      got ? got : "");
	free(got);
	CHECK(bench_out_fmt(0, 0) == BENCH_TABLE &&
	      bench_out_fmt(1, 0) == BENCH_CSV &&
	      bench_out_fmt(0, 1) == BENCH_JSON, "-j and --csv");
	return check_done("bench_out_test");
}
