// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's complete exchanges, and the irregular schedules (--density)
 * that move the same blocks: every rank's blocks in rank order, each len
 * bytes (or none, where the pattern says so), every byte received checked.
 */
#include <stdint.h>
#include <string.h>

#include "vcube-bench/bench.h"

/* Block j of rank s for rank d: a pattern no other block shares. */
static uint8_t pattern_byte(unsigned int s, unsigned int d, uint64_t rep,
			    size_t i)
{
	return (uint8_t)(s * 131 + d * 31 + rep * 17 + i * 13 + (i >> 8));
}

/* Does rank @s send rank @d a block? Always, but where the pattern says. */
static int talks(const struct bench_point *pt, unsigned int s, unsigned int d)
{
	return !pt->pat || vcube_pattern_get(pt->pat, s, d);
}

/* Fill this rank's send blocks and clear the receive buffer. */
static void fill(struct bench_point *pt, unsigned int rep)
{
	unsigned int me = vcube_comm_rank(pt->c), p = vcube_comm_size(pt->c), j;
	uint8_t *sp = pt->sbuf;
	size_t i;

	for (j = 0; j < p; j++) {
		if (!talks(pt, me, j))
			continue;
		for (i = 0; i < pt->len; i++)
			*sp++ = pattern_byte(me, j, rep, i);
	}
	memset(pt->rbuf, 0, p * pt->len);
}

/* Check every block received; *bad on the first wrong byte. */
static void verify(const struct bench_point *pt, unsigned int rep, int *bad)
{
	unsigned int me = vcube_comm_rank(pt->c), p = vcube_comm_size(pt->c), j;
	const uint8_t *rp = pt->rbuf;
	size_t i;

	for (j = 0; j < p && !*bad; j++) {
		if (!talks(pt, j, me))
			continue;
		for (i = 0; i < pt->len; i++)
			if (*rp++ != pattern_byte(j, me, rep, i)) {
				*bad = 1;
				break;
			}
	}
}

static int xchg_op(struct bench_point *pt, unsigned int rep, int *bad)
{
	struct vcube_xchg_opts o = { .idle_ns = pt->b->idle_ns };

	(void)rep;
	(void)bad;
	if (bench_native(pt, VCUBE_ALGO_XCHG))
		return bench_mpi->native(pt, VCUBE_ALGO_XCHG);
	return vcube_xchg_run(pt->c, pt->algo, pt->sbuf, pt->rbuf, pt->len, &o);
}

static int irregular_op(struct bench_point *pt, unsigned int rep, int *bad)
{
	(void)rep;
	(void)bad;
	return vcube_sched_run(pt->c, pt->sch, pt->pat, pt->sbuf, pt->rbuf);
}

static int blocks_once(struct bench_point *pt, unsigned int rep, uint64_t *ns,
		       int *bad)
{
	int ret;

	fill(pt, rep);
	ret = bench_timed(pt, rep, ns, bad, pt->pat ? irregular_op : xchg_op);
	if (!ret)
		verify(pt, rep, bad);
	return ret;
}

/* The pattern and its schedule, built once, outside the timing. */
static int irregular_setup(struct bench_point *pt)
{
	const struct bench *b = pt->b;
	int ret;

	ret = vcube_pattern_create(vcube_comm_size(pt->c), &pt->pat);
	if (!ret)
		ret = vcube_pattern_random(pt->pat, b->density,
					   (uint32_t)pt->len, !b->one_way,
					   b->seed);
	if (!ret)
		ret = vcube_sched_build(pt->pat, pt->algo, &pt->sch);
	if (ret) {
		vcube_pattern_free(pt->pat);
		pt->pat = NULL;
	}
	return ret;
}

static void irregular_teardown(struct bench_point *pt)
{
	vcube_sched_free(pt->sch);
	vcube_pattern_free(pt->pat);
}

const struct bench_mode bench_xchg_mode = {
	.kind = VCUBE_ALGO_XCHG, .native = true, .once = blocks_once,
};

const struct bench_mode bench_irregular_mode = {
	.kind = VCUBE_ALGO_IRREGULAR, .setup = irregular_setup, .once = blocks_once,
	.teardown = irregular_teardown,
};
