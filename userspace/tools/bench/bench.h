/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube-bench's parts: the complete-exchange benchmark (vcube-bench.c)
 * and the synchronisation studies (sync.c) share these.
 */
#ifndef VCUBE_BENCH_H
#define VCUBE_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "vcube.h"

#define MAX_ALGOS	32
#define MAX_SIZES	64

/* gnuplot's terminal for an output file name (.png, else SVG). */
const char *bench_terminal(const char *out);
/* Run gnuplot on @script, which writes @out; 0 or -errno. */
int bench_gnuplot(const char *script, const char *out);
/*
 * @name's index in @names, the first *@n of MAX_ALGOS; a new name is
 * appended while there is room (else *@n is returned).
 */
unsigned int bench_name_index(const char **names, unsigned int *n,
			      const char *name);
/* A temporary file from a mkstemp() template, open for writing; NULL, errno. */
FILE *bench_tmpfile(char *tmpl);
/*
 * Bind this rank under vcube-run (saying why not, then 1) and, at rank 0,
 * read the network from sysfs into @net (zeroed elsewhere); 0 when bound.
 */
int bench_comm_open(struct vcube_comm **c, struct vcube_net_desc *net);
/* "1,2,3", "LO..HI" (powers of two from LO) or "LO..HI:STEP". */
int bench_parse_list(const char *arg, uint64_t *v, unsigned int *n);

enum sync_kind { SYNC_NONE, SYNC_BARRIER, SYNC_SHIFT, SYNC_COSTS };

/* Seidel & Davis's studies, run by every rank under vcube-run. */
struct sync_study {
	enum sync_kind kind;
	const char *algos[MAX_ALGOS];
	unsigned int nalgos;
	uint64_t xs[MAX_SIZES];		/* skews (ns) or message bytes */
	unsigned int nx;
	unsigned int reps;
	int unforced;			/* shift with the long protocol */
	int csv, json, quiet;
	const char *plot;
	const char *title;
};

int sync_study_run(struct sync_study *s);
/* 0 if @name is a barrier (or, for --shift, "none"). */
int sync_study_algo_ok(const struct sync_study *s, const char *name);

/* Ponnusamy et al.'s Gaussian elimination (--ge), Tables 7 and 8. */
struct ge_study {
	const char *algos[MAX_ALGOS];	/* cm5_control, tree */
	unsigned int nalgos;
	uint64_t sizes[MAX_SIZES];	/* n, for n x (n + 1) */
	unsigned int nsizes;
	double elem_ns;			/* virtual ns per element update */
	int csv, json;
};

int ge_study_run(struct ge_study *s);

#endif /* VCUBE_BENCH_H */
