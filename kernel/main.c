// SPDX-License-Identifier: GPL-2.0
/*
 * vcube: module parameters, validation, init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "vcube.h"

static char *topology;
module_param(topology, charp, 0444);
MODULE_PARM_DESC(topology,
		 "Network: hypercube, mesh, torus or fattree (default: the profile's)");

static unsigned int dim;
module_param(dim, uint, 0444);
MODULE_PARM_DESC(dim, "Hypercube dimension, 1..12 (2^dim nodes)");

static unsigned int rows;
module_param(rows, uint, 0444);
MODULE_PARM_DESC(rows, "Mesh or torus rows");

static unsigned int cols;
module_param(cols, uint, 0444);
MODULE_PARM_DESC(cols, "Mesh or torus columns");

static unsigned int nodes;
module_param(nodes, uint, 0444);
MODULE_PARM_DESC(nodes, "Fat tree processors, 2..4096 (a partial tree when not a power of 4)");

static char *profile;
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "Machine profile: ipsc860, seidel, delta, ap1000 or cm5 (default: the topology's)");

static unsigned long long seed;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "Seed of every random choice the model makes (fat tree up-routing)");

static ushort mode = 0600;
module_param(mode, ushort, 0444);
MODULE_PARM_DESC(mode, "Permissions of /dev/vcube* (default 0600)");

/* Each profile names a machine; the first one per topology is its default. */
static const struct {
	const char *name;
	enum vcube_topo_kind kind;
} vcube_profiles[] = {
	{ "ipsc860", VCUBE_TOPO_HYPERCUBE },
	{ "seidel", VCUBE_TOPO_HYPERCUBE },
	{ "delta", VCUBE_TOPO_MESH },
	{ "ap1000", VCUBE_TOPO_TORUS },
	{ "cm5", VCUBE_TOPO_FATTREE },
};

static struct vcube_net *vcube_net;

umode_t vcube_dev_mode(void)
{
	return mode;
}

static int vcube_profile_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(vcube_profiles); i++)
		if (!strcmp(name, vcube_profiles[i].name))
			return i;
	return -EINVAL;
}

static int vcube_params_parse(struct vcube_net *net)
{
	struct vcube_topo_params p = {
		.dim = dim, .rows = rows, .cols = cols, .nodes = nodes,
		.seed = seed,
	};
	char err[128];
	int prof = -1, kind, i;

	if (mode & ~0777) {
		pr_err("mode=%#o is not a permission mask (0..0777)\n", mode);
		return -EINVAL;
	}
	if (profile) {
		prof = vcube_profile_find(profile);
		if (prof < 0) {
			pr_err("unknown profile=%s: use ipsc860, seidel, delta, ap1000 or cm5\n",
			       profile);
			return -EINVAL;
		}
	}
	if (topology) {
		kind = vcube_topo_kind_parse(topology);
		if (kind < 0) {
			pr_err("unknown topology=%s: use hypercube, mesh, torus or fattree\n",
			       topology);
			return -EINVAL;
		}
	} else if (prof >= 0) {
		kind = vcube_profiles[prof].kind;
	} else {
		pr_err("topology= is required: hypercube, mesh, torus or fattree\n");
		return -EINVAL;
	}
	if (prof < 0) {
		for (i = ARRAY_SIZE(vcube_profiles) - 1; i >= 0; i--)
			if (vcube_profiles[i].kind == kind)
				prof = i;
	}
	p.kind = kind;
	if (vcube_topo_init(&net->topo, &p, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -EINVAL;
	}
	strscpy(net->profile, vcube_profiles[prof].name, sizeof(net->profile));
	return 0;
}

static int __init vcube_init(void)
{
	struct vcube_net *net;
	char shape[48];
	int ret;

	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	mutex_init(&net->lock);

	ret = vcube_params_parse(net);
	if (ret)
		goto err_free;

	ret = vcube_dev_init(net);
	if (ret)
		goto err_free;

	vcube_topo_format_shape(&net->topo, shape, sizeof(shape));
	pr_info("%s %s: %u nodes, %u channels, profile %s\n",
		vcube_topo_kind_name(net->topo.kind), shape, net->topo.nodes,
		net->topo.nchan, net->profile);
	vcube_net = net;
	return 0;

err_free:
	mutex_destroy(&net->lock);
	kfree(net);
	return ret;
}

static void __exit vcube_exit(void)
{
	vcube_dev_exit(vcube_net);
	mutex_destroy(&vcube_net->lock);
	kfree(vcube_net);
}

module_init(vcube_init);
module_exit(vcube_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vcube: a virtual interconnect of parallel machines");
MODULE_AUTHOR("The vcube developers");
