// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: Cartesian process topologies (MPI_Dims_create, MPI_Cart_*),
 * with reorder placing ranks on the modelled network.
 *
 * The rule reorder follows (docs/mpi.md): rank k of the grid, its
 * coordinates row-major as MPI numbers them, goes to the process on the
 * network node the grid's embedding names, when every such node is one of
 * the old communicator's:
 *   - a hypercube, every extent a power of two: the coordinates' binary
 *     reflected Gray codes, the first coordinate's highest (each grid
 *     neighbour, the wrap-around one too, a hypercube neighbour);
 *   - a mesh or torus made by rows and cols: a 2-D grid that fits, as it
 *     is or turned, on the nodes at those coordinates; a 1-D one along the
 *     rows, every other row backwards (neighbours adjacent; a ring of all
 *     the nodes closes through the torus's wrap when rows are even);
 * else, and on every other network, rank k goes to the process on the
 * k-th lowest node of the old communicator. Without reorder, rank k is the
 * old communicator's rank k.
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

static int pow2_log(int n)
{
	int b = 0;

	if (n <= 0 || (n & (n - 1)))
		return -1;
	while ((1 << b) < n)
		b++;
	return b;
}

/* Grid rank @k's coordinates, row-major (the last dimension fastest). */
static void cart_coords(int nd, const int *dims, int k, int *coords)
{
	int i;

	for (i = nd - 1; i >= 0; i--) {
		coords[i] = k % dims[i];
		k /= dims[i];
	}
}

/*
 * The network node grid rank @k goes to under the rule above, or -1 when
 * the grid has no embedding on this network.
 */
static long cart_embed(const struct vcube_node_info *ni, int nd,
		       const int *dims, int k)
{
	int c[VMPI_MAX_DIMS], i, b;
	long node = 0;

	cart_coords(nd, dims, k, c);
	if (ni->topology == VCUBE_TOPOLOGY_HYPERCUBE) {
		for (i = 0; i < nd; i++) {
			b = pow2_log(dims[i]);
			if (b < 0)
				return -1;
			node = node << b | (c[i] ^ (c[i] >> 1));
		}
		return node < (long)ni->nodes ? node : -1;
	}
	if ((ni->topology != VCUBE_TOPOLOGY_MESH &&
	     ni->topology != VCUBE_TOPOLOGY_TORUS) || !ni->rows || !ni->cols)
		return -1;
	if (nd == 2 && dims[0] <= (int)ni->rows && dims[1] <= (int)ni->cols)
		return (long)c[0] * ni->cols + c[1];
	if (nd == 2 && dims[0] <= (int)ni->cols && dims[1] <= (int)ni->rows)
		return (long)c[1] * ni->cols + c[0];
	if (nd == 1 && dims[0] <= (int)(ni->rows * ni->cols)) {
		long r = c[0] / ni->cols, col = c[0] % ni->cols;

		return r * ni->cols + (r & 1 ? (long)ni->cols - 1 - col : col);
	}
	return -1;
}

struct hw_rank {
	unsigned int hw;
	int rank;
};

static int hw_cmp(const void *a, const void *b)
{
	const struct hw_rank *x = a, *y = b;

	return x->hw < y->hw ? -1 : x->hw > y->hw;
}

/*
 * order[k]: the old rank that is grid rank k, for the @n grid ranks, as
 * the rule says; @hw[r] the network node of old rank r (of @size).
 */
static int cart_order(int nd, const int *dims, int n, const unsigned int *hw,
		      int size, int *order)
{
	const struct vcube_node_info *ni = vcube_comm_info(vmpi_comm_world.vc);
	struct hw_rank *by = malloc((size_t)size * sizeof(*by));
	struct hw_rank key, *f;
	int k, r;
	long t;

	if (!by)
		return MPI_ERR_NO_MEM;
	for (r = 0; r < size; r++) {
		by[r].hw = hw[r];
		by[r].rank = r;
	}
	qsort(by, (size_t)size, sizeof(*by), hw_cmp);
	for (k = 0; k < n; k++) {
		t = cart_embed(ni, nd, dims, k);
		f = NULL;
		if (t >= 0) {
			key.hw = (unsigned int)t;
			f = bsearch(&key, by, (size_t)size, sizeof(*by), hw_cmp);
		}
		if (!f)
			break;
		order[k] = f->rank;
	}
	if (k < n)		/* no embedding here: the nodes in order */
		for (k = 0; k < n; k++)
			order[k] = by[k].rank;
	free(by);
	return 0;
}

static int cart_attach(MPI_Comm c, int nd, const int *dims, const int *periods)
{
	int i;

	c->cart = malloc((size_t)(2 * nd + 1) * sizeof(int));
	if (!c->cart)
		return MPI_ERR_NO_MEM;
	for (i = 0; i < nd; i++) {
		c->cart[i] = dims[i];
		c->cart[nd + i] = !!periods[i];
	}
	c->ndims = nd;
	return 0;
}

int vmpi_cart_copy(MPI_Comm from, MPI_Comm to)
{
	if (from->graph)
		return vmpi_graph_copy(from, to);
	if (!from->cart)
		return 0;
	return cart_attach(to, from->ndims, from->cart, from->cart + from->ndims);
}

/* 0 if @comm is a live communicator with a Cartesian topology. */
static int cart_check(MPI_Comm comm, const char *call)
{
	int ret = vmpi_enter(comm, call);

	if (ret)
		return ret;
	if (!comm->cart)
		return vmpi_error(comm, MPI_ERR_TOPOLOGY, call,
				  "not a Cartesian communicator");
	return 0;
}

/* The smallest d with d^k >= m (m >= 1, k >= 1). */
static int root_up(int m, int k)
{
	int d = 1;

	for (;;) {
		long long p = 1;
		int i;

		for (i = 0; i < k && p < m; i++)
			p *= d;
		if (p >= m)
			return d;
		d++;
	}
}

/* A search of dims_best(): the best split so far, and the one being made. */
struct dims_search {
	int k;			/* factors in all */
	int cur[VMPI_MAX_DIMS], best[VMPI_MAX_DIMS];
	int spread;		/* the best's largest less smallest, or -1 */
};

static void dims_try(struct dims_search *s, int m, int i, int bound);

/*
 * Is cur[] (complete) better than best[]: a smaller spread, or the same
 * and, from the smallest factor up, the first that differs larger (as
 * MPICH's test suite expects)?
 */
static bool dims_better(const struct dims_search *s)
{
	int i, sp = s->cur[0] - s->cur[s->k - 1];

	if (sp != s->spread)
		return sp < s->spread;
	for (i = s->k - 1; i >= 0; i--)
		if (s->cur[i] != s->best[i])
			return s->cur[i] > s->best[i];
	return false;
}

/* Factor @i is @d (of what is left, @m), then the rest after it. */
static void dims_take(struct dims_search *s, int m, int i, int d)
{
	s->cur[i] = d;
	dims_try(s, m / d, i + 1, d);
}

/*
 * Every non-increasing split of @m into the factors @i.. (each at most
 * @bound) after cur[0 .. i - 1]; the one whose largest less smallest is
 * least is kept (dims_better()). The rest's last factor is at most
 * m^(1/(k - i)), so a split whose first factor is already further above
 * it than the best's spread is not pursued. O(sqrt(m)) a candidate.
 */
static void dims_try(struct dims_search *s, int m, int i, int bound)
{
	int e, d, lo, left = s->k - i;

	if (left == 1) {
		if (m > bound)
			return;
		s->cur[i] = m;
		if (s->spread >= 0 && !dims_better(s))
			return;
		s->spread = s->cur[0] - m;
		memcpy(s->best, s->cur, sizeof(s->best));
		return;
	}
	lo = root_up(m, left);
	if (i && s->spread >= 0 && s->cur[0] - lo > s->spread)
		return;
	for (e = lo; (long long)e * e <= m && e <= bound; e++)
		if (m % e == 0)
			dims_take(s, m, i, e);
	for (e = root_up(m, 2); e >= 1; e--) {
		if (m % e)
			continue;
		d = m / e;
		if ((long long)d * d <= m || d < lo)
			continue;	/* tried above, or too small */
		if (d > bound || (!i && s->spread >= 0 && d - lo > s->spread))
			break;		/* the rest are larger still */
		dims_take(s, m, i, d);
	}
}

/*
 * The free extents (the zeros) as equal as the factors allow: the least
 * difference between the largest and the smallest (MPI's "as close to
 * each other as possible", as MPICH's test suite, topo/dims5, checks it),
 * in non-increasing order in the free places.
 */
int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
	struct dims_search srch;
	int i, m = nnodes, nfree = 0, *fx[VMPI_MAX_DIMS];

	if (vmpi_enter(MPI_COMM_WORLD, "MPI_Dims_create"))
		return MPI_ERR_COMM;
	if (nnodes <= 0 || ndims < 0 || ndims > VMPI_MAX_DIMS || (ndims && !dims))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_DIMS, "MPI_Dims_create",
				  "nnodes %d, ndims %d (1 .. %d)", nnodes, ndims,
				  VMPI_MAX_DIMS);
	for (i = 0; i < ndims; i++) {
		if (dims[i] < 0)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_DIMS,
					  "MPI_Dims_create", "dims[%d] = %d", i,
					  dims[i]);
		if (dims[i] == 0) {
			fx[nfree++] = &dims[i];
			continue;
		}
		if (m % dims[i])
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_DIMS,
					  "MPI_Dims_create",
					  "%d nodes are not a multiple of the extents given",
					  nnodes);
		m /= dims[i];
	}
	if (!nfree) {
		if (m != 1)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_DIMS,
					  "MPI_Dims_create",
					  "the extents given make %d nodes, not %d",
					  nnodes / m, nnodes);
		return MPI_SUCCESS;
	}
	srch.k = nfree;
	srch.spread = -1;
	dims_try(&srch, m, 0, m);
	for (i = 0; i < nfree; i++)
		*fx[i] = srch.best[i];
	return MPI_SUCCESS;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart)
{
	unsigned int *hw = NULL;
	int *order = NULL, i, key = MPI_UNDEFINED, ret;
	long long n = 1;

	ret = vmpi_intra(comm, "MPI_Cart_create");
	if (ret)
		return ret;
	if (!comm_cart)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_create",
				  "no communicator to return");
	if (ndims < 0 || ndims > VMPI_MAX_DIMS || (ndims && (!dims || !periods)))
		return vmpi_error(comm, MPI_ERR_DIMS, "MPI_Cart_create",
				  "ndims %d (0 .. %d)", ndims, VMPI_MAX_DIMS);
	for (i = 0; i < ndims; i++)
		if (!dims[i] || dims[i] < 0)
			return vmpi_error(comm, MPI_ERR_DIMS, "MPI_Cart_create",
					  "dims[%d] = %d", i, dims[i]);
	for (i = 0; i < ndims; i++) {
		n *= dims[i];
		if (n > comm->size)
			break;
	}
	if (n > comm->size)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_create",
				  "a grid of more than the communicator's %d processes",
				  comm->size);
	order = malloc((size_t)n * sizeof(*order));	/* n <= size */
	hw = malloc((size_t)comm->size * sizeof(*hw));
	if (!order || !hw) {
		free(order);
		free(hw);
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Cart_create",
				  "out of memory");
	}
	ret = MPI_Allgather(&vmpi.hw, 1, MPI_UNSIGNED, hw, 1, MPI_UNSIGNED,
			    comm);
	if (!ret) {
		if (reorder) {
			ret = cart_order(ndims, dims, (int)n, hw, comm->size,
					 order);
		} else {
			for (i = 0; i < n; i++)
				order[i] = i;
		}
	}
	for (i = 0; !ret && i < n; i++)
		if (order[i] == comm->rank)
			key = i;
	free(order);
	free(hw);
	if (ret)
		return vmpi_error(comm, ret, "MPI_Cart_create",
				  "cannot place the grid");
	ret = MPI_Comm_split(comm, key == MPI_UNDEFINED ? MPI_UNDEFINED : 0,
			     key, comm_cart);
	if (ret || *comm_cart == MPI_COMM_NULL)
		return ret;
	if (cart_attach(*comm_cart, ndims, dims, periods))
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Cart_create",
				  "out of memory");
	return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
	int ret = vmpi_enter(comm, "MPI_Topo_test");

	if (ret)
		return ret;
	if (!status)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Topo_test", "no status");
	*status = comm->cart ? MPI_CART : vmpi_graph_kind(comm);
	return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
	int ret = cart_check(comm, "MPI_Cartdim_get");

	if (ret)
		return ret;
	if (!ndims)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "no ndims");
	*ndims = comm->ndims;
	return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
		 int coords[])
{
	int ret = cart_check(comm, "MPI_Cart_get"), i, c[VMPI_MAX_DIMS];

	if (ret)
		return ret;
	if (maxdims < comm->ndims || (comm->ndims && (!dims || !periods || !coords)))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_get",
				  "maxdims %d, the grid has %d", maxdims,
				  comm->ndims);
	cart_coords(comm->ndims, comm->cart, comm->rank, c);
	for (i = 0; i < comm->ndims; i++) {
		dims[i] = comm->cart[i];
		periods[i] = comm->cart[comm->ndims + i];
		coords[i] = c[i];
	}
	return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
	int ret = cart_check(comm, "MPI_Cart_coords"), c[VMPI_MAX_DIMS], i;

	if (ret)
		return ret;
	if (rank < 0 || rank >= comm->size)
		return vmpi_error(comm, MPI_ERR_RANK, "MPI_Cart_coords",
				  "rank %d of %d", rank, comm->size);
	if (maxdims < comm->ndims || (comm->ndims && !coords))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_coords",
				  "maxdims %d, the grid has %d", maxdims,
				  comm->ndims);
	cart_coords(comm->ndims, comm->cart, rank, c);
	for (i = 0; i < comm->ndims; i++)
		coords[i] = c[i];
	return MPI_SUCCESS;
}

/* The rank at @coords (each wrapped in a periodic dimension), or -1. */
static int cart_rank(MPI_Comm comm, const int *coords)
{
	int i, c, r = 0, d;

	for (i = 0; i < comm->ndims; i++) {
		d = comm->cart[i];
		c = coords[i];
		if (comm->cart[comm->ndims + i])
			c = ((c % d) + d) % d;
		else if (c < 0 || c >= d)
			return -1;
		r = r * d + c;
	}
	return r;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
	int ret = cart_check(comm, "MPI_Cart_rank"), r;

	if (ret)
		return ret;
	if (!rank || (comm->ndims && !coords))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_rank",
				  "no coordinates or no rank");
	r = cart_rank(comm, coords);
	if (r < 0)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_rank",
				  "coordinates outside a dimension that is not periodic");
	*rank = r;
	return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
		   int *rank_dest)
{
	int ret = cart_check(comm, "MPI_Cart_shift"), c[VMPI_MAX_DIMS], r;

	if (ret)
		return ret;
	if (direction < 0 || direction >= comm->ndims)
		return vmpi_error(comm, MPI_ERR_DIMS, "MPI_Cart_shift",
				  "direction %d of %d", direction, comm->ndims);
	if (!rank_source || !rank_dest)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_shift",
				  "no rank to return");
	cart_coords(comm->ndims, comm->cart, comm->rank, c);
	c[direction] += disp;
	r = cart_rank(comm, c);
	*rank_dest = r < 0 ? MPI_PROC_NULL : r;
	c[direction] -= 2 * disp;
	r = cart_rank(comm, c);
	*rank_source = r < 0 ? MPI_PROC_NULL : r;
	return MPI_SUCCESS;
}

/* The sub-grids of the dimensions @remain_dims keeps, each a communicator. */
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	int ret = cart_check(comm, "MPI_Cart_sub"), c[VMPI_MAX_DIMS];
	int i, color = 0, key = 0, nd = 0, dims[VMPI_MAX_DIMS], per[VMPI_MAX_DIMS];

	if (ret)
		return ret;
	if (!newcomm || (comm->ndims && !remain_dims))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Cart_sub",
				  "no dimensions or no communicator to return");
	cart_coords(comm->ndims, comm->cart, comm->rank, c);
	for (i = 0; i < comm->ndims; i++) {
		if (remain_dims[i]) {
			key = key * comm->cart[i] + c[i];
			dims[nd] = comm->cart[i];
			per[nd++] = comm->cart[comm->ndims + i];
		} else {
			color = color * comm->cart[i] + c[i];
		}
	}
	ret = MPI_Comm_split(comm, color, key, newcomm);
	if (ret)
		return ret;
	if (cart_attach(*newcomm, nd, dims, per))
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Cart_sub",
				  "out of memory");
	return MPI_SUCCESS;
}
