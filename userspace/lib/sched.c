// SPDX-License-Identifier: MIT
/*
 * libvcube: irregular communication (Ponnusamy et al., sec. 5) as calls.
 * A schedule is built once from a pattern by the scheduler the registry
 * names (plan/irregular.c holds the patterns, the schedulers and a
 * schedule's plan) and run as often as needed through the one executor.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "plan.h"

int vcube_sched_build(const struct vcube_pattern *pat, const char *algo,
		      struct vcube_sched **schedp)
{
	const struct vcube_algo_impl *im;
	struct vcube_sched *s;
	size_t cap = 0;
	int ret;

	if (!pat || !algo || !schedp)
		return -EINVAL;
	im = vcube_algo_lookup(VCUBE_ALGO_IRREGULAR, algo);
	if (!im)
		return -ENOENT;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->n = pat->n;
	ret = im->build(s, &cap, pat);
	if (ret) {
		vcube_sched_free(s);
		return ret;
	}
	*schedp = s;
	return 0;
}

void vcube_sched_free(struct vcube_sched *sched)
{
	if (sched)
		free(sched->msgs);
	free(sched);
}

unsigned int vcube_sched_steps(const struct vcube_sched *sched)
{
	return sched->nsteps;
}

/* The @k-th message: 0, or -ERANGE past the end. */
int vcube_sched_msg(const struct vcube_sched *sched, size_t k,
		    unsigned int *step, unsigned int *src, unsigned int *dst)
{
	if (!sched || k >= sched->nmsgs)
		return -ERANGE;
	*step = sched->msgs[k].step;
	*src = sched->msgs[k].src;
	*dst = sched->msgs[k].dst;
	return 0;
}

/*
 * Run @sched for @pat at this rank. @sbuf holds the blocks for ranks 0 ..
 * n-1 in order, each pattern(me, j) bytes; @rbuf gets the blocks from
 * ranks 0 .. n-1 in order, each pattern(j, me) bytes. The plan
 * (vcube_plan_sched()) runs through the one executor, with bytes for blocks.
 */
int vcube_sched_run(struct vcube_comm *comm, const struct vcube_sched *sched,
		    const struct vcube_pattern *pat, const void *sbuf,
		    void *rbuf)
{
	static uint8_t none;
	struct vcube_plan pl = { 0 };
	unsigned int me, n, j, base;
	size_t *soff, *roff;
	int ret = 0;

	if (!comm || !sched || !pat || sched->n != pat->n ||
	    comm->size != pat->n)
		return -EINVAL;
	me = comm->rank;
	n = pat->n;
	soff = calloc(2 * (size_t)n + 1, sizeof(*soff));
	if (!soff)
		return -ENOMEM;
	roff = soff + n + 1;
	for (j = 1; j <= n; j++)
		soff[j] = soff[j - 1] + pat->bytes[(size_t)me * n + j - 1];
	for (j = 1; j < n; j++)
		roff[j] = roff[j - 1] + pat->bytes[(size_t)(j - 1) * n + me];
	/* the diagonal is always 0 (vcube_pattern_set refuses it) */
	if ((soff[n] && !sbuf) ||
	    ((roff[n - 1] + pat->bytes[(size_t)(n - 1) * n + me]) && !rbuf))
		ret = -EINVAL;
	base = vcube_comm_tag_base(comm);
	ret = ret ?: vcube_plan_sched(sched, pat, me, soff, roff, &pl);
	if (!ret)
		ret = vcube_plan_run(comm, &pl, base, sbuf ? sbuf : &none,
				     rbuf ? rbuf : &none, 1, 0);
	vcube_plan_free(&pl);
	free(soff);
	return ret;
}
