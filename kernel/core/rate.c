// SPDX-License-Identifier: GPL-2.0
/*
 * The flow modes' rates: bodies that share channels share their
 * bandwidth max-min fairly (progressive filling). vc_rerate() redoes only
 * the bodies a start or an end can move; vc_rate_fresh() schedules bodies
 * that flow at full rate (fixed_rate). With VC_RERATE_CHECK (vcube-sim's
 * check build) every result is compared with a filling from scratch.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

/*
 * fixed_rate: the bodies that began at @t flow at full rate, what
 * progressive filling would give them, since no channel holds more bodies
 * than it has full rates for; the others keep their delivery, which a new
 * rate would not move.
 */
void vc_rate_fresh(struct vc_engine *e, u64 t)
{
	struct vc_xfer *x, *tx;

	list_for_each_entry_safe(x, tx, &e->fresh, flow_link) {
		x->rate = VC_RATE_ONE;
		vc_heap_remove(&e->events, &x->ev);
		vc_schedule(e, &x->ev, t + (x->work + VC_RATE_ONE - 1) /
				       VC_RATE_ONE, VC_EV_DELIVER, x->src);
		list_move_tail(&x->flow_link, &e->flows);
	}
}

static void vc_rheap_down(struct vc_engine *e, u32 i)
{
	struct vc_rkey *h = e->rheap, t;

	for (;;) {
		u32 l = 2 * i + 1, m = i;

		if (l < e->rlen && h[l].key < h[m].key)
			m = l;
		if (l + 1 < e->rlen && h[l + 1].key < h[m].key)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void vc_rheap_pop(struct vc_engine *e)
{
	e->rheap[0] = e->rheap[--e->rlen];
	vc_rheap_down(e, 0);
}

/*
 * The channel atop the heap, with its key brought up to date, or NULL once
 * no channel has a body rising.
 */
static struct vc_res *vc_rheap_top(struct vc_engine *e)
{
	while (e->rlen) {
		struct vc_res *r = &e->chan[e->rheap[0].c];
		u64 key;

		if (!r->nfree) {
			vc_rheap_pop(e);
			continue;
		}
		key = r->lvl + r->rem / r->nfree;
		if (key == e->rheap[0].key)
			return r;
		e->rheap[0].key = key;
		vc_rheap_down(e, 0);
	}
	return NULL;
}

/* Channel @c's flows changed at this instant: its component is redone. */
static void vc_dirty(struct vc_engine *e, u32 c)
{
	if (!e->chan[c].dirty) {
		e->chan[c].dirty = true;
		e->dirty[e->ndirty++] = c;
	}
}

/* @x, flowing from now, on its channels' lists. */
static void vc_flow_link(struct vc_engine *e, struct vc_xfer *x)
{
	u32 i;

	for (i = 0; i < x->nhops; i++) {
		x->hops[i].x = x;
		list_add_tail(&x->hops[i].link, &e->chan[x->chan[i]].flows);
		e->chan[x->chan[i]].nflows++;
		vc_dirty(e, x->chan[i]);
	}
	e->st.refill_visits += x->nhops;
	x->level = U32_MAX;	/* new: above any level */
	x->bneck = U32_MAX;
	x->eidx = VC_NOT_QUEUED;
}

/*
 * @x, just linked: no level lower than the least of its channels' equal
 * shares can be moved by it (a channel of n bodies cannot fill before
 * they all reach bw / n).
 */
static void vc_flow_bound(struct vc_engine *e, struct vc_xfer *x)
{
	u64 share = VC_RATE_ONE;
	u32 i;

	for (i = 0; i < x->nhops; i++) {
		struct vc_res *r = &e->chan[x->chan[i]];

		if (r->bw / r->nflows < share)
			share = r->bw / r->nflows;
	}
	if (share < e->l0)
		e->l0 = share;
}

/*
 * @x, delivered, off its channels' lists: no level lower than its own
 * moves, since none of its channels filled below it.
 */
void vc_flow_unlink(struct vc_engine *e, struct vc_xfer *x)
{
	u32 i;

	for (i = 0; i < x->nhops; i++) {
		list_del(&x->hops[i].link);
		e->chan[x->chan[i]].nflows--;
		vc_dirty(e, x->chan[i]);
	}
	if (x->level < e->l0)
		e->l0 = x->level;
}

/* Bring channel @r, @nfree of its bodies rising, up to level @l. */
static void vc_res_level(struct vc_res *r, u32 l)
{
	r->rem -= (u64)(l - r->lvl) * r->nfree;
	r->lvl = l;
}

static void vc_rheap_up(struct vc_engine *e, u32 i)
{
	struct vc_rkey *h = e->rheap, t;

	while (i && h[i].key < h[(i - 1) / 2].key) {
		t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/*
 * Channel @r joins the filling at level @l: each body through it that has
 * not been reached yet is reached, rising, and expected to freeze at its
 * old level; bodies below @l that were not reached froze where they did,
 * since nothing on their channels has differed below @l.
 */
static void vc_affect(struct vc_engine *e, struct vc_res *r, u32 l,
		      struct list_head *comp)
{
	struct vc_xfer *x;
	struct vc_hop *h;

	r->mark = e->rgen;
	r->fill = U32_MAX;
	r->rem = r->bw;
	r->nfree = 0;
	e->st.refill_visits += r->nflows;
	list_for_each_entry(h, &r->flows, link) {
		x = h->x;
		if (x->mark == e->rgen) {
			if (x->frozen)
				r->rem -= x->new_level;
			else
				r->nfree++;
			continue;
		}
		if (x->level < l) {
			r->rem -= x->level;
			continue;
		}
		x->mark = e->rgen;
		x->frozen = 0;
		list_add_tail(&x->comp_link, comp);
		r->nfree++;
		if (x->level < VC_RATE_ONE &&
		    vc_heap_push(&e->expect, x, x->level, x->flow_seq, 0))
			vc_log("rate queue full, virtual time is no longer exact\n");
	}
	/* none of these filled below l: room for nfree at l */
	r->rem -= (u64)r->nfree * l;
	r->lvl = l;
	if (r->nfree) {
		e->rheap[e->rlen].key = l + r->rem / r->nfree;
		e->rheap[e->rlen].c = r - e->chan;
		vc_rheap_up(e, e->rlen++);
	}
}

/*
 * Body @x, reached and rising, stops at level @l, frozen by channel @by
 * (reached or not: one not reached fills at @l as it did). If that is not
 * where it stopped before, every channel it crosses now differs from @l
 * on and joins the filling first.
 */
static void vc_freeze(struct vc_engine *e, struct vc_xfer *x, u32 l, u32 by,
		      struct list_head *comp)
{
	struct vc_res *r;
	u32 i;

	if (x->level != l)
		for (i = 0; i < x->nhops; i++) {
			r = &e->chan[x->chan[i]];
			if (r->mark != e->rgen)
				vc_affect(e, r, l, comp);
		}
	x->new_level = l;
	x->frozen = 1;
	x->bneck = by;
	for (i = 0; i < x->nhops; i++) {
		r = &e->chan[x->chan[i]];
		if (r->mark != e->rgen)
			continue;
		vc_res_level(r, l);
		r->nfree--;
	}
}

/*
 * Body @x was reached rising and has come to its old level @l. If a channel
 * on its path that the filling has not reached filled at @l, it fills at @l
 * again and freezes @x as before. Otherwise @x rises past its old level:
 * its channels differ from @l on and join the filling.
 */
static void vc_expected(struct vc_engine *e, struct vc_xfer *x, u32 l,
			struct list_head *comp)
{
	struct vc_res *r;
	u32 i, by = U32_MAX;

	if (x->bneck != U32_MAX && e->chan[x->bneck].mark != e->rgen &&
	    e->chan[x->bneck].fill == l)
		by = x->bneck;
	for (i = 0; by == U32_MAX && i < x->nhops; i++) {
		r = &e->chan[x->chan[i]];
		if (r->mark != e->rgen && r->fill == l)
			by = x->chan[i];
	}
	if (by != U32_MAX) {
		vc_freeze(e, x, l, by, comp);
		return;
	}
	for (i = 0; i < x->nhops; i++) {
		r = &e->chan[x->chan[i]];
		if (r->mark != e->rgen)
			vc_affect(e, r, l, comp);
	}
}

#ifdef VC_RERATE_CHECK
/*
 * Host builds with -DVC_RERATE_CHECK (tests/host/sim_times.sh): after each
 * re-rate, progressive filling over every flowing body from level 0, one
 * level at a time, as the engine did before it re-rated only what a change
 * can move; any body whose level differs aborts the run.
 */
static void vc_rerate_check(struct vc_engine *e)
{
	u64 *rem = vc_alloc_array(e->nres, sizeof(*rem));
	u32 *nfree = vc_alloc_array(e->nres, sizeof(*nfree));
	u32 level = 0, inc, left = 0, i, c;
	struct vc_xfer *x;

	if (!rem || !nfree)
		abort();
	list_for_each_entry(x, &e->flows, flow_link) {
		x->new_level = U32_MAX;
		left++;
		for (i = 0; i < x->nhops; i++) {
			rem[x->chan[i]] = e->chan[x->chan[i]].bw;
			nfree[x->chan[i]]++;
		}
	}
	while (left) {
		inc = VC_RATE_ONE - level;
		list_for_each_entry(x, &e->flows, flow_link)
			for (i = 0; x->new_level == U32_MAX && i < x->nhops; i++) {
				c = x->chan[i];
				if (rem[c] / nfree[c] < inc)
					inc = rem[c] / nfree[c];
			}
		level += inc;
		list_for_each_entry(x, &e->flows, flow_link)
			for (i = 0; x->new_level == U32_MAX && i < x->nhops; i++)
				rem[x->chan[i]] -= inc;
		list_for_each_entry(x, &e->flows, flow_link) {
			if (x->new_level != U32_MAX)
				continue;
			if (level == VC_RATE_ONE)
				x->frozen = 2;
			for (i = 0; i < x->nhops && x->frozen != 2; i++)
				if (rem[x->chan[i]] < nfree[x->chan[i]])
					x->frozen = 2;
		}
		list_for_each_entry(x, &e->flows, flow_link) {
			if (x->new_level != U32_MAX || x->frozen != 2)
				continue;
			x->new_level = level;
			x->frozen = 0;
			left--;
			for (i = 0; i < x->nhops; i++)
				nfree[x->chan[i]]--;
		}
	}
	list_for_each_entry(x, &e->flows, flow_link) {
		if (x->new_level != x->level) {
			fprintf(stderr, "vc_rerate: body %u->%u at %llu: level %u, a whole filling gives %u\n",
				x->src, x->dst, (unsigned long long)e->now,
				x->level, x->new_level);
			abort();
		}
		/* what the next filling trusts: its channel fills at its level */
		for (i = 0; i < x->nhops && x->chan[i] != x->bneck; i++)
			;
		if (x->level < VC_RATE_ONE &&
		    (i == x->nhops || e->chan[x->bneck].fill != x->level)) {
			fprintf(stderr, "vc_rerate: body %u->%u at %llu: level %u, its channel %u filled at %u\n",
				x->src, x->dst, (unsigned long long)e->now,
				x->level, x->bneck, x->bneck == U32_MAX ?
				U32_MAX : e->chan[x->bneck].fill);
			abort();
		}
	}
	vc_free(rem);
	vc_free(nfree);
}
#endif

/*
 * Max-min fair rates by progressive filling: all unfrozen bodies rise
 * together until a channel (or bundle) on their path is full or they
 * reach full rate; those freeze, the rest go on. Integer arithmetic only:
 * a channel with rem left and nfree bodies rising fills at level
 * lvl + rem / nfree (rising by k takes k * nfree, and the floor of
 * (rem - k nfree) / nfree is the floor of rem / nfree less k), so a heap
 * of channels by that level gives the next to fill, and each body is
 * frozen once; every channel that fills at a level freezes all its bodies
 * together.
 *
 * Only what a change moves is redone. Below the level l0 (the least of
 * the levels of the bodies that ended and of the equal shares of those
 * that began) the filling goes exactly as it went before, so the channels
 * a body began or ended on join the filling at l0 (vc_affect()), and
 * nothing else yet. A channel the filling has not reached fills where it
 * filled before (its fill), as long as every body through it freezes
 * where it froze before (its level): the filling reaches a channel only
 * when one of its bodies departs from that, at the level it departs at,
 * by freezing below its old level (vc_freeze()) or by rising past it
 * (vc_expected(): no channel left unreached on its path fills there).
 * The bodies a reached channel carries are followed, each expected at its
 * old level in the expect heap; the others keep their rates untouched.
 * The result is the whole network's filling, to the unit (checked against
 * it with -DVC_RERATE_CHECK). A body whose rate stays keeps its delivery
 * (the work left at its rate ends at the same ns), and each delivery's
 * seq is the order its body began in, as it was when every body was
 * rescheduled: the same flows give the same times.
 */

/*
 * vc_rerate()'s start: the bodies that began at this instant join the
 * flows, and the filling reaches them and the channels a start or end
 * changed (l0 the lowest level that can move).
 */
static void vc_rerate_seed(struct vc_engine *e, struct list_head *comp)
{
	struct vc_xfer *x;
	struct vc_res *r;
	u32 i, l;

	list_for_each_entry(x, &e->fresh, flow_link)
		vc_flow_link(e, x);
	list_for_each_entry(x, &e->fresh, flow_link)
		vc_flow_bound(e, x);
	l = e->l0;
	e->l0 = U32_MAX;
	e->rgen++;
	/*
	 * With l0 at full rate nothing can fill below it: the new bodies get
	 * full rate and no other body moves. Otherwise the new bodies are
	 * reached through their channels, but for those that have none.
	 */
	list_for_each_entry(x, &e->fresh, flow_link)
		if (l >= VC_RATE_ONE || !x->nhops) {
			x->frozen = 0;
			list_add_tail(&x->comp_link, comp);
		}
	list_splice_tail_init(&e->fresh, &e->flows);
	e->rlen = 0;
	for (i = 0; i < e->ndirty; i++) {
		r = &e->chan[e->dirty[i]];
		r->dirty = false;
		if (l < VC_RATE_ONE && r->mark != e->rgen)
			vc_affect(e, r, l, comp);
	}
	e->ndirty = 0;
}

/* Every channel that fills at @lc (the top of rheap, @r), then their bodies. */
static void vc_rerate_fill(struct vc_engine *e, struct vc_res *r, u32 lc,
			   struct list_head *comp)
{
	struct vc_hop *h;
	u32 i, n = 0;

	do {
		e->rq[n++] = r;
		vc_rheap_pop(e);
	} while ((r = vc_rheap_top(e)) && e->rheap[0].key == lc);
	for (i = 0; i < n; i++) {
		e->rq[i]->fill = lc;
		list_for_each_entry(h, &e->rq[i]->flows, link)
			if (h->x->mark == e->rgen && !h->x->frozen)
				vc_freeze(e, h->x, lc, e->rq[i] - e->chan, comp);
	}
}

/* vc_rerate()'s end: each body reached takes its new rate, if it moved. */
static void vc_rerate_apply(struct vc_engine *e, u64 t, struct list_head *comp)
{
	struct vc_xfer *x, *tx;

	list_for_each_entry_safe(x, tx, comp, comp_link) {
		u64 done = (t - x->t_rate) * x->rate;
		u32 rate;

		list_del(&x->comp_link);
		x->level = x->frozen ? x->new_level : VC_RATE_ONE;
		if (!x->frozen)
			x->bneck = U32_MAX;
		rate = x->level ? x->level : 1;
		if (rate == x->rate)
			continue;
		e->st.rate_changes++;
		e->st.rate_change_hops += x->nhops;
		x->work -= done < x->work ? done : x->work;
		x->t_rate = t;
		x->rate = rate;
		vc_heap_remove(&e->events, &x->ev);
		vc_schedule_seq(e, &x->ev, t + (x->work + rate - 1) / rate,
				VC_EV_DELIVER, x->src, x->flow_seq);
	}
}

void vc_rerate(struct vc_engine *e, u64 t)
{
	struct vc_xfer *x;
	struct vc_res *r;
	LIST_HEAD(comp);

	vc_rerate_seed(e, &comp);
	/*
	 * The next level: where a channel reached fills, or where a body
	 * reached comes to its old level; channels first, each level.
	 */
	for (;;) {
		u32 lc = U32_MAX, lx = U32_MAX;

		r = vc_rheap_top(e);
		if (r)
			lc = e->rheap[0].key;
		if (e->expect.len)
			lx = e->expect.a[0].k0;
		if (lc >= VC_RATE_ONE && lx >= VC_RATE_ONE)
			break;
		if (lc <= lx) {
			vc_rerate_fill(e, r, lc, &comp);
			continue;
		}
		x = vc_heap_top(&e->expect);
		vc_heap_remove(&e->expect, x);
		if (!x->frozen)
			vc_expected(e, x, lx, &comp);
	}
	e->st.refills++;
	vc_rerate_apply(e, t, &comp);
#ifdef VC_RERATE_CHECK
	vc_rerate_check(e);
#endif
}
