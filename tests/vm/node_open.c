// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM, with vcube loaded as topology=hypercube dim=3: binding a node
 * (one process per node, -EBUSY for any other open), what a killed owner
 * leaves behind, and the ioctls' answers to good and bad input.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vcube.h"


static int owner_of(int node)
{
	struct vcube_node_desc d;

	if (vcube_node_describe(NULL, node, &d))
		return -1;
	return d.owner;
}

static int try_open(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Bound: the owner in sysfs, and every other open refused (EBUSY). */
static void exclusive(void)
{
	int status;
	pid_t pid;

	T(owner_of(3) == getpid(), "sysfs owner is this process");
	T(try_open("/dev/vcube3", O_RDWR) == -EBUSY, "second open: EBUSY");
	T(try_open("/dev/vcube3", O_RDONLY) == -EBUSY,
	  "second read-only open: EBUSY");
	T(try_open("/dev/vcube2", O_RDWR) == 0, "other nodes stay free");

	pid = fork();
	if (!pid)
		_exit(try_open("/dev/vcube3", O_RDWR) == -EBUSY ? 0 : 1);
	waitpid(pid, &status, 0);
	T(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	  "open from another process: EBUSY");
}

/* NODE_INFO describes the network; bad pointers, commands: EFAULT, ENOTTY. */
static void node_info(struct vcube_node *node, int fd)
{
	struct vcube_node_info info;
	int ret;

	ret = vcube_node_info(node, &info);
	T(ret == 0 && info.node == 3 && info.nodes == 8 &&
	  info.topology == VCUBE_TOPOLOGY_HYPERCUBE && info.dim == 3 &&
	  info.channels == 24 && info.diameter == 3,
	  "NODE_INFO: node %u of %u, %s dim %u, %u channels", info.node,
	  info.nodes, vcube_topology_name(info.topology), info.dim,
	  info.channels);
	T(ioctl(fd, VCUBE_IOC_NODE_INFO, NULL) == -1 && errno == EFAULT,
	  "NODE_INFO to NULL: EFAULT");
	T(ioctl(fd, _IO(VCUBE_IOC_MAGIC, 0x7f)) == -1 && errno == ENOTTY,
	  "unknown command: ENOTTY");
	T(ioctl(fd, _IOR('x', 0, struct vcube_node_info), &info) == -1 &&
	  errno == ENOTTY, "foreign ioctl letter: ENOTTY");
}

/* ROUTE: the e-cube path, its length when short of room, bad arguments. */
static void route(struct vcube_node *node, int fd)
{
	struct vcube_hop hops[8];
	struct vcube_route r;
	int ret;

	ret = vcube_node_route(node, 4, 0, hops, 8);
	T(ret == 3 && hops[0].from == 3 && hops[0].to == 2 &&
	  hops[1].to == 0 && hops[2].to == 4 && hops[2].dir == 2,
	  "ROUTE 3->4: 3 -> 2 -> 0 -> 4 (e-cube)");
	T(vcube_node_route(node, 3, 0, hops, 8) == 0, "ROUTE to itself: 0 hops");
	T(vcube_node_route(node, 4, 0, hops, 1) == 3,
	  "ROUTE into too little room reports the length");

	memset(&r, 0, sizeof(r));
	r.dst = 4;
	r.max_hops = 1;
	r.hops = (uintptr_t)hops;
	T(ioctl(fd, VCUBE_IOC_ROUTE, &r) == -1 && errno == EMSGSIZE &&
	  r.nhops == 3, "ROUTE too small: EMSGSIZE, nhops 3");
	r.max_hops = 8;
	r.flags = 1;
	T(ioctl(fd, VCUBE_IOC_ROUTE, &r) == -1 && errno == EINVAL,
	  "ROUTE unknown flag: EINVAL");
	r.flags = 0;
	r.dst = 8;
	T(ioctl(fd, VCUBE_IOC_ROUTE, &r) == -1 && errno == EINVAL,
	  "ROUTE to node 8 of 8: EINVAL");
	r.dst = 4;
	r.hops = 16;
	T(ioctl(fd, VCUBE_IOC_ROUTE, &r) == -1 && errno == EFAULT,
	  "ROUTE into a bad pointer: EFAULT");
	T(ioctl(fd, VCUBE_IOC_ROUTE, NULL) == -1 && errno == EFAULT,
	  "ROUTE from NULL: EFAULT");
}

/* Messages: SEND and RECV to itself, every field validated. */
static void msg_fields(int fd)
{
	struct vcube_send sa = { .dst = 3, .len = 8 };
	struct vcube_recv ra = { .src = 3, .len = 8 };
	char b[8] = "payload";

	sa.buf = (uintptr_t)b;
	T(ioctl(fd, VCUBE_IOC_SEND, &sa) == 0, "SEND to itself");
	ra.buf = (uintptr_t)b;
	T(ioctl(fd, VCUBE_IOC_RECV, &ra) == 0 && ra.st.len == 8 &&
	  ra.st.src == 3 && !memcmp(b, "payload", 8),
	  "RECV from itself, 8 bytes back");
	sa.pad = 1;
	T(ioctl(fd, VCUBE_IOC_SEND, &sa) == -1 && errno == EINVAL,
	  "SEND with non-zero padding: EINVAL");
	sa.pad = 0;
	sa.flags = 1U << 7;
	T(ioctl(fd, VCUBE_IOC_SEND, &sa) == -1 && errno == EINVAL,
	  "SEND with an unknown flag: EINVAL");
	sa.flags = 0;
	sa.dst = 8;
	T(ioctl(fd, VCUBE_IOC_SEND, &sa) == -1 && errno == EINVAL,
	  "SEND to node 8 of 8: EINVAL");
	sa.dst = 2;
	sa.buf = 16;
	T(ioctl(fd, VCUBE_IOC_SEND, &sa) == -1 && errno == EFAULT,
	  "SEND from a bad pointer: EFAULT");
	sa.buf = (uintptr_t)b;
	sa.len = (1 << 20) + 1;
	T(ioctl(fd, VCUBE_IOC_SEND, &sa) == -1 && errno == EMSGSIZE,
	  "SEND over max_msg: EMSGSIZE");
	T(ioctl(fd, VCUBE_IOC_SEND, NULL) == -1 && errno == EFAULT,
	  "SEND from NULL: EFAULT");
	ra.src = 9;
	T(ioctl(fd, VCUBE_IOC_RECV, &ra) == -1 && errno == EINVAL,
	  "RECV from node 9: EINVAL");
	ra.src = VCUBE_ANY;
	ra.flags = 1;
	T(ioctl(fd, VCUBE_IOC_RECV, &ra) == -1 && errno == EINVAL,
	  "RECV with an unknown flag: EINVAL");
	ra.flags = 0;
	ra.pad = 3;
	T(ioctl(fd, VCUBE_IOC_RECV, &ra) == -1 && errno == EINVAL,
	  "RECV with non-zero padding: EINVAL");
	ra.pad = 0;
	ra.flags = VCUBE_RECV_TAGCLASS;
	ra.tag = 0x10005;
	T(ioctl(fd, VCUBE_IOC_RECV, &ra) == -1 && errno == EINVAL,
	  "RECV of a tag class with low bits: EINVAL");
}

/* CANCEL: of receives posted, sent, completed, waited for; of sends. */
static void cancel(struct vcube_node *node, int fd)
{
	char b[8] = "payload";
	uint64_t rq = 0, sq = 0, cq = 0;
	struct vcube_status st;
	char c[8] = { 0 };

	T(ioctl(fd, VCUBE_IOC_CANCEL, NULL) == -1 &&
	  errno == EFAULT, "CANCEL from NULL: EFAULT");
	rq = 12345;
	T(ioctl(fd, VCUBE_IOC_CANCEL, &rq) == -1 &&
	  errno == EINVAL, "CANCEL an unknown request: EINVAL");
	T(vcube_node_irecv(node, 3, 0x20005, c, 8, &rq) == 0 &&
	  vcube_node_irecv_flags(node, 3, 0x20000, VCUBE_RECV_TAGCLASS, c,
				 8, &cq) == 0 &&
	  vcube_node_test(node, rq, NULL) == 0 &&
	  vcube_node_cancel(node, rq) == 0,
	  "CANCEL a posted receive: 0");
	T(vcube_node_cancel(node, rq) == -EINVAL,
	  "CANCEL it again: EINVAL");
	T(vcube_node_isend(node, 3, 0x20005, b, 8, 0, &sq) == 0 &&
	  vcube_node_cancel(node, sq) == -EINVAL &&
	  vcube_node_wait(node, sq, NULL) == 0,
	  "CANCEL a send: EINVAL");
	T(vcube_node_wait(node, cq, &st) == 0 &&
	  st.tag == 0x20005 && !memcmp(c, b, 8),
	  "the tag class receive posted after it takes the message");
	T(vcube_node_isend(node, 3, 0x20006, b, 8, 0, &sq) == 0 &&
	  vcube_node_wait(node, sq, NULL) == 0 &&
	  vcube_node_irecv(node, 3, 0x20006, c, 8, &rq) == 0 &&
	  vcube_node_delay(node, 1000000000) == 0 &&
	  vcube_node_cancel(node, rq) == -EBUSY &&
	  vcube_node_wait(node, rq, NULL) == 0,
	  "CANCEL a receive its message completed: EBUSY, "
	  "and the wait has it");
	T(vcube_node_cancel(node, rq) == -EINVAL,
	  "CANCEL a receive waited for: EINVAL");
}

/* WAIT, CLOCK and DELAY refuse unknown requests, flags, NULL. */
static void wait_clock_delay(int fd)
{
	struct vcube_wait wa = { .req = 12345 };

	T(ioctl(fd, VCUBE_IOC_WAIT, &wa) == -1 && errno == EINVAL,
	  "WAIT for an unknown request: EINVAL");
	wa.flags = 2;
	T(ioctl(fd, VCUBE_IOC_WAIT, &wa) == -1 && errno == EINVAL,
	  "WAIT with an unknown flag: EINVAL");
	T(ioctl(fd, VCUBE_IOC_CLOCK, NULL) == -1 && errno == EFAULT,
	  "CLOCK into NULL: EFAULT");
	T(ioctl(fd, VCUBE_IOC_DELAY, NULL) == -1 && errno == EFAULT,
	  "DELAY from NULL: EFAULT");
}

/*
 * COPY charges the copy rate (hypercube, default profile: 25 ns per
 * byte copied), refuses ns not 0, overflow and bad pointers.
 */
static void copy(int fd)
{
	struct vcube_copy cp = { .bytes = 1000, .ns = 1 };
	uint64_t t0 = 0, t1 = 0;

	T(ioctl(fd, VCUBE_IOC_COPY, NULL) == -1 &&
	  errno == EFAULT, "COPY from NULL: EFAULT");
	T(ioctl(fd, VCUBE_IOC_COPY, &cp) == -1 &&
	  errno == EINVAL, "COPY with ns not 0: EINVAL");
	cp = (struct vcube_copy){ .bytes = (1ULL << 40) + 1 };
	T(ioctl(fd, VCUBE_IOC_CLOCK, &t0) == 0 &&
	  ioctl(fd, VCUBE_IOC_COPY, &cp) == -1 &&
	  errno == EOVERFLOW &&
	  ioctl(fd, VCUBE_IOC_CLOCK, &t1) == 0 && t1 == t0,
	  "COPY of 2^40 + 1 bytes: EOVERFLOW, clock unmoved");
	cp = (struct vcube_copy){ .bytes = 1000 };
	T(ioctl(fd, VCUBE_IOC_COPY, &cp) == 0 && cp.ns == 25000 &&
	  ioctl(fd, VCUBE_IOC_CLOCK, &t1) == 0 &&
	  t1 == t0 + 25000,
	  "COPY of 1000 bytes: 25 us charged (%llu), clock +%llu",
	  (unsigned long long)cp.ns,
	  (unsigned long long)(t1 - t0));
	cp = (struct vcube_copy){ .bytes = 1000 };
	T(ioctl(fd, VCUBE_IOC_COPY, (void *)16) == -1 &&
	  errno == EFAULT &&
	  ioctl(fd, VCUBE_IOC_CLOCK, &t0) == 0 && t0 == t1,
	  "COPY from a bad pointer: EFAULT, clock unmoved");
}

/* MARK: printable, NUL-terminated, costs no time. */
static void mark(struct vcube_node *node, int fd)
{
	struct vcube_mark mk = { "step 1" };
	uint64_t t0 = 0, t1 = 0;

	T(ioctl(fd, VCUBE_IOC_CLOCK, &t0) == 0 &&
	  ioctl(fd, VCUBE_IOC_MARK, &mk) == 0 &&
	  vcube_node_mark(node, "x") == 0 &&
	  ioctl(fd, VCUBE_IOC_CLOCK, &t1) == 0 && t1 == t0,
	  "MARK: 0, clock unmoved");
	T(ioctl(fd, VCUBE_IOC_MARK, NULL) == -1 &&
	  errno == EFAULT, "MARK from NULL: EFAULT");
	memset(mk.label, 'a', sizeof(mk.label));
	T(ioctl(fd, VCUBE_IOC_MARK, &mk) == -1 &&
	  errno == EINVAL, "MARK with no NUL: EINVAL");
	strcpy(mk.label, "tab\there");
	T(ioctl(fd, VCUBE_IOC_MARK, &mk) == -1 &&
	  errno == EINVAL, "MARK with a control character: EINVAL");
	mk.label[0] = (char)0xc3;
	mk.label[1] = '\0';
	T(ioctl(fd, VCUBE_IOC_MARK, &mk) == -1 &&
	  errno == EINVAL, "MARK with a byte past ASCII: EINVAL");
	T(vcube_node_mark(node, "0123456789012345678901234567890123") ==
	  -EINVAL && vcube_node_mark(node, NULL) == -EINVAL,
	  "vcube_node_mark: a name of 34 characters, NULL: EINVAL");
}

/* DELAY moves the clock by as much. */
static void delay(int fd)
{
	uint64_t t, t0 = 0;

	t = 5000;
	T(ioctl(fd, VCUBE_IOC_CLOCK, &t0) == 0 &&
	  ioctl(fd, VCUBE_IOC_DELAY, &t) == 0 &&
	  ioctl(fd, VCUBE_IOC_CLOCK, &t) == 0 &&
	  t == t0 + 5000,
	  "DELAY 5 us moves the clock by 5 us (%llu ns to %llu)",
	  (unsigned long long)t0, (unsigned long long)t);
}

/* A receive into a bad buffer fails at copy-out, data lost; TEST, WAIT. */
static void bad_buffer(struct vcube_node *node, int fd)
{
	struct vcube_recv ra;
	uint64_t t, req;
	char b[8] = "payload";

	T(vcube_node_isend(node, 3, 5, b, 8, 0, &req) == 0 &&
	  vcube_node_wait(node, req, NULL) == 0, "isend to itself");
	ra = (struct vcube_recv){ .src = 3, .tag = 5, .len = 8, .buf = 16 };
	T(ioctl(fd, VCUBE_IOC_RECV, &ra) == -1 && errno == EFAULT,
	  "RECV into a bad pointer: EFAULT");
	T(vcube_node_irecv(node, 3, 6, b, 8, &req) == 0 &&
	  vcube_node_test(node, req, NULL) == 0,
	  "TEST of a receive nobody sends: not done");
	T(vcube_node_isend(node, 3, 6, "8 bytes", 8, 0, &t) == 0 &&
	  vcube_node_wait(node, t, NULL) == 0 &&
	  vcube_node_wait(node, req, NULL) == 0 &&
	  !memcmp(b, "8 bytes", 8), "then WAIT gets it");
	T(vcube_node_isend(node, 3, 8, "8 bytes", 8, 0, &req) == 0 &&
	  vcube_node_delay(node, 1000000) == 0 &&
	  vcube_node_test(node, req, NULL) == 1,
	  "TEST of a request already done: 1, at once");
}

/*
 * A forked child holds the descriptor but did not bind the node: it
 * may look (NODE_INFO), not take part (EPERM), least of all wait for
 * the parent's receive, whose payload goes into the parent's memory.
 */
static void forked_child(struct vcube_node *node, int fd)
{
	struct vcube_send sa = { .dst = 3, .len = 8 };
	struct vcube_node_info ni;
	struct vcube_wait wa;
	char pb[8] = "", b[8] = "fromself";
	uint64_t req;
	int status;
	pid_t pid;

	T(vcube_node_irecv(node, 3, 77, pb, sizeof(pb), &req) == 0,
	  "post a receive");
	pid = fork();
	if (!pid) {
		memset(&wa, 0, sizeof(wa));
		wa.req = req;
		sa.buf = (uintptr_t)b;
		sa.tag = 77;
		_exit(ioctl(fd, VCUBE_IOC_NODE_INFO, &ni) ? 1 :
		      ioctl(fd, VCUBE_IOC_SEND, &sa) != -1 ||
		      errno != EPERM ? 2 :
		      ioctl(fd, VCUBE_IOC_WAIT, &wa) != -1 ||
		      errno != EPERM ? 3 : 0);
	}
	waitpid(pid, &status, 0);
	T(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	  "forked child on the parent's descriptor: NODE_INFO answers, SEND and WAIT are EPERM (%d)",
	  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	T(vcube_node_send(node, 3, 77, b, 8, 0, NULL) == 0 &&
	  vcube_node_wait(node, req, NULL) == 0 && !memcmp(pb, b, 8),
	  "the parent's receive is still its own: 8 bytes in its buffer");
}

/* Closed, the node is unbound and can be bound again. */
static void closing(struct vcube_node *node)
{
	T(vcube_node_close(node) == 0, "close");
	T(owner_of(3) == 0, "closed node is unbound");
	T(try_open("/dev/vcube3", O_RDWR) == 0, "and can be bound again");
}

/* Read-only, a node answers questions but takes no part (EBADF). */
static void read_only(void)
{
	struct vcube_node_info ni;
	struct vcube_send sa = { .dst = 6, .len = 0 };
	int rfd = open("/dev/vcube6", O_RDONLY);

	T(rfd >= 0 && !ioctl(rfd, VCUBE_IOC_NODE_INFO, &ni) &&
	  ni.node == 6, "read-only open: NODE_INFO answers");
	T(rfd >= 0 && ioctl(rfd, VCUBE_IOC_SEND, &sa) == -1 &&
	  errno == EBADF, "read-only open: SEND is EBADF");
	{
		/* every call that takes part, before its argument is read */
		static const struct { unsigned long cmd; const char *name; } ops[] = {
			{ VCUBE_IOC_RECV, "RECV" }, { VCUBE_IOC_WAIT, "WAIT" },
			{ VCUBE_IOC_CLOCK, "CLOCK" }, { VCUBE_IOC_DELAY, "DELAY" },
			{ VCUBE_IOC_JITTER, "JITTER" }, { VCUBE_IOC_CNET, "CNET" },
			{ VCUBE_IOC_COPY, "COPY" },
			{ VCUBE_IOC_CANCEL, "CANCEL" }, { VCUBE_IOC_MARK, "MARK" },
		};
		char big[4096] = { 0 };
		unsigned int i, bad = 0;

		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (rfd < 0 || ioctl(rfd, ops[i].cmd, big) != -1 ||
			    errno != EBADF) {
				fprintf(stderr, "# read-only %s: %s\n",
					ops[i].name, strerror(errno));
				bad++;
			}
		T(!bad, "read-only open: RECV, WAIT, CLOCK, DELAY, JITTER, CNET, COPY, CANCEL and MARK are EBADF too");
	}
	if (rfd >= 0)
		close(rfd);
}

/* A process killed while bound leaves the node free. */
static void killed_owner(void)
{
	int ret, status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		struct vcube_node *n;

		if (vcube_node_open(5, &n))
			_exit(1);
		pause();
		_exit(0);
	}
	for (ret = 0; ret < 200 && owner_of(5) != pid; ret++)
		usleep(10000);
	T(owner_of(5) == pid, "child bound node 5");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	T(WIFSIGNALED(status) && owner_of(5) == 0 &&
	  try_open("/dev/vcube5", O_RDWR) == 0,
	  "killed owner leaves node 5 free");
}

int main(void)
{
	struct vcube_node *node;
	int fd, ret;

	ret = vcube_node_open(3, &node);
	T(ret == 0, "bind node 3 (%s)", strerror(-ret));
	if (ret)
		return 1;
	fd = vcube_node_fd(node);
	exclusive();
	node_info(node, fd);
	route(node, fd);
	msg_fields(fd);
	cancel(node, fd);
	wait_clock_delay(fd);
	copy(fd);
	mark(node, fd);
	delay(fd);
	bad_buffer(node, fd);
	forked_child(node, fd);
	closing(node);
	read_only();
	killed_owner();
	return failed;
}
