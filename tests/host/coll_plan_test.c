// SPDX-License-Identifier: GPL-2.0
/*
 * The barrier and collective planners (plan/seidel.c, plan/chuang.c,
 * plan/mpi.c), checked without running anything, every one the registry
 * has: the simulator (plansim.h) runs every rank's plan with synchronous
 * sends (a send completes only once its receive is posted, so no plan
 * relies on buffering), a number in each block, folds as sums, and for
 * every rank the set of ranks it has heard from, directly or not (a
 * message carries its sender's set; a receive adds it once waited for).
 * Then: a broadcast leaves the root's value everywhere, a reduction the
 * sum of all at every rank, a scan the prefix sums, a barrier lets no
 * rank out before it has heard from all, a shift and the kernels deliver
 * their partners' blocks, each in the papers' number of phases.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "plansim.h"

#define MAXP	64

/*
 * Plan rank r's part of @name of @kind for every r of @a->p and run them;
 * block 0 starts as @init(r). 0 if every rank finished (each rank's state
 * in @sim).
 */
static int simulate(unsigned int kind, const char *name,
		    struct vcube_plan_args *a, struct plansim *sim,
		    struct vcube_plan *pl, uint64_t (*init)(unsigned int))
{
	unsigned int i;

	for (i = 0; i < a->p; i++) {
		a->me = i;
		CHECK(vcube_algo_plan(kind, name, a, &pl[i]) == 0,
		      "%s p=%u rank %u", name, a->p, i);
	}
	plansim_start(sim, name, pl, a->p);
	for (i = 0; i < a->p; i++)
		sim->rk[i].val[0] = init(i);
	return plansim_run(sim);
}

static void release(struct plansim *sim, struct vcube_plan *pl, unsigned int p)
{
	unsigned int i;

	plansim_end(sim);
	for (i = 0; i < p; i++)
		vcube_plan_free(&pl[i]);
}

static uint64_t bit(unsigned int r)
{
	return 1ULL << r;
}

static uint64_t ident(unsigned int r)
{
	return 1000 + r;
}

/* ceil(lg p) */
static unsigned int lg(unsigned int p)
{
	return vcube_lg(p);
}

/* What one algorithm must leave at rank i of p, and in how many sends. */
static void check_one(const struct vcube_algo_impl *im,
		      struct vcube_plan_args *a, const struct plansim_rank *rk)
{
	const struct vcube_algo *al = &im->a;
	unsigned int p = a->p, i, d = lg(p), pos, k = a->shift;
	uint64_t all = p == 64 ? ~0ULL : bit(p) - 1;

	for (i = 0; i < p; i++) {
		const uint64_t *v = rk[i].val;

		switch (al->kind) {
		case VCUBE_ALGO_SYNC:
			CHECK(rk[i].heard == all, "%s p=%u: rank %u leaves having heard %llx",
			      al->name, p, i, (unsigned long long)rk[i].heard);
			break;
		case VCUBE_ALGO_BCAST:
			CHECK(v[0] == ident(a->root), "%s p=%u root %u: rank %u has %llu",
			      al->name, p, a->root, i, (unsigned long long)v[0]);
			break;
		case VCUBE_ALGO_REDUCE:
			CHECK(v[0] == all, "%s p=%u: rank %u has %llx", al->name, p, i,
			      (unsigned long long)v[0]);
			break;
		case VCUBE_ALGO_SCAN:
			CHECK(v[0] == (i == 63 ? ~0ULL : bit(i + 1) - 1),
			      "%s p=%u: rank %u has %llx", al->name, p, i,
			      (unsigned long long)v[0]);
			break;
		case VCUBE_ALGO_SHIFT:
			pos = vcube_gray_decode(i);
			CHECK(v[1] == ident(vcube_gray_encode((pos + p - k) % p)),
			      "shift %u p=%u: rank %u has %llu", k, p, i,
			      (unsigned long long)v[1]);
			break;
		case VCUBE_ALGO_KERNEL:
			/* one message a phase: lg p, or the grid's sides */
			CHECK(rk[i].msgs == (al->needs & VCUBE_ALGO_GRID ?
					      a->rows + a->cols : d),
			      "%s p=%u: %u phases", al->name, p, rk[i].msgs);
			break;
		}
	}
	/* the papers' message counts, at rank 1 */
	if (p < 2)
		return;
	if (al->kind == VCUBE_ALGO_SYNC && im->plan == vcube_plan_gsync)
		CHECK(rk[1].msgs == d, "gsync p=%u: %u messages", p, rk[1].msgs);
	if (al->kind == VCUBE_ALGO_SYNC && im->plan == vcube_plan_dissemination)
		CHECK(rk[1].msgs == d, "dissemination p=%u: %u rounds", p, rk[1].msgs);
}

/* Every algorithm @al of the registry that is a plan, on @p ranks. */
static unsigned int run_one(const struct vcube_algo_impl *im, unsigned int p,
			    unsigned int rows, unsigned int cols)
{
	static struct vcube_plan pl[MAXP];
	struct plansim sim;
	struct vcube_plan_args a = { .p = p, .rows = rows, .cols = cols,
				     .wait_ns = 1000 };
	uint64_t (*init)(unsigned int) = im->a.kind == VCUBE_ALGO_REDUCE ||
		im->a.kind == VCUBE_ALGO_SCAN ? bit : ident;
	unsigned int n = 0;

	if (vcube_algo_fits(im, &a, false))
		return 0;
	for (a.root = 0; a.root < (im->a.kind == VCUBE_ALGO_BCAST ? p : 1);
	     a.root++)
		for (a.shift = 1; a.shift < (im->a.kind == VCUBE_ALGO_SHIFT ? p : 2);
		     a.shift++) {
			memset(pl, 0, sizeof(pl));
			if (!simulate(im->a.kind, im->a.name, &a, &sim, pl,
				      init))
				check_one(im, &a, sim.rk);
			release(&sim, pl, p);
			n++;
		}
	return n;
}

int main(void)
{
	static const unsigned int grids[][2] = {
		{ 1, 4 }, { 2, 2 }, { 3, 5 }, { 4, 4 }, { 4, 8 }, { 8, 8 },
	};
	unsigned int i, p, g, runs = 0, algos = 0;
	const struct vcube_algo_impl *im;

	for (i = 0; i < vcube_algo_count(); i++) {
		const struct vcube_algo *al = vcube_algo_get(i);

		im = vcube_algo_lookup(al->kind, al->name);
		if (al->kind == VCUBE_ALGO_XCHG || !im->plan)
			continue;	/* plan_test.c; not schedules */
		algos++;
		for (p = 1; p <= MAXP; p++)
			runs += run_one(im, p, 0, 0);
		for (g = 0; g < sizeof(grids) / sizeof(grids[0]); g++)
			runs += run_one(im, grids[g][0] * grids[g][1], grids[g][0],
					grids[g][1]);
	}
	/* 5 barriers, 1 broadcast, 2 reductions, 1 scan, 3 kernels, the shift */
	CHECK(algos == 13, "%u planned collectives", algos);
	CHECK(runs > 1000, "%u runs", runs);
	printf("%u collectives' plans, %u runs\n", algos, runs);
	return check_done("coll_plan");
}
