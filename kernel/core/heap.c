// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's heaps: a d-ary heap whose entries carry a copy of their
 * object's ordering key and write each object's position back into it, so
 * an object is fixed or removed in place; on them the event queue,
 * ordered by (time, kind, node, sequence), and the running nodes by
 * clock, and scheduling an event.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

static u32 *vc_heap_idx(const struct vc_heap *h, void *x)
{
	return (u32 *)((char *)x + h->idx_off);
}

/* Keys compare as (k0, k1, k2), the first that differs deciding. */
static bool vc_hent_less(const struct vc_hent *a, const struct vc_hent *b)
{
	if (a->k0 != b->k0)
		return a->k0 < b->k0;
	if (a->k1 != b->k1)
		return a->k1 < b->k1;
	return a->k2 < b->k2;
}

/*
 * Four children a node: half the levels of a binary heap, and each level's
 * children share a cache line or two. Elements move into a hole, each
 * object's position written once per move. Keys are unique (every event
 * carries a sequence number of its own, every node its id), so the order
 * things come out in is the keys' and no heap shape can change it.
 */
#define VC_HEAP_D	4

static void vc_heap_place(struct vc_heap *h, u32 i, const struct vc_hent *x)
{
	h->a[i] = *x;
	*vc_heap_idx(h, x->x) = i;
}

static void vc_heap_up(struct vc_heap *h, u32 i)
{
	struct vc_hent x = h->a[i];

	while (i) {
		u32 p = (i - 1) / VC_HEAP_D;

		if (!vc_hent_less(&x, &h->a[p]))
			break;
		vc_heap_place(h, i, &h->a[p]);
		i = p;
	}
	vc_heap_place(h, i, &x);
}

static void vc_heap_down(struct vc_heap *h, u32 i)
{
	struct vc_hent x = h->a[i];

	for (;;) {
		u32 c = VC_HEAP_D * i + 1, end = c + VC_HEAP_D, m = c, k;

		if (c >= h->len)
			break;
		if (end > h->len)
			end = h->len;
		for (k = c + 1; k < end; k++)
			if (vc_hent_less(&h->a[k], &h->a[m]))
				m = k;
		if (!vc_hent_less(&h->a[m], &x))
			break;
		vc_heap_place(h, i, &h->a[m]);
		i = m;
	}
	vc_heap_place(h, i, &x);
}

/* The entry at @i has a new key: up if it is below its parent, else down. */
static void vc_heap_sift(struct vc_heap *h, u32 i)
{
	if (i && vc_hent_less(&h->a[i], &h->a[(i - 1) / VC_HEAP_D]))
		vc_heap_up(h, i);
	else
		vc_heap_down(h, i);
}

/* Double the heap's room; the elements keep their positions. */
static int vc_heap_grow(struct vc_heap *h)
{
	u32 cap = h->cap ? 2 * h->cap : 64;
	struct vc_hent *a = vc_alloc_array(cap, sizeof(*a));

	if (!a)
		return -ENOMEM;
	if (h->len)
		memcpy(a, h->a, h->len * sizeof(*a));
	vc_free(h->a);
	h->a = a;
	h->cap = cap;
	return 0;
}

int vc_heap_push(struct vc_heap *h, void *x, u64 k0, u64 k1, u64 k2)
{
	if (h->len == h->cap && vc_heap_grow(h))
		return -ENOMEM;
	h->a[h->len] = (struct vc_hent){ .k0 = k0, .k1 = k1, .k2 = k2, .x = x };
	vc_heap_up(h, h->len++);
	return 0;
}

void vc_heap_remove(struct vc_heap *h, void *x)
{
	u32 i = *vc_heap_idx(h, x);

	if (i == VC_NOT_QUEUED)
		return;
	*vc_heap_idx(h, x) = VC_NOT_QUEUED;
	if (i != --h->len) {
		h->a[i] = h->a[h->len];
		vc_heap_sift(h, i);
	}
}

/* @x's key is now (@k0, @k1, @k2). */
static void vc_heap_fix(struct vc_heap *h, void *x, u64 k0, u64 k1, u64 k2)
{
	u32 i = *vc_heap_idx(h, x);

	h->a[i].k0 = k0;
	h->a[i].k1 = k1;
	h->a[i].k2 = k2;
	vc_heap_sift(h, i);
}

/* The least element, or NULL. */
void *vc_heap_top(const struct vc_heap *h)
{
	return h->len ? h->a[0].x : NULL;
}

/* Events come out by (time, kind, node, seq). */
int vc_event_push(struct vc_engine *e, struct vc_event *ev)
{
	return vc_heap_push(&e->events, ev, ev->time,
			    (u64)ev->kind << 32 | ev->node, ev->seq);
}

/* Running nodes by (clock, id): the first is the one that can act first. */
void vc_running_push(struct vc_engine *e, struct vc_node *n)
{
	vc_heap_push(&e->running, n, n->clock, n->id, 0);
}

/* @n's clock moved while it runs. */
void vc_running_fix(struct vc_engine *e, struct vc_node *n)
{
	vc_heap_fix(&e->running, n, n->clock, n->id, 0);
}

/*
 * Queue an event. The heap only grows here, and growth can fail; vc_send()
 * and vc_recv() reserve room for every event a request can ever have queued
 * at once, so inside the engine this cannot fail.
 */
void vc_schedule_seq(struct vc_engine *e, struct vc_event *ev,
		     u64 time, u32 kind, u32 node, u64 seq)
{
	ev->time = time;
	ev->kind = kind;
	ev->node = node;
	ev->seq = seq;
	if (vc_event_push(e, ev))
		vc_log("event queue full, virtual time is no longer exact\n");
}

void vc_schedule(struct vc_engine *e, struct vc_event *ev, u64 time,
		 u32 kind, u32 node)
{
	vc_schedule_seq(e, ev, time, kind, node, e->seq++);
}

/* Room in the event heap for every object that can have an event queued. */
int vc_reserve_events(struct vc_engine *e)
{
	while (e->nevobj + 1 + e->topo->nodes > e->events.cap)
		if (vc_heap_grow(&e->events))
			return -ENOMEM;
	/* and the filling's, for every transfer that can flow */
	while (e->shared_rate && e->nevobj + 1 > e->expect.cap)
		if (vc_heap_grow(&e->expect))
			return -ENOMEM;
	return 0;
}
