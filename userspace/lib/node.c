// SPDX-License-Identifier: MIT
/*
 * libvcube: binding to a node and the ioctls on it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vcube.h"

struct vcube_node {
	int fd;
	unsigned int rank;
};

static int vcube_env_uint(const char *name, unsigned int *out)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (!s || !*s)
		return -ENOENT;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int vcube_env_rank(unsigned int *rank, unsigned int *size)
{
	int ret = vcube_env_uint("VCUBE_RANK", rank);

	return ret ? ret : vcube_env_uint("VCUBE_SIZE", size);
}

/*
 * vcube-run binds each process to its node before the program starts and
 * hands over the descriptor in VCUBE_FD; use it when the rank matches.
 */
static int vcube_inherited_fd(unsigned int rank)
{
	unsigned int r, fd;

	if (vcube_env_uint("VCUBE_RANK", &r) || r != rank ||
	    vcube_env_uint("VCUBE_FD", &fd) || fcntl((int)fd, F_GETFD) < 0)
		return -1;
	return (int)fd;
}

/* 1 to 15 of A-Z a-z 0-9 _ -, a letter first, as the kernel takes. */
static bool vcube_net_name_ok(const char *net)
{
	size_t i;

	if (!((net[0] >= 'a' && net[0] <= 'z') || (net[0] >= 'A' && net[0] <= 'Z')))
		return false;
	for (i = 1; net[i]; i++)
		if (i >= 15 || !(isalnum((unsigned char)net[i]) ||
				 net[i] == '_' || net[i] == '-'))
			return false;
	return true;
}

/* The default network: no name, or its own. */
static bool vcube_net_is_default(const char *net)
{
	return !net || !*net || !strcmp(net, "default");
}

const char *vcube_env_net(void)
{
	const char *net = getenv("VCUBE_NET");

	return vcube_net_is_default(net) ? NULL : net;
}

int vcube_node_path(const char *net, unsigned int rank, char *buf,
		    size_t len)
{
	int n;

	if (!buf)
		return -EINVAL;
	if (vcube_net_is_default(net))
		n = snprintf(buf, len, VCUBE_DEV_FMT, rank);
	else if (vcube_net_name_ok(net))
		n = snprintf(buf, len, VCUBE_NET_DEV_FMT, net, rank);
	else
		return -EINVAL;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int vcube_net_sysfs_root(const char *net, char *buf, size_t len)
{
	int n;

	if (!buf)
		return -EINVAL;
	if (vcube_net_is_default(net))
		n = snprintf(buf, len, "%s", VCUBE_SYSFS_ROOT);
	else if (vcube_net_name_ok(net))
		n = snprintf(buf, len, VCUBE_NET_SYSFS_FMT, net);
	else
		return -EINVAL;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int vcube_node_open(unsigned int rank, struct vcube_node **nodep)
{
	return vcube_node_open_net(vcube_env_net(), rank, nodep);
}

int vcube_node_open_net(const char *net, unsigned int rank,
			struct vcube_node **nodep)
{
	struct vcube_node *node;
	char path[64];
	int ret;

	if (!nodep)
		return -EINVAL;
	ret = vcube_node_path(net, rank, path, sizeof(path));
	if (ret)
		return ret;
	node = calloc(1, sizeof(*node));
	if (!node)
		return -ENOMEM;
	node->rank = rank;
	node->fd = vcube_inherited_fd(rank);
	if (node->fd >= 0) {
		fcntl(node->fd, F_SETFD, FD_CLOEXEC);
		*nodep = node;
		return 0;
	}
	node->fd = open(path, O_RDWR | O_CLOEXEC);
	if (node->fd < 0) {
		int ret = -errno;

		free(node);
		return ret;
	}
	*nodep = node;
	return 0;
}

int vcube_node_close(struct vcube_node *node)
{
	int ret = 0;

	if (!node)
		return -EINVAL;
	if (close(node->fd))
		ret = -errno;
	free(node);
	return ret;
}

int vcube_node_fd(const struct vcube_node *node)
{
	return node ? node->fd : -EINVAL;
}

int vcube_node_info(struct vcube_node *node, struct vcube_node_info *info)
{
	if (!node || !info)
		return -EINVAL;
	if (ioctl(node->fd, VCUBE_IOC_NODE_INFO, info))
		return -errno;
	return 0;
}

int vcube_node_route(struct vcube_node *node, unsigned int dst,
		     uint64_t cookie, struct vcube_hop *hops, size_t max)
{
	struct vcube_route r = {
		.dst = dst,
		.max_hops = max > UINT32_MAX ? UINT32_MAX : (uint32_t)max,
		.cookie = cookie,
		.hops = (uintptr_t)hops,
	};

	if (!node || (max && !hops))
		return -EINVAL;
	if (ioctl(node->fd, VCUBE_IOC_ROUTE, &r) && errno != EMSGSIZE)
		return -errno;
	return (int)r.nhops;
}

const char *vcube_topology_name(unsigned int topology)
{
	static const char *const names[] = {
		[VCUBE_TOPOLOGY_HYPERCUBE] = "hypercube",
		[VCUBE_TOPOLOGY_MESH] = "mesh",
		[VCUBE_TOPOLOGY_TORUS] = "torus",
		[VCUBE_TOPOLOGY_FATTREE] = "fattree",
	};

	return topology < sizeof(names) / sizeof(names[0]) ? names[topology] :
							     "unknown";
}

const char *vcube_dir_name(unsigned int topology, unsigned int dir)
{
	static const char *const grid[] = { "east", "west", "south", "north" };

	switch (topology) {
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		return dir < 4 ? grid[dir] : "?";
	case VCUBE_TOPOLOGY_FATTREE:
		return dir ? "down" : "up";
	default:
		return "dim";
	}
}
