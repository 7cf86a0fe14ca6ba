// SPDX-License-Identifier: GPL-2.0
/*
 * A job's placement (userspace/lib/place.c, issue 52): node lists parsed
 * and written back, every malformed one refused; the placement vcube-run
 * hands over in VCUBE_NODES, rank to node and back, the control network's
 * consecutive spans; and a node handle under it, bound through the
 * descriptor vcube-run would hand over (here /dev/null: no module), which
 * turns ranks into nodes on the way to the kernel and refuses ranks the
 * job does not have before any ioctl, while the raw calls and the
 * identity are left as they were.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "place.h"

/* @list parses to @want (@nwant nodes) exactly. */
static void parses(const char *list, const unsigned int *want, size_t nwant)
{
	unsigned int got[64];
	size_t n = 99, m = 99, i;
	int ret = vcube_nodelist_parse(list, got, 64, &n);

	CHECK(ret == 0 && n == nwant, "'%s': %d, %zu nodes", list, ret, n);
	for (i = 0; !ret && i < n && i < nwant; i++)
		CHECK(got[i] == want[i], "'%s'[%zu] = %u, not %u", list, i,
		      got[i], want[i]);
	ret = vcube_nodelist_parse(list, NULL, 0, &m);
	CHECK(ret == 0 && m == nwant, "'%s' counted: %d, %zu", list, ret, m);
}

static void refused(const char *list, int want)
{
	unsigned int got[64];
	size_t n = 99;
	int ret = vcube_nodelist_parse(list, got, 64, &n);

	CHECK(ret == want && n == 99, "'%s': %d (want %d), n %zu", list, ret,
	      want, n);
}

static void lists(void)
{
	static const unsigned int a[] = { 8, 9, 10, 11, 12, 13, 14, 15 };
	static const unsigned int b[] = { 0, 4, 8, 9, 10, 11 };
	static const unsigned int c[] = { 3, 3, 1 };
	static const unsigned int d[] = { 4294967294U };
	static const unsigned int e[] = { 7 };
	static const char *const bad[] = {
		"", ",", "1,", ",1", "1,,2", "a", "1-", "-1", "2-1", "1 ,2",
		" 1", "1 ", "1-2-3", "+1", "0x1", "1;2", "1..3", "3-", "1,-",
	};
	unsigned int four[4];
	size_t i, n;
	int ret;

	parses("8-15", a, 8);
	parses("0,4,8-11", b, 6);
	parses("3,3,1", c, 3);		/* duplicates are the caller's */
	parses("4294967294", d, 1);
	parses("7-7", e, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i], -EINVAL);
	refused("4294967295", -ERANGE);
	refused("99999999999", -ERANGE);
	refused("1-4294967295", -ERANGE);
	refused("0-64", -E2BIG);
	ret = vcube_nodelist_parse("0-3", four, 4, &n);
	CHECK(ret == 0 && n == 4 && four[3] == 3, "exactly room: %d %zu", ret, n);
	ret = vcube_nodelist_parse("0-4", four, 4, &n);
	CHECK(ret == -E2BIG, "one past room: %d", ret);
	ret = vcube_nodelist_parse("0-4294967294", NULL, 0, &n);
	CHECK(ret == 0 && n == 4294967295ULL, "counting a huge range: %d %zu",
	      ret, n);
	CHECK(vcube_nodelist_parse(NULL, four, 4, &n) == -EINVAL, "NULL list");
	CHECK(vcube_nodelist_parse("1", four, 4, NULL) == -EINVAL, "NULL count");
}

static void formats(const unsigned int *nodes, size_t n, const char *want)
{
	unsigned int back[64];
	char buf[128];
	size_t m, i;
	int ret = vcube_nodelist_format(nodes, n, buf, sizeof(buf));

	CHECK(ret == 0 && !strcmp(buf, want), "format: %d '%s', not '%s'", ret,
	      ret ? "" : buf, want);
	ret = vcube_nodelist_parse(buf, back, 64, &m);
	CHECK(ret == 0 && m == n, "'%s' back: %d %zu", buf, ret, m);
	for (i = 0; !ret && i < n && i < m; i++)
		CHECK(back[i] == nodes[i], "'%s'[%zu]", buf, i);
}

static void writing(void)
{
	static const unsigned int a[] = { 8, 9, 10, 11, 12, 13, 14, 15 };
	static const unsigned int b[] = { 0, 4, 8, 9, 10, 11 };
	static const unsigned int c[] = { 3, 2, 1, 5, 6, 31, 0 };
	static const unsigned int d[] = { 4294967293U, 4294967294U };
	unsigned int r[40];
	char buf[8];
	size_t i;

	formats(a, 8, "8-15");
	formats(b, 6, "0,4,8-11");
	formats(c, 7, "3,2,1,5-6,31,0");
	formats(a, 1, "8");
	formats(d, 2, "4294967293-4294967294");
	/* random lists, each written and read back */
	srand(52);
	for (i = 0; i < 40; i++)
		r[i] = (unsigned int)rand() % 64;
	for (i = 0; i < 40; i += 8) {
		unsigned int back[8];
		char out[256];
		size_t m = 0;
		int ret = vcube_nodelist_format(r + i, 8, out, sizeof(out));

		ret = ret ?: vcube_nodelist_parse(out, back, 8, &m);
		CHECK(!ret && m == 8 && !memcmp(back, r + i, sizeof(back)),
		      "random list %zu round trip: %d", i, ret);
	}
	CHECK(vcube_nodelist_format(b, 6, buf, sizeof(buf)) == -ENOSPC,
	      "too small a buffer: ENOSPC");
	CHECK(vcube_nodelist_format(b, 1, buf, 2) == 0 && !strcmp(buf, "0"),
	      "exactly room");
	CHECK(vcube_nodelist_format(a, 1, buf, 1) == -ENOSPC, "no room");
	CHECK(vcube_nodelist_format(b, 0, buf, sizeof(buf)) == -EINVAL,
	      "no nodes");
}

static void placements(void)
{
	static const unsigned int a[] = { 8, 9, 10, 11, 12, 13, 14, 15 };
	static const unsigned int id[] = { 0, 1, 2, 3 };
	static const unsigned int far[] = { 0, 31, 1, 30, 2, 29 };
	static const unsigned int dup[] = { 1, 2, 1 };
	struct vcube_place *p = (void *)1;
	unsigned int v = 99;

	CHECK(vcube_place_create(id, 4, &p) == 0 && !p,
	      "the identity is no placement");
	CHECK(vcube_place_create(dup, 3, &p) == -EINVAL && !p,
	      "a node twice: EINVAL");
	CHECK(vcube_place_create(a, 8, &p) == 0 && p, "8-15");
	if (!p)
		return;
	CHECK(vcube_place_size(p) == 8, "8 ranks");
	CHECK(vcube_place_node(p, 0, &v) == 0 && v == 8, "rank 0 on %u", v);
	CHECK(vcube_place_node(p, 7, &v) == 0 && v == 15, "rank 7 on %u", v);
	CHECK(vcube_place_node(p, 8, &v) == -EINVAL, "no rank 8");
	CHECK(vcube_place_rank(p, 15, &v) == 0 && v == 7, "node 15: rank %u", v);
	CHECK(vcube_place_rank(p, 7, &v) == -ENOENT, "node 7 has no rank");
	CHECK(vcube_place_span(p, 0, 8, &v) == 0 && v == 8, "all on 8..15");
	CHECK(vcube_place_span(p, 2, 3, &v) == 0 && v == 10, "ranks 2-4: 10..");
	CHECK(vcube_place_span(p, 0, 9, NULL) == -EINVAL, "past the ranks");
	CHECK(vcube_place_span(p, 8, 1, NULL) == -EINVAL, "no rank 8");
	CHECK(vcube_place_span(p, 0, 0, NULL) == -EINVAL, "no rank at all");
	vcube_place_free(p);
	CHECK(vcube_place_create(far, 6, &p) == 0 && p, "0,31,1,30,2,29");
	if (!p)
		return;
	CHECK(vcube_place_span(p, 0, 2, NULL) == -EOPNOTSUPP,
	      "0 and 31 are not consecutive");
	CHECK(vcube_place_span(p, 3, 1, &v) == 0 && v == 30, "one rank is a span");
	CHECK(vcube_place_rank(p, 29, &v) == 0 && v == 5, "node 29: rank %u", v);
	CHECK(vcube_place_rank(p, 3, &v) == -ENOENT, "node 3: no rank");
	vcube_place_free(p);
}

static void environment(void)
{
	struct vcube_place *p = NULL;
	unsigned int v = 99;

	unsetenv("VCUBE_NODES");
	setenv("VCUBE_SIZE", "8", 1);
	CHECK(vcube_place_load(&p) == 0 && !p, "no VCUBE_NODES: none");
	CHECK(vcube_env_node(5, &v) == 0 && v == 5, "no VCUBE_NODES: rank 5 on %u", v);
	setenv("VCUBE_NODES", "0-7", 1);
	CHECK(vcube_place_load(&p) == 0 && !p, "VCUBE_NODES=0-7: the identity");
	setenv("VCUBE_NODES", "8-15", 1);
	CHECK(vcube_place_load(&p) == 0 && p, "VCUBE_NODES=8-15");
	vcube_place_free(p);
	CHECK(vcube_env_node(3, &v) == 0 && v == 11, "rank 3 on %u", v);
	CHECK(vcube_env_node(8, &v) == -ENOENT, "no rank 8");
	CHECK(vcube_env_node(0, NULL) == -EINVAL, "NULL node");
	setenv("VCUBE_SIZE", "4", 1);
	CHECK(vcube_place_load(&p) == -EINVAL, "8 nodes for VCUBE_SIZE=4: EINVAL");
	CHECK(vcube_env_node(0, &v) == -EINVAL, "... and for vcube_env_node()");
	setenv("VCUBE_SIZE", "3", 1);
	setenv("VCUBE_NODES", "1,2,1", 1);
	CHECK(vcube_place_load(&p) == -EINVAL, "a node twice: EINVAL");
	setenv("VCUBE_NODES", "1,x", 1);
	CHECK(vcube_place_load(&p) == -EINVAL, "a malformed list: EINVAL");
	unsetenv("VCUBE_SIZE");
	setenv("VCUBE_NODES", "0-4294967294", 1);
	CHECK(vcube_place_load(&p) == -EINVAL, "a list past any job: EINVAL");
	unsetenv("VCUBE_NODES");
}

/* A handle as vcube-run hands it over: rank 2 of 8 on nodes 8-15. */
static struct vcube_node *handed_over(const char *nodes)
{
	struct vcube_node *node = NULL;
	char fd[16];
	int f = open("/dev/null", O_RDWR);

	snprintf(fd, sizeof(fd), "%d", f);
	setenv("VCUBE_FD", fd, 1);
	setenv("VCUBE_RANK", "2", 1);
	setenv("VCUBE_SIZE", "8", 1);
	setenv("VCUBE_NODES", nodes, 1);
	unsetenv("VCUBE_NET");
	CHECK(vcube_node_open(2, &node) == 0 && vcube_node_fd(node) == f,
	      "rank 2 takes the descriptor handed over for node %s's third",
	      nodes);
	return node;
}

static void handle(void)
{
	struct vcube_cnet op = { .kind = VCUBE_CNET_BARRIER, .nodes = 8 };
	struct vcube_node *node = handed_over("8-15"), *raw = NULL;
	unsigned int v = 99;
	uint64_t req;
	char b = 0;

	if (!node)
		return;
	CHECK(vcube_node_place(node) && vcube_node_rank(node) == 2, "rank 2");
	CHECK(vcube_node_peer(node, 3, &v) == 0 && v == 11, "rank 3: node %u", v);
	CHECK(vcube_node_peer(node, VCUBE_ANY, &v) == 0 && v == VCUBE_ANY,
	      "any source stays any");
	CHECK(vcube_node_peer(node, 8, &v) == -EINVAL, "no rank 8");
	CHECK(vcube_node_src(node, 15) == 7, "node 15 is rank 7");
	CHECK(vcube_node_src(node, 0) == VCUBE_ANY, "node 0: none of the job's");
	CHECK(vcube_node_src(node, VCUBE_ANY) == VCUBE_ANY, "any stays any");
	CHECK(vcube_node_send(node, 8, 0, &b, 1, 0, NULL) == -EINVAL,
	      "a send to rank 8 of 8: EINVAL before any ioctl");
	CHECK(vcube_node_irecv(node, 9, 0, &b, 1, &req) == -EINVAL,
	      "a receive from rank 9: EINVAL");
	CHECK(vcube_node_route(node, 8, 0, NULL, 0) == -EINVAL,
	      "a route to rank 8: EINVAL");
	CHECK(vcube_node_send(node, 3, 0, &b, 1, 0, NULL) == -ENOTTY,
	      "a send to rank 3 reaches the ioctl (here /dev/null's ENOTTY)");
	CHECK(vcube_node_cnet(node, &op) == -ENOTTY,
	      "a barrier of ranks 0-7 on nodes 8-15 reaches the ioctl");
	op.nodes = 9;
	CHECK(vcube_node_cnet(node, &op) == -EINVAL, "of ranks 0-8: EINVAL");
	op = (struct vcube_cnet){ .kind = VCUBE_CNET_BCAST, .nodes = 8, .root = 8 };
	CHECK(vcube_node_cnet(node, &op) == -EINVAL, "a broadcast from rank 8");
	op.root = 7;
	CHECK(vcube_node_cnet(node, &op) == -ENOTTY, "... from rank 7: the ioctl");
	/* another rank's node is not the one handed over (no device here) */
	CHECK(vcube_node_open(5, &raw) == -ENOENT, "rank 5 opens /dev/vcube13");
	CHECK(vcube_node_open(8, &raw) == -ENOENT, "there is no rank 8");
	/* nodes by number are nodes: node 2 is not rank 2's */
	CHECK(vcube_node_open_net(NULL, 2, &raw) == -ENOENT,
	      "node 2 of the default network is not what rank 2 holds");
	CHECK(vcube_node_open_net(NULL, 10, &raw) == 0 && !vcube_node_place(raw),
	      "node 10 is: the descriptor, raw (no placement)");
	if (raw) {
		CHECK(vcube_node_peer(raw, 3, &v) == 0 && v == 3,
		      "a raw handle speaks nodes");
		CHECK(vcube_node_src(raw, 15) == 15, "... both ways");
		/* the same descriptor as @node's: closed once, below */
		free(raw);
	}
	raw = NULL;
	CHECK(vcube_node_open_net("other", 10, &raw) == -ENOENT,
	      "node 10 of another network: not the descriptor");
	setenv("VCUBE_NET", "other", 1);
	CHECK(vcube_node_open_net(NULL, 10, &raw) == -ENOENT,
	      "under VCUBE_NET=other, the default network's node 10 is not it");
	unsetenv("VCUBE_NET");
	vcube_node_close(node);

	node = handed_over("8,9,10,11,13,12,14,15");
	if (!node)
		return;
	op.nodes = 8;
	CHECK(vcube_node_cnet(node, &op) == -EOPNOTSUPP,
	      "a barrier of ranks on nodes out of order: EOPNOTSUPP");
	op.nodes = 4;
	CHECK(vcube_node_cnet(node, &op) == -ENOTTY,
	      "of ranks 0-3 (nodes 8-11): the ioctl");
	vcube_node_close(node);
}

int main(void)
{
	lists();
	writing();
	placements();
	environment();
	handle();
	return check_done("place_test");
}
