// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: the nonblocking collectives (MPI-3). Each is the plan its
 * blocking call would run, started by libvcube's executor
 * (vcube_plan_start()) and progressed inside the completion calls, as an
 * MPI library without a progress thread does: MPI_Test issues the steps
 * whose receives are in, MPI_Wait runs the rest; while any is pending, a
 * blocking call anywhere in vcube-mpi tests them all between its own
 * tests (vmpi_icoll_poll()), so no order of waits deadlocks.
 *
 * The algorithms are the blocking calls' defaults on the data network
 * (VCUBE_MPI_I<CALL>, e.g. VCUBE_MPI_IALLTOALL, names another): the CM-5's
 * control network makes one blocking operation of a collective, and a
 * POSTED plan's global synchronisation blocks; both are refused here. The
 * linear and v-collectives and MPI_Iexscan are plans of bytes, built here
 * (plan_v(), plan_chain()). A reduction with a non-commutative operator of
 * the program's is not yet nonblocking.
 *
 * A communicator's collective tags repeat after 16 collectives (vmpi.h),
 * MPI_COMM_WORLD's after 16384: a new one whose tags a pending one still
 * uses waits for it to complete (ic_new()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "vmpi.h"

struct vmpi_icoll {
	struct vmpi_icoll *next;	/* the pending ones */
	MPI_Comm comm;
	struct vcube_plan_run *run;	/* its plan's run, or */
	struct vmpi_idup *dup;		/* MPI_Comm_idup's agreement (idup.c) */
	bool finished;
	void *fold[2];			/* a reduction's type and operator */
	void *tmp;			/* the library's buffer, freed at the end */
	/* at the end: @n bytes from @tmp + @off to @dst */
	void *dst;
	size_t off, n;
	MPI_Datatype types[2];		/* held while pending */
	MPI_Op op;
	int ret;			/* 1 done, or the run's -errno */
	unsigned int seq;		/* its tags' (vcube_comm_tag_base()) */
};

static struct vmpi_icoll *live;
static int busy;	/* inside a run's progress: no polling from below */

bool vmpi_icoll_busy(void)
{
	return live && !busy;
}

static void unlink_ic(struct vmpi_icoll *ic)
{
	struct vmpi_icoll **p;

	for (p = &live; *p; p = &(*p)->next)
		if (*p == ic) {
			*p = ic->next;
			return;
		}
}

/* One progress of @ic's run: 1 done (its result in place), 0, or -errno. */
static int step(struct vmpi_icoll *ic, bool block)
{
	int ret;

	if (ic->finished)
		return ic->ret;
	busy++;
	ret = ic->dup ? vmpi_idup_progress(ic->dup, block) :
			vcube_plan_progress(ic->run, block);
	busy--;
	if (!ret)
		return 0;
	vcube_plan_end(ic->run);
	ic->run = NULL;
	if (ic->dup)
		vmpi_idup_free(ic->dup);
	ic->dup = NULL;
	ic->ret = ret;
	ic->finished = true;
	if (ret == 1 && ic->n)
		memcpy(ic->dst, (char *)ic->tmp + ic->off, ic->n);
	unlink_ic(ic);
	return ret;
}

void vmpi_icoll_poll(void)
{
	struct vmpi_icoll *ic, *next;

	if (busy)
		return;
	for (ic = live; ic; ic = next) {
		next = ic->next;
		step(ic, false);
	}
}

void vmpi_icoll_pause(void)
{
	vmpi_icoll_poll();
	vcube_node_delay(vmpi.node, vmpi.poll_ns);
}

int vmpi_icoll_progress(struct vmpi_icoll *ic, bool block)
{
	int ret;

	for (;;) {
		/* alone, it may block in the kernel: nothing else to move */
		ret = step(ic, block && live == ic && !ic->next);
		if (ret || !block)
			return ret;
		vmpi_icoll_pause();
	}
}

void vmpi_icoll_free(struct vmpi_icoll *ic)
{
	if (!ic->finished) {
		unlink_ic(ic);
		vcube_plan_end(ic->run);
		if (ic->dup)
			vmpi_idup_free(ic->dup);
	}
	if (ic->types[0])
		vmpi_type_put(ic->types[0]);
	if (ic->types[1])
		vmpi_type_put(ic->types[1]);
	free(ic->tmp);
	free(ic);
}

static int fail(MPI_Comm c, const char *call, const char *algo, int ret)
{
	if (ret == -EOPNOTSUPP)
		return vmpi_error(c, MPI_ERR_UNSUPPORTED_OPERATION, call,
				  "%s cannot run nonblocking (the control network's, or a POSTED plan: see docs/mpi.md)",
				  algo);
	return vmpi_error(c, vmpi_errclass(ret), call, "%s: %s", algo,
			  vmpi_strerror(ret));
}

/* Is a collective pending on @c whose tags @next's would repeat? */
static bool stale(MPI_Comm c, unsigned int next, unsigned int span)
{
	const struct vmpi_icoll *ic;

	for (ic = live; ic; ic = ic->next)
		if (ic->comm == c && ic->seq <= VCUBE_COLL_SEQ_MASK &&
		    ((next - ic->seq) & VCUBE_COLL_SEQ_MASK) % span == 0)
			return true;
	return false;
}

/*
 * A pending collective's record on @c, or NULL (the error reported). Its
 * tags are the next collective's of @c; a communicator's repeat after
 * the collectives its tags count (vmpi.h: 16, MPI_COMM_WORLD's 16384),
 * so one still pending that far back here is completed first.
 */
static struct vmpi_icoll *ic_new(MPI_Comm c, const char *call, int *err)
{
	unsigned int next = (c->vc->seq + 1) & VCUBE_COLL_SEQ_MASK;
	unsigned int span = c == MPI_COMM_WORLD ? VCUBE_COLL_SEQ_MASK + 1 : 16;
	struct vmpi_icoll *ic;

	*err = 0;
	/*
	 * one as old as the tags go still pending here: completed first (its
	 * other members move it in whatever call they are in)
	 */
	while (stale(c, next, span)) {
		vmpi_icoll_pause();
	}
	ic = calloc(1, sizeof(*ic));
	if (!ic) {
		*err = vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
		return NULL;
	}
	ic->comm = c;
	ic->seq = next;
	return ic;
}

/*
 * @ic's run started (@ret its start's): pending, with its request in
 * *@req; or the error, and @ic freed.
 */
static int ic_go(struct vmpi_icoll *ic, const char *call, const char *algo,
		 struct vcube_plan_run *run, int ret, MPI_Request *req)
{
	MPI_Comm c = ic->comm;

	if (ret) {
		vmpi_icoll_free(ic);
		return fail(c, call, algo, ret);
	}
	ic->run = run;
	ic->next = live;
	live = ic;
	ret = vmpi_req_coll(c, ic, req);
	if (ret)
		vmpi_icoll_free(ic);
	return ret;
}

/* A collective with nothing to move: a request already complete. */
static int ic_none(MPI_Comm c, const char *call, MPI_Request *req)
{
	int err;
	struct vmpi_icoll *ic = ic_new(c, call, &err);

	if (!ic)
		return err;
	ic->ret = 1;
	ic->finished = true;
	err = vmpi_req_coll(c, ic, req);
	if (err)
		vmpi_icoll_free(ic);
	return err;
}

int vmpi_icoll_idup(MPI_Comm c, struct vmpi_idup *d, MPI_Request *req)
{
	struct vmpi_icoll *ic = calloc(1, sizeof(*ic));
	int ret;

	if (!ic)
		return vmpi_error(c, MPI_ERR_NO_MEM, "MPI_Comm_idup",
				  "out of memory");
	ic->comm = c;
	ic->seq = VCUBE_COLL_SEQ_MASK + 1;	/* none of the collectives' */
	ic->dup = d;
	ic->next = live;
	live = ic;
	ret = vmpi_req_coll(c, ic, req);
	if (ret) {
		ic->dup = NULL;		/* the caller frees it */
		vmpi_icoll_free(ic);
	}
	return ret;
}

/* Start registered algorithm @a->name of @a->kind for @ic. */
static int ic_algo(struct vmpi_icoll *ic, const char *call,
		   struct vcube_algo_call *a, MPI_Request *req)
{
	struct vcube_plan_run *run;
	int ret = vcube_algo_start(ic->comm->vc, a, &run);

	return ic_go(ic, call, a->name, run, ret, req);
}

static int req_check(MPI_Comm c, const char *call, MPI_Request *req)
{
	int ret = vmpi_intra(c, call);

	if (!ret && !req)
		ret = vmpi_error(c, MPI_ERR_REQUEST, call, "no request");
	return ret;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	const char *call = "MPI_Ibarrier";
	struct vcube_algo_call a = { .kind = VCUBE_ALGO_SYNC };
	struct vmpi_icoll *ic;
	int ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_coll_pick(comm, call, VCUBE_ALGO_SYNC, "IBARRIER",
				     "dissemination", &a.name);
	if (ret)
		return ret;
	if (comm->size == 1)
		return ic_none(comm, call, request);
	ic = ic_new(comm, call, &ret);
	return ic ? ic_algo(ic, call, &a, request) : ret;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
	       MPI_Comm comm, MPI_Request *request)
{
	const char *call = "MPI_Ibcast";
	struct vcube_algo_call a = { .kind = VCUBE_ALGO_BCAST };
	struct vmpi_icoll *ic;
	size_t bytes;
	int ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_coll_count(comm, call, count, type, &bytes);
	if (!ret)
		ret = vmpi_coll_root(comm, call, root);
	if (!ret)
		ret = vmpi_coll_pick(comm, call, VCUBE_ALGO_BCAST, "IBCAST",
				     "tree", &a.name);
	if (ret)
		return ret;
	ic = ic_new(comm, call, &ret);
	if (!ic)
		return ret;
	a.a.root = (unsigned int)root;
	a.sbuf = buf;
	a.rbuf = buf;
	a.len = bytes;
	return ic_algo(ic, call, &a, request);
}

/*
 * A reduction or scan of @in into @out (in place when they are one) at
 * every rank: the blocking call's plan on the data network.
 */
static int ifold(MPI_Comm c, const char *call, unsigned int kind,
		 const char *env, const void *in, void *out, int count,
		 MPI_Datatype type, MPI_Op op, struct vmpi_icoll *ic,
		 MPI_Request *req)
{
	struct vcube_algo_call a = { .kind = kind };
	size_t bytes;
	int ret;

	ret = vmpi_fold_check(c, call, in, out, count, type, op, &bytes);
	if (!ret && op->code == VO_USER && !op->commute)
		ret = vmpi_error(c, MPI_ERR_UNSUPPORTED_OPERATION, call,
				 "a non-commutative operator of the program's: its blocking call only");
	if (!ret)
		ret = vmpi_coll_pick(c, call, kind, env,
				     vmpi_fold_default(c, kind, env, op, type,
						       false), &a.name);
	if (ret) {
		vmpi_icoll_free(ic);
		return ret;
	}
	if (bytes && in != out)
		memmove(out, in, bytes);
	ic->fold[0] = type;
	ic->fold[1] = op;
	ic->types[0] = type;
	vmpi_type_get(type);	/* held while pending */
	a.fold = vmpi_fold;
	a.fold_ctx = ic->fold;
	a.sbuf = out;
	a.rbuf = out;
	a.len = bytes;
	return ic_algo(ic, call, &a, req);
}

/* MPI_Iallreduce and MPI_Iscan: @sendbuf (or in place) into @recvbuf. */
static int ifold_all(MPI_Comm comm, const char *call, unsigned int kind,
		     const char *env, const void *sendbuf, void *recvbuf,
		     int count, MPI_Datatype type, MPI_Op op,
		     MPI_Request *request)
{
	struct vmpi_icoll *ic;
	int ret = req_check(comm, call, request);

	ic = ret ? NULL : ic_new(comm, call, &ret);
	if (!ic)
		return ret;
	return ifold(comm, call, kind, env,
		     sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
		     count, type, op, ic, request);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request)
{
	return ifold_all(comm, "MPI_Iallreduce", VCUBE_ALGO_REDUCE,
			 "IALLREDUCE", sendbuf, recvbuf, count, type, op,
			 request);
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
	      MPI_Request *request)
{
	return ifold_all(comm, "MPI_Iscan", VCUBE_ALGO_SCAN, "ISCAN", sendbuf,
			 recvbuf, count, type, op, request);
}

/*
 * A reduction into the library's buffer, whose part @off .. @off + @keep
 * bytes goes to @out at the end: MPI_Ireduce (the root keeps it all, as
 * MPI_Reduce does) and the reduce-scatters.
 */
static int ifold_keep(MPI_Comm c, const char *call, const char *env,
		      const void *in, void *out, int count, MPI_Datatype type,
		      MPI_Op op, size_t off, size_t keep, MPI_Request *req)
{
	struct vmpi_icoll *ic = ic_new(c, call, &(int){ 0 });
	size_t bytes = (size_t)(count > 0 ? count : 0) * type->size;

	if (!ic)
		return vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
	ic->tmp = malloc(bytes + 1);
	if (!ic->tmp) {
		vmpi_icoll_free(ic);
		return vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
	}
	if (bytes && in)
		memcpy(ic->tmp, in, bytes);
	ic->dst = out;
	ic->off = off;
	ic->n = keep;
	return ifold(c, call, VCUBE_ALGO_REDUCE, env, ic->tmp, ic->tmp, count,
		     type, op, ic, req);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request)
{
	const char *call = "MPI_Ireduce";
	const void *in = sendbuf;
	size_t bytes;
	int ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_coll_root(comm, call, root);
	if (!ret)
		ret = vmpi_coll_count(comm, call, count, type, &bytes);
	if (ret)
		return ret;
	if (comm->rank == root && sendbuf == MPI_IN_PLACE)
		in = recvbuf;
	return ifold_keep(comm, call, "IREDUCE", in, recvbuf, count, type, op,
			  0, comm->rank == root ? bytes : 0, request);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
			      int recvcount, MPI_Datatype type, MPI_Op op,
			      MPI_Comm comm, MPI_Request *request)
{
	const char *call = "MPI_Ireduce_scatter_block";
	size_t bytes;
	int ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_coll_count(comm, call, recvcount, type, &bytes);
	if (!ret && (size_t)recvcount * (size_t)comm->size > 0x7fffffff)
		ret = vmpi_error(comm, MPI_ERR_COUNT, call, "%d x %d elements",
				 recvcount, comm->size);
	if (ret)
		return ret;
	return ifold_keep(comm, call, "IREDUCE_SCATTER",
			  sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
			  recvcount * comm->size, type, op,
			  (size_t)comm->rank * bytes, bytes, request);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype type, MPI_Op op,
			MPI_Comm comm, MPI_Request *request)
{
	const char *call = "MPI_Ireduce_scatter";
	size_t total = 0, off = 0;
	int i, ret;

	ret = req_check(comm, call, request);
	if (!ret && vmpi_type_check(type))
		ret = vmpi_error(comm, MPI_ERR_TYPE, call,
				 "not a committed datatype");
	if (!ret && !recvcounts)
		ret = vmpi_error(comm, MPI_ERR_ARG, call, "no counts");
	for (i = 0; !ret && i < comm->size; i++) {
		if (recvcounts[i] < 0)
			ret = vmpi_error(comm, MPI_ERR_COUNT, call, "count %d",
					 recvcounts[i]);
		if (i < comm->rank)
			off += (size_t)recvcounts[i];
		total += (size_t)recvcounts[i];
	}
	if (!ret && total > (size_t)0x7fffffff)
		ret = vmpi_error(comm, MPI_ERR_COUNT, call, "%zu elements",
				 total);
	if (ret)
		return ret;
	return ifold_keep(comm, call, "IREDUCE_SCATTER",
			  sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
			  (int)total, type, op, off * type->size,
			  (size_t)recvcounts[comm->rank] * type->size, request);
}

/* A complete exchange of @len-byte blocks from @sb (taken over) into @rb. */
static int ixchg(MPI_Comm c, const char *call, const char *env, void *sb,
		 void *rb, size_t len, MPI_Request *req)
{
	struct vcube_algo_call a = { .kind = VCUBE_ALGO_XCHG };
	struct vmpi_icoll *ic;
	int ret;

	ret = vmpi_coll_pick(c, call, VCUBE_ALGO_XCHG, env, "gen", &a.name);
	ic = ret ? NULL : ic_new(c, call, &ret);
	if (!ic) {
		free(sb);
		return ret;
	}
	ic->tmp = sb;
	memcpy((char *)rb + (size_t)c->rank * len,
	       (char *)sb + (size_t)c->rank * len, len);
	a.sbuf = sb;
	a.rbuf = rb;
	a.len = len;
	return ic_algo(ic, call, &a, req);
}

/*
 * MPI_Ialltoall (@gather false: the send buffer's blocks) and
 * MPI_Iallgather (the one block, to all): the blocks copied, as the plan
 * may read them after the call returns, and exchanged.
 */
static int iblocks(const char *call, const char *env, bool gather,
		   const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request)
{
	bool in_place = sendbuf == MPI_IN_PLACE;
	size_t len, p;
	const void *mine;
	char *sb;
	int i, ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_coll_blocks(comm, call, sendcount, sendtype,
				       recvcount, recvtype, in_place, &len);
	if (ret)
		return ret;
	p = (size_t)comm->size;
	sb = malloc(len * p + 1);
	if (!sb)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	if (!gather) {
		memcpy(sb, in_place ? recvbuf : sendbuf, len * p);
		return ixchg(comm, call, env, sb, recvbuf, len, request);
	}
	mine = in_place ? (char *)recvbuf + (size_t)comm->rank * len : sendbuf;
	for (i = 0; i < comm->size; i++)
		memcpy(sb + (size_t)i * len, mine, len);
	return ixchg(comm, call, env, sb, recvbuf, len, request);
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request)
{
	return iblocks("MPI_Ialltoall", "IALLTOALL", false, sendbuf, sendcount,
		       sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request)
{
	return iblocks("MPI_Iallgather", "IALLGATHER", true, sendbuf,
		       sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
		       request);
}

/*
 * The v-collectives as plans of bytes (block b is byte b: the send
 * buffer's, then the receive buffer's), in the blocking calls' order:
 * rank i's block of @sc[i] bytes at @sd[i] goes to rank i, @rc[i] bytes
 * from rank i come to @rd[i], where either is not 0. A rooted one
 * (@root not VCUBE_NONE): the root posts its receives in rank order and
 * waits for them in that order, or sends in rank order; the others send
 * or receive once. Else pairwise, as MPI_Alltoallv: step k posts the
 * receive from rank - k, sends to rank + k, waits.
 */
struct vplan {
	size_t *sc, *sd, *rc, *rd;	/* one array of 4 p */
	size_t sspan, rspan;
	unsigned int root;
	bool gather;			/* the root receives */
};

static int add(struct vcube_plan *pl, enum vcube_plan_op op, unsigned int to,
	       size_t sblk, unsigned int from, size_t rblk, size_t n)
{
	struct vcube_plan_step s = {
		.to = to, .from = from, .tag = 1, .stag = VCUBE_NONE,
		.sblk = (unsigned int)sblk,
		.rblk = (unsigned int)(rblk + pl->nsend),
		.nblk = (unsigned int)n, .op = op,
	};

	return vcube_plan_add_step(pl, &s);
}

static int plan_v(const struct vplan *v, unsigned int me, unsigned int p,
		  struct vcube_plan *pl)
{
	unsigned int i, k, to, from;
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	pl->name = "linear";
	pl->nsend = (unsigned int)v->sspan;
	pl->nrecv = (unsigned int)v->rspan;
	if (v->root == VCUBE_NONE) {
		pl->name = "pairwise";
		for (k = 1; k < p && !ret; k++) {
			to = (me + k) % p;
			from = (me + p - k) % p;
			ret = add(pl, VCUBE_OP_POST, VCUBE_NONE, 0, from,
				  v->rd[from], v->rc[from]);
			ret = ret ?: add(pl, VCUBE_OP_XCHG, to, v->sd[to],
					 VCUBE_NONE, 0, v->sc[to]);
			ret = ret ?: add(pl, VCUBE_OP_WAIT, VCUBE_NONE, 0, from,
					 0, 0);
		}
		return ret;
	}
	for (i = 0; i < p && !ret; i++) {
		if (i == me || (me != v->root && i != v->root))
			continue;
		if (v->gather == (me == v->root))	/* a receive */
			ret = add(pl, me == v->root ? VCUBE_OP_POST :
				  VCUBE_OP_XCHG, VCUBE_NONE, 0, i, v->rd[i],
				  v->rc[i]);
		else
			ret = add(pl, VCUBE_OP_XCHG, i, v->sd[i], VCUBE_NONE,
				  0, v->sc[i]);
	}
	for (i = 0; i < p && !ret && me == v->root && v->gather; i++)
		if (i != me)
			ret = add(pl, VCUBE_OP_WAIT, VCUBE_NONE, 0, i, 0, 0);
	return ret;
}

/* A vplan's arrays for @c's ranks, zeroed: 0 or an MPI error. */
static int v_new(MPI_Comm c, const char *call, struct vplan *v)
{
	*v = (struct vplan){ .root = VCUBE_NONE };
	v->sc = calloc(4 * (size_t)c->size, sizeof(*v->sc));
	if (!v->sc)
		return vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
	v->sd = v->sc + c->size;
	v->rc = v->sd + c->size;
	v->rd = v->rc + c->size;
	return 0;
}

/* The spans of @v's buffers: the furthest byte either side moves. */
static int v_span(MPI_Comm c, const char *call, struct vplan *v)
{
	int i;

	for (i = 0; i < c->size; i++) {
		if (v->sd[i] + v->sc[i] > v->sspan)
			v->sspan = v->sd[i] + v->sc[i];
		if (v->rd[i] + v->rc[i] > v->rspan)
			v->rspan = v->rd[i] + v->rc[i];
	}
	if (v->sspan > 0x7fffffff || v->rspan > 0x7fffffff)
		return vmpi_error(c, MPI_ERR_COUNT, call,
				  "a buffer of more than 2 GiB");
	return 0;
}

/*
 * Start @v over @sbuf and @rbuf (both the program's) on @c, unless @err
 * (the caller's error, returned): the plan's own block (rank me's), if
 * any, copied first. @v's arrays and @tmp (the library's buffer, if any)
 * are freed, once the run ends.
 */
static int v_go(MPI_Comm c, const char *call, int err, struct vplan *v,
		void *tmp, const void *sbuf, void *rbuf, MPI_Request *req)
{
	struct vcube_plan_run *run = NULL;
	struct vmpi_icoll *ic;
	struct vcube_plan pl;
	unsigned int me = (unsigned int)c->rank;
	static uint8_t none;
	const char *algo;
	int ret = err;

	ic = ret ? NULL : ic_new(c, call, &ret);
	if (!ic) {
		free(v->sc);
		free(tmp);
		return ret;
	}
	ic->tmp = tmp;
	ret = v_span(c, call, v);
	if (ret) {
		free(v->sc);
		vmpi_icoll_free(ic);
		return ret;
	}
	if (v->sc[me] && v->rc[me])
		memmove((char *)rbuf + v->rd[me], (const char *)sbuf + v->sd[me],
			v->sc[me] < v->rc[me] ? v->sc[me] : v->rc[me]);
	ret = plan_v(v, me, (unsigned int)c->size, &pl);
	free(v->sc);
	algo = pl.name;
	if (!ret)
		ret = vcube_plan_start(c->vc, &pl, vcube_comm_tag_base(c->vc),
				       sbuf && sbuf != MPI_IN_PLACE ? sbuf :
				       &none, rbuf && rbuf != MPI_IN_PLACE ?
				       rbuf : &none, 1, &run);
	vcube_plan_free(&pl);
	return ic_go(ic, call, algo, run, ret, req);
}

/* A rooted v-collective's own arguments, checked as the blocking call's. */
static int v_rooted(MPI_Comm c, const char *call, int root, bool in_place,
		    int count, MPI_Datatype type, const int counts[],
		    const int displs[], MPI_Datatype vtype, bool gather,
		    struct vplan *v, MPI_Request *req)
{
	size_t own;
	int i, ret;

	ret = req_check(c, call, req);
	if (!ret)
		ret = vmpi_v_args(c, call, root, in_place, count, type, counts,
				  displs, vtype, &own);
	if (!ret)
		ret = v_new(c, call, v);
	if (ret)
		return ret;
	v->root = (unsigned int)root;
	v->gather = gather;
	if (c->rank != root) {
		if (gather)
			v->sc[root] = own;
		else
			v->rc[root] = own;
		return 0;
	}
	for (i = 0; i < c->size; i++) {
		size_t *n = gather ? v->rc : v->sc, *d = gather ? v->rd : v->sd;

		n[i] = (size_t)counts[i] * vtype->size;
		d[i] = (size_t)displs[i] * vtype->size;
	}
	if (in_place) {			/* the root's own block stays */
		(gather ? v->rc : v->sc)[root] = 0;
		return 0;
	}
	(gather ? v->sc : v->rc)[root] = own;
	return 0;
}

/*
 * A rooted v-collective: each rank's own @count of @type (sent from @sbuf
 * if @gather, else received into @rbuf), the root's @counts, @displs of
 * @vtype (received into @rbuf if @gather, else sent from @sbuf).
 */
static int irooted(const char *call, const void *sbuf, void *rbuf, int count,
		   MPI_Datatype type, const int counts[], const int displs[],
		   MPI_Datatype vtype, int root, MPI_Comm comm, bool gather,
		   MPI_Request *request)
{
	bool in_place = gather ? sbuf == MPI_IN_PLACE : rbuf == MPI_IN_PLACE;
	struct vplan v;
	int ret;

	ret = v_rooted(comm, call, root, in_place, count, type, counts,
		       displs, vtype, gather, &v, request);
	if (ret)
		return ret;
	return v_go(comm, call, 0, &v, NULL, sbuf, rbuf, request);
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	return irooted("MPI_Igatherv", sendbuf, recvbuf, sendcount, sendtype,
		       recvcounts, displs, recvtype, root, comm, true, request);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request)
{
	return irooted("MPI_Iscatterv", sendbuf, recvbuf, recvcount, recvtype,
		       sendcounts, displs, sendtype, root, comm, false,
		       request);
}

/* The same count from every rank, at the block of its rank: a v-call's. */
static int *even(MPI_Comm c, int count, int **displs)
{
	int *v = malloc(2 * (size_t)c->size * sizeof(*v) + 1), i;

	for (i = 0; v && i < c->size; i++) {
		v[i] = count;
		v[c->size + i] = i * count;
	}
	*displs = v ? v + c->size : NULL;
	return v;
}

/* MPI_Igather and MPI_Iscatter: the v-calls of even counts, at the root. */
static int ieven(const char *call, const void *sbuf, void *rbuf, int count,
		 MPI_Datatype type, int vcount, MPI_Datatype vtype, int root,
		 MPI_Comm comm, bool gather, MPI_Request *request)
{
	int *counts = NULL, *displs = NULL, ret;

	ret = vmpi_intra(comm, call);
	if (ret)
		return ret;
	if (comm->rank == root && vcount > 0 &&
	    (size_t)vcount * (size_t)comm->size > 0x7fffffff)
		return vmpi_error(comm, MPI_ERR_COUNT, call, "%d x %d elements",
				  vcount, comm->size);
	if (comm->rank == root) {
		counts = even(comm, vcount, &displs);
		if (!counts)
			return vmpi_error(comm, MPI_ERR_NO_MEM, call,
					  "out of memory");
	}
	ret = irooted(call, sbuf, rbuf, count, type, counts, displs, vtype,
		      root, comm, gather, request);
	free(counts);
	return ret;
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request)
{
	return ieven("MPI_Igather", sendbuf, recvbuf, sendcount, sendtype,
		     recvcount, recvtype, root, comm, true, request);
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm, MPI_Request *request)
{
	return ieven("MPI_Iscatter", sendbuf, recvbuf, recvcount, recvtype,
		     sendcount, sendtype, root, comm, false, request);
}

/* counts[] and displs[] of @type, as a vplan's bytes in @n and @d. */
static int v_bytes(MPI_Comm c, const char *call, const int counts[],
		   const int displs[], MPI_Datatype type, size_t *n, size_t *d)
{
	int i, ret = vmpi_v_check(c, call, counts, displs, type);

	for (i = 0; !ret && i < c->size; i++) {
		n[i] = (size_t)counts[i] * type->size;
		d[i] = (size_t)displs[i] * type->size;
	}
	return ret;
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	const char *call = "MPI_Ialltoallv";
	struct vplan v;
	int ret, me;

	ret = req_check(comm, call, request);
	if (!ret && sendbuf == MPI_IN_PLACE)
		ret = vmpi_error(comm, MPI_ERR_UNSUPPORTED_OPERATION, call,
				 "MPI_IN_PLACE");
	if (!ret)
		ret = vmpi_contig_check(comm, call, sendtype);
	if (!ret)
		ret = vmpi_contig_check(comm, call, recvtype);
	if (!ret)
		ret = v_new(comm, call, &v);
	if (ret)
		return ret;
	ret = v_bytes(comm, call, sendcounts, sdispls, sendtype, v.sc, v.sd);
	if (!ret)
		ret = v_bytes(comm, call, recvcounts, rdispls, recvtype, v.rc,
			      v.rd);
	me = comm->rank;
	if (!ret && v.sc[me] != v.rc[me])
		ret = vmpi_error(comm, MPI_ERR_TRUNCATE, call,
				 "rank %d sends itself %zu bytes into %zu", me,
				 v.sc[me], v.rc[me]);
	return v_go(comm, call, ret, &v, NULL, sendbuf, recvbuf, request);
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	const char *call = "MPI_Iallgatherv";
	bool in_place = sendbuf == MPI_IN_PLACE;
	const void *sb = sendbuf;
	struct vplan v;
	size_t own = 0;
	int i, ret, me;

	ret = req_check(comm, call, request);
	if (!ret && !in_place)
		ret = vmpi_contig_check(comm, call, sendtype);
	if (!ret && !in_place)
		ret = vmpi_count_check(comm, call, MPI_IN_PLACE, sendcount,
				       sendtype, &own);
	if (!ret)
		ret = vmpi_contig_check(comm, call, recvtype);
	if (!ret)
		ret = v_new(comm, call, &v);
	if (ret)
		return ret;
	ret = v_bytes(comm, call, recvcounts, displs, recvtype, v.rc, v.rd);
	me = comm->rank;
	if (!ret && in_place) {		/* the own block, where it is */
		own = v.rc[me];
		sb = (char *)recvbuf + v.rd[me];
	}
	if (!ret && own != v.rc[me])
		ret = vmpi_error(comm, MPI_ERR_TRUNCATE, call,
				 "%zu bytes sent for %zu received", own,
				 v.rc[me]);
	for (i = 0; !ret && i < comm->size; i++)
		v.sc[i] = own;		/* the one block, to every rank */
	if (in_place)
		v.sc[me] = 0;
	return v_go(comm, call, ret, &v, NULL, sb, recvbuf, request);
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request)
{
	const char *call = "MPI_Ialltoallw";
	bool in_place = sendbuf == MPI_IN_PLACE;
	struct vplan v;
	size_t *sizes;
	char *copy;
	int k, p, ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_w_args(comm, call, in_place, sendcounts, sdispls,
				  sendtypes, recvbuf, recvcounts, rdispls,
				  recvtypes, &sizes, &copy);
	if (ret)
		return ret;
	p = comm->size;
	ret = v_new(comm, call, &v);
	if (ret) {
		free(sizes);
		free(copy);
		return ret;
	}
	for (k = 0; k < p; k++) {
		v.sc[k] = sizes[k];
		v.sd[k] = (size_t)(in_place ? rdispls[k] : sdispls[k]);
		v.rc[k] = sizes[p + k];
		v.rd[k] = (size_t)rdispls[k];
	}
	free(sizes);
	/* in place: sent from the copy, freed at the end */
	return v_go(comm, call, 0, &v, copy, in_place ? copy : sendbuf,
		    recvbuf, request);
}

/*
 * MPI_Exscan's chain (collv.c) as a plan: block 0 the operand's copy, 1
 * the result; rank i > 0 receives the prefix of the ranks before it into
 * its result, folds it into its operand (prefix op operand) and sends
 * that on, unless it is the last.
 */
static int plan_chain(unsigned int me, unsigned int p, struct vcube_plan *pl)
{
	struct vcube_plan_range r = { 0 };
	int ret = 0;

	vcube_plan_init(pl, VCUBE_PLAN_STEPWISE, p);
	pl->name = "chain";
	pl->nsend = 1;
	pl->nrecv = 1;
	if (me > 0)
		ret = vcube_plan_add_xfer(pl, NULL, VCUBE_NONE, 0, me - 1, 1, 1);
	if (!ret && me > 0 && me + 1 < p)
		ret = vcube_plan_add_fold(pl, &r, 0, 1);
	if (!ret && me + 1 < p)
		ret = vcube_plan_add_xfer(pl, &r, me + 1, 0, VCUBE_NONE, 0, 1);
	return ret;
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request)
{
	const char *call = "MPI_Iexscan";
	struct vcube_plan_run *run = NULL;
	struct vmpi_icoll *ic;
	struct vcube_plan pl;
	size_t bytes;
	int ret;

	ret = req_check(comm, call, request);
	if (!ret)
		ret = vmpi_contig_check(comm, call, type);
	if (!ret)
		ret = vmpi_fold_check(comm, call, MPI_IN_PLACE, recvbuf, count,
				      type, op, &bytes);
	ic = ret ? NULL : ic_new(comm, call, &ret);
	if (!ic)
		return ret;
	/* a copy of the operand: in place, the prefix lands on it */
	ic->tmp = malloc(bytes + 1);
	if (!ic->tmp) {
		vmpi_icoll_free(ic);
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	}
	memcpy(ic->tmp, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, bytes);
	ic->fold[0] = type;
	ic->fold[1] = op;
	ic->types[0] = type;
	vmpi_type_get(type);	/* held while pending */
	ret = plan_chain((unsigned int)comm->rank, (unsigned int)comm->size,
			 &pl);
	pl.fold = vmpi_fold;
	pl.fold_ctx = ic->fold;
	if (!ret)
		ret = vcube_plan_start(comm->vc, &pl,
				       vcube_comm_tag_base(comm->vc), ic->tmp,
				       recvbuf ? recvbuf : ic->tmp, bytes, &run);
	vcube_plan_free(&pl);
	return ic_go(ic, call, "chain", run, ret, request);
}
