// SPDX-License-Identifier: GPL-2.0
/*
 * vcube topologies: hypercube (iPSC/860, e-cube routing), 2-D mesh
 * (Touchstone Delta, XY routing), unidirectional torus (AP1000, +x then
 * south) and 4-ary fat tree (CM-5, random up-routing, fixed down path).
 *
 * Everything is computed from a handful of integers: there are no tables,
 * and a route costs time proportional to its length.
 */
#include "topology.h"

static const char *const vcube_topo_names[VCUBE_TOPO_NKINDS] = {
	[VCUBE_TOPO_HYPERCUBE] = "hypercube",
	[VCUBE_TOPO_MESH] = "mesh",
	[VCUBE_TOPO_TORUS] = "torus",
	[VCUBE_TOPO_FATTREE] = "fattree",
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

#define vcube_fail(err, errlen, ...) \
	({ snprintf(err, errlen, __VA_ARGS__); -EINVAL; })

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
	if (p->nodes && p->kind != VCUBE_TOPO_FATTREE)
		return vcube_fail(err, errlen,
				  "nodes= does not apply to topology=%s", kind);
	return 0;
}

static void vcube_fattree_init(struct vcube_topo *t)
{
	struct vcube_fattree *ft = &t->ft;
	u32 span = 1, k;

	ft->levels = 0;
	while (span < t->nodes) {
		span *= 4;
		ft->levels++;
	}
	ft->width[0] = 1;
	ft->base[0] = 0;
	ft->bbase[0] = 0;
	span = 1;
	for (k = 0; k <= ft->levels; k++) {
		/* CM-5: level 1 and 2 switches have 2 parents, higher ones 4. */
		ft->parents[k] = k <= 2 ? 2 : 4;
		ft->count[k] = (t->nodes + span - 1) / span;
		if (k < ft->levels) {
			ft->width[k + 1] = ft->width[k] * ft->parents[k];
			ft->base[k + 1] = ft->base[k] +
					  2 * ft->count[k] * ft->width[k + 1];
			ft->bbase[k + 1] = ft->bbase[k] + 2 * ft->count[k];
		}
		span *= 4;
	}
	t->nchan = ft->base[ft->levels];
	t->nbundles = ft->bbase[ft->levels];
}

static int vcube_topo_init_shape(struct vcube_topo *t,
				 const struct vcube_topo_params *p, char *err,
				 size_t errlen);

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
		if (!p->rows || !p->cols)
			return vcube_fail(err, errlen,
					  "topology=%s needs rows= and cols= (both at least 1)",
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
		t->nodes = p->rows * p->cols;
		if (p->kind == VCUBE_TOPO_MESH)
			t->nchan = 2 * (t->rows * (t->cols - 1) +
					(t->rows - 1) * t->cols);
		else
			t->nchan = t->nodes * ((t->cols > 1 ? 2 : 0) +
					       (t->rows > 1 ? 2 : 0));
		return 0;
	case VCUBE_TOPO_FATTREE:
		if (p->nodes < 2 || p->nodes > VCUBE_MAX_NODES)
			return vcube_fail(err, errlen,
					  "topology=fattree needs nodes=2..%d (got nodes=%u)",
					  VCUBE_MAX_NODES, p->nodes);
		t->nodes = p->nodes;
		vcube_fattree_init(t);
		return 0;
	default:
		return -EINVAL;
	}
}

/* ---- channel numbering ------------------------------------------------ */

/*
 * Mesh: horizontal channels first (all east-going, then all west-going),
 * then vertical ones (south-going, then north-going).
 */
static u32 vcube_mesh_chan(const struct vcube_topo *t, u32 node,
			   enum vcube_topo_dir dir)
{
	u32 r = node / t->cols, c = node % t->cols;
	u32 h = t->rows * (t->cols - 1), v = (t->rows - 1) * t->cols;

	switch (dir) {
	case VCUBE_TOPO_EAST:
		return r * (t->cols - 1) + c;
	case VCUBE_TOPO_WEST:
		return h + r * (t->cols - 1) + c - 1;
	case VCUBE_TOPO_SOUTH:
		return 2 * h + node;
	case VCUBE_TOPO_NORTH:
	default:
		return 2 * h + v + node - t->cols;
	}
}

/* Torus: each node owns its outgoing channels, east/west then south/north. */
static u32 vcube_torus_per_node(const struct vcube_topo *t)
{
	return (t->cols > 1 ? 2 : 0) + (t->rows > 1 ? 2 : 0);
}

static u32 vcube_torus_chan(const struct vcube_topo *t, u32 node,
			    enum vcube_topo_dir dir)
{
	u32 slot = dir;

	if (t->cols == 1)
		slot -= 2;	/* only south and north exist */
	return node * vcube_torus_per_node(t) + slot;
}

static u32 vcube_ft_chan(const struct vcube_topo *t, u32 level, u32 child,
			 u32 lane, u32 down)
{
	const struct vcube_fattree *ft = &t->ft;

	return ft->base[level] + 2 * (child * ft->width[level + 1] + lane) +
	       down;
}

/* Neighbour of a grid node in a direction, with torus wrap-around. */
static u32 vcube_grid_step(const struct vcube_topo *t, u32 node,
			   enum vcube_topo_dir dir)
{
	u32 r = node / t->cols, c = node % t->cols;

	switch (dir) {
	case VCUBE_TOPO_EAST:
		c = c + 1 == t->cols ? 0 : c + 1;
		break;
	case VCUBE_TOPO_WEST:
		c = c == 0 ? t->cols - 1 : c - 1;
		break;
	case VCUBE_TOPO_SOUTH:
		r = r + 1 == t->rows ? 0 : r + 1;
		break;
	case VCUBE_TOPO_NORTH:
		r = r == 0 ? t->rows - 1 : r - 1;
		break;
	}
	return r * t->cols + c;
}

/* ---- routing ---------------------------------------------------------- */

/* Level (1 .. levels) of the least common ancestor of two leaves. */
static u32 vcube_ft_lca(u32 src, u32 dst)
{
	u32 l = 0;

	while (src != dst) {
		src >>= 2;
		dst >>= 2;
		l++;
	}
	return l;
}

/* The seeded choice of parent link when climbing from @level. */
static u32 vcube_ft_pick(const struct vcube_topo *t, u32 src, u32 dst,
			 u64 cookie, u32 level)
{
	u64 h = vcube_mix64(t->seed ^ vcube_mix64(cookie));

	h = vcube_mix64(h ^ ((u64)src << 32 | dst));
	h = vcube_mix64(h + level);
	return (u32)(h >> 32) % t->ft.parents[level];
}

/**
 * vcube_topo_route() - the channels a message from @src to @dst crosses
 * @t: topology
 * @src: source node
 * @dst: destination node
 * @cookie: per-message value; only the fat tree's seeded random up-routing
 *	uses it (with the topology's seed), so a route is a pure function of
 *	(seed, src, dst, cookie)
 * @chan: filled with channel ids in the order the header crosses them
 * @max: room in @chan
 *
 * Return: the number of channels (0 when @src == @dst), -EINVAL for a node
 * out of range, -ENOSPC if @max is too small.
 */
int vcube_topo_route(const struct vcube_topo *t, u32 src, u32 dst, u64 cookie,
		     u32 *chan, u32 max)
{
	u32 n = 0, cur = src, b, l, k, sw;

	if (src >= t->nodes || dst >= t->nodes)
		return -EINVAL;
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
		/* XY: along the row to the destination column, then along it. */
		while (cur % t->cols != dst % t->cols) {
			enum vcube_topo_dir d = cur % t->cols < dst % t->cols ?
					   VCUBE_TOPO_EAST : VCUBE_TOPO_WEST;

			chan[n++] = vcube_mesh_chan(t, cur, d);
			cur = vcube_grid_step(t, cur, d);
		}
		while (cur != dst) {
			enum vcube_topo_dir d = cur < dst ? VCUBE_TOPO_SOUTH :
					   VCUBE_TOPO_NORTH;

			chan[n++] = vcube_mesh_chan(t, cur, d);
			cur = vcube_grid_step(t, cur, d);
		}
		break;
	case VCUBE_TOPO_TORUS:
		/* AP1000: static, unidirectional: east first, then south. */
		while (cur % t->cols != dst % t->cols) {
			chan[n++] = vcube_torus_chan(t, cur, VCUBE_TOPO_EAST);
			cur = vcube_grid_step(t, cur, VCUBE_TOPO_EAST);
		}
		while (cur != dst) {
			chan[n++] = vcube_torus_chan(t, cur, VCUBE_TOPO_SOUTH);
			cur = vcube_grid_step(t, cur, VCUBE_TOPO_SOUTH);
		}
		break;
	case VCUBE_TOPO_FATTREE:
		/* Up on seeded random parent links to the common ancestor. */
		l = vcube_ft_lca(src, dst);
		sw = 0;
		for (k = 0; k < l; k++) {
			sw = sw * t->ft.parents[k] +
			     vcube_ft_pick(t, src, dst, cookie, k);
			chan[n++] = vcube_ft_chan(t, k, src >> (2 * k), sw, 0);
		}
		/* Down: the switch reached at the top fixes every link. */
		for (k = l; k-- > 0;) {
			chan[n++] = vcube_ft_chan(t, k, dst >> (2 * k), sw, 1);
			sw /= t->ft.parents[k];
		}
		break;
	default:
		return -EINVAL;
	}
	return n;
}

u32 vcube_topo_distance(const struct vcube_topo *t, u32 src, u32 dst)
{
	u32 x = src ^ dst, n = 0, sr, sc, dr, dc;

	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		for (; x; x &= x - 1)
			n++;
		return n;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		sr = src / t->cols;
		sc = src % t->cols;
		dr = dst / t->cols;
		dc = dst % t->cols;
		if (t->kind == VCUBE_TOPO_TORUS)
			return (dc + t->cols - sc) % t->cols +
			       (dr + t->rows - sr) % t->rows;
		return (sc > dc ? sc - dc : dc - sc) +
		       (sr > dr ? sr - dr : dr - sr);
	case VCUBE_TOPO_FATTREE:
		return 2 * vcube_ft_lca(src, dst);
	default:
		return 0;
	}
}

u32 vcube_topo_diameter(const struct vcube_topo *t)
{
	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		return t->dim;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		return t->rows - 1 + t->cols - 1;
	case VCUBE_TOPO_FATTREE:
		return 2 * vcube_ft_lca(0, t->nodes - 1);
	default:
		return 0;
	}
}

/*
 * The ends of a fat tree link between tree node @child at level @k and its
 * parent: up (@dir 0) or down.
 */
static void vcube_ft_ends(struct vcube_chan_info *info, u32 k, u32 child,
			  u32 dir)
{
	info->dir = dir;
	info->from = child;
	info->from_level = k;
	info->to = child / 4;
	info->to_level = k + 1;
	if (dir) {
		info->to = child;
		info->to_level = k;
		info->from = child / 4;
		info->from_level = k + 1;
	}
}

/**
 * vcube_topo_neighbors() - nodes one step away from @node
 *
 * Hypercube, mesh and torus: the nodes at the other end of @node's links,
 * each listed once. Fat tree: the other members of @node's cluster of
 * four, which its messages reach over one level-1 switch.
 *
 * Return: the number of neighbours, -EINVAL, or -ENOSPC if @max is short.
 */
int vcube_topo_neighbors(const struct vcube_topo *t, u32 node, u32 *out,
			 u32 max)
{
	static const enum vcube_topo_dir dirs[] = {
		VCUBE_TOPO_NORTH, VCUBE_TOPO_WEST, VCUBE_TOPO_EAST,
		VCUBE_TOPO_SOUTH,
	};
	u32 n = 0, i, j, nb, r, c, found[VCUBE_MAX_DIM];

	if (node >= t->nodes)
		return -EINVAL;
	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		for (i = 0; i < t->dim; i++)
			found[n++] = node ^ (1U << i);
		break;
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		r = node / t->cols;
		c = node % t->cols;
		for (i = 0; i < 4; i++) {
			if (t->kind == VCUBE_TOPO_MESH &&
			    ((dirs[i] == VCUBE_TOPO_NORTH && r == 0) ||
			     (dirs[i] == VCUBE_TOPO_SOUTH && r + 1 == t->rows) ||
			     (dirs[i] == VCUBE_TOPO_WEST && c == 0) ||
			     (dirs[i] == VCUBE_TOPO_EAST && c + 1 == t->cols)))
				continue;
			nb = vcube_grid_step(t, node, dirs[i]);
			if (nb == node)
				continue;
			for (j = 0; j < n && found[j] != nb; j++)
				;
			if (j == n)
				found[n++] = nb;
		}
		break;
	case VCUBE_TOPO_FATTREE:
		for (nb = node & ~3U; nb < (node | 3U) + 1 && nb < t->nodes;
		     nb++)
			if (nb != node)
				found[n++] = nb;
		break;
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
	u32 h, v, per, k, rel;

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
		h = t->rows * (t->cols - 1);
		v = (t->rows - 1) * t->cols;
		if (chan < h) {
			info->dir = VCUBE_TOPO_EAST;
			info->from = chan / (t->cols - 1) * t->cols +
				     chan % (t->cols - 1);
		} else if (chan < 2 * h) {
			rel = chan - h;
			info->dir = VCUBE_TOPO_WEST;
			info->from = rel / (t->cols - 1) * t->cols +
				     rel % (t->cols - 1) + 1;
		} else if (chan < 2 * h + v) {
			info->dir = VCUBE_TOPO_SOUTH;
			info->from = chan - 2 * h;
		} else {
			info->dir = VCUBE_TOPO_NORTH;
			info->from = chan - 2 * h - v + t->cols;
		}
		info->to = vcube_grid_step(t, info->from, info->dir);
		return 0;
	case VCUBE_TOPO_TORUS:
		per = vcube_torus_per_node(t);
		info->from = chan / per;
		info->dir = chan % per + (t->cols == 1 ? 2 : 0);
		info->to = vcube_grid_step(t, info->from, info->dir);
		return 0;
	case VCUBE_TOPO_FATTREE:
		for (k = t->ft.levels; t->ft.base[k] > chan; k--)
			;
		rel = (chan - t->ft.base[k]) / 2;
		info->lane = rel % t->ft.width[k + 1];
		vcube_ft_ends(info, k, rel / t->ft.width[k + 1],
			      (chan - t->ft.base[k]) % 2);
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Physical links between tree level @level and @level + 1 (fat tree), or
 * all physical links for level 0 of the other topologies.
 */
u32 vcube_topo_level_links(const struct vcube_topo *t, u32 level)
{
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
	*width = t->ft.width[k + 1];
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
	vcube_ft_ends(info, k, rel / 2, rel % 2);
	*width = t->ft.width[k + 1];
	return 0;
}

/*
 * A node's place in its machine: the binary label (hypercube), "row col"
 * (mesh, torus), or the child index at each tree level from the root down,
 * dot separated (fat tree).
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
		n = snprintf(buf, len, "%u %u", node / t->cols,
			     node % t->cols);
		break;
	case VCUBE_TOPO_FATTREE:
		for (i = t->ft.levels; i-- > 0 && n < len;)
			n += snprintf(buf + n, len - n, i ? "%u." : "%u",
				      (node >> (2 * i)) & 3);
		break;
	default:
		return -EINVAL;
	}
	return n < len ? (int)n : -ENOSPC;
}

int vcube_topo_format_shape(const struct vcube_topo *t, char *buf, size_t len)
{
	switch (t->kind) {
	case VCUBE_TOPO_HYPERCUBE:
		return snprintf(buf, len, "dim=%u", t->dim);
	case VCUBE_TOPO_MESH:
	case VCUBE_TOPO_TORUS:
		return snprintf(buf, len, "rows=%u cols=%u", t->rows, t->cols);
	case VCUBE_TOPO_FATTREE:
		return snprintf(buf, len, "nodes=%u levels=%u", t->nodes,
				t->ft.levels);
	default:
		return -EINVAL;
	}
}
