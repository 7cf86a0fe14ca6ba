// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench: the sweep's results (exchanges, irregular schedules, sums,
 * broadcasts, FFTs) as a table, CSV or JSON, and read back from CSV.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

static void write_table(const struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "# %s %s (%u nodes), profile %s, %u processes, %u reps\n",
		b->net.topology, b->net.shape, b->net.nodes, b->net.profile,
		b->procs, b->reps);
	if (b->reduce)
		fprintf(f, "# global sums of 64-bit integers; bytes per rank\n");
	if (b->bcast)
		fprintf(f, "# broadcasts from rank 0; bytes\n");
	if (b->fft)
		fprintf(f, "# 2-D FFTs; 'bytes' is the array's edge N (N x N complex doubles), %g ns per flop\n",
			b->flop_ns);
	if (b->density > 0)
		fprintf(f, "# irregular: %.0f%% of the pairs talk (%s), seed %llu\n",
			100 * b->density, b->one_way ? "one-way" : "both ways",
			(unsigned long long)b->seed);
	fprintf(f, "# virtual time of the slowest rank, us\n");
	fprintf(f, "%-12s %8s %12s %12s %12s %s\n", "algo", "bytes", "min",
		"avg", "max", "data");
	for (i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		fprintf(f, "%-12s %8" PRIu64 " %12.1f %12.1f %12.1f %s\n",
			r->algo, r->bytes, r->min / 1e3, r->avg / 1e3,
			r->max / 1e3, r->ok ? "ok" : "BAD");
	}
}

static void write_csv(const struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "# topology=%s shape=%s nodes=%u profile=%s procs=%u reps=%u density=%g reduce=%d fft=%d flop_ns=%g bcast=%d\n",
		b->net.topology, b->net.shape, b->net.nodes, b->net.profile,
		b->procs, b->reps, b->density, b->reduce, b->fft, b->flop_ns,
		b->bcast);
	fprintf(f, "algo,bytes,min_ns,avg_ns,max_ns,ok\n");
	for (i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%.1f,%" PRIu64 ",%d\n",
			r->algo, r->bytes, r->min, r->avg, r->max, r->ok);
	}
}

static void write_json(const struct bench *b, FILE *f)
{
	unsigned int i;

	fprintf(f, "{\"network\":{\"topology\":\"%s\",\"shape\":\"%s\",\"nodes\":%u,"
		"\"profile\":\"%s\",\"seed\":%llu},\"procs\":%u,\"reps\":%u,"
		"\"density\":%g,\"unit\":\"ns\",\"results\":[",
		b->net.topology, b->net.shape, b->net.nodes, b->net.profile,
		b->net.seed, b->procs, b->reps, b->density);
	for (i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		fprintf(f, "%s\n{\"algo\":\"%s\",\"bytes\":%" PRIu64 ",\"min\":%"
			PRIu64 ",\"avg\":%.1f,\"max\":%" PRIu64 ",\"ok\":%s}",
			i ? "," : "", r->algo, r->bytes, r->min, r->avg, r->max,
			r->ok ? "true" : "false");
	}
	fprintf(f, "\n]}\n");
}

/* Read a file written by --csv. */
int bench_read_csv(const char *path, struct bench *b)
{
	char line[512], algo[24];
	struct result r;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			char *s = strstr(line, "shape=");

			if (s)
				sscanf(s, "shape=%63s", b->net.shape);
			s = strstr(line, "topology=");
			if (s)
				sscanf(s, "topology=%15s", b->net.topology);
			s = strstr(line, "nodes=");
			if (s)
				sscanf(s, "nodes=%u", &b->net.nodes);
			s = strstr(line, "profile=");
			if (s)
				sscanf(s, "profile=%15s", b->net.profile);
			continue;
		}
		memset(&r, 0, sizeof(r));
		if (sscanf(line, "%23[^,],%" SCNu64 ",%" SCNu64 ",%lf,%" SCNu64 ",%d",
			   algo, &r.bytes, &r.min, &r.avg, &r.max, &r.ok) != 6)
			continue;
		snprintf(r.algo, sizeof(r.algo), "%s", algo);
		b->res = realloc(b->res, (b->nres + 1) * sizeof(*b->res));
		if (!b->res) {
			fclose(f);
			return -ENOMEM;
		}
		b->res[b->nres++] = r;
	}
	fclose(f);
	return b->nres ? 0 : -ENODATA;
}


void bench_write(const struct bench *b, FILE *f)
{
	if (b->json)
		write_json(b, f);
	else if (b->csv)
		write_csv(b, f);
	else
		write_table(b, f);
}
