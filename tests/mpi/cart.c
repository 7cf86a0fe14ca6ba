// SPDX-License-Identifier: MIT
/*
 * Cartesian topologies: MPI_Dims_create's factors, a periodic and a
 * non-periodic dimension (coordinates, ranks, shifts), a halo exchange
 * along each dimension, sub-grids, a grid smaller than the communicator,
 * a dup keeping the topology, and the errors. The same source passes
 * under Open MPI (tests/host/mpi_ompi.sh).
 *
 * Under vcube, with CART_NET set (tests/vm/mpi.sh), also where reorder
 * puts the ranks: CART_NET=hypercube, every neighbour of a ring of all the
 * ranks is a hypercube neighbour (each node's number is in its processor
 * name, "vcubeN"); CART_NET=mesh:R:C or torus:R:C, every neighbour of
 * that ring, and of an R x C and a C x R grid (periodic on the torus), is
 * one hop away on the R x C mesh or torus.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int popcount(unsigned int x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* This process's network node, from its processor name ("vcubeN"). */
static int my_node(void)
{
	char name[MPI_MAX_PROCESSOR_NAME];
	int len;

	MPI_Get_processor_name(name, &len);
	return strncmp(name, "vcube", 5) ? -1 : atoi(name + 5);
}

/* Are nodes @a and @b one hop apart on the network CART_NET names? */
static int adjacent(const char *net, int a, int b)
{
	int r, c;

	if (!strcmp(net, "hypercube"))
		return popcount((unsigned int)(a ^ b)) == 1;
	if (strchr(net, ':') && sscanf(strchr(net, ':') + 1, "%d:%d", &r, &c) == 2) {
		int dr = abs(a / c - b / c), dc = abs(a % c - b % c);

		/* a torus's wrap: distance 1 the other way round */
		if (!strncmp(net, "torus", 5) && dr == r - 1 && r > 2)
			dr = 1;
		if (!strncmp(net, "torus", 5) && dc == c - 1 && c > 2)
			dc = 1;
		return dr + dc == 1;
	}
	return 0;
}

/* Do all neighbours along every dimension of @cart sit next to each other? */
static int all_adjacent(MPI_Comm cart, const char *net, int ndims)
{
	int d, src, dst, me = my_node(), nodes[2], ok = 1, all;

	for (d = 0; d < ndims; d++) {
		MPI_Cart_shift(cart, d, 1, &src, &dst);
		nodes[0] = nodes[1] = -1;
		MPI_Sendrecv(&me, 1, MPI_INT, dst, 1, &nodes[0], 1, MPI_INT, src,
			     1, cart, MPI_STATUS_IGNORE);
		if (src != MPI_PROC_NULL && !adjacent(net, me, nodes[0]))
			ok = 0;
	}
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, cart);
	return all;
}

static int rank, size, dims[2], periods[2] = { 1, 0 }, coords[2], r;
static MPI_Comm cart;

static void dims_created(void)
{
	static const struct { int n, nd, in[3], out[3]; } dc[] = {
		{ 12, 2, { 0, 0 }, { 4, 3 } },
		{ 8, 3, { 0, 0, 0 }, { 2, 2, 2 } },
		{ 7, 2, { 0, 0 }, { 7, 1 } },
		{ 16, 3, { 0, 0, 0 }, { 4, 2, 2 } },
		{ 12, 3, { 0, 3, 0 }, { 2, 3, 2 } },
		{ 30, 2, { 0, 0 }, { 6, 5 } },
		{ 1, 2, { 0, 0 }, { 1, 1 } },
	};
	int i;

	for (i = 0; i < (int)(sizeof(dc) / sizeof(dc[0])); i++) {
		int x[3];

		memcpy(x, dc[i].in, sizeof(x));
		MPI_Dims_create(dc[i].n, dc[i].nd, x);
		CHECK(!memcmp(x, dc[i].out, (size_t)dc[i].nd * sizeof(int)),
		      "MPI_Dims_create(%d, %d): %d %d %d", dc[i].n, dc[i].nd,
		      x[0], x[1], dc[i].nd > 2 ? x[2] : 0);
	}
}

static void errors(void)
{
	int nd;
	int st;
	int cls;
	int err;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	dims[0] = 4;
	dims[1] = 0;
	err = MPI_Dims_create(6, 2, dims);
	MPI_Error_class(err, &cls);
	CHECK(cls == MPI_ERR_DIMS, "MPI_Dims_create(6, {4, 0}): class %d", cls);
	MPI_Topo_test(MPI_COMM_WORLD, &st);
	CHECK(st == MPI_UNDEFINED, "MPI_Topo_test(MPI_COMM_WORLD): %d", st);
	err = MPI_Cartdim_get(MPI_COMM_WORLD, &nd);
	MPI_Error_class(err, &cls);
	CHECK(cls == MPI_ERR_TOPOLOGY, "MPI_Cartdim_get(MPI_COMM_WORLD): class %d",
	      cls);
	dims[0] = size + 1;
	dims[1] = 1;
	err = MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	CHECK(err != MPI_SUCCESS, "a grid larger than the communicator: made");
}

static void grid(void)
{
	int i;
	int c2[2];
	int src;
	int dst;
	int nd;
	int st;
	int err;
	int got[4];

	/* size as a rows x cols grid, rows periodic, cols not */
	dims[0] = dims[1] = 0;
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Comm_rank(cart, &r);
	CHECK(r == rank, "no reorder: rank %d is %d", rank, r);
	MPI_Topo_test(cart, &st);
	MPI_Cartdim_get(cart, &nd);
	CHECK(st == MPI_CART && nd == 2, "MPI_Topo_test %d, ndims %d", st, nd);
	MPI_Cart_get(cart, 2, c2, got, coords);
	CHECK(c2[0] == dims[0] && c2[1] == dims[1] && got[0] == 1 && got[1] == 0 &&
	      coords[0] == r / dims[1] && coords[1] == r % dims[1],
	      "MPI_Cart_get: %dx%d, periods %d %d, coords %d %d", c2[0], c2[1],
	      got[0], got[1], coords[0], coords[1]);
	MPI_Cart_rank(cart, coords, &i);
	CHECK(i == r, "MPI_Cart_rank of my coords: %d, not %d", i, r);
	c2[0] = coords[0] + dims[0];	/* periodic: wraps */
	c2[1] = coords[1];
	MPI_Cart_rank(cart, c2, &i);
	CHECK(i == r, "MPI_Cart_rank a period on: %d", i);
	c2[1] = dims[1];		/* not periodic: an error */
	err = MPI_Cart_rank(cart, c2, &i);
	CHECK(err != MPI_SUCCESS, "MPI_Cart_rank past a non-periodic edge");
	MPI_Cart_shift(cart, 0, 1, &src, &dst);
	CHECK(dst == ((coords[0] + 1) % dims[0]) * dims[1] + coords[1] &&
	      src == ((coords[0] + dims[0] - 1) % dims[0]) * dims[1] + coords[1],
	      "periodic shift: %d -> me -> %d", src, dst);
	MPI_Cart_shift(cart, 1, 1, &src, &dst);
	CHECK(dst == (coords[1] + 1 < dims[1] ? r + 1 : MPI_PROC_NULL) &&
	      src == (coords[1] > 0 ? r - 1 : MPI_PROC_NULL),
	      "non-periodic shift: %d -> me -> %d", src, dst);
	err = MPI_Cart_shift(cart, -1, 1, &src, &dst);
	CHECK(err != MPI_SUCCESS, "MPI_Cart_shift in dimension -1: no error");
}

static void halo(void)
{
	int d;
	int src;
	int dst;
	int got[4];

	/* the halo: each neighbour's rank, both ways along each dimension */
	for (d = 0; d < 2; d++) {
		MPI_Cart_shift(cart, d, 1, &src, &dst);
		got[0] = got[1] = -1;
		MPI_Sendrecv(&r, 1, MPI_INT, dst, 2, &got[0], 1, MPI_INT, src, 2,
			     cart, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&r, 1, MPI_INT, src, 3, &got[1], 1, MPI_INT, dst, 3,
			     cart, MPI_STATUS_IGNORE);
		CHECK((src == MPI_PROC_NULL ? got[0] == -1 : got[0] == src) &&
		      (dst == MPI_PROC_NULL ? got[1] == -1 : got[1] == dst),
		      "halo along %d: %d, %d from %d, %d", d, got[0], got[1],
		      src, dst);
	}
}

static void sub_and_dup(void)
{
	int i;
	int d;
	int c2[2];
	int nd;
	int st;
	int remain[2] = { 0, 1 };
	MPI_Comm sub;
	MPI_Comm dup;

	/* a row of the grid: the second dimension kept */
	MPI_Cart_sub(cart, remain, &sub);
	MPI_Comm_size(sub, &i);
	MPI_Comm_rank(sub, &d);
	MPI_Cartdim_get(sub, &nd);
	CHECK(i == dims[1] && d == coords[1] && nd == 1,
	      "MPI_Cart_sub: size %d rank %d ndims %d", i, d, nd);
	MPI_Allreduce(&r, &i, 1, MPI_INT, MPI_MIN, sub);
	CHECK(i == coords[0] * dims[1], "the row's least rank %d", i);
	MPI_Comm_dup(cart, &dup);
	MPI_Topo_test(dup, &st);
	MPI_Cart_coords(dup, r, 2, c2);
	CHECK(st == MPI_CART && c2[0] == coords[0] && c2[1] == coords[1],
	      "MPI_Comm_dup keeps the grid: %d, %d %d", st, c2[0], c2[1]);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&sub);
	MPI_Comm_free(&cart);
}

static void smaller(void)
{
	MPI_Comm small;

	/* a grid of one fewer: the last process is left out */
	dims[0] = size > 1 ? size - 1 : 1;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &small);
	CHECK(size == 1 || (rank == size - 1) == (small == MPI_COMM_NULL),
	      "a grid of %d: rank %d %s", dims[0], rank,
	      small == MPI_COMM_NULL ? "left out" : "in");
	if (small != MPI_COMM_NULL)
		MPI_Comm_free(&small);
}

static void reordered(void)
{
	int i;
	int src;
	int dst;
	int got[4];
	const char *net = getenv("CART_NET");
	MPI_Comm ring;

	/* reordered: the same properties, wherever the ranks went */
	dims[0] = size;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &ring);
	MPI_Comm_rank(ring, &r);
	MPI_Cart_shift(ring, 0, 1, &src, &dst);
	MPI_Sendrecv(&r, 1, MPI_INT, dst, 4, &got[0], 1, MPI_INT, src, 4, ring,
		     MPI_STATUS_IGNORE);
	CHECK(got[0] == (r + size - 1) % size, "reordered ring: %d before %d",
	      got[0], r);
	if (net && *net && my_node() >= 0) {
		CHECK(all_adjacent(ring, net, 1),
		      "%s: the reordered ring's neighbours are not one hop apart",
		      net);
		if (strcmp(net, "hypercube")) {
			int rr = 0, cc = 0, per[2];

			if (strchr(net, ':'))
				sscanf(strchr(net, ':') + 1, "%d:%d", &rr, &cc);
			per[0] = per[1] = !strncmp(net, "torus", 5);
			for (i = 0; i < 2 && rr * cc == size; i++) {
				dims[0] = i ? cc : rr;
				dims[1] = i ? rr : cc;
				MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 1, &cart);
				CHECK(all_adjacent(cart, net, 2),
				      "%s: a reordered %dx%d grid's neighbours are not one hop apart",
				      net, dims[0], dims[1]);
				MPI_Comm_free(&cart);
			}
		}
	}
	MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	dims_created();
	errors();
	grid();
	halo();
	sub_and_dup();
	smaller();
	reordered();
	return checks_done("cart");
}
