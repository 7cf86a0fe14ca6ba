// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM, with vcube loaded as topology=hypercube dim=1: a signal loses
 * no message, duplicates none, and leaves virtual time as it was. Raw
 * ioctls (what the kernel answers, not what libvcube makes of it), then
 * libvcube's calls:
 *
 *  - a blocking receive stopped and continued (SIGSTOP, SIGCONT): the
 *    call never fails, gets the message, and completes at the virtual
 *    time of a run with no signal;
 *  - a blocking 64 KiB send cut by a handled SIGALRM: with SA_RESTART it
 *    never fails; without, EINTR with st.req naming the send, and then a
 *    wait for that id, or the same call again, completes it; each way the
 *    receiver gets the 65536 bytes once, then the next message;
 *  - vcube_node_send() and vcube_node_recv() cut by a handler without
 *    SA_RESTART: they return 0, the message whole and once.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "vcube.h"

#define LEN 65536


static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void handle(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

/* A pipe end pair each way: the parent says go, the child says done. */
struct chan {
	int go[2];
	int ready[2];
};

static void chan_init(struct chan *c)
{
	if (pipe(c->go) || pipe(c->ready))
		exit(2);
}

static void say(int fd)
{
	char c = 0;

	if (write(fd, &c, 1) != 1)
		_exit(2);
}

static void hear(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		_exit(2);
}

static unsigned char payload[LEN];

static void fill(unsigned int tag)
{
	size_t i;

	for (i = 0; i < LEN; i++)
		payload[i] = (unsigned char)(i * 7 + tag);
}

static int intact(const unsigned char *buf, size_t len, unsigned int tag)
{
	size_t i;

	if (len != LEN)
		return 0;
	for (i = 0; i < LEN; i++)
		if (buf[i] != (unsigned char)(i * 7 + tag))
			return 0;
	return 1;
}

/*
 * Node 1: bound, tells the parent, waits for go, then receives twice from
 * node 0 under any tag: the 64 KiB of tag 1, then tag 2. Exits 0 if so.
 */
static pid_t receiver(struct chan *c)
{
	static unsigned char buf[LEN];
	struct vcube_status st;
	struct vcube_node *node;
	pid_t pid = fork();

	if (pid)
		return pid;
	if (vcube_node_open(1, &node))
		_exit(2);
	say(c->ready[1]);
	hear(c->go[0]);
	if (vcube_node_recv(node, 0, VCUBE_ANY, buf, sizeof(buf), &st) ||
	    st.tag != 1 || !intact(buf, st.len, 1))
		_exit(3);
	if (vcube_node_recv(node, 0, VCUBE_ANY, buf, sizeof(buf), &st) ||
	    st.tag != 2)
		_exit(4);
	_exit(0);
}

enum cut { CUT_RESTART, CUT_WAIT, CUT_AGAIN, CUT_LIB };
static const char *const cut_name[] = {
	"SA_RESTART: the call goes on",
	"EINTR, then a wait for st.req",
	"EINTR, then the same call again",
	"vcube_node_send(), no SA_RESTART",
};

/*
 * Node 0 sends 64 KiB under tag 1, blocking, while node 1 is bound and
 * busy elsewhere; a SIGALRM cuts the send; then node 1 receives, and node
 * 0 sends tag 2.
 */
static void send_cut(enum cut how)
{
	struct vcube_send a;
	struct vcube_wait w;
	struct vcube_node *node;
	struct chan c;
	pid_t rpid, spid;
	int ret, err;

	chan_init(&c);
	rpid = receiver(&c);
	hear(c.ready[0]);
	spid = fork();
	if (!spid) {
		if (vcube_node_open(0, &node))
			_exit(2);
		handle(SIGALRM, how == CUT_RESTART ? SA_RESTART : 0);
		fill(1);
		memset(&a, 0, sizeof(a));
		a.dst = 1;
		a.tag = 1;
		a.buf = (uintptr_t)payload;
		a.len = LEN;
		say(c.ready[1]);
		if (how == CUT_LIB) {
			ret = vcube_node_send(node, 1, 1, payload, LEN, 0, NULL);
			err = -ret;
		} else {
			ret = ioctl(vcube_node_fd(node), VCUBE_IOC_SEND, &a);
			err = ret ? errno : 0;
		}
		if (how == CUT_RESTART || how == CUT_LIB) {
			if (err)
				_exit(10 + err);
		} else {
			if (err != EINTR || !a.st.req)
				_exit(5);
			say(c.ready[1]);	/* cut: node 1 may go on */
			if (how == CUT_WAIT) {
				memset(&w, 0, sizeof(w));
				w.req = a.st.req;
				ret = ioctl(vcube_node_fd(node), VCUBE_IOC_WAIT,
					    &w);
			} else {
				ret = ioctl(vcube_node_fd(node), VCUBE_IOC_SEND,
					    &a);
			}
			if (ret)
				_exit(6);
		}
		fill(2);
		_exit(vcube_node_send(node, 1, 2, payload, 16, 0, NULL) ? 7 : 0);
	}
	hear(c.ready[0]);
	nap(300);			/* in its send, blocked */
	kill(spid, SIGALRM);
	if (how == CUT_WAIT || how == CUT_AGAIN)
		hear(c.ready[0]);
	else
		nap(300);
	say(c.go[1]);
	ret = child_status(spid);
	err = child_status(rpid);
	T(ret == 0 && err == 0,
	  "64 KiB send cut by SIGALRM, %s: sender %d, receiver %d (0: the bytes once, then the next message)",
	  cut_name[how], ret, err);
}

/*
 * Node 1 receives blocking while node 0 is bound and idle; after @stop it
 * is stopped and continued, then node 0 sends 64 KiB. The receive's
 * completion time, or 0 if it failed. Node 0 is bound after the fork (a
 * child holding its descriptor would keep it bound) and before node 1's
 * receive (alone, node 1 would be in deadlock).
 */
static uint64_t recv_stopped(int stop)
{
	static unsigned char buf[LEN];
	struct vcube_node *node;
	struct vcube_recv a;
	struct chan c;
	uint64_t t = 0;
	pid_t pid;

	chan_init(&c);
	pid = fork();
	if (!pid) {
		struct vcube_node *n1;

		if (vcube_node_open(1, &n1))
			_exit(2);
		hear(c.go[0]);
		memset(&a, 0, sizeof(a));
		a.src = 0;
		a.tag = 1;
		a.buf = (uintptr_t)buf;
		a.len = sizeof(buf);
		if (ioctl(vcube_node_fd(n1), VCUBE_IOC_RECV, &a) ||
		    !intact(buf, a.st.len, 1))
			_exit(3);
		if (write(c.ready[1], &a.st.time, sizeof(a.st.time)) !=
		    sizeof(a.st.time))
			_exit(2);
		_exit(0);
	}
	if (vcube_node_open(0, &node))
		return 0;
	say(c.go[1]);
	nap(300);
	if (stop) {
		kill(pid, SIGSTOP);
		nap(300);
		kill(pid, SIGCONT);
		nap(300);
	}
	fill(1);
	if (vcube_node_send(node, 1, 1, payload, LEN, 0, NULL))
		t = 1;
	/* away from the network, node 0 would hold its time back: leave */
	vcube_node_close(node);
	if (t || read(c.ready[0], &t, sizeof(t)) != sizeof(t) ||
	    child_status(pid))
		t = 0;
	return t;
}

/* vcube_node_recv() with a handler without SA_RESTART: no EINTR. */
static void lib_recv_cut(void)
{
	static unsigned char buf[LEN];
	struct vcube_node *node;
	struct vcube_status st;
	struct chan c;
	int status;
	pid_t pid;

	chan_init(&c);
	pid = fork();
	if (!pid) {
		struct vcube_node *n1;
		int ret;

		if (vcube_node_open(1, &n1))
			_exit(2);
		handle(SIGALRM, 0);
		hear(c.go[0]);
		ret = vcube_node_recv(n1, 0, 1, buf, sizeof(buf), &st);
		_exit(ret ? 10 - ret : !intact(buf, st.len, 1));
	}
	if (vcube_node_open(0, &node))
		return;
	say(c.go[1]);
	nap(300);
	kill(pid, SIGALRM);
	nap(300);
	fill(1);
	vcube_node_send(node, 1, 1, payload, LEN, 0, NULL);
	vcube_node_close(node);
	status = child_status(pid);
	T(status == 0, "vcube_node_recv() cut by SIGALRM, no SA_RESTART: returns 0, the 64 KiB intact (%d)",
	  status);
}

int main(void)
{
	uint64_t t0, t1;
	int how;

	setvbuf(stdout, NULL, _IOLBF, 0);
	t0 = recv_stopped(0);
	t1 = recv_stopped(1);
	T(t0 && t1 == t0,
	  "blocking receive stopped and continued: no EINTR, the 64 KiB intact, done at %llu ns as with no signal (%llu)",
	  (unsigned long long)t1, (unsigned long long)t0);
	for (how = CUT_RESTART; how <= CUT_LIB; how++)
		send_cut(how);
	lib_recv_cut();
	return failed;
}
