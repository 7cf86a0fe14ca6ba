// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: context ids, and intercommunicators.
 *
 * A communicator's context (its cid, 10 bits of every tag on the wire,
 * vmpi.h) must be one no other live communicator of any of its members
 * uses. Each process keeps a mask of the contexts it has free; a new
 * communicator's members AND theirs together and take the lowest bit left,
 * and a context is free again once its communicator is gone (the last
 * request let go of it), so a program may make and free communicators
 * without end, with at most VMPI_MAX_CID + 1 live at once.
 *
 * An intercommunicator's node[], rank_of[] and size are its remote
 * group's, which is what point-to-point ranks name on it, so mpi.c's
 * sends and receives need nothing else; its own rank and its local group
 * are those of @local, an intracommunicator over the local group on the
 * same context, which carries the intercommunicator's own agreements (the
 * collectives of the local group: their tags never meet point-to-point's).
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

void vmpi_cid_init(void)
{
	memset(vmpi.cid_free, 0xff, sizeof(vmpi.cid_free));
	vmpi.cid_free[0] &= ~3U;	/* MPI_COMM_WORLD's and MPI_COMM_SELF's */
}

void vmpi_cid_release(unsigned int cid)
{
	vmpi.cid_free[cid / 32] |= 1U << (cid % 32);
}

/* The lowest context free in @mask, or VMPI_MAX_CID + 1 if none. */
unsigned int vmpi_cid_lowest(const unsigned int *mask)
{
	unsigned int w;

	for (w = 0; w < VMPI_CID_WORDS; w++)
		if (mask[w])
			return w * 32 + (unsigned int)__builtin_ctz(mask[w]);
	return VMPI_MAX_CID + 1;
}

/* Context @cid (from vmpi_cid_lowest()) taken: 0, or MPI_ERR_INTERN if none. */
int vmpi_cid_take(unsigned int cid)
{
	if (cid > VMPI_MAX_CID)
		return MPI_ERR_INTERN;
	vmpi.cid_free[cid / 32] &= ~(1U << (cid % 32));
	return 0;
}

static int cid_none(MPI_Comm comm)
{
	return vmpi_error(comm, MPI_ERR_INTERN, "a new communicator",
			  "%d communicators live at once", VMPI_MAX_CID + 1);
}

/* A context free for every member of @comm, taken by each (collective). */
int vmpi_cid_agree(MPI_Comm comm, unsigned int *cid)
{
	unsigned int all[VMPI_CID_WORDS];
	int ret;

	vmpi_idup_drain();	/* their agreements first (idup.c) */
	ret = MPI_Allreduce(vmpi.cid_free, all, VMPI_CID_WORDS, MPI_UNSIGNED,
			    MPI_BAND, comm);
	if (ret)
		return ret;
	*cid = vmpi_cid_lowest(all);
	return vmpi_cid_take(*cid) ? cid_none(comm) : 0;
}

/*
 * The same over @n members named by their ranks in @comm, @rank[0] their
 * leader, by @tag on @comm's point-to-point messages: the leader ANDs the
 * masks and answers with the context.
 */
int vmpi_cid_agree_among(MPI_Comm comm, const int *rank, int n, int tag,
			 unsigned int *cid)
{
	unsigned int all[VMPI_CID_WORDS], x[VMPI_CID_WORDS];
	int i, w, ret = 0;

	vmpi_idup_drain();
	memcpy(all, vmpi.cid_free, sizeof(all));
	if (comm->rank == rank[0]) {
		for (i = 1; !ret && i < n; i++) {
			ret = MPI_Recv(x, VMPI_CID_WORDS, MPI_UNSIGNED, rank[i],
				       tag, comm, MPI_STATUS_IGNORE);
			for (w = 0; w < VMPI_CID_WORDS; w++)
				all[w] &= x[w];
		}
		*cid = vmpi_cid_lowest(all);
		for (i = 1; !ret && i < n; i++)
			ret = MPI_Send(cid, 1, MPI_UNSIGNED, rank[i], tag, comm);
	} else {
		ret = MPI_Send(all, VMPI_CID_WORDS, MPI_UNSIGNED, rank[0], tag,
			       comm);
		if (!ret)
			ret = MPI_Recv(cid, 1, MPI_UNSIGNED, rank[0], tag, comm,
				       MPI_STATUS_IGNORE);
	}
	if (ret)
		return ret;
	return vmpi_cid_take(*cid) ? cid_none(comm) : 0;
}

/* ---- intercommunicators ----------------------------------------------------- */

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	int ret = vmpi_enter(comm, "MPI_Comm_test_inter");

	if (!ret && !flag)
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_test_inter",
				 "no flag");
	if (!ret)
		*flag = comm->local != NULL;
	return ret;
}

static int inter_enter(MPI_Comm comm, const char *call)
{
	int ret = vmpi_enter(comm, call);

	if (!ret && !comm->local)
		ret = vmpi_error(comm, MPI_ERR_COMM, call,
				 "not an intercommunicator");
	return ret;
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	int ret = inter_enter(comm, "MPI_Comm_remote_size");

	if (!ret && !size)
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_remote_size",
				 "no size");
	if (!ret)
		*size = comm->size;
	return ret;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	int ret = inter_enter(comm, "MPI_Comm_remote_group");

	if (!ret && !group)
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_remote_group",
				 "no group");
	if (!ret)
		ret = vmpi_group_of(comm->node, comm->size, group);
	return ret ? vmpi_error(comm, ret, "MPI_Comm_remote_group",
				"out of memory") : 0;
}

/*
 * The intercommunicator from @local (an intracommunicator over the local
 * group, on the context they share, taken over) to the @rn nodes of
 * @rnode (taken over).
 */
static int inter_make(MPI_Comm local, unsigned int *rnode, int rn,
		      MPI_Comm *out)
{
	int ret = vmpi_comm_make(local->cid, rnode, rn, 0, out);

	if (ret) {
		local->shared_cid = false;	/* the context goes with it */
		vmpi_comm_put(local);
		return ret;
	}
	(*out)->rank = local->rank;
	(*out)->local = local;
	(*out)->errh = local->errh;
	vmpi_errh_get(local->errh);
	return 0;
}

/*
 * The leaders' exchange over @peer: each sends @n unsigned ints of @mine
 * and receives the other's count, then as many into *@theirs (allocated).
 */
static int swap(MPI_Comm peer, int other, int tag, const void *s, void *r,
		int n, int rn)
{
	/* over an intercommunicator: the library's own tag, never a program's */
	if (peer->local)
		return vmpi_swap(peer, other, (unsigned int)tag, s,
				 (size_t)n * sizeof(int), r,
				 (size_t)rn * sizeof(int));
	return MPI_Sendrecv(s, n, MPI_INT, other, tag, r, rn, MPI_INT, other,
			    tag, peer, MPI_STATUS_IGNORE);
}

static int leaders_swap(MPI_Comm peer, int other, int tag,
			const unsigned int *mine, int n, unsigned int **theirs,
			int *tn)
{
	int ret = swap(peer, other, tag, &n, tn, 1, 1);

	if (ret)
		return ret;
	if (*tn < 0 || *tn > (int)vmpi.nnodes + VMPI_CID_WORDS)
		return MPI_ERR_INTERN;
	*theirs = malloc(((size_t)*tn + 1) * sizeof(**theirs));
	if (!*theirs)
		return MPI_ERR_NO_MEM;
	return swap(peer, other, tag, mine, *theirs, n, *tn);
}

/*
 * The two groups' context masks ANDed, and the remote group's nodes,
 * exchanged by the leaders and spread to each group over @local: a
 * context both take, and *@rnode (allocated) of *@rn nodes.
 */
static int inter_agree(MPI_Comm local, int leader, MPI_Comm peer, int rleader,
		       int tag, unsigned int *cid, unsigned int **rnode,
		       int *rn)
{
	unsigned int mask[VMPI_CID_WORDS], *theirs = NULL;
	int ret, n = 0, w;

	ret = MPI_Allreduce(vmpi.cid_free, mask, VMPI_CID_WORDS, MPI_UNSIGNED,
			    MPI_BAND, local);
	if (!ret && local->rank == leader) {
		ret = leaders_swap(peer, rleader, tag, mask, VMPI_CID_WORDS,
				   &theirs, &n);
		for (w = 0; !ret && w < VMPI_CID_WORDS; w++)
			mask[w] &= w < n ? theirs[w] : 0;
		free(theirs);
		theirs = NULL;
		if (!ret)
			ret = leaders_swap(peer, rleader, tag, local->node,
					   local->size, &theirs, rn);
	}
	if (!ret)
		ret = MPI_Bcast(mask, VMPI_CID_WORDS, MPI_UNSIGNED, leader, local);
	if (!ret)
		ret = MPI_Bcast(rn, 1, MPI_INT, leader, local);
	if (!ret && local->rank != leader) {
		theirs = malloc(((size_t)*rn + 1) * sizeof(*theirs));
		if (!theirs)
			ret = MPI_ERR_NO_MEM;
	}
	if (!ret)
		ret = MPI_Bcast(theirs, *rn, MPI_UNSIGNED, leader, local);
	if (!ret) {
		*cid = vmpi_cid_lowest(mask);
		ret = vmpi_cid_take(*cid);
	}
	if (ret) {
		free(theirs);
		return ret;
	}
	*rnode = theirs;
	return 0;
}

/* An intracommunicator over @c's nodes on context @cid (its own copy). */
static int local_copy(MPI_Comm c, unsigned int cid, MPI_Comm *out)
{
	unsigned int *node = malloc((size_t)c->size * sizeof(*node));
	int ret;

	if (!node)
		return MPI_ERR_NO_MEM;
	memcpy(node, c->node, (size_t)c->size * sizeof(*node));
	ret = vmpi_comm_make(cid, node, c->size, c->rank, out);
	if (!ret)
		(*out)->shared_cid = true;
	return ret;
}

int MPI_Intercomm_create(MPI_Comm local, int leader, MPI_Comm peer,
			 int rleader, int tag, MPI_Comm *newcomm)
{
	const char *call = "MPI_Intercomm_create";
	unsigned int cid, *rnode = NULL;
	MPI_Comm lc = MPI_COMM_NULL;
	int ret = vmpi_intra(local, call), rn = 0;

	if (!ret && (leader < 0 || leader >= local->size || !newcomm))
		ret = vmpi_error(local, MPI_ERR_ARG, call, "leader %d of %d",
				 leader, local->size);
	if (!ret && local->rank == leader &&
	    (vmpi_intra(peer, call) || rleader < 0 || rleader >= peer->size))
		ret = vmpi_error(local, MPI_ERR_ARG, call,
				 "no peer communicator, or remote leader %d",
				 rleader);
	if (ret)
		return ret;
	ret = inter_agree(local, leader, peer, rleader, tag, &cid, &rnode, &rn);
	if (ret)
		return vmpi_error(local, ret, call,
				  "the groups could not agree on a context");
	ret = local_copy(local, cid, &lc);
	if (!ret)
		ret = inter_make(lc, rnode, rn, newcomm);
	else
		free(rnode);
	if (ret) {
		if (!lc)
			vmpi_cid_release(cid);
		return vmpi_error(local, ret, call, "out of memory");
	}
	(*newcomm)->errh = local->errh;
	vmpi_errh_get(local->errh);
	return MPI_SUCCESS;
}

/*
 * The union of both groups, the group whose members said @high after the
 * other (if both said the same, the group of the leader with the lower
 * world rank first), on a context both agree on.
 */
int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newcomm)
{
	const char *call = "MPI_Intercomm_merge";
	MPI_Comm l;
	unsigned int cid, *node, *theirs = NULL;
	int ret = inter_enter(inter, call), me[2], them[2] = { 0, 0 }, rn, n;
	bool first;

	if (!ret && !newcomm)
		ret = vmpi_error(inter, MPI_ERR_ARG, call, "no communicator");
	if (ret)
		return ret;
	l = inter->local;
	me[0] = !!high;
	me[1] = (int)l->node[0];
	/* the leaders (local rank 0) swap their group's high, then masks */
	if (l->rank == 0)
		ret = swap(inter, 0, 0, me, them, 2, 2);
	if (!ret)
		ret = MPI_Bcast(them, 2, MPI_INT, 0, l);
	if (!ret)
		ret = inter_agree(l, 0, inter, 0, 1, &cid, &theirs, &rn);
	if (ret)
		return vmpi_error(inter, ret, call, "the groups could not agree");
	first = me[0] != them[0] ? !me[0] : me[1] < them[1];
	n = l->size + rn;
	node = malloc((size_t)n * sizeof(*node));
	if (!node) {
		free(theirs);
		vmpi_cid_release(cid);
		return vmpi_error(inter, MPI_ERR_NO_MEM, call, "out of memory");
	}
	memcpy(node + (first ? 0 : rn), l->node, (size_t)l->size * sizeof(*node));
	memcpy(node + (first ? l->size : 0), theirs, (size_t)rn * sizeof(*node));
	free(theirs);
	ret = vmpi_comm_make(cid, node, n, l->rank + (first ? 0 : rn), newcomm);
	if (ret) {
		vmpi_cid_release(cid);
		return vmpi_error(inter, ret, call, "out of memory");
	}
	(*newcomm)->errh = inter->errh;
	vmpi_errh_get(inter->errh);
	return MPI_SUCCESS;
}

/* MPI_Comm_dup of an intercommunicator: the same groups, a new context. */
int vmpi_inter_dup(MPI_Comm inter, MPI_Comm *newcomm)
{
	MPI_Comm l = inter->local, lc = MPI_COMM_NULL;
	unsigned int cid, *rnode = NULL;
	int ret, rn;

	ret = inter_agree(l, 0, inter, 0, 2, &cid, &rnode, &rn);
	if (ret)
		return ret;
	ret = local_copy(l, cid, &lc);
	if (!ret)
		return inter_make(lc, rnode, rn, newcomm);
	free(rnode);
	vmpi_cid_release(cid);
	return ret;
}
