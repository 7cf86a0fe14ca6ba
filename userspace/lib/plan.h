/* SPDX-License-Identifier: MIT */
/*
 * The files of libvcube (userspace/lib), bottom to top. Each calls only
 * files above it in this list, never one below or beside it, so no two
 * call each other. Anyone can check that no circle is left, after make:
 *   scripts/deps-graph.py $(find build/userspace/lib -name '*.o')
 * (tests/host/layout.sh runs it).
 *
 *   ops.c            element types and operators, the Gray code: arithmetic
 *   plan.c           building plans: the arrays every planner fills
 *   plan/patterns.c  the butterfly and the crossover, which planners share
 *   plan/thakur.c    pexgen, pexgenshift, gen; pairwise exchange on
 *                    virtual numbers, which plan/ponnusamy.c reuses
 *   plan/forward.c   store-and-forward over lg p phases (standard, REX,
 *                    bucket)
 *   plan/bokhari.c plan/ponnusamy.c plan/chuang.c plan/seidel.c plan/mpi.c
 *                    the planners, one file per paper, and MPI's baselines
 *   plan/irregular.c patterns, the four irregular schedulers, a schedule's
 *                    plan
 *   place.c          node lists and the job's placement (place.h)
 *   node.c           a node handle: open, close, what it is, the environment,
 *                    its placement's translation of ranks to nodes
 *   msg.c            the node's ioctls: messages, clock, delay, copies,
 *                    marks, the control network
 *   sysfs.c nl.c     the network as sysfs and generic netlink describe it
 *   transport.c      the device as a transport (transport.h)
 *   comm.c           the communicator: its transport, tags, one step
 *   exec.c           the executor: runs a plan, with its own barrier plan
 *                    (plan/mpi.c's dissemination) for a POSTED plan
 *   cnet.c           the control network's algorithms, one operation each
 *                    of the communicator's transport
 *   algo.c           the registry: every algorithm's planner, scheduler or
 *                    control-network operation; plans and runs them
 *   xchg.c sched.c coll.c
 *                    the calls that take an algorithm's name
 *   sync.c           barriers by name, the measured costs (whose constants
 *                    coll.c's broadcast hands out)
 *   fft.c ge.c       the applications, over xchg.c and coll.c
 *
 * libvcube internals: a complete exchange as data. A planner is a pure
 * function of (rank, size[, grid]) that says, for one rank, what happens in
 * which order; vcube_plan_run() (exec.c) is the one place that posts,
 * synchronises, sends, waits, copies and charges the copies for every
 * plan. Planners do no I/O, so the host tests check every plan (each block
 * delivered once, the papers' step counts and schedules) without running
 * anything.
 *
 * Blocks are numbered in one space: 0 .. nsend-1 the send buffer (block j
 * for rank j; never written), nsend .. nsend+nrecv-1 the receive buffer
 * (rank i's block at nsend + i), then the plan's scratch (nscratch
 * blocks). nsend = nrecv = p but for the irregular schedules, whose blocks
 * are bytes (they run with len = 1). A message is nblk
 * consecutive blocks. A move copies one block; the executor counts every
 * block moved and charges the bytes (the machine's copy rate) before the
 * rank's next synchronisation or send and at its end. A step's moves run
 * before it (after the previous step's receive: a store-and-forward
 * phase's shuffle and the next message's packing), the plan's init moves
 * before anything (a POSTED plan charges them before its global
 * synchronisation), its final moves after the last step.
 *
 * Collectives and barriers are plans too (plan/seidel.c, plan/chuang.c,
 * plan/mpi.c): their blocks are the call's buffers (nsend, nrecv and
 * nscratch set by the planner), and a VCUBE_MOVE_FOLD move combines a
 * received block into another by the plan's op and type; folds are
 * computation, not copies, and are not charged.
 *
 * Two shapes of plan:
 * - VCUBE_PLAN_POSTED (Bokhari's FORCED family): the plan's receives are
 *   posted first, in its order (each with its pairwise-synchronisation
 *   receive when it has a sync tag), then a global synchronisation, then
 *   the steps' FORCED sends in order (each after a zero-byte pairwise
 *   synchronisation with its destination when it has a sync tag); a step
 *   may wait for the receive posted from its partner right after its send
 *   (a store-and-forward phase needs it); every other posted receive is
 *   waited for at the end.
 * - VCUBE_PLAN_STEPWISE: each step posts its receive, sends UNFORCED and
 *   waits for the receive (a receive alone is a blocking one, a send alone
 *   returns when the send does), with no synchronisation. A VCUBE_OP_POST
 *   step only posts its receive, a VCUBE_OP_WAIT step waits for the oldest
 *   receive so posted from its @from with its tag (VCUBE_NONE: the oldest
 *   of all; the irregular schedules post a step's receives, send, then
 *   wait). A step with neither rank does only what comes before a send
 *   (its moves, its idle or delay).
 */
#ifndef VCUBE_PLAN_H
#define VCUBE_PLAN_H

#include <stdbool.h>

#include "comm.h"

/* What a planner is given: the rank, the size, and the call's parameters. */
struct vcube_plan_args {
	unsigned int me, p;
	unsigned int rows, cols;	/* the grid, 0 x 0 off one */
	unsigned int root;		/* a broadcast's */
	unsigned int shift;		/* a shift's distance, 1 .. p - 1 */
	uint64_t wait_ns;		/* rds: b_s - s, the wait per level */
};

enum vcube_plan_kind {
	VCUBE_PLAN_POSTED,
	VCUBE_PLAN_STEPWISE,
};

/* What a STEPWISE step does: the exchange, or half of it. */
enum vcube_plan_op {
	VCUBE_OP_XCHG,		/* post the receive, send, wait */
	VCUBE_OP_POST,		/* post the receive, wait later */
	VCUBE_OP_WAIT,		/* wait for the oldest posted one */
};

/* A step's action before its send. */
enum vcube_plan_pre {
	VCUBE_PLAN_NONE,
	VCUBE_PLAN_IDLE,	/* busy-wait as long as a send takes (stable) */
	VCUBE_PLAN_DELAY,	/* busy-wait the step's ns */
};

enum vcube_move_kind {
	VCUBE_MOVE_COPY,	/* dst = src, charged at the copy rate */
	VCUBE_MOVE_FOLD,	/* dst = dst op src, elementwise */
};

struct vcube_plan_move {
	unsigned int dst, src;	/* blocks */
	enum vcube_move_kind kind;
};

/* A receive a POSTED plan posts up front. */
struct vcube_plan_post {
	unsigned int from;
	unsigned int tag;	/* OR-ed into the call's tag base */
	unsigned int stag;	/* its pairwise sync's tag, or VCUBE_NONE */
	unsigned int rblk, nblk;
};

/* A range of the plan's moves. */
struct vcube_plan_range {
	unsigned int first, n;
};

/*
 * One step: its moves, then send blocks sblk .. sblk + nblk - 1 to rank
 * @to and receive rank @from's into rblk ..; either rank may be
 * VCUBE_NONE. In a POSTED plan the receive was posted up front (rblk
 * unused); @wait says to wait for it after the send.
 */
struct vcube_plan_step {
	unsigned int to;
	unsigned int from;
	unsigned int tag;	/* OR-ed into the call's tag base */
	unsigned int stag;	/* POSTED: the pairwise sync's tag, or VCUBE_NONE */
	unsigned int sblk, rblk, nblk;
	enum vcube_plan_pre pre;
	enum vcube_plan_op op;
	bool wait;
	uint64_t ns;		/* VCUBE_PLAN_DELAY's */
	struct vcube_plan_range moves;
};

/*
 * A fold of @len bytes of @v into @acc for types and operators beyond
 * VCUBE_TYPE_* and VCUBE_OP_* (MPI's): acc = acc op v, elementwise.
 */
typedef void (*vcube_fold_fn)(void *ctx, void *acc, const void *v,
			      size_t len);

struct vcube_plan {
	enum vcube_plan_kind kind;
	const char *name;		/* for step marks; NULL: "plan" */
	unsigned int p;			/* ranks */
	unsigned int nsend, nrecv;	/* blocks of the send, receive buffer */
	unsigned int nscratch;		/* scratch blocks */
	unsigned int op, type;		/* VCUBE_OP_*, VCUBE_TYPE_*: folds */
	vcube_fold_fn fold;		/* else this folds (the MPI layer's) */
	void *fold_ctx;
	unsigned int nsteps, scap;
	struct vcube_plan_step *step;
	unsigned int nposts, pcap;
	struct vcube_plan_post *post;
	unsigned int nmoves, mcap;
	struct vcube_plan_move *move;
	struct vcube_plan_range init, fin;
};

/* A planner fills @pl (zeroed) for rank a->me of a->p; 0 or -errno. */
typedef int (*vcube_planner)(const struct vcube_plan_args *a,
			     struct vcube_plan *pl);

/* Building plans (plan.c); each 0 or -ENOMEM. */
void vcube_plan_init(struct vcube_plan *pl, enum vcube_plan_kind kind,
		     unsigned int p);
/* A step of one block each way: send block @to, receive into p + @from. */
int vcube_plan_add(struct vcube_plan *pl, unsigned int to, unsigned int from,
		   unsigned int tag, enum vcube_plan_pre pre);
/* A step as given (its move ranges empty or already filled). */
int vcube_plan_add_step(struct vcube_plan *pl,
			const struct vcube_plan_step *s);
int vcube_plan_add_post(struct vcube_plan *pl,
			const struct vcube_plan_post *post);
/*
 * A move, appended to the range @r: a range's moves must be added one
 * after the other, with no other range's in between.
 */
int vcube_plan_add_move(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int dst, unsigned int src);
/* A fold of block @src into @dst, appended to @r as a move is. */
int vcube_plan_add_fold(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int dst, unsigned int src);
/*
 * A STEPWISE step of one block: send block @sblk to @to and receive from
 * @from into block @rblk (either rank VCUBE_NONE), under @tag, after the
 * moves gathered in *@r (NULL: none), which it empties.
 */
int vcube_plan_add_xfer(struct vcube_plan *pl, struct vcube_plan_range *r,
			unsigned int to, unsigned int sblk, unsigned int from,
			unsigned int rblk, unsigned int tag);
void vcube_plan_free(struct vcube_plan *pl);

/* The first block of rank @i's slot in the receive buffer, of the scratch. */
static inline unsigned int vcube_plan_rblk(const struct vcube_plan *pl,
					   unsigned int i)
{
	return pl->nsend + i;
}

static inline unsigned int vcube_plan_scratch(const struct vcube_plan *pl,
					      unsigned int i)
{
	return pl->nsend + pl->nrecv + i;
}

/*
 * Run @pl at the communicator's rank over blocks of @len bytes, tags from
 * @base. @idle_ns: a VCUBE_PLAN_IDLE step's length, 0 for "as long as this
 * rank's previous send took". After an error every posted receive is
 * still waited for, so nothing is left in the kernel.
 */
int vcube_plan_run(struct vcube_comm *c, const struct vcube_plan *pl,
		   unsigned int base, const uint8_t *sbuf, uint8_t *rbuf,
		   size_t len, uint64_t idle_ns);

/*
 * A STEPWISE plan run across calls (exec.c), as a nonblocking collective
 * runs: started (it takes @pl over and issues what it can), progressed
 * (@block: waits until it is done; else tests, and issues the steps whose
 * receives are in), ended (freed; after an error, what is still posted is
 * waited for). Start: 0 or -errno (-EOPNOTSUPP: a POSTED plan, whose
 * global synchronisation blocks, or a transport without isend and test);
 * progress: 1 done, 0 not yet, or the run's -errno.
 */
struct vcube_plan_run;

int vcube_plan_start(struct vcube_comm *c, struct vcube_plan *pl,
		     unsigned int base, const uint8_t *sbuf, uint8_t *rbuf,
		     size_t len, struct vcube_plan_run **run);
int vcube_plan_progress(struct vcube_plan_run *run, bool block);
void vcube_plan_end(struct vcube_plan_run *run);

/*
 * The registry (algo.c). An entry's planner is NULL when the algorithm is
 * not a schedule: the control network's operations (VCUBE_ALGO_CNET),
 * each one operation of the transport that @run makes (cnet.c), and the
 * irregular schedules, built from a pattern by @build (plan/irregular.c)
 * before they become plans.
 */
struct vcube_sched;
struct vcube_pattern;
struct vcube_algo_call;

struct vcube_algo_impl {
	struct vcube_algo a;
	vcube_planner plan;
	int (*run)(struct vcube_comm *c, struct vcube_algo_call *call);
	int (*build)(struct vcube_sched *s, size_t *cap,
		     const struct vcube_pattern *pat);
};

/* The entry of @kind named @name (NULL: the kind's first), or NULL. */
const struct vcube_algo_impl *vcube_algo_lookup(unsigned int kind,
						const char *name);
/* 0 if @im runs on a->p ranks of an a->rows x a->cols grid, else -EDOM. */
int vcube_algo_fits(const struct vcube_algo_impl *im,
		    const struct vcube_plan_args *a, bool cnet);
/*
 * The plan of registered algorithm @name of @kind for @a: 0, -ENOENT (no
 * such algorithm, or not a schedule), -EDOM (not on this many ranks or
 * this network).
 */
int vcube_algo_plan(unsigned int kind, const char *name,
		    const struct vcube_plan_args *a, struct vcube_plan *pl);

/*
 * One call of a registered algorithm at the communicator's rank: checks
 * that it runs here (-ENOENT, -EDOM), plans it with @a's root, shift and
 * wait_ns (the rank, size and grid are the communicator's) and runs the
 * plan over @sbuf and @rbuf (NULL when len is 0) in blocks of @len bytes,
 * under a fresh tag base; or, a VCUBE_ALGO_CNET algorithm, makes its one
 * operation of the control network over the same buffers. @nsteps: the
 * plan's steps (0: no plan).
 */
struct vcube_algo_call {
	unsigned int kind;
	const char *name;		/* NULL: the kind's first */
	struct vcube_plan_args a;
	unsigned int op, type;		/* folds' */
	vcube_fold_fn fold;		/* or this, with fold_ctx */
	void *fold_ctx;
	const void *sbuf;
	void *rbuf;
	size_t len;
	uint64_t idle_ns;		/* vcube_plan_run()'s */
	unsigned int nsteps;		/* out */
};

int vcube_algo_run(struct vcube_comm *c, struct vcube_algo_call *call);
/*
 * The same call started as a plan run (vcube_plan_start()) and left to
 * the caller to progress: 0 and *@run, or -errno (-EOPNOTSUPP: the
 * control network's, one blocking operation, or a POSTED plan).
 */
int vcube_algo_start(struct vcube_comm *c, struct vcube_algo_call *call,
		     struct vcube_plan_run **run);

/*
 * The control network's algorithms (cnet.c), each one operation of the
 * communicator's transport: the barrier; a reduction or scan (by
 * @call->kind) of @call->len / the type's size elements from @sbuf into
 * @rbuf; a broadcast of @rbuf from rank @call->a.root.
 */
int vcube_cnet_barrier(struct vcube_comm *comm, struct vcube_algo_call *call);
int vcube_cnet_reduce(struct vcube_comm *comm, struct vcube_algo_call *call);
int vcube_cnet_bcast(struct vcube_comm *comm, struct vcube_algo_call *call);

/*
 * The irregular schedules (plan/irregular.c): a pattern, the schedule a
 * scheduler makes of it, and its builders, the registry's entries.
 */
struct vcube_pattern {
	unsigned int n;
	uint32_t *bytes;	/* bytes[i * n + j]: from i to j */
};

struct sched_msg {
	uint32_t step, src, dst;
};

struct vcube_sched {
	unsigned int n;
	unsigned int nsteps;
	size_t nmsgs;
	struct sched_msg *msgs;	/* by step, then as they were scheduled */
};

int vcube_sched_linear(struct vcube_sched *s, size_t *cap,
		       const struct vcube_pattern *pat);
int vcube_sched_pairwise(struct vcube_sched *s, size_t *cap,
			 const struct vcube_pattern *pat);
int vcube_sched_balanced(struct vcube_sched *s, size_t *cap,
			 const struct vcube_pattern *pat);
int vcube_sched_greedy(struct vcube_sched *s, size_t *cap,
		       const struct vcube_pattern *pat);
/*
 * @sched for @pat at rank @me as a plan of bytes, @soff and @roff each
 * rank's offset in the send and receive buffers; 0 or -ENOMEM.
 */
int vcube_plan_sched(const struct vcube_sched *sched,
		     const struct vcube_pattern *pat, unsigned int me,
		     const size_t *soff, const size_t *roff,
		     struct vcube_plan *pl);

/* Pairwise exchange over virtual numbers (me + off) mod m (plan/thakur.c). */
int vcube_plan_xor(unsigned int me, unsigned int p, unsigned int m,
		   unsigned int off, struct vcube_plan *pl);

/*
 * The planners, by paper: complete exchanges (plan/bokhari.c,
 * plan/ponnusamy.c, plan/thakur.c, plan/chuang.c), barriers and shifts
 * (plan/seidel.c), collectives (plan/chuang.c, plan/mpi.c).
 */
int vcube_plan_naive(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_linear(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_pairwise(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_stable(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_pairwise_F(const struct vcube_plan_args *a,
			  struct vcube_plan *pl);
int vcube_plan_pairwise_U(const struct vcube_plan_args *a,
			  struct vcube_plan *pl);
int vcube_plan_standard_F(const struct vcube_plan_args *a,
			  struct vcube_plan *pl);
int vcube_plan_standard_U(const struct vcube_plan_args *a,
			  struct vcube_plan *pl);
int vcube_plan_lex(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_pex(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_rex(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_bex(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_pexgen(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_pexgenshift(const struct vcube_plan_args *a,
			   struct vcube_plan *pl);
int vcube_plan_gen(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_bucket(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_torus(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_gsync(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_sync0(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_rds(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_shift(const struct vcube_plan_args *a, struct vcube_plan *pl);
int vcube_plan_reduce_crossover(const struct vcube_plan_args *a,
				struct vcube_plan *pl);
int vcube_plan_kernel_butterfly(const struct vcube_plan_args *a,
				struct vcube_plan *pl);
int vcube_plan_kernel_crossover(const struct vcube_plan_args *a,
				struct vcube_plan *pl);
int vcube_plan_kernel_torus(const struct vcube_plan_args *a,
			    struct vcube_plan *pl);
int vcube_plan_bcast_tree(const struct vcube_plan_args *a,
			  struct vcube_plan *pl);
int vcube_plan_reduce_tree(const struct vcube_plan_args *a,
			   struct vcube_plan *pl);
int vcube_plan_scan_doubling(const struct vcube_plan_args *a,
			     struct vcube_plan *pl);
int vcube_plan_dissemination(const struct vcube_plan_args *a,
			     struct vcube_plan *pl);
int vcube_plan_barrier_tree(const struct vcube_plan_args *a,
			    struct vcube_plan *pl);

/*
 * The shared patterns (plan/patterns.c), each phase block 0 sent and the
 * partner's received into @rblk: the butterfly over dimensions [lo, hi),
 * the highest first if @down; the crossover while 2^k < p, each received
 * block folded into block 0 if @fold (then pl->fin holds the last fold).
 */
int vcube_plan_butterfly(struct vcube_plan *pl, unsigned int me,
			 unsigned int lo, unsigned int hi, bool down,
			 unsigned int rblk);
int vcube_plan_crossover(struct vcube_plan *pl, unsigned int me,
			 unsigned int p, unsigned int rblk, bool fold);

/* Store-and-forward over lg p phases (plan/forward.c). */
enum vcube_plan_fwd {
	VCUBE_FWD_STANDARD,	/* dimension k at phase k */
	VCUBE_FWD_REX,		/* dimension lg p - 1 - k at phase k */
	VCUBE_FWD_BUCKET,	/* to rank + 2^k at phase k */
};

int vcube_plan_forward(unsigned int me, unsigned int p, enum vcube_plan_fwd how,
		       bool forced, struct vcube_plan *pl);

#endif /* VCUBE_PLAN_H */
