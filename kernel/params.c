// SPDX-License-Identifier: GPL-2.0
/*
 * vcube: a network's description checked and turned into its model, for
 * the module's parameters and for netlink's net-new alike. Owns no state:
 * each error is one line written into the caller's buffer.
 */
#include <linux/bits.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "core/profiles.h"
#include "params.h"

static const char *const vcube_switching_names[VC_NSWITCHING] = {
	[VC_SW_CIRCUIT] = "circuit",
	[VC_SW_WORMHOLE] = "wormhole",
	[VC_SW_PACKET] = "packet",
};

static const char *const vcube_jitter_names[VC_NJITTER] = {
	[VC_JITTER_UNIFORM] = "uniform",
	[VC_JITTER_ONE] = "one",
};

/* In the order of vc_params.arb_lowest's values. */
static const char *const vcube_arbitration_names[] = { "fifo", "lowest" };
/* Noise presets: off, or a machine's interrupts. */
enum { VCUBE_NOISE_OFF, VCUBE_NOISE_IPSC860, VCUBE_NNOISE };
static const char *const vcube_noise_names[VCUBE_NNOISE] = {
	[VCUBE_NOISE_OFF] = "off",
	[VCUBE_NOISE_IPSC860] = "ipsc860",
};

/* kernel/core/costs.c's table, in enum order (params.h) */
static_assert(VC_NCOST_DEFS == VCUBE_NCOSTS);

const char *vcube_switching_name(u32 sw)
{
	return sw < VC_NSWITCHING ? vcube_switching_names[sw] : "?";
}

void vcube_conf_init(struct vcube_conf *c)
{
	int i;

	*c = (struct vcube_conf){
		.dim = VCUBE_UNSET, .rows = VCUBE_UNSET,
		.cols = VCUBE_UNSET, .nodes = VCUBE_UNSET,
		.levels = VCUBE_UNSET,
		.groups = VCUBE_UNSET, .routers = VCUBE_UNSET,
		.global = VCUBE_UNSET,
		.mode = 0600,
		.max_msg = SZ_1M,
		.max_reqs = 4096,
		.max_inflight = 256ULL << 20,
		.max_inflight_node = 64ULL << 20,
		.trace = 65536,
	};
	for (i = 0; i < VCUBE_NCOSTS; i++)
		c->cost[i] = -1;
}

/*
 * @val's index in @names, or -EINVAL with one line in @err:
 * "unknown param=val: use a, b or c". NULL (not given): @dflt.
 */
static int vcube_choice(const char *param, const char *val,
			const char *const names[], int n, int dflt,
			char *err, size_t len)
{
	int i, at;

	if (!val)
		return dflt;
	for (i = 0; i < n; i++)
		if (!strcmp(val, names[i]))
			return i;
	at = scnprintf(err, len, "unknown %s=%s: use ", param, val);
	for (i = 0; i < n; i++)
		at += scnprintf(err + at, len - at, "%s%s",
				!i ? "" : i < n - 1 ? ", " : " or ", names[i]);
	return -EINVAL;
}

/* Each cost parameter given over the profile's value, in table order. */
static int vcube_costs_apply(const struct vcube_conf *c, struct vc_params *p,
			     char *err, size_t len)
{
	int i, twin;

	for (i = 0; i < VCUBE_NCOSTS; i++) {
		const struct vc_cost_def *d = &vc_cost_defs[i];
		s64 v = c->cost[i];

		if (v == -1)
			continue;
		if (v < 0 || v > d->max) {
			scnprintf(err, len, "%s=%lld is out of range (0..%llu)",
				  d->name, v, d->max);
			return -EINVAL;
		}
		twin = vc_cost_twin(i);
		if (twin >= 0 && c->cost[twin] != -1) {
			scnprintf(err, len, "%s= and %s= set one cost: give one",
				  vc_cost_defs[min(i, twin)].name,
				  vc_cost_defs[max(i, twin)].name);
			return -EINVAL;
		}
		vc_cost_set(p, i, v);
	}
	return vc_costs_check(p, err, len);
}

/* The named choices, over the profile's. */
static int vcube_choices_apply(const struct vcube_conf *c,
			       struct vc_params *p, char *err, size_t len)
{
	int i;

	/* the preset first: noise_*_ns override it */
	i = vcube_choice("noise", c->noise, vcube_noise_names, VCUBE_NNOISE,
			 VCUBE_NOISE_OFF, err, len);
	if (i < 0)
		return i;
	if (i == VCUBE_NOISE_IPSC860) {
		p->noise_period = 10000000;
		p->noise_cost = 50000;
	}
	i = vcube_choice("jitter_dist", c->jitter_dist, vcube_jitter_names,
			 VC_NJITTER, p->jitter_dist, err, len);
	if (i < 0)
		return i;
	p->jitter_dist = i;
	i = vcube_choice("switching", c->switching, vcube_switching_names,
			 VC_NSWITCHING, p->switching, err, len);
	if (i < 0)
		return i;
	p->switching = i;
	i = vcube_choice("arbitration", c->arbitration,
			 vcube_arbitration_names,
			 ARRAY_SIZE(vcube_arbitration_names), p->arb_lowest,
			 err, len);
	if (i < 0)
		return i;
	p->arb_lowest = i;
	return 0;
}

/*
 * Decimal numbers, comma separated, into @v (room for @max), their count
 * into @n: -E2BIG past @max, -EINVAL if not numbers and commas. Their
 * values are vcube_topo_init()'s to check.
 */
static int vcube_list_parse(const char *s, u32 *v, u32 max, u32 *n)
{
	u64 x;

	for (*n = 0;;) {
		if (!isdigit(*s))
			return -EINVAL;
		for (x = 0; isdigit(*s); s++)
			x = min_t(u64, x * 10 + (*s - '0'), U32_MAX);
		if (*n == max)
			return -E2BIG;
		v[(*n)++] = x;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/* dims=X,Y,...: 1 to VCUBE_GRID_MAX_DIMS sizes into @p. */
static int vcube_dims_parse(const char *s, struct vcube_topo_params *p,
			    char *err, size_t len)
{
	int ret = vcube_list_parse(s, p->dims, VCUBE_GRID_MAX_DIMS, &p->ndims);

	if (ret == -E2BIG)
		scnprintf(err, len,
			  "dims= has more than %d sizes: at most %d dimensions are supported",
			  VCUBE_GRID_MAX_DIMS, VCUBE_GRID_MAX_DIMS);
	else if (ret)
		scnprintf(err, len,
			  "dims=%.20s is not sizes and commas, as dims=8,8,8", s);
	return ret ? -EINVAL : 0;
}

/*
 * A fat tree's down=, up= or links= (@word): one number per level, at
 * most VCUBE_FT_MAX_LEVELS; NULL (not given) leaves @n 0.
 */
static int vcube_ft_list_parse(const char *word, const char *s, u32 *v,
			       u32 *n, char *err, size_t len)
{
	int ret;

	if (!s)
		return 0;
	ret = vcube_list_parse(s, v, VCUBE_FT_MAX_LEVELS, n);
	if (ret == -E2BIG)
		scnprintf(err, len,
			  "%s= has more than %d values: a fat tree has at most %d levels",
			  word, VCUBE_FT_MAX_LEVELS, VCUBE_FT_MAX_LEVELS);
	else if (ret)
		scnprintf(err, len,
			  "%s=%.20s is not numbers and commas, as %s=16,16",
			  word, s, word);
	return ret ? -EINVAL : 0;
}

/* levels=, down=, up= and links= into @p. */
static int vcube_ft_words(const struct vcube_conf *c, int kind,
			  struct vcube_topo_params *p, char *err, size_t len)
{
	p->levels = c->levels == VCUBE_UNSET ? 0 : c->levels;
	if (vcube_ft_list_parse("down", c->down, p->down, &p->ndown, err,
				len) ||
	    vcube_ft_list_parse("up", c->up, p->up, &p->nup, err, len) ||
	    vcube_ft_list_parse("links", c->links, p->links, &p->nlinks, err,
				len))
		return -EINVAL;
	return 0;
}

/* A word of the shape, 0 if not given (so that vcube_topo_init() says so). */
static u32 vcube_given(u32 v)
{
	return v == VCUBE_UNSET ? 0 : v;
}

/*
 * routing=: a fat tree's dmodk or random, a dragonfly's minimal, valiant
 * or ugal; refused for any other topology.
 */
static int vcube_routing_parse(const struct vcube_conf *c, int kind,
			       struct vcube_topo_params *p, char *err,
			       size_t len)
{
	int r;

	if (!c->routing)
		return 0;
	r = vcube_topo_routing_parse(kind, c->routing);
	if (r == -EOPNOTSUPP) {
		scnprintf(err, len, "routing= does not apply to topology=%s",
			  vcube_topo_kind_name(kind));
		return -EINVAL;
	}
	if (r < 0) {
		scnprintf(err, len, "unknown routing=%.20s: use %s", c->routing,
			  kind == VCUBE_TOPO_FATTREE ? "dmodk or random" :
			  "minimal, valiant or ugal");
		return -EINVAL;
	}
	p->routing = r;
	return 0;
}

/* The topology and profile: the shape's words, and the machine's. */
static int vcube_shape_apply(struct vcube_conf *c, struct vcube_model *m,
			     char *err, size_t len)
{
	bool shaped = c->dim != VCUBE_UNSET || c->rows != VCUBE_UNSET ||
		      c->cols != VCUBE_UNSET || c->nodes != VCUBE_UNSET ||
		      c->dims || c->levels != VCUBE_UNSET || c->down ||
		      c->up || c->links || c->groups != VCUBE_UNSET ||
		      c->routers != VCUBE_UNSET || c->global != VCUBE_UNSET;
	struct vcube_topo_params p = {
		.dim = vcube_given(c->dim),
		.rows = vcube_given(c->rows),
		.cols = vcube_given(c->cols),
		.nodes = vcube_given(c->nodes),
		.seed = c->seed,
		.groups = vcube_given(c->groups),
		.routers = vcube_given(c->routers),
		.global = vcube_given(c->global),
		.graph = c->graph,
	};
	const struct vc_profile *pr;
	int prof = -1, kind, ret;

	if (c->dims && vcube_dims_parse(c->dims, &p, err, len))
		return -EINVAL;
	if (c->profile) {
		prof = vc_profile_find(c->profile);
		if (prof < 0) {
			scnprintf(err, len,
				  "no profile=%.12s: use ipsc860, seidel, delta, ap1000, cm5 or slingshot",
				  c->profile);
			return -EINVAL;
		}
	}
	if (c->topology) {
		kind = vcube_topo_kind_parse(c->topology);
		if (kind < 0) {
			scnprintf(err, len,
				  "unknown topology=%.15s: use hypercube, mesh, torus, fattree, dragonfly or graph",
				  c->topology);
			return -EINVAL;
		}
	} else {
		kind = vc_profile_get(prof < 0 ? 0 : prof)->kind;
	}
	if (vcube_routing_parse(c, kind, &p, err, len))
		return -EINVAL;
	if (prof < 0)
		prof = vc_profile_for_kind(kind);
	pr = vc_profile_get(prof);
	/* no shape given: the machine's own, if it is this topology's */
	if (!shaped && pr->kind == kind) {
		p.dim = pr->dim;
		p.rows = pr->rows;
		p.cols = pr->cols;
		p.nodes = pr->nodes;
		p.groups = pr->groups;
		p.routers = pr->routers;
		p.global = pr->global;
	}
	p.kind = kind;
	if (vcube_ft_words(c, kind, &p, err, len))
		return -EINVAL;
	ret = vcube_topo_init(&m->topo, &p, err, len);
	if (ret)
		return ret;
	c->dim = p.dim;
	c->rows = p.rows;
	c->cols = p.cols;
	c->nodes = p.nodes;
	c->levels = p.levels;
	strscpy(m->profile, pr->name, sizeof(m->profile));
	m->params = pr->params();
	return 0;
}

/* The bounds on what the network's callers may make it hold. */
static int vcube_bounds_apply(const struct vcube_conf *c,
			      struct vcube_model *m, char *err, size_t len)
{
	if (c->mode & ~0777) {
		scnprintf(err, len, "mode=%#o is not a permission mask (0..0777)",
			  c->mode);
		return -EINVAL;
	}
	if (!c->max_msg || c->max_msg > (64ULL << 20)) {
		scnprintf(err, len, "max_msg=%llu is out of range (1..%llu)",
			  c->max_msg, 64ULL << 20);
		return -EINVAL;
	}
	if (!c->max_reqs || c->max_reqs > 1U << 20) {
		scnprintf(err, len, "max_reqs=%u is out of range (1..%u)",
			  c->max_reqs, 1U << 20);
		return -EINVAL;
	}
	/*
	 * Room for one message of max_msg and the engine's structures for
	 * it (its route: at most 4095 hops of 4 bytes, and the rest): at
	 * least max_msg + 64 KiB.
	 */
	if (c->max_inflight < c->max_msg + SZ_64K ||
	    c->max_inflight > 1ULL << 40) {
		scnprintf(err, len, "max_inflight=%llu is out of range (%llu..%llu)",
			  c->max_inflight, c->max_msg + SZ_64K, 1ULL << 40);
		return -EINVAL;
	}
	if (c->max_inflight_node < c->max_msg + SZ_64K ||
	    c->max_inflight_node > c->max_inflight) {
		scnprintf(err, len,
			  "max_inflight_node=%llu is out of range (%llu..max_inflight=%llu)",
			  c->max_inflight_node, c->max_msg + SZ_64K,
			  c->max_inflight);
		return -EINVAL;
	}
	/* at most 4 Mi records, 288 MiB: the trace is the largest allocation */
	if (c->trace > 1U << 22) {
		scnprintf(err, len, "trace=%u is out of range (0..%u)",
			  c->trace, 1U << 22);
		return -EINVAL;
	}
	if (c->idle_lease_ms > 3600000) {
		scnprintf(err, len,
			  "idle_lease_ms=%u is out of range (0..3600000)",
			  c->idle_lease_ms);
		return -EINVAL;
	}
	m->mode = c->mode;
	m->idle_lease_ms = c->idle_lease_ms;
	m->max_msg = c->max_msg;
	m->params.cnet_max = c->max_msg;
	m->params.max_reqs = c->max_reqs;
	m->params.max_inflight = c->max_inflight;
	m->params.max_inflight_node = c->max_inflight_node;
	m->params.trace_max = c->trace;
	return 0;
}

/*
 * Every message here goes to the kernel log (insmod) or into an extended
 * ACK (net-new), which holds 79 characters: each fits, with the longest
 * values it can name.
 *
 * A cost parameter given for a switching mode it does not apply to is
 * refused, as a shape parameter of another topology is: ignored, it would
 * leave a user measuring another machine than the one asked for.
 */
static const struct {
	int cost;
	u32 modes;	/* BIT(enum vc_switching) of the modes that use it */
	const char *which;
} vcube_switching_costs[] = {
	{ VCUBE_COST_LANES, BIT(VC_SW_WORMHOLE), "wormhole" },
	{ VCUBE_COST_GAMMA, BIT(VC_SW_WORMHOLE) | BIT(VC_SW_PACKET),
	  "wormhole and packet" },
	{ VCUBE_COST_PACKET_PAYLOAD, BIT(VC_SW_PACKET), "packet" },
	{ VCUBE_COST_PARTIAL_NS, BIT(VC_SW_PACKET), "packet" },
	{ VCUBE_COST_RECV_NS, BIT(VC_SW_WORMHOLE) | BIT(VC_SW_PACKET),
	  "wormhole and packet" },
	{ VCUBE_COST_DUPLEX_NS, BIT(VC_SW_CIRCUIT), "circuit" },
};

static int vcube_switching_check(const struct vcube_conf *c,
				 const struct vc_params *p, char *err,
				 size_t len)
{
	int i, k;

	for (i = 0; i < ARRAY_SIZE(vcube_switching_costs); i++) {
		k = vcube_switching_costs[i].cost;
		if (c->cost[k] == -1 ||
		    vcube_switching_costs[i].modes & BIT(p->switching))
			continue;
		scnprintf(err, len, "%s= is for %s, not %s switching",
			  vc_cost_defs[k].name,
			  vcube_switching_costs[i].which,
			  vcube_switching_names[p->switching]);
		return -EINVAL;
	}
	if (p->switching == VC_SW_PACKET && !p->packet_payload) {
		scnprintf(err, len,
			  "packet_payload=0: a packet carries at least 1 byte");
		return -EINVAL;
	}
	return 0;
}

/**
 * vcube_conf_apply() - check a network's description and make its model
 * @c: the description; the shape it took is written back
 * @m: the model: topology, profile, cost parameters and bounds
 * @err: one line saying what is wrong, on -EINVAL
 * @len: @err's size
 *
 * Return: 0, or -EINVAL with @err filled.
 */
int vcube_conf_apply(struct vcube_conf *c, struct vcube_model *m,
		     char *err, size_t len)
{
	int ret;

	ret = vcube_shape_apply(c, m, err, len);
	if (ret)
		return ret;
	ret = vcube_choices_apply(c, &m->params, err, len);
	if (!ret)
		ret = vcube_costs_apply(c, &m->params, err, len);
	if (!ret)
		ret = vcube_switching_check(c, &m->params, err, len);
	if (!ret && m->params.fc_bufs && m->topo.nodes > VC_FC_MAX_NODES) {
		scnprintf(err, len,
			  "fc_bufs=%u needs nodes <= %u (a window per pair); this network has %u",
			  m->params.fc_bufs, VC_FC_MAX_NODES, m->topo.nodes);
		ret = -EINVAL;
	}
	ret = ret ?: vc_costs_check_topo(&m->params, &m->topo, err, len);
	ret = ret ?: vcube_bounds_apply(c, m, err, len);
	if (ret)	/* nothing of the model is kept */
		vcube_topo_fini(&m->topo);
	return ret;
}
