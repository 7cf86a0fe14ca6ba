/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube-run's parts, each calling only those after it:
 *   vcube-run.c  the command line, starting and releasing the ranks, the
 *                exit status
 *   report.c     what failed before the programs started, one line for
 *                each way it failed
 *   tag.c        --tag-output: each rank's lines, prefixed, never cut
 *   place.c      where the ranks run: --nodes, --rankfile
 */
#ifndef VCUBE_RUN_H
#define VCUBE_RUN_H

#include <stdbool.h>

/* The most ranks one job starts. */
#define RUN_MAX_RANKS	4096

/*
 * Where the ranks run (place.c): rank r on node[r], named in @from (the
 * rankfile, at line[r]; or --nodes's list, line[r] 0). @given: chosen by
 * --nodes or --rankfile, not the default 0..n-1.
 */
struct run_place {
	unsigned int n;
	unsigned int *node;
	unsigned int *line;
	const char *from;
	bool given;
};

/*
 * The placement @list names (--nodes), or @file's lines (--rankfile), or
 * without either nodes 0..@n-1; @n 0 when -n was not given. 0, or 2 (the
 * usage status) with one line said.
 */
int run_place_make(struct run_place *p, const char *list, const char *file,
		   unsigned long n);
/*
 * Every node on the network of @nodes nodes named @net: 0, or 2 with one
 * line said.
 */
int run_place_fits(const struct run_place *p, unsigned int nodes,
		   const char *net);
/* VCUBE_NODES for the ranks (unset for nodes 0..n-1): 0 or -errno. */
int run_place_env(const struct run_place *p);
void run_place_free(struct run_place *p);

/*
 * --tag-output (tag.c): a pipe for each rank's stdout and stderr, read
 * here and written out a whole line at a time, "[1,R]<stdout>:" before
 * each. run_tag_open() makes them (0, or 1 with a line said);
 * run_tag_child() makes rank @rank's the child's fds 1 and 2;
 * run_tag_parent() closes the write ends once every rank is started;
 * run_tag_pump() waits (for ever) for output or for @wake to be readable,
 * relaying what came; run_tag_drain() relays what is left once every
 * rank is gone, a last line without its newline given one.
 */
struct run_tag;
int run_tag_open(struct run_tag **tp, unsigned int n);
void run_tag_child(struct run_tag *t, unsigned int rank);
void run_tag_parent(struct run_tag *t);
void run_tag_pump(struct run_tag *t, int wake);
void run_tag_drain(struct run_tag *t);
void run_tag_free(struct run_tag *t);

/*
 * What a rank's start reports through a pipe (report.c): @err 0 when its
 * node is bound, else the errno of binding it (or of running the
 * program).
 */
struct run_report {
	unsigned int rank;
	int err;
};

/*
 * The ranks of @p that failed to bind (@err[r] > 0; -1: no word from
 * it), one line for each way they failed, on network @net: "vcube-run:
 * nodes 0-7 of network default: Device or resource busy (node 0 held by
 * pid 1234)".
 */
void run_report_bind(const struct run_place *p, const int *err,
		     const char *net);
/* The ranks whose @prog could not be run (@err[r] > 0), likewise. */
void run_report_exec(const struct run_place *p, const int *err,
		     const char *prog);

#endif /* VCUBE_RUN_H */
