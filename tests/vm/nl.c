// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family against what the test made the network do.
 *
 *   vcube-run -n N nl exchange LEN   pairwise exchange: step i, rank ^ i,
 *                                    UNFORCED, every byte checked
 *   nl ecube LEN                     every channel's messages and bytes
 *                                    after that exchange, against e-cube
 *   nl send SRC LEN DST...           bind SRC, FORCED sends to each DST
 *   nl parts MSGS                    dump links and nodes: "links N parts P
 *                                    ..." and check the sums
 *   nl intr                          a dump the counters change under is
 *                                    flagged NLM_F_DUMP_INTR
 *
 * Exit 0 when every check held, 1 otherwise.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "vcube.h"

static int failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "nl: ");			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			failed = 1;					\
		}							\
	} while (0)

static uint8_t pattern(unsigned int src, unsigned int dst, size_t i)
{
	return (uint8_t)(src * 31 + dst * 7 + i);
}

static int do_exchange(size_t len)
{
	uint8_t *sbuf = malloc(len), *rbuf = malloc(len);
	struct vcube_node *node;
	struct vcube_status st;
	unsigned int me, np, i, p;
	size_t k;
	int ret;

	if (!sbuf || !rbuf || vcube_env_rank(&me, &np))
		return 1;
	ret = vcube_node_open(me, &node);
	if (ret) {
		fprintf(stderr, "nl: open %u: %s\n", me, strerror(-ret));
		return 1;
	}
	for (i = 1; i < np; i++) {
		p = me ^ i;
		for (k = 0; k < len; k++)
			sbuf[k] = pattern(me, p, k);
		ret = vcube_node_exchange(node, p, i, sbuf, len, rbuf, len, 0,
					  &st);
		CHECK(!ret && st.len == len, "step %u: %d", i, ret);
		for (k = 0; !ret && k < len; k++)
			CHECK(rbuf[k] == pattern(p, me, k),
			      "step %u byte %zu from %u", i, k, p);
	}
	vcube_node_close(node);
	free(sbuf);
	free(rbuf);
	return failed;
}

static int dump(struct vcube_nl **nl, struct vcube_nl_topo *t,
		struct vcube_nl_link **l, size_t *n, unsigned int *parts)
{
	int ret = vcube_nl_open(nl);

	if (!ret)
		ret = vcube_nl_topo_get(*nl, t);
	if (!ret)
		ret = vcube_nl_link_dump(*nl, l, n, parts);
	if (ret)
		fprintf(stderr, "nl: %s %s\n", strerror(-ret),
			vcube_nl_errmsg(*nl));
	return ret;
}

/* A complete pairwise exchange: each ordered pair once, on e-cube routes. */
static int do_ecube(size_t len)
{
	struct vcube_nl_link *l;
	struct vcube_nl_topo t;
	struct vcube_nl *nl = NULL;
	unsigned int d = 0, s, dst, v, b, *want;
	size_t n, i;

	if (dump(&nl, &t, &l, &n, NULL))
		return 1;
	while ((1U << d) < t.nodes)
		d++;
	want = calloc(t.channels, sizeof(*want));
	if (!want || t.kind != VCUBE_TOPOLOGY_HYPERCUBE || n != t.channels)
		return 1;
	for (s = 0; s < t.nodes; s++) {
		for (dst = 0; dst < t.nodes; dst++) {
			for (v = s, b = 0; b < d; b++) {
				if (!((v ^ dst) & (1U << b)))
					continue;
				want[v * d + b]++;
				v ^= 1U << b;
			}
		}
	}
	for (i = 0; i < n; i++) {
		CHECK(l[i].id == i, "link %zu has id %u", i, l[i].id);
		CHECK(l[i].from == i / d && l[i].dir == i % d &&
		      l[i].to == (l[i].from ^ (1U << l[i].dir)),
		      "link %zu runs %u->%u dim %u", i, l[i].from, l[i].to,
		      l[i].dir);
		CHECK(l[i].messages == want[i] && l[i].bytes == want[i] * len,
		      "link %zu (%u->%u): %llu messages, %llu bytes; e-cube gives %u",
		      i, l[i].from, l[i].to,
		      (unsigned long long)l[i].messages,
		      (unsigned long long)l[i].bytes, want[i]);
	}
	printf("ecube: %zu links checked, %llu messages\n", n,
	       (unsigned long long)t.messages);
	free(want);
	free(l);
	vcube_nl_close(nl);
	return failed;
}

static int do_send(unsigned int src, size_t len, int n, char **dsts)
{
	uint8_t *buf = calloc(1, len + 1);
	struct vcube_node *node;
	int i, ret;

	ret = vcube_node_open(src, &node);
	if (ret || !buf) {
		fprintf(stderr, "nl: open %u: %s\n", src, strerror(-ret));
		return 1;
	}
	for (i = 0; i < n; i++) {
		ret = vcube_node_send(node, (unsigned int)atoi(dsts[i]), 1, buf,
				      len, VCUBE_SEND_FORCED, NULL);
		CHECK(!ret, "send to %s: %s", dsts[i], strerror(-ret));
	}
	/* long enough for every message to arrive */
	vcube_node_delay(node, 1000000000ULL);
	vcube_node_close(node);
	free(buf);
	return failed;
}

static int do_parts(unsigned long long msgs)
{
	unsigned long long sum = 0, sent = 0, hops = 0;
	struct vcube_nl_node *nd;
	struct vcube_nl_link *l;
	struct vcube_nl_topo t;
	struct vcube_nl *nl = NULL;
	unsigned int lp, np;
	size_t n, nn, i;
	int ret;

	if (dump(&nl, &t, &l, &n, &lp))
		return 1;
	ret = vcube_nl_node_dump(nl, &nd, &nn, &np);
	if (ret)
		return 1;
	for (i = 0; i < n; i++) {
		CHECK(l[i].id == i, "link %zu has id %u", i, l[i].id);
		sum += l[i].messages;
		hops += l[i].transfers;
	}
	for (i = 0; i < nn; i++) {
		CHECK(nd[i].id == i, "node %zu has id %u", i, nd[i].id);
		sent += nd[i].sent;
	}
	printf("links %zu parts %u messages %llu transfers %llu\n", n, lp, sum,
	       hops);
	printf("nodes %zu parts %u sent %llu\n", nn, np, sent);
	CHECK(n == t.links, "%zu links of %u", n, t.links);
	CHECK(nn == t.nodes, "%zu nodes of %u", nn, t.nodes);
	CHECK(sum == msgs, "link messages sum to %llu, not %llu", sum, msgs);
	CHECK(hops == msgs, "link transfers sum to %llu, not %llu", hops, msgs);
	CHECK(sent == t.messages, "nodes sent %llu, the network %llu", sent,
	      (unsigned long long)t.messages);
	free(l);
	free(nd);
	vcube_nl_close(nl);
	return failed;
}

/*
 * Read a dump one datagram at a time and bind a node (which moves the
 * counters' generation) after the first: a later part must carry
 * NLM_F_DUMP_INTR.
 */
static int do_intr(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct sockaddr_nl who;
	struct vcube_node *node = NULL;
	unsigned char *buf;
	struct nl_msg *msg;
	int family, len, parts = 0, intr = 0, done = 0, before = 0;
	struct nlmsghdr *h;

	if (!sk || genl_connect(sk))
		return 1;
	nl_socket_enable_msg_peek(sk);
	family = genl_ctrl_resolve(sk, VCUBE_FAMILY_NAME);
	msg = nlmsg_alloc();
	if (family < 0 || !msg)
		return 1;
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP,
		    VCUBE_CMD_LINK_GET, VCUBE_FAMILY_VERSION);
	/* the network VCUBE_NET names, as node 0 below is bound in */
	if (vcube_env_net()) {
		char path[128];
		unsigned int id = 0;
		FILE *f = NULL;
		int got;

		if (!vcube_net_sysfs_root(vcube_env_net(), path,
					  sizeof(path) - 4)) {
			strcat(path, "/id");
			f = fopen(path, "r");
		}
		got = f && fscanf(f, "%u", &id) == 1;

		if (f)
			fclose(f);
		CHECK(got, "no id for network %s", vcube_env_net());
		if (!got || nla_put_u32(msg, VCUBE_A_LINK_NET_ID, id))
			return 1;
	}
	if (nl_send_auto(sk, msg) < 0)
		return 1;
	nlmsg_free(msg);
	while (!done) {
		len = nl_recv(sk, &who, &buf, NULL);
		if (len <= 0)
			return 1;
		parts++;
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, len);
		     h = nlmsg_next(h, &len)) {
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR)
				done = 1;
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = 1;
		}
		free(buf);
		if (parts == 1) {
			before = intr;
			CHECK(!vcube_node_open(0, &node), "cannot bind node 0");
		}
	}
	if (node)
		vcube_node_close(node);
	printf("intr: %d parts, flagged %s\n", parts, intr ? "yes" : "no");
	CHECK(!before, "the first part is flagged");
	CHECK(parts >= 3 && intr, "%d parts, none flagged", parts);
	nl_socket_free(sk);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "exchange"))
		return do_exchange(strtoul(argv[2], NULL, 0));
	if (argc >= 3 && !strcmp(argv[1], "ecube"))
		return do_ecube(strtoul(argv[2], NULL, 0));
	if (argc >= 5 && !strcmp(argv[1], "send"))
		return do_send(strtoul(argv[2], NULL, 0),
			       strtoul(argv[3], NULL, 0), argc - 4, argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "parts"))
		return do_parts(strtoull(argv[2], NULL, 0));
	if (argc >= 2 && !strcmp(argv[1], "intr"))
		return do_intr();
	fprintf(stderr, "usage: nl exchange|ecube|send|parts|intr ...\n");
	return 2;
}
