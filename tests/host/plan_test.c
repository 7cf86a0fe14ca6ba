// SPDX-License-Identifier: GPL-2.0
/*
 * The complete-exchange planners (userspace/lib/plan/), checked without
 * running anything: the simulator (plansim.h) carries every block's name
 * (source, destination) through each rank's moves and messages, with
 * every send synchronous (it completes only once its receive is posted,
 * as on the CM-5), so a plan passes only if every rank ends with exactly
 * the blocks meant for it, each written into its slot once, every
 * message matched by tag and no plan relying on buffering to avoid a
 * deadlock. Then the step counts the papers give, and Ponnusamy et al.'s
 * Tables 1 and 3 (PEX and BEX on 8 processors) as printed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "plansim.h"

/* Rank @me of @p's plan of exchange @name, off a grid. */
#define ARGS(m, n)	(&(struct vcube_plan_args){ .me = (m), .p = (n) })

/* A block no rank's data is in. */
#define NOBLK UINT64_MAX

/*
 * Run @pl (one plan per rank) to the end, each rank's block for rank d
 * named s * p + d (s the sender); check every rank ends with the blocks
 * meant for it, each slot written once (the own block at most once: it is
 * copied in before the plan runs).
 */
static void simulate(const char *name, const struct vcube_plan *pl,
		     unsigned int p)
{
	struct plansim sim;
	unsigned int i, j, nb;

	plansim_start(&sim, name, pl, p);
	for (i = 0; i < p; i++) {
		nb = 2 * p + pl[i].nscratch;
		for (j = 0; j < nb; j++)
			sim.rk[i].val[j] = j < p ? i * p + j : NOBLK;
		sim.rk[i].val[p + i] = i * p + i;
	}
	plansim_run(&sim);
	for (i = 0; i < p; i++) {
		const uint64_t *blk = sim.rk[i].val;
		const unsigned int *writes = sim.rk[i].writes + p;

		for (j = 0; j < p; j++) {
			CHECK(blk[p + j] == j * p + i,
			      "%s p=%u: rank %u slot %u holds %lld, not %u -> %u",
			      name, p, i, j, (long long)blk[p + j], j, i);
			CHECK(writes[j] == (j != i) ||
			      (j == i && writes[j] <= 1),
			      "%s p=%u: rank %u slot %u written %u times", name,
			      p, i, j, writes[j]);
		}
	}
	plansim_end(&sim);
}

/* Every rank's plan of exchange @name on @p ranks (@rows x @cols), or NULL. */
static struct vcube_plan *plans_of(const char *name, unsigned int p,
				   unsigned int rows, unsigned int cols)
{
	struct vcube_plan *pl = calloc(p, sizeof(*pl));
	struct vcube_plan_args a = { .p = p, .rows = rows, .cols = cols };
	int ret;

	for (a.me = 0; a.me < p; a.me++) {
		ret = vcube_algo_plan(VCUBE_ALGO_XCHG, name, &a, &pl[a.me]);
		if (ret == -EDOM && a.me == 0) {
			free(pl);
			return NULL;	/* not on this many ranks */
		}
		CHECK(ret == 0, "%s p=%u rank %u", name, p, a.me);
	}
	return pl;
}

static void plans_free(struct vcube_plan *pl, unsigned int p)
{
	unsigned int r;

	for (r = 0; r < p; r++)
		vcube_plan_free(&pl[r]);
	free(pl);
}

static void torus(unsigned int rows, unsigned int cols)
{
	unsigned int p = rows * cols;
	struct vcube_plan *pl = plans_of("torus", p, rows, cols);
	char name[32];

	snprintf(name, sizeof(name), "torus %ux%u", rows, cols);
	CHECK(pl != NULL, "%s", name);
	if (!pl)
		return;
	simulate(name, pl, p);
	/* (cols - 1) + (rows - 1) phases */
	CHECK(pl[0].nsteps == cols - 1 + rows - 1, "%s: %u steps", name, pl[0].nsteps);
	plans_free(pl, p);
}

/* Sends a rank makes, and for POSTED plans its idle steps. */
static unsigned int sends(const struct vcube_plan *pl)
{
	unsigned int k, n = 0;

	for (k = 0; k < pl->nsteps; k++)
		n += pl->step[k].to != VCUBE_NONE;
	return n;
}

static void counts(void)
{
	struct vcube_plan pl = { 0 };
	unsigned int p;

	for (p = 2; p <= 64; p *= 2) {
		/* Bokhari: linear and pairwise n - 1 sends; stable n steps */
		CHECK(vcube_plan_linear(ARGS(1, p), &pl) == 0 && pl.nsteps == p - 1, "linear p=%u", p);
		vcube_plan_free(&pl);
		CHECK(vcube_plan_pairwise_F(ARGS(1, p), &pl) == 0 && pl.nsteps == p - 1 &&
		      pl.step[0].stag != VCUBE_NONE && pl.nposts == p - 1,
		      "pairwise_F p=%u", p);
		vcube_plan_free(&pl);
		/* standard exchange and REX: lg p steps of p / 2 blocks */
		CHECK(vcube_plan_standard_U(ARGS(1, p), &pl) == 0 && pl.nsteps == vcube_lg(p) &&
		      pl.step[0].nblk == p / 2, "standard_U p=%u", p);
		vcube_plan_free(&pl);
		CHECK(vcube_plan_rex(ARGS(1, p), &pl) == 0 && pl.nsteps == vcube_lg(p) &&
		      pl.step[0].to == (1 ^ p / 2), "rex p=%u", p);
		vcube_plan_free(&pl);
		if (p >= 4) {
			CHECK(vcube_plan_stable(ARGS(1, p), &pl) == 0 && pl.nsteps == p &&
			      sends(&pl) == p - 1, "stable p=%u: %u steps", p, pl.nsteps);
			vcube_plan_free(&pl);
		}
		/* Ponnusamy: LEX p steps, at its own the rank takes p - 1 */
		CHECK(vcube_plan_lex(ARGS(0, p), &pl) == 0 && pl.nsteps == 2 * (p - 1) &&
		      sends(&pl) == p - 1, "lex p=%u", p);
		vcube_plan_free(&pl);
	}
	/* Thakur: PEX-GEN takes q - 1 steps where q = 2^ceil(lg p); GEN p - 1 */
	for (p = 3; p <= 40; p++) {
		unsigned int r, maxtag = 0, q = 1U << vcube_lg(p);

		for (r = 0; r < p; r++) {
			CHECK(vcube_plan_pexgen(ARGS(r, p), &pl) == 0, "pexgen");
			if (pl.nsteps && pl.step[pl.nsteps - 1].tag > maxtag)
				maxtag = pl.step[pl.nsteps - 1].tag;
			vcube_plan_free(&pl);
		}
		CHECK(maxtag == q - 1, "pexgen p=%u: last step %u, q - 1 = %u", p, maxtag, q - 1);
		CHECK(vcube_plan_gen(ARGS(0, p), &pl) == 0 && pl.nsteps == p - 1, "gen p=%u", p);
		vcube_plan_free(&pl);
	}
}

/* Ponnusamy et al., Tables 1 and 3: partners of 0..7 at steps 1..7. */
static const unsigned char table1_pex[7][8] = {
	{ 1, 0, 3, 2, 5, 4, 7, 6 }, { 2, 3, 0, 1, 6, 7, 4, 5 },
	{ 3, 2, 1, 0, 7, 6, 5, 4 }, { 4, 5, 6, 7, 0, 1, 2, 3 },
	{ 5, 4, 7, 6, 1, 0, 3, 2 }, { 6, 7, 4, 5, 2, 3, 0, 1 },
	{ 7, 6, 5, 4, 3, 2, 1, 0 },
};

static const unsigned char table3_bex[7][8] = {
	/* 0<->7 1<->2 3<->4 5<->6 | 0<->2 1<->7 3<->5 4<->6 | ... */
	{ 7, 2, 1, 4, 3, 6, 5, 0 }, { 2, 7, 0, 5, 6, 3, 4, 1 },
	{ 1, 0, 7, 6, 5, 4, 3, 2 }, { 4, 5, 6, 7, 0, 1, 2, 3 },
	{ 3, 6, 5, 0, 7, 2, 1, 4 }, { 6, 3, 4, 1, 2, 7, 0, 5 },
	{ 5, 4, 3, 2, 1, 0, 7, 6 },
};

static void tables(const char *name, vcube_planner fn,
		   const unsigned char t[7][8])
{
	struct vcube_plan pl = { 0 };
	unsigned int r, k;

	for (r = 0; r < 8; r++) {
		CHECK(fn(ARGS(r, 8), &pl) == 0 && pl.nsteps == 7, "%s rank %u", name, r);
		for (k = 0; k < pl.nsteps && k < 7; k++)
			CHECK(pl.step[k].tag == k + 1 && pl.step[k].to == t[k][r] &&
			      pl.step[k].from == t[k][r],
			      "%s: step %u, processor %u exchanges with %u, the paper's table %u",
			      name, k + 1, r, pl.step[k].to, t[k][r]);
		vcube_plan_free(&pl);
	}
}

int main(void)
{
	static const unsigned int sizes[] = { 2, 3, 4, 5, 8, 12, 16, 20, 32, 64 };
	static const unsigned int grids[][2] = {
		{ 1, 4 }, { 4, 1 }, { 2, 2 }, { 3, 5 }, { 4, 8 }, { 8, 8 },
	};
	unsigned int i, j, p, n = 0;

	/* every exchange of the registry off a grid, where it runs */
	for (i = 0; i < vcube_algo_count(); i++)
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			const struct vcube_algo *a = vcube_algo_get(i);
			struct vcube_plan *pl;

			p = sizes[j];
			if (a->kind != VCUBE_ALGO_XCHG || (a->needs & VCUBE_ALGO_GRID))
				continue;
			/* stable's halves need two ranks each */
			if (vcube_algo_lookup(a->kind, a->name)->plan == vcube_plan_stable &&
			    p < 4)
				continue;
			pl = plans_of(a->name, p, 0, 0);
			if (!pl)
				continue;
			simulate(a->name, pl, p);
			plans_free(pl, p);
			n++;
		}
	CHECK(n == 123, "%u exchange plans simulated", n);
	for (i = 0; i < sizeof(grids) / sizeof(grids[0]); i++)
		torus(grids[i][0], grids[i][1]);
	counts();
	tables("pex", vcube_plan_pex, table1_pex);
	tables("bex", vcube_plan_bex, table3_bex);
	return check_done("plan");
}
