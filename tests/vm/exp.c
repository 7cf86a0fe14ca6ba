// SPDX-License-Identifier: GPL-2.0
/*
 * Experiments run under vcube-run in the VM, one process per node. Each
 * rank prints "key value..." lines that the calling test script checks.
 *
 *   vcube-run -n N exp EXPERIMENT [ARG...]
 *
 * The experiments are the table experiments[] at the end, each its name,
 * arguments, function and a line of help; exp --help lists them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "vcube.h"

#define MS	1000000ULL

static struct vcube_node *node;
static unsigned int me, np;
static int failed;

#define FAIL(...)							\
	do {								\
		fprintf(stderr, "rank %u: ", me);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		failed = 1;						\
	} while (0)

static uint8_t pattern(unsigned int src, unsigned int dst, unsigned int tag,
		       size_t i)
{
	return (uint8_t)(src * 131 + dst * 31 + tag * 7 + i * 13 + (i >> 8));
}

static void fill(uint8_t *b, size_t len, unsigned int dst, unsigned int tag)
{
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = pattern(me, dst, tag, i);
}

static void verify(const uint8_t *b, size_t len, unsigned int src,
		   unsigned int tag)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != pattern(src, me, tag, i)) {
			FAIL("byte %zu of %zu from %u tag %u is wrong", i, len,
			     src, tag);
			return;
		}
}

/* This rank's plan of the complete exchange @algo, off a grid. */
static int exp_plan(const char *algo, struct vcube_plan *pl)
{
	return vcube_algo_plan(VCUBE_ALGO_XCHG, algo, &(struct vcube_plan_args){
		.me = me, .p = np }, pl);
}

static uint64_t now(void)
{
	uint64_t t = 0;

	vcube_node_clock(node, &t);
	return t;
}

/*
 * One step of an exchange schedule: post the receive from @from, send to
 * @to (UNFORCED, blocking), wait for the receive, check every byte.
 */
static void step(const char *what, unsigned int i, unsigned int to,
		 unsigned int from, uint8_t *sbuf, uint8_t *rbuf, size_t len)
{
	uint64_t rq;
	int ret;

	fill(sbuf, len, to, i);
	ret = vcube_node_irecv(node, from, i, rbuf, len, &rq);
	if (!ret)
		ret = vcube_node_send(node, to, i, sbuf, len, 0, NULL);
	if (!ret)
		ret = vcube_node_wait(node, rq, NULL);
	if (ret)
		FAIL("%s step %u: %s", what, i, strerror(-ret));
	verify(rbuf, len, from, i);
}

/* ---- msg ---------------------------------------------------------------- */

static const size_t sizes[] = { 0, 1, 7, 100, 101, 1000, 4096, 65536 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static int exp_msg(void)
{
	static uint8_t sbuf[65536], rbuf[65536];
	uint64_t *rq = calloc(np, sizeof(*rq));
	uint8_t **bufs = calloc(np, sizeof(*bufs));
	struct vcube_status st;
	unsigned int k, to, from, i;
	size_t len;
	int ret;

	/* UNFORCED, blocking, linear order: everyone to everyone. */
	for (k = 1; k < np; k++) {
		to = (me + k) % np;
		from = (me + np - k) % np;
		len = sizes[k % NSIZES];
		fill(sbuf, len, to, k);
		ret = vcube_node_irecv(node, from, k, rbuf, sizeof(rbuf), &rq[0]);
		if (!ret)
			ret = vcube_node_send(node, to, k, sbuf, len, 0, NULL);
		if (!ret)
			ret = vcube_node_wait(node, rq[0], &st);
		if (ret) {
			FAIL("unforced step %u: %s", k, strerror(-ret));
			continue;
		}
		if (st.src != from || st.tag != k ||
		    st.len != sizes[k % NSIZES])
			FAIL("step %u: got %llu bytes from %u tag %u", k,
			     (unsigned long long)st.len, st.src, st.tag);
		verify(rbuf, st.len, from, k);
	}
	/* FORCED: receives posted first, then a common start time. */
	for (i = 0; i < np; i++) {
		if (i == me)
			continue;
		bufs[i] = malloc(65536);
		if (vcube_node_irecv(node, i, 1000 + i, bufs[i], 65536, &rq[i]))
			FAIL("irecv from %u", i);
	}
	vcube_node_delay_until(node, 500 * MS);
	for (k = 1; k < np; k++) {
		to = (me + k) % np;
		len = sizes[(k + me) % NSIZES];
		fill(sbuf, len, to, 1000 + me);
		ret = vcube_node_send(node, to, 1000 + me, sbuf, len,
				      VCUBE_SEND_FORCED, NULL);
		if (ret)
			FAIL("forced send to %u: %s", to, strerror(-ret));
	}
	for (i = 0; i < np; i++) {
		if (i == me)
			continue;
		ret = vcube_node_wait(node, rq[i], &st);
		if (ret) {
			FAIL("forced recv from %u: %s", i, strerror(-ret));
			continue;
		}
		verify(bufs[i], st.len, i, 1000 + i);
		free(bufs[i]);
	}
	/* Truncation: a 4096-byte message into 100 bytes. */
	if (np >= 2 && me < 2) {
		if (me == 0) {
			fill(sbuf, 4096, 1, 7);
			vcube_node_send(node, 1, 7, sbuf, 4096, 0, NULL);
		} else {
			ret = vcube_node_recv(node, 0, 7, rbuf, 100, &st);
			if (ret != -EMSGSIZE || st.len != 4096)
				FAIL("truncation: %d, len %llu", ret,
				     (unsigned long long)st.len);
			verify(rbuf, 100, 0, 7);
		}
	}
	printf("clock %u %llu\n", me, (unsigned long long)now());
	free(rq);
	free(bufs);
	return failed;
}

/* ---- formula -------------------------------------------------------------- */

static int exp_formula(void)
{
	static const size_t msz[] = { 0, 1, 64, 100, 101, 400, 1000, 4096 };
	static uint8_t buf[4096];
	struct vcube_status st;
	unsigned int d, dim = 0, dst, s, forced;
	uint64_t req;
	int ret;

	while ((1U << (dim + 1)) <= np)
		dim++;
	for (d = 1; d <= dim; d++) {
		dst = (1U << d) - 1;
		if (me != 0 && me != dst)
			continue;
		for (s = 0; s < sizeof(msz) / sizeof(msz[0]); s++) {
			for (forced = 0; forced < 2; forced++) {
				unsigned int tag = s * 2 + forced;

				/*
				 * Bokhari's method: the receive is posted and
				 * both sides are idle before the send (here a
				 * ping from 0 and a ready back, not timed).
				 */
				if (me == dst) {
					vcube_node_recv(node, 0, 98, NULL, 0,
							NULL);
					vcube_node_irecv(node, 0, tag, buf,
							 sizeof(buf), &req);
					vcube_node_send(node, 0, 99, NULL, 0, 0,
							NULL);
					ret = vcube_node_wait(node, req, &st);
					if (ret)
						FAIL("recv: %s", strerror(-ret));
					verify(buf, st.len, 0, tag);
					printf("cost %u %zu %u %llu\n", d,
					       msz[s], forced,
					       (unsigned long long)(st.time - st.sent));
					continue;
				}
				vcube_node_send(node, dst, 98, NULL, 0, 0, NULL);
				vcube_node_recv(node, dst, 99, NULL, 0, NULL);
				fill(buf, msz[s], dst, tag);
				ret = vcube_node_send(node, dst, tag, buf,
						      msz[s],
						      forced ? VCUBE_SEND_FORCED : 0,
						      NULL);
				if (ret)
					FAIL("send: %s", strerror(-ret));
			}
		}
	}
	return failed;
}

/* ---- contention ------------------------------------------------------------ */

/* Rounds k = 1..8 (or only round @only): k paths at once. */
static int exp_contention(unsigned int only)
{
	static const unsigned int paths[8][2] = {
		{ 0, 127 }, { 1, 63 }, { 3, 31 }, { 7, 15 },
		{ 5, 79 }, { 6, 47 }, { 2, 95 }, { 4, 111 },
	};
	static uint8_t buf[1000];
	struct vcube_status st;
	unsigned int k, i;
	uint64_t start;
	int ret;

	for (k = only ? only : 1; k <= (only ? only : 8); k++) {
		start = k * 100 * MS;
		for (i = 0; i < k; i++) {
			if (me == paths[i][1]) {
				ret = vcube_node_recv(node, paths[i][0], k, buf,
						      sizeof(buf), &st);
				if (ret)
					FAIL("recv: %s", strerror(-ret));
				verify(buf, st.len, paths[i][0], k);
				printf("contention %u %u %llu\n", k, me,
				       (unsigned long long)(st.time - start));
			} else if (me == paths[i][0]) {
				fill(buf, sizeof(buf), paths[i][1], k);
				vcube_node_delay_until(node, start);
				ret = vcube_node_send(node, paths[i][1], k, buf,
						      sizeof(buf),
						      VCUBE_SEND_FORCED, NULL);
				if (ret)
					FAIL("send: %s", strerror(-ret));
			}
		}
	}
	return failed;
}

/*
 * Pairs sending at once: exp pairs LEN src dst [src dst ...]. Receives are
 * posted at 0, every send leaves at 1 ms, FORCED; each receiver prints how
 * long its message took.
 */
static int exp_pairs(size_t len, int n, char **pv)
{
	uint8_t *buf = malloc(len + 1), *rbuf = malloc((len + 1) * (n / 2));
	uint64_t *rq = calloc(n / 2 + 1, sizeof(*rq));
	struct vcube_status st;
	unsigned int s, d;
	int i, ret;

	/* Receives first, all posted at 0; then the sends, all at 1 ms. */
	for (i = 0; i + 1 < n; i += 2)
		if (me == strtoul(pv[i + 1], NULL, 0) &&
		    vcube_node_irecv(node, strtoul(pv[i], NULL, 0), 0,
				     rbuf + (i / 2) * len, len, &rq[i / 2]))
			FAIL("irecv");
	vcube_node_delay_until(node, 1 * MS);
	for (i = 0; i + 1 < n; i += 2) {
		s = strtoul(pv[i], NULL, 0);
		d = strtoul(pv[i + 1], NULL, 0);
		if (me != s)
			continue;
		fill(buf, len, d, 0);
		ret = vcube_node_send(node, d, 0, buf, len, VCUBE_SEND_FORCED,
				      NULL);
		if (ret)
			FAIL("send: %s", strerror(-ret));
	}
	for (i = 0; i + 1 < n; i += 2) {
		s = strtoul(pv[i], NULL, 0);
		d = strtoul(pv[i + 1], NULL, 0);
		if (me != d)
			continue;
		ret = vcube_node_wait(node, rq[i / 2], &st);
		if (ret)
			FAIL("recv: %s", strerror(-ret));
		verify(rbuf + (i / 2) * len, st.len, s, 0);
		printf("pair %u %u %llu\n", s, d,
		       (unsigned long long)(st.time - 1 * MS));
	}
	free(buf);
	free(rbuf);
	free(rq);
	return failed;
}

/*
 * Chuang & Horie's communication kernels (sec. 3.1), the library's plans
 * (plan/chuang.c): butterfly (partner rank ^ 2^k) and crossover (to rank +
 * 2^k, from rank - 2^k), lg N phases; the normal torus kernel (nx phases
 * east, ny south; a hypercube or fat tree is one row). Every phase's
 * bytes are checked.
 */
static int exp_kernel(const char *kind, size_t len)
{
	uint8_t *sbuf = malloc(len + 1), *rbuf = malloc(len + 1);
	struct vcube_node_info info;
	struct vcube_plan pl = { 0 };
	unsigned int k;

	if (vcube_node_info(node, &info) ||
	    vcube_algo_plan(VCUBE_ALGO_KERNEL, kind, &(struct vcube_plan_args){
			.me = me, .p = np, .rows = info.rows ? info.rows : 1,
			.cols = info.cols ? info.cols : np }, &pl))
		return 2;
	for (k = 0; k < pl.nsteps; k++)
		step(kind, k + 1, pl.step[k].to, pl.step[k].from, sbuf, rbuf,
		     len);
	printf("kernel %s %u %u %llu\n", kind, me, pl.nsteps,
	       (unsigned long long)now());
	vcube_plan_free(&pl);
	free(sbuf);
	free(rbuf);
	return failed;
}

/*
 * Thakur's PEX and GEN one step per window of W ns: step i starts at
 * i * W on every node, so the module's per-window link peaks (window_ns=W)
 * are the per-step contention f(i).
 */
static int exp_steps(const char *algo, size_t len, uint64_t w)
{
	uint8_t *sbuf = malloc(len + 1), *rbuf = malloc(len + 1);
	struct vcube_plan pl = { 0 };
	unsigned int i, k;

	if (exp_plan(algo, &pl))
		return 2;
	for (k = 0; k < pl.nsteps; k++) {
		i = pl.step[k].tag;
		vcube_node_delay_until(node, i * w);
		step(algo, i, pl.step[k].to, pl.step[k].from, sbuf, rbuf, len);
		if (now() >= (i + 1) * w)
			FAIL("%s step %u ran past its window", algo, i);
	}
	vcube_plan_free(&pl);
	free(sbuf);
	free(rbuf);
	return failed;
}

/*
 * Thakur's algorithms as vcube-sim runs them, from the same plans: each
 * step posts its receive, sends (UNFORCED: a partner may still be at an
 * earlier step), waits for both; no synchronisation between steps.
 */
static int exp_thakur(const char *algo, size_t len)
{
	uint8_t *sbuf = malloc(len + 1), *rbuf = malloc(len + 1);
	struct vcube_plan pl = { 0 };
	unsigned int k;

	if (exp_plan(algo, &pl) ||
	    pl.kind != VCUBE_PLAN_STEPWISE)
		return 2;
	for (k = 0; k < pl.nsteps; k++)
		step(algo, pl.step[k].tag, pl.step[k].to, pl.step[k].from,
		     sbuf, rbuf, len);
	printf("thakur %s %u %llu\n", algo, me, (unsigned long long)now());
	vcube_plan_free(&pl);
	free(sbuf);
	free(rbuf);
	return failed;
}

/*
 * Any registered complete exchange through libvcube, every rank from time
 * 0 (no aligning barrier), as vcube-sim runs it: each rank prints its
 * clock at the end.
 */
static int exp_xchg(const char *algo, size_t len)
{
	uint8_t *sbuf = calloc(np, len + 1), *rbuf = calloc(np, len + 1);
	struct vcube_comm *c = NULL;
	int ret = vcube_comm_create(node, me, np, &c);

	ret = ret ?: vcube_xchg_run(c, algo, sbuf, rbuf, len, NULL);
	if (ret)
		FAIL("%s: %s", algo, strerror(-ret));
	printf("xchg %s %u %llu\n", algo, me, (unsigned long long)now());
	free(c);
	free(sbuf);
	free(rbuf);
	return failed;
}

/*
 * One call of a library collective, every rank starting at time 0 (no
 * barrier before it): its virtual time, for the golden records and for
 * vcube-sim's predictions.
 */
static int exp_coll(const char *kind, const char *algo, size_t len)
{
	uint8_t *a = calloc(1, len + 8), *b = calloc(1, len + 8);
	struct vcube_comm *c = NULL;
	unsigned int ph;
	int ret = vcube_comm_create(node, me, np, &c);

	if (!ret && (!a || !b))
		ret = -ENOMEM;
	memset(a, (int)me + 1, len);
	if (ret)
		;
	else if (!strcmp(kind, "sync"))
		ret = vcube_sync_run(c, algo);
	else if (!strcmp(kind, "bcast"))
		ret = vcube_bcast_run(c, algo, 0, a, len);
	else if (!strcmp(kind, "reduce"))
		ret = vcube_reduce_run(c, algo, VCUBE_OP_SUM, VCUBE_TYPE_U64, a,
				       b, len / 8);
	else if (!strcmp(kind, "scan"))
		ret = vcube_scan_run(c, algo, VCUBE_OP_SUM, VCUBE_TYPE_U64, a,
				     b, len / 8);
	else if (!strcmp(kind, "kernel"))
		ret = vcube_kernel_run(c, algo, a, len, &ph);
	else if (!strcmp(kind, "shift"))
		ret = vcube_shift_run(c, atoi(algo), a, b, len);
	else
		ret = -ENOENT;
	if (ret)
		FAIL("%s %s: %s", kind, algo, strerror(-ret));
	printf("coll %s %s %u %llu\n", kind, algo, me,
	       (unsigned long long)now());
	vcube_comm_close(c);
	free(a);
	free(b);
	return failed;
}

/* ---- complete exchange schedules ------------------------------------------- */

static int exp_exchange(const char *algo, size_t len, uint64_t block)
{
	uint64_t *rq = calloc(np, sizeof(*rq)), start = 1 * MS;
	uint8_t *sbuf = malloc(len + 1), *rbuf = malloc((len + 1) * np);
	struct vcube_plan pl = { 0 };
	unsigned int i, k, d;
	struct vcube_status st;
	int ret;

	/* Bokhari's schedule, from the library's planner; no barrier here */
	if (exp_plan(algo, &pl) || pl.kind != VCUBE_PLAN_POSTED)
		return 2;
	for (i = 0; i < np; i++)
		if (i != me &&
		    vcube_node_irecv(node, i, 0, rbuf + i * len, len, &rq[i]))
			FAIL("irecv");
	vcube_node_delay_until(node, start);
	for (k = 0; k < pl.nsteps; k++) {
		d = pl.step[k].to;
		if (pl.step[k].pre == VCUBE_PLAN_IDLE)
			vcube_node_delay(node, block);
		if (d == VCUBE_NONE)
			continue;
		fill(sbuf, len, d, 0);
		ret = vcube_node_send(node, d, 0, sbuf, len, VCUBE_SEND_FORCED,
				      NULL);
		if (ret)
			FAIL("send to %u: %s", d, strerror(-ret));
	}
	for (i = 0; i < np; i++) {
		if (i == me)
			continue;
		ret = vcube_node_wait(node, rq[i], &st);
		if (ret)
			FAIL("recv from %u: %s", i, strerror(-ret));
		else
			verify(rbuf + i * len, st.len, i, 0);
	}
	printf("exchange %s %u %llu\n", algo, me,
	       (unsigned long long)(now() - start));
	vcube_plan_free(&pl);
	free(rq);
	free(sbuf);
	free(rbuf);
	return failed;
}

/* Pairwise exchange, UNFORCED, no synchronisation: the benchmark's load. */
static int exp_pairwise(size_t len)
{
	uint8_t *sbuf = malloc(len + 1), *rbuf = malloc(len + 1);
	struct vcube_status st;
	unsigned int k, p;
	int ret;

	for (k = 1; k < np; k++) {
		p = me ^ k;
		if (p >= np)
			continue;
		fill(sbuf, len, p, k);
		ret = vcube_node_exchange(node, p, k, sbuf, len, rbuf, len, 0,
					  &st);
		if (ret)
			FAIL("exchange with %u: %s", p, strerror(-ret));
		else
			verify(rbuf, st.len, p, k);
	}
	printf("clock %u %llu\n", me, (unsigned long long)now());
	free(sbuf);
	free(rbuf);
	return failed;
}

/* ---- Seidel & Davis Table II ---------------------------------------------- */

static int exp_seidel(const char *mode, uint64_t skew)
{
	static const unsigned int next[4] = { 1, 3, 0, 2 };
	static const unsigned int prev[4] = { 2, 0, 3, 1 };
	static uint8_t sbuf[4096], rbuf[4096];
	bool shift = !strncmp(mode, "shift", 5);
	bool forced = !strcmp(mode, "syncf") || !strcmp(mode, "shiftf") ||
		      !strcmp(mode, "exchangef");
	bool sync = !strcmp(mode, "syncl") || !strcmp(mode, "syncf");
	unsigned int to = shift ? next[me] : 1 - me;
	unsigned int from = shift ? prev[me] : 1 - me;
	uint64_t rd, rn, sd;

	if (vcube_node_irecv(node, from, 1, rbuf, sizeof(rbuf), &rd))
		FAIL("irecv");
	if (me == 1)
		vcube_node_delay(node, skew * 1000);
	if (sync) {
		vcube_node_irecv(node, from, 2, NULL, 0, &rn);
		vcube_node_send(node, to, 2, NULL, 0, 0, NULL);
		vcube_node_wait(node, rn, NULL);
	}
	fill(sbuf, sizeof(sbuf), to, 1);
	if (vcube_node_isend(node, to, 1, sbuf, sizeof(sbuf),
			     forced ? VCUBE_SEND_FORCED : 0, &sd) ||
	    vcube_node_wait(node, sd, NULL) || vcube_node_wait(node, rd, NULL))
		FAIL("seidel %s", mode);
	verify(rbuf, sizeof(rbuf), from, 1);
	printf("seidel %s %llu %u %llu\n", mode, (unsigned long long)skew, me,
	       (unsigned long long)now());
	return failed;
}

/*
 * Rank 1 sends LEN bytes to rank 0, which posts its receive LATE_US late;
 * each prints its clock once done: with a synchronous send (no system
 * buffer) the sender returns with the receive, else at once.
 */
static int exp_late(size_t len, uint64_t late)
{
	static uint8_t buf[65536];

	if (len > sizeof(buf) || me > 1)
		return failed;
	if (me == 1) {
		fill(buf, len, 0, 1);
		if (vcube_node_send(node, 0, 1, buf, len, 0, NULL))
			FAIL("late send");
	} else {
		vcube_node_delay(node, late * 1000);
		if (vcube_node_recv(node, 1, 1, buf, len, NULL))
			FAIL("late recv");
		verify(buf, len, 1, 1);
	}
	printf("late %u %llu\n", me, (unsigned long long)now());
	return failed;
}

static int exp_deadlock(void)
{
	uint8_t b[16] = { 0 };
	int ret;

	if (me == 0) {
		ret = vcube_node_send(node, 1, 0, b, sizeof(b),
				      VCUBE_SEND_FORCED, NULL);
		printf("deadlock sender %d\n", ret);
	} else if (me == 1) {
		vcube_node_delay(node, 1 * MS);
		ret = vcube_node_recv(node, 0, 0, b, sizeof(b), NULL);
		printf("deadlock receiver %d\n", ret);
	}
	return 0;
}

/* A lone node receives from anyone @n times: @n deadlocks, each EDEADLK. */
static int exp_deadlocks(unsigned long n)
{
	uint8_t b[16];
	unsigned long i, got = 0;

	for (i = 0; i < n; i++)
		if (vcube_node_recv(node, VCUBE_ANY, VCUBE_ANY, b, sizeof(b),
				    NULL) == -EDEADLK)
			got++;
	printf("deadlocks %lu of %lu\n", got, n);
	return got == n ? 0 : 1;
}

/*
 * For kill tests: rank 0 sends 64 KB FORCED to rank 1 and blocks; rank 2
 * stays bound at virtual time 0 without doing anything (it sleeps in real
 * time), so the transfer holds its circuit until somebody is killed.
 */
static int exp_hold(void)
{
	static uint8_t buf[65536];

	printf("hold %u ready\n", me);
	fflush(stdout);
	if (me == 0)
		vcube_node_send(node, 1, 0, buf, sizeof(buf), VCUBE_SEND_FORCED,
				NULL);
	else if (me == 1)
		vcube_node_recv(node, 0, 0, buf, sizeof(buf), NULL);
	else
		sleep(600);
	return 0;
}

/* ---- the experiments --------------------------------------------------- */

/* Each experiment called with its arguments, those after its name. */
static int run_msg(char **av)
{
	(void)av;
	return exp_msg();
}

static int run_formula(char **av)
{
	(void)av;
	return exp_formula();
}

static int run_contention(char **av)
{
	return exp_contention(av[0] ? strtoul(av[0], NULL, 0) : 0);
}

static int run_exchange(char **av)
{
	return exp_exchange(av[0], strtoul(av[1], NULL, 0),
			    strtoull(av[2], NULL, 0));
}

static int run_pairwise(char **av)
{
	return exp_pairwise(strtoul(av[0], NULL, 0));
}

static int run_seidel(char **av)
{
	return exp_seidel(av[0], strtoull(av[1], NULL, 0));
}

static int run_late(char **av)
{
	return exp_late(strtoul(av[0], NULL, 0), strtoull(av[1], NULL, 0));
}

static int run_deadlock(char **av)
{
	(void)av;
	return exp_deadlock();
}

static int run_deadlocks(char **av)
{
	return exp_deadlocks(strtoul(av[0], NULL, 0));
}

static int run_hold(char **av)
{
	(void)av;
	return exp_hold();
}

static int run_thakur(char **av)
{
	return exp_thakur(av[0], strtoul(av[1], NULL, 0));
}

static int run_xchg(char **av)
{
	return exp_xchg(av[0], strtoul(av[1], NULL, 0));
}

static int run_coll(char **av)
{
	return exp_coll(av[0], av[1], strtoul(av[2], NULL, 0));
}

static int run_steps(char **av)
{
	return exp_steps(av[0], strtoul(av[1], NULL, 0),
			 strtoull(av[2], NULL, 0));
}

static int run_kernel(char **av)
{
	return exp_kernel(av[0], strtoul(av[1], NULL, 0));
}

static int run_pairs(char **av)
{
	int n = 0;

	while (av[1 + n])
		n++;
	return exp_pairs(strtoul(av[0], NULL, 0), n, av + 1);
}

/*
 * Every experiment: its name, its arguments as the usage shows them, how
 * many it takes (at least @min, at most @max; -1: any), what it does.
 */
static const struct experiment {
	const char *name;
	const char *args;
	int min, max;
	int (*run)(char **av);
	const char *help;
} experiments[] = {
	{ "msg", "",
	  0, -1, run_msg,
	  "all pairs, many sizes, both protocols, every byte checked" },
	{ "formula", "",
	  0, -1, run_formula,
	  "single sends from node 0 at every distance" },
	{ "contention", "[K]",
	  0, -1, run_contention,
	  "Bokhari's 8 paths through edge 7 -> 15: k = 1..8 at once, or K" },
	{ "exchange", "naive|linear|pairwise|stable LEN BLOCK_NS",
	  3, 3, run_exchange,
	  "Bokhari's complete exchanges, FORCED; idle steps BLOCK_NS" },
	{ "pairwise", "LEN",
	  1, 1, run_pairwise,
	  "pairwise exchange, UNFORCED, no synchronisation" },
	{ "seidel", "exchange|exchangef|syncl|syncf|shiftl|shiftf SKEW_US",
	  2, 2, run_seidel,
	  "Seidel & Davis's Table II, rank 1 SKEW_US late" },
	{ "late", "LEN LATE_US",
	  2, 2, run_late,
	  "(2 ranks) 1 sends to 0, which posts its receive LATE_US late" },
	{ "deadlock", "",
	  0, -1, run_deadlock,
	  "FORCED with no receive posted" },
	{ "deadlocks", "N",
	  1, 1, run_deadlocks,
	  "a lone node receiving from anyone, N times" },
	{ "hold", "",
	  0, -1, run_hold,
	  "(kill tests) rank 0 blocks sending to 1, rank 2 sleeps bound" },
	{ "thakur", "pex|pexgen|pexgenshift|gen LEN",
	  2, 2, run_thakur,
	  "Thakur's exchanges as vcube-sim runs them" },
	{ "xchg", "ALGO LEN",
	  2, 2, run_xchg,
	  "a registered complete exchange as vcube-sim runs it, from 0" },
	{ "coll", "sync|bcast|reduce|scan|kernel|shift ALGO LEN",
	  3, 3, run_coll,
	  "a library collective once, from 0 (shift: ALGO the distance)" },
	{ "steps", "pex|gen LEN WINDOW_NS",
	  3, 3, run_steps,
	  "one step of Thakur's PEX or GEN per WINDOW_NS" },
	{ "kernel", "butterfly|crossover|torus LEN",
	  2, 2, run_kernel,
	  "Chuang & Horie's communication kernels" },
	{ "pairs", "LEN SRC DST [SRC DST...]",
	  3, -1, run_pairs,
	  "pairs sending at once, FORCED; each receiver's time" },
};

#define NEXPERIMENTS (sizeof(experiments) / sizeof(experiments[0]))

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: vcube-run -n N exp EXPERIMENT [ARG...]\n");
	for (i = 0; i < NEXPERIMENTS; i++)
		fprintf(f, "  %s%s%s\n      %s\n", experiments[i].name,
			*experiments[i].args ? " " : "", experiments[i].args,
			experiments[i].help);
}

/* The experiment @name that takes @n arguments, or NULL. */
static const struct experiment *experiment(const char *name, int n)
{
	const struct experiment *e;

	for (e = experiments; e < experiments + NEXPERIMENTS; e++)
		if (!strcmp(e->name, name) && n >= e->min &&
		    (e->max < 0 || n <= e->max))
			return e;
	return NULL;
}

int main(int argc, char **argv)
{
	const struct experiment *e;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	ret = vcube_env_rank(&me, &np);
	if (ret) {
		fprintf(stderr, "exp: run me with vcube-run\n");
		return 2;
	}
	ret = vcube_node_open(me, &node);
	if (ret) {
		fprintf(stderr, "exp: rank %u: %s\n", me, strerror(-ret));
		return 1;
	}
	e = experiment(argv[1], argc - 2);
	ret = e ? e->run(argv + 2) : 2;
	vcube_node_close(node);
	return ret;
}
