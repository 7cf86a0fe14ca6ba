// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: MPI_Comm_idup, a duplicate whose context is agreed without
 * blocking.
 *
 * A blocking duplicate ANDs its members' masks of free contexts in one
 * allreduce and takes the lowest (inter.c). Idups pending at once on one
 * process would take the same one, so each agreement is in rounds, MPICH's
 * way: a round is a dissemination allreduce (AND is idempotent, so any
 * number of members) of the members' masks and of a word saying whether
 * each gave its real mask. A process gives its real mask to one round at
 * a time (its lock), and only to the highest of its pending idups by
 * (parent context, the parent's idups' order), the same order at every
 * process; the others give nothing. A round that every member gave its
 * mask to takes the lowest context of the AND, at every member alike; any
 * other round is run again. The highest pending idup of all is the
 * highest at each of its members, which each give it their lock once the
 * round holding it ends: so some idup always completes.
 *
 * A round's messages are the members' point-to-point ones on a context no
 * communicator has (16383, past the 1023 there are), the parent's context
 * and the step in the tag, so they meet no program's and no collective's
 * messages, and take none of the parent's collective tags: rounds may run
 * again at different times on different members. An idup's slot in the
 * tag is the parent's idups' count mod 4: one whose slot's last idup is
 * still pending here waits for it to complete first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

#define ROUND_WORDS	(VMPI_CID_WORDS + 1)	/* the masks, and "all gave" */

struct vmpi_idup {
	struct vmpi_idup *next;		/* the pending ones */
	MPI_Comm parent;
	MPI_Comm *out;
	unsigned long long key;		/* the order: parent's context, its idups' */
	unsigned int slot;
	bool in_round, locked;
	int step, nsteps;
	uint64_t rq, sq;		/* the step's receive and send, or 0 */
	unsigned int mask[ROUND_WORDS], got[ROUND_WORDS];
};

static struct vmpi_idup *pending;
static struct vmpi_idup *lock_owner;

static unsigned int wire_tag(const struct vmpi_idup *d, int step)
{
	return VMPI_P2P | 0x3fffU << 16 | (d->parent->cid & 0x3ff) << 6 |
	       d->slot << 4 | (unsigned int)step;
}

/* Is @d the highest pending idup of this process? */
static bool highest(const struct vmpi_idup *d)
{
	const struct vmpi_idup *o;

	for (o = pending; o; o = o->next)
		if (o->key < d->key)
			return false;
	return true;
}

static void round_start(struct vmpi_idup *d)
{
	d->locked = !lock_owner && highest(d);
	if (d->locked) {
		lock_owner = d;
		memcpy(d->mask, vmpi.cid_free, sizeof(vmpi.cid_free));
		d->mask[VMPI_CID_WORDS] = 1;
	} else {
		memset(d->mask, 0, sizeof(d->mask));
	}
	d->step = 0;
	d->in_round = true;
}

/* Post step @d->step's receive and send. */
static int step_post(struct vmpi_idup *d)
{
	int p = d->parent->size, me = d->parent->rank, k = 1 << d->step, ret;

	ret = vcube_node_irecv(vmpi.node, d->parent->node[(me - k % p + p) % p],
			       wire_tag(d, d->step), d->got, sizeof(d->got),
			       &d->rq);
	if (!ret)
		ret = vcube_node_isend(vmpi.node, d->parent->node[(me + k) % p],
				       wire_tag(d, d->step), d->mask,
				       sizeof(d->mask), 0, &d->sq);
	return ret;
}

/* Settle request *@rq (test, or wait if @block): 1 done, 0, -errno. */
static int settle(uint64_t *rq, bool block)
{
	int ret;

	if (!*rq)
		return 1;
	ret = block ? vcube_node_wait(vmpi.node, *rq, NULL) :
		      vcube_node_test(vmpi.node, *rq, NULL);
	if (ret == 0 && !block)
		return 0;
	*rq = 0;
	return ret < 0 ? ret : 1;
}

/* The round's result: the communicator made (1), or a round again (0). */
static int round_end(struct vmpi_idup *d)
{
	unsigned int cid, *node;
	int ret, i;

	if (d->locked)
		lock_owner = NULL;
	d->in_round = false;
	if (!d->mask[VMPI_CID_WORDS])
		return 0;		/* someone gave nothing: again */
	cid = vmpi_cid_lowest(d->mask);
	if (vmpi_cid_take(cid))
		return -EMFILE;		/* VMPI_MAX_CID + 1 live at once */
	node = malloc((size_t)d->parent->size * sizeof(*node));
	if (!node)
		return -ENOMEM;
	for (i = 0; i < d->parent->size; i++)
		node[i] = d->parent->node[i];
	ret = vmpi_comm_make(cid, node, d->parent->size, d->parent->rank,
			     d->out);
	if (ret) {
		vmpi_cid_release(cid);
		return -ENOMEM;
	}
	return vmpi_comm_dup_rest(d->parent, *d->out) ? -ENOMEM : 1;
}

int vmpi_idup_progress(struct vmpi_idup *d, bool block)
{
	int ret, w;

	for (;;) {
		if (!d->in_round)
			round_start(d);
		if (d->step < d->nsteps && !d->rq && !d->sq) {
			ret = step_post(d);
			if (ret)
				return ret;
		}
		if (d->step < d->nsteps) {
			ret = settle(&d->rq, block);
			if (ret == 1)
				ret = settle(&d->sq, block);
			if (ret <= 0)
				return ret;
			for (w = 0; w < ROUND_WORDS; w++)
				d->mask[w] &= d->got[w];
			d->step++;
			continue;
		}
		ret = round_end(d);
		if (ret || !d->nsteps)	/* a round of one: again next time */
			return ret;
	}
}

void vmpi_idup_free(struct vmpi_idup *d)
{
	struct vmpi_idup **p;

	for (p = &pending; *p; p = &(*p)->next)
		if (*p == d) {
			*p = d->next;
			break;
		}
	if (lock_owner == d)
		lock_owner = NULL;
	if (d->rq)
		vcube_node_wait(vmpi.node, d->rq, NULL);
	if (d->sq)
		vcube_node_wait(vmpi.node, d->sq, NULL);
	vmpi_comm_put(d->parent);
	free(d);
}

void vmpi_idup_drain(void)
{
	while (pending) {
		vmpi_icoll_poll();
		if (pending)
			vcube_node_delay(vmpi.node, vmpi.poll_ns);
	}
}

/* Is the slot @c's next idup takes still held by a pending one here? */
static bool slot_busy(MPI_Comm c)
{
	const struct vmpi_idup *o;

	for (o = pending; o; o = o->next)
		if (o->parent == c && o->slot == (c->nidup & 3))
			return true;
	return false;
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	const char *call = "MPI_Comm_idup";
	struct vmpi_idup *d;
	int ret = vmpi_intra(comm, call);

	if (!ret && (!newcomm || !request))
		ret = vmpi_error(comm, MPI_ERR_ARG, call,
				 "no communicator or request to return");
	if (ret)
		return ret;
	/*
	 * the slot's last idup still pending here: completed first (its
	 * other members move it in whatever call they are in)
	 */
	while (slot_busy(comm)) {
		vmpi_icoll_pause();
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	d->parent = comm;
	comm->refs++;
	d->out = newcomm;
	*newcomm = MPI_COMM_NULL;
	d->key = (unsigned long long)comm->cid << 32 | comm->nidup;
	d->slot = comm->nidup++ & 3;
	while ((1 << d->nsteps) < comm->size)
		d->nsteps++;
	d->next = pending;
	pending = d;
	ret = vmpi_icoll_idup(comm, d, request);
	if (ret)
		vmpi_idup_free(d);
	return ret;
}
