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
		{ { "profile=cray" }, -EINVAL, "unknown profile=cray" },
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
	fprintf(stderr, "usage: nets deleted NAME | close NAME K=V... | bad | held\n");
	return 2;
}
