// SPDX-License-Identifier: MIT
/*
 * libvcube: irregular communication (Ponnusamy et al., sec. 5). A pattern
 * says how many bytes each rank sends each other rank; a scheduler turns it
 * into steps once, and the schedule is run as often as needed:
 *
 *   LS  linear: at step i every rank with data for rank i sends it
 *   PS  pairwise: at step i rank r and rank r ^ i exchange what they have
 *   BS  balanced: PS on virtual numbers (r + 1) mod n
 *   GS  greedy: each step pairs every rank, in rank order, with the
 *       lowest-numbered rank it still has data for (either way) that is
 *       free in this step
 *
 * Steps in which nobody communicates are dropped. Building a schedule is
 * plain computation, the same at every rank; so is a schedule's plan for
 * one rank. Here are the patterns, the four schedulers (the registry's
 * entries) and that plan; ../sched.c builds a schedule by name and runs it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

int vcube_pattern_create(unsigned int n, struct vcube_pattern **patp)
{
	struct vcube_pattern *p;

	if (!patp || !n || n > 4096)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->bytes = calloc((size_t)n * n, sizeof(*p->bytes));
	if (!p->bytes) {
		free(p);
		return -ENOMEM;
	}
	p->n = n;
	*patp = p;
	return 0;
}

void vcube_pattern_free(struct vcube_pattern *pat)
{
	if (pat)
		free(pat->bytes);
	free(pat);
}

unsigned int vcube_pattern_size(const struct vcube_pattern *pat)
{
	return pat->n;
}

int vcube_pattern_set(struct vcube_pattern *pat, unsigned int src,
		      unsigned int dst, uint32_t bytes)
{
	if (!pat || src >= pat->n || dst >= pat->n || (src == dst && bytes))
		return -EINVAL;
	pat->bytes[(size_t)src * pat->n + dst] = bytes;
	return 0;
}

uint32_t vcube_pattern_get(const struct vcube_pattern *pat, unsigned int src,
			   unsigned int dst)
{
	if (!pat || src >= pat->n || dst >= pat->n)
		return 0;
	return pat->bytes[(size_t)src * pat->n + dst];
}

/* splitmix64: small, seeded, the same everywhere */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Exactly round(density * n (n - 1)) non-zero entries of @bytes each,
 * chosen by a shuffle seeded with @seed. Symmetric: pairs are chosen, and
 * both directions carry data (round(density * n (n - 1) / 2) pairs).
 */
int vcube_pattern_random(struct vcube_pattern *pat, double density,
			 uint32_t bytes, int symmetric, uint64_t seed)
{
	size_t n, cells, want, i, j, *ix;
	uint64_t s = seed;

	if (!pat || density < 0 || density > 1 || !bytes)
		return -EINVAL;
	n = pat->n;
	cells = symmetric ? n * (n - 1) / 2 : n * (n - 1);
	want = (size_t)(density * cells + 0.5);
	ix = malloc((cells + 1) * sizeof(*ix));
	if (!ix)
		return -ENOMEM;
	memset(pat->bytes, 0, n * n * sizeof(*pat->bytes));
	for (i = 0, j = 0; i < n * n; i++)
		if (i / n != i % n && (!symmetric || i / n < i % n))
			ix[j++] = i;
	for (i = 0; i < want; i++) {	/* partial Fisher-Yates */
		size_t k = i + mix(&s) % (cells - i), t = ix[i];

		ix[i] = ix[k];
		ix[k] = t;
		pat->bytes[ix[i]] = bytes;
		if (symmetric)
			pat->bytes[(ix[i] % n) * n + ix[i] / n] = bytes;
	}
	free(ix);
	return 0;
}

/* Every pair (i, j), i != j: a complete exchange of @bytes. */
int vcube_pattern_complete(struct vcube_pattern *pat, uint32_t bytes)
{
	return vcube_pattern_random(pat, 1.0, bytes, 0, 0);
}

static bool talk(const struct vcube_pattern *pat, unsigned int i,
		 unsigned int j)
{
	return pat->bytes[(size_t)i * pat->n + j] ||
	       pat->bytes[(size_t)j * pat->n + i];
}

static int add(struct vcube_sched *s, size_t *cap, unsigned int step,
	       unsigned int src, unsigned int dst)
{
	if (s->nmsgs == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct sched_msg *m = realloc(s->msgs, nc * sizeof(*m));

		if (!m)
			return -ENOMEM;
		s->msgs = m;
		*cap = nc;
	}
	s->msgs[s->nmsgs++] = (struct sched_msg){ step, src, dst };
	if (step + 1 > s->nsteps)
		s->nsteps = step + 1;
	return 0;
}

/* Both directions of the pair (a, b) that carry data, at @step. */
static int add_pair(struct vcube_sched *s, size_t *cap,
		    const struct vcube_pattern *pat, unsigned int step,
		    unsigned int a, unsigned int b)
{
	int ret = 0;

	if (pat->bytes[(size_t)a * pat->n + b])
		ret = add(s, cap, step, a, b);
	if (!ret && pat->bytes[(size_t)b * pat->n + a])
		ret = add(s, cap, step, b, a);
	return ret;
}

int vcube_sched_linear(struct vcube_sched *s, size_t *cap,
		       const struct vcube_pattern *pat)
{
	unsigned int i, j, step = 0;
	int ret = 0;
	bool any;

	for (i = 0; i < pat->n && !ret; i++) {
		for (j = 0, any = false; j < pat->n && !ret; j++)
			if (pat->bytes[(size_t)j * pat->n + i]) {
				ret = add(s, cap, step, j, i);
				any = true;
			}
		step += any;
	}
	return ret;
}

static int build_pairwise(struct vcube_sched *s, size_t *cap,
			  const struct vcube_pattern *pat, bool balanced)
{
	unsigned int n = pat->n, q = 1, i, r, v, w, a, b, step = 0;
	int ret = 0;
	bool any;

	while (q < n)
		q *= 2;
	for (i = 1; i < q && !ret; i++) {
		any = false;
		for (r = 0; r < n && !ret; r++) {
			v = balanced ? (r + 1) % n : r;
			w = v ^ i;
			if (w >= n || w < v)
				continue;
			a = balanced ? (v + n - 1) % n : v;
			b = balanced ? (w + n - 1) % n : w;
			if (talk(pat, a, b)) {
				ret = add_pair(s, cap, pat, step, a, b);
				any = true;
			}
		}
		step += any;
	}
	return ret;
}

int vcube_sched_greedy(struct vcube_sched *s, size_t *cap,
		       const struct vcube_pattern *pat)
{
	unsigned int n = pat->n, i, j, step;
	uint8_t *done = calloc((size_t)n * n, 1);
	unsigned int *busy = malloc(n * sizeof(*busy));
	size_t left = 0;
	int ret = 0;

	if (!done || !busy) {
		free(done);
		free(busy);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			left += talk(pat, i, j);
	for (step = 0; left && !ret; step++) {
		for (i = 0; i < n; i++)
			busy[i] = 0;
		for (i = 0; i < n && !ret; i++) {
			if (busy[i])
				continue;
			for (j = 0; j < n; j++)
				if (j != i && !busy[j] && !done[(size_t)i * n + j] &&
				    talk(pat, i, j))
					break;
			if (j == n)
				continue;
			busy[i] = busy[j] = 1;
			done[(size_t)i * n + j] = done[(size_t)j * n + i] = 1;
			left--;
			ret = add_pair(s, cap, pat, step, i, j);
		}
	}
	free(done);
	free(busy);
	return ret;
}

int vcube_sched_pairwise(struct vcube_sched *s, size_t *cap,
			 const struct vcube_pattern *pat)
{
	return build_pairwise(s, cap, pat, false);
}

int vcube_sched_balanced(struct vcube_sched *s, size_t *cap,
			 const struct vcube_pattern *pat)
{
	return build_pairwise(s, cap, pat, true);
}

/* Append one step of an irregular plan (blocks are bytes). */
static int sched_step(struct vcube_plan *pl, enum vcube_plan_op op,
		      unsigned int to, unsigned int from, unsigned int tag,
		      size_t sblk, size_t rblk, size_t n)
{
	struct vcube_plan_step st = {
		.to = to, .from = from, .tag = tag, .stag = VCUBE_NONE,
		.sblk = (unsigned int)sblk, .rblk = (unsigned int)rblk,
		.nblk = (unsigned int)n, .op = op,
	};

	return vcube_plan_add_step(pl, &st);
}

/*
 * @sched for @pat at rank @me as a plan of bytes, @soff/@roff each peer's
 * offset in the send and receive buffers. Per step: post the receives,
 * send (UNFORCED, blocking), wait for the receives; a rank with nothing
 * to send in a step takes its messages one at a time, in the schedule's
 * order (a blocking receive each, as LS's receiver on the CM-5).
 */
int vcube_plan_sched(const struct vcube_sched *sched,
		     const struct vcube_pattern *pat, unsigned int me,
		     const size_t *soff, const size_t *roff,
		     struct vcube_plan *pl)
{
	unsigned int n = pat->n, step, tag;
	size_t k, k0, nr;
	bool sends;
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, n);
	pl->name = "sched";		/* its steps' marks: "sched step k" */
	pl->nsend = (unsigned int)soff[n];
	pl->nrecv = (unsigned int)(roff[n - 1] + pat->bytes[(size_t)(n - 1) * n + me]);
	for (k0 = 0; k0 < sched->nmsgs && !ret; k0 = k) {
		step = sched->msgs[k0].step;
		tag = step & 0xffff;
		sends = false;
		for (k = k0; k < sched->nmsgs && sched->msgs[k].step == step; k++)
			sends |= sched->msgs[k].src == me;
		for (k = k0, nr = 0; k < sched->nmsgs &&
		     sched->msgs[k].step == step && !ret; k++) {
			const struct sched_msg *m = &sched->msgs[k];

			if (m->dst != me)
				continue;
			ret = sched_step(pl, sends ? VCUBE_OP_POST : VCUBE_OP_XCHG,
					 VCUBE_NONE, m->src, tag, 0,
					 pl->nsend + roff[m->src],
					 pat->bytes[(size_t)m->src * n + me]);
			nr++;
		}
		for (k = k0; k < sched->nmsgs && sched->msgs[k].step == step &&
		     !ret; k++)
			if (sched->msgs[k].src == me)
				ret = sched_step(pl, VCUBE_OP_XCHG,
						 sched->msgs[k].dst, VCUBE_NONE,
						 tag, soff[sched->msgs[k].dst], 0,
						 pat->bytes[(size_t)me * n +
							    sched->msgs[k].dst]);
		for (; sends && nr && !ret; nr--)
			ret = sched_step(pl, VCUBE_OP_WAIT, VCUBE_NONE,
					 VCUBE_NONE, tag, 0, 0, 0);
		while (k < sched->nmsgs && sched->msgs[k].step == step)
			k++;
	}
	return ret;
}
