// SPDX-License-Identifier: GPL-2.0
/*
 * A node's program: its states (running, blocked, idle), its place in the
 * running heap, noise that takes CPU time from it (noise_period, jitter),
 * its wakeups, and its requests: made, completed, woken on.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

void vc_set_running(struct vc_engine *e, struct vc_node *n)
{
	if (n->state == VC_RUNNING)
		return;
	n->state = VC_RUNNING;
	e->nrunning++;
	vc_running_push(e, n);	/* room for every node is reserved */
}


void vc_set_blocked(struct vc_engine *e, struct vc_node *n,
		    struct vc_req *req)
{
	vc_unidle(e, n);
	if (n->state == VC_RUNNING) {
		vc_heap_remove(&e->running, n);
		e->nrunning--;
	}
	n->state = VC_BLOCKED;
	n->waiting = req;
	n->blocked_at = n->clock;
	n->wake_status = 0;
}


/* @t, or the end of @n's interrupt in progress at @t. */
u64 vc_noise_resume(struct vc_engine *e, struct vc_node *n, u64 t)
{
	u64 off;

	if (!e->p.noise_period || !e->p.noise_cost || t < n->phase)
		return t;
	off = (t - n->phase) % e->p.noise_period;
	return off < e->p.noise_cost ? t - off + e->p.noise_cost : t;
}

/*
 * When @n, busy from @t, has had @work ns of CPU: interrupts met on the way
 * stretch it, each by noise_cost. Closed form, so any @work costs O(1).
 */
u64 vc_noise_run(struct vc_engine *e, struct vc_node *n, u64 t,
		 u64 work)
{
	u64 per = e->p.noise_period, c = e->p.noise_cost, next, k, rem;

	if (!per || !c)
		return t + work;
	t = vc_noise_resume(e, n, t);
	next = t < n->phase ? n->phase :
	       t - (t - n->phase) % per + per;	/* the next interrupt */
	if (t + work <= next)
		return t + work;
	work -= next - t;
	t = next + c;				/* at an interrupt's end */
	k = work / (per - c);
	rem = work % (per - c);
	if (k && !rem)				/* done as one begins */
		return t + k * per - c;
	return t + k * per + rem;
}

/*
 * A node goes on at @t after a wait, if @t is past its clock. Only such a
 * resumption meets an interrupt: a node whose busy wait ended as one began
 * goes on at that instant, whether or not it had to block first (host
 * timing decides that, never the outcome). Returns whether it moved.
 */
bool vc_resume_at(struct vc_engine *e, struct vc_node *n, u64 t)
{
	if (t <= n->clock)
		return false;
	n->clock = vc_noise_resume(e, n, t);
	return true;
}

/*
 * @n is running and holds time again (its idle lease had run out): what
 * was committed meanwhile is its past, it starts after it.
 */
void vc_unidle(struct vc_engine *e, struct vc_node *n)
{
	if (!n->idle)
		return;
	n->idle = false;
	e->nidle--;
	vc_resume_at(e, n, e->now);
	e->nrunning++;
	vc_running_push(e, n);
	e->gen++;
}

/* @n, bound, makes a call: running, and holding time (see vc_unidle()). */
bool vc_running(struct vc_engine *e, struct vc_node *n)
{
	vc_unidle(e, n);
	return n->state == VC_RUNNING;
}

/* Where @n's first interrupt falls (noise off: 0). */
u64 vc_noise_phase(struct vc_engine *e, u32 node)
{
	return e->node[node].phase;
}

void vc_wake(struct vc_engine *e, struct vc_node *n, u64 t, int status)
{
	if (n->state != VC_BLOCKED)
		return;
	vc_heap_remove(&e->events, &n->tmo);
	vc_resume_at(e, n, t);
	n->waiting = NULL;
	n->wake_status = status;
	vc_set_running(e, n);
	if (e->wake)
		e->wake(e->wake_ctx, n->id);
}

/* @r is done at @t (@m: its message, if any); its node goes on if it waits. */
void vc_complete(struct vc_engine *e, struct vc_req *r,
		 const struct vc_msg *m, u64 t)
{
	struct vc_node *n = &e->node[r->node];

	r->done = true;
	r->done_time = t;
	if (n->state == VC_BLOCKED && n->waiting == r) {
		vc_trace_block(e, n, r, m, t);
		vc_wake(e, n, t, 0);
	}
}

struct vc_req *vc_req_new(struct vc_engine *e, struct vc_node *n,
			  u32 type, u64 user, size_t size)
{
	struct vc_req *r;

	if (n->nreqs >= e->p.max_reqs)
		return NULL;
	r = vc_alloc(size);
	if (!r)
		return NULL;
	r->id = n->next_id++;
	r->type = type;
	r->node = n->id;
	r->user = user;
	INIT_LIST_HEAD(&r->post_link);
	INIT_LIST_HEAD(&r->by_want.link);
	list_add_tail(&r->link, &n->reqs);
	vc_hash_add(&e->reqs, &r->by_id, vc_hash_of(&e->reqs, n->id, r->id));
	n->nreqs++;
	return r;
}
