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

#include "place.h"

struct vcube_node {
	int fd;
	unsigned int rank;		/* what it was opened for */
	struct vcube_place *place;	/* the job's placement, or NULL */
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

/*
 * vcube-run binds each process to its node before the program starts and
 * hands over the descriptor in VCUBE_FD: node VCUBE_NODES[VCUBE_RANK] (or
 * VCUBE_RANK) of network VCUBE_NET. Use it for that node of that network.
 */
static int vcube_inherited_fd(const char *net, unsigned int node)
{
	const char *env = vcube_env_net();
	unsigned int r, fd, bound;

	if (vcube_net_is_default(net) ? env != NULL :
				       !env || strcmp(net, env))
		return -1;
	if (vcube_env_uint("VCUBE_RANK", &r) || vcube_env_node(r, &bound) ||
	    bound != node || vcube_env_uint("VCUBE_FD", &fd) ||
	    fcntl((int)fd, F_GETFD) < 0)
		return -1;
	return (int)fd;
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

/* Bind to node @node of @net for rank @rank, under @place (taken over). */
static int vcube_node_bind(const char *net, unsigned int rank,
			   unsigned int node, struct vcube_place *place,
			   struct vcube_node **nodep)
{
	struct vcube_node *h;
	char path[64];
	int ret;

	ret = vcube_node_path(net, node, path, sizeof(path));
	if (ret)
		return ret;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->rank = rank;
	h->fd = vcube_inherited_fd(net, node);
	if (h->fd >= 0) {
		fcntl(h->fd, F_SETFD, FD_CLOEXEC);
	} else {
		h->fd = open(path, O_RDWR | O_CLOEXEC);
		if (h->fd < 0) {
			ret = -errno;
			free(h);
			return ret;
		}
	}
	h->place = place;
	*nodep = h;
	return 0;
}

/*
 * Rank @rank of the job: the node the environment's placement puts it on
 * (VCUBE_NODES, vcube-run --nodes), the handle speaking ranks; else node
 * @rank.
 */
int vcube_node_open(unsigned int rank, struct vcube_node **nodep)
{
	struct vcube_place *place;
	unsigned int node = rank;
	int ret;

	if (!nodep)
		return -EINVAL;
	ret = vcube_place_load(&place);
	if (!ret && place && vcube_place_node(place, rank, &node))
		ret = -ENOENT;
	if (!ret)
		ret = vcube_node_bind(vcube_env_net(), rank, node, place, nodep);
	if (ret)
		vcube_place_free(place);
	return ret;
}

int vcube_node_open_net(const char *net, unsigned int rank,
			struct vcube_node **nodep)
{
	if (!nodep)
		return -EINVAL;
	return vcube_node_bind(net, rank, rank, NULL, nodep);
}

int vcube_node_close(struct vcube_node *node)
{
	int ret = 0;

	if (!node)
		return -EINVAL;
	if (close(node->fd))
		ret = -errno;
	vcube_place_free(node->place);
	free(node);
	return ret;
}

int vcube_node_fd(const struct vcube_node *node)
{
	return node ? node->fd : -EINVAL;
}

int vcube_node_peer(const struct vcube_node *node, unsigned int rank,
		    unsigned int *peer)
{
	if (!node)
		return -EINVAL;
	if (!node->place || rank == VCUBE_ANY) {
		*peer = rank;
		return 0;
	}
	return vcube_place_node(node->place, rank, peer);
}

unsigned int vcube_node_src(const struct vcube_node *node, unsigned int src)
{
	unsigned int rank;

	if (!node || !node->place || src == VCUBE_ANY)
		return src;
	return vcube_place_rank(node->place, src, &rank) ? VCUBE_ANY : rank;
}

const struct vcube_place *vcube_node_place(const struct vcube_node *node)
{
	return node ? node->place : NULL;
}

unsigned int vcube_node_rank(const struct vcube_node *node)
{
	return node->rank;
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
		.max_hops = max > UINT32_MAX ? UINT32_MAX : (uint32_t)max,
		.cookie = cookie,
		.hops = (uintptr_t)hops,
	};

	if (!node || (max && !hops) || vcube_node_peer(node, dst, &r.dst))
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
		[VCUBE_TOPOLOGY_DRAGONFLY] = "dragonfly",
		[VCUBE_TOPOLOGY_GRAPH] = "graph",
	};

	return topology < sizeof(names) / sizeof(names[0]) ? names[topology] :
							     "unknown";
}

const char *vcube_dir_name(unsigned int topology, unsigned int dir)
{
	/* dir is 2 * dimension, + 1 the - way: 2-D's names, then +d2 ... */
	static const char *const grid[] = {
		"east", "west", "south", "north", "+d2", "-d2",
		"+d3", "-d3", "+d4", "-d4", "+d5", "-d5",
	};
	/* enum vcube_df_dir: node to router, router to node, in a group, out */
	static const char *const df[] = { "inject", "eject", "local", "global" };
	/* a graph's: node to router, router to node, router to router */
	static const char *const graph[] = { "inject", "eject", "link" };

	switch (topology) {
	case VCUBE_TOPOLOGY_MESH:
	case VCUBE_TOPOLOGY_TORUS:
		return dir < sizeof(grid) / sizeof(grid[0]) ? grid[dir] : "?";
	case VCUBE_TOPOLOGY_FATTREE:
		return dir ? "down" : "up";
	case VCUBE_TOPOLOGY_DRAGONFLY:
		return dir < sizeof(df) / sizeof(df[0]) ? df[dir] : "?";
	case VCUBE_TOPOLOGY_GRAPH:
		return dir < sizeof(graph) / sizeof(graph[0]) ? graph[dir] : "?";
	default:
		return "dim";
	}
}
