// SPDX-License-Identifier: MIT
/*
 * libvcube: the one registry of algorithms. Every call that takes an
 * algorithm's name (vcube_xchg_run(), vcube_sync_run(), the collectives,
 * vcube_sched_build()), vcube-bench --list, vcube-sim and the tools'
 * --help read this table; nothing else compares an algorithm's name.
 * Adding an algorithm is a planner (userspace/lib/plan/) and a line here.
 */
#include <errno.h>
#include <string.h>

#include "plan.h"

#define P2	VCUBE_ALGO_POW2
#define GRID	VCUBE_ALGO_GRID
#define FORCED	VCUBE_ALGO_FORCED
#define CNET	VCUBE_ALGO_CNET
#define B91	"Bokhari 1991"
#define P93	"Ponnusamy et al. 1993"
#define T93	"Thakur, Choudhary & Fox 1993"
#define C92	"Chuang & Horie 1992"
#define S92	"Seidel & Davis 1992"
#define MPI	"MPI baseline"

#define XCHG(n, src, sum, needs, fn) \
	{ { n, src, sum, VCUBE_ALGO_XCHG, needs }, .plan = fn }
#define ALGO(kind, n, src, sum, needs, fn) \
	{ { n, src, sum, VCUBE_ALGO_##kind, needs }, .plan = fn }
#define IRREG(n, sum, fn) \
	{ { n, P93, sum, VCUBE_ALGO_IRREGULAR, 0 }, .build = fn }
#define CM5(kind, sum, fn) \
	{ { "cm5_control", P93 " (CM-5)", sum, VCUBE_ALGO_##kind, CNET }, .run = fn }

static const struct vcube_algo_impl algos[] = {
	XCHG("naive", B91, "everyone sends to 0, then to 1, ...", P2 | FORCED, vcube_plan_naive),
	XCHG("linear", B91, "step i: send to rank + i", FORCED, vcube_plan_linear),
	XCHG("pairwise", B91, "step i: send to rank ^ i (no pairwise sync)", P2 | FORCED, vcube_plan_pairwise),
	XCHG("stable", B91, "halves interleaved, one timed idle step", P2 | FORCED, vcube_plan_stable),
	XCHG("pairwise_F", B91, "pairwise with pairwise zero-byte sync", P2 | FORCED, vcube_plan_pairwise_F),
	XCHG("pairwise_U", B91, "pairwise, UNFORCED, no sync", P2, vcube_plan_pairwise_U),
	XCHG("standard_F", B91, "lg p exchanges of p/2 blocks, synchronised", P2 | FORCED, vcube_plan_standard_F),
	XCHG("standard_U", B91, "lg p exchanges of p/2 blocks, UNFORCED", P2, vcube_plan_standard_U),
	XCHG("lex", P93, "step i: everyone sends to rank i", 0, vcube_plan_lex),
	XCHG("pex", P93 ", " T93, "step i: exchange with rank ^ i", 0, vcube_plan_pex),
	XCHG("rex", P93, "recursive halving, p/2 blocks per step", P2, vcube_plan_rex),
	XCHG("bex", P93, "PEX on virtual numbers (rank + 1) mod p", 0, vcube_plan_bex),
	XCHG("pexgen", T93, "PEX on the next power of two, idle steps skipped", 0, vcube_plan_pexgen),
	XCHG("pexgenshift", T93, "PEX-GEN with ranks shifted by (q - p) / 2", 0, vcube_plan_pexgenshift),
	XCHG("gen", T93, "step i: send to rank + i, receive from rank - i", 0, vcube_plan_gen),
	XCHG("bucket", C92, "bucket passing on the crossover, p/2 blocks per phase", P2, vcube_plan_bucket),
	XCHG("torus", C92, "normal torus: east phases, then south", GRID, vcube_plan_torus),
	IRREG("ls", "linear: step i, every rank with data for rank i sends it", vcube_sched_linear),
	IRREG("ps", "pairwise: step i, rank r and r ^ i exchange what they have", vcube_sched_pairwise),
	IRREG("bs", "balanced: PS on virtual numbers (r + 1) mod n", vcube_sched_balanced),
	IRREG("gs", "greedy: each step pairs ranks that still have data, lowest first", vcube_sched_greedy),
	ALGO(SYNC, "gsync", S92 " (Intel NX/2)", "butterfly, highest dimension first, wait for each reply", P2, vcube_plan_gsync),
	ALGO(SYNC, "sync0", S92 " (PICL)", "fold the upper half, butterfly on the lower, unfold", P2, vcube_plan_sync0),
	ALGO(SYNC, "rds", S92, "fan-in to 0, recursive doubling broadcast, busy wait (d-|i|)(b_s-s)", P2 | VCUBE_ALGO_COSTS, vcube_plan_rds),
	ALGO(SYNC, "dissemination", "Hensgen, Finkel & Manber 1988", "ceil(lg p) rounds: to rank + 2^k, from rank - 2^k", 0, vcube_plan_dissemination),
	ALGO(SYNC, "tree", MPI, "binomial fan-in to rank 0 and back out", 0, vcube_plan_barrier_tree),
	CM5(SYNC, "the control network's hardware barrier", vcube_cnet_barrier),
	ALGO(BCAST, "tree", MPI, "binomial tree from the root", 0, vcube_plan_bcast_tree),
	CM5(BCAST, "the control network's broadcast", vcube_cnet_bcast),
	ALGO(REDUCE, "crossover", C92, "lg p phases: to rank + 2^k, from rank - 2^k, combine", P2, vcube_plan_reduce_crossover),
	ALGO(REDUCE, "tree", MPI, "binomial tree to rank 0, then its broadcast", 0, vcube_plan_reduce_tree),
	CM5(REDUCE, "the control network's combine", vcube_cnet_reduce),
	ALGO(SCAN, "doubling", "Hillis & Steele 1986", "lg p phases: to rank + 2^k, fold in rank - 2^k's", 0, vcube_plan_scan_doubling),
	CM5(SCAN, "the control network's parallel prefix", vcube_cnet_reduce),
	ALGO(KERNEL, "butterfly", C92, "lg p phases: exchange with rank ^ 2^k", P2, vcube_plan_kernel_butterfly),
	ALGO(KERNEL, "crossover", C92, "lg p phases: to rank + 2^k, from rank - 2^k", P2, vcube_plan_kernel_crossover),
	ALGO(KERNEL, "torus", C92, "cols phases east, then rows phases south", GRID, vcube_plan_kernel_torus),
	ALGO(SHIFT, "gray", S92, "k places along the binary reflected Gray code ring", P2, vcube_plan_shift),
};

#define NALGOS	(sizeof(algos) / sizeof(algos[0]))

static const char *const kinds[VCUBE_ALGO_NKINDS] = {
	[VCUBE_ALGO_XCHG] = "xchg",
	[VCUBE_ALGO_IRREGULAR] = "irregular",
	[VCUBE_ALGO_SYNC] = "sync",
	[VCUBE_ALGO_BCAST] = "bcast",
	[VCUBE_ALGO_REDUCE] = "reduce",
	[VCUBE_ALGO_SCAN] = "scan",
	[VCUBE_ALGO_KERNEL] = "kernel",
	[VCUBE_ALGO_SHIFT] = "shift",
};

size_t vcube_algo_count(void)
{
	return NALGOS;
}

const struct vcube_algo *vcube_algo_get(size_t i)
{
	return i < NALGOS ? &algos[i].a : NULL;
}

const char *vcube_algo_kind_name(unsigned int kind)
{
	return kind < VCUBE_ALGO_NKINDS ? kinds[kind] : NULL;
}

/* The one place an algorithm's name is compared. */
const struct vcube_algo_impl *vcube_algo_lookup(unsigned int kind,
						const char *name)
{
	size_t i;

	for (i = 0; i < NALGOS; i++)
		if (algos[i].a.kind == kind &&
		    (!name || !strcmp(algos[i].a.name, name)))
			return &algos[i];
	return NULL;
}

int vcube_algo_find(unsigned int kind, const char *name,
		    const struct vcube_algo **algo)
{
	const struct vcube_algo_impl *im;

	if (!name)
		return -EINVAL;
	im = vcube_algo_lookup(kind, name);
	if (!im)
		return -ENOENT;
	if (algo)
		*algo = &im->a;
	return 0;
}

int vcube_algo_fits(const struct vcube_algo_impl *im,
		    const struct vcube_plan_args *a, bool cnet)
{
	unsigned int n = im->a.needs;

	if ((n & P2) && (a->p & (a->p - 1)))
		return -EDOM;
	if ((n & GRID) && (!a->rows || a->rows * a->cols != a->p))
		return -EDOM;
	if ((n & CNET) && !cnet)
		return -EDOM;
	return a->me < a->p ? 0 : -EDOM;
}

int vcube_algo_usable(const struct vcube_comm *comm, unsigned int kind,
		      const char *name)
{
	const struct vcube_algo_impl *im;
	struct vcube_plan_args a;

	if (!comm || !name)
		return -EINVAL;
	im = vcube_algo_lookup(kind, name);
	if (!im)
		return -ENOENT;
	a = (struct vcube_plan_args){ .me = comm->rank, .p = comm->size,
				      .rows = comm->info.rows,
				      .cols = comm->info.cols };
	return vcube_algo_fits(im, &a, comm->cnet);
}

int vcube_algo_plan(unsigned int kind, const char *name,
		    const struct vcube_plan_args *a, struct vcube_plan *pl)
{
	const struct vcube_algo_impl *im = vcube_algo_lookup(kind, name);
	int ret;

	if (!im || !im->plan)
		return -ENOENT;
	ret = vcube_algo_fits(im, a, false);
	return ret ?: im->plan(a, pl);
}

/*
 * @call's plan at the communicator's rank, in *@pl: 0, 1 when the
 * algorithm is the control network's (*@im's run makes it), or -errno.
 */
static int algo_plan(struct vcube_comm *c, struct vcube_algo_call *call,
		     const struct vcube_algo_impl **im, struct vcube_plan *pl)
{
	int ret;

	*im = vcube_algo_lookup(call->kind, call->name);
	if (!*im)
		return -ENOENT;
	call->a.me = c->rank;
	call->a.p = c->size;
	call->a.rows = c->info.rows;
	call->a.cols = c->info.cols;
	ret = vcube_algo_fits(*im, &call->a, c->cnet);
	call->nsteps = 0;
	if (!ret && (*im)->run)
		return 1;
	if (!ret && !(*im)->plan)
		ret = -ENOENT;		/* an irregular one: no plan */
	ret = ret ?: (*im)->plan(&call->a, pl);
	pl->name = (*im)->a.name;
	pl->op = call->op;
	pl->type = call->type;
	pl->fold = call->fold;
	pl->fold_ctx = call->fold_ctx;
	call->nsteps = pl->nsteps;
	return ret;
}

int vcube_algo_run(struct vcube_comm *c, struct vcube_algo_call *call)
{
	const struct vcube_algo_impl *im;
	static uint8_t none;
	struct vcube_plan pl = { 0 };
	int ret;

	ret = algo_plan(c, call, &im, &pl);
	if (ret == 1)
		return im->run(c, call);	/* the control network's */
	if (!ret)
		ret = vcube_plan_run(c, &pl, vcube_comm_tag_base(c),
				     call->sbuf ? call->sbuf : &none,
				     call->rbuf ? call->rbuf : &none, call->len,
				     call->idle_ns);
	vcube_plan_free(&pl);
	return ret;
}

int vcube_algo_start(struct vcube_comm *c, struct vcube_algo_call *call,
		     struct vcube_plan_run **run)
{
	const struct vcube_algo_impl *im;
	static uint8_t none;
	struct vcube_plan pl = { 0 };
	int ret;

	*run = NULL;
	ret = algo_plan(c, call, &im, &pl);
	if (ret == 1)
		ret = -EOPNOTSUPP;	/* one blocking operation */
	if (!ret)
		ret = vcube_plan_start(c, &pl, vcube_comm_tag_base(c),
				       call->sbuf ? call->sbuf : &none,
				       call->rbuf ? call->rbuf : &none,
				       call->len, run);
	vcube_plan_free(&pl);
	return ret;
}
