/* SPDX-License-Identifier: MIT */
/*
 * libvcube internals: a complete exchange as data. A planner is a pure
 * function of (rank, size[, grid]) that says, for one rank, what happens in
 * which order; vcube_plan_run() (plan.c) is the one place that posts,
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
 *   receive so posted (the irregular schedules post a step's receives,
 *   send, then wait).
 */
#ifndef VCUBE_PLAN_H
#define VCUBE_PLAN_H

#include <stdbool.h>

#include "comm.h"

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
};

struct vcube_plan_move {
	unsigned int dst, src;	/* blocks */
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
	struct vcube_plan_range moves;
};

struct vcube_plan {
	enum vcube_plan_kind kind;
	unsigned int p;			/* ranks */
	unsigned int nsend, nrecv;	/* blocks of the send, receive buffer */
	unsigned int nscratch;		/* scratch blocks */
	unsigned int nsteps, scap;
	struct vcube_plan_step *step;
	unsigned int nposts, pcap;
	struct vcube_plan_post *post;
	unsigned int nmoves, mcap;
	struct vcube_plan_move *move;
	struct vcube_plan_range init, fin;
};

/* A planner fills @pl (zeroed) for rank @me of @p; 0 or -errno. */
typedef int (*vcube_planner)(unsigned int me, unsigned int p,
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
 * The plan of registered algorithm @name for rank @me of @p (xchg.c's
 * registry) on a @rows x @cols grid (0 x 0 off a grid): 0, -ENOENT (no
 * such algorithm), -EDOM (not on this many ranks or this network).
 */
int vcube_xchg_plan(const char *name, unsigned int me, unsigned int p,
		    unsigned int rows, unsigned int cols,
		    struct vcube_plan *pl);

/* Pairwise exchange over virtual numbers (me + off) mod m (plan/thakur.c). */
int vcube_plan_xor(unsigned int me, unsigned int p, unsigned int m,
		   unsigned int off, struct vcube_plan *pl);

/* The planners, by paper (plan/bokhari.c, plan/ponnusamy.c, plan/thakur.c,
 * plan/chuang.c). */
int vcube_plan_naive(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_linear(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_pairwise(unsigned int me, unsigned int p,
			struct vcube_plan *pl);
int vcube_plan_stable(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_pairwise_F(unsigned int me, unsigned int p,
			  struct vcube_plan *pl);
int vcube_plan_pairwise_U(unsigned int me, unsigned int p,
			  struct vcube_plan *pl);
int vcube_plan_standard_F(unsigned int me, unsigned int p,
			  struct vcube_plan *pl);
int vcube_plan_standard_U(unsigned int me, unsigned int p,
			  struct vcube_plan *pl);
int vcube_plan_lex(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_pex(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_rex(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_bex(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_pexgen(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_pexgenshift(unsigned int me, unsigned int p,
			   struct vcube_plan *pl);
int vcube_plan_gen(unsigned int me, unsigned int p, struct vcube_plan *pl);
int vcube_plan_bucket(unsigned int me, unsigned int p, struct vcube_plan *pl);

/* Store-and-forward over lg p phases (plan/forward.c). */
enum vcube_plan_fwd {
	VCUBE_FWD_STANDARD,	/* dimension k at phase k */
	VCUBE_FWD_REX,		/* dimension lg p - 1 - k at phase k */
	VCUBE_FWD_BUCKET,	/* to rank + 2^k at phase k */
};

int vcube_plan_forward(unsigned int me, unsigned int p, enum vcube_plan_fwd how,
		       bool forced, struct vcube_plan *pl);
/* The normal torus all-to-all on a @rows x @cols grid, rank me = r * cols + c. */
int vcube_plan_torus(unsigned int me, unsigned int rows, unsigned int cols,
		     struct vcube_plan *pl);

#endif /* VCUBE_PLAN_H */
