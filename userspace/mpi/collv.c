// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: the v-variants and the other collectives MPI builds from the
 * eleven of coll.c: MPI_Gatherv and MPI_Scatterv (linear, as MPI_Gather and
 * MPI_Scatter), MPI_Allgatherv (MPI_Alltoallv's pairwise exchange, each
 * rank's one block to all), MPI_Reduce_scatter_block (MPI_Reduce_scatter's,
 * equal counts), MPI_Exscan (a chain: rank i takes the prefix of the ranks
 * before it from rank i - 1 and passes its own on, p - 1 steps) and
 * MPI_Reduce_local. Contiguous datatypes, as coll.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "vmpi.h"

/* @type is committed and contiguous, for collective @call on @c. */
int vmpi_contig_check(MPI_Comm c, const char *call, MPI_Datatype type)
{
	if (vmpi_type_check(type))
		return vmpi_error(c, MPI_ERR_TYPE, call, "not a committed datatype");
	if (!vmpi_type_contig(type))
		return vmpi_error(c, MPI_ERR_TYPE, call,
				  "a non-contiguous datatype: the collectives take contiguous ones only");
	return 0;
}

/* counts[] and displs[] of @c's ranks: none negative, none past max_msg. */
int vmpi_v_check(MPI_Comm c, const char *call, const int counts[],
		   const int displs[], MPI_Datatype type)
{
	int i;

	if (!counts || !displs)
		return vmpi_error(c, MPI_ERR_ARG, call, "no counts or displacements");
	for (i = 0; i < c->size; i++)
		if (counts[i] < 0 || displs[i] < 0 ||
		    (size_t)counts[i] * type->size > vmpi.max_msg)
			return vmpi_error(c, MPI_ERR_COUNT, call,
					  "rank %d's count %d or displacement %d",
					  i, counts[i], displs[i]);
	return 0;
}

static int v_done(MPI_Comm c, const char *call, int ret)
{
	return ret ? vmpi_error(c, vmpi_errclass(ret), call, "%s",
				vmpi_strerror(ret)) : MPI_SUCCESS;
}

/*
 * A rooted v-collective's arguments: each rank's own @count of @type (not
 * at the root in place), and at @root the @counts[] and @displs[] of
 * @vtype, the root's own block the same bytes as its count. *@bytes: the
 * own block's.
 */
int vmpi_v_args(MPI_Comm c, const char *call, int root, bool in_place,
		  int count, MPI_Datatype type, const int counts[],
		  const int displs[], MPI_Datatype vtype, size_t *bytes)
{
	int ret = vmpi_intra(c, call), me;

	*bytes = 0;
	if (!ret && (root < 0 || root >= c->size))
		ret = vmpi_error(c, MPI_ERR_ROOT, call, "root %d", root);
	if (ret)
		return ret;
	me = c->rank;
	if (!(me == root && in_place)) {
		ret = vmpi_contig_check(c, call, type);
		if (!ret)
			ret = vmpi_count_check(c, call, MPI_IN_PLACE, count, type,
					       bytes);
	}
	if (!ret && me == root) {
		ret = vmpi_contig_check(c, call, vtype);
		if (!ret)
			ret = vmpi_v_check(c, call, counts, displs, vtype);
		if (!ret && !in_place &&
		    *bytes != (size_t)counts[me] * vtype->size)
			ret = vmpi_error(c, MPI_ERR_TRUNCATE, call,
					 "the root's own %zu bytes for %zu", *bytes,
					 (size_t)counts[me] * vtype->size);
	}
	return ret;
}

/* Wait for every request of @req[@n] but @skip's: the first error, or @ret. */
int vmpi_wait_all_but(struct vcube_comm *v, uint64_t *req, int n, int skip,
		      int ret)
{
	int i, r;

	for (i = 0; i < n; i++) {
		if (i == skip || !req[i])
			continue;
		r = v->tp->wait(v->tpx, req[i], NULL);
		ret = ret ? ret : r;
	}
	return ret;
}

/* Root posts a receive from each rank, in rank order, then waits for all. */
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	const char *call = "MPI_Gatherv";
	bool in_place = sendbuf == MPI_IN_PLACE;
	struct vcube_comm *v;
	uint64_t *req;
	size_t sl;
	unsigned int tag;
	int i, me;
	int ret = vmpi_v_args(comm, call, root, in_place, sendcount, sendtype,
			 recvcounts, displs, recvtype, &sl);

	if (ret)
		return ret;
	me = comm->rank;
	v = comm->vc;
	tag = vcube_comm_tag_base(v);
	if (me != root)
		return v_done(comm, call, v->tp->send(v->tpx, (unsigned int)root,
						      tag, sendbuf, sl, 0));
	req = calloc((size_t)comm->size, sizeof(*req));
	if (!req)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	for (i = 0; i < comm->size && !ret; i++)
		if (i != root)
			ret = v->tp->irecv(v->tpx, (unsigned int)i, tag,
					   (char *)recvbuf +
					   (size_t)displs[i] * recvtype->size,
					   (size_t)recvcounts[i] * recvtype->size,
					   &req[i]);
	ret = vmpi_wait_all_but(v, req, comm->size, root, ret);
	free(req);
	if (!in_place)
		memcpy((char *)recvbuf + (size_t)displs[root] * recvtype->size,
		       sendbuf, sl);
	return v_done(comm, call, ret);
}

/* Root sends each rank its block, in rank order. */
int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	const char *call = "MPI_Scatterv";
	bool in_place = recvbuf == MPI_IN_PLACE;
	struct vcube_comm *v;
	size_t rl;
	unsigned int tag;
	int i, me;
	int ret = vmpi_v_args(comm, call, root, in_place, recvcount, recvtype,
			 sendcounts, displs, sendtype, &rl);

	if (ret)
		return ret;
	me = comm->rank;
	v = comm->vc;
	tag = vcube_comm_tag_base(v);
	if (me != root)
		return v_done(comm, call, v->tp->recv(v->tpx, (unsigned int)root,
						      tag, recvbuf, rl));
	for (i = 0; i < comm->size && !ret; i++)
		if (i != root)
			ret = v->tp->send(v->tpx, (unsigned int)i, tag,
					  (const char *)sendbuf +
					  (size_t)displs[i] * sendtype->size,
					  (size_t)sendcounts[i] * sendtype->size, 0);
	if (!in_place)
		memcpy(recvbuf, (const char *)sendbuf +
		       (size_t)displs[root] * sendtype->size, rl);
	return v_done(comm, call, ret);
}

/* MPI_Alltoallv with the same block to every rank. */
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm)
{
	const char *call = "MPI_Allgatherv";
	int *sc, *sd, i, ret = vmpi_intra(comm, call);

	if (!ret)
		ret = vmpi_contig_check(comm, call, recvtype);
	if (!ret)
		ret = vmpi_v_check(comm, call, recvcounts, displs, recvtype);
	if (ret)
		return ret;
	if (sendbuf == MPI_IN_PLACE) {	/* its own block is where it goes */
		sendbuf = (char *)recvbuf +
			  (size_t)displs[comm->rank] * recvtype->size;
		sendcount = recvcounts[comm->rank];
		sendtype = recvtype;
	}
	sc = malloc(2 * (size_t)comm->size * sizeof(int));
	if (!sc)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	sd = sc + comm->size;
	for (i = 0; i < comm->size; i++) {
		sc[i] = sendcount;
		sd[i] = 0;
	}
	ret = MPI_Alltoallv(sendbuf, sc, sd, sendtype, recvbuf, recvcounts,
			    displs, recvtype, comm);
	free(sc);
	return ret;
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype type, MPI_Op op,
			     MPI_Comm comm)
{
	int *counts, i, ret = vmpi_intra(comm, "MPI_Reduce_scatter_block");

	if (ret)
		return ret;
	counts = malloc((size_t)comm->size * sizeof(int));
	if (!counts)
		return vmpi_error(comm, MPI_ERR_NO_MEM,
				  "MPI_Reduce_scatter_block", "out of memory");
	for (i = 0; i < comm->size; i++)
		counts[i] = recvcount;
	ret = MPI_Reduce_scatter(sendbuf, recvbuf, counts, type, op, comm);
	free(counts);
	return ret;
}

int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype type, MPI_Op op)
{
	size_t bytes;
	int ret;

	NEED_INIT("MPI_Reduce_local");
	ret = vmpi_count_check(MPI_COMM_WORLD, "MPI_Reduce_local",
			       MPI_IN_PLACE, count, type, &bytes);
	if (ret)
		return ret;
	ret = vmpi_op_check(op, type);
	if (ret)
		return vmpi_error(MPI_COMM_WORLD, ret, "MPI_Reduce_local",
				  "%s on %s", op ? op->name : "?", type->name);
	if (bytes && (!inbuf || !inoutbuf))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_BUFFER,
				  "MPI_Reduce_local", "NULL buffer");
	vmpi_combine(type, op, inbuf, inoutbuf, bytes);
	return MPI_SUCCESS;
}

/*
 * A chain over @c's ranks: rank i - 1's prefix (of ranks 0 .. i - 1)
 * arrives in @pre, @acc becomes the prefix op @acc, in rank order, and
 * goes on to rank i + 1. 0 or a -errno.
 */
static int chain(MPI_Comm c, void *pre, void *acc, size_t bytes,
		 MPI_Datatype type, MPI_Op op)
{
	struct vcube_comm *v = c->vc;
	unsigned int tag = vcube_comm_tag_base(v);
	int me = c->rank, ret = 0;

	if (me > 0) {
		ret = v->tp->recv(v->tpx, (unsigned int)me - 1, tag, pre, bytes);
		if (!ret)
			vmpi_combine(type, op, pre, acc, bytes);
	}
	if (!ret && me + 1 < c->size)
		ret = v->tp->send(v->tpx, (unsigned int)me + 1, tag, acc, bytes,
				  0);
	return ret;
}

/* The chain, the prefix that arrives the result, the operand a copy. */
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	const char *call = "MPI_Exscan";
	const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
	size_t bytes;
	char *acc;
	int ret = vmpi_intra(comm, call);

	if (!ret)
		ret = vmpi_contig_check(comm, call, type);
	if (!ret)
		ret = vmpi_count_check(comm, call, MPI_IN_PLACE, count, type,
				       &bytes);
	if (!ret && (ret = vmpi_op_check(op, type)))
		ret = vmpi_error(comm, ret, call, "%s on %s",
				 op ? op->name : "?", type->name);
	if (ret)
		return ret;
	/* a copy of its operand: in place, the prefix lands on it */
	acc = malloc(bytes + 1);
	if (!acc)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	memcpy(acc, mine, bytes);
	ret = chain(comm, recvbuf, acc, bytes, type, op);
	free(acc);
	return v_done(comm, call, ret);
}

/*
 * A non-commutative operator of the program's (coll.c's reductions and
 * scan): in rank order, as MPI requires. A reduction sends every operand
 * to rank 0, which combines them from the last rank's down (a_0 op (a_1
 * op ...)) and sends the result to every rank; a scan is a chain, rank i
 * combining rank i - 1's prefix with its own. @out holds @bytes of the
 * operand on entry, the result on return.
 */
int vmpi_fold_ordered(MPI_Comm c, bool scan, void *out, size_t bytes,
		      MPI_Datatype type, MPI_Op op)
{
	struct vcube_comm *v;
	unsigned int tag;
	int i, me = c->rank, p = c->size, ret = 0;
	char *all;

	if (scan) {
		all = malloc(bytes + 1);
		if (!all)
			return -ENOMEM;
		ret = chain(c, all, out, bytes, type, op);
		free(all);
		return ret;
	}
	v = c->vc;
	tag = vcube_comm_tag_base(v);
	if (me) {
		ret = v->tp->send(v->tpx, 0, tag, out, bytes, 0);
		return ret ? ret : v->tp->recv(v->tpx, 0, tag | 1, out, bytes);
	}
	all = malloc((size_t)p * bytes + 1);
	if (!all)
		return -ENOMEM;
	for (i = 1; i < p && !ret; i++)
		ret = v->tp->recv(v->tpx, (unsigned int)i, tag,
				  all + (size_t)i * bytes, bytes);
	if (!ret) {
		memcpy(all, out, bytes);
		for (i = p - 2; i >= 0; i--)	/* a_i op (a_i+1 op ...) */
			vmpi_combine(type, op, all + (size_t)i * bytes,
				     all + (size_t)(p - 1) * bytes, bytes);
		memcpy(out, all + (size_t)(p - 1) * bytes, bytes);
	}
	for (i = 1; i < p && !ret; i++)
		ret = v->tp->send(v->tpx, (unsigned int)i, tag | 1, out, bytes, 0);
	free(all);
	return ret;
}

/*
 * MPI_Alltoallv with a type per rank and displacements in bytes: the same
 * pairwise exchange, step k sending to rank + k and receiving from rank -
 * k; in place, the blocks sent are a copy of the receive buffer's.
 */
int vmpi_w_args(MPI_Comm comm, const char *call, bool in_place,
		const int sendcounts[], const int sdispls[],
		const MPI_Datatype sendtypes[], const void *recvbuf,
		const int recvcounts[], const int rdispls[],
		const MPI_Datatype recvtypes[], size_t **sizes, char **copy)
{
	size_t *sb, *rb, span = 0;
	int k, p = comm->size, me = comm->rank, ret = 0;

	*sizes = NULL;
	*copy = NULL;
	if (!recvcounts || !rdispls || !recvtypes ||
	    (!in_place && (!sendcounts || !sdispls || !sendtypes)))
		return vmpi_error(comm, MPI_ERR_ARG, call, "no counts, displacements or types");
	sb = malloc(2 * (size_t)p * sizeof(*sb));
	if (!sb)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	rb = sb + p;
	for (k = 0; k < p && !ret; k++) {
		ret = vmpi_contig_check(comm, call, recvtypes[k]);
		if (!ret && !in_place)
			ret = vmpi_contig_check(comm, call, sendtypes[k]);
		if (!ret && (recvcounts[k] < 0 || rdispls[k] < 0 ||
			     (!in_place && (sendcounts[k] < 0 || sdispls[k] < 0))))
			ret = vmpi_error(comm, MPI_ERR_COUNT, call,
					 "rank %d's count or displacement", k);
		if (ret)
			break;
		rb[k] = (size_t)recvcounts[k] * recvtypes[k]->size;
		sb[k] = in_place ? rb[k] : (size_t)sendcounts[k] * sendtypes[k]->size;
		if (rb[k] > vmpi.max_msg || sb[k] > vmpi.max_msg)
			ret = vmpi_error(comm, MPI_ERR_COUNT, call,
					 "rank %d's block past max_msg", k);
		if ((size_t)rdispls[k] + rb[k] > span)
			span = (size_t)rdispls[k] + rb[k];
	}
	if (!ret && sb[me] != rb[me])
		ret = vmpi_error(comm, MPI_ERR_TRUNCATE, call,
				 "rank %d sends itself %zu bytes into %zu", me,
				 sb[me], rb[me]);
	if (!ret && in_place) {
		*copy = malloc(span + 1);
		if (!*copy)
			ret = vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
		else
			memcpy(*copy, recvbuf, span);
	}
	if (ret)
		free(sb);
	else
		*sizes = sb;
	return ret;
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	const char *call = "MPI_Alltoallw";
	bool in_place = sendbuf == MPI_IN_PLACE;
	struct vcube_comm *v;
	size_t *sb, *rb;
	unsigned int tag;
	char *copy;
	int k, p, me, ret = vmpi_intra(comm, call);

	if (!ret)
		ret = vmpi_w_args(comm, call, in_place, sendcounts, sdispls,
				  sendtypes, recvbuf, recvcounts, rdispls,
				  recvtypes, &sb, &copy);
	if (ret)
		return ret;
	p = comm->size;
	me = comm->rank;
	rb = sb + p;
	if (in_place) {
		sendbuf = copy;
		sdispls = rdispls;
	}
	v = comm->vc;
	tag = vcube_comm_tag_base(v);
	memmove((char *)recvbuf + rdispls[me], (const char *)sendbuf + sdispls[me], rb[me]);
	for (k = 1; k < p && !ret; k++) {
		int to = (me + k) % p, from = (me - k + p) % p;

		ret = vcube_comm_step(v, tag | (unsigned int)k, (unsigned int)to,
				      (const char *)sendbuf + sdispls[to], sb[to],
				      (unsigned int)from,
				      (char *)recvbuf + rdispls[from], rb[from], 0);
	}
	free(copy);
	free(sb);
	return v_done(comm, call, ret);
}
