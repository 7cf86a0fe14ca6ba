// SPDX-License-Identifier: MIT
/*
 * libvcube: global synchronisation, and the message costs Seidel & Davis
 * measured. The barriers are plans (plan/seidel.c, plan/mpi.c) in the
 * registry (algo.c); the control network's is one request (cnet.c).
 * Seidel & Davis 1992 compare three barriers on the iPSC/860; today's MPI
 * libraries add two baselines:
 *
 * - gsync (Intel NX/2): the butterfly. Each rank sends a null message to
 *   its neighbour across each dimension, the highest first, and waits for
 *   that neighbour's message before going on (sec. 3.1).
 * - sync0 (PICL): the upper half folds onto the lower, the lower half runs
 *   the butterfly with the dimensions in the other order, then unfolds
 *   (sec. 3.2).
 * - rds: recursive doubling synchronisation (sec. 3.3). A fan-in to rank 0
 *   along the reverse of the recursive-doubling tree, the broadcast down
 *   the tree (low dimensions first), then rank i busy-waits
 *   w_i = (d - |i|_1)(b_s - s), so that every rank leaves when the last
 *   broadcast message arrives at rank 2^d - 1. b_s and s are measured by
 *   vcube_costs_measure(), as the paper measured them.
 * - dissemination (Hensgen, Finkel & Manber 1988): vcube_comm_barrier().
 * - tree: a binomial fan-in to rank 0 and the same tree back out.
 *
 * Every message is a null one (the short protocol). Time is the kernel's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "plan.h"

static int null_send(struct vcube_comm *c, unsigned int to, unsigned int tag)
{
	return c->tp->send(c->tpx, to, tag, NULL, 0, 0);
}

static int null_recv(struct vcube_comm *c, unsigned int from, unsigned int tag)
{
	return c->tp->recv(c->tpx, from, tag, NULL, 0);
}

int vcube_sync_run(struct vcube_comm *comm, const char *name)
{
	struct vcube_algo_call call = { .kind = VCUBE_ALGO_SYNC, .name = name };
	const struct vcube_algo_impl *im;
	int ret;

	ret = vcube_algo_usable(comm, VCUBE_ALGO_SYNC, name);
	if (ret)
		return ret;
	if (comm->size == 1)
		return 0;
	im = vcube_algo_lookup(VCUBE_ALGO_SYNC, name);
	if ((im->a.needs & VCUBE_ALGO_COSTS) && !comm->have_costs) {
		ret = vcube_costs_measure(comm, NULL);
		if (ret)
			return ret;
	}
	if (comm->costs.b_s > comm->costs.s)
		call.a.wait_ns = comm->costs.b_s - comm->costs.s;
	return vcube_algo_run(comm, &call);
}

/* The dissemination barrier (plan/mpi.c): any number of ranks. */
int vcube_comm_barrier(struct vcube_comm *comm)
{
	return vcube_sync_run(comm, "dissemination");
}

/*
 * Ranks 0 and 1 time three kinds of round trip as Seidel & Davis did (sec.
 * 3.3): null there and back (2 b_s; rank 0's send returns after s), FORCED
 * CAL_LEN bytes and a null back (2 b_s + a CAL_LEN), UNFORCED CAL_LEN bytes
 * and a null back (b_l + a CAL_LEN + b_s). Rank 1 says when it is ready,
 * so rank 0 starts each clock while rank 1 already waits; each kind runs
 * CAL_REPS times and the fastest counts (an interrupt can only add).
 * Rank 0 broadcasts the constants, or its error.
 */
#define CAL_LEN		4096
#define CAL_REPS	3
#define CAL_N		(3 * CAL_REPS)

static int costs_rank1(struct vcube_comm *c, unsigned int base, uint8_t *buf)
{
	uint64_t rq[CAL_N];
	unsigned int k;
	int ret = 0;

	/* Every receive first: the FORCED messages must find one. */
	for (k = 0; k < CAL_N && !ret; k++)
		ret = c->tp->irecv(c->tpx, 0, base | k, buf, CAL_LEN, &rq[k]);
	ret = ret ?: null_send(c, 0, base | 0x20);
	for (k = 0; k < CAL_N && !ret; k++) {
		ret = c->tp->wait(c->tpx, rq[k], NULL);
		ret = ret ?: null_send(c, 0, base | 0x40 | k);
	}
	return ret;
}

static int costs_rank0(struct vcube_comm *c, unsigned int base, uint8_t *buf,
		       struct vcube_costs *m)
{
	static const unsigned int flags[3] = { 0, VCUBE_SEND_FORCED, 0 };
	static const size_t len[3] = { 0, CAL_LEN, CAL_LEN };
	uint64_t t0, t1, t2, rtt[3] = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
	uint64_t rq, s = UINT64_MAX;
	unsigned int k;
	int ret;

	ret = null_recv(c, 1, base | 0x20);
	for (k = 0; k < CAL_N && !ret; k++) {
		ret = c->tp->irecv(c->tpx, 1, base | 0x40 | k, NULL, 0, &rq);
		ret = ret ?: c->tp->clock(c->tpx, &t0);
		ret = ret ?: c->tp->send(c->tpx, 1, base | k, buf, len[k % 3],
					 flags[k % 3]);
		ret = ret ?: c->tp->clock(c->tpx, &t1);
		ret = ret ?: c->tp->wait(c->tpx, rq, NULL);
		ret = ret ?: c->tp->clock(c->tpx, &t2);
		if (ret)
			break;
		if (k % 3 == 0 && t1 - t0 < s)
			s = t1 - t0;
		if (t2 - t0 < rtt[k % 3])
			rtt[k % 3] = t2 - t0;
	}
	if (ret)
		return ret;
	m->s = s;
	m->b_s = rtt[0] / 2;
	m->a_ps = rtt[1] > rtt[0] ? (rtt[1] - rtt[0]) * 1000 / CAL_LEN : 0;
	t0 = m->b_s + m->a_ps * CAL_LEN / 1000;
	m->b_l = rtt[2] > t0 ? rtt[2] - t0 : 0;
	return 0;
}

int vcube_costs_measure(struct vcube_comm *comm, struct vcube_costs *out)
{
	struct {
		struct vcube_costs k;
		int64_t err;
	} m = { 0 };
	unsigned int base;
	uint8_t *buf;
	int ret = 0, b;

	if (!comm)
		return -EINVAL;
	if (comm->size < 2)
		return -EDOM;
	buf = calloc(1, CAL_LEN);
	if (!buf)
		return -ENOMEM;
	base = vcube_comm_tag_base(comm);
	if (comm->rank == 1)
		ret = costs_rank1(comm, base, buf);
	else if (comm->rank == 0)
		m.err = ret = costs_rank0(comm, base, buf, &m.k);
	free(buf);
	/* Everyone learns the constants, or rank 0's error. */
	b = vcube_bcast_run(comm, NULL, 0, &m, sizeof(m));
	ret = ret ?: b;
	if (!ret && m.err)
		ret = (int)m.err;
	if (ret)
		return ret;
	comm->costs = m.k;
	comm->have_costs = 1;
	if (out)
		*out = m.k;
	return 0;
}

/*
 * Seidel & Davis sec. 4.3: RDS before a shift of m bytes with the long
 * protocol pays when 2 a m + 3/2 b_l >= a m + b_l + 2 d b_s, that is
 * m >= (2 d b_s - b_l / 2) / a. The smallest such whole m.
 */
uint64_t vcube_costs_rds_min_len(const struct vcube_costs *k, unsigned int d)
{
	uint64_t num = 2ULL * d * k->b_s * 1000;	/* in ps */
	uint64_t half = k->b_l * 1000 / 2;

	if (!k->a_ps)
		return 0;
	if (num <= half)
		return 0;
	return (num - half + k->a_ps - 1) / k->a_ps;
}
