// SPDX-License-Identifier: MIT
/*
 * Graph topologies: a ring as MPI_Graph_create makes it over all ranks
 * but the last (which gets MPI_COMM_NULL), read back whole and per rank,
 * kept by MPI_Comm_dup; the same ring as a weighted distributed graph,
 * adjacent; a distributed graph whose edges one rank gives for all
 * (MPI_Dist_graph_create), each rank's neighbours compared as sets;
 * neighbourhood all-gather and all-to-all on the graph and on a periodic
 * Cartesian ring (of two ranks too, where both neighbours are one rank),
 * every block checked. The same source passes under Open MPI
 * (tests/host/mpi_ompi.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void graph(void)
{
	int n = size > 1 ? size - 1 : 1, i, *index, *edges, k, nn, ne, nb[2], t;
	MPI_Comm g, d;

	index = malloc(sizeof(int) * (size_t)n);
	edges = malloc(sizeof(int) * (size_t)(2 * n));
	for (i = 0; i < n; i++) {
		index[i] = 2 * (i + 1);
		edges[2 * i] = (i + n - 1) % n;
		edges[2 * i + 1] = (i + 1) % n;
	}
	MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
	MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &k);
	if (rank >= n) {
		CHECK(g == MPI_COMM_NULL, "rank %d of %d nodes got a graph", rank, n);
#ifdef VCUBE_MPI	/* Open MPI answers the rank itself */
		CHECK(k == MPI_UNDEFINED, "graph_map: %d", k);
#endif
		free(index);
		free(edges);
		return;
	}
	CHECK(k >= 0 && k < n, "graph_map: %d", k);
	MPI_Topo_test(g, &t);
	CHECK(t == MPI_GRAPH, "topo_test %d", t);
	MPI_Comm_dup(g, &d);
	MPI_Topo_test(d, &t);
	CHECK(t == MPI_GRAPH, "a dup's topo_test %d", t);
	MPI_Graphdims_get(d, &nn, &ne);
	CHECK(nn == n && ne == 2 * n, "graphdims %d %d", nn, ne);
	memset(edges, 0xff, sizeof(int) * (size_t)(2 * n));
	MPI_Graph_get(d, n, 2 * n, index, edges);
	CHECK(index[n - 1] == 2 * n && edges[1] == 1 % n, "graph_get");
	MPI_Comm_rank(g, &k);
	MPI_Graph_neighbors_count(g, k, &nn);
	CHECK(nn == 2, "neighbours_count %d", nn);
	MPI_Graph_neighbors(g, k, 2, nb);
	CHECK(nb[0] == (k + n - 1) % n && nb[1] == (k + 1) % n, "neighbours %d %d",
	      nb[0], nb[1]);
	{
		/* a block to each neighbour, one from each */
		int s[2] = { k * 10, k * 10 + 1 }, r[2] = { -1, -1 };

		MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, g);
		if (n > 2)
			CHECK(r[0] == nb[0] * 10 + 1 && r[1] == nb[1] * 10,
			      "neighbor_alltoall: %d %d", r[0], r[1]);
		MPI_Neighbor_allgather(&k, 1, MPI_INT, r, 1, MPI_INT, g);
		CHECK(r[0] == nb[0] && r[1] == nb[1], "neighbor_allgather: %d %d", r[0], r[1]);
	}
	MPI_Comm_free(&d);
	MPI_Comm_free(&g);
	free(index);
	free(edges);
}

static void dist(void)
{
	int src = (rank + size - 1) % size, dst = (rank + 1) % size;
	int sw = 10 * src + rank, dw = 10 * rank + dst, in, out, w, s, sws, dd, dws, t;
	int *srcs, *dsts, *degs, *wts, i, e;
	MPI_Comm g;

	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &sw, 1, &dst, &dw,
				       MPI_INFO_NULL, 0, &g);
	MPI_Topo_test(g, &t);
	CHECK(t == MPI_DIST_GRAPH, "topo_test %d", t);
	MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
	CHECK(in == 1 && out == 1 && w, "counts %d %d %d", in, out, w);
	MPI_Dist_graph_neighbors(g, 1, &s, &sws, 1, &dd, &dws);
	CHECK(s == src && sws == sw && dd == dst && dws == dw, "adjacent: %d %d %d %d", s, sws,
	      dd, dws);
	{
		int v = rank, r = -1;

		MPI_Neighbor_alltoall(&v, 1, MPI_INT, &r, 1, MPI_INT, g);
		CHECK(r == src, "dist neighbor_alltoall from %d", r);
	}
	MPI_Comm_free(&g);
	/* rank 0 gives every rank's edge to rank + 2; each its own to rank + 1 */
	srcs = malloc(sizeof(int) * (size_t)(size + 1));
	degs = malloc(sizeof(int) * (size_t)(size + 1));
	dsts = malloc(sizeof(int) * (size_t)(size + 1));
	wts = malloc(sizeof(int) * (size_t)(size + 1));
	srcs[0] = rank;
	degs[0] = 1;
	dsts[0] = dst;
	wts[0] = 1;
	e = 1;
	for (i = 0; rank == 0 && i < size; i++, e++) {
		srcs[e] = i;
		degs[e] = 1;
		dsts[e] = (i + 2) % size;
		wts[e] = 2;
	}
	MPI_Dist_graph_create(MPI_COMM_WORLD, e, srcs, degs, dsts, wts, MPI_INFO_NULL, 0, &g);
	MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
	CHECK(in == 2 && out == 2 && w, "dist_graph_create: %d in, %d out", in, out);
	if (in == 2 && out == 2) {
		int si[2], sw2[2], di[2], dw2[2], want[2];

		MPI_Dist_graph_neighbors(g, 2, si, sw2, 2, di, dw2);
		qsort(si, 2, sizeof(int), cmp);
		qsort(di, 2, sizeof(int), cmp);
		want[0] = src;
		want[1] = (rank + size - 2) % size;
		qsort(want, 2, sizeof(int), cmp);
		CHECK(si[0] == want[0] && si[1] == want[1], "sources %d %d", si[0], si[1]);
		want[0] = dst;
		want[1] = (rank + 2) % size;
		qsort(want, 2, sizeof(int), cmp);
		CHECK(di[0] == want[0] && di[1] == want[1], "destinations %d %d", di[0], di[1]);
	}
	MPI_Comm_free(&g);
	free(srcs);
	free(degs);
	free(dsts);
	free(wts);
}

/* A periodic 1-D grid: the block sent each way lands in its own block. */
static void cart_ring(void)
{
	int dims[1] = { size }, per[1] = { 1 }, me, s[2], r[2] = { -1, -1 }, src, dst;
	MPI_Comm c;

	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c);
	MPI_Comm_rank(c, &me);
	MPI_Cart_shift(c, 0, 1, &src, &dst);
	s[0] = me * 10;		/* to the source */
	s[1] = me * 10 + 1;	/* to the destination */
	MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, c);
	CHECK(r[0] == src * 10 + 1 && r[1] == dst * 10, "cart neighbor_alltoall: %d %d",
	      r[0], r[1]);
	MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	graph();
	dist();
	if (size > 1)
		cart_ring();
	return checks_done("graph");
}
