// SPDX-License-Identifier: MIT
/*
 * libvcube: complete exchange (all-to-all personalized communication), as
 * the five papers implement it. Every rank holds @size blocks of @len bytes
 * in sbuf (block j for rank j) and ends with block i from rank i at rbuf +
 * i * len. Nothing here measures anything: time is the kernel's.
 *
 * This is the registry: every algorithm is a plan (plan.h), made by its
 * paper's planner (userspace/lib/plan/) and run by the one executor
 * (plan.c). The store-and-forward ones (standard_F/U, REX, bucket passing, the normal
 * torus) move blocks in memory between their messages; the executor
 * charges those copies at the machine's copy rate (docs/design.md, "Local
 * copies").
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "plan.h"

/* An algorithm: its description and its planner (a grid's, for GRID). */
struct xchg_impl {
	struct vcube_xchg_algo a;
	vcube_planner plan;
	int (*grid_plan)(unsigned int me, unsigned int rows, unsigned int cols,
			 struct vcube_plan *pl);
};

#define P2	VCUBE_XCHG_POW2
#define GRID	VCUBE_XCHG_GRID
#define FORCED	VCUBE_XCHG_FORCED
#define B91	"Bokhari 1991"
#define P93	"Ponnusamy et al. 1993"
#define T93	"Thakur, Choudhary & Fox 1993"
#define C92	"Chuang & Horie 1992"

static const struct xchg_impl xchg_table[] = {
	{ { "naive", B91, "everyone sends to 0, then to 1, ...", P2 | FORCED }, .plan = vcube_plan_naive },
	{ { "linear", B91, "step i: send to rank + i", FORCED }, .plan = vcube_plan_linear },
	{ { "pairwise", B91, "step i: send to rank ^ i (no pairwise sync)", P2 | FORCED }, .plan = vcube_plan_pairwise },
	{ { "stable", B91, "halves interleaved, one timed idle step", P2 | FORCED }, .plan = vcube_plan_stable },
	{ { "pairwise_F", B91, "pairwise with pairwise zero-byte sync", P2 | FORCED }, .plan = vcube_plan_pairwise_F },
	{ { "pairwise_U", B91, "pairwise, UNFORCED, no sync", P2 }, .plan = vcube_plan_pairwise_U },
	{ { "standard_F", B91, "lg p exchanges of p/2 blocks, synchronised", P2 | FORCED }, .plan = vcube_plan_standard_F },
	{ { "standard_U", B91, "lg p exchanges of p/2 blocks, UNFORCED", P2 }, .plan = vcube_plan_standard_U },
	{ { "lex", P93, "step i: everyone sends to rank i", 0 }, .plan = vcube_plan_lex },
	{ { "pex", P93 ", " T93, "step i: exchange with rank ^ i", 0 }, .plan = vcube_plan_pex },
	{ { "rex", P93, "recursive halving, p/2 blocks per step", P2 }, .plan = vcube_plan_rex },
	{ { "bex", P93, "PEX on virtual numbers (rank + 1) mod p", 0 }, .plan = vcube_plan_bex },
	{ { "pexgen", T93, "PEX on the next power of two, idle steps skipped", 0 }, .plan = vcube_plan_pexgen },
	{ { "pexgenshift", T93, "PEX-GEN with ranks shifted by (q - p) / 2", 0 }, .plan = vcube_plan_pexgenshift },
	{ { "gen", T93, "step i: send to rank + i, receive from rank - i", 0 }, .plan = vcube_plan_gen },
	{ { "bucket", C92, "bucket passing on the crossover, p/2 blocks per phase", P2 }, .plan = vcube_plan_bucket },
	{ { "torus", C92, "normal torus: east phases, then south", GRID }, .grid_plan = vcube_plan_torus },
};

#define NXCHG	(sizeof(xchg_table) / sizeof(xchg_table[0]))

size_t vcube_xchg_count(void)
{
	return NXCHG;
}

const struct vcube_xchg_algo *vcube_xchg_get(size_t i)
{
	return i < NXCHG ? &xchg_table[i].a : NULL;
}

/* The one place an algorithm's name is looked up. */
static const struct xchg_impl *xchg_lookup(const char *name)
{
	size_t i;

	for (i = 0; name && i < NXCHG; i++)
		if (!strcmp(xchg_table[i].a.name, name))
			return &xchg_table[i];
	return NULL;
}

int vcube_xchg_find(const char *name, const struct vcube_xchg_algo **algo)
{
	const struct xchg_impl *im = xchg_lookup(name);

	if (!name)
		return -EINVAL;
	if (!im)
		return -ENOENT;
	if (algo)
		*algo = &im->a;
	return 0;
}

/* 0 if @im runs on @p ranks of a @rows x @cols grid, else -EDOM. */
static int xchg_fits(const struct xchg_impl *im, unsigned int p,
		     unsigned int rows, unsigned int cols)
{
	if ((im->a.needs & P2) && (p & (p - 1)))
		return -EDOM;
	if ((im->a.needs & GRID) && (!rows || rows * cols != p))
		return -EDOM;
	return 0;
}

int vcube_xchg_plan(const char *name, unsigned int me, unsigned int p,
		    unsigned int rows, unsigned int cols,
		    struct vcube_plan *pl)
{
	const struct xchg_impl *im = xchg_lookup(name);
	int ret;

	if (!im)
		return -ENOENT;
	ret = me < p ? xchg_fits(im, p, rows, cols) : -EDOM;
	if (ret)
		return ret;
	if (im->grid_plan)
		return im->grid_plan(me, rows, cols, pl);
	return im->plan(me, p, pl);
}

int vcube_xchg_usable(const struct vcube_comm *comm, const char *name)
{
	const struct xchg_impl *im = xchg_lookup(name);
	const struct vcube_node_info *in;

	if (!name)
		return -EINVAL;
	if (!im)
		return -ENOENT;
	if (!comm)
		return -EINVAL;
	in = vcube_comm_info(comm);
	return xchg_fits(im, comm->size, in->rows, in->cols);
}

int vcube_xchg_run(struct vcube_comm *comm, const char *name,
		   const void *sbuf, void *rbuf, size_t len,
		   const struct vcube_xchg_opts *opts)
{
	const struct vcube_node_info *in;
	struct vcube_plan pl = { 0 };
	int ret;

	if (!comm || !sbuf || !rbuf)
		return -EINVAL;
	ret = vcube_xchg_usable(comm, name);
	if (ret)
		return ret;
	if (len && comm->size > SIZE_MAX / len)
		return -EOVERFLOW;
	in = vcube_comm_info(comm);
	ret = vcube_xchg_plan(name, comm->rank, comm->size, in->rows,
			      in->cols, &pl);
	memcpy((uint8_t *)rbuf + comm->rank * len,
	       (const uint8_t *)sbuf + comm->rank * len, len);
	if (!ret)
		ret = vcube_plan_run(comm, &pl, vcube_comm_tag_base(comm), sbuf,
				     rbuf, len, opts ? opts->idle_ns : 0);
	vcube_plan_free(&pl);
	return ret;
}
