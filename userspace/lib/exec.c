// SPDX-License-Identifier: MIT
/*
 * libvcube: the one executor of plans (plan.h). Virtual times depend on
 * the exact order of operations, so the executor keeps the order the
 * papers' programs had: a POSTED plan posts its receives before its global
 * synchronisation, sends its pairwise synchronisation just before each
 * block and times stable's idle from the previous send; a STEPWISE step
 * posts its receive before its send; copies are charged between a wait and
 * the next send, where the program made them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

struct prun {
	struct vcube_comm *c;
	const struct vcube_plan *pl;
	unsigned int base;
	const uint8_t *sbuf;
	uint8_t *rbuf, *scratch;
	size_t len;
	uint64_t copied;	/* bytes moved, not yet charged */
	uint64_t took;		/* the last POSTED send's time */
	uint64_t *rq, *sq;	/* POSTED: per post, data and sync receives */
	/*
	 * POSTED: rank -> its post (the latest), open addressing over
	 * post_mask + 1 slots (at least twice the posts): a rank's memory
	 * grows with its posts, not with the ranks (vcube-sim runs them all)
	 */
	struct post_slot {
		unsigned int rank1;	/* rank + 1; 0: empty */
		unsigned int k;
	} *post_of;
	unsigned int post_mask;
	struct pend {		/* STEPWISE: receives posted by VCUBE_OP_POST */
		uint64_t rq;	/* 0 once waited for */
		unsigned int from, tag;
	} *pend;
	unsigned int npend, first;	/* posted, the oldest unwaited at first */
};

/* The slot of @rank in post_of: its own, or the empty one it would take. */
static struct post_slot *post_slot(const struct prun *r, unsigned int rank)
{
	unsigned int h = (rank * 2654435761u) & r->post_mask;

	while (r->post_of[h].rank1 && r->post_of[h].rank1 != rank + 1)
		h = (h + 1) & r->post_mask;
	return &r->post_of[h];
}

static const uint8_t *blk_in(const struct prun *r, unsigned int b)
{
	unsigned int ns = r->pl->nsend, nr = r->pl->nrecv;

	if (b < ns)
		return r->sbuf + (size_t)b * r->len;
	if (b < ns + nr)
		return r->rbuf + (size_t)(b - ns) * r->len;
	return r->scratch + (size_t)(b - ns - nr) * r->len;
}

static uint8_t *blk_out(const struct prun *r, unsigned int b)
{
	return (uint8_t *)blk_in(r, b);
}

static void moves(struct prun *r, const struct vcube_plan_range *rg)
{
	const struct vcube_plan_move *m = r->pl->move + rg->first;
	size_t es = vcube_type_size(r->pl->type);
	unsigned int i;

	for (i = 0; i < rg->n; i++, m++) {
		if (m->kind == VCUBE_MOVE_FOLD && r->pl->fold) {
			r->pl->fold(r->pl->fold_ctx, blk_out(r, m->dst),
				    blk_in(r, m->src), r->len);
			continue;
		}
		if (m->kind == VCUBE_MOVE_FOLD) {
			vcube_combine(r->pl->op, r->pl->type, blk_out(r, m->dst),
				      blk_in(r, m->src), es ? r->len / es : 0);
			continue;
		}
		memcpy(blk_out(r, m->dst), blk_in(r, m->src), r->len);
		r->copied += r->len;
	}
}

/* Charge what was copied since the last charge (vcube_node_copy()). */
static int charge(struct prun *r)
{
	uint64_t b = r->copied;

	r->copied = 0;
	return b ? r->c->tp->copy(r->c->tpx, b) : 0;
}

/* One POSTED send: its pairwise sync, the blocks, and how long it took. */
static int posted_send(struct prun *r, const struct vcube_plan_step *s)
{
	const struct vcube_transport *tp = r->c->tp;
	void *n = r->c->tpx;
	unsigned int k = post_slot(r, s->to)->k;
	uint64_t t0, t1;
	int ret = 0;

	if (s->stag != VCUBE_NONE) {
		ret = tp->send(n, s->to, r->base | s->stag, NULL, 0,
			       VCUBE_SEND_FORCED);
		if (!ret)
			ret = tp->wait(n, r->sq[k], NULL);
		r->sq[k] = 0;
	}
	if (!ret)
		ret = tp->clock(n, &t0);
	if (!ret)
		ret = tp->send(n, s->to, r->base | s->tag, blk_in(r, s->sblk),
			       s->nblk * r->len, VCUBE_SEND_FORCED);
	if (!ret && !tp->clock(n, &t1))
		r->took = t1 - t0;
	if (!ret && s->wait) {
		k = post_slot(r, s->from)->k;
		ret = tp->wait(n, r->rq[k], NULL);
		r->rq[k] = 0;
	}
	return ret;
}

static int post_all(struct prun *r)
{
	const struct vcube_transport *tp = r->c->tp;
	const struct vcube_plan_post *e;
	struct post_slot *slot;
	unsigned int k;
	int ret = 0;

	for (k = 0; k < r->pl->nposts && !ret; k++) {
		e = &r->pl->post[k];
		slot = post_slot(r, e->from);
		slot->rank1 = e->from + 1;
		slot->k = k;
		ret = tp->irecv(r->c->tpx, e->from, r->base | e->tag,
				blk_out(r, e->rblk), e->nblk * r->len,
				&r->rq[k]);
		if (!ret && e->stag != VCUBE_NONE)
			ret = tp->irecv(r->c->tpx, e->from, r->base | e->stag,
					NULL, 0, &r->sq[k]);
	}
	return ret;
}

/* Wait for everything still posted, even after an error: nothing leaks. */
static int drain(struct prun *r, int ret)
{
	const struct vcube_transport *tp = r->c->tp;
	unsigned int k;
	size_t got;
	int w;

	for (k = 0; k < r->pl->nposts; k++) {
		if (r->rq[k]) {
			w = tp->wait(r->c->tpx, r->rq[k], &got);
			if (!w && got != r->pl->post[k].nblk * r->len)
				w = -EPROTO;
			if (!ret)
				ret = w;
		}
		if (r->sq[k]) {
			w = tp->wait(r->c->tpx, r->sq[k], NULL);
			if (!ret)
				ret = w;
		}
	}
	for (k = r->first; k < r->npend; k++) {
		if (!r->pend[k].rq)
			continue;
		w = tp->wait(r->c->tpx, r->pend[k].rq, NULL);
		if (!ret)
			ret = w;
	}
	return ret;
}

/*
 * A VCUBE_OP_WAIT step: wait for the oldest receive posted from its rank
 * with its tag (any, for VCUBE_NONE). Plans wait in posting order but for
 * a few (rds), so the search is short.
 */
static int wait_posted(struct prun *r, const struct vcube_plan_step *s)
{
	struct pend *e = NULL;
	unsigned int k;
	int ret;

	for (k = r->first; k < r->npend; k++) {
		e = &r->pend[k];
		if (e->rq && (s->from == VCUBE_NONE ||
			      (e->from == s->from && e->tag == s->tag)))
			break;
	}
	if (k == r->npend)
		return -EINVAL;
	ret = r->c->tp->wait(r->c->tpx, e->rq, NULL);
	e->rq = 0;
	while (r->first < r->npend && !r->pend[r->first].rq)
		r->first++;
	return ret;
}

/* vcube_comm_mark_steps(): "<plan> <what> <k>" (k 0: none) begins. */
static int mark(struct prun *r, const char *what, unsigned int k)
{
	char label[64];

	if (!r->c->mark_steps || !r->c->tp->mark)
		return 0;
	if (k)
		snprintf(label, sizeof(label), "%.18s %s %u",
			 r->pl->name ? r->pl->name : "plan", what, k);
	else
		snprintf(label, sizeof(label), "%.18s %s",
			 r->pl->name ? r->pl->name : "plan", what);
	label[VCUBE_MARK_LEN - 1] = '\0';	/* the longest a mark takes */
	return r->c->tp->mark(r->c->tpx, label);
}

static int run_step(struct prun *r, const struct vcube_plan_step *s,
		    uint64_t idle_ns)
{
	int ret;

	moves(r, &s->moves);
	ret = charge(r);
	if (!ret && s->pre == VCUBE_PLAN_IDLE)
		ret = r->c->tp->delay(r->c->tpx, idle_ns ? idle_ns : r->took);
	if (!ret && s->pre == VCUBE_PLAN_DELAY)
		ret = r->c->tp->delay(r->c->tpx, s->ns);
	if (ret)
		return ret;
	if (r->pl->kind == VCUBE_PLAN_POSTED) {
		if (s->to != VCUBE_NONE)
			ret = posted_send(r, s);
	} else if (s->op == VCUBE_OP_POST) {
		r->pend[r->npend] = (struct pend){ 0, s->from, s->tag };
		ret = r->c->tp->irecv(r->c->tpx, s->from, r->base | s->tag,
				      blk_out(r, s->rblk), s->nblk * r->len,
				      &r->pend[r->npend].rq);
		r->npend += !ret;
	} else if (s->op == VCUBE_OP_WAIT) {
		ret = wait_posted(r, s);
	} else if (s->to == VCUBE_NONE && s->from != VCUBE_NONE) {
		/* a receive alone blocks, as CMMD_receive_block did */
		ret = r->c->tp->recv(r->c->tpx, s->from, r->base | s->tag,
				     blk_out(r, s->rblk), s->nblk * r->len);
	} else {
		ret = vcube_comm_step(r->c, r->base | s->tag, s->to,
				      s->to == VCUBE_NONE ? NULL :
				      blk_in(r, s->sblk), s->nblk * r->len,
				      s->from, s->from == VCUBE_NONE ? NULL :
				      blk_out(r, s->rblk), s->nblk * r->len, 0);
	}
	return ret;
}

/*
 * A POSTED plan's global synchronisation: the dissemination barrier
 * (plan/mpi.c), planned and run here as vcube_sync_run() runs it (under a
 * fresh tag base, its steps marked "dissemination step k"); one rank has
 * nothing to wait for.
 */
static int barrier(struct vcube_comm *c)
{
	struct vcube_plan_args a = {
		.me = c->rank, .p = c->size,
		.rows = c->info.rows, .cols = c->info.cols,
	};
	struct vcube_plan pl = { 0 };
	static uint8_t none;
	int ret;

	if (c->size == 1)
		return 0;
	ret = vcube_plan_dissemination(&a, &pl);
	pl.name = "dissemination";
	if (!ret)
		ret = vcube_plan_run(c, &pl, vcube_comm_tag_base(c), &none,
				     &none, 0, 0);
	vcube_plan_free(&pl);
	return ret;
}

int vcube_plan_run(struct vcube_comm *c, const struct vcube_plan *pl,
		   unsigned int base, const uint8_t *sbuf, uint8_t *rbuf,
		   size_t len, uint64_t idle_ns)
{
	struct prun r = {
		.c = c, .pl = pl, .base = base, .sbuf = sbuf, .rbuf = rbuf,
		.len = len,
	};
	unsigned int k, slots = 2;
	int ret = 0;

	if (!c || !pl || !sbuf || !rbuf || pl->p != c->size)
		return -EINVAL;
	while (slots < 2 * pl->nposts && slots < 2u * pl->p)
		slots *= 2;
	r.post_mask = slots - 1;
	r.scratch = malloc((size_t)pl->nscratch * len + 1);
	r.rq = calloc(2 * (size_t)pl->nposts + 1, sizeof(*r.rq));
	r.post_of = calloc(slots, sizeof(*r.post_of));
	r.pend = calloc((size_t)pl->nsteps + 1, sizeof(*r.pend));
	if (!r.scratch || !r.rq || !r.post_of || !r.pend) {
		ret = -ENOMEM;
		goto out;
	}
	r.sq = r.rq + pl->nposts;
	moves(&r, &pl->init);
	if (pl->kind == VCUBE_PLAN_POSTED) {
		ret = mark(&r, "post", 0);
		ret = ret ?: post_all(&r);
		ret = ret ?: charge(&r);
		ret = ret ?: barrier(c);
	}
	for (k = 0; k < pl->nsteps && !ret; k++) {
		ret = mark(&r, "step", k + 1);
		ret = ret ?: run_step(&r, &pl->step[k], idle_ns);
	}
	if (!ret) {
		moves(&r, &pl->fin);
		ret = charge(&r);
	}
	ret = drain(&r, ret);
out:
	free(r.scratch);
	free(r.rq);
	free(r.post_of);
	free(r.pend);
	return ret;
}

/*
 * A STEPWISE plan run across calls (a nonblocking collective). A step is
 * issued whole (its moves, its delay, its receive posted and its send
 * started), then settled: its requests, tested or waited for, in the
 * order they were made. The next step is issued only once this one is
 * settled, where the blocking run would have returned from its wait, so a
 * rank that progresses its run without pause follows the blocking run's
 * order; its times differ only by the send that no longer blocks.
 */
struct vcube_plan_run {
	struct prun r;
	struct vcube_plan pl;		/* the run's own */
	unsigned int k;			/* the next step to issue */
	struct {
		uint64_t rq;
		size_t want;		/* a receive's bytes; SIZE_MAX: any */
	} out[2];
	unsigned int nout, first_out;	/* the step's requests, unsettled */
	int err;
	bool done;
};

/* Settle the step's requests, in order: 1 all, 0 not yet, or -errno. */
static int settle(struct vcube_plan_run *run, bool block)
{
	const struct vcube_transport *tp = run->r.c->tp;
	void *n = run->r.c->tpx;
	size_t got;
	int ret;

	while (run->first_out < run->nout) {
		uint64_t rq = run->out[run->first_out].rq;
		size_t want = run->out[run->first_out].want;

		got = want;
		ret = block ? tp->wait(n, rq, &got) : tp->test(n, rq, &got);
		if (ret == 0 && !block)
			return 0;
		if (ret == 1)
			ret = 0;
		run->out[run->first_out++].rq = 0;
		if (!ret && want != SIZE_MAX && got != want)
			ret = -EPROTO;
		if (ret)
			return ret;
	}
	run->nout = run->first_out = 0;
	return 1;
}

static void out_add(struct vcube_plan_run *run, uint64_t rq, size_t want)
{
	run->out[run->nout].rq = rq;
	run->out[run->nout++].want = want;
}

/* Issue step @s: everything the blocking run does up to its wait. */
static int issue(struct vcube_plan_run *run, const struct vcube_plan_step *s)
{
	struct prun *r = &run->r;
	const struct vcube_transport *tp = r->c->tp;
	size_t n = s->nblk * r->len;
	struct pend *e;
	uint64_t rq;
	int ret;

	moves(r, &s->moves);
	ret = charge(r);
	if (!ret && s->pre == VCUBE_PLAN_IDLE)
		ret = tp->delay(r->c->tpx, r->took);
	if (!ret && s->pre == VCUBE_PLAN_DELAY)
		ret = tp->delay(r->c->tpx, s->ns);
	if (ret)
		return ret;
	if (s->op == VCUBE_OP_POST) {
		r->pend[r->npend] = (struct pend){ 0, s->from, s->tag };
		ret = tp->irecv(r->c->tpx, s->from, r->base | s->tag,
				blk_out(r, s->rblk), n, &r->pend[r->npend].rq);
		r->npend += !ret;
		return ret;
	}
	if (s->op == VCUBE_OP_WAIT) {
		for (e = r->pend + r->first; e < r->pend + r->npend; e++)
			if (e->rq && (s->from == VCUBE_NONE ||
				      (e->from == s->from && e->tag == s->tag)))
				break;
		if (e == r->pend + r->npend)
			return -EINVAL;
		out_add(run, e->rq, SIZE_MAX);
		e->rq = 0;
		while (r->first < r->npend && !r->pend[r->first].rq)
			r->first++;
		return 0;
	}
	if (s->from != VCUBE_NONE) {
		ret = tp->irecv(r->c->tpx, s->from, r->base | s->tag,
				blk_out(r, s->rblk), n, &rq);
		if (ret)
			return ret;
		out_add(run, rq, n);
	}
	if (s->to != VCUBE_NONE) {
		ret = tp->isend(r->c->tpx, s->to, r->base | s->tag,
				blk_in(r, s->sblk), n, 0, &rq);
		if (ret)
			return ret;
		out_add(run, rq, SIZE_MAX);
	}
	return 0;
}

int vcube_plan_start(struct vcube_comm *c, struct vcube_plan *pl,
		     unsigned int base, const uint8_t *sbuf, uint8_t *rbuf,
		     size_t len, struct vcube_plan_run **out)
{
	struct vcube_plan_run *run;
	int ret;

	*out = NULL;
	if (!c || !pl || !sbuf || !rbuf || pl->p != c->size)
		return -EINVAL;
	if (pl->kind != VCUBE_PLAN_STEPWISE || !c->tp->isend || !c->tp->test)
		return -EOPNOTSUPP;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->pl = *pl;
	*pl = (struct vcube_plan){ 0 };
	run->r = (struct prun){
		.c = c, .pl = &run->pl, .base = base, .sbuf = sbuf,
		.rbuf = rbuf, .len = len,
	};
	run->r.scratch = malloc((size_t)run->pl.nscratch * len + 1);
	run->r.pend = calloc((size_t)run->pl.nsteps + 1, sizeof(*run->r.pend));
	if (!run->r.scratch || !run->r.pend) {
		vcube_plan_end(run);
		return -ENOMEM;
	}
	moves(&run->r, &run->pl.init);
	ret = vcube_plan_progress(run, false);
	if (ret < 0) {
		vcube_plan_end(run);
		return ret;
	}
	*out = run;
	return 0;
}

int vcube_plan_progress(struct vcube_plan_run *run, bool block)
{
	int ret;

	if (run->done || run->err)
		return run->err ?: 1;
	for (;;) {
		ret = settle(run, block);
		if (ret == 0)
			return 0;
		if (ret < 0)
			break;
		if (run->k == run->pl.nsteps) {
			moves(&run->r, &run->pl.fin);
			ret = charge(&run->r);
			if (ret)
				break;
			run->done = true;
			return 1;
		}
		ret = mark(&run->r, "step", run->k + 1);
		ret = ret ?: issue(run, &run->pl.step[run->k++]);
		if (ret)
			break;
	}
	run->err = ret;
	return ret;
}

void vcube_plan_end(struct vcube_plan_run *run)
{
	const struct vcube_transport *tp;
	unsigned int k;

	if (!run)
		return;
	tp = run->r.c->tp;
	/* what an error left posted or sent, waited for: nothing leaks */
	for (k = run->first_out; k < run->nout; k++)
		tp->wait(run->r.c->tpx, run->out[k].rq, NULL);
	for (k = run->r.first; run->r.pend && k < run->r.npend; k++)
		if (run->r.pend[k].rq)
			tp->wait(run->r.c->tpx, run->r.pend[k].rq, NULL);
	free(run->r.scratch);
	free(run->r.pend);
	vcube_plan_free(&run->pl);
	free(run);
}
