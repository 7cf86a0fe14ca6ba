// SPDX-License-Identifier: GPL-2.0
/*
 * Hash tables of chains that grow with what they hold (struct vc_hash in
 * internal.h): the requests by (node, id), the posted receives by what
 * they want, the handshakes and the headers waiting for flow-control room.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

static u64 vc_mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 vc_hash_of(const struct vc_hash *h, u64 a, u64 b)
{
	return vc_mix(vc_mix(a ^ h->seed) ^ b);
}

int vc_hash_init(struct vc_hash *h, u32 size)
{
	u32 i;

	h->b = vc_alloc_array(size, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	for (i = 0; i < size; i++)
		INIT_LIST_HEAD(&h->b[i]);
	h->mask = size - 1;
	h->count = 0;
	h->seed = vc_random_u64();
	return 0;
}

struct list_head *vc_hash_chain(const struct vc_hash *h, u64 hash)
{
	return &h->b[hash & h->mask];
}

/* Twice the chains, each old one moved in order; kept as is if no memory. */
static void vc_hash_grow(struct vc_hash *h)
{
	u32 size = 2 * (h->mask + 1), i;
	struct list_head *b;
	struct vc_hnode *x;

	if (size > (1U << 24))
		return;
	b = vc_alloc_array(size, sizeof(*b));
	if (!b)
		return;
	for (i = 0; i < size; i++)
		INIT_LIST_HEAD(&b[i]);
	for (i = 0; i <= h->mask; i++) {
		while (!list_empty(&h->b[i])) {
			x = list_first_entry(&h->b[i], struct vc_hnode, link);
			list_move_tail(&x->link, &b[x->hash & (size - 1)]);
		}
	}
	vc_free(h->b);
	h->b = b;
	h->mask = size - 1;
}

void vc_hash_add(struct vc_hash *h, struct vc_hnode *x, u64 hash)
{
	x->hash = hash;
	list_add_tail(&x->link, vc_hash_chain(h, hash));
	if (++h->count > h->mask + 1)
		vc_hash_grow(h);
}

void vc_hash_del(struct vc_hash *h, struct vc_hnode *x)
{
	if (list_empty(&x->link))
		return;
	list_del_init(&x->link);
	h->count--;
}

u64 vc_hs_hash(struct vc_engine *e, u32 dst, u32 src)
{
	return vc_hash_of(&e->hs, dst, src);
}

u64 vc_want_hash(struct vc_engine *e, u32 node, u32 src, u32 tag)
{
	return vc_hash_of(&e->posted, node, (u64)src << 32 | tag);
}
