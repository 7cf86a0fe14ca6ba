/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tests' plan simulator (plan_test.c, coll_plan_test.c): one plan
 * per rank (userspace/lib/plan.h), run rank by rank until no rank can move,
 * with every send synchronous (it completes only once its receive is
 * posted, as on the CM-5), so no plan passes by relying on buffering.
 *
 * Each block holds a number: a move copies it, a fold adds it (the tests'
 * folds are sums); a rank counts the writes into each block and its sends,
 * and keeps the set of ranks it has heard from, directly or not (a
 * message carries its sender's set; a receive adds it once waited for).
 * The order is vcube_plan_run()'s (userspace/lib/plan.c):
 * - VCUBE_PLAN_POSTED: every receive of the plan (and its sync receive)
 *   is posted up front; a send first sends its sync to its destination
 *   and waits for the destination's, when it has a sync tag; a step with
 *   @wait then waits for its receive; the rest are drained at the end.
 * - VCUBE_PLAN_STEPWISE: a step posts its receive (VCUBE_OP_XCHG with a
 *   source, VCUBE_OP_POST), sends, then waits for that receive
 *   (VCUBE_OP_XCHG) or, VCUBE_OP_WAIT, for the oldest one posted from its
 *   source with its tag (any, for VCUBE_NONE).
 *
 * Use: plansim_start(), set the ranks' blocks (val, all 0), plansim_run()
 * (it CHECKs that every rank finishes and leaves nothing posted), look at
 * the ranks, plansim_end(). Include after check.h and plan.h.
 */
#ifndef VCUBE_TEST_PLANSIM_H
#define VCUBE_TEST_PLANSIM_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* A receive posted. */
struct plansim_recv {
	unsigned int from, tag;
	unsigned int stag;	/* POSTED: its sync's tag, or VCUBE_NONE */
	unsigned int rblk, nblk;
	int filled, synced, waited;
	uint64_t heard;		/* the sender's, when it sent */
};

/* One rank. */
struct plansim_rank {
	const struct vcube_plan *pl;
	uint64_t *val;		/* each block's number */
	unsigned int *writes;	/* writes into each block (moves, messages) */
	uint64_t heard;		/* ranks heard from, itself included */
	unsigned int at;	/* current step; nsteps: done */
	int started;		/* its moves made, its receive posted */
	int sent;		/* its send complete */
	struct plansim_recv *post;	/* every receive posted, in order */
	unsigned int npost, mine;	/* mine: this step's, or npost */
	unsigned int msgs;	/* sends made */
};

struct plansim {
	const char *name;
	unsigned int p;
	struct plansim_rank *rk;
};

static void plansim_put(struct plansim_rank *r, unsigned int dst, uint64_t v)
{
	r->writes[dst]++;
	r->val[dst] = v;
}

static void plansim_moves(struct plansim_rank *r,
			  const struct vcube_plan_range *rg)
{
	const struct vcube_plan_move *m = r->pl->move + rg->first;
	unsigned int i;

	for (i = 0; i < rg->n; i++, m++)
		plansim_put(r, m->dst, m->kind == VCUBE_MOVE_FOLD ?
			    r->val[m->dst] + r->val[m->src] : r->val[m->src]);
}

/* @r's receive of @s's blocks (a STEPWISE step's), posted. */
static void plansim_post(struct plansim_rank *r,
			 const struct vcube_plan_step *s)
{
	r->post[r->npost++] = (struct plansim_recv){
		.from = s->from, .tag = s->tag, .stag = VCUBE_NONE,
		.rblk = s->rblk, .nblk = s->nblk,
	};
}

/* The first receive of @r from @src with data or sync tag @tag, or NULL. */
static struct plansim_recv *plansim_post_of(struct plansim_rank *r,
					    unsigned int src, unsigned int tag,
					    int sync)
{
	unsigned int k;

	for (k = 0; k < r->npost; k++)
		if (r->post[k].from == src &&
		    (sync ? r->post[k].stag : r->post[k].tag) == tag)
			return &r->post[k];
	return NULL;
}

/* The oldest unwaited receive of @r from @from with @tag (any: NONE). */
static struct plansim_recv *plansim_find(struct plansim_rank *r,
					 unsigned int from, unsigned int tag,
					 int unfilled)
{
	unsigned int k;

	for (k = 0; k < r->npost; k++) {
		struct plansim_recv *e = &r->post[k];

		if (e->waited || (unfilled && e->filled))
			continue;
		if (from == VCUBE_NONE || (e->from == from && e->tag == tag))
			return e;
	}
	return NULL;
}

static int plansim_wait(struct plansim_rank *r, struct plansim_recv *e)
{
	if (!e || !e->filled)
		return 0;
	e->waited = 1;
	r->heard |= e->heard;
	return 1;
}

/* @s's message from @from into @to's receive @e. */
static void plansim_deliver(struct plansim_rank *from,
			    const struct vcube_plan_step *s,
			    struct plansim_rank *to, struct plansim_recv *e)
{
	unsigned int j;

	for (j = 0; j < s->nblk; j++)
		plansim_put(to, e->rblk + j, from->val[s->sblk + j]);
	e->filled = 1;
	e->heard = from->heard;
	from->msgs++;
}

/* Rank @i's POSTED step @s, as far as it goes: 1 if it moved, 2 if done. */
static int plansim_posted(struct plansim *sim, unsigned int i,
			  const struct vcube_plan_step *s)
{
	struct plansim_rank *r = &sim->rk[i], *o;
	struct plansim_recv *e;
	const char *name = sim->name;
	int progress = 0;

	if (!r->sent && s->to != VCUBE_NONE) {
		o = &sim->rk[s->to];
		if (s->stag != VCUBE_NONE) {
			/* my sync goes out (FORCED, to a posted receive) */
			e = plansim_post_of(o, i, s->stag, 1);
			CHECK(e, "%s: %u's sync to %u unposted", name, i,
			      s->to);
			if (e)
				e->synced = 1;
			e = plansim_post_of(r, s->to, s->stag, 1);
			if (!e || !e->synced)
				return 0;	/* waits for the partner's */
		}
		e = plansim_post_of(o, i, s->tag, 0);
		CHECK(e, "%s: %u -> %u tag %u unposted", name, i, s->to,
		      s->tag);
		if (e) {
			CHECK(!e->filled, "%s: %u -> %u twice", name, i, s->to);
			plansim_deliver(r, s, o, e);
			CHECK(s->nblk == e->nblk, "%s: %u blocks into %u",
			      name, s->nblk, e->nblk);
		}
		r->sent = 1;
		progress = 1;
	}
	if (s->wait &&
	    !plansim_wait(r, plansim_post_of(r, s->from, s->tag, 0)))
		return progress;
	return 2;
}

/* Rank @i's STEPWISE step @s, as far as it goes: 1 if it moved, 2 if done. */
static int plansim_stepwise(struct plansim *sim, unsigned int i,
			    const struct vcube_plan_step *s)
{
	struct plansim_rank *r = &sim->rk[i];
	struct plansim_recv *e;

	if (s->op == VCUBE_OP_WAIT)
		return plansim_wait(r, plansim_find(r, s->from, s->tag, 0)) ?
		       2 : 0;
	if (s->op != VCUBE_OP_XCHG)
		return 2;
	if (!r->sent && s->to != VCUBE_NONE) {
		e = plansim_find(&sim->rk[s->to], i, s->tag, 1);
		if (!e)
			return 0;	/* not posted yet: the send waits */
		CHECK(e->nblk == s->nblk, "%s: %u blocks into %u", sim->name,
		      s->nblk, e->nblk);
		plansim_deliver(r, s, &sim->rk[s->to], e);
		r->sent = 1;
		return 1;
	}
	if (s->from != VCUBE_NONE && !plansim_wait(r, &r->post[r->mine]))
		return 0;
	return 2;
}

/* One move of rank @i, if it can make one: 1 if it did. */
static int plansim_advance(struct plansim *sim, unsigned int i)
{
	struct plansim_rank *r = &sim->rk[i];
	const struct vcube_plan_step *s;
	int ret;

	if (r->at == r->pl->nsteps)
		return 0;
	s = &r->pl->step[r->at];
	if (!r->started) {
		plansim_moves(r, &s->moves);
		r->started = 1;
		r->mine = r->npost;
		if (r->pl->kind == VCUBE_PLAN_STEPWISE &&
		    ((s->op == VCUBE_OP_XCHG && s->from != VCUBE_NONE) ||
		     s->op == VCUBE_OP_POST))
			plansim_post(r, s);
		return 1;
	}
	ret = r->pl->kind == VCUBE_PLAN_POSTED ? plansim_posted(sim, i, s) :
						 plansim_stepwise(sim, i, s);
	if (ret < 2)
		return ret;
	r->at++;
	r->started = r->sent = 0;
	return 1;
}

/*
 * Ready @pl (one plan per rank of @p) to run under @name: every block 0,
 * a POSTED plan's receives posted.
 */
static void plansim_start(struct plansim *sim, const char *name,
			  const struct vcube_plan *pl, unsigned int p)
{
	unsigned int i, k, nb;

	*sim = (struct plansim){ .name = name, .p = p };
	sim->rk = calloc(p, sizeof(*sim->rk));
	for (i = 0; i < p; i++) {
		struct plansim_rank *r = &sim->rk[i];

		nb = pl[i].nsend + pl[i].nrecv + pl[i].nscratch;
		r->pl = &pl[i];
		r->heard = i < 64 ? 1ULL << i : 0;
		r->val = calloc(nb + 1, sizeof(*r->val));
		r->writes = calloc(nb + 1, sizeof(*r->writes));
		r->post = calloc(pl[i].nposts + pl[i].nsteps + 1,
				 sizeof(*r->post));
		if (pl[i].kind != VCUBE_PLAN_POSTED)
			continue;
		for (k = 0; k < pl[i].nposts; k++)
			r->post[r->npost++] = (struct plansim_recv){
				.from = pl[i].post[k].from,
				.tag = pl[i].post[k].tag,
				.stag = pl[i].post[k].stag,
				.rblk = pl[i].post[k].rblk,
				.nblk = pl[i].post[k].nblk,
			};
	}
}

/*
 * Run every rank's plan to the end, its init moves first, its final moves
 * last; check that every rank finishes, every receive posted is filled
 * and none is left posted (a POSTED plan's are drained at its end). 0, or
 * -EDEADLK if some rank did not finish.
 */
static int plansim_run(struct plansim *sim)
{
	unsigned int i, k, p = sim->p, done = 0;
	int moved = 1;

	for (i = 0; i < p; i++)
		plansim_moves(&sim->rk[i], &sim->rk[i].pl->init);
	while (moved)
		for (moved = 0, i = 0; i < p; i++)
			while (plansim_advance(sim, i))
				moved = 1;
	for (i = 0; i < p; i++) {
		struct plansim_rank *r = &sim->rk[i];

		done += r->at == r->pl->nsteps;
		plansim_moves(r, &r->pl->fin);
		for (k = 0; k < r->npost; k++) {
			CHECK(r->post[k].filled,
			      "%s p=%u: %u's receive %u never filled",
			      sim->name, p, i, k);
			if (r->pl->kind == VCUBE_PLAN_POSTED)
				plansim_wait(r, &r->post[k]);
		}
		CHECK(!plansim_find(r, VCUBE_NONE, 0, 0),
		      "%s p=%u: rank %u leaves a receive posted", sim->name,
		      p, i);
	}
	CHECK(done == p, "%s p=%u: %u of %u ranks finish (a deadlock)",
	      sim->name, p, done, p);
	return done == p ? 0 : -EDEADLK;
}

static void plansim_end(struct plansim *sim)
{
	unsigned int i;

	for (i = 0; i < sim->p; i++) {
		free(sim->rk[i].val);
		free(sim->rk[i].writes);
		free(sim->rk[i].post);
	}
	free(sim->rk);
	sim->rk = NULL;
}

#endif /* VCUBE_TEST_PLANSIM_H */
