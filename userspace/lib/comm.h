/* SPDX-License-Identifier: MIT */
/*
 * libvcube internals shared by the collective operations.
 */
#ifndef VCUBE_COMM_H
#define VCUBE_COMM_H

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
	struct vcube_costs costs;
};

/* ceil(lg p): the dimensions of the smallest cube with p nodes. */
static inline unsigned int vcube_lg(unsigned int p)
{
	unsigned int d = 0;

	while ((1U << d) < p)
		d++;
	return d;
}

/* A fresh tag base for one collective call; steps are ORed in. */
unsigned int vcube_comm_tag_base(struct vcube_comm *comm);
int vcube_comm_step(struct vcube_comm *comm, unsigned int tag, unsigned int to,
		    const void *sbuf, size_t slen, unsigned int from,
		    void *rbuf, size_t rlen, unsigned int flags);

#endif /* VCUBE_COMM_H */
