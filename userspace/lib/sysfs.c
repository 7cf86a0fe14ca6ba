// SPDX-License-Identifier: MIT
/*
 * libvcube: the network and node facts the module publishes in sysfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcube.h"

/* Read one small attribute, without its trailing newline. */
static int vcube_attr_read(const char *root, const char *dir, const char *name,
			   char *buf, size_t len)
{
	char path[512], def[128];
	ssize_t n;
	int fd;

	if (!root) {
		n = vcube_net_sysfs_root(vcube_env_net(), def, sizeof(def));
		if (n)
			return (int)n;
		root = def;
	}
	if (snprintf(path, sizeof(path), "%s/%s%s%s", root,
		     dir, *dir ? "/" : "", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	else if ((size_t)n == len - 1)
		return -EOVERFLOW;	/* longer than any value we expect */
	return 0;
}

/* Parse a decimal unsigned number that is the whole of @s. */
static int vcube_parse_ull(const char *s, unsigned long long max,
			   unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int vcube_attr_ull(const char *root, const char *dir, const char *name,
			  unsigned long long max, unsigned long long *out)
{
	char buf[32];
	int ret;

	ret = vcube_attr_read(root, dir, name, buf, sizeof(buf));
	return ret ?: vcube_parse_ull(buf, max, out);
}

static int vcube_attr_uint(const char *root, const char *dir, const char *name,
			   unsigned int *out)
{
	unsigned long long v;
	int ret = vcube_attr_ull(root, dir, name, UINT32_MAX, &v);

	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

int vcube_net_describe(const char *root, struct vcube_net_desc *d)
{
	int ret;

	if (!d)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	ret = vcube_attr_read(root, "", "topology", d->topology,
			      sizeof(d->topology));
	if (!ret)
		ret = vcube_attr_read(root, "", "shape", d->shape,
				      sizeof(d->shape));
	if (!ret)
		ret = vcube_attr_read(root, "", "profile", d->profile,
				      sizeof(d->profile));
	if (!ret)
		ret = vcube_attr_uint(root, "", "nodes", &d->nodes);
	if (!ret)
		ret = vcube_attr_uint(root, "", "channels", &d->channels);
	if (!ret)
		ret = vcube_attr_uint(root, "", "diameter", &d->diameter);
	if (!ret)
		ret = vcube_attr_ull(root, "", "seed", UINT64_MAX, &d->seed);
	if (!ret && !d->nodes)
		ret = -EINVAL;
	if (ret)
		return ret;
	/* The noise model: absent (0) on modules older than it. */
	vcube_attr_ull(root, "", "noise_period_ns", UINT64_MAX,
		       &d->noise_period_ns);
	vcube_attr_ull(root, "", "noise_cost_ns", UINT64_MAX, &d->noise_cost_ns);
	vcube_attr_ull(root, "", "jitter_ns", UINT64_MAX, &d->jitter_ns);
	if (vcube_attr_read(root, "", "jitter_dist", d->jitter_dist,
			    sizeof(d->jitter_dist)))
		strcpy(d->jitter_dist, "uniform");
	/* The control network: absent (0) on modules older than it. */
	vcube_attr_ull(root, "", "cnet_word_ns", UINT64_MAX, &d->cnet_word_ns);
	vcube_attr_ull(root, "", "cnet_double_ns", UINT64_MAX,
		       &d->cnet_double_ns);
	vcube_attr_ull(root, "", "cnet_bcast_ns", UINT64_MAX,
		       &d->cnet_bcast_ns);
	/* The copy rate: absent (0, free) on modules older than it. */
	vcube_attr_ull(root, "", "copy_byte_ps", UINT64_MAX, &d->copy_byte_ps);
	return 0;
}

int vcube_node_describe(const char *root, unsigned int node,
			struct vcube_node_desc *d)
{
	unsigned long long v;
	char dir[32], buf[256], *tok, *save;
	unsigned int owner;
	int ret;

	if (!d)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	snprintf(dir, sizeof(dir), "vcube%u", node);
	ret = vcube_attr_uint(root, dir, "node", &d->node);
	if (!ret && d->node != node)
		ret = -EINVAL;
	if (!ret)
		ret = vcube_attr_read(root, dir, "coords", d->coords,
				      sizeof(d->coords));
	if (!ret)
		ret = vcube_attr_uint(root, dir, "owner", &owner);
	if (!ret)
		ret = vcube_attr_read(root, dir, "neighbors", buf, sizeof(buf));
	if (ret)
		return ret;
	d->owner = (int)owner;
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (d->nneighbors == VCUBE_MAX_NEIGHBORS)
			return -EOVERFLOW;
		ret = vcube_parse_ull(tok, UINT32_MAX, &v);
		if (ret)
			return ret;
		d->neighbors[d->nneighbors++] = (unsigned int)v;
	}
	return 0;
}

