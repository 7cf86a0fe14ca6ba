/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost parameters a network's creator may set over its profile's
 * values, by the module parameters' names: where each goes in struct
 * vc_params and its bound. One table for the module (kernel/params.c,
 * whose enum VCUBE_COST_* follows its order) and vcube-sim (--cost).
 */
#ifndef _VCUBE_CORE_COSTS_H
#define _VCUBE_CORE_COSTS_H

#include "engine.h"

/*
 * At most 1000 s per transfer's fixed costs and 1 ms per byte, so one
 * transfer of max_msg (64 MiB) costs under 2^47 ns: far from wrapping.
 */
#define VCUBE_NS_MAX		1000000000000ULL
#define VCUBE_BYTE_MAX		1000000ULL
#define VCUBE_BYTE_PS_MAX	(1000 * VCUBE_BYTE_MAX)
/* at most 1 s each: cnet_max elements of them stay far from wrapping */
#define VCUBE_CNET_MAX		1000000000ULL

struct vc_cost_def {
	const char *name;
	size_t off;
	size_t size;		/* sizeof(u32) or sizeof(u64) */
	u64 max;
	bool data;		/* the data network's model (vcube-sim's) */
	u32 scale;		/* the field holds the value given times this */
};

#define VC_NCOST_DEFS	33
extern const struct vc_cost_def vc_cost_defs[VC_NCOST_DEFS];

/* The table's entry called @name (@len bytes of it), or -EINVAL. */
int vc_cost_find(const char *name, size_t len);
/*
 * Entry @i's field of @p set to @v times its scale (@v checked against its
 * max by the caller).
 */
void vc_cost_set(struct vc_params *p, int i, u64 v);
/*
 * The other entry that sets @i's field (short_byte_ns and short_byte_ps),
 * or -1: a caller refuses both given, the later would silently win.
 */
int vc_cost_twin(int i);
/*
 * What no single bound says: costs that contradict each other. 0, or
 * -EINVAL with one line in @err.
 */
int vc_costs_check(const struct vc_params *p, char *err, size_t len);
/*
 * Channel @chan's own ps a byte on @t: a graph file's for it, else
 * inject_ps or eject_ps for a node's channel to its router or back; 0 for
 * a channel at its class's byte_ps (the engine's rates, net export's).
 */
u64 vc_chan_ps(const struct vc_params *p, const struct vcube_topo *t,
	       u32 chan);
/* What the costs cannot be on topology @t: 0, or -EINVAL with @err. */
int vc_costs_check_topo(const struct vc_params *p, const struct vcube_topo *t,
			char *err, size_t len);

#endif /* _VCUBE_CORE_COSTS_H */
