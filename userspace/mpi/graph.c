// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: graph topologies (MPI_Graph_*), distributed graphs
 * (MPI_Dist_graph_*) and the neighbourhood collectives on them and on
 * Cartesian grids.
 *
 * A graph keeps its ranks: reorder is taken as allowed, not done (placing
 * a general graph on the modelled network is a mapping problem vcube-mpi
 * does not solve; a Cartesian grid's reorder is, topo.c). Each rank keeps
 * its own in and out neighbours (a graph's neighbours are both), in the
 * order MPI gives them: a graph's edges, a distributed graph's as given
 * (MPI_Dist_graph_create_adjacent) or by contributing rank, then in its
 * order (MPI_Dist_graph_create, which exchanges the edges by
 * MPI_Alltoall and MPI_Alltoallv over the old communicator).
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

struct vmpi_graph {
	int kind;			/* MPI_GRAPH, MPI_DIST_GRAPH */
	int nnodes, *index, *edges;	/* MPI_GRAPH's, whole */
	int nin, nout, *in, *out;	/* this rank's neighbours */
	int *inw, *outw;		/* weights, or NULL */
	bool weighted;
};

void vmpi_graph_free(struct vmpi_graph *g)
{
	if (!g)
		return;
	free(g->index);
	free(g->edges);
	free(g->in);
	free(g->out);
	free(g->inw);
	free(g->outw);
	free(g);
}

static int *copy_ints(const int *v, int n)
{
	int *c = malloc((size_t)n * sizeof(int) + 1);

	if (c && n)
		memcpy(c, v, (size_t)n * sizeof(int));
	return c;
}

static struct vmpi_graph *graph_dup(const struct vmpi_graph *g)
{
	struct vmpi_graph *d = calloc(1, sizeof(*d));
	int ne = g->kind == MPI_GRAPH && g->nnodes ? g->index[g->nnodes - 1] : 0;

	if (!d)
		return NULL;
	*d = *g;
	d->index = g->index ? copy_ints(g->index, g->nnodes) : NULL;
	d->edges = g->edges ? copy_ints(g->edges, ne) : NULL;
	d->in = copy_ints(g->in, g->nin);
	d->out = copy_ints(g->out, g->nout);
	d->inw = g->inw ? copy_ints(g->inw, g->nin) : NULL;
	d->outw = g->outw ? copy_ints(g->outw, g->nout) : NULL;
	if ((g->index && !d->index) || (g->edges && !d->edges) || !d->in ||
	    !d->out || (g->inw && !d->inw) || (g->outw && !d->outw)) {
		vmpi_graph_free(d);
		return NULL;
	}
	return d;
}

int vmpi_graph_copy(MPI_Comm from, MPI_Comm to)
{
	if (!from->graph)
		return 0;
	to->graph = graph_dup(from->graph);
	return to->graph ? 0 : MPI_ERR_NO_MEM;
}

int vmpi_graph_kind(MPI_Comm c)
{
	return c->graph ? c->graph->kind : MPI_UNDEFINED;
}

/* 0 if @comm has a graph topology of @kind (0: either). */
static int graph_check(MPI_Comm comm, const char *call, int kind)
{
	int ret = vmpi_enter(comm, call);

	if (ret)
		return ret;
	if (!comm->graph || (kind && comm->graph->kind != kind))
		return vmpi_error(comm, MPI_ERR_TOPOLOGY, call,
				  "not a communicator with a %s topology",
				  kind == MPI_DIST_GRAPH ? "distributed graph" :
				  "graph");
	return 0;
}

/* A graph's arguments: index[] rising, every edge a rank of nnodes. */
static int graph_args(MPI_Comm comm, int nnodes, const int index[],
		      const int edges[])
{
	int i;

	if (nnodes < 0 || nnodes > comm->size || (nnodes && (!index || !edges)))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Graph_create",
				  "%d nodes of %d", nnodes, comm->size);
	for (i = 0; i < nnodes; i++)
		if (index[i] < (i ? index[i - 1] : 0))
			return vmpi_error(comm, MPI_ERR_ARG, "MPI_Graph_create",
					  "index[%d] = %d falls", i, index[i]);
	for (i = 0; nnodes && i < index[nnodes - 1]; i++)
		if (edges[i] < 0 || edges[i] >= nnodes)
			return vmpi_error(comm, MPI_ERR_RANK, "MPI_Graph_create",
					  "edges[%d] = %d of %d nodes", i,
					  edges[i], nnodes);
	return 0;
}

/* @c's graph of @nnodes, @index, @edges: rank r's neighbours, its edges. */
static int graph_attach(MPI_Comm c, int nnodes, const int index[],
			const int edges[])
{
	struct vmpi_graph *g = calloc(1, sizeof(*g));
	int r = c->rank, first = r ? index[r - 1] : 0;

	if (!g)
		return MPI_ERR_NO_MEM;
	g->kind = MPI_GRAPH;
	g->nnodes = nnodes;
	g->index = copy_ints(index, nnodes);
	g->edges = copy_ints(edges, nnodes ? index[nnodes - 1] : 0);
	g->nin = g->nout = index[r] - first;
	g->in = copy_ints(edges + first, g->nin);
	g->out = copy_ints(edges + first, g->nout);
	if (!g->index || !g->edges || !g->in || !g->out) {
		vmpi_graph_free(g);
		return MPI_ERR_NO_MEM;
	}
	c->graph = g;
	return 0;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *comm_graph)
{
	int ret = vmpi_intra(comm, "MPI_Graph_create");

	(void)reorder;		/* allowed, not done: see above */
	if (!ret && !comm_graph)
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Graph_create",
				 "no communicator to return");
	if (!ret)
		ret = graph_args(comm, nnodes, index, edges);
	if (ret)
		return ret;
	ret = MPI_Comm_split(comm, comm->rank < nnodes ? 0 : MPI_UNDEFINED,
			     comm->rank, comm_graph);
	if (ret || *comm_graph == MPI_COMM_NULL)
		return ret;
	if (graph_attach(*comm_graph, nnodes, index, edges))
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Graph_create",
				  "out of memory");
	return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	int ret = graph_check(comm, "MPI_Graphdims_get", MPI_GRAPH);
	const struct vmpi_graph *g;

	if (ret)
		return ret;
	g = comm->graph;
	*nnodes = g->nnodes;
	*nedges = g->nnodes ? g->index[g->nnodes - 1] : 0;
	return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[])
{
	int ret = graph_check(comm, "MPI_Graph_get", MPI_GRAPH), i, ne;
	const struct vmpi_graph *g;

	if (ret)
		return ret;
	g = comm->graph;
	ne = g->nnodes ? g->index[g->nnodes - 1] : 0;
	for (i = 0; i < g->nnodes && i < maxindex; i++)
		index[i] = g->index[i];
	for (i = 0; i < ne && i < maxedges; i++)
		edges[i] = g->edges[i];
	return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	int ret = graph_check(comm, "MPI_Graph_neighbors_count", MPI_GRAPH);
	const struct vmpi_graph *g;

	if (ret)
		return ret;
	g = comm->graph;
	if (rank < 0 || rank >= g->nnodes)
		return vmpi_error(comm, MPI_ERR_RANK, "MPI_Graph_neighbors_count",
				  "rank %d of %d", rank, g->nnodes);
	*nneighbors = g->index[rank] - (rank ? g->index[rank - 1] : 0);
	return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[])
{
	int n, i, ret = MPI_Graph_neighbors_count(comm, rank, &n);
	const int *e;

	if (ret)
		return ret;
	e = comm->graph->edges + (rank ? comm->graph->index[rank - 1] : 0);
	for (i = 0; i < n && i < maxneighbors; i++)
		neighbors[i] = e[i];
	return MPI_SUCCESS;
}

/* The rank MPI_Graph_create would give: its own, as reorder is not done. */
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank)
{
	int ret = vmpi_intra(comm, "MPI_Graph_map");

	if (!ret)
		ret = graph_args(comm, nnodes, index, edges);
	if (ret)
		return ret;
	*newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* ---- distributed graphs ---------------------------------------------------- */

static bool is_weights(const int *w)
{
	return w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY;
}

/* A distributed graph on a dup of @comm with this rank's neighbours. */
static int dist_attach(MPI_Comm comm, const char *call, int nin,
		       const int in[], const int inw[], int nout,
		       const int out[], const int outw[], bool weighted,
		       MPI_Comm *newcomm)
{
	struct vmpi_graph *g = calloc(1, sizeof(*g));
	int ret;

	if (!g)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	g->kind = MPI_DIST_GRAPH;
	g->nin = nin;
	g->nout = nout;
	g->in = copy_ints(in, nin);
	g->out = copy_ints(out, nout);
	g->weighted = weighted;
	if (weighted) {
		g->inw = copy_ints(inw, nin);
		g->outw = copy_ints(outw, nout);
	}
	if (!g->in || !g->out || (weighted && (!g->inw || !g->outw))) {
		vmpi_graph_free(g);
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	}
	ret = MPI_Comm_dup(comm, newcomm);
	if (ret) {
		vmpi_graph_free(g);
		return ret;
	}
	vmpi_graph_free((*newcomm)->graph);	/* a graph's dup has one */
	free((*newcomm)->cart);
	(*newcomm)->cart = NULL;
	(*newcomm)->graph = g;
	return MPI_SUCCESS;
}

static int ranks_check(MPI_Comm comm, const char *call, int n, const int r[])
{
	int i;

	if (n < 0 || (n && !r))
		return vmpi_error(comm, MPI_ERR_ARG, call, "degree %d", n);
	for (i = 0; i < n; i++)
		if (r[i] < 0 || r[i] >= comm->size)
			return vmpi_error(comm, MPI_ERR_RANK, call,
					  "neighbour %d of %d", r[i], comm->size);
	return 0;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph)
{
	const char *call = "MPI_Dist_graph_create_adjacent";
	int ret = vmpi_intra(comm, call);
	bool w = is_weights(sourceweights) || is_weights(destweights);

	(void)info;
	(void)reorder;
	if (!ret)	/* weighted when any rank gives weights */
		ret = MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_C_BOOL, MPI_LOR,
				    comm);
	if (!ret)
		ret = ranks_check(comm, call, indegree, sources);
	if (!ret)
		ret = ranks_check(comm, call, outdegree, destinations);
	if (!ret && !comm_dist_graph)
		ret = vmpi_error(comm, MPI_ERR_ARG, call,
				 "no communicator to return");
	if (!ret && w && ((indegree && !is_weights(sourceweights)) ||
			  (outdegree && !is_weights(destweights))))
		ret = vmpi_error(comm, MPI_ERR_ARG, call,
				 "weights on one side only");
	if (ret)
		return ret;
	return dist_attach(comm, call, indegree, sources, sourceweights,
			   outdegree, destinations, destweights, w,
			   comm_dist_graph);
}

/* An edge's record for one of its ends: out (to @peer) or in (from it). */
struct rec {
	int in, peer, w;
};

/* @comm's ranks' edges, each record sent to its end: counts in @cnt. */
static int recs_make(MPI_Comm comm, const char *call, int n,
		     const int sources[], const int degrees[],
		     const int dests[], const int weights[], bool w,
		     struct rec **out, int *cnt)
{
	int i, k, e = 0, total = 0, *at;
	struct rec *r;

	for (i = 0; i < n; i++) {
		if (degrees[i] < 0 || sources[i] < 0 || sources[i] >= comm->size)
			return vmpi_error(comm, MPI_ERR_ARG, call,
					  "source %d, degree %d", sources[i],
					  degrees[i]);
		total += degrees[i];
	}
	if (ranks_check(comm, call, total, dests))
		return MPI_ERR_RANK;
	for (i = 0; i < n; i++)
		for (k = 0; k < degrees[i]; k++, e++) {
			cnt[sources[i]]++;
			cnt[dests[e]]++;
		}
	r = malloc(2 * (size_t)total * sizeof(*r) + 1);
	at = calloc((size_t)comm->size + 1, sizeof(*at));
	if (!r || !at) {
		free(r);
		free(at);
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	}
	for (i = 1; i <= comm->size; i++)
		at[i] = at[i - 1] + cnt[i - 1];
	for (i = 0, e = 0; i < n; i++)
		for (k = 0; k < degrees[i]; k++, e++) {
			int s = sources[i], d = dests[e];
			int wt = w ? weights[e] : 1;

			r[at[s]++] = (struct rec){ 0, d, wt };
			r[at[d]++] = (struct rec){ 1, s, wt };
		}
	free(at);
	*out = r;
	return 0;
}

/* The records this rank got, as its in and out neighbours: then attach. */
static int recs_take(MPI_Comm comm, const char *call, const struct rec *r,
		     int n, bool w, MPI_Comm *newcomm)
{
	int *v = malloc(4 * (size_t)n * sizeof(int) + 1), i, nin = 0, nout = 0;
	int ret;

	if (!v)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	for (i = 0; i < n; i++) {
		if (r[i].in) {
			v[nin] = r[i].peer;
			v[n + nin++] = r[i].w;
		} else {
			v[2 * n + nout] = r[i].peer;
			v[3 * n + nout++] = r[i].w;
		}
	}
	ret = dist_attach(comm, call, nin, v, v + n, nout, v + 2 * n,
			  v + 3 * n, w, newcomm);
	free(v);
	return ret;
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *comm_dist_graph)
{
	const char *call = "MPI_Dist_graph_create";
	int ret = vmpi_intra(comm, call), p, i, nget, *cnt = NULL;
	struct rec *send = NULL, *got = NULL;
	bool w = n > 0 && is_weights(weights);

	(void)info;
	(void)reorder;
	if (!ret && (n < 0 || (n && (!sources || !degrees)) ||
		     !comm_dist_graph))
		ret = vmpi_error(comm, MPI_ERR_ARG, call,
				 "%d sources, or none given", n);
	if (!ret)
		ret = MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_C_BOOL, MPI_LOR,
				    comm);
	if (ret)
		return ret;
	p = comm->size;
	cnt = calloc(4 * (size_t)p, sizeof(*cnt));
	if (!cnt)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	ret = recs_make(comm, call, n, sources, degrees, destinations, weights,
			w && n > 0, &send, cnt);
	/* every rank takes part in the exchange, even after its own error */
	for (i = 0; i < p; i++)
		cnt[i] = ret ? 0 : cnt[i] * 3;
	if (MPI_Alltoall(cnt, 1, MPI_INT, cnt + p, 1, MPI_INT, comm))
		ret = MPI_ERR_OTHER;
	for (i = 0, nget = 0; i < p; i++) {
		cnt[2 * p + i] = i ? cnt[2 * p + i - 1] + cnt[i - 1] : 0;
		cnt[3 * p + i] = nget;
		nget += cnt[p + i];
	}
	got = malloc((size_t)nget * sizeof(int) + 1);
	if (!got) {
		free(send);
		free(cnt);
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	}
	if (MPI_Alltoallv(send ? (void *)send : (void *)got, cnt, cnt + 2 * p,
			  MPI_INT, got, cnt + p, cnt + 3 * p, MPI_INT, comm))
		ret = ret ? ret : MPI_ERR_OTHER;
	if (!ret)
		ret = recs_take(comm, call, got, nget / 3, w, comm_dist_graph);
	free(send);
	free(got);
	free(cnt);
	return ret;
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
				   int *outdegree, int *weighted)
{
	int ret = graph_check(comm, "MPI_Dist_graph_neighbors_count",
			      MPI_DIST_GRAPH);

	if (ret)
		return ret;
	*indegree = comm->graph->nin;
	*outdegree = comm->graph->nout;
	*weighted = comm->graph->weighted;
	return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[])
{
	int ret = graph_check(comm, "MPI_Dist_graph_neighbors", MPI_DIST_GRAPH);
	const struct vmpi_graph *g;
	int i;

	if (ret)
		return ret;
	g = comm->graph;
	for (i = 0; i < g->nin && i < maxindegree; i++) {
		sources[i] = g->in[i];
		if (g->weighted && is_weights(sourceweights))
			sourceweights[i] = g->inw[i];
	}
	for (i = 0; i < g->nout && i < maxoutdegree; i++) {
		destinations[i] = g->out[i];
		if (g->weighted && is_weights(destweights))
			destweights[i] = g->outw[i];
	}
	return MPI_SUCCESS;
}

/* ---- neighbourhood collectives ---------------------------------------------- */

/*
 * @c's in and out neighbours, each with the tag of its message: a
 * Cartesian grid's are the source and the destination of each dimension
 * in turn (MPI_PROC_NULL at an edge), the message sent towards the
 * destination on tag 2d + 1 and towards the source on 2d, so that on a
 * ring of two, whose source and destination are one rank, each lands in
 * its block; a graph's are its edges, all on tag 0, in order.
 */
struct nbrs {
	int nin, nout;
	int *in, *out, *intag, *outtag;
};

static int nbrs_get(MPI_Comm c, const char *call, struct nbrs *n)
{
	int d, k, nd = c->ndims;

	memset(n, 0, sizeof(*n));
	if (!c->cart && !c->graph)
		return vmpi_error(c, MPI_ERR_TOPOLOGY, call,
				  "a communicator with no topology");
	n->nin = c->cart ? 2 * nd : c->graph->nin;
	n->nout = c->cart ? 2 * nd : c->graph->nout;
	n->in = malloc(2 * (size_t)(n->nin + n->nout) * sizeof(int) + 1);
	if (!n->in)
		return vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
	n->intag = n->in + n->nin;
	n->out = n->intag + n->nin;
	n->outtag = n->out + n->nout;
	for (k = 0; k < n->nin; k++) {
		n->in[k] = c->cart ? 0 : c->graph->in[k];
		n->intag[k] = 0;
	}
	for (k = 0; k < n->nout; k++) {
		n->out[k] = c->cart ? 0 : c->graph->out[k];
		n->outtag[k] = 0;
	}
	for (d = 0; c->cart && d < nd; d++) {
		MPI_Cart_shift(c, d, 1, &n->in[2 * d], &n->in[2 * d + 1]);
		n->out[2 * d] = n->in[2 * d];
		n->out[2 * d + 1] = n->in[2 * d + 1];
		n->outtag[2 * d] = 2 * d;	/* towards the source */
		n->outtag[2 * d + 1] = 2 * d + 1;
		n->intag[2 * d] = 2 * d + 1;	/* from the source: its dest's */
		n->intag[2 * d + 1] = 2 * d;
	}
	return 0;
}

/*
 * Post a receive of @rlen[k] bytes at @rbuf + @roff[k] from each in
 * neighbour, send @slen[k] bytes at @sbuf + @soff[k] to each out
 * neighbour, wait for the receives: 0 or the MPI error reported.
 */
static int nbr_xchg(MPI_Comm c, const char *call, const struct nbrs *n,
		    const char *sbuf, const size_t *soff, const size_t *slen,
		    char *rbuf, const size_t *roff, const size_t *rlen)
{
	struct vcube_comm *v = c->vc;
	unsigned int tag = vcube_comm_tag_base(v);
	uint64_t *req = calloc((size_t)n->nin + 1, sizeof(*req));
	int k, ret = 0;

	if (!req)
		return vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
	for (k = 0; k < n->nin && !ret; k++)
		if (n->in[k] != MPI_PROC_NULL)
			ret = v->tp->irecv(v->tpx, (unsigned int)n->in[k],
					   tag | (unsigned int)n->intag[k],
					   rbuf + roff[k], rlen[k], &req[k]);
	for (k = 0; k < n->nout && !ret; k++)
		if (n->out[k] != MPI_PROC_NULL)
			ret = v->tp->send(v->tpx, (unsigned int)n->out[k],
					  tag | (unsigned int)n->outtag[k],
					  sbuf + soff[k], slen[k], 0);
	ret = vmpi_wait_all_but(v, req, n->nin, -1, ret);
	free(req);
	return ret ? vmpi_error(c, vmpi_errclass(ret), call, "%s",
				vmpi_strerror(ret)) : MPI_SUCCESS;
}

/*
 * A neighbourhood collective of @count elements of @stype to each out
 * neighbour (from one block, @all_same, or block k each) and of @rcounts
 * (or @rcount each) of @rtype at @rdispls (or block k) from each in one.
 */
static int nbr_coll(MPI_Comm c, const char *call, const void *sbuf,
		    int scount, const int scounts[], const int sdispls[],
		    MPI_Datatype stype, bool all_same, void *rbuf, int rcount,
		    const int rcounts[], const int rdispls[],
		    MPI_Datatype rtype)
{
	struct nbrs n;
	size_t *z;
	int k, ret = vmpi_enter(c, call);

	if (!ret)
		ret = vmpi_contig_check(c, call, stype);
	if (!ret)
		ret = vmpi_contig_check(c, call, rtype);
	if (!ret)
		ret = nbrs_get(c, call, &n);
	if (ret)
		return ret;
	z = malloc(2 * (size_t)(n.nin + n.nout) * sizeof(*z) + 1);
	if (!z) {
		free(n.in);
		return vmpi_error(c, MPI_ERR_NO_MEM, call, "out of memory");
	}
	for (k = 0; k < n.nout; k++) {
		size_t cnt = (size_t)(scounts ? scounts[k] : scount);

		z[k] = all_same ? 0 : (size_t)(sdispls ? sdispls[k] :
					       k * scount) * stype->size;
		z[n.nout + k] = cnt * stype->size;
	}
	for (k = 0; k < n.nin; k++) {
		z[2 * n.nout + k] = (size_t)(rdispls ? rdispls[k] : k * rcount) *
				    rtype->size;
		z[2 * n.nout + n.nin + k] =
			(size_t)(rcounts ? rcounts[k] : rcount) * rtype->size;
	}
	ret = nbr_xchg(c, call, &n, sbuf, z, z + n.nout, rbuf, z + 2 * n.nout,
		       z + 2 * n.nout + n.nin);
	free(z);
	free(n.in);
	return ret;
}

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm)
{
	return nbr_coll(comm, "MPI_Neighbor_allgather", sendbuf, sendcount,
			NULL, NULL, sendtype, true, recvbuf, recvcount, NULL,
			NULL, recvtype);
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm)
{
	return nbr_coll(comm, "MPI_Neighbor_allgatherv", sendbuf, sendcount,
			NULL, NULL, sendtype, true, recvbuf, 0, recvcounts,
			displs, recvtype);
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm)
{
	return nbr_coll(comm, "MPI_Neighbor_alltoall", sendbuf, sendcount,
			NULL, NULL, sendtype, false, recvbuf, recvcount, NULL,
			NULL, recvtype);
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm)
{
	return nbr_coll(comm, "MPI_Neighbor_alltoallv", sendbuf, 0, sendcounts,
			sdispls, sendtype, false, recvbuf, 0, recvcounts,
			rdispls, recvtype);
}
