/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcube network topologies and deterministic routing.
 *
 * A topology is a set of processing nodes (0 .. nodes-1) and directed
 * channels. Every physical link has one channel per direction. Channels are
 * numbered densely (0 .. nchan-1) so later layers can keep per-channel state
 * in flat arrays. Nothing here allocates: routes, neighbours and channel
 * endpoints are computed on demand, in time proportional to the path length.
 */
#ifndef _VCUBE_CORE_TOPOLOGY_H
#define _VCUBE_CORE_TOPOLOGY_H

#include "env.h"
#include "graph.h"

#define VCUBE_MAX_NODES		4096
/*
 * A dragonfly's nodes at most: the module's VCUBE_MAX_NODES (a device
 * each); the engine on the host (vcube-sim) runs today's sizes, as many
 * as VCUBE_DF_MAX_CHANNELS allow.
 */
#ifdef __KERNEL__
#define VCUBE_DF_MAX_NODES	VCUBE_MAX_NODES
#else
#define VCUBE_DF_MAX_NODES	32768
#endif
#define VCUBE_MAX_DIM		12	/* 2^12 == VCUBE_MAX_NODES */
#define VCUBE_FT_MAX_LEVELS	6	/* 4^6 == VCUBE_MAX_NODES */
#define VCUBE_GRID_MAX_DIMS	6	/* mesh, torus: dims= sizes */
/* Longest route any topology produces, in channels. */
#define VCUBE_MAX_HOPS		(2 * VCUBE_MAX_NODES)
/*
 * A fat tree's channels at most (32 MiB of the engine's state for them):
 * so a bundle's lane, at most nchan / 2 - 1, fits vcube_chan_info's u16.
 */
#define VCUBE_FT_MAX_CHANNELS	(1U << 17)
/* The longest shape vcube_topo_format_shape() writes, with its NUL. */
#define VCUBE_SHAPE_LEN		64
/*
 * Most nodes vcube_topo_neighbors() gives (libvcube's VCUBE_MAX_NEIGHBORS):
 * a dragonfly router has at most this many nodes.
 */
#define VCUBE_TOPO_MAX_NEIGHBORS	16
/* A dragonfly's channels at most: 32 MiB of the engine's state for them. */
#define VCUBE_DF_MAX_CHANNELS	(1U << 17)
/* A dragonfly's longest route: node, 3 local, 2 global links, node. */
#define VCUBE_DF_MAX_ROUTE	7

enum vcube_topo_kind {
	VCUBE_TOPO_HYPERCUBE,
	VCUBE_TOPO_MESH,
	VCUBE_TOPO_TORUS,
	VCUBE_TOPO_FATTREE,
	VCUBE_TOPO_DRAGONFLY,
	VCUBE_TOPO_GRAPH,
	VCUBE_TOPO_NKINDS,
};

/*
 * splitmix64's finaliser: a cheap, well-mixed, portable hash; every random
 * choice of the model (fat tree up-routing, noise) is one of its values.
 */
static inline u64 vcube_mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* What a user asks for; 0 means "not given". */
struct vcube_topo_params {
	enum vcube_topo_kind kind;
	u32 dim;	/* hypercube */
	u32 rows;	/* mesh, torus: the 2-D machines' form */
	u32 cols;	/* mesh, torus */
	u32 ndims;	/* mesh, torus: the k-ary n-cube form, sizes in dims[] */
	u32 dims[VCUBE_GRID_MAX_DIMS];
	u32 nodes;	/* fat tree: the CM-5's shape; dragonfly: per router */
	u64 seed;	/* fat tree up-routing, noise */
	u32 levels;	/* fat tree: SimGrid's form, with down, up, links */
	u32 ndown, nup, nlinks;		/* values given; links: 0 is all 1 */
	u32 down[VCUBE_FT_MAX_LEVELS];	/* m1 .. mL */
	u32 up[VCUBE_FT_MAX_LEVELS];	/* w1 .. wL */
	u32 links[VCUBE_FT_MAX_LEVELS];	/* p1 .. pL */
	u32 groups;	/* dragonfly: groups */
	u32 routers;	/* dragonfly: routers per group */
	u32 global;	/* dragonfly: global links per router */
	u32 routing;	/* fat tree: enum vcube_ft_routing; dragonfly:
			 * enum vcube_df_routing; 0: the default
			 */
	const struct vcube_graph_desc *graph;	/* graph: its routers,
						 * nodes and links
						 */
};

/*
 * A fat tree's up-routing (routing=): 0 is not given, the form's default:
 * random for the CM-5's (nodes=), d-mod-k for SimGrid's (levels=).
 */
enum vcube_ft_routing {
	VCUBE_FT_DMODK = 1,
	VCUBE_FT_RANDOM,
	VCUBE_FT_NROUTING,
};

/* A dragonfly's routing= (0: not given, minimal). */
enum vcube_df_routing {
	VCUBE_DF_MINIMAL = 1,
	VCUBE_DF_VALIANT,
	VCUBE_DF_UGAL,
	VCUBE_DF_NROUTING,
};

/*
 * Mesh and torus: a grid of ndims dimensions, dims= X,Y,Z,... with X
 * (dimension 0) varying fastest in the node label:
 * label = x + X * (y + Y * (z + ...)). rows=R cols=C is dims=C,R: node
 * (row, col) has label row * cols + col, row 0 is the top (north) row.
 *
 * Every node has a + and a - channel in each dimension: a mesh has none
 * past its edges; on a torus they wrap round, and in a dimension of size
 * 2 both reach the same neighbour over two separate channels (as a 2x2
 * torus's east and west do). A channel's direction is 2 * dimension + 1
 * for the - one: EAST, WEST, SOUTH, NORTH in 2-D.
 *
 * Routing is dimension-ordered, X first (XY on a 2-D mesh). A torus made
 * with rows= and cols= routes as the AP1000 does, only in the + directions
 * (east, then south), round the long way if need be. A torus made with
 * dims= takes the shorter way round in each dimension; a tie (distance
 * exactly size / 2) goes the + way, so such a route is the AP1000's
 * whenever that one is minimal.
 */
enum vcube_topo_dir {
	VCUBE_TOPO_EAST,		/* col + 1; x + 1 */
	VCUBE_TOPO_WEST,		/* col - 1; x - 1 */
	VCUBE_TOPO_SOUTH,	/* row + 1; y + 1 */
	VCUBE_TOPO_NORTH,	/* row - 1; y - 1 */
};

/* A mesh or torus channel's direction: dimension @d, + or - (@minus). */
static inline u32 vcube_topo_grid_dir(u32 d, bool minus)
{
	return 2 * d + minus;
}

/*
 * Fat tree: Ohring et al.'s generalized fat tree (PGFT) in SimGrid's
 * FAT_TREE notation "L;m1,...,mL;w1,...,wL;p1,...,pL", here the words
 * levels=L down=m1,...,mL up=w1,...,wL links=p1,...,pL: L levels of
 * switches over the processors (level 0); a level-i switch has m_i
 * children, a level-(i-1) node (processor or switch) has w_i parents,
 * and p_i parallel links join each such child and parent. Processors:
 * m1 * ... * mL; level-i switches: w1 * ... * wi * m(i+1) * ... * mL.
 * The arrays below are indexed by the lower level k = i - 1: down[k] is
 * m_i, parents[k] is w_i, links[k] is p_i.
 *
 * A tree node of level k >= 1 is the group of width[k] = w1 * ... * wk
 * switches that serve the same span[k] = m1 * ... * mk processors (node
 * n is under tree node n / span[k]); every link between a tree node and
 * its parent tree node is in their bundle of width[k + 1] * links[k]
 * links. Within a tree node, switch s's parent switches are s * w + b
 * (b < w = parents[k]); bundle lane (s * w + b) * links[k] + j is the j-th
 * parallel link from child switch s to parent switch s * w + b.
 *
 * Routes climb to the least common ancestor, level l (the lowest tree
 * node over both ends), and down: 2 * l channels. At each level k < l the
 * switch chooses an up-port q < w * p, meaning parent b = q % w over
 * parallel link j = q / w (SimGrid's port numbering), by
 *  - d-mod-k (Zahavi 2010, SimGrid's FatTreeZone): q = (dst / width[k])
 *    mod (w * p), from the destination's label alone, so all routes to a
 *    destination meet on one down path from each top switch;
 *  - random: q = vcube_mix64() of (seed, cookie, src, dst, k) mod (w * p).
 * Going down, the top switch fixes each parent switch; at level k the
 * route takes parallel link j = q / w of the up-port it chose at level k.
 * (SimGrid descends on link src mod p; the two agree when every p is 1.)
 *
 * nodes=N is the CM-5 data network's shape: down=4,4,... up=2,2,2,4,4,...
 * links=1,..., L the least with 4^L >= N, a partial tree when N is not a
 * power of 4, random up-routing by default. Its routes and channel
 * numbers are the ones it had before the general form.
 */
struct vcube_fattree {
	u32 levels;				/* root level */
	u32 width[VCUBE_FT_MAX_LEVELS + 1];	/* switches per tree node */
	u32 parents[VCUBE_FT_MAX_LEVELS + 1];	/* w: parents per switch */
	u32 count[VCUBE_FT_MAX_LEVELS + 1];	/* tree nodes per level */
	u32 base[VCUBE_FT_MAX_LEVELS + 1];	/* first channel above level */
	u32 bbase[VCUBE_FT_MAX_LEVELS + 1];	/* first bundle above level */
	u32 down[VCUBE_FT_MAX_LEVELS + 1];	/* m: children per tree node */
	u32 links[VCUBE_FT_MAX_LEVELS + 1];	/* p: links per child-parent */
	u32 span[VCUBE_FT_MAX_LEVELS + 1];	/* processors per tree node */
	u32 routing;				/* enum vcube_ft_routing */
	bool cm5;				/* made with nodes= */
};

/*
 * A dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): groups of routers,
 * all-to-all within a group by local links; nodes per router; global
 * links per router, wired between groups in the "absolute" arrangement
 * (SST Merlin's global_route_mode=absolute, Kim et al.'s consecutive
 * one): see dragonfly.c for the wiring, the numbering and the routing.
 */
struct vcube_dragonfly {
	u32 groups;	/* G */
	u32 routers;	/* A, per group */
	u32 nodes;	/* P, per router */
	u32 global;	/* H, global links per router */
	u32 links;	/* global links joining each pair of groups */
	u32 ports;	/* global ports wired in each group: links * (G - 1) */
	u32 routing;	/* enum vcube_df_routing */
	u32 lbase;	/* first local channel */
	u32 gbase;	/* first global channel */
};

/* A dragonfly channel's kind, its vcube_chan_info.dir. */
enum vcube_df_dir {
	VCUBE_DF_INJECT,	/* node to its router */
	VCUBE_DF_EJECT,		/* router to its node */
	VCUBE_DF_LOCAL,		/* router to router, in a group */
	VCUBE_DF_GLOBAL,	/* router to router, between groups */
};

/*
 * The load vcube_topo_route_load() weighs a route's first channel out of
 * its source router by (UGAL-L): transfers holding and waiting for @chan.
 */
typedef u32 (*vcube_topo_load_fn)(void *ctx, u32 chan);

struct vcube_topo {
	enum vcube_topo_kind kind;
	u32 nodes;
	u32 nchan;
	u32 nbundles;		/* fat tree: bundles of parallel links; else nchan */
	u32 dim;
	u32 rows;		/* mesh, torus made with rows=, cols=; else 0 */
	u32 cols;
	u32 ndims;		/* mesh, torus: dimensions (2 for rows/cols) */
	bool plus_only;		/* torus: the AP1000's + only routing */
	u32 size[VCUBE_GRID_MAX_DIMS];		/* nodes along each */
	u32 stride[VCUBE_GRID_MAX_DIMS];	/* label step along each */
	u32 cbase[VCUBE_GRID_MAX_DIMS];		/* mesh: first channel */
	u32 slot[VCUBE_GRID_MAX_DIMS];		/* torus: 2 * dims before */
	u32 per_node;				/* torus: channels a node has */
	u64 seed;
	struct vcube_fattree ft;
	struct vcube_dragonfly df;
	/*
	 * graph: its tables (graph.h), owned: a copy of the struct takes
	 * them over, and vcube_topo_fini() of the last copy frees them
	 */
	struct vcube_graph *graph;
};

/*
 * Where a channel runs. For all but the fat tree, the dragonfly and the
 * graph both ends are level 0; their switches and routers are vertices at
 * level 1 up.
 */
struct vcube_chan_info {
	u32 from;		/* vertex index at from_level */
	u32 to;			/* vertex index at to_level */
	u8 from_level;
	u8 to_level;
	u16 lane;		/* fat tree: link index in its bundle;
				 * dragonfly global: which of the links
				 * joining its two groups
				 */
	u32 dir;		/* hypercube: dimension; mesh/torus:
				 * vcube_topo_grid_dir() (enum vcube_topo_dir
				 * in 2-D); fat tree: 0 up, 1 down;
				 * dragonfly: enum vcube_df_dir; graph: 0
				 * injection, 1 ejection, 2 router to router
				 */
};

const char *vcube_topo_kind_name(enum vcube_topo_kind kind);
int vcube_topo_kind_parse(const char *name);

int vcube_topo_init(struct vcube_topo *t, const struct vcube_topo_params *p,
		    char *err, size_t errlen);
void vcube_topo_fini(struct vcube_topo *t);

int vcube_topo_route(const struct vcube_topo *t, u32 src, u32 dst, u64 cookie,
		     u32 *chan, u32 max);
u32 vcube_topo_distance(const struct vcube_topo *t, u32 src, u32 dst);
u32 vcube_topo_diameter(const struct vcube_topo *t);
int vcube_topo_neighbors(const struct vcube_topo *t, u32 node, u32 *out,
			 u32 max);
int vcube_topo_chan_info(const struct vcube_topo *t, u32 chan,
			 struct vcube_chan_info *info);
u32 vcube_topo_level_links(const struct vcube_topo *t, u32 level);
u32 vcube_topo_bundle(const struct vcube_topo *t, u32 chan, u32 *width);
int vcube_topo_bundle_info(const struct vcube_topo *t, u32 b,
			   struct vcube_chan_info *info, u32 *width);
int vcube_topo_format_coords(const struct vcube_topo *t, u32 node, char *buf,
			     size_t len);
int vcube_topo_format_shape(const struct vcube_topo *t, char *buf, size_t len);
int vcube_topo_route_load(const struct vcube_topo *t, u32 src, u32 dst,
			  u64 cookie, vcube_topo_load_fn load, void *ctx,
			  u32 *chan, u32 max);

const char *vcube_df_routing_name(u32 routing);
int vcube_df_routing_parse(const char *name);

/* The dragonfly's part of each function above (dragonfly.c). */
int vcube_df_init(struct vcube_topo *t, const struct vcube_topo_params *p,
		  char *err, size_t errlen);
int vcube_df_route(const struct vcube_topo *t, u32 src, u32 dst, u64 cookie,
		   vcube_topo_load_fn load, void *ctx, u32 *chan, u32 max);
u32 vcube_df_distance(const struct vcube_topo *t, u32 src, u32 dst);
/*
 * A dragonfly's minimal route from @src to @dst (one global link),
 * whatever its routing=: what a route is judged minimal against (the
 * tools' traces). -EINVAL for another topology or a node out of range.
 */
int vcube_df_minimal_route(const struct vcube_topo *t, u32 src, u32 dst,
			   u32 *chan, u32 max);
u32 vcube_df_diameter(const struct vcube_topo *t);
int vcube_df_neighbors(const struct vcube_topo *t, u32 node, u32 *out,
		       u32 max);
void vcube_df_chan_info(const struct vcube_topo *t, u32 chan,
			struct vcube_chan_info *info);
u32 vcube_df_level_links(const struct vcube_topo *t, u32 level);
int vcube_df_format_coords(const struct vcube_topo *t, u32 node, char *buf,
			   size_t len);
int vcube_df_format_shape(const struct vcube_topo *t, char *buf, size_t len);

const char *vcube_ft_routing_name(u32 routing);
int vcube_ft_routing_parse(const char *name);
int vcube_topo_routing_parse(enum vcube_topo_kind kind, const char *name);

#endif /* _VCUBE_CORE_TOPOLOGY_H */
