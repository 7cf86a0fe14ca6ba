// SPDX-License-Identifier: MIT
/*
 * Store-and-forward complete exchanges: lg p phases, each sending p / 2
 * blocks to one partner, which keeps some and forwards the rest. Bokhari's
 * standard exchange (dimension k at phase k), Ponnusamy et al.'s REX
 * (dimension lg p - 1 - k) and Chuang & Horie's bucket passing on the
 * crossover (to rank + 2^k at phase k).
 *
 * Before phase k a rank holds exactly p blocks, each named by its source s
 * and destination d; label() and slot() map between names and the rank's
 * slots, goes() says whether a block leaves at phase k. Sender and receiver
 * enumerate the sender's slots in the same order, so no names travel.
 * Scratch: the slots of this phase (a) and the next (b), the outgoing
 * message, and the incoming one (one per phase when FORCED: every receive
 * is posted first).
 */
#include "plan.h"

struct fwd {
	unsigned int me, p, dd;
	enum vcube_plan_fwd how;
};

static unsigned int dim_at(const struct fwd *f, unsigned int t)
{
	return f->how == VCUBE_FWD_REX ? f->dd - 1 - t : t;
}

static unsigned int fwd_to(const struct fwd *f, unsigned int k)
{
	if (f->how == VCUBE_FWD_BUCKET)
		return (f->me + (1U << k)) % f->p;
	return f->me ^ (1U << dim_at(f, k));
}

static unsigned int fwd_from(const struct fwd *f, unsigned int k)
{
	if (f->how == VCUBE_FWD_BUCKET)
		return (f->me + f->p - (1U << k)) % f->p;
	return fwd_to(f, k);
}

/*
 * The cube (standard, REX): before phase k rank j holds (s, d) with s equal
 * to j outside the dimensions done and d equal to j on them; slot bit
 * D-1-t is s's bit for a dimension done, else d's. Bucket passing: phase k
 * sends the blocks whose offset o = d - s has bit k set; before phase k
 * rank j holds (s, d) with x = j - s < 2^k and o = x mod 2^k, at slot
 * x * (p >> k) + (o >> k).
 */
static void label(const struct fwd *f, unsigned int j, unsigned int k,
		  unsigned int idx, unsigned int *s, unsigned int *d)
{
	unsigned int t, b, bit, w, xo;

	if (f->how == VCUBE_FWD_BUCKET) {
		w = f->p >> k;
		xo = idx / w;
		*s = (j + f->p - xo) % f->p;
		*d = (*s + xo + ((idx % w) << k)) % f->p;
		return;
	}
	*s = j;
	*d = j;
	for (t = 0; t < f->dd; t++) {
		b = 1U << dim_at(f, t);
		bit = idx >> (f->dd - 1 - t) & 1;
		if (t < k)
			*s = (*s & ~b) | (bit ? b : 0);
		else
			*d = (*d & ~b) | (bit ? b : 0);
	}
}

static unsigned int slot(const struct fwd *f, unsigned int j, unsigned int k,
			 unsigned int s, unsigned int d)
{
	unsigned int t, idx = 0, b;

	if (f->how == VCUBE_FWD_BUCKET)
		return ((j + f->p - s) % f->p) * (f->p >> k) +
		       (((d + f->p - s) % f->p) >> k);
	for (t = 0; t < f->dd; t++) {
		b = 1U << dim_at(f, t);
		if ((t < k ? s : d) & b)
			idx |= 1U << (f->dd - 1 - t);
	}
	return idx;
}

static bool goes(const struct fwd *f, unsigned int j, unsigned int k,
		 unsigned int s, unsigned int d)
{
	if (f->how == VCUBE_FWD_BUCKET)
		return ((d + f->p - s) % f->p) >> k & 1;
	return (d & 1U << dim_at(f, k)) != (j & 1U << dim_at(f, k));
}

/* Phase k's shuffle into @b: what stays in @a, and what came into @in. */
static int shuffle(const struct fwd *f, struct vcube_plan *pl,
		   struct vcube_plan_range *r, unsigned int k, unsigned int a,
		   unsigned int b, unsigned int in)
{
	unsigned int idx, m = 0, s, d, from = fwd_from(f, k);
	int ret = 0;

	for (idx = 0; idx < f->p && !ret; idx++) {
		label(f, f->me, k, idx, &s, &d);
		if (!goes(f, f->me, k, s, d))
			ret = vcube_plan_add_move(pl, r,
						  b + slot(f, f->me, k + 1, s, d),
						  a + idx);
	}
	for (idx = 0; idx < f->p && !ret; idx++) {
		label(f, from, k, idx, &s, &d);
		if (goes(f, from, k, s, d))
			ret = vcube_plan_add_move(pl, r,
						  b + slot(f, f->me, k + 1, s, d),
						  in + m++);
	}
	return ret;
}

int vcube_plan_forward(unsigned int me, unsigned int p, enum vcube_plan_fwd how,
		       bool forced, struct vcube_plan *pl)
{
	struct fwd f = { .me = me, .p = p, .dd = vcube_lg(p), .how = how };
	unsigned int k, idx, s, d, m, half = p / 2, a, b, out, in, t;
	struct vcube_plan_range r = { 0 };
	struct vcube_plan_step st = { .nblk = half, .stag = VCUBE_NONE };
	int ret = 0;

	vcube_plan_init(pl, forced ? VCUBE_PLAN_POSTED : VCUBE_PLAN_STEPWISE,
			p);
	a = vcube_plan_scratch(pl, 0);
	b = a + p;
	out = b + p;
	in = out + half;
	pl->nscratch = 2 * p + half + (forced ? f.dd : 1) * half;
	for (d = 0; d < p && !ret; d++)
		ret = vcube_plan_add_move(pl, &pl->init,
					  a + slot(&f, me, 0, me, d), d);
	for (k = 0; forced && k < f.dd && !ret; k++)
		ret = vcube_plan_add_post(pl, &(struct vcube_plan_post){
			.from = fwd_from(&f, k), .tag = 2 * k,
			.stag = 2 * k + 1, .rblk = in + k * half,
			.nblk = half });
	for (k = 0; k < f.dd && !ret; k++) {
		for (idx = 0, m = 0; idx < p && !ret; idx++) {
			label(&f, me, k, idx, &s, &d);
			if (goes(&f, me, k, s, d))
				ret = vcube_plan_add_move(pl, &r, out + m++,
							  a + idx);
		}
		st.to = fwd_to(&f, k);
		st.from = fwd_from(&f, k);
		st.tag = forced ? 2 * k : k;
		st.stag = forced ? 2 * k + 1 : VCUBE_NONE;
		st.sblk = out;
		st.rblk = in;
		st.wait = forced;
		st.moves = r;
		ret = ret ?: vcube_plan_add_step(pl, &st);
		r = (struct vcube_plan_range){ 0 };
		ret = ret ?: shuffle(&f, pl, &r, k, a, b,
				     forced ? in + k * half : in);
		t = a;
		a = b;
		b = t;
	}
	for (idx = 0; idx < p && !ret; idx++) {
		label(&f, me, f.dd, idx, &s, &d);
		ret = vcube_plan_add_move(pl, &r, vcube_plan_rblk(pl, s),
					  a + idx);
	}
	pl->fin = r;
	return ret;
}
