/* SPDX-License-Identifier: MIT */
/*
 * libvcube internals shared by the collective operations.
 */
#ifndef VCUBE_COMM_H
#define VCUBE_COMM_H

#include "transport.h"
#include "vcube.h"

/* Library tags: 01 ssssssssssssss tttttttttttttttt (sequence, step). */
#define VCUBE_COLL_TAG		0x40000000U
#define VCUBE_COLL_STEP_BITS	16
#define VCUBE_COLL_SEQ_MASK	0x3fffU
#define VCUBE_NONE		0xffffffffU

struct vcube_comm {
	struct vcube_node *node;
	struct vcube_node_info info;
	unsigned int rank;
	unsigned int size;
	unsigned int seq;
	int owns_node;
	int have_costs;			/* costs measured (vcube_costs_measure) */
	int cnet;			/* the network has a control network */
	struct vcube_costs costs;
	const struct vcube_transport *tp;	/* how it moves messages */
	void *tpx;				/* the transport's context */
	bool mark_steps;		/* vcube_comm_mark_steps() */
};

/*
 * A communicator over another transport than the device (vcube-sim's
 * engine in the process): rank @rank of @size, no node, no node facts.
 */
int vcube_comm_create_tp(const struct vcube_transport *tp, void *ctx,
			 unsigned int rank, unsigned int size,
			 struct vcube_comm **commp);

/* ceil(lg p): the dimensions of the smallest cube with p nodes. */
static inline unsigned int vcube_lg(unsigned int p)
{
	unsigned int d = 0;

	while ((1U << d) < p)
		d++;
	return d;
}

/*
 * The element types and operators (ops.c). Bytes of one element of
 * VCUBE_TYPE_* @type; 0 for an unknown type.
 */
size_t vcube_type_size(unsigned int type);
/* 0 if VCUBE_OP_* @op applies to @type, else -EINVAL. */
int vcube_op_check(unsigned int op, unsigned int type);
/* acc = acc op v, elementwise over @count elements of @type. */
void vcube_combine(unsigned int op, unsigned int type, void *acc,
		   const void *v, size_t count);

/* A fresh tag base for one collective call; steps are ORed in. */
unsigned int vcube_comm_tag_base(struct vcube_comm *comm);
int vcube_comm_step(struct vcube_comm *comm, unsigned int tag, unsigned int to,
		    const void *sbuf, size_t slen, unsigned int from,
		    void *rbuf, size_t rlen, unsigned int flags);

#endif /* VCUBE_COMM_H */
