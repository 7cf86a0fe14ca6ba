// SPDX-License-Identifier: GPL-2.0
/*
 * Matching a message with a receive: posted receives, by what they want,
 * in posting order; whether a node can take a message now (a matching
 * receive, or room in its system buffer) and the system buffer's
 * accounting.
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

/* @r, a receive, is posted at @n: matched in posting order. */
void vc_post(struct vc_engine *e, struct vc_node *n, struct vc_req *r)
{
	r->posted = n->posts++;
	n->nclass += r->want_class;
	list_add_tail(&r->post_link, &n->posted);
	vc_hash_add(&e->posted, &r->by_want,
		    vc_want_hash(e, n->id, r->want_src, r->want_tag));
}

void vc_unpost(struct vc_engine *e, struct vc_req *r)
{
	if (!list_empty(&r->post_link))
		e->node[r->node].nclass -= r->want_class;
	list_del_init(&r->post_link);
	vc_hash_del(&e->posted, &r->by_want);
}

bool vc_matches(const struct vc_req *r, const struct vc_msg *m)
{
	if (r->want_src != VC_ANY && r->want_src != m->src)
		return false;
	if (r->want_class)
		return (m->tag & VC_TAG_CLASS_MASK) == r->want_tag;
	return r->want_tag == VC_ANY || r->want_tag == m->tag;
}

/*
 * The first receive posted at @n that takes @m: of the kinds of receive
 * that can (this source or any; this tag, any tag, or this tag's class
 * when @n has such receives posted), the earliest posted. Each is the
 * first of its key in its chain.
 */
struct vc_req *vc_match_posted(struct vc_engine *e, struct vc_node *n,
			       const struct vc_msg *m)
{
	const u32 cls = m->tag & VC_TAG_CLASS_MASK;
	const u32 src[6] = { m->src, m->src, VC_ANY, VC_ANY, m->src, VC_ANY };
	const u32 tag[6] = { m->tag, VC_ANY, m->tag, VC_ANY, cls, cls };
	struct vc_req *r, *best = NULL;
	u32 i, keys = n->nclass ? 6 : 4;
	u64 hash;

	if (list_empty(&n->posted))
		return NULL;
	for (i = 0; i < keys; i++) {
		hash = vc_want_hash(e, n->id, src[i], tag[i]);
		list_for_each_entry(r, vc_hash_chain(&e->posted, hash),
				    by_want.link) {
			if (r->by_want.hash != hash || r->node != n->id ||
			    r->want_src != src[i] || r->want_tag != tag[i] ||
			    r->want_class != (i >= 4))
				continue;
			if (!best || r->posted < best->posted)
				best = r;
			break;
		}
	}
	return best;
}

/*
 * Can @n take @m now: a posted receive wants it, or the system buffer has
 * room (which is then reserved for it). An unbound node takes anything and
 * discards it on arrival.
 */
void vc_sysbuf_add(struct vc_node *n, u64 len)
{
	n->sysbuf_used += len;
	if (n->sysbuf_used > n->st.sysbuf_peak)
		n->st.sysbuf_peak = n->sysbuf_used;
}

/*
 * @m's destination is gone: unbound, or bound again since @m was sent to
 * the binding before (a message sent to an unbound node goes to whoever
 * binds it first).
 */
bool vc_dst_gone(struct vc_engine *e, const struct vc_msg *m)
{
	const struct vc_node *d = &e->node[m->dst];

	return d->state == VC_UNBOUND || (m->epoch && m->epoch != d->epoch);
}

bool vc_can_accept(struct vc_engine *e, struct vc_node *n,
		   struct vc_msg *m)
{
	if (vc_dst_gone(e, m) || m->reserved || vc_match_posted(e, n, m))
		return true;
	if (!e->p.sysbuf || n->sysbuf_used + m->len > e->p.sysbuf)
		return false;
	vc_sysbuf_add(n, m->len);
	m->reserved = true;
	return true;
}

void vc_unreserve(struct vc_engine *e, struct vc_msg *m)
{
	if (m->reserved) {
		e->node[m->dst].sysbuf_used -= m->len;
		m->reserved = false;
	}
}
