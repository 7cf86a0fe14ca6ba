// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM: networks made and deleted while programs use them.
 *
 *   nets deleted NAME   binds nodes 0 and 1 of NAME (1 in a child that
 *                       sits in user space, holding virtual time), blocks
 *                       node 0 in a receive nobody sends, and says what
 *                       each call returns once the network is deleted
 *                       (the caller deletes it after "ready" on stdout):
 *                       the blocked receive, a later call on node 0, a
 *                       call on node 1. Every one must be ENODEV.
 *   nets close NAME K=V...
 *                       makes NAME with destroy-on-close, says "made",
 *                       waits for a line on stdin, and exits: the caller
 *                       checks that NAME is gone with the socket.
 *   nets bad            net-new with bad words: refused, each with the
 *                       kernel's reason, and nothing left behind.
 *   nets graph          net-new of graphs the kernel must refuse: by
 *                       their values (each with its reason), and by
 *                       attributes of a bad length, sent raw; nothing
 *                       left behind. Then one of 32767 links (two
 *                       graph-links attributes) made and deleted.
 *   nets held           a call on the node vcube-run's way hands over
 *                       (VCUBE_RANK=0 VCUBE_FD=N), whose network is gone:
 *                       ENODEV.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "tap.h"
#include "vcube.h"

static int deleted(const char *name)
{
	struct vcube_node *n0, *n1;
	int go[2], ret, rc;
	uint64_t t;
	char buf[8];
	pid_t pid;

	if (pipe(go))
		return 1;
	T(!vcube_node_open_net(name, 0, &n0), "bind node 0 of %s", name);
	pid = fork();
	if (!pid) {
		if (vcube_node_open_net(name, 1, &n1))
			_exit(2);
		close(go[1]);
		/* in user space, holding virtual time, until node 0 is back */
		while (read(go[0], buf, 1) > 0)
			;
		ret = vcube_node_clock(n1, &t);
		_exit(ret == -ENODEV ? 0 : 3);
	}
	close(go[0]);
	sleep(1);		/* node 1 bound: node 0's wait is no deadlock */
	printf("ready\n");
	fflush(stdout);
	ret = vcube_node_recv(n0, 1, 0, buf, sizeof(buf), NULL);
	T(ret == -ENODEV, "a receive blocked when the network was deleted: %s",
	  strerror(-ret));
	ret = vcube_node_clock(n0, &t);
	T(ret == -ENODEV, "a later call on the same node: %s", strerror(-ret));
	close(go[1]);
	rc = child_status(pid);
	T(rc == 0, "a call on node 1, which sat in user space: ENODEV (%d)",
	  rc);
	vcube_node_close(n0);
	return failed;
}

static int closing(const char *name, int nkv, char **kv)
{
	struct vcube_nl_net made;
	struct vcube_nl *nl;
	char line[16];
	int ret;

	ret = vcube_nl_open(&nl);
	if (ret)
		return 1;
	ret = vcube_nl_net_new(nl, name, nkv, kv, VCUBE_NL_DESTROY_ON_CLOSE,
			       &made);
	T(!ret, "net-new %s with destroy-on-close: %s %s", name,
	  strerror(-ret), vcube_nl_errmsg(nl));
	printf("made %u\n", made.id);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		line[0] = '\0';
	return failed;	/* the socket closes with the process */
}

static int bad(void)
{
	static const struct {
		const char *words[3];
		int err;
		const char *why;
	} cases[] = {
		{ { "topology=ring" }, -EINVAL, "unknown topology=ring" },
		{ { "dim=0" }, -EINVAL, "dim" },
		{ { "topology=mesh", "rows=0" }, -EINVAL, "rows" },
		{ { "profile=cray" }, -EINVAL, "no profile=cray: use ipsc860, seidel, delta, ap1000, cm5 or slingshot" },
		{ { "mode=01000" }, -EINVAL, "mode" },
		{ { "max_msg=0" }, -EINVAL, "max_msg=0 is out of range" },
		{ { "trace=99999999" }, -EINVAL, "trace=99999999 is out of range" },
		{ { "gamma=9" }, -EINVAL, "gamma=9 is out of range" },
		{ { "noise_period_ns=100", "noise_cost_ns=60" }, -EINVAL,
		  "more than half" },
		/* the longest: an extended ACK holds 79 characters */
		{ { "fc_bufs=1", "dim=11" }, -EINVAL,
		  "fc_bufs=1 needs nodes <= 1024 (a window per pair); this network has 2048" },
		{ { "switching=optical" }, -EINVAL, "unknown switching=optical" },
		{ { "dim=3", "nonsuch=1" }, -EINVAL, "unknown parameter nonsuch" },
		{ { "dim=3", "lanes=2" }, -EINVAL,
		  "lanes= is for wormhole, not circuit switching" },
		{ { "profile=cm5", "packet_payload=0" }, -EINVAL,
		  "packet_payload=0: a packet carries" },
		{ { "dim=x" }, -EINVAL, "not a number" },
	};
	struct vcube_nl_net *nets;
	struct vcube_nl *nl;
	size_t before, after, i;
	const char *msg;
	int ret, k;

	if (vcube_nl_open(&nl) || vcube_nl_net_dump(nl, NULL, &nets, &before))
		return 1;
	free(nets);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (k = 0; k < 3 && cases[i].words[k]; k++)
			;
		ret = vcube_nl_net_new(nl, "badnet", k,
				       (char *const *)cases[i].words, 0, NULL);
		msg = vcube_nl_errmsg(nl);
		/* Linux 6.1 cannot format the kernel's reason: a fixed one */
		T(ret == cases[i].err &&
		  (strstr(msg, cases[i].why) || strstr(msg, "before 6.3 cannot say which")),
		  "net-new %s %s: refused, \"%s\"", cases[i].words[0],
		  cases[i].words[1] ? cases[i].words[1] : "", msg);
	}
	ret = vcube_nl_net_new(nl, "9lives", 0, NULL, 0, NULL);
	T(ret == -EINVAL, "a name that does not start with a letter: %s",
	  vcube_nl_errmsg(nl));
	ret = vcube_nl_net_new(nl, "default", 0, NULL, 0, NULL);
	T(ret == -EINVAL, "the name default: %s", vcube_nl_errmsg(nl));
	T(!vcube_nl_net_dump(nl, NULL, &nets, &after) && after == before,
	  "nothing left behind: %zu networks before, %zu after", before,
	  after);
	free(nets);
	T(access("/dev/vcube/badnet", F_OK) && access("/sys/class/vcube_net/badnet", F_OK),
	  "no device or sysfs directory of a refused network");
	vcube_nl_close(nl);
	return failed;
}

/* A graph net-new by libnl itself, its attributes as given: the ack. */
static int graph_raw(uint32_t routers, const void *nodes, int nodes_len,
		     const void *links, int links_len)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = nlmsg_alloc_size(65536);
	int family, ret = -1;

	if (!sk || !msg || genl_connect(sk) ||
	    (family = genl_ctrl_resolve(sk, VCUBE_FAMILY_NAME)) < 0)
		goto out;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
			 NLM_F_ACK, VCUBE_CMD_NET_NEW, VCUBE_FAMILY_VERSION) ||
	    nla_put_string(msg, VCUBE_A_NET_NAME, "rawg") ||
	    nla_put_string(msg, VCUBE_A_NET_TOPOLOGY, "graph") ||
	    (routers && nla_put_u32(msg, VCUBE_A_NET_GRAPH_ROUTERS, routers)) ||
	    (nodes && nla_put(msg, VCUBE_A_NET_GRAPH_NODES, nodes_len, nodes)) ||
	    (links && nla_put(msg, VCUBE_A_NET_GRAPH_LINKS, links_len, links)))
		goto out;
	ret = nl_send_auto(sk, msg);
	if (ret >= 0)
		ret = nl_wait_for_ack(sk);
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return ret;
}

/*
 * Lengths the library cannot send (the kernel checks them too), and a
 * graph of 32767 parallel links between 2 routers: 2 attributes.
 */
static void graph_sizes(struct vcube_nl *nl)
{
	static const uint16_t two[] = { 0, 1 };
	static uint16_t many[2 * 32767], nodes[4096];
	struct vcube_nl_graph g = { 2, 2, 32767, nodes, many, NULL, 0, NULL };
	char *word = "topology=graph";
	struct vcube_nl_net made;
	unsigned int i;
	int ret;

	T(graph_raw(2, two, 3, two, 4) == -NLE_INVAL,
	  "graph-nodes of 3 bytes: EINVAL");
	T(graph_raw(2, two, 4, two, 2) == -NLE_INVAL,
	  "graph-links of 2 bytes: EINVAL");
	T(graph_raw(2, nodes, 8194, NULL, 0) == -NLE_INVAL,
	  "graph-nodes for 4097 nodes: EINVAL");
	T(graph_raw(0, two, 4, two, 4) == -NLE_INVAL,
	  "graph-nodes without graph-routers: EINVAL");
	T(graph_raw(2, two, 4, two, 4) == 0 && !vcube_nl_net_del(nl, "rawg"),
	  "the same graph with graph-routers: made (then deleted)");
	for (i = 0; i < 32767; i++)
		many[2 * i + 1] = 1;
	nodes[1] = 1;
	ret = vcube_nl_net_new_graph(nl, "bigg", 1, &word, 0, &g, &made);
	T(!ret && made.channels == 2 * 2 + 2 * 32767,
	  "a graph of 32767 links, in two attributes: %u channels (%s)",
	  ret ? 0 : made.channels, ret ? vcube_nl_errmsg(nl) : "made");
	if (!ret)
		vcube_nl_net_del(nl, "bigg");
	g.nlinks = 32769;
	T(vcube_nl_net_new_graph(nl, "bigg", 1, &word, 0, &g, NULL) == -EINVAL,
	  "a graph of 32769 links: the library refuses, EINVAL");
}

static int graph(void)
{
	static const uint16_t two[] = { 0, 1 }, far[] = { 0, 9 };
	static const uint16_t self[] = { 1, 1 }, line[] = { 0, 1, 1, 2 };
	/* a ring of 4; routes: 0 to 2 directly, then 0 and 3 to 2 via each other */
	static const uint16_t ring[] = { 0, 1, 1, 2, 2, 3, 3, 0 };
	static const uint16_t far2[] = { 0, 2, 2 }, loop[] = { 0, 2, 3, 3, 2, 0 };
	/* channels: 2 nodes in, 2 out, the link both ways; 4 too slow */
	static const uint32_t slow[] = { 0, 0, 0, 0, 0, 0, 0, 0,
					 100, 2000000000, 0, 0 };
	static const struct {
		const char *topology;
		struct vcube_nl_graph g;
		const char *why;
	} cases[] = {
		{ "topology=graph", { 0, 2, 0, two, NULL, NULL, 0, NULL }, "1..2048 routers, not 0" },
		{ "topology=graph", { 3000, 2, 0, two, NULL, NULL, 0, NULL }, "1..2048 routers, not 3000" },
		{ "topology=graph", { 2, 1, 1, two, two, NULL, 0, NULL }, "2..4096 nodes, not 1" },
		{ "topology=graph", { 2, 2, 0, far, NULL, NULL, 0, NULL }, "graph node 1 is on router 9 of 2" },
		{ "topology=graph", { 2, 2, 1, two, self, NULL, 0, NULL }, "graph link 0 joins router 1 to 1" },
		{ "topology=graph", { 4, 2, 2, two, line, NULL, 0, NULL },
		  "graph router 3 cannot reach router 0: the routers must be connected" },
		{ "topology=graph", { 2, 2, 1, two, two, slow, 0, NULL },
		  "graph channel 4: latency or ps a byte over 1000000000" },
		{ "topology=graph", { 4, 2, 4, two, ring, NULL, 1, far2 },
		  "graph route 0: router 0 has no link to 2 toward 2" },
		{ "topology=graph", { 4, 2, 4, two, ring, NULL, 2, loop },
		  "graph routes toward router 2 loop at router 0" },
		{ "topology=torus", { 2, 2, 1, two, two, NULL, 0, NULL },
		  "a graph's routers, nodes and links do not apply to topology=torus" },
	};
	struct vcube_nl_net *nets;
	struct vcube_nl *nl;
	size_t before, after, i;
	const char *msg;
	char *word;
	int ret;

	if (vcube_nl_open(&nl) || vcube_nl_net_dump(nl, NULL, &nets, &before))
		return 1;
	free(nets);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		word = (char *)cases[i].topology;
		ret = vcube_nl_net_new_graph(nl, "badg", 1, &word, 0,
					     &cases[i].g, NULL);
		msg = vcube_nl_errmsg(nl);
		T(ret == -EINVAL && (strstr(msg, cases[i].why) ||
				     strstr(msg, "before 6.3 cannot say which")),
		  "graph refused: %s (%s)", cases[i].why, msg);
	}
	word = "topology=graph";
	ret = vcube_nl_net_new(nl, "badg", 1, &word, 0, NULL);
	msg = vcube_nl_errmsg(nl);
	T(ret == -EINVAL && (strstr(msg, "vcubectl net add NAME topology=graph file=F") ||
			     strstr(msg, "before 6.3 cannot say which")),
	  "topology=graph with no graph refused, saying how to make one (%s)",
	  msg);
	/* (before 6.3 the reason is vcube's fixed sentence, not the kernel's) */
	T(strlen(msg) <= 79 || strstr(msg, "before 6.3 cannot say which"),
	  "that reason fits an extended ACK: %zu characters", strlen(msg));
	graph_sizes(nl);
	T(!vcube_nl_net_dump(nl, NULL, &nets, &after) && after == before,
	  "nothing left behind: %zu networks before, %zu after", before,
	  after);
	free(nets);
	vcube_nl_close(nl);
	return failed;
}

static int held(void)
{
	struct vcube_node *n;
	uint64_t t;
	int ret;

	ret = vcube_node_open(0, &n);
	T(!ret, "the handed-over node: %s", strerror(-ret));
	if (ret)
		return failed;
	ret = vcube_node_clock(n, &t);
	T(ret == -ENODEV, "a call on a node whose network is gone: %s",
	  strerror(-ret));
	vcube_node_close(n);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "held"))
		return held();
	if (argc == 3 && !strcmp(argv[1], "deleted"))
		return deleted(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "close"))
		return closing(argv[2], argc - 3, argv + 3);
	if (argc == 2 && !strcmp(argv[1], "bad"))
		return bad();
	if (argc == 2 && !strcmp(argv[1], "graph"))
		return graph();
	fprintf(stderr, "usage: nets deleted NAME | close NAME K=V... | bad | graph | held\n");
	return 2;
}
