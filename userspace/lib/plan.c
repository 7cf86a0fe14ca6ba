// SPDX-License-Identifier: MIT
/*
 * libvcube: building plans (plan.h), the growing arrays every planner
 * fills. exec.c runs them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

void vcube_plan_init(struct vcube_plan *pl, enum vcube_plan_kind kind,
		     unsigned int p)
{
	memset(pl, 0, sizeof(*pl));
	pl->kind = kind;
	pl->p = p;
	pl->nsend = p;
	pl->nrecv = p;
}

/* Room for one more element of @size in *@arr of *@cap. */
static int grow(void **arr, unsigned int n, unsigned int *cap, size_t size)
{
	unsigned int c = *cap ? 2 * *cap : 16;
	void *a;

	if (n < *cap)
		return 0;
	a = realloc(*arr, (size_t)c * size);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = c;
	return 0;
}

int vcube_plan_add_step(struct vcube_plan *pl,
			const struct vcube_plan_step *s)
{
	int ret = grow((void **)&pl->step, pl->nsteps, &pl->scap,
		       sizeof(*pl->step));

	if (!ret)
		pl->step[pl->nsteps++] = *s;
	return ret;
}

int vcube_plan_add(struct vcube_plan *pl, unsigned int to, unsigned int from,
		   unsigned int tag, enum vcube_plan_pre pre)
{
	struct vcube_plan_step s = {
		.to = to, .from = from, .tag = tag, .stag = VCUBE_NONE,
		.sblk = to, .rblk = from == VCUBE_NONE ? 0 :
				    vcube_plan_rblk(pl, from),
		.nblk = 1, .pre = pre,
	};

	return vcube_plan_add_step(pl, &s);
}

int vcube_plan_add_post(struct vcube_plan *pl,
			const struct vcube_plan_post *post)
{
	int ret = grow((void **)&pl->post, pl->nposts, &pl->pcap,
		       sizeof(*pl->post));

	if (!ret)
		pl->post[pl->nposts++] = *post;
	return ret;
}

static int add_move(struct vcube_plan *pl, struct vcube_plan_range *r,
		    unsigned int dst, unsigned int src,
		    enum vcube_move_kind kind)
{
	int ret = grow((void **)&pl->move, pl->nmoves, &pl->mcap,
		       sizeof(*pl->move));

	if (ret)
		return ret;
	if (!r->n)
		r->first = pl->nmoves;
	pl->move[pl->nmoves++] = (struct vcube_plan_move){ dst, src, kind };
	r->n++;
	return 0;
}

int vcube_plan_add_move(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int dst, unsigned int src)
{
	return add_move(pl, r, dst, src, VCUBE_MOVE_COPY);
}

int vcube_plan_add_fold(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int dst, unsigned int src)
{
	return add_move(pl, r, dst, src, VCUBE_MOVE_FOLD);
}

int vcube_plan_add_xfer(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int to, unsigned int sblk, unsigned int from,
			unsigned int rblk, unsigned int tag)
{
	struct vcube_plan_step s = {
		.to = to, .from = from, .tag = tag, .stag = VCUBE_NONE,
		.sblk = sblk, .rblk = rblk,
		.nblk = 1,
	};

	if (r) {
		s.moves = *r;
		*r = (struct vcube_plan_range){ 0 };
	}
	return vcube_plan_add_step(pl, &s);
}

void vcube_plan_free(struct vcube_plan *pl)
{
	free(pl->step);
	free(pl->post);
	free(pl->move);
	memset(pl, 0, sizeof(*pl));
}
