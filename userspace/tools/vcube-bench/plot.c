// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's figures through gnuplot: time against block size (the
 * papers' figures; --envelope draws min, average and max) and Bokhari's
 * regions of optimality, and the helpers the studies' plots share.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcube-bench/bench.h"

const char *bench_terminal(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (dot && !strcmp(dot, ".png"))
		return "pngcairo size 900,640 noenhanced";
	return "svg size 900,640 dynamic noenhanced";
}

/* The regions' terminal: wider, so that a cell holds its name. */
static const char *regions_terminal(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (dot && !strcmp(dot, ".png"))
		return "pngcairo size 1280,800 noenhanced";
	return "svg size 1280,800 dynamic noenhanced";
}

/*
 * Run gnuplot on @script, which writes @out; 0 or -errno. The file is
 * created first: gnuplot would draw on standard output if it could not.
 */
int bench_gnuplot(const char *script, const char *out)
{
	FILE *g = fopen(out, "w");
	int st;

	if (!g) {
		fprintf(stderr, "vcube-bench: %s: %s\n", out, strerror(errno));
		return -errno;
	}
	fclose(g);
	g = popen("gnuplot", "w");
	if (!g)
		return -errno;
	fputs(script, g);
	st = pclose(g);
	return st ? -EIO : 0;
}

unsigned int bench_name_index(const char **names, unsigned int *n,
			      const char *name)
{
	unsigned int j;

	for (j = 0; j < *n && strcmp(names[j], name); j++)
		;
	if (j == *n && *n < MAX_ALGOS)
		names[(*n)++] = name;
	return j;
}

FILE *bench_tmpfile(char *tmpl)
{
	int fd = mkstemp(tmpl);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmpl);
		errno = ENOMEM;
	}
	return f;
}

/* A result's block size on a log axis: 0 bytes is drawn at 1. */
static uint64_t plot_bytes(const struct result *r)
{
	return r->bytes ? r->bytes : 1;
}

/*
 * The default title: what ran, and on which network, as the run's facts
 * say (a figure is read apart from the command that made it).
 */
static const char *plot_title(const struct bench *b, char *buf, size_t n)
{
	char *p;
	const char *what = b->reduce ? "Global sums" :
			   b->bcast ? "Broadcasts" :
			   b->fft ? "2-D FFTs" :
			   b->density > 0 ? "Irregular exchanges" :
			   "Complete exchange";

	if (!strcmp(b->net.topology, "mpi"))
		snprintf(buf, n, "%s, %u processes on %s (MPI: %s)",
			 what, b->procs, b->net.shape, b->net.profile);
	else
		snprintf(buf, n, "%s, %u processes on a %s %s (%s)", what,
			 b->procs, b->net.topology, b->net.shape,
			 b->net.profile);
	for (p = buf; *p; p++)	/* inside gnuplot's double quotes */
		if (*p == '"' || *p == '\\')
			*p = '\'';
	return buf;
}

/*
 * The papers' figure: time against block size, log axes, one line per
 * algorithm (the maximum over repetitions).
 */
int bench_plot(const struct bench *b, const char *out)
{
	char tmpl[] = "/tmp/vcube-bench-XXXXXX";
	unsigned int i, j, n = 0;
	const char *names[MAX_ALGOS];
	size_t cap = 4096, used = 0;
	char *s, title[200];
	FILE *d;
	int ret;

	d = bench_tmpfile(tmpl);
	if (!d)
		return -errno;
	for (i = 0; i < b->nres; i++)
		bench_name_index(names, &n, b->res[i].algo);
	for (j = 0; j < n; j++) {
		fprintf(d, "# %s\n", names[j]);
		for (i = 0; i < b->nres; i++)
			if (!strcmp(names[j], b->res[i].algo))
				fprintf(d, "%" PRIu64 " %.3f %.3f %.3f\n",
					plot_bytes(&b->res[i]),
					b->res[i].max / 1e6,
					b->res[i].min / 1e6,
					b->res[i].avg / 1e6);
		fprintf(d, "\n\n");
	}
	fclose(d);
	s = malloc(cap);
	if (!s)
		return -ENOMEM;
	used += snprintf(s + used, cap - used,
			 "set terminal %s\nset output '%s'\n"
			 "set title \"%s\"\n%s"
			 "set xlabel 'block size (bytes)'\n"
			 "set ylabel '%s'\n"
			 "set key top left\nset grid\nplot ",
			 bench_terminal(out), out,
			 b->title ? b->title : plot_title(b, title, sizeof(title)),
			 b->envelope ? "" : "set logscale xy\n",
			 b->envelope ?
			 "slowest node: min, average (line) and max over the repetitions (ms)" :
			 "time of the slowest node (ms)");
	for (j = 0; j < n && used < cap; j++)
		used += b->envelope ?
			snprintf(s + used, cap - used,
				 "%s'%s' index %u using 1:3:2 with filledcurves fs transparent solid 0.25 lc %u notitle, "
				 "'%s' index %u using 1:4 with linespoints lc %u title '%s'",
				 j ? ", " : "", tmpl, j, j + 1, tmpl, j, j + 1,
				 names[j]) :
			snprintf(s + used, cap - used,
				 "%s'%s' index %u with linespoints title '%s'",
				 j ? ", " : "", tmpl, j, names[j]);
	if (used < cap)
		snprintf(s + used, cap - used, "\n");
	ret = used < cap ? bench_gnuplot(s, out) : -E2BIG;
	free(s);
	unlink(tmpl);
	return ret;
}

/*
 * Regions of optimality (Bokhari's Figs. 10-11 summary): for every
 * dimension (one --from file each) and block size, the algorithm with the
 * smallest maximum time, as a grid of cells coloured by the winner and
 * named in it, with a legend; a size measured on some dimension but not on
 * another is drawn as a hatched "not measured" cell, never left blank.
 */

/* One light, distinct colour per algorithm, black labels readable on all. */
static const unsigned int region_colours[] = {
	0x8dd3c7, 0xfdb462, 0xbebada, 0xfb8072, 0x80b1d3, 0xb3de69,
	0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, 0xffffb3,
};

#define REGION_SIZES	64

static unsigned int bench_dim(const struct bench *b)
{
	unsigned int dim;

	for (dim = 0; (1U << dim) < b->net.nodes; dim++)
		;
	return dim;
}

/* Every block size any file measured, in first-seen order: @sizes[<64]. */
static unsigned int regions_sizes(const struct bench *files,
				  unsigned int nfiles, uint64_t *sizes)
{
	unsigned int f, i, k, n = 0;

	for (f = 0; f < nfiles; f++)
		for (i = 0; i < files[f].nres; i++) {
			uint64_t b = plot_bytes(&files[f].res[i]);

			for (k = 0; k < n && sizes[k] != b; k++)
				;
			if (k == n && n < REGION_SIZES)
				sizes[n++] = b;
		}
	return n;
}

/*
 * The fastest result of @b at result @i's size (the least slowest-node
 * time among those with the right data; ties to the one listed first).
 */
static unsigned int regions_best(const struct bench *b, unsigned int i)
{
	unsigned int j, best = i;

	for (j = 0; j < b->nres; j++)
		if (b->res[j].bytes == b->res[i].bytes && b->res[j].ok &&
		    (b->res[j].max < b->res[best].max ||
		     (b->res[j].max == b->res[best].max && j < best) ||
		     !b->res[best].ok))
			best = j;
	return best;
}

/* vcube's fastest at dimension @dim and @bytes, or NULL if not measured. */
static const char *regions_winner(const struct bench *files,
				  unsigned int nfiles, unsigned int dim,
				  uint64_t bytes)
{
	unsigned int f, i;

	for (f = 0; f < nfiles; f++)
		for (i = 0; bench_dim(&files[f]) == dim &&
		     i < files[f].nres; i++)
			if (plot_bytes(&files[f].res[i]) == bytes)
				return files[f].res[regions_best(&files[f], i)].algo;
	return NULL;
}

/* Whether @algo is one of @names, "a|b|c". */
static bool regions_names(const char *names, const char *algo)
{
	size_t n = strlen(algo);
	const char *p;

	for (p = names; p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (!strncmp(p, algo, n) && (p[n] == '|' || !p[n]))
			return true;
	return false;
}

/*
 * --paper's cells, "D BYTES ALGO[|ALGO...]" a line ('#' comments), into
 * @d as blocks 2 (vcube names the same winner) and 3 (another, with the
 * paper's): 0, or -errno (said).
 */
static int regions_paper(FILE *d, const char *paper,
			 const struct bench *files, unsigned int nfiles)
{
	char line[256], algo[128];
	unsigned int dim, ln = 0, blk;
	unsigned long long bytes;
	const char *won;
	FILE *f = fopen(paper, "r");
	int ret = 0;

	if (!f) {
		fprintf(stderr, "vcube-bench: --paper %s: %s\n", paper,
			strerror(errno));
		return -errno;
	}
	for (blk = 2; blk <= 3 && !ret; blk++) {
		fprintf(d, "\n\n# the paper's winner: %s\n-10 1 \"\"\n",
			blk == 2 ? "the same" : "another");
		rewind(f);
		for (ln = 1; fgets(line, sizeof(line), f); ln++) {
			if (line[strspn(line, " \t\n")] == '#' ||
			    !line[strspn(line, " \t\n")])
				continue;
			if (sscanf(line, "%u %llu %127s", &dim, &bytes,
				   algo) != 3 || !bytes) {
				fprintf(stderr, "vcube-bench: %s:%u: not 'D BYTES ALGO[|ALGO...]'\n",
					paper, ln);
				ret = -EINVAL;
				break;
			}
			won = regions_winner(files, nfiles, dim, bytes);
			if (won && regions_names(algo, won) == (blk == 2))
				fprintf(d, "%u %llu \"%s\"\n", dim, bytes,
					algo);
		}
	}
	fclose(f);
	return ret;
}

/*
 * The data: block 0 the winning cells (dimension, size, colour, name),
 * also printed; block 1 the cells a size measured elsewhere lacks here.
 * @names gets the winners, @dmin and @dmax the dimensions; returns whether
 * any cell was not measured.
 */
static bool regions_data(FILE *d, struct bench *files, unsigned int nfiles,
			 const char **names, unsigned int *n,
			 unsigned int *dmin, unsigned int *dmax)
{
	uint64_t sizes[REGION_SIZES];
	unsigned int f, i, j, k, dim;
	unsigned int nsizes = regions_sizes(files, nfiles, sizes);
	bool missing = false;

	fprintf(d, "# dim bytes colour name\n");
	for (f = 0; f < nfiles; f++) {
		struct bench *b = &files[f];

		dim = bench_dim(b);
		*dmin = dim < *dmin ? dim : *dmin;
		*dmax = dim > *dmax ? dim : *dmax;
		for (i = 0; i < b->nres; i++) {
			if (regions_best(b, i) != i)
				continue;
			j = bench_name_index(names, n, b->res[i].algo);
			fprintf(d, "%u %" PRIu64 " %u \"%s\"\n", dim,
				plot_bytes(&b->res[i]),
				region_colours[j % ARRAY_LEN(region_colours)],
				b->res[i].algo);
			printf("d=%u %8" PRIu64 " B: %s\n", dim, b->res[i].bytes,
			       b->res[i].algo);
		}
	}
	fprintf(d, "\n\n# not measured\n");
	for (f = 0; f < nfiles; f++) {
		dim = bench_dim(&files[f]);
		for (k = 0; k < nsizes; k++) {
			for (i = 0; i < files[f].nres; i++)
				if (plot_bytes(&files[f].res[i]) == sizes[k])
					break;
			if (i < files[f].nres)
				continue;
			fprintf(d, "%u %" PRIu64 "\n", dim, sizes[k]);
			missing = true;
		}
	}
	if (!missing)	/* gnuplot refuses an empty block */
		fprintf(d, "-10 1\n");
	return missing;
}

int bench_plot_regions(struct bench *files, unsigned int nfiles,
		       const char *out, const char *paper)
{
	char tmpl[] = "/tmp/vcube-regions-XXXXXX";
	const char *names[MAX_ALGOS];
	unsigned int j, n = 0, dmin = ~0U, dmax = 0;
	size_t cap = 8192, used = 0;
	bool missing;
	char *s;
	FILE *d;
	int ret;

	d = bench_tmpfile(tmpl);
	if (!d)
		return -errno;
	missing = regions_data(d, files, nfiles, names, &n, &dmin, &dmax);
	ret = paper ? regions_paper(d, paper, files, nfiles) : 0;
	fclose(d);
	if (ret) {
		unlink(tmpl);
		return ret;
	}
	s = malloc(cap);
	if (!s) {
		unlink(tmpl);
		return -ENOMEM;
	}
	/* each cell spans a factor of 2 in size and one dimension */
	used += snprintf(s + used, cap - used,
			 "set terminal %s\nset output '%s'\n"
			 "set title \"regions of optimality: the fastest algorithm (slowest node's time) per cell\"\n"
			 "set logscale x 2\nset format x '%%.0f'\n"
			 "set xlabel 'block size (bytes)'\nset ylabel 'hypercube dimension d'\n"
			 "set ytics 1\nset yrange [%f:%f]\n"
			 "set key outside right top title 'fastest' box\n"
			 "set style fill solid 1.0 border rgb 'white'\n"
			 "plot '%s' index 0 using 2:1:($2/sqrt(2)):($2*sqrt(2)):($1-0.5):($1+0.5):3 "
			 "with boxxyerror lc rgb variable notitle, "
			 "'' index 0 using 2:1:4 with labels font ',8' notitle, "
			 "'' index 1 using 2:1:($2/sqrt(2)):($2*sqrt(2)):($1-0.5):($1+0.5) "
			 "with boxxyerror fs pattern 4 lc rgb 'grey50' %s",
			 regions_terminal(out), out, dmin - 0.5, dmax + 0.5, tmpl,
			 missing ? "title 'not measured'" : "notitle");
	if (paper)	/* a ring where it agrees, a cross and its name where not */
		used += snprintf(s + used, cap - used,
				 ", '' index 2 using 2:($1+0.27) with points pt 6 ps 1.6 lw 2 lc rgb 'black' "
				 "title \"the paper's winner: the same\", "
				 "'' index 3 using 2:($1+0.27) with points pt 2 ps 1.6 lw 2 lc rgb '#b00000' "
				 "title \"the paper's winner: another, named below in red\", "
				 "'' index 3 using 2:($1-0.27):3 with labels font ',8' "
				 "tc rgb '#b00000' notitle");
	for (j = 0; j < n && used < cap; j++)
		used += snprintf(s + used, cap - used,
				 ", keyentry with boxes lc rgb %u title '%s'",
				 region_colours[j % ARRAY_LEN(region_colours)],
				 names[j]);
	if (used < cap)
		snprintf(s + used, cap - used, "\n");
	ret = used < cap ? bench_gnuplot(s, out) : -E2BIG;
	free(s);
	unlink(tmpl);
	return ret;
}
