// SPDX-License-Identifier: GPL-2.0
/*
 * The control network (CM-5): reductions, scans, broadcasts and barriers
 * as operations every member enters, done when the last one has, at a
 * cost of the operation's own (engine.h, struct vc_cnet_args).
 *
 * Locking: everything here is the engine's (struct vc_engine and what it
 * points to); its caller holds one lock around every engine call
 * (engine.h), so nothing here takes a lock or sleeps.
 */
#include "internal.h"

static const u8 vc_type_size[VC_NTYPES] = {
	[VC_TYPE_U64] = 8, [VC_TYPE_DOUBLE] = 8, [VC_TYPE_S32] = 4,
};

bool vc_cnet_present(const struct vc_params *p)
{
	return p->cnet_word != 0;
}

/* Virtual ns one operation takes once its last member is in. */
u64 vc_cnet_cost(const struct vc_params *p, const struct vc_cnet_args *a)
{
	switch (a->kind) {
	case VC_CNET_BARRIER:
		return p->cnet_word;
	case VC_CNET_BCAST:
		return p->cnet_bcast + (a->count + 3) / 4 * p->cnet_word;
	default:
		return a->count * (a->type == VC_TYPE_DOUBLE ? p->cnet_double :
				   a->type == VC_TYPE_U64 ? 2 * p->cnet_word :
							    p->cnet_word);
	}
}

int vc_cnet_check(struct vc_engine *e, u32 node, const struct vc_cnet_args *a,
		  u64 *in, u64 *out)
{
	u64 len = 0, hold;

	if (!vc_cnet_present(&e->p))
		return -EOPNOTSUPP;
	if (a->kind >= VC_NCNET || !a->nodes || a->first >= e->topo->nodes ||
	    a->nodes > e->topo->nodes - a->first || node < a->first ||
	    node - a->first >= a->nodes)
		return -EINVAL;
	switch (a->kind) {
	case VC_CNET_BARRIER:
		if (a->op || a->type || a->root || a->count)
			return -EINVAL;
		break;
	case VC_CNET_BCAST:
		if (a->op || a->type || a->root < a->first ||
		    a->root - a->first >= a->nodes)
			return -EINVAL;
		len = a->count;
		break;
	default:
		if (a->type >= VC_NTYPES || a->op >= VC_NOPS || a->root ||
		    (a->type == VC_TYPE_DOUBLE && a->op > VC_OP_MIN))
			return -EINVAL;
		if (a->count > e->p.cnet_max)
			return -EMSGSIZE;
		len = a->count * vc_type_size[a->type];
		break;
	}
	/* What the operation holds: every operand, or the message. */
	hold = a->kind == VC_CNET_BCAST ? len : len * a->nodes;
	if (len > e->p.cnet_max || hold > e->p.cnet_max)
		return -EMSGSIZE;
	*in = a->kind == VC_CNET_BARRIER ? 0 :
	      a->kind == VC_CNET_BCAST ? (node == a->root ? len : 0) : len;
	*out = a->kind == VC_CNET_REDUCE ? hold :
	       a->kind == VC_CNET_SCAN ? len * (node - a->first + 1) :
	       a->kind == VC_CNET_BCAST ? len : 0;
	return 0;
}

/* Operands an operation holds: one per member; the root's message. */
static u32 vc_cnet_nslots(const struct vc_cnet_args *a)
{
	return a->kind == VC_CNET_BARRIER ? 0 :
	       a->kind == VC_CNET_BCAST ? 1 : a->nodes;
}

/* Member @node's operand: NULL if it has none (a broadcast's non-root). */
static void **vc_cnet_slot(struct vc_cnet_op *op, u32 node)
{
	if (op->a.kind == VC_CNET_BCAST)
		return node == op->a.root ? &op->data[0] : NULL;
	return op->a.kind == VC_CNET_BARRIER ? NULL :
	       &op->data[node - op->a.first];
}

/* Member @node leaves before the operation completes: so does its operand. */
static void vc_cnet_drop(struct vc_cnet_op *op, u32 node)
{
	void **slot = vc_cnet_slot(op, node);

	if (slot) {
		vc_free(*slot);
		*slot = NULL;
	}
}

static void vc_cnet_free(struct vc_cnet_op *op)
{
	u32 i;

	if (op->refs)
		return;
	list_del_init(&op->link);
	for (i = 0; i < vc_cnet_nslots(&op->a); i++)
		vc_free(op->data[i]);
	vc_free(op);
}

/* The last member is in: every member leaves at last + the cost. */
static void vc_cnet_complete(struct vc_engine *e, struct vc_cnet_op *op)
{
	u64 cost = vc_cnet_cost(&e->p, &op->a), t = op->last + cost;
	struct vc_req *r;

	if (t >= VC_TIME_MAX)
		t = VC_TIME_MAX - 1;
	list_del_init(&op->link);
	op->done = true;
	e->st.cnet_ops[op->a.kind]++;
	e->st.cnet_bytes += op->a.kind == VC_CNET_BCAST ? op->len :
			    op->len * op->a.nodes;
	e->st.cnet_busy_ns += cost;
	e->gen++;
	list_for_each_entry(r, &op->members, post_link) {
		e->st.cnet_wait_ns += op->last - r->entered;
		vc_complete(e, r, NULL, t);
	}
}

/*
 * The pending operation @a joins (*@opp, NULL if it is the first to
 * enter), or why node @n may not enter it.
 */
static int vc_cnet_join(struct vc_engine *e, struct vc_node *n,
			const struct vc_cnet_args *a, struct vc_cnet_op **opp)
{
	struct vc_cnet_op *op;
	struct vc_req *r;

	*opp = NULL;
	list_for_each_entry(op, &e->cnet_ops, link)
		if (op->a.first == a->first && op->a.nodes == a->nodes) {
			*opp = op;
			break;
		}
	if (*opp && memcmp(&(*opp)->a, a, sizeof(*a)))
		return -EINVAL;	/* the others are in another operation */
	/* a node is in one operation at a time (its own list is bounded) */
	list_for_each_entry(r, &n->reqs, link)
		if (r->type == VC_REQ_CNET && !r->done &&
		    !list_empty(&r->post_link))
			return -EBUSY;
	if (n->nreqs >= e->p.max_reqs)
		return -ENOBUFS;
	return 0;
}

/* A new pending operation @a, its first member yet to enter. */
static struct vc_cnet_op *vc_cnet_op_new(struct vc_engine *e,
					 const struct vc_cnet_args *a)
{
	struct vc_cnet_op *op;

	/* a pointer per member: the partition is at most the nodes */
	op = vc_alloc(sizeof(*op) + vc_cnet_nslots(a) * sizeof(op->data[0]));
	if (!op)
		return NULL;
	op->a = *a;
	op->len = a->kind == VC_CNET_BARRIER ? 0 :
		  a->kind == VC_CNET_BCAST ? a->count :
		  a->count * vc_type_size[a->type];
	INIT_LIST_HEAD(&op->members);
	list_add_tail(&op->link, &e->cnet_ops);
	return op;
}

int vc_cnet_enter(struct vc_engine *e, u32 node, const struct vc_cnet_args *a,
		  void *data, struct vc_req **reqp)
{
	struct vc_node *n = &e->node[node];
	struct vc_cnet_op *op = NULL;
	struct vc_req *r;
	u64 in, out;
	int ret;

	ret = vc_cnet_check(e, node, a, &in, &out);
	if (!ret && !vc_running(e, n))
		ret = -EINVAL;
	if (!ret && n->clock + vc_cnet_cost(&e->p, a) >= VC_TIME_MAX)
		ret = -EOVERFLOW;
	if (!ret)
		ret = vc_cnet_join(e, n, a, &op);
	if (!ret && !op) {
		op = vc_cnet_op_new(e, a);
		if (!op)
			ret = -ENOMEM;
	}
	if (ret)
		goto out_free;
	r = vc_req_new(e, n, VC_REQ_CNET, 0, sizeof(*r));
	if (!r) {
		vc_cnet_free(op);
		ret = -ENOMEM;
		goto out_free;
	}
	/* a node blocks in its operation, so it holds no operand here yet */
	if (in)
		*vc_cnet_slot(op, node) = data;
	else
		vc_free(data);
	r->cnet = op;
	r->entered = n->clock;
	op->refs++;
	if (!op->entered++ || n->clock > op->last)
		op->last = n->clock;
	list_add_tail(&r->post_link, &op->members);
	e->gen++;
	if (op->entered == op->a.nodes)
		vc_cnet_complete(e, op);
	*reqp = r;
	return 0;

out_free:
	vc_free(data);
	return ret;
}

/*
 * Every member leaves a pending operation (a deadlock: none of them can
 * be joined any more), their operands with them. Their requests keep
 * their references until they are freed; the partition is free for a new
 * operation at once.
 */
void vc_cnet_abort(struct vc_engine *e, struct vc_cnet_op *op)
{
	struct vc_req *r, *tmp;

	if (op->done)
		return;
	list_for_each_entry_safe(r, tmp, &op->members, post_link) {
		list_del_init(&r->post_link);
		vc_cnet_drop(op, r->node);
	}
	op->entered = 0;
	list_del_init(&op->link);
	e->gen++;
}

/*
 * A member's request goes: before the operation completes the member
 * leaves it (a signal, its process gone), its operand with it; after a
 * deadlock it has left already.
 */
void vc_cnet_leave(struct vc_engine *e, struct vc_req *r)
{
	struct vc_cnet_op *op = r->cnet;
	struct vc_req *w;

	if (!op->done && !list_empty(&r->post_link)) {
		list_del_init(&r->post_link);
		vc_cnet_drop(op, r->node);
		op->last = 0;
		list_for_each_entry(w, &op->members, post_link)
			if (w->entered > op->last)
				op->last = w->entered;
		if (!--op->entered)
			list_del_init(&op->link);
		e->gen++;
	}
	list_del_init(&r->post_link);
	op->refs--;
	r->cnet = NULL;
	vc_cnet_free(op);
}

struct vc_cnet_op *vc_cnet_take(struct vc_req *r, u32 *pieces, u64 *piece,
				u64 *last)
{
	struct vc_cnet_op *op = r->cnet;
	const struct vc_cnet_args *a = &op->a;

	*last = op->last;
	*piece = op->len;
	*pieces = a->kind == VC_CNET_REDUCE ? a->nodes :
		  a->kind == VC_CNET_SCAN ? r->node - a->first + 1 :
		  a->kind == VC_CNET_BCAST ? 1 : 0;
	op->refs++;
	return op;
}

const void *vc_cnet_piece(const struct vc_cnet_op *op, u32 i)
{
	return op->data[i];
}

void vc_cnet_put(struct vc_cnet_op *op)
{
	op->refs--;
	vc_cnet_free(op);
}
