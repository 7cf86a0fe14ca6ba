// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: the collectives, run by libvcube's plan executor with the
 * registry's algorithms (the papers' and the MPI baselines). Each call
 * takes the algorithm VCUBE_MPI_<CALL> names (VCUBE_MPI_ALLTOALL=pairwise_F,
 * VCUBE_MPI_BARRIER=rds, ...), else the one an MPI library of today would
 * pick: Open MPI's pairwise all-to-all (Thakur's GEN: send to rank + i,
 * receive from rank - i), the dissemination barrier, binomial broadcast
 * and rooted reduction, Chuang's crossover (lg p phases) for an allreduce
 * on a power of two of ranks where no order of operands changes the bits
 * (else the binomial tree, one order for all), and the control network
 * wherever the CM-5 has one (CMMD's choice). VCUBE_MPI_VERBOSE=1 names each call's algorithm on stderr.
 *
 * Gather, scatter and the v-variant run linearly, as Open MPI's basic
 * component does: the registry has no algorithm of theirs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "vmpi.h"

static bool is_pow2(int p)
{
	return p > 0 && !(p & (p - 1));
}

/* Does registered algorithm @name run on the control network? */
static bool uses_cnet(unsigned int kind, const char *name)
{
	const struct vcube_algo *a;

	return !vcube_algo_find(kind, name, &a) && a &&
	       (a->needs & VCUBE_ALGO_CNET);
}

/*
 * Does the control network take @c's collectives by default? Not while
 * nonblocking collectives are pending: its one blocking operation would
 * not move them, so the data network's plans, which do, stand in.
 */
static bool cnet_now(MPI_Comm c)
{
	return c->vc->cnet && !vmpi_icoll_busy();
}

static void say(MPI_Comm c, const char *call, const char *algo, size_t bytes)
{
	if (vmpi.verbose && c->rank == 0)
		fprintf(stderr, "vcube-mpi: %s on %d ranks, %zu bytes: %s\n",
			call, c->size, bytes, algo);
}

/*
 * The algorithm of @kind for @call: VCUBE_MPI_<@env>, else @dflt. A name
 * the registry lacks, or one that cannot run here, is the caller's error.
 */
int vmpi_coll_pick(MPI_Comm c, const char *call, unsigned int kind,
		const char *env, const char *dflt, const char **name)
{
	char var[48];
	const char *v;
	int ret;

	snprintf(var, sizeof(var), "VCUBE_MPI_%s", env);
	v = getenv(var);
	*name = v && *v ? v : dflt;
	ret = vcube_algo_usable(c->vc, kind, *name);
	if (ret == -ENOENT)
		return vmpi_error(c, MPI_ERR_ARG, call,
				  "%s=%s: no such algorithm (vcube-bench --list)",
				  var, *name);
	if (ret)
		return vmpi_error(c, MPI_ERR_UNSUPPORTED_OPERATION, call,
				  "%s cannot run on %d ranks of this network",
				  *name, c->size);
	return 0;
}

/* A collective's count: its buffers are checked where it uses them. */
int vmpi_coll_count(MPI_Comm c, const char *call, int count,
		       MPI_Datatype type, size_t *bytes)
{
	return vmpi_count_check(c, call, MPI_IN_PLACE, count, type, bytes);
}

int vmpi_coll_root(MPI_Comm c, const char *call, int root)
{
	if (root < 0 || root >= c->size)
		return vmpi_error(c, MPI_ERR_ROOT, call, "root %d of %d", root,
				  c->size);
	return 0;
}

static int done(MPI_Comm c, const char *call, const char *algo, int ret)
{
	if (!ret)
		return MPI_SUCCESS;
	return vmpi_error(c, vmpi_errclass(ret), call, "%s: %s", algo,
			  vmpi_strerror(ret));
}

int MPI_Barrier(MPI_Comm comm)
{
	const char *algo;
	int ret;

	ret = vmpi_intra(comm, "MPI_Barrier");
	if (!ret)
		ret = vmpi_coll_pick(comm, "MPI_Barrier", VCUBE_ALGO_SYNC, "BARRIER",
			   cnet_now(comm) ? "cm5_control" : "dissemination",
			   &algo);
	if (ret)
		return ret;
	say(comm, "MPI_Barrier", algo, 0);
	return done(comm, "MPI_Barrier", algo, vcube_sync_run(comm->vc, algo));
}

/*
 * A broadcast past the network's max_msg: one broadcast of at most
 * max_msg bytes after the other, as a library pipelines a long one.
 */
static int bcast_pieces(void *buf, int count, MPI_Datatype type, int root,
			MPI_Comm comm)
{
	size_t total = (size_t)count * type->size, off, n;
	int ret = 0;

	for (off = 0; off < total && !ret; off += n) {
		n = total - off < vmpi.max_msg ? total - off : vmpi.max_msg;
		ret = MPI_Bcast((char *)buf + off, (int)n, MPI_BYTE, root, comm);
	}
	return ret;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
	      MPI_Comm comm)
{
	const char *algo;
	size_t bytes;
	int ret;

	ret = vmpi_intra(comm, "MPI_Bcast");
	if (!ret && count > 0 && vmpi_type_contig(type) &&
	    (size_t)count * type->size > vmpi.max_msg)
		return bcast_pieces(buf, count, type, root, comm);
	if (!ret)
		ret = vmpi_coll_count(comm, "MPI_Bcast", count, type, &bytes);
	if (ret)
		return ret;
	ret = vmpi_coll_root(comm, "MPI_Bcast", root);
	if (ret)
		return ret;
	ret = vmpi_coll_pick(comm, "MPI_Bcast", VCUBE_ALGO_BCAST, "BCAST",
		   cnet_now(comm) ? "cm5_control" : "tree", &algo);
	if (ret)
		return ret;
	say(comm, "MPI_Bcast", algo, bytes);
	return done(comm, "MPI_Bcast", algo,
		    vcube_bcast_run(comm->vc, algo, (unsigned int)root, buf,
				    bytes));
}

/*
 * A reduction or scan into @out at every rank: on the control network when
 * the algorithm is its and it carries the type and operator, else the
 * plan with MPI's fold.
 */
int vmpi_fold_check(MPI_Comm c, const char *call, const void *in,
		    const void *out, int count, MPI_Datatype type, MPI_Op op,
		    size_t *bytes)
{
	int ret;

	ret = vmpi_intra(c, call);
	if (!ret)
		ret = vmpi_coll_count(c, call, count, type, bytes);
	if (ret)
		return ret;
	ret = vmpi_op_check(op, type);
	if (ret)
		return vmpi_error(c, ret, call, "%s on %s", op ? op->name : "?",
				  type->name);
	if (*bytes && (!in || !out))
		return vmpi_error(c, MPI_ERR_BUFFER, call, "NULL buffer");
	return 0;
}

const char *vmpi_fold_default(MPI_Comm c, unsigned int kind, const char *env,
			      MPI_Op op, MPI_Datatype type, bool cnet)
{
	unsigned int vop, vtype;

	if (cnet && cnet_now(c) && !vmpi_native(op, type, &vop, &vtype))
		return "cm5_control";
	if (kind == VCUBE_ALGO_SCAN)
		return "doubling";
	if (!strcmp(env, "REDUCE") || !strcmp(env, "IREDUCE"))
		/* to a root: the binomial tree */
		return "tree";
	if (!vmpi_op_exact(op, type))
		return "tree";	/* one order of operands: the same bits at all */
	return is_pow2(c->size) ? "crossover" : "tree";
}

static int fold_coll(MPI_Comm c, const char *call, unsigned int kind,
		     const char *env, const void *in, void *out, int count,
		     MPI_Datatype type, MPI_Op op)
{
	const char *algo;
	unsigned int vop, vtype;
	void *ctx[2] = { type, op };
	struct vcube_algo_call a = { .kind = kind };
	size_t bytes;
	int ret, native;

	ret = vmpi_fold_check(c, call, in, out, count, type, op, &bytes);
	if (ret)
		return ret;
	if (op->code == VO_USER && !op->commute) {
		/* the program's, not commutative: in rank order */
		say(c, call, "ordered", bytes);
		if (bytes && in != out)
			memmove(out, in, bytes);
		return done(c, call, "ordered",
			    vmpi_fold_ordered(c, kind == VCUBE_ALGO_SCAN, out,
					      bytes, type, op));
	}
	native = !vmpi_native(op, type, &vop, &vtype);
	ret = vmpi_coll_pick(c, call, kind, env,
			     vmpi_fold_default(c, kind, env, op, type, true),
			     &algo);
	if (ret)
		return ret;
	say(c, call, algo, bytes);
	if (uses_cnet(kind, algo)) {
		if (!native)
			return vmpi_error(c, MPI_ERR_UNSUPPORTED_OPERATION, call,
					  "the control network has no %s on %s",
					  op->name, type->name);
		if (kind == VCUBE_ALGO_SCAN)
			ret = vcube_scan_run(c->vc, algo, vop, vtype, in, out,
					     (size_t)count);
		else
			ret = vcube_reduce_run(c->vc, algo, vop, vtype, in, out,
					       (size_t)count);
		return done(c, call, algo, ret);
	}
	if (bytes && in != out)
		memmove(out, in, bytes);
	a.name = algo;
	a.fold = vmpi_fold;
	a.fold_ctx = ctx;
	a.sbuf = out;
	a.rbuf = out;
	a.len = bytes;
	return done(c, call, algo, vcube_algo_run(c->vc, &a));
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	return fold_coll(comm, "MPI_Allreduce", VCUBE_ALGO_REDUCE, "ALLREDUCE",
			 sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
			 count, type, op);
}

/*
 * The registry's reductions leave the result at every rank (the papers'
 * do): MPI_Reduce runs one and the root keeps it. Its time is an
 * allreduce's (docs/mpi.md).
 */
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
	void *tmp = NULL, *out = recvbuf;
	const void *in = sendbuf;
	size_t bytes;
	int ret;

	ret = vmpi_intra(comm, "MPI_Reduce");
	if (ret)
		return ret;
	ret = vmpi_coll_root(comm, "MPI_Reduce", root);
	if (ret)
		return ret;
	ret = vmpi_coll_count(comm, "MPI_Reduce", count, type, &bytes);
	if (ret)
		return ret;
	if (comm->rank == root && sendbuf == MPI_IN_PLACE)
		in = recvbuf;
	if (comm->rank != root) {
		tmp = malloc(bytes + 1);
		if (!tmp)
			return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Reduce",
					  "out of memory");
		out = tmp;
	}
	ret = fold_coll(comm, "MPI_Reduce", VCUBE_ALGO_REDUCE, "REDUCE", in,
			out, count, type, op);
	free(tmp);
	return ret;
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
	     MPI_Op op, MPI_Comm comm)
{
	return fold_coll(comm, "MPI_Scan", VCUBE_ALGO_SCAN, "SCAN",
			 sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf,
			 count, type, op);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype type, MPI_Op op,
		       MPI_Comm comm)
{
	size_t total = 0, off = 0;
	const void *in = sendbuf;
	void *tmp;
	int i, ret;

	ret = vmpi_intra(comm, "MPI_Reduce_scatter");
	if (ret)
		return ret;
	if (vmpi_type_check(type))
		return vmpi_error(comm, MPI_ERR_TYPE, "MPI_Reduce_scatter",
				  "not a committed datatype");
	for (i = 0; i < comm->size; i++) {
		if (recvcounts[i] < 0)
			return vmpi_error(comm, MPI_ERR_COUNT,
					  "MPI_Reduce_scatter", "count %d",
					  recvcounts[i]);
		if (i < comm->rank)
			off += (size_t)recvcounts[i];
		total += (size_t)recvcounts[i];
	}
	if (total > (size_t)0x7fffffff)
		return vmpi_error(comm, MPI_ERR_COUNT, "MPI_Reduce_scatter",
				  "%zu elements", total);
	tmp = malloc(total * type->size + 1);
	if (!tmp)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Reduce_scatter",
				  "out of memory");
	if (sendbuf == MPI_IN_PLACE)
		in = recvbuf;
	ret = fold_coll(comm, "MPI_Reduce_scatter", VCUBE_ALGO_REDUCE,
			"REDUCE_SCATTER", in, tmp, (int)total, type, op);
	if (!ret)
		memcpy(recvbuf, (char *)tmp + off * type->size,
		       (size_t)recvcounts[comm->rank] * type->size);
	free(tmp);
	return ret;
}

/* A block of @bytes for every rank, both sides the same size. */
int vmpi_coll_blocks(MPI_Comm c, const char *call, int scount,
			MPI_Datatype stype, int rcount, MPI_Datatype rtype,
			bool in_place, size_t *bytes)
{
	size_t rb, sb;
	int ret;

	ret = vmpi_intra(c, call);
	if (!ret)
		ret = vmpi_coll_count(c, call, rcount, rtype, &rb);
	if (!ret && !in_place)
		ret = vmpi_coll_count(c, call, scount, stype, &sb);
	if (ret)
		return ret;
	if (!in_place && sb != rb)
		return vmpi_error(c, MPI_ERR_TRUNCATE, call,
				  "%zu bytes sent for each %zu received", sb, rb);
	*bytes = rb;
	return 0;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm)
{
	bool in_place = sendbuf == MPI_IN_PLACE;
	const void *sb = sendbuf;
	const char *algo;
	void *tmp = NULL;
	size_t len;
	int ret;

	ret = vmpi_coll_blocks(comm, "MPI_Alltoall", sendcount, sendtype, recvcount,
			   recvtype, in_place, &len);
	if (!ret)
		ret = vmpi_coll_pick(comm, "MPI_Alltoall", VCUBE_ALGO_XCHG, "ALLTOALL",
			   "gen", &algo);
	if (ret)
		return ret;
	if (in_place) {
		tmp = malloc(len * (size_t)comm->size + 1);
		if (!tmp)
			return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Alltoall",
					  "out of memory");
		memcpy(tmp, recvbuf, len * (size_t)comm->size);
		sb = tmp;
	}
	say(comm, "MPI_Alltoall", algo, len);
	ret = vcube_xchg_run(comm->vc, algo, sb, recvbuf, len, NULL);
	free(tmp);
	return done(comm, "MPI_Alltoall", algo, ret);
}

/* Every rank's block to every rank: the complete exchange of p copies. */
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm)
{
	bool in_place = sendbuf == MPI_IN_PLACE;
	const char *algo;
	const void *mine;
	char *tmp;
	size_t len;
	int i, ret;

	ret = vmpi_coll_blocks(comm, "MPI_Allgather", sendcount, sendtype,
			   recvcount, recvtype, in_place, &len);
	if (!ret)
		ret = vmpi_coll_pick(comm, "MPI_Allgather", VCUBE_ALGO_XCHG, "ALLGATHER",
			   "gen", &algo);
	if (ret)
		return ret;
	tmp = malloc(len * (size_t)comm->size + 1);
	if (!tmp)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Allgather",
				  "out of memory");
	mine = in_place ? (char *)recvbuf + (size_t)comm->rank * len : sendbuf;
	for (i = 0; i < comm->size; i++)
		memcpy(tmp + (size_t)i * len, mine, len);
	say(comm, "MPI_Allgather", algo, len);
	ret = vcube_xchg_run(comm->vc, algo, tmp, recvbuf, len, NULL);
	free(tmp);
	return done(comm, "MPI_Allgather", algo, ret);
}

/* Root posts a receive from each rank, in rank order, then waits for all. */
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm)
{
	bool root_me, in_place = sendbuf == MPI_IN_PLACE;
	struct vcube_comm *v;
	unsigned int tag;
	uint64_t *req;
	size_t len, sl;
	int i, ret = 0;

	ret = vmpi_intra(comm, "MPI_Gather");
	if (ret)
		return ret;
	ret = vmpi_coll_root(comm, "MPI_Gather", root);
	if (ret)
		return ret;
	root_me = comm->rank == root;
	ret = vmpi_coll_count(comm, "MPI_Gather", root_me ? recvcount : sendcount,
			  root_me ? recvtype : sendtype, &len);
	if (!ret && root_me && !in_place)
		ret = vmpi_coll_count(comm, "MPI_Gather", sendcount, sendtype, &sl);
	if (ret)
		return ret;
	if (root_me && !in_place && sl != len)
		return vmpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Gather",
				  "%zu bytes sent for %zu received", sl, len);
	v = comm->vc;
	tag = vcube_comm_tag_base(v);
	say(comm, "MPI_Gather", "linear", len);
	if (!root_me)
		return done(comm, "MPI_Gather", "linear",
			    v->tp->send(v->tpx, (unsigned int)root, tag,
					sendbuf, len, 0));
	req = calloc((size_t)comm->size, sizeof(*req));
	if (!req)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Gather",
				  "out of memory");
	for (i = 0; i < comm->size && !ret; i++)
		if (i != root)
			ret = v->tp->irecv(v->tpx, (unsigned int)i, tag,
					   (char *)recvbuf + (size_t)i * len,
					   len, &req[i]);
	ret = vmpi_wait_all_but(v, req, comm->size, root, ret);
	free(req);
	if (!in_place)
		memcpy((char *)recvbuf + (size_t)root * len, sendbuf, len);
	return done(comm, "MPI_Gather", "linear", ret);
}

/* Root sends each rank its block, in rank order. */
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm)
{
	bool root_me, in_place = recvbuf == MPI_IN_PLACE;
	struct vcube_comm *v;
	unsigned int tag;
	size_t len, rl;
	int i, ret;

	ret = vmpi_intra(comm, "MPI_Scatter");
	if (ret)
		return ret;
	ret = vmpi_coll_root(comm, "MPI_Scatter", root);
	if (ret)
		return ret;
	root_me = comm->rank == root;
	ret = vmpi_coll_count(comm, "MPI_Scatter", root_me ? sendcount : recvcount,
			  root_me ? sendtype : recvtype, &len);
	if (!ret && root_me && !in_place)
		ret = vmpi_coll_count(comm, "MPI_Scatter", recvcount, recvtype, &rl);
	if (ret)
		return ret;
	if (root_me && !in_place && rl != len)
		return vmpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Scatter",
				  "%zu bytes sent for %zu received", len, rl);
	v = comm->vc;
	tag = vcube_comm_tag_base(v);
	say(comm, "MPI_Scatter", "linear", len);
	if (!root_me)
		return done(comm, "MPI_Scatter", "linear",
			    v->tp->recv(v->tpx, (unsigned int)root, tag,
					recvbuf, len));
	for (i = 0; i < comm->size && !ret; i++)
		if (i != root)
			ret = v->tp->send(v->tpx, (unsigned int)i, tag,
					  (const char *)sendbuf +
					  (size_t)i * len, len, 0);
	if (!in_place)
		memcpy(recvbuf, (const char *)sendbuf + (size_t)root * len, len);
	return done(comm, "MPI_Scatter", "linear", ret);
}

/*
 * In place: the receive buffer's blocks are what each rank sends, so a
 * copy of them (its span) is the send buffer, at the same counts and
 * displacements.
 */
static int alltoallv_in_place(void *recvbuf, const int recvcounts[],
			      const int rdispls[], MPI_Datatype recvtype,
			      MPI_Comm comm)
{
	size_t span = 0, end;
	void *copy;
	int k, ret;

	if (!recvcounts || !rdispls || vmpi_type_check(recvtype))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Alltoallv",
				  "no counts, displacements or type");
	for (k = 0; k < comm->size; k++) {
		end = ((size_t)(rdispls[k] > 0 ? rdispls[k] : 0) +
		       (size_t)(recvcounts[k] > 0 ? recvcounts[k] : 0)) *
		      recvtype->size;
		span = end > span ? end : span;
	}
	copy = malloc(span + 1);
	if (!copy)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Alltoallv",
				  "out of memory");
	memcpy(copy, recvbuf, span);
	ret = MPI_Alltoallv(copy, recvcounts, rdispls, recvtype, recvbuf,
			    recvcounts, rdispls, recvtype, comm);
	free(copy);
	return ret;
}

/*
 * Pairwise, as Open MPI's: step k sends to rank + k and receives from
 * rank - k; the own block is copied.
 */
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm)
{
	struct vcube_comm *v;
	unsigned int tag;
	int k, p, me, ret;

	ret = vmpi_intra(comm, "MPI_Alltoallv");
	if (ret)
		return ret;
	if (sendbuf == MPI_IN_PLACE)
		return alltoallv_in_place(recvbuf, recvcounts, rdispls, recvtype,
					  comm);
	if (vmpi_type_check(sendtype) || vmpi_type_check(recvtype))
		return vmpi_error(comm, MPI_ERR_TYPE, "MPI_Alltoallv",
				  "not a committed datatype");
	if (!vmpi_type_contig(sendtype) || !vmpi_type_contig(recvtype))
		return vmpi_error(comm, MPI_ERR_TYPE, "MPI_Alltoallv",
				  "a non-contiguous datatype: the collectives take contiguous ones only");
	p = comm->size;
	me = comm->rank;
	for (k = 0; k < p; k++)
		if (sendcounts[k] < 0 || recvcounts[k] < 0 || sdispls[k] < 0 ||
		    rdispls[k] < 0 ||
		    (size_t)sendcounts[k] * sendtype->size > vmpi.max_msg ||
		    (size_t)recvcounts[k] * recvtype->size > vmpi.max_msg)
			return vmpi_error(comm, MPI_ERR_COUNT, "MPI_Alltoallv",
					  "rank %d's count or displacement", k);
	if ((size_t)sendcounts[me] * sendtype->size !=
	    (size_t)recvcounts[me] * recvtype->size)
		return vmpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Alltoallv",
				  "rank %d sends itself %zu bytes into %zu", me,
				  (size_t)sendcounts[me] * sendtype->size,
				  (size_t)recvcounts[me] * recvtype->size);
	v = comm->vc;
	tag = vcube_comm_tag_base(v);
	say(comm, "MPI_Alltoallv", "pairwise", 0);
	memmove((char *)recvbuf + (size_t)rdispls[me] * recvtype->size,
	       (const char *)sendbuf + (size_t)sdispls[me] * sendtype->size,
	       (size_t)sendcounts[me] * sendtype->size);
	for (k = 1; k < p && !ret; k++) {
		int to = (me + k) % p, from = (me - k + p) % p;

		ret = vcube_comm_step(v, tag | (unsigned int)k, (unsigned int)to,
				      (const char *)sendbuf +
				      (size_t)sdispls[to] * sendtype->size,
				      (size_t)sendcounts[to] * sendtype->size,
				      (unsigned int)from,
				      (char *)recvbuf +
				      (size_t)rdispls[from] * recvtype->size,
				      (size_t)recvcounts[from] * recvtype->size,
				      0);
	}
	return done(comm, "MPI_Alltoallv", "pairwise", ret);
}
