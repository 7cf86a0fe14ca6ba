// SPDX-License-Identifier: GPL-2.0
/*
 * libvcube's reading of the module's sysfs facts, on a directory laid out
 * like /sys/class/vcube: well-formed values, and every way they can be
 * missing or malformed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "vcube.h"

static char root[] = "/tmp/vcube-sysfs-XXXXXX";

static void put(const char *rel, const char *val)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(val, f);
	fclose(f);
}

static void rm(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
}

static void good_net(void)
{
	put("topology", "hypercube\n");
	put("shape", "dim=2\n");
	put("profile", "ipsc860\n");
	put("nodes", "4\n");
	put("channels", "8\n");
	put("diameter", "2\n");
	put("seed", "18446744073709551615\n");
}

static void good_node(void)
{
	put("vcube2/node", "2\n");
	put("vcube2/coords", "10\n");
	put("vcube2/neighbors", "3 0\n");
	put("vcube2/owner", "0\n");
}

static int net_with(const char *file, const char *val)
{
	struct vcube_net_desc d;

	good_net();
	if (val)
		put(file, val);
	else
		rm(file);
	return vcube_net_describe(root, &d);
}

static int node_with(const char *file, const char *val)
{
	struct vcube_node_desc d;

	good_node();
	if (val)
		put(file, val);
	else
		rm(file);
	return vcube_node_describe(root, 2, &d);
}

int main(void)
{
	struct vcube_net_desc nd;
	struct vcube_node_desc d;
	char path[256], big[600];
	int i, n;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/vcube2", root);
	mkdir(path, 0755);

	good_net();
	CHECK(vcube_net_describe(root, &nd) == 0, "good network");
	CHECK(!strcmp(nd.topology, "hypercube") && !strcmp(nd.shape, "dim=2") &&
	      !strcmp(nd.profile, "ipsc860"), "strings");
	CHECK(nd.nodes == 4 && nd.channels == 8 && nd.diameter == 2,
	      "numbers %u %u %u", nd.nodes, nd.channels, nd.diameter);
	CHECK(nd.seed == 18446744073709551615ULL, "seed %llu", nd.seed);
	CHECK(vcube_net_describe(root, NULL) == -EINVAL, "NULL desc");

	CHECK(net_with("nodes", NULL) == -ENOENT, "missing nodes");
	CHECK(net_with("nodes", "12abc\n") == -EINVAL, "trailing junk");
	CHECK(net_with("nodes", "-4\n") == -EINVAL, "negative");
	CHECK(net_with("nodes", "\n") == -EINVAL, "empty");
	CHECK(net_with("nodes", "0\n") == -EINVAL, "no nodes");
	CHECK(net_with("nodes", "4294967296\n") == -EINVAL, "over 32 bits");
	CHECK(net_with("seed", "18446744073709551616\n") == -EINVAL,
	      "seed over 64 bits");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(net_with("shape", big) == -EOVERFLOW, "overlong value");
	CHECK(vcube_net_describe("/nonexistent/vcube", &nd) == -ENOENT,
	      "no network");
	good_net();

	good_node();
	CHECK(vcube_node_describe(root, 2, &d) == 0, "good node");
	CHECK(d.node == 2 && !strcmp(d.coords, "10") && d.nneighbors == 2 &&
	      d.neighbors[0] == 3 && d.neighbors[1] == 0 && d.owner == 0,
	      "node values");
	CHECK(node_with("vcube2/owner", "4242\n") == 0, "owned node");
	vcube_node_describe(root, 2, &d);
	CHECK(d.owner == 4242, "owner %d", d.owner);
	CHECK(node_with("vcube2/neighbors", "\n") == 0, "no neighbours");
	vcube_node_describe(root, 2, &d);
	CHECK(d.nneighbors == 0, "%u neighbours", d.nneighbors);
	CHECK(node_with("vcube2/node", "3\n") == -EINVAL, "wrong node");
	CHECK(node_with("vcube2/neighbors", "1 x 2\n") == -EINVAL,
	      "bad neighbour");
	CHECK(node_with("vcube2/coords", NULL) == -ENOENT, "missing coords");
	for (n = 0, i = 0; i < 17; i++)
		n += snprintf(big + n, sizeof(big) - n, "%d ", i);
	big[n - 1] = '\n';
	CHECK(node_with("vcube2/neighbors", big) == -EOVERFLOW,
	      "17 neighbours");
	CHECK(vcube_node_describe(root, 7, &d) == -ENOENT, "no such node");

	CHECK(!strcmp(vcube_topology_name(VCUBE_TOPOLOGY_FATTREE), "fattree"),
	      "name");
	CHECK(!strcmp(vcube_topology_name(99), "unknown"), "unknown name");

	snprintf(path, sizeof(path), "rm -rf %s", root);
	if (system(path))
		return 1;
	return check_done("sysfs_parse");
}
