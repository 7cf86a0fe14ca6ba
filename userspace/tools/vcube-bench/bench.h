/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube-bench's parts. The sweep (sweep.c) measures one mode at a time,
 * each in its own file (xchg.c: complete exchanges and irregular
 * schedules; coll.c: sums and broadcasts; fft.c: 2-D FFTs), through one
 * measure loop, and writes its results through out.c, its figures through
 * plot.c; the studies are sync.c (barriers, shifts, costs) and ge.c,
 * which write through the same writer.
 * vcube-bench.c reads the command line and picks one.
 */
#ifndef VCUBE_BENCH_H
#define VCUBE_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json_print.h"
#include "vcube.h"

#define MAX_ALGOS	32
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_SIZES	64

struct result {
	char algo[24];
	uint64_t bytes;
	uint64_t min, max;
	double avg;
	int ok;			/* every byte arrived intact */
	double pred;		/* --predict: vcube-sim's time, ns; < 0: none */
	char via[24];		/* a native row: the algorithm the MPI chose */
};

struct bench {
	const char *algos[MAX_ALGOS];
	unsigned int nalgos;
	uint64_t sizes[MAX_SIZES];
	unsigned int nsizes;
	unsigned int reps;
	uint64_t idle_ns;
	int csv, json, quiet;
	double density;		/* > 0: irregular patterns, --algo ls,ps,bs,gs */
	int reduce;		/* global sums, --algo crossover,tree,cm5_control */
	int bcast;		/* broadcasts from rank 0, --algo tree,cm5_control */
	int fft;		/* 2-D FFTs; sizes are the array's edge */
	double flop_ns;		/* --fft: virtual ns per floating-point op */
	int one_way;
	int envelope;		/* --plot draws min, average and max */
	uint64_t seed;
	const char *plot;
	const char *regions;
	const char *paper;	/* --paper: the paper's winners, on --regions */
	const char *title;
	struct result *res;
	unsigned int nres;
	struct vcube_net_desc net;
	unsigned int procs;
	const char *predict;	/* --predict PROFILE: vcube-sim beside */
	unsigned int warmup;	/* unmeasured repetitions per point */
	const char *each;	/* --each FILE: every repetition's time */
	FILE *each_f;		/* rank 0's, open while the sweep runs */
};

/*
 * What vcube-bench runs over: the vcube device, one process per node under
 * vcube-run; or, in vcube-bench-mpi (the same sources with bench/mpi/,
 * built by mpicc), MPI, one process per MPI rank under mpirun, timed in
 * real seconds. vcube-bench --transport mpi runs vcube-bench-mpi.
 */
struct bench_point;

struct bench_tp {
	const char *name;
	/* MPI_Init, this rank's communicator, the facts for the table */
	int (*open)(struct vcube_comm **c, struct vcube_net_desc *net);
	/* end the run with @status; @agreed: every rank ends with it */
	int (*close)(struct vcube_comm *c, int status, bool agreed);
	/*
	 * The MPI library's own operation of the registry's @kind
	 * (MPI_Alltoall, MPI_Allreduce, MPI_Bcast) at @pt; 0 or -errno. Its
	 * row's name is native_name(kind), NULL: none for that kind.
	 */
	int (*native)(struct bench_point *pt, unsigned int kind);
	const char *(*native_name)(unsigned int kind);
	/*
	 * What the library picks for @kind at @p ranks and @len bytes (into
	 * @buf, "" if it cannot say), and the registry's nearest algorithm
	 * (NULL: none), for --predict.
	 */
	const char *(*native_algo)(unsigned int kind, unsigned int p,
				   uint64_t len, char *buf, size_t n);
	/* --costs: ping-pong and copy rate, the fitted profile on stdout */
	int (*costs)(unsigned int reps, const uint64_t *sizes,
		     unsigned int nsizes);
};

/* vcube-bench-mpi's (vcube-bench/mpi/mpi.c); NULL in vcube-bench. */
extern const struct bench_tp bench_mpi_tp __attribute__((weak));
#define bench_mpi (&bench_mpi_tp)

/* --mark: every rank marks each step of the plans it runs (the trace's). */
extern bool bench_marks;

/* Is @pt's algorithm the MPI library's own operation of @kind? */
bool bench_native(const struct bench_point *pt, unsigned int kind);

/*
 * One point of the sweep: an algorithm and a size, on this rank, with the
 * buffers (@len bytes for each of the ranks) and what a mode's setup made.
 */
struct bench_point {
	struct vcube_comm *c;
	const struct bench *b;
	const char *algo;
	uint64_t len;
	uint8_t *sbuf, *rbuf;
	struct vcube_pattern *pat;	/* irregular: the pattern */
	struct vcube_sched *sch;	/* irregular: its schedule */
};

/*
 * A mode of the sweep, running algorithms of @kind. @once runs one repetition and gives this rank's
 * time (*ns) and sets *bad on wrong data; setup and teardown (may be NULL)
 * bracket the repetitions of one point, outside the timing.
 */
struct bench_mode {
	unsigned int kind;		/* the registry's kind it runs */
	bool native;			/* and the MPI's own operation of it */
	int (*setup)(struct bench_point *pt);
	int (*once)(struct bench_point *pt, unsigned int rep, uint64_t *ns,
		    int *bad);
	void (*teardown)(struct bench_point *pt);
};

extern const struct bench_mode bench_xchg_mode;	/* xchg.c */
extern const struct bench_mode bench_irregular_mode;	/* xchg.c */
extern const struct bench_mode bench_reduce_mode;	/* coll.c */
extern const struct bench_mode bench_bcast_mode;	/* coll.c */
extern const struct bench_mode bench_fft_mode;		/* fft.c */

/*
 * The time of @op from an aligned start (the module's seeded start
 * jitter, if any, then a barrier) to its end, at this rank; 0 or -errno.
 */
int bench_timed(struct bench_point *pt, unsigned int rep, uint64_t *ns,
		int *bad,
		int (*op)(struct bench_point *pt, unsigned int rep, int *bad));
/* Run the sweep of @b (every algorithm, every size): the exit status. */
int bench_sweep_run(struct bench *b);

/*
 * One writer for every mode's and study's results (out.c). A list of
 * columns says once how each value reads in a table, in CSV and in JSON;
 * a study gives the run's facts (meta: JSON keys, CSV's "# k=v" line),
 * the table's notes ("# ..." lines), then one row of values at a time.
 * CSV starts with its heading and ends with the facts (a value with a
 * space or a quote in double quotes); JSON is json-c's, as it goes.
 */
enum bench_fmt { BENCH_TABLE, BENCH_CSV, BENCH_JSON };
enum bench_type { BENCH_STR, BENCH_UINT, BENCH_REAL, BENCH_BOOL };

/* Where a meta value goes: CSV's comment line, JSON's object, or both. */
#define BENCH_IN_CSV	1U
#define BENCH_IN_JSON	2U
#define BENCH_IN_BOTH	(BENCH_IN_CSV | BENCH_IN_JSON)

struct bench_col {
	const char *json;	/* JSON key; NULL: not in JSON */
	const char *csv;	/* CSV heading; NULL: not in CSV */
	const char *head;	/* table heading; NULL: not in the table */
	enum bench_type type;
	int width;		/* table; negative: left-aligned */
	int prec;		/* table: digits after the point */
	int dprec;		/* CSV, JSON: digits after the point (0: 1) */
	bool none_neg;		/* a negative real is none: "-", empty, null */
	double scale;		/* table: value / scale, as a real (0: as is) */
	const char *no;		/* table: a false boolean ("BAD"; true: "ok") */
	const char *suffix;	/* table: after the value ("%") */
};

/* A row's values, one per column, as the column's type says. */
union bench_val {
	const char *s;
	unsigned long long u;
	double f;
	int b;
};

struct bench_out {
	FILE *f;
	enum bench_fmt fmt;
	const struct bench_col *cols;
	unsigned int ncols;
	struct vcube_print p;	/* JSON (common/json_print.h) */
	unsigned int nmeta;	/* CSV: facts written */
	char *trail;		/* CSV: the "# k=v" line, written last */
	size_t ntrail;
	FILE *tf;		/* CSV: writes into trail */
};

void bench_out_start(struct bench_out *o, FILE *f, enum bench_fmt fmt,
		     const struct bench_col *cols, unsigned int ncols);
/* The format -j and --csv ask for. */
enum bench_fmt bench_out_fmt(int csv, int json);
/* A "# ..." line of the table (not in CSV or JSON). */
void bench_out_note(struct bench_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bench_out_str(struct bench_out *o, unsigned int in, const char *key,
		   const char *v);
void bench_out_uint(struct bench_out *o, unsigned int in, const char *key,
		    unsigned long long v);
void bench_out_real(struct bench_out *o, unsigned int in, const char *key,
		    double v);
void bench_out_bool(struct bench_out *o, unsigned int in, const char *key,
		    int v);
/* A JSON object of meta values under @key (CSV flattens it). */
void bench_out_open(struct bench_out *o, const char *key);
void bench_out_close(struct bench_out *o);
/* The rows begin: JSON's array under @key, CSV's and the table's heading. */
void bench_out_rows(struct bench_out *o, const char *key);
void bench_out_row(struct bench_out *o, const union bench_val *v);
void bench_out_end(struct bench_out *o);

/* The sweep's results as b->csv, b->json or a table (out.c). */
void bench_write(const struct bench *b, FILE *f);
/*
 * The same, a row at a time as each point ends: the notes, facts and
 * heading (JSON: up to the array's '['), each row, then the end (JSON's
 * "]}", CSV's facts); each part flushed as it is written, so what is on
 * @f when the run stops is whole rows. bench_write() is these three.
 */
struct bench_rows {
	struct bench_out o;
	struct bench_col cols[10];	/* the sweep's, via, predicted, ratio */
};

void bench_rows_begin(struct bench_rows *w, const struct bench *b, FILE *f);
void bench_rows_add(struct bench_rows *w, const struct bench *b,
		    const struct result *r);
void bench_rows_end(struct bench_rows *w);

/*
 * SIGINT and SIGTERM: the signal caught, 0 if none. Only the handler
 * bench_stop_catch() installs sets it; the sweep reads it between
 * repetitions, and the ranks agree to stop there (sweep.c).
 */
extern volatile sig_atomic_t bench_stop;
/* Catch SIGINT and SIGTERM into bench_stop; 0 or -errno. */
int bench_stop_catch(void);
/*
 * --each: rank 0 opens @path for every repetition's time, one CSV line
 * each, under the heading "algo,@x,rep,ns"; NULL (said) if it cannot.
 * bench_each_rep() writes one, bench_each_close() ends the file: 0, or 1
 * (said) if it could not be written whole.
 */
FILE *bench_each_open(const char *path, const char *x);
void bench_each_rep(FILE *f, const char *algo, uint64_t x, unsigned int rep,
		    uint64_t ns);
int bench_each_close(FILE *f, const char *path);

/* Results saved with --csv into @b; 0 or -errno. */
int bench_read_csv(const char *path, struct bench *b);
/* Time against block size, log axes (--envelope: min, avg, max). */
int bench_plot(const struct bench *b, const char *out);
/*
 * Bokhari's regions of optimality from one file per dimension; @paper, if
 * not NULL, a file of the paper's winners ("D BYTES ALGO[|ALGO...]" a
 * line), each marked in its cell as the same as vcube's or another.
 */
int bench_plot_regions(struct bench *files, unsigned int nfiles,
		       const char *out, const char *paper);

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
/*
 * Close what bench_comm_open() opened, ending the run with @status (the
 * exit status; @agreed: every rank has it, else MPI ends every rank).
 */
int bench_comm_close(struct vcube_comm *c, int status, bool agreed);
/*
 * --predict: vcube-sim's time (ns) for @algo of @kind at @p ranks and
 * @len bytes on @profile (a name or a profile file), into *@ns; 0, or
 * -errno (said once).
 */
int bench_predict(const char *profile, unsigned int kind, const char *algo,
		  unsigned int p, uint64_t len, double *ns);
/* A whole number, decimal or 0x; 0 or -EINVAL. */
int bench_parse_u64(const char *s, uint64_t *v);
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
	const char *each;		/* --each FILE: every repetition's */
	FILE *each_f;			/* rank 0's, open while it runs */
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
