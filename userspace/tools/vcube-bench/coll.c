// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench's collectives: global sums of 64-bit integers (--reduce;
 * sizes are bytes per rank) and broadcasts from rank 0 (--bcast), every
 * result checked.
 */
#include <stdint.h>

#include "vcube-bench/bench.h"

static int reduce_op(struct bench_point *pt, unsigned int rep, int *bad)
{
	unsigned int p = vcube_comm_size(pt->c);
	uint64_t *out = (uint64_t *)pt->rbuf;
	size_t i, n = pt->len / 8;
	int ret;

	if (bench_native(pt, VCUBE_ALGO_REDUCE))
		ret = bench_mpi->native(pt, VCUBE_ALGO_REDUCE);
	else
		ret = vcube_reduce_run(pt->c, pt->algo, VCUBE_OP_SUM,
				       VCUBE_TYPE_U64, pt->sbuf, out, n);
	for (i = 0; !ret && i < n; i++)
		if (out[i] != 1000ULL * p * (p - 1) / 2 + (uint64_t)p * (i + rep))
			*bad = 1;
	return ret;
}

/* One repetition of a global sum of rank * 1000 + i + rep. */
static int reduce_once(struct bench_point *pt, unsigned int rep, uint64_t *ns,
		       int *bad)
{
	unsigned int me = vcube_comm_rank(pt->c);
	uint64_t *in = (uint64_t *)pt->sbuf;
	size_t i;

	for (i = 0; i < pt->len / 8; i++)
		in[i] = (uint64_t)me * 1000 + i + rep;
	return bench_timed(pt, rep, ns, bad, reduce_op);
}

static uint8_t bcast_byte(unsigned int rep, uint64_t i)
{
	return (uint8_t)(rep * 37 + i * 11 + (i >> 8));
}

static int bcast_op(struct bench_point *pt, unsigned int rep, int *bad)
{
	uint64_t i;
	int ret;

	if (bench_native(pt, VCUBE_ALGO_BCAST))
		ret = bench_mpi->native(pt, VCUBE_ALGO_BCAST);
	else
		ret = vcube_bcast_run(pt->c, pt->algo, 0, pt->rbuf, pt->len);
	for (i = 0; !ret && i < pt->len; i++)
		if (pt->rbuf[i] != bcast_byte(rep, i)) {
			*bad = 1;
			break;
		}
	return ret;
}

/* One repetition of a broadcast from rank 0. */
static int bcast_once(struct bench_point *pt, unsigned int rep, uint64_t *ns,
		      int *bad)
{
	uint64_t i;

	for (i = 0; i < pt->len; i++)
		pt->rbuf[i] = vcube_comm_rank(pt->c) ? 0 : bcast_byte(rep, i);
	return bench_timed(pt, rep, ns, bad, bcast_op);
}

const struct bench_mode bench_reduce_mode = {
	.kind = VCUBE_ALGO_REDUCE, .native = true, .once = reduce_once,
};
const struct bench_mode bench_bcast_mode = {
	.kind = VCUBE_ALGO_BCAST, .native = true, .once = bcast_once,
};
