// SPDX-License-Identifier: GPL-2.0
/*
 * vcube topologies: hypercube (iPSC/860, e-cube routing), mesh (Touchstone
 * Delta, XY routing), torus (AP1000: +x then south; or the k-ary n-cube's
 * shorter way round), both of 1 to 6 dimensions, fat tree (SimGrid's
 * generalized one, the CM-5's as one case; d-mod-k or random up-routing,
 * down the way the top switch fixes), dragonfly (dragonfly.c), and any
 * graph of routers read from a file (graph.c).
 *
 * Everything but the graph is computed from a handful of integers: there
 * are no tables, and a route costs time proportional to its length. The
 * graph's next-hop table is made once, at creation; its routes then cost
 * their length too.
 */
#include "topology.h"

static const char *const vcube_topo_names[VCUBE_TOPO_NKINDS] = {
	[VCUBE_TOPO_HYPERCUBE] = "hypercube",
	[VCUBE_TOPO_MESH] = "mesh",
	[VCUBE_TOPO_TORUS] = "torus",
	[VCUBE_TOPO_FATTREE] = "fattree",
	[VCUBE_TOPO_DRAGONFLY] = "dragonfly",
	[VCUBE_TOPO_GRAPH] = "graph",
};

const char *vcube_topo_kind_name(enum vcube_topo_kind kind)
{
	if ((unsigned int)kind >= VCUBE_TOPO_NKINDS)
		return "unknown";
	return vcube_topo_names[kind];
}

int vcube_topo_kind_parse(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < VCUBE_TOPO_NKINDS; i++)
		if (!strcmp(name, vcube_topo_names[i]))
			return i;
	return -EINVAL;
}

static const char *const vcube_ft_routing_names[VCUBE_FT_NROUTING] = {
	[VCUBE_FT_DMODK] = "dmodk",
	[VCUBE_FT_RANDOM] = "random",
};

const char *vcube_ft_routing_name(u32 routing)
{
	if (!routing || routing >= VCUBE_FT_NROUTING)
		return "unknown";
	return vcube_ft_routing_names[routing];
}

/* A routing= word's enum vcube_ft_routing, or -EINVAL. */
int vcube_ft_routing_parse(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = VCUBE_FT_DMODK; i < VCUBE_FT_NROUTING; i++)
		if (!strcmp(name, vcube_ft_routing_names[i]))
			return i;
	return -EINVAL;
}

/*
 * routing=@name for a topology of @kind: enum vcube_ft_routing (fat tree)
 * or vcube_df_routing (dragonfly); -EINVAL if it is none of @kind's,
 * -EOPNOTSUPP if @kind takes no routing=.
 */
int vcube_topo_routing_parse(enum vcube_topo_kind kind, const char *name)
{
	switch (kind) {
	case VCUBE_TOPO_FATTREE:
		return vcube_ft_routing_parse(name);
	case VCUBE_TOPO_DRAGONFLY:
		return vcube_df_routing_parse(name);
	default:
		return -EOPNOTSUPP;
	}
}

/* Reject the shape parameters that belong to other topologies. */
static int vcube_topo_check_unused(const struct vcube_topo_params *p,
				   char *err, size_t errlen)
{
	const char *kind = vcube_topo_kind_name(p->kind);
	bool grid = p->kind == VCUBE_TOPO_MESH || p->kind == VCUBE_TOPO_TORUS;

	if (p->dim && p->kind != VCUBE_TOPO_HYPERCUBE)
		return vcube_fail(err, errlen,
				  "dim= does not apply to topology=%s", kind);
	if ((p->rows || p->cols) && !grid)
		return vcube_fail(err, errlen,
				  "rows=/cols= do not apply to topology=%s",
				  kind);
	if (p->ndims && !grid)
		return vcube_fail(err, errlen,
				  "dims= does not apply to topology=%s", kind);
	if (p->ndims && (p->rows || p->cols))
		return vcube_fail(err, errlen,
				  "topology=%s takes dims= or rows=/cols=, not both",
				  kind);
	if (p->nodes && p->kind != VCUBE_TOPO_FATTREE &&
	    p->kind != VCUBE_TOPO_DRAGONFLY)
		return vcube_fail(err, errlen,
				  "nodes= does not apply to topology=%s", kind);
	if ((p->levels || p->ndown || p->nup || p->nlinks) &&
	    p->kind != VCUBE_TOPO_FATTREE)
		return vcube_fail(err, errlen,
				  "levels=/down=/up=/links= do not apply to topology=%s",
				  kind);
	if (p->routing && p->kind != VCUBE_TOPO_FATTREE &&
	    p->kind != VCUBE_TOPO_DRAGONFLY)
		return vcube_fail(err, errlen,
				  "routing= does not apply to topology=%s", kind);
	if ((p->groups || p->routers || p->global) &&
	    p->kind != VCUBE_TOPO_DRAGONFLY)
		return vcube_fail(err, errlen,
				  "groups=/routers=/global= do not apply to topology=%s",
				  kind);
	if (p->graph && p->kind != VCUBE_TOPO_GRAPH)
		return vcube_fail(err, errlen,
				  "a graph's routers, nodes and links do not apply to topology=%s",
				  kind);
	return 0;
}

/*
 * The tree's numbers from its levels, down[], parents[] and links[]: tree
 * nodes per level (a partial tree's last ones cut at t->nodes), switches
 * per tree node, where each level's channels and bundles start. -EINVAL
 * past VCUBE_FT_MAX_CHANNELS channels.
 */
static int vcube_ft_build(struct vcube_topo *t, char *err, size_t errlen)
{
	struct vcube_fattree *ft = &t->ft;
	u64 chans = 0, w;
	u32 k;

	ft->width[0] = 1;
	ft->span[0] = 1;
	for (k = 0; k <= ft->levels; k++) {
		ft->count[k] = (t->nodes + ft->span[k] - 1) / ft->span[k];
		ft->base[k] = chans;
		ft->bbase[k] = k ? ft->bbase[k - 1] + 2 * ft->count[k - 1] : 0;
		if (k == ft->levels)
			break;
		w = (u64)ft->width[k] * ft->parents[k];
		if (w <= VCUBE_FT_MAX_CHANNELS)
			chans += 2 * ft->count[k] * w * ft->links[k];
		if (w > VCUBE_FT_MAX_CHANNELS || chans > VCUBE_FT_MAX_CHANNELS)
			return vcube_fail(err, errlen,
					  "this fat tree has more than %u channels, the most supported",
					  VCUBE_FT_MAX_CHANNELS);
		ft->width[k + 1] = w;
		/* at most t->nodes, but for a partial tree's top level */
		ft->span[k + 1] = ft->span[k] * ft->down[k];
	}
	t->nchan = chans;
	t->nbundles = ft->bbase[ft->levels];
	return 0;
}

/* nodes=: the CM-5 data network's shape (see struct vcube_fattree). */
static int vcube_ft_cm5(struct vcube_topo *t,
			const struct vcube_topo_params *p, char *err,
			size_t errlen)
{
	struct vcube_fattree *ft = &t->ft;
	u32 span = 1, k;

	if (p->ndown || p->nup || p->nlinks)
		return vcube_fail(err, errlen,
				  "topology=fattree takes nodes= or levels=/down=/up=/links=, not both");
	if (p->nodes < 2 || p->nodes > VCUBE_MAX_NODES)
		return vcube_fail(err, errlen,
				  "topology=fattree needs nodes=2..%d (got nodes=%u)",
				  VCUBE_MAX_NODES, p->nodes);
	t->nodes = p->nodes;
	ft->cm5 = true;
	ft->levels = 0;
	while (span < t->nodes) {
		span *= 4;
		ft->levels++;
	}
	/* its own shape's words, "nodes=N levels=L", name it too */
	if (p->levels && p->levels != ft->levels)
		return vcube_fail(err, errlen,
				  "nodes=%u is the CM-5's tree of %u levels, not levels=%u",
				  p->nodes, ft->levels, p->levels);
	for (k = 0; k <= ft->levels; k++) {
		/* CM-5: level 1 and 2 switches have 2 parents, higher ones 4. */
		ft->parents[k] = k <= 2 ? 2 : 4;
		ft->down[k] = 4;
		ft->links[k] = 1;
	}
	return vcube_ft_build(t, err, errlen);
}

/* One of levels=' lists: @n values, each at least 1, into @out. */
static int vcube_ft_list(const char *name, const u32 *v, u32 n, u32 levels,
			 u32 *out, char *err, size_t errlen)
{
	u32 k;

	if (n != levels)
		return vcube_fail(err, errlen,
				  "%s= has %u values: levels=%u needs %u, one per level",
				  name, n, levels, levels);
	for (k = 0; k < n; k++) {
		if (!v[k])
			return vcube_fail(err, errlen,
					  "%s= value %u (level %u) is 0: each must be at least 1",
					  name, k + 1, k + 1);
		out[k] = v[k];
	}
	return 0;
}

/* levels= down= up= links=: SimGrid's FAT_TREE "levels;down;up;links". */
static int vcube_ft_general(struct vcube_topo *t,
			    const struct vcube_topo_params *p, char *err,
			    size_t errlen)
{
	static const u32 ones[VCUBE_FT_MAX_LEVELS] = { 1, 1, 1, 1, 1, 1 };
	struct vcube_fattree *ft = &t->ft;
	u32 k, l = p->levels, nodes = 1;
	int ret;

	if (!l || l > VCUBE_FT_MAX_LEVELS)
		return vcube_fail(err, errlen,
				  "topology=fattree needs levels=1..%d (got levels=%u)",
				  VCUBE_FT_MAX_LEVELS, l);
	if (!p->ndown || !p->nup)
		return vcube_fail(err, errlen,
				  "topology=fattree levels=%u needs down= and up=", l);
	ret = vcube_ft_list("down", p->down, p->ndown, l, ft->down, err,
			    errlen) ?:
	      vcube_ft_list("up", p->up, p->nup, l, ft->parents, err,
			    errlen) ?:
	      vcube_ft_list("links", p->nlinks ? p->links : ones,
			    p->nlinks ?: l, l, ft->links, err, errlen);
	if (ret)
		return ret;
	for (k = 0; k < l && nodes <= VCUBE_MAX_NODES; k++)
		nodes = ft->down[k] > VCUBE_MAX_NODES ? VCUBE_MAX_NODES + 1 :
			nodes * ft->down[k];
	if (nodes > VCUBE_MAX_NODES)
		return vcube_fail(err, errlen,
				  "down= makes more than %d nodes, the most supported",
				  VCUBE_MAX_NODES);
	if (nodes < 2)
		return vcube_fail(err, errlen,
				  "down= makes 1 node: a fat tree needs at least 2");
	t->nodes = nodes;
	ft->levels = l;
	return vcube_ft_build(t, err, errlen);
}

/* Either form, the routing and the shape's length. */
static int vcube_ft_init(struct vcube_topo *t,
			 const struct vcube_topo_params *p, char *err,
			 size_t errlen)
{
	char shape[VCUBE_SHAPE_LEN];
	int ret;

	if (!p->nodes && !p->levels && !p->ndown && !p->nup && !p->nlinks)
		return vcube_fail(err, errlen,
				  "topology=fattree needs nodes=2..%d, or levels=, down= and up=",
				  VCUBE_MAX_NODES);
	if (p->routing >= VCUBE_FT_NROUTING)
		return vcube_fail(err, errlen, "unknown fat tree routing %u",
				  p->routing);
	ret = p->nodes ? vcube_ft_cm5(t, p, err, errlen) :
			 vcube_ft_general(t, p, err, errlen);
	if (ret)
		return ret;
	t->ft.routing = p->routing ?:
			t->ft.cm5 ? VCUBE_FT_RANDOM : VCUBE_FT_DMODK;
	if (vcube_topo_format_shape(t, shape, sizeof(shape)) >=
	    (int)sizeof(shape))
		return vcube_fail(err, errlen,
				  "this fat tree's shape takes more than %d characters",
				  VCUBE_SHAPE_LEN - 1);
	return 0;
}

/*
 * The grid's layout: strides, and where each dimension's channels start.
 * Mesh: dimension by dimension, all + channels then all - ones, each
 * numbered by the lower node of its link with that dimension's size taken
 * as one less (2-D: east, west, south, north blocks). Torus: each node
 * owns its channels, + then - in each dimension of size 2 or more.
 */
static void vcube_grid_init(struct vcube_topo *t)
{
	u32 d, k, links, slot = 0;

	t->nodes = 1;
	for (d = 0; d < t->ndims; d++) {
		t->stride[d] = t->nodes;
		t->nodes *= t->size[d];
	}
	t->nchan = 0;
	for (d = 0; d < t->ndims; d++) {
		k = t->size[d];
		links = t->nodes / k * (k - 1);
		t->cbase[d] = t->nchan;
		t->slot[d] = slot;
		if (k > 1)
			slot += 2;
		if (t->kind == VCUBE_TOPO_MESH)
			t->nchan += 2 * links;
	}
	t->per_node = slot;
	if (t->kind == VCUBE_TOPO_TORUS)
		t->nchan = t->nodes * slot;
}

/* dims=: 1 to VCUBE_GRID_MAX_DIMS sizes of 2 or more, at most 4096 nodes. */
static int vcube_grid_dims(struct vcube_topo *t,
			   const struct vcube_topo_params *p, char *err,
			   size_t errlen)
{
	u32 d, n = 1;

	if (p->ndims > VCUBE_GRID_MAX_DIMS)
		return vcube_fail(err, errlen,
				  "dims= has %u sizes: at most %d dimensions are supported",
				  p->ndims, VCUBE_GRID_MAX_DIMS);
	for (d = 0; d < p->ndims; d++) {
		if (p->dims[d] < 2)
			return vcube_fail(err, errlen,
					  "dims= size %u of dimension %u: each size must be at least 2",
					  p->dims[d], d + 1);
		if (p->dims[d] > VCUBE_MAX_NODES / n)
			return vcube_fail(err, errlen,
					  "dims= is too large: at most %d nodes are supported",
					  VCUBE_MAX_NODES);
		n *= p->dims[d];
		t->size[d] = p->dims[d];
	}
	t->ndims = p->ndims;
	return 0;
}

static int vcube_topo_init_shape(struct vcube_topo *t,
				 const struct vcube_topo_params *p, char *err,
				 size_t errlen);

/* A graph's tables, from the routers, nodes and links its creator gave. */
static int vcube_topo_graph_init(struct vcube_topo *t,
				 const struct vcube_topo_params *p, char *err,
				 size_t errlen)
{
	struct vcube_graph *g;
	int ret;

	if (!p->graph)
		return vcube_fail(err, errlen,
				  "topology=graph needs a graph: vcubectl net add NAME topology=graph file=F");
	if (p->graph->nodes < 2 || p->graph->nodes > VCUBE_MAX_NODES)
		return vcube_fail(err, errlen,
				  "a graph has 2..%d nodes, not %u",
				  VCUBE_MAX_NODES, p->graph->nodes);
	g = vc_alloc(sizeof(*g));
	if (!g) {
		vcube_fail(err, errlen, "no memory for a graph");
		return -ENOMEM;
	}
	ret = vcube_graph_init(g, p->graph, err, errlen);
	if (ret) {
		vc_free(g);
		return ret;
	}
	t->graph = g;
	t->nodes = g->nodes;
	t->nchan = vcube_graph_nchan(g);
	return 0;
}

/**
 * vcube_topo_fini() - free what vcube_topo_init() allocated (a graph's
 * tables); a topology with none, or finished, is left as it is
 * @t: the topology, made or zeroed
 */
void vcube_topo_fini(struct vcube_topo *t)
{
	if (!t->graph)
		return;
	vcube_graph_fini(t->graph);
	vc_free(t->graph);
	t->graph = NULL;
}

int vcube_topo_init(struct vcube_topo *t, const struct vcube_topo_params *p,
		    char *err, size_t errlen)
{
	int ret = vcube_topo_init_shape(t, p, err, errlen);

	if (!ret && t->kind != VCUBE_TOPO_FATTREE)
		t->nbundles = t->nchan;
	return ret;
}

static int vcube_topo_init_shape(struct vcube_topo *t,
				 const struct vcube_topo_params *p, char *err,
				 size_t errlen)
{
	const char *kind = vcube_topo_kind_name(p->kind);
	int ret;

	memset(t, 0, sizeof(*t));
	if ((unsigned int)p->kind >= VCUBE_TOPO_NKINDS)
		return vcube_fail(err, errlen, "unknown topology %d", p->kind);
	ret = vcube_topo_check_unused(p, err, errlen);
	if (ret)
		return ret;
	t->kind = p->kind;
	t->seed = p->seed;

	switch (p->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		if (!p->dim)
			return vcube_fail(err, errlen,
					  "topology=hypercube needs dim=1..%d",
					  VCUBE_MAX_DIM);
		if (p->dim > VCUBE_MAX_DIM)
			return vcube_fail(err, errlen,
					  "dim=%u is too large: at most dim=%d (%d nodes) is supported",
					  p->dim, VCUBE_MAX_DIM,
					  VCUBE_MAX_NODES);
		t->dim = p->dim;
		t->nodes = 1U << p->dim;
		t->nchan = t->nodes * t->dim;
		return 0;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		if (p->ndims) {
			ret = vcube_grid_dims(t, p, err, errlen);
			if (!ret)
				vcube_grid_init(t);
			return ret;
		}
		if (!p->rows || !p->cols)
			return vcube_fail(err, errlen,
					  "topology=%s needs rows= and cols= (both at least 1), or dims=",
					  kind);
		if (p->rows > VCUBE_MAX_NODES || p->cols > VCUBE_MAX_NODES ||
		    p->rows * p->cols > VCUBE_MAX_NODES)
			return vcube_fail(err, errlen,
					  "rows=%u cols=%u is too large: at most %d nodes are supported",
					  p->rows, p->cols, VCUBE_MAX_NODES);
		if (p->rows * p->cols < 2)
			return vcube_fail(err, errlen,
					  "topology=%s needs at least 2 nodes (rows=%u cols=%u)",
					  kind, p->rows, p->cols);
		t->rows = p->rows;
		t->cols = p->cols;
		t->ndims = 2;
		t->size[0] = p->cols;
		t->size[1] = p->rows;
		t->plus_only = p->kind == VCUBE_TOPO_TORUS;
		vcube_grid_init(t);
		return 0;
	case VCUBE_TOPO_FATTREE:
		return vcube_ft_init(t, p, err, errlen);
	case VCUBE_TOPO_DRAGONFLY:
		return vcube_df_init(t, p, err, errlen);
	case VCUBE_TOPO_GRAPH:
		return vcube_topo_graph_init(t, p, err, errlen);
	default:
		return -EINVAL;
	}
}

/* ---- channel numbering ------------------------------------------------ */

/* A grid node's coordinate in dimension @d. */
static u32 vcube_grid_coord(const struct vcube_topo *t, u32 node, u32 d)
{
	return node / t->stride[d] % t->size[d];
}

/* Mesh: the links of dimension @d, one per node not on its + edge. */
static u32 vcube_mesh_links(const struct vcube_topo *t, u32 d)
{
	return t->nodes / t->size[d] * (t->size[d] - 1);
}

/* The channel leaving @node along dimension @d, the - way if @minus. */
static u32 vcube_grid_chan(const struct vcube_topo *t, u32 node, u32 d,
			   bool minus)
{
	u32 k = t->size[d], st = t->stride[d], low, q;

	if (t->kind == VCUBE_TOPO_TORUS)
		return node * t->per_node + t->slot[d] + minus;
	/* the link's lower node, numbered as if this dimension were k - 1 */
	low = minus ? node - st : node;
	q = low / st;
	return t->cbase[d] + (minus ? vcube_mesh_links(t, d) : 0) +
	       (q / k * (k - 1) + q % k) * st + low % st;
}

/* Neighbour of a grid node along dimension @d, with torus wrap-around. */
static u32 vcube_grid_step(const struct vcube_topo *t, u32 node, u32 d,
			   bool minus)
{
	u32 c = vcube_grid_coord(t, node, d), k = t->size[d];
	u32 st = t->stride[d];

	if (!minus)
		return c + 1 == k ? node - c * st : node + st;
	return c == 0 ? node + (k - 1) * st : node - st;
}

/*
 * The hops a route takes along dimension @d from coordinate @from to @to,
 * and which way (see enum vcube_topo_dir).
 */
static u32 vcube_grid_hops(const struct vcube_topo *t, u32 d, u32 from,
			   u32 to, bool *minus)
{
	u32 k = t->size[d], fwd = (to + k - from) % k;

	*minus = false;
	if (t->kind == VCUBE_TOPO_MESH) {
		*minus = to < from;
		return *minus ? from - to : to - from;
	}
	if (t->plus_only || 2 * fwd <= k)
		return fwd;
	*minus = true;
	return k - fwd;
}

/* Links in the bundle between a level-@k tree node and its parent. */
static u32 vcube_ft_bundle_width(const struct vcube_fattree *ft, u32 k)
{
	return ft->width[k + 1] * ft->links[k];
}

static u32 vcube_ft_chan(const struct vcube_topo *t, u32 level, u32 child,
			 u32 lane, u32 down)
{
	const struct vcube_fattree *ft = &t->ft;

	return ft->base[level] +
	       2 * (child * vcube_ft_bundle_width(ft, level) + lane) + down;
}

/* ---- routing ---------------------------------------------------------- */

/* Level (0 .. levels) of the least common ancestor of two leaves. */
static u32 vcube_ft_lca(const struct vcube_topo *t, u32 src, u32 dst)
{
	u32 l = 0;

	while (src / t->ft.span[l] != dst / t->ft.span[l])
		l++;
	return l;
}

/*
 * The up-port q < w * p a switch at @level takes (parent q % w, parallel
 * link q / w; see struct vcube_fattree): d-mod-k's, or the seeded one.
 */
static u32 vcube_ft_pick(const struct vcube_topo *t, u32 src, u32 dst,
			 u64 cookie, u32 level)
{
	const struct vcube_fattree *ft = &t->ft;
	u32 ports = ft->parents[level] * ft->links[level];
	u64 h;

	if (ft->routing == VCUBE_FT_DMODK)
		return dst / ft->width[level] % ports;
	h = vcube_mix64(t->seed ^ vcube_mix64(cookie));
	h = vcube_mix64(h ^ ((u64)src << 32 | dst));
	h = vcube_mix64(h + level);
	return (u32)(h >> 32) % ports;
}

/*
 * Up to the least common ancestor on the ports vcube_ft_pick() chooses;
 * down from the switch reached at the top, which fixes every parent
 * switch, on the parallel link taken up at the same level.
 */
static u32 vcube_ft_route(const struct vcube_topo *t, u32 src, u32 dst,
			  u64 cookie, u32 *chan)
{
	const struct vcube_fattree *ft = &t->ft;
	u32 q[VCUBE_FT_MAX_LEVELS], l, k, sw = 0, n = 0, w;

	l = vcube_ft_lca(t, src, dst);
	for (k = 0; k < l; k++) {
		w = ft->parents[k];
		q[k] = vcube_ft_pick(t, src, dst, cookie, k);
		sw = sw * w + q[k] % w;
		chan[n++] = vcube_ft_chan(t, k, src / ft->span[k],
					  sw * ft->links[k] + q[k] / w, 0);
	}
	for (k = l; k-- > 0;) {
		w = ft->parents[k];
		chan[n++] = vcube_ft_chan(t, k, dst / ft->span[k],
					  sw * ft->links[k] + q[k] / w, 1);
		sw /= w;
	}
	return n;
}

/**
 * vcube_topo_route() - the channels a message from @src to @dst crosses
 * @t: topology
 * @src: source node
 * @dst: destination node
 * @cookie: per-message value; the fat tree's seeded random up-routing and
 *	the dragonfly's Valiant intermediate group use it (with the
 *	topology's seed), so a route is a pure function of (seed, src, dst,
 *	cookie)
 * @chan: filled with channel ids in the order the header crosses them
 * @max: room in @chan
 *
 * A dragonfly with routing=ugal routes here as if no channel had load:
 * minimally (see vcube_topo_route_load()).
 *
 * Return: the number of channels (0 when @src == @dst), -EINVAL for a node
 * out of range, -ENOSPC if @max is too small.
 */
int vcube_topo_route(const struct vcube_topo *t, u32 src, u32 dst, u64 cookie,
		     u32 *chan, u32 max)
{
	return vcube_topo_route_load(t, src, dst, cookie, NULL, NULL, chan,
				     max);
}

/**
 * vcube_topo_route_load() - vcube_topo_route(), knowing the load
 * @t: topology
 * @src: source node
 * @dst: destination node
 * @cookie: as vcube_topo_route()'s
 * @load: the load on a channel (or in packet switching on its bundle) now;
 *	only a dragonfly's UGAL-L asks it, of the first channel out of the
 *	source router of its minimal and its Valiant candidate. NULL: none
 * @ctx: @load's argument
 * @chan: as vcube_topo_route()'s
 * @max: as vcube_topo_route()'s
 *
 * Return: as vcube_topo_route().
 */
int vcube_topo_route_load(const struct vcube_topo *t, u32 src, u32 dst,
			  u64 cookie, vcube_topo_load_fn load, void *ctx,
			  u32 *chan, u32 max)
{
	u32 n = 0, cur = src, b, k, hops;
	bool minus;

	if (src >= t->nodes || dst >= t->nodes)
		return -EINVAL;
	if (t->kind == VCUBE_TOPO_DRAGONFLY)
		return vcube_df_route(t, src, dst, cookie, load, ctx, chan,
				      max);
	if (t->kind == VCUBE_TOPO_GRAPH)
		return vcube_graph_route(t->graph, src, dst, chan, max);
	if (vcube_topo_distance(t, src, dst) > max)
		return -ENOSPC;

	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		/* e-cube: fix differing bits from the least significant up. */
		for (b = 0; b < t->dim; b++) {
			if (!((cur ^ dst) & (1U << b)))
				continue;
			chan[n++] = cur * t->dim + b;
			cur ^= 1U << b;
		}
		break;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		/*
		 * Dimension order, X first: XY on a 2-D mesh, east then south
		 * on the AP1000's torus; vcube_grid_hops() picks the way.
		 */
		for (k = 0; k < t->ndims; k++) {
			hops = vcube_grid_hops(t, k, vcube_grid_coord(t, cur, k),
					       vcube_grid_coord(t, dst, k),
					       &minus);
			while (hops--) {
				chan[n++] = vcube_grid_chan(t, cur, k, minus);
				cur = vcube_grid_step(t, cur, k, minus);
			}
		}
		break;
	case VCUBE_TOPO_FATTREE:
		n = vcube_ft_route(t, src, dst, cookie, chan);
		break;
	default:
		return -EINVAL;
	}
	return n;
}

u32 vcube_topo_distance(const struct vcube_topo *t, u32 src, u32 dst)
{
	u32 x = src ^ dst, n = 0, d;
	bool minus;

	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		for (; x; x &= x - 1)
			n++;
		return n;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		for (d = 0; d < t->ndims; d++)
			n += vcube_grid_hops(t, d, vcube_grid_coord(t, src, d),
					     vcube_grid_coord(t, dst, d),
					     &minus);
		return n;
	case VCUBE_TOPO_FATTREE:
		return 2 * vcube_ft_lca(t, src, dst);
	case VCUBE_TOPO_DRAGONFLY:
		return vcube_df_distance(t, src, dst);
	case VCUBE_TOPO_GRAPH:
		return vcube_graph_distance(t->graph, src, dst);
	default:
		return 0;
	}
}

u32 vcube_topo_diameter(const struct vcube_topo *t)
{
	u32 d, n = 0;

	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		return t->dim;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		for (d = 0; d < t->ndims; d++)
			n += t->kind == VCUBE_TOPO_MESH || t->plus_only ?
			     t->size[d] - 1 : t->size[d] / 2;
		return n;
	case VCUBE_TOPO_FATTREE:
		return 2 * vcube_ft_lca(t, 0, t->nodes - 1);
	case VCUBE_TOPO_DRAGONFLY:
		return vcube_df_diameter(t);
	case VCUBE_TOPO_GRAPH:
		return t->graph->diameter;
	default:
		return 0;
	}
}

/*
 * The ends of a fat tree link between tree node @child at level @k and its
 * parent: up (@dir 0) or down.
 */
static void vcube_ft_ends(const struct vcube_topo *t,
			  struct vcube_chan_info *info, u32 k, u32 child,
			  u32 dir)
{
	u32 parent = child / t->ft.down[k];

	info->dir = dir;
	info->from = child;
	info->from_level = k;
	info->to = parent;
	info->to_level = k + 1;
	if (dir) {
		info->to = child;
		info->to_level = k;
		info->from = parent;
		info->from_level = k + 1;
	}
}

/**
 * vcube_topo_neighbors() - nodes one step away from @node
 *
 * Hypercube, mesh and torus: the nodes at the other end of @node's links,
 * each listed once (mesh, torus: the - ways from the last dimension down,
 * then the + ways up; 2-D: north, west, east, south). Fat tree: the other
 * processors under @node's level-1 tree node (the CM-5's cluster of four),
 * which its messages reach over one level-1 switch. Dragonfly and graph:
 * the other nodes of @node's router, in order.
 *
 * Return: the number of neighbours, -EINVAL, or -ENOSPC if @max is short.
 */
int vcube_topo_neighbors(const struct vcube_topo *t, u32 node, u32 *out,
			 u32 max)
{
	u32 n = 0, i, j, nb, d, c, found[VCUBE_MAX_DIM];
	bool minus;

	if (node >= t->nodes)
		return -EINVAL;
	if (t->kind == VCUBE_TOPO_DRAGONFLY)
		return vcube_df_neighbors(t, node, out, max);
	switch (t->kind) {
	case VCUBE_TOPO_GRAPH:
		c = t->graph->node_router[node];
		for (nb = 0; nb < t->nodes; nb++) {
			if (nb == node || t->graph->node_router[nb] != c)
				continue;
			if (n == max)
				return -ENOSPC;
			out[n++] = nb;
		}
		return n;
	case VCUBE_TOPO_HYPERCUBE:
		for (i = 0; i < t->dim; i++)
			found[n++] = node ^ (1U << i);
		break;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		/* - ways from the last dimension down, then + ways up */
		for (i = 0; i < 2 * t->ndims; i++) {
			minus = i < t->ndims;
			d = minus ? t->ndims - 1 - i : i - t->ndims;
			c = vcube_grid_coord(t, node, d);
			if (t->kind == VCUBE_TOPO_MESH &&
			    (minus ? c == 0 : c + 1 == t->size[d]))
				continue;
			nb = vcube_grid_step(t, node, d, minus);
			if (nb == node)
				continue;
			for (j = 0; j < n && found[j] != nb; j++)
				;
			if (j == n)
				found[n++] = nb;
		}
		break;
	case VCUBE_TOPO_FATTREE:
		/* as many as m1 - 1: straight into @out */
		j = node - node % t->ft.down[0];
		d = j + t->ft.down[0] < t->nodes ? j + t->ft.down[0] : t->nodes;
		if (d - j - 1 > max)
			return -ENOSPC;
		for (nb = j; nb < d; nb++)
			if (nb != node)
				out[n++] = nb;
		return n;
	default:
		return -EINVAL;
	}
	if (n > max)
		return -ENOSPC;
	memcpy(out, found, n * sizeof(*out));
	return n;
}

int vcube_topo_chan_info(const struct vcube_topo *t, u32 chan,
			 struct vcube_chan_info *info)
{
	u32 k, rel, links, q, low;

	if (chan >= t->nchan)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		info->from = chan / t->dim;
		info->dir = chan % t->dim;
		info->to = info->from ^ (1U << info->dir);
		return 0;
	case VCUBE_TOPO_MESH:
		for (k = 0; chan >= t->cbase[k] + 2 * vcube_mesh_links(t, k);)
			k++;
		links = vcube_mesh_links(t, k);
		rel = chan - t->cbase[k];
		info->dir = vcube_topo_grid_dir(k, rel >= links);
		rel %= links;
		/* the link's lower node: see vcube_grid_chan() */
		q = rel / t->stride[k];
		low = (q / (t->size[k] - 1) * t->size[k] +
		       q % (t->size[k] - 1)) * t->stride[k] +
		      rel % t->stride[k];
		info->from = low + (info->dir & 1 ? t->stride[k] : 0);
		info->to = vcube_grid_step(t, info->from, k, info->dir & 1);
		return 0;
	case VCUBE_TOPO_TORUS:
		info->from = chan / t->per_node;
		rel = chan % t->per_node;
		for (k = t->ndims - 1; t->size[k] < 2 || t->slot[k] > rel;)
			k--;
		info->dir = vcube_topo_grid_dir(k, rel - t->slot[k]);
		info->to = vcube_grid_step(t, info->from, k, info->dir & 1);
		return 0;
	case VCUBE_TOPO_FATTREE:
		for (k = t->ft.levels; t->ft.base[k] > chan; k--)
			;
		rel = (chan - t->ft.base[k]) / 2;
		links = vcube_ft_bundle_width(&t->ft, k);
		info->lane = rel % links;
		vcube_ft_ends(t, info, k, rel / links,
			      (chan - t->ft.base[k]) % 2);
		return 0;
	case VCUBE_TOPO_DRAGONFLY:
		vcube_df_chan_info(t, chan, info);
		return 0;
	case VCUBE_TOPO_GRAPH:
		return vcube_graph_chan(t->graph, chan, &info->from,
					&info->from_level, &info->to,
					&info->to_level, &info->dir);
	default:
		return -EINVAL;
	}
}

/*
 * Physical links between tree level @level and @level + 1 (fat tree), a
 * dragonfly's or a graph's links out of level @level's vertices (0: nodes
 * to routers, 1: router to router), or all physical links for level 0 of
 * the other topologies.
 */
u32 vcube_topo_level_links(const struct vcube_topo *t, u32 level)
{
	if (t->kind == VCUBE_TOPO_GRAPH)
		return level == 0 ? t->graph->nodes :
		       level == 1 ? t->graph->nlinks : 0;
	if (t->kind == VCUBE_TOPO_DRAGONFLY)
		return vcube_df_level_links(t, level);
	if (t->kind != VCUBE_TOPO_FATTREE)
		return level ? 0 : t->nchan / 2;
	if (level >= t->ft.levels)
		return 0;
	return (t->ft.base[level + 1] - t->ft.base[level]) / 2;
}

/*
 * The bundle a channel belongs to: on the fat tree, the parallel links
 * between a tree node and its parent, one bundle per direction, whose
 * width is their count (packets spread over them at random); elsewhere
 * every channel is a bundle of one.
 */
u32 vcube_topo_bundle(const struct vcube_topo *t, u32 chan, u32 *width)
{
	struct vcube_chan_info ci;
	u32 k, child;

	*width = 1;
	if (t->kind != VCUBE_TOPO_FATTREE || vcube_topo_chan_info(t, chan, &ci))
		return chan;
	k = ci.dir ? ci.to_level : ci.from_level;
	child = ci.dir ? ci.to : ci.from;
	*width = vcube_ft_bundle_width(&t->ft, k);
	return t->ft.bbase[k] + 2 * child + ci.dir;
}

/*
 * Where bundle @b runs (see vcube_topo_bundle()), with @info->lane 0 and
 * @width its links. Outside the fat tree a bundle is one channel.
 */
int vcube_topo_bundle_info(const struct vcube_topo *t, u32 b,
			   struct vcube_chan_info *info, u32 *width)
{
	u32 k, rel;

	*width = 1;
	if (t->kind != VCUBE_TOPO_FATTREE)
		return vcube_topo_chan_info(t, b, info);
	if (b >= t->nbundles)
		return -EINVAL;
	for (k = t->ft.levels; t->ft.bbase[k] > b; k--)
		;
	rel = b - t->ft.bbase[k];
	info->lane = 0;
	vcube_ft_ends(t, info, k, rel / 2, rel % 2);
	*width = vcube_ft_bundle_width(&t->ft, k);
	return 0;
}

/*
 * A node's place in its machine: the binary label (hypercube), "row col"
 * (mesh, torus made with rows=, cols=), "(x,y,z)" in dims= order (made with
 * dims=), the child index at each tree level from the root down, dot
 * separated (fat tree), "g.r.p": group, router, node (dragonfly), or
 * "rR": the router it hangs off (graph).
 */
int vcube_topo_format_coords(const struct vcube_topo *t, u32 node, char *buf,
			     size_t len)
{
	size_t n = 0;
	u32 i;

	if (node >= t->nodes || !len)
		return -EINVAL;
	buf[0] = '\0';
	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		if (t->dim + 1 > len)
			return -ENOSPC;
		for (i = t->dim; i-- > 0;)
			buf[n++] = node & (1U << i) ? '1' : '0';
		buf[n] = '\0';
		break;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		if (t->cols) {
			n = snprintf(buf, len, "%u %u", node / t->cols,
				     node % t->cols);
			break;
		}
		for (i = 0; i < t->ndims && n < len; i++)
			n += snprintf(buf + n, len - n, "%c%u%s",
				      i ? ',' : '(',
				      vcube_grid_coord(t, node, i),
				      i + 1 < t->ndims ? "" : ")");
		break;
	case VCUBE_TOPO_FATTREE:
		for (i = t->ft.levels; i-- > 0 && n < len;)
			n += snprintf(buf + n, len - n, i ? "%u." : "%u",
				      node / t->ft.span[i] % t->ft.down[i]);
		break;
	case VCUBE_TOPO_DRAGONFLY:
		return vcube_df_format_coords(t, node, buf, len);
	case VCUBE_TOPO_GRAPH:
		n = snprintf(buf, len, "r%u", t->graph->node_router[node]);
		break;
	default:
		return -EINVAL;
	}
	return n < len ? (int)n : -ENOSPC;
}

/* A fat tree's levels= form: "levels=2 down=16,16 up=1,16 links=1,1". */
static int vcube_ft_format(const struct vcube_topo *t, char *buf, size_t len)
{
	static const char *const word[] = { " down=", " up=", " links=" };
	const struct vcube_fattree *ft = &t->ft;
	const u32 *list[] = { ft->down, ft->parents, ft->links };
	size_t at;
	u32 i, k;
	int n;

	n = snprintf(buf, len, "levels=%u", ft->levels);
	for (i = 0; i < 3; i++)
		for (k = 0; k < ft->levels; k++) {
			at = (size_t)n < len ? (size_t)n : len;
			n += snprintf(buf + at, len - at, "%s%u",
				      k ? "," : word[i], list[i][k]);
		}
	return n;
}

/*
 * The shape in its parameters' words, which make it again: "dim=5",
 * "rows=16 cols=32", "dims=4,4,4", "nodes=64 levels=3" (the CM-5's),
 * "levels=2 down=16,16 up=1,16 links=1,1", or
 * "groups=9 routers=4 nodes=2 global=2 routing=minimal"; a graph's counts,
 * "routers=50 nodes=200 links=175" (its file makes it again). Its length,
 * as snprintf's.
 */
int vcube_topo_format_shape(const struct vcube_topo *t, char *buf, size_t len)
{
	size_t n = 0;
	u32 i;

	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		return snprintf(buf, len, "dim=%u", t->dim);
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		if (t->cols)
			return snprintf(buf, len, "rows=%u cols=%u", t->rows,
					t->cols);
		for (i = 0; i < t->ndims && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%u",
				      i ? "," : "dims=", t->size[i]);
		return n;
	case VCUBE_TOPO_FATTREE:
		if (!t->ft.cm5)
			return vcube_ft_format(t, buf, len);
		return snprintf(buf, len, "nodes=%u levels=%u", t->nodes,
				t->ft.levels);
	case VCUBE_TOPO_DRAGONFLY:
		return vcube_df_format_shape(t, buf, len);
	case VCUBE_TOPO_GRAPH:
		return snprintf(buf, len, "routers=%u nodes=%u links=%u",
				t->graph->routers, t->graph->nodes,
				t->graph->nlinks);
	default:
		return -EINVAL;
	}
}
