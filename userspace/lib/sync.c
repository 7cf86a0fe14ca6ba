// SPDX-License-Identifier: MIT
/*
 * libvcube: global synchronisation. Seidel & Davis 1992 compare three
 * barriers on the iPSC/860; today's MPI libraries add two baselines:
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

#define S92	"Seidel & Davis 1992"
#define POW2	VCUBE_XCHG_POW2

static int null_send(struct vcube_comm *c, unsigned int to, unsigned int tag)
{
	return vcube_node_send(c->node, to, tag, NULL, 0, 0, NULL);
}

static int null_recv(struct vcube_comm *c, unsigned int from, unsigned int tag)
{
	return vcube_node_recv(c->node, from, tag, NULL, 0, NULL);
}

/* The butterfly over dimensions [lo, hi), descending or ascending. */
static int butterfly(struct vcube_comm *c, unsigned int base, unsigned int lo,
		     unsigned int hi, int down)
{
	unsigned int i, k;
	int ret = 0;

	for (i = lo; i < hi && !ret; i++) {
		k = down ? hi - 1 - (i - lo) : i;
		ret = vcube_comm_step(c, base | k, c->rank ^ 1U << k, NULL, 0,
				      c->rank ^ 1U << k, NULL, 0, 0);
	}
	return ret;
}

static int sync_gsync(struct vcube_comm *c, unsigned int base)
{
	return butterfly(c, base, 0, vcube_lg(c->size), 1);
}

static int sync_sync0(struct vcube_comm *c, unsigned int base)
{
	unsigned int d = vcube_lg(c->size), top = 1U << (d - 1);
	unsigned int fold = base | 0x100, unfold = base | 0x101;
	int ret;

	if (c->rank & top) {
		ret = null_send(c, c->rank ^ top, fold);
		return ret ?: null_recv(c, c->rank ^ top, unfold);
	}
	ret = null_recv(c, c->rank | top, fold);
	if (!ret)
		ret = butterfly(c, base, 0, d - 1, 0);
	return ret ?: null_send(c, c->rank | top, unfold);
}

static int sync_rds(struct vcube_comm *c, unsigned int base)
{
	unsigned int d = vcube_lg(c->size), me = c->rank, j, lo = 0, parent = 0;
	unsigned int up = base, down = base | 1;
	uint64_t rq[32] = { 0 }, rdown = 0, w;
	int ret = 0, r;

	if (!c->have_costs) {
		ret = vcube_costs_measure(c, NULL);
		if (ret)
			return ret;
	}
	/*
	 * The tree: rank i's parent clears its highest bit, its children set
	 * one bit above it, from dimension lo up.
	 */
	if (me) {
		lo = 32 - __builtin_clz(me);
		parent = me ^ 1U << (lo - 1);
		ret = vcube_node_irecv(c->node, parent, down, NULL, 0, &rdown);
	}
	/* Phase 1: the fan-in, the broadcast reversed. */
	for (j = lo; j < d && !ret; j++)
		ret = vcube_node_irecv(c->node, me | 1U << j, up, NULL, 0,
				       &rq[j]);
	for (j = lo; j < d; j++) {
		if (!rq[j])
			continue;
		r = vcube_node_wait(c->node, rq[j], NULL);
		ret = ret ?: r;
	}
	if (!ret && me)
		ret = null_send(c, parent, up);
	/* Phase 2: the recursive-doubling broadcast from rank 0. */
	if (rdown) {
		r = vcube_node_wait(c->node, rdown, NULL);
		ret = ret ?: r;
	}
	for (j = lo; j < d && !ret; j++)
		ret = null_send(c, me | 1U << j, down);
	if (ret)
		return ret;
	/* Phase 3: wait for the broadcast to reach rank 2^d - 1. */
	w = (uint64_t)(d - __builtin_popcount(me)) *
	    (c->costs.b_s > c->costs.s ? c->costs.b_s - c->costs.s : 0);
	return w ? vcube_node_delay(c->node, w) : 0;
}

static int sync_dissemination(struct vcube_comm *c, unsigned int base)
{
	(void)base;
	return vcube_comm_barrier(c);
}

static int sync_tree(struct vcube_comm *c, unsigned int base)
{
	unsigned int p = c->size, me = c->rank, m, top;
	int ret = 0;

	/* Fan-in: receive from me + 2^k until me's bit k is set. */
	for (m = 1; m < p && !(me & m) && !ret; m <<= 1)
		if (me + m < p)
			ret = null_recv(c, me + m, base);
	top = m;
	if (!ret && me)
		ret = null_send(c, me - top, base);
	if (!ret && me)
		ret = null_recv(c, me - top, base | 1);
	/* Fan-out, the same tree in the other order. */
	for (m = top >> 1; m && !ret; m >>= 1)
		if (me + m < p)
			ret = null_send(c, me + m, base | 1);
	return ret;
}

static int sync_cnet(struct vcube_comm *c, unsigned int base)
{
	(void)base;
	return vcube_cnet_barrier(c);
}

static const struct sync_entry {
	struct vcube_sync_algo algo;
	int (*run)(struct vcube_comm *c, unsigned int base);
} syncs[] = {
	{ { "gsync", S92 " (Intel NX/2)",
	    "butterfly, highest dimension first, wait for each reply", POW2 },
	  sync_gsync },
	{ { "sync0", S92 " (PICL)",
	    "fold the upper half, butterfly on the lower, unfold", POW2 },
	  sync_sync0 },
	{ { "rds", S92,
	    "fan-in to 0, recursive doubling broadcast, busy wait (d-|i|)(b_s-s)",
	    POW2 }, sync_rds },
	{ { "dissemination", "Hensgen, Finkel & Manber 1988",
	    "ceil(lg p) rounds: to rank + 2^k, from rank - 2^k", 0 },
	  sync_dissemination },
	{ { "tree", "binomial tree (MPI baseline)",
	    "fan-in to rank 0 and back out", 0 }, sync_tree },
	{ { "cm5_control", "Ponnusamy et al. (CM-5)",
	    "the control network's hardware barrier", VCUBE_XCHG_CNET },
	  sync_cnet },
};

size_t vcube_sync_count(void)
{
	return sizeof(syncs) / sizeof(syncs[0]);
}

const struct vcube_sync_algo *vcube_sync_get(size_t i)
{
	return i < vcube_sync_count() ? &syncs[i].algo : NULL;
}

static const struct sync_entry *sync_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < vcube_sync_count(); i++)
		if (!strcmp(name, syncs[i].algo.name))
			return &syncs[i];
	return NULL;
}

int vcube_sync_usable(const struct vcube_comm *comm, const char *name)
{
	const struct sync_entry *s = sync_find(name);

	if (!comm)
		return -EINVAL;
	if (!s)
		return -ENOENT;
	if ((s->algo.needs & POW2) && (comm->size & (comm->size - 1)))
		return -EDOM;
	if ((s->algo.needs & VCUBE_XCHG_CNET) && !comm->cnet)
		return -EDOM;
	return 0;
}

int vcube_sync_run(struct vcube_comm *comm, const char *name)
{
	int ret = vcube_sync_usable(comm, name);

	if (ret)
		return ret;
	if (comm->size == 1)
		return 0;
	return sync_find(name)->run(comm, vcube_comm_tag_base(comm));
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
		ret = vcube_node_irecv(c->node, 0, base | k, buf, CAL_LEN,
				       &rq[k]);
	ret = ret ?: null_send(c, 0, base | 0x20);
	for (k = 0; k < CAL_N && !ret; k++) {
		ret = vcube_node_wait(c->node, rq[k], NULL);
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
		ret = vcube_node_irecv(c->node, 1, base | 0x40 | k, NULL, 0,
				       &rq);
		ret = ret ?: vcube_node_clock(c->node, &t0);
		ret = ret ?: vcube_node_send(c->node, 1, base | k, buf,
					     len[k % 3], flags[k % 3], NULL);
		ret = ret ?: vcube_node_clock(c->node, &t1);
		ret = ret ?: vcube_node_wait(c->node, rq, NULL);
		ret = ret ?: vcube_node_clock(c->node, &t2);
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
