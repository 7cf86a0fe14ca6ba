/* SPDX-License-Identifier: MIT */
/*
 * libvcube internals: a job's placement, rank r on node node[r] of the
 * network, as vcube-run --nodes or --rankfile chose it and handed it over
 * in VCUBE_NODES (place.c); and a node handle's translation (node.c). A
 * node bound through vcube_node_open() under a placement speaks ranks:
 * every peer a call names (a send's destination, a receive's source, a
 * route's end, a control-network partition and root) is a rank, turned
 * into its node here on the way to the kernel, and every source a status
 * brings back is turned into its rank. Without one, ranks are nodes and
 * nothing is translated.
 */
#ifndef VCUBE_PLACE_H
#define VCUBE_PLACE_H

#include "vcube.h"

struct vcube_place;

/*
 * The environment's placement (VCUBE_NODES): 0 and *@placep, NULL when
 * there is none or it is the identity (rank r on node r); -EINVAL when
 * the list is malformed, names a node twice, or does not have VCUBE_SIZE
 * entries; -ENOMEM.
 */
int vcube_place_load(struct vcube_place **placep);
/* The same from @n nodes: rank r on @nodes[r]. */
int vcube_place_create(const unsigned int *nodes, size_t n,
		       struct vcube_place **placep);
void vcube_place_free(struct vcube_place *place);
/* Ranks placed. */
unsigned int vcube_place_size(const struct vcube_place *place);
/* Rank @rank's node into *@node: 0, or -EINVAL for no such rank. */
int vcube_place_node(const struct vcube_place *place, unsigned int rank,
		     unsigned int *node);
/* Node @node's rank into *@rank: 0, or -ENOENT when no rank is on it. */
int vcube_place_rank(const struct vcube_place *place, unsigned int node,
		     unsigned int *rank);
/*
 * Ranks @first .. @first + @count - 1 on consecutive nodes, in order, as
 * the control network's partitions are: 0 and the first one's node in
 * *@node (may be NULL); -EINVAL for a rank not placed or no rank;
 * -EOPNOTSUPP when they are not consecutive.
 */
int vcube_place_span(const struct vcube_place *place, unsigned int first,
		     unsigned int count, unsigned int *node);

/*
 * A node handle's side (node.c). The node that a call of @node naming
 * rank @rank goes to, into *@peer: the rank itself without a placement,
 * VCUBE_ANY as it is; -EINVAL for a rank the placement lacks.
 */
int vcube_node_peer(const struct vcube_node *node, unsigned int rank,
		    unsigned int *peer);
/*
 * The rank of node @src a status names: @src itself without a placement;
 * VCUBE_ANY for a node no rank of the job is on.
 */
unsigned int vcube_node_src(const struct vcube_node *node, unsigned int src);
/* The handle's placement, or NULL. */
const struct vcube_place *vcube_node_place(const struct vcube_node *node);
/* The rank the handle was opened for (vcube_node_open()'s @rank). */
unsigned int vcube_node_rank(const struct vcube_node *node);

#endif /* VCUBE_PLACE_H */
