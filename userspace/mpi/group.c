// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: groups (MPI_Group_*), the communicators made from them
 * (MPI_Comm_create, MPI_Comm_create_group) and MPI_Comm_compare. A group
 * is an ordered list of world ranks (what vcube-mpi calls nodes, as a
 * communicator's node[]), so its operations are the list's.
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

struct vmpi_group {
	int size;
	bool builtin;
	unsigned int *node;		/* rank -> world rank */
};

struct vmpi_group vmpi_group_empty = { .size = 0, .builtin = true };

/* A group's error goes to MPI_COMM_WORLD's handler (MPI's rule). */
#define group_err(code, call, ...) \
	vmpi_error(MPI_COMM_WORLD, code, call, __VA_ARGS__)

static int group_check(MPI_Group g, const char *call)
{
	NEED_INIT(call);
	return g ? 0 : group_err(MPI_ERR_GROUP, call, "not a group");
}

/* A group of @n world ranks from @node (copied). */
static int group_make(const unsigned int *node, int n, MPI_Group *out)
{
	struct vmpi_group *g;

	if (!n) {
		*out = MPI_GROUP_EMPTY;
		return 0;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return MPI_ERR_NO_MEM;
	g->node = malloc((size_t)n * sizeof(*g->node));
	if (!g->node) {
		free(g);
		return MPI_ERR_NO_MEM;
	}
	memcpy(g->node, node, (size_t)n * sizeof(*node));
	g->size = n;
	*out = g;
	return 0;
}

int vmpi_group_of(const unsigned int *node, int n, MPI_Group *out)
{
	return group_make(node, n, out);
}

/* The rank of world rank @w in @g, or MPI_UNDEFINED. */
static int group_rank_of(MPI_Group g, unsigned int w)
{
	int i;

	for (i = 0; i < g->size; i++)
		if (g->node[i] == w)
			return i;
	return MPI_UNDEFINED;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	int ret = vmpi_enter(comm, "MPI_Comm_group");

	if (ret)
		return ret;
	if (!group)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_group", "no group");
	if (comm->local)	/* an intercommunicator's: its local group */
		comm = comm->local;
	ret = group_make(comm->node, comm->size, group);
	return ret ? vmpi_error(comm, ret, "MPI_Comm_group", "out of memory") : 0;
}

int MPI_Group_size(MPI_Group group, int *size)
{
	int ret = group_check(group, "MPI_Group_size");

	if (!ret)
		*size = group->size;
	return ret;
}

int MPI_Group_rank(MPI_Group group, int *rank)
{
	int ret = group_check(group, "MPI_Group_rank");

	if (!ret)
		*rank = group_rank_of(group, vmpi.me);
	return ret;
}

int MPI_Group_free(MPI_Group *group)
{
	NEED_INIT("MPI_Group_free");
	if (!group || !*group)
		return group_err(MPI_ERR_GROUP, "MPI_Group_free",
				 "not a group");
	if (!(*group)->builtin) {
		free((*group)->node);
		free(*group);
	}
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group g1, int n, const int ranks1[],
			      MPI_Group g2, int ranks2[])
{
	int ret = group_check(g1, "MPI_Group_translate_ranks"), i;

	if (!ret)
		ret = group_check(g2, "MPI_Group_translate_ranks");
	if (ret)
		return ret;
	if (n < 0 || (n && (!ranks1 || !ranks2)))
		return group_err(MPI_ERR_ARG, "MPI_Group_translate_ranks",
				 "%d ranks", n);
	for (i = 0; i < n; i++) {
		if (ranks1[i] == MPI_PROC_NULL) {
			ranks2[i] = MPI_PROC_NULL;
			continue;
		}
		if (ranks1[i] < 0 || ranks1[i] >= g1->size)
			return group_err(MPI_ERR_RANK, "MPI_Group_translate_ranks",
					 "rank %d of %d", ranks1[i], g1->size);
		ranks2[i] = group_rank_of(g2, g1->node[ranks1[i]]);
	}
	return MPI_SUCCESS;
}

/* MPI_IDENT (same members, same order), MPI_SIMILAR or MPI_UNEQUAL. */
static int group_cmp(MPI_Group a, MPI_Group b)
{
	int i, same = 1;

	if (a->size != b->size)
		return MPI_UNEQUAL;
	for (i = 0; i < a->size; i++) {
		if (a->node[i] != b->node[i])
			same = 0;
		if (group_rank_of(b, a->node[i]) == MPI_UNDEFINED)
			return MPI_UNEQUAL;
	}
	return same ? MPI_IDENT : MPI_SIMILAR;
}

int MPI_Group_compare(MPI_Group g1, MPI_Group g2, int *result)
{
	int ret = group_check(g1, "MPI_Group_compare");

	if (!ret)
		ret = group_check(g2, "MPI_Group_compare");
	if (!ret)
		*result = group_cmp(g1, g2);
	return ret;
}

/* @ranks (of @g, @n of them) distinct and in range: 0, or the error. */
static int ranks_check(MPI_Group g, int n, const int ranks[], const char *call)
{
	char *seen;
	int i;

	if (n < 0 || n > g->size || (n && !ranks))
		return group_err(MPI_ERR_ARG, call, "%d ranks of a group of %d",
				 n, g->size);
	seen = calloc((size_t)g->size + 1, 1);
	if (!seen)
		return group_err(MPI_ERR_NO_MEM, call, "out of memory");
	for (i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= g->size || seen[ranks[i]]) {
			free(seen);
			return group_err(MPI_ERR_RANK, call,
					 "rank %d (of %d): out of range or twice",
					 ranks[i], g->size);
		}
		seen[ranks[i]] = 1;
	}
	free(seen);
	return 0;
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup)
{
	unsigned int *node;
	int ret = group_check(group, "MPI_Group_incl"), i;

	if (!ret)
		ret = ranks_check(group, n, ranks, "MPI_Group_incl");
	if (ret)
		return ret;
	node = malloc(((size_t)n + 1) * sizeof(*node));
	if (!node)
		return group_err(MPI_ERR_NO_MEM, "MPI_Group_incl",
				 "out of memory");
	for (i = 0; i < n; i++)
		node[i] = group->node[ranks[i]];
	ret = group_make(node, n, newgroup);
	free(node);
	return ret ? group_err(ret, "MPI_Group_incl", "out of memory") : 0;
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup)
{
	unsigned int *node;
	char *out;
	int ret = group_check(group, "MPI_Group_excl"), i, k = 0;

	if (!ret)
		ret = ranks_check(group, n, ranks, "MPI_Group_excl");
	if (ret)
		return ret;
	node = malloc(((size_t)group->size + 1) * sizeof(*node));
	out = calloc((size_t)group->size + 1, 1);
	if (!node || !out) {
		free(node);
		free(out);
		return group_err(MPI_ERR_NO_MEM, "MPI_Group_excl",
				 "out of memory");
	}
	for (i = 0; i < n; i++)
		out[ranks[i]] = 1;
	for (i = 0; i < group->size; i++)
		if (!out[i])
			node[k++] = group->node[i];
	ret = group_make(node, k, newgroup);
	free(node);
	free(out);
	return ret ? group_err(ret, "MPI_Group_excl", "out of memory") : 0;
}

/*
 * The ranks the triplets (first, last, stride) name, in order, into
 * *@ranks (allocated): their number, or -1 after the error was reported.
 */
static int ranges_expand(MPI_Group g, int n, int ranges[][3], int **ranks,
			 const char *call)
{
	long long total = 0, cnt;
	int i, k = 0, r;

	if (n < 0 || (n && !ranges)) {
		group_err(MPI_ERR_ARG, call, "%d ranges", n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!ranges[i][2] ||
		    (ranges[i][2] > 0 && ranges[i][0] > ranges[i][1]) ||
		    (ranges[i][2] < 0 && ranges[i][0] < ranges[i][1])) {
			group_err(MPI_ERR_ARG, call,
				  "range %d: stride %d the wrong way or 0", i,
				  ranges[i][2]);
			return -1;
		}
		cnt = ((long long)ranges[i][1] - ranges[i][0]) / ranges[i][2] + 1;
		total += cnt;
		if (total > g->size) {
			group_err(MPI_ERR_RANK, call,
				  "the ranges name more than the group's %d",
				  g->size);
			return -1;
		}
	}
	*ranks = malloc(((size_t)total + 1) * sizeof(int));
	if (!*ranks) {
		group_err(MPI_ERR_NO_MEM, call, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		for (r = ranges[i][0];
		     ranges[i][2] > 0 ? r <= ranges[i][1] : r >= ranges[i][1];
		     r += ranges[i][2])
			(*ranks)[k++] = r;
	return k;
}

/* @op (MPI_Group_incl or _excl) of the ranks the triplets name. */
static int group_ranges(MPI_Group group, int n, int ranges[][3],
			MPI_Group *newgroup, const char *call,
			int (*op)(MPI_Group, int, const int[], MPI_Group *))
{
	int ret = group_check(group, call), k, *ranks;

	if (ret)
		return ret;
	k = ranges_expand(group, n, ranges, &ranks, call);
	if (k < 0)
		return MPI_ERR_RANK;
	ret = op(group, k, ranks, newgroup);
	free(ranks);
	return ret;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup)
{
	return group_ranges(group, n, ranges, newgroup, "MPI_Group_range_incl",
			    MPI_Group_incl);
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup)
{
	return group_ranges(group, n, ranges, newgroup, "MPI_Group_range_excl",
			    MPI_Group_excl);
}

/*
 * The set operations, in MPI's order: @a's members first (those @keep_a
 * says), then @b's not in @a (union only).
 */
static int group_setop(MPI_Group a, MPI_Group b, int op, MPI_Group *out,
		       const char *call)
{
	unsigned int *node;
	int ret = group_check(a, call), i, k = 0, in_b;

	if (!ret)
		ret = group_check(b, call);
	if (ret)
		return ret;
	if (!out)
		return group_err(MPI_ERR_ARG, call, "no group to return");
	node = malloc(((size_t)a->size + b->size + 1) * sizeof(*node));
	if (!node)
		return group_err(MPI_ERR_NO_MEM, call, "out of memory");
	for (i = 0; i < a->size; i++) {
		in_b = group_rank_of(b, a->node[i]) != MPI_UNDEFINED;
		if (op == 0 || (op == 1 && in_b) || (op == 2 && !in_b))
			node[k++] = a->node[i];
	}
	if (op == 0)
		for (i = 0; i < b->size; i++)
			if (group_rank_of(a, b->node[i]) == MPI_UNDEFINED)
				node[k++] = b->node[i];
	ret = group_make(node, k, out);
	free(node);
	return ret ? group_err(ret, call, "out of memory") : 0;
}

int MPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
	return group_setop(g1, g2, 0, newgroup, "MPI_Group_union");
}

int MPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
	return group_setop(g1, g2, 1, newgroup, "MPI_Group_intersection");
}

int MPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
	return group_setop(g1, g2, 2, newgroup, "MPI_Group_difference");
}

/* A communicator over @g's members, context @cid, for the member calling. */
static int comm_of_group(MPI_Comm comm, MPI_Group g, unsigned int cid,
			 MPI_Comm *newcomm, const char *call)
{
	unsigned int *node;
	int me = group_rank_of(g, vmpi.me), ret;

	*newcomm = MPI_COMM_NULL;
	if (me == MPI_UNDEFINED) {
		vmpi_cid_release(cid);	/* not a member: not ours to hold */
		return MPI_SUCCESS;
	}
	node = malloc((size_t)g->size * sizeof(*node));
	if (!node) {
		vmpi_cid_release(cid);
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	}
	memcpy(node, g->node, (size_t)g->size * sizeof(*node));
	ret = vmpi_comm_make(cid, node, g->size, me, newcomm);
	if (ret) {
		vmpi_cid_release(cid);
		return vmpi_error(comm, ret, call, "cannot make the communicator");
	}
	(*newcomm)->errh = comm->errh;
	vmpi_errh_get(comm->errh);
	return MPI_SUCCESS;
}

/* Is every member of @g one of @comm's? */
static bool group_within(MPI_Comm comm, MPI_Group g)
{
	int i;

	for (i = 0; i < g->size; i++)
		if (g->node[i] >= vmpi.nnodes || comm->rank_of[g->node[i]] < 0)
			return false;
	return true;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	unsigned int cid;
	int ret = vmpi_intra(comm, "MPI_Comm_create");

	if (!ret && (!group || !newcomm))
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_create",
				 "no group or no communicator to return");
	if (!ret && !group_within(comm, group))
		ret = vmpi_error(comm, MPI_ERR_GROUP, "MPI_Comm_create",
				 "the group is not within the communicator");
	if (ret)
		return ret;
	ret = vmpi_cid_agree(comm, &cid);	/* every member of comm */
	if (ret)
		return ret;
	return comm_of_group(comm, group, cid, newcomm, "MPI_Comm_create");
}

/*
 * Collective over @group's members only: they agree on a context among
 * themselves, by @tag on @comm's point-to-point messages (a gather to the
 * group's rank 0 and its answer), which is what the tag is for.
 */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm)
{
	unsigned int cid;
	int *rank, i, ret = vmpi_intra(comm, "MPI_Comm_create_group");

	if (!ret && (!group || !newcomm))
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_create_group",
				 "no group or no communicator to return");
	if (!ret && !group_within(comm, group))
		ret = vmpi_error(comm, MPI_ERR_GROUP, "MPI_Comm_create_group",
				 "the group is not within the communicator");
	if (ret)
		return ret;
	if (group_rank_of(group, vmpi.me) == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	rank = malloc((size_t)group->size * sizeof(*rank));
	if (!rank)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Comm_create_group",
				  "out of memory");
	for (i = 0; i < group->size; i++)
		rank[i] = comm->rank_of[group->node[i]];
	ret = vmpi_cid_agree_among(comm, rank, group->size, tag, &cid);
	free(rank);
	if (ret)
		return ret;
	return comm_of_group(comm, group, cid, newcomm, "MPI_Comm_create_group");
}

int MPI_Comm_compare(MPI_Comm c1, MPI_Comm c2, int *result)
{
	struct vmpi_group a, b;
	int ret = vmpi_enter(c1, "MPI_Comm_compare");

	if (!ret)
		ret = vmpi_enter(c2, "MPI_Comm_compare");
	if (ret)
		return ret;
	if (!result)
		return vmpi_error(c1, MPI_ERR_ARG, "MPI_Comm_compare", "no result");
	if (c1 == c2) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	a = (struct vmpi_group){ .size = c1->size, .node = c1->node };
	b = (struct vmpi_group){ .size = c2->size, .node = c2->node };
	ret = group_cmp(&a, &b);
	*result = ret == MPI_IDENT ? MPI_CONGRUENT : ret;
	return MPI_SUCCESS;
}
